/*
 * cooperative_groups::reduce(group, value, op): `op` (cg::plus, cg::less,
 * cg::greater, cg::bit_and, cg::bit_or, cg::bit_xor or any associative
 * function object) over the values of a tile (thread_block_tile<N>) or a
 * coalesced group, returned to every thread of it.
 */
#ifndef GPUSYM_CUDA_CG_REDUCE_H
#define GPUSYM_CUDA_CG_REDUCE_H

#include "../gpusym_cuda_detail/cg_functional.h"

namespace cooperative_groups {

/* A tree of shuffles: rank r ends holding ranks r, r + 1, ... combined in
 * order, rank 0 all of them, which it hands to every rank. */
template <typename Group, typename T, typename Op>
__device__ __GPUSYM_INLINE T reduce(const Group &group, T value, Op op) {
  unsigned int rank = group.thread_rank(), size = group.size();
  for (unsigned int offset = 1; offset < size; offset <<= 1) {
    T other = __gpusym::shfl_rank(group, value, (rank + offset) % size);
    if (rank + offset < size) value = op(value, other);
  }
  return __gpusym::shfl_rank(group, value, 0);
}

}  // namespace cooperative_groups

#endif
