/*
 * What cooperative_groups::reduce and the scans build on: the operations
 * plus, less (the smaller), greater (the larger), bit_and, bit_or, bit_xor;
 * and a shuffle by rank within a tile or a coalesced group, inlined into
 * its caller, so that the lanes calling one from one place in the source
 * meet at that place, whatever the optimisation level (in a tile wider
 * than a warp, every thread of the block).
 */
#ifndef GPUSYM_CUDA_CG_FUNCTIONAL_H
#define GPUSYM_CUDA_CG_FUNCTIONAL_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

#define __GPUSYM_CG_OP(name, expression)                                                  \
  template <typename T>                                                                   \
  struct name {                                                                           \
    __device__ __host__ T operator()(const T &a, const T &b) const { return expression; } \
  };
__GPUSYM_CG_OP(plus, a + b)
__GPUSYM_CG_OP(less, b < a ? b : a)
__GPUSYM_CG_OP(greater, a < b ? b : a)
__GPUSYM_CG_OP(bit_and, a & b)
__GPUSYM_CG_OP(bit_or, a | b)
__GPUSYM_CG_OP(bit_xor, a ^ b)
#undef __GPUSYM_CG_OP

namespace __gpusym {

/* A coalesced group's lanes (thread_group's protected mask_, read through
 * a pointer to member formed in a derived class). */
struct group_lanes : thread_group {
  static __device__ __GPUSYM_INLINE unsigned long long of(const thread_group &group) {
    return group.*(&group_lanes::mask_);
  }
};

template <typename T, unsigned int Size, typename Parent>
static __device__ __GPUSYM_INLINE T shfl_rank(const thread_block_tile<Size, Parent> &tile, T value, unsigned int rank) {
  if (Size > static_cast<unsigned int>(warpSize))  // a tile wider than a warp: through __shared__ memory
    return wide_shuffle(value, block_rank() - tile.thread_rank() + rank);
  return __shfl(value, static_cast<int>(rank), Size);
}
template <typename T>
static __device__ __GPUSYM_INLINE T shfl_rank(const coalesced_group &group, T value, unsigned int rank) {
  return __shfl(value, lane_of_rank(group_lanes::of(group), rank));
}

}  // namespace __gpusym
}  // namespace cooperative_groups

#endif
