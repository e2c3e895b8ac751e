/*
 * cooperative_groups::memcpy_async(group, dst, src, bytes) (bytes a size_t
 * or a cuda::aligned_size_t<N>), its layout form memcpy_async(group, dst,
 * dst_count, src, src_count) (the smaller count of elements; the counts
 * size_t or aligned_size_t<N> of N-byte alignment), and
 * wait(group) and wait_prior<N>(group).  Each thread of the group copies
 * its part when it calls memcpy_async (gpusym_cuda_detail/async_copy.h);
 * the waits sync the group, after which every part is there.
 */
#ifndef GPUSYM_CUDA_CG_MEMCPY_ASYNC_H
#define GPUSYM_CUDA_CG_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"
#include "../gpusym_cuda_detail/async_copy.h"

namespace cooperative_groups {

template <typename Group, typename T, typename Shape>
__device__ inline void memcpy_async(const Group &group, T *__restrict__ destination, const T *__restrict__ source,
                                    const Shape &bytes) {
  ::cuda::__gpusym::copy_part(group, destination, source, bytes);
}

template <typename Group, typename T, typename DestinationCount, typename SourceCount>
__device__ inline void memcpy_async(const Group &group, T *__restrict__ destination, const DestinationCount &dst_count,
                                    const T *__restrict__ source, const SourceCount &src_count) {
  ::std::size_t count = static_cast<::std::size_t>(dst_count) < static_cast<::std::size_t>(src_count)
                            ? static_cast<::std::size_t>(dst_count)
                            : static_cast<::std::size_t>(src_count);
  constexpr ::std::size_t given = ::cuda::__gpusym::alignment_of<DestinationCount>::value;
  constexpr ::std::size_t alignment = given > alignof(T) ? given : alignof(T);
  ::cuda::__gpusym::copy_part(group, destination, source, ::cuda::aligned_size_t<alignment>(count * sizeof(T)));
}

template <typename Group>
__device__ inline void wait(const Group &group) {
  group.sync();
}
template <unsigned int NumStages, typename Group>
__device__ inline void wait_prior(const Group &group) {
  group.sync();
}

}  // namespace cooperative_groups

#endif
