/*
 * The copies of cuda::memcpy_async and cooperative_groups::memcpy_async,
 * and cuda::aligned_size_t, the size of a copy whose addresses and size
 * are multiples of its alignment.  The simulated device has no copy
 * engine: a copy is done when it is issued, which every later wait
 * (a barrier's phase, a pipeline's stage, cg::wait) finds complete.  A
 * group's copy is shared out: each thread copies its part, in units of
 * the alignment, and the group's wait, a barrier its threads arrive at
 * once they have issued it, orders their parts before what follows.
 */
#ifndef GPUSYM_CUDA_ASYNC_COPY_H
#define GPUSYM_CUDA_ASYNC_COPY_H

#include "libcudacxx.h"

namespace cuda {

template <::std::size_t Alignment>
struct aligned_size_t {
  static_assert(Alignment != 0 && (Alignment & (Alignment - 1)) == 0, "an alignment is a power of two");
  static constexpr ::std::size_t align = Alignment;
  ::std::size_t value;
  __GPUSYM_CONSTEXPR explicit aligned_size_t(::std::size_t size) : value(size) {}
  __GPUSYM_CONSTEXPR operator ::std::size_t() const { return value; }
};

namespace __gpusym {

template <class Shape>
struct alignment_of {
  static constexpr ::std::size_t value = 1;
};
template <::std::size_t Alignment>
struct alignment_of<aligned_size_t<Alignment>> {
  static constexpr ::std::size_t value = Alignment;
};

template <::std::size_t Alignment>
__GPUSYM_HD void copy_aligned(void *destination, const void *source, ::std::size_t bytes) {
  __builtin_memcpy(__builtin_assume_aligned(destination, Alignment), __builtin_assume_aligned(source, Alignment),
                   bytes);
}

/* A thread's copy of `shape` bytes (a size_t or an aligned_size_t). */
template <class Shape>
__GPUSYM_HD void copy(void *destination, const void *source, Shape shape) {
  copy_aligned<alignment_of<Shape>::value>(destination, source, static_cast<::std::size_t>(shape));
}

/* This thread's part of `group`'s copy of `shape` bytes. */
template <class Group, class Shape>
__device__ inline void copy_part(const Group &group, void *destination, const void *source, Shape shape) {
  constexpr ::std::size_t unit = alignment_of<Shape>::value;
  ::std::size_t bytes = static_cast<::std::size_t>(shape), count = group.size(), rank = group.thread_rank();
  ::std::size_t part = ((bytes + unit - 1) / unit + count - 1) / count * unit;
  ::std::size_t begin = rank * part < bytes ? rank * part : bytes;
  ::std::size_t end = bytes - begin < part ? bytes : begin + part;
  copy_aligned<unit>(static_cast<char *>(destination) + begin, static_cast<const char *>(source) + begin,
                     end - begin);
}

}  // namespace __gpusym
}  // namespace cuda

#endif
