/*
 * Cooperative groups on the gpusym simulated device: thread blocks, tiles
 * (static and dynamic), coalesced groups (and the labeled and
 * binary partitions of a tile or coalesced group), and the grid of a
 * launch made with hipLaunchCooperativeKernel, built on __syncthreads and
 * the warp functions (gpusym_detail/warp_functions.h).
 *
 * A tile is a power of two.  A tile of at most a wavefront, or a coalesced
 * group, syncs as __syncwarp does, meeting the wavefront's lanes that reach
 * it.  A wider tile (up to 1024 threads) syncs at the block's barrier, so
 * every tile of the block must sync together, and its shuffles go through
 * __shared__ memory between two of them.  grid_group::sync() waits for
 * every block, which a cooperative launch runs at once, each on a worker
 * of its own.
 */
#ifndef GPUSYM_HIP_COOPERATIVE_GROUPS_H
#define GPUSYM_HIP_COOPERATIVE_GROUPS_H

#include "hip/hip_runtime.h"

#if !defined(__AMDGCN__)
extern "C" __device__ void __gpusym_grid_arrive(void);
extern "C" __device__ int __gpusym_grid_is_cooperative(void);
#endif

namespace cooperative_groups {

namespace __gpusym {

enum kind : unsigned int { block_kind, tile_kind, coalesced_kind, grid_kind };

static __device__ __GPUSYM_INLINE unsigned int block_rank() {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}

static __device__ __GPUSYM_INLINE void grid_sync() {
#if defined(__AMDGCN__)
  __builtin_trap();  // AMDGPU code objects are never run here
#else
  __syncthreads();
  if (block_rank() == 0) __gpusym_grid_arrive();
  __syncthreads();
#endif
}

// The lane of the `rank`th set bit of `mask`.
static __device__ __GPUSYM_INLINE int lane_of_rank(unsigned long long mask, unsigned int rank) {
  for (int lane = 0; lane < 64; lane++)
    if ((mask >> lane & 1) && rank-- == 0) return lane;
  return 0;
}

// A wide tile's shuffle: this thread's value to the thread of block rank
// `from`, through __shared__ memory (every thread of the block takes part).
template <typename T>
static __device__ __GPUSYM_INLINE T wide_shuffle(T value, unsigned int from) {
  alignas(alignof(T) > 16 ? alignof(T) : 16) __shared__ unsigned char slots[1024 * sizeof(T)];
  __builtin_memcpy(slots + block_rank() * sizeof(T), &value, sizeof(T));
  __syncthreads();
  __builtin_memcpy(&value, slots + from * sizeof(T), sizeof(T));
  __syncthreads();
  return value;
}

}  // namespace __gpusym

class thread_group {
 protected:
  unsigned int kind_, size_, rank_;
  unsigned long long mask_;  // a coalesced group's lanes in the wavefront

  __device__ thread_group(unsigned int kind, unsigned int size, unsigned int rank, unsigned long long mask = 0)
      : kind_(kind), size_(size), rank_(rank), mask_(mask) {}

 public:
  __device__ unsigned int size() const { return size_; }
  __device__ unsigned int num_threads() const { return size_; }
  __device__ unsigned int thread_rank() const { return rank_; }
  __device__ bool is_valid() const { return true; }
  __device__ void sync() const {
    if (kind_ == __gpusym::block_kind) {
      __syncthreads();
    } else if (kind_ == __gpusym::grid_kind) {
      __gpusym::grid_sync();
    } else if (size_ > static_cast<unsigned int>(warpSize)) {
      __syncthreads();  // a dynamic tile wider than a wavefront: the block's barrier
    } else {
      __syncwarp();
    }
  }

  friend __device__ thread_group tiled_partition(const thread_group &parent, unsigned int tile_size);
};

class thread_block : public thread_group {
  __device__ thread_block()
      : thread_group(__gpusym::block_kind, blockDim.x * blockDim.y * blockDim.z, __gpusym::block_rank()) {}
  friend __device__ thread_block this_thread_block();

 public:
  __device__ static void sync() { __syncthreads(); }
  __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
  __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
  __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
  __device__ dim3 dim_threads() const { return group_dim(); }
};

__device__ inline thread_block this_thread_block() { return thread_block(); }

class grid_group : public thread_group {
  __device__ grid_group()
      : thread_group(__gpusym::grid_kind, gridDim.x * gridDim.y * gridDim.z * blockDim.x * blockDim.y * blockDim.z,
                     (blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z)) *
                             (blockDim.x * blockDim.y * blockDim.z) +
                         __gpusym::block_rank()) {}
  friend __device__ grid_group this_grid();

