/*
 * CUDA's cooperative groups (namespace cooperative_groups): HIP's
 * (hip/hip_cooperative_groups.h) on 32-lane warps: this_thread_block(),
 * tiled_partition<N> (thread_block_tile<32> is a whole warp) and
 * tiled_partition(group, n), coalesced_threads(), this_grid() with
 * grid.sync() under a cooperative launch; and CUDA's free functions
 * thread_rank(group), group_size(group) and sync(group).  Reductions and
 * scans: cooperative_groups/reduce.h and cooperative_groups/scan.h.
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

}  // namespace cooperative_groups

#endif
