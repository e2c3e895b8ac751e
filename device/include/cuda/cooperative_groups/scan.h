/*
 * cooperative_groups::inclusive_scan and exclusive_scan(group, value[, op]):
 * each thread of a tile or coalesced group gets `op` (cg::plus by default)
 * over the values of the ranks up to its own, included or not; rank 0's
 * exclusive result is T().
 */
#ifndef GPUSYM_CUDA_CG_SCAN_H
#define GPUSYM_CUDA_CG_SCAN_H

#include "../gpusym_cuda_detail/cg_functional.h"

namespace cooperative_groups {

template <typename Group, typename T, typename Op>
__device__ __GPUSYM_INLINE T inclusive_scan(const Group &group, T value, Op op) {
  unsigned int rank = group.thread_rank(), size = group.size();
  for (unsigned int offset = 1; offset < size; offset <<= 1) {
    T other = __gpusym::shfl_rank(group, value, rank >= offset ? rank - offset : rank);
    if (rank >= offset) value = op(other, value);
  }
  return value;
}
template <typename Group, typename T>
__device__ __GPUSYM_INLINE T inclusive_scan(const Group &group, T value) {
  return inclusive_scan(group, value, plus<T>());
}

template <typename Group, typename T, typename Op>
__device__ __GPUSYM_INLINE T exclusive_scan(const Group &group, T value, Op op) {
  unsigned int rank = group.thread_rank();
  T before = __gpusym::shfl_rank(group, inclusive_scan(group, value, op), rank ? rank - 1 : 0);
  return rank ? before : T();
}
template <typename Group, typename T>
__device__ __GPUSYM_INLINE T exclusive_scan(const Group &group, T value) {
  return exclusive_scan(group, value, plus<T>());
}

}  // namespace cooperative_groups

#endif
