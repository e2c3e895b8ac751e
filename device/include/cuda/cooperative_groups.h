/*
 * CUDA's cooperative groups (namespace cooperative_groups): HIP's
 * (hip/hip_cooperative_groups.h) on 32-lane warps: this_thread_block(),
 * tiled_partition<N> (thread_block_tile<32> is a whole warp) and
 * tiled_partition(group, n), coalesced_threads(), this_grid() with
 * grid.sync() under a cooperative launch; and CUDA's free functions
 * thread_rank(group), group_size(group) and sync(group).  Tiles wider than
 * a warp (tiled_partition<64> ... <1024>) need no block_tile_memory here:
 * this_thread_block(scratch) is this_thread_block(); their threads sync
 * at the block's barrier, all tiles together.  Reductions and scans:
 * cooperative_groups/reduce.h and cooperative_groups/scan.h; copies:
 * cooperative_groups/memcpy_async.h.
 */
#ifndef GPUSYM_CUDA_COOPERATIVE_GROUPS_H
#define GPUSYM_CUDA_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"
#define GPUSYM_CUDA_HEADERS 1 /* a CUDA source: HIP's headers leave out what CUDA has not */
#include "hip/hip_cooperative_groups.h"

namespace cooperative_groups {

template <typename Group>
__device__ inline unsigned long long thread_rank(const Group &group) {
  return group.thread_rank();
}
template <typename Group>
__device__ inline unsigned long long group_size(const Group &group) {
  return group.size();
}

/* The scratch memory CUDA's tiles wider than a warp use: nothing here but
 * the room (gpusym's wide tiles keep their own). */
template <unsigned int MaxBlockSize = 1024>
struct block_tile_memory {
  alignas(16) unsigned char reserved[MaxBlockSize / 32 * 8 + 16];
};
template <unsigned int MaxBlockSize>
__device__ inline thread_block this_thread_block(block_tile_memory<MaxBlockSize> &) {
  return this_thread_block();
}

/* CUDA 11's spelling of the same. */
namespace experimental {
template <unsigned int TileCommunicationSize = 8, unsigned int MaxBlockSize = 1024>
struct block_tile_memory {
  alignas(16) unsigned char reserved[MaxBlockSize / 32 * TileCommunicationSize + 16];
};
template <unsigned int TileCommunicationSize, unsigned int MaxBlockSize>
__device__ inline thread_block this_thread_block(block_tile_memory<TileCommunicationSize, MaxBlockSize> &) {
  return ::cooperative_groups::this_thread_block();
}
using ::cooperative_groups::tiled_partition;
}  // namespace experimental

}  // namespace cooperative_groups

#endif