 public:
  __device__ bool is_valid() const {
#if defined(__AMDGCN__)
    return false;
#else
    return __gpusym_grid_is_cooperative() != 0;
#endif
  }
  __device__ void sync() const { __gpusym::grid_sync(); }
  __device__ unsigned int block_rank() const { return blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z); }
  __device__ unsigned int num_blocks() const { return gridDim.x * gridDim.y * gridDim.z; }
  __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
  __device__ dim3 dim_blocks() const { return group_dim(); }
  __device__ dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
};

__device__ inline grid_group this_grid() { return grid_group(); }

/* thread_block_tile<Size, Parent>: the tile tiled_partition<Size>(parent)
 * returns, which converts to the plain thread_block_tile<Size>. */
template <unsigned int Size, typename ParentT = void>
class thread_block_tile;

template <unsigned int Size>
class thread_block_tile<Size, void> : public thread_group {
  static_assert(Size > 0 && Size <= 1024 && (Size & (Size - 1)) == 0, "a tile is a power of two, at most 1024");
  static constexpr unsigned long long kTileMask = Size >= 64 ? ~0ull : (1ull << Size) - 1;
  static constexpr bool kWide = Size > static_cast<unsigned int>(warpSize);  // wider than a wavefront

  __device__ unsigned long long mine(unsigned long long lanes) const {
    return (lanes >> (__lane_id() / Size * Size)) & kTileMask;
  }

 public:
  /* A tile of the block: its rank and number among the block's tiles. */
  __device__ thread_block_tile()
      : thread_block_tile(__gpusym::block_rank() / Size, (blockDim.x * blockDim.y * blockDim.z + Size - 1) / Size) {}
  /* A tile of a tile: its rank and number among its parent's tiles. */
  __device__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
      : thread_group(__gpusym::tile_kind, Size, __gpusym::block_rank() % Size),
        meta_rank_(meta_rank),
        meta_size_(meta_size) {}
  __device__ void sync() const {
    if (kWide)
      __syncthreads();
    else
      __syncwarp();
  }
  __device__ unsigned int meta_group_rank() const { return meta_rank_; }
  __device__ unsigned int meta_group_size() const { return meta_size_; }
  template <typename T>
  __device__ T shfl(T var, int src_rank) const {
    if (kWide) return wide(var, static_cast<unsigned int>(src_rank) % Size);
    return __shfl(var, src_rank, Size);
  }
  template <typename T>
  __device__ T shfl_down(T var, unsigned int delta) const {
    if (kWide) return wide(var, rank_ + delta < Size ? rank_ + delta : rank_);
    return __shfl_down(var, delta, Size);
  }
  template <typename T>
  __device__ T shfl_up(T var, unsigned int delta) const {
    if (kWide) return wide(var, rank_ >= delta ? rank_ - delta : rank_);
    return __shfl_up(var, delta, Size);
  }
  template <typename T>
  __device__ T shfl_xor(T var, unsigned int lane_mask) const {
    if (kWide) return wide(var, (rank_ ^ lane_mask) < Size ? rank_ ^ lane_mask : rank_);
    return __shfl_xor(var, lane_mask, Size);
  }
  /* The votes and matches are a wavefront's: tiles of at most one. */
  __device__ unsigned long long ballot(int predicate) const {
    static_assert(!kWide, "ballot, any, all and match_* are for tiles of at most a wavefront");
    return mine(__ballot(predicate));
  }
  /* The tile's lanes holding the same value as this one's, and whether all
   * of them do (*predicate). */
  template <typename T>
  __device__ unsigned long long match_any(T value) const {
    static_assert(!kWide, "ballot, any, all and match_* are for tiles of at most a wavefront");
    return mine(__match_any(value));
  }
  template <typename T>
  __device__ unsigned long long match_all(T value, int &predicate) const {
    unsigned long long same = match_any(value);
    predicate = same == mine(__activemask());
    return predicate ? same : 0;
  }
  __device__ int any(int predicate) const { return ballot(predicate) != 0; }
  __device__ int all(int predicate) const {
    unsigned long long voted = ballot(predicate);
    return voted == mine(__activemask());
  }

 private:
  // A wide tile's shuffle from its thread of rank `from`.
  template <typename T>
  __device__ __GPUSYM_INLINE T wide(T var, unsigned int from) const {
    return __gpusym::wide_shuffle(var, __gpusym::block_rank() - rank_ + from);
  }

  unsigned int meta_rank_, meta_size_;
};

template <unsigned int Size, typename ParentT>
class thread_block_tile : public thread_block_tile<Size, void> {
 public:
  using thread_block_tile<Size, void>::thread_block_tile;
};

template <unsigned int Size, typename Parent>
__device__ thread_block_tile<Size, Parent> tiled_partition(const Parent &) {
  return thread_block_tile<Size, Parent>();
}

template <unsigned int Size, unsigned int ParentSize, typename Grandparent>
__device__ thread_block_tile<Size, thread_block_tile<ParentSize, Grandparent>> tiled_partition(
    const thread_block_tile<ParentSize, Grandparent> &parent) {
  static_assert(Size <= ParentSize, "a tile of a tile is no larger than it");
  return thread_block_tile<Size, thread_block_tile<ParentSize, Grandparent>>(parent.thread_rank() / Size,
                                                                            ParentSize / Size);
}

__device__ inline thread_group tiled_partition(const thread_group &parent, unsigned int tile_size) {
  return thread_group(__gpusym::tile_kind, tile_size, parent.thread_rank() % tile_size);
}

class coalesced_group : public thread_group {
  __device__ explicit coalesced_group(unsigned long long lanes)
      : thread_group(__gpusym::coalesced_kind, __builtin_popcountll(lanes),
                     __builtin_popcountll(lanes & ((1ull << __lane_id()) - 1)), lanes) {}
  friend __device__ coalesced_group coalesced_threads();
  friend __device__ coalesced_group labeled_partition(const coalesced_group &group, int label);
  template <unsigned int Size, typename Parent>
  friend __device__ coalesced_group labeled_partition(const thread_block_tile<Size, Parent> &tile, int label);

 public:
  __device__ void sync() const { __syncwarp(); }
  template <typename T>
  __device__ T shfl(T var, unsigned int src_rank) const {
    return __shfl(var, __gpusym::lane_of_rank(mask_, src_rank % size_));
  }
  template <typename T>
  __device__ T shfl_down(T var, unsigned int delta) const {
    return rank_ + delta < size_ ? shfl(var, rank_ + delta) : shfl(var, rank_);
  }
  template <typename T>
  __device__ T shfl_up(T var, unsigned int delta) const {
    return rank_ >= delta ? shfl(var, rank_ - delta) : shfl(var, rank_);
  }
  __device__ unsigned long long ballot(int predicate) const {  // bit i: the group's rank i
    unsigned long long voted = __ballot(predicate), ranks = 0;
    for (unsigned int rank = 0; rank < size_; rank++)
      if (voted >> __gpusym::lane_of_rank(mask_, rank) & 1) ranks |= 1ull << rank;
    return ranks;
  }
  __device__ int any(int predicate) const { return __any(predicate); }
  __device__ int all(int predicate) const { return __all(predicate); }
};

__device__ inline coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* The lanes of a group whose label is this lane's, as a coalesced group;
 * binary_partition is the same with two labels. */
__device__ inline coalesced_group labeled_partition(const coalesced_group &group, int label) {
  return coalesced_group(group.mask_ & __match_any(label));
}
template <unsigned int Size, typename Parent>
__device__ coalesced_group labeled_partition(const thread_block_tile<Size, Parent> &, int label) {
  unsigned long long tile = (Size == 64 ? ~0ull : (1ull << Size) - 1) << (__lane_id() / Size * Size);
  return coalesced_group(tile & __match_any(label));
}
__device__ inline coalesced_group binary_partition(const coalesced_group &group, bool predicate) {
  return labeled_partition(group, predicate);
}
template <unsigned int Size, typename Parent>
__device__ coalesced_group binary_partition(const thread_block_tile<Size, Parent> &tile, bool predicate) {
  return labeled_partition(tile, predicate);
}

template <typename Group>
__device__ inline void sync(const Group &group) {
  group.sync();
}

}  // namespace cooperative_groups

#endif
