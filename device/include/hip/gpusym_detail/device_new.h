/*
 * operator new and operator delete in device code, as HIP programs have
 * them through clang's cuda_wrappers/new (which gpusym's compiles do not
 * see: they use -nogpuinc): placement new and its delete, so that
 * `new (place) T(...)` constructs an object in device code, and new and
 * delete on the device's heap (malloc and free, device_memory.h).  Device
 * code has no exceptions: new answers null when the heap is exhausted.
 * They overload the C++ library's functions by target, so host code keeps
 * the library's own.  A compile that does see clang's wrapper (clang run
 * by hand on a machine with a ROCm installation it finds) has them from
 * there, with the same meaning.
 */
#ifndef GPUSYM_DEVICE_NEW_H
#define GPUSYM_DEVICE_NEW_H

#include <new>

#ifndef __CLANG_CUDA_WRAPPERS_NEW
/* Placement forms: the object goes where it is told; nothing to free. */
__device__ __GPUSYM_INLINE void *operator new(__SIZE_TYPE__, void *place) noexcept { return place; }
__device__ __GPUSYM_INLINE void *operator new[](__SIZE_TYPE__, void *place) noexcept { return place; }
__device__ __GPUSYM_INLINE void operator delete(void *, void *) noexcept {}
__device__ __GPUSYM_INLINE void operator delete[](void *, void *) noexcept {}

/* On the device heap; a request of 0 bytes still gets a distinct block.
 * C++ wants replacements of the library's new and delete out of line, in
 * one place; device code has no library to replace, and every translation
 * unit's device code needs its own, so they are inline, as clang's own
 * wrapper has them. */
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Winline-new-delete"
static __device__ __GPUSYM_INLINE void *__gpusym_device_new(__SIZE_TYPE__ size) { return malloc(size ? size : 1); }
__device__ __GPUSYM_INLINE void *operator new(__SIZE_TYPE__ size) { return __gpusym_device_new(size); }
__device__ __GPUSYM_INLINE void *operator new[](__SIZE_TYPE__ size) { return __gpusym_device_new(size); }
__device__ __GPUSYM_INLINE void *operator new(__SIZE_TYPE__ size, const std::nothrow_t &) noexcept {
  return __gpusym_device_new(size);
}
__device__ __GPUSYM_INLINE void *operator new[](__SIZE_TYPE__ size, const std::nothrow_t &) noexcept {
  return __gpusym_device_new(size);
}
__device__ __GPUSYM_INLINE void operator delete(void *pointer) noexcept { free(pointer); }
__device__ __GPUSYM_INLINE void operator delete[](void *pointer) noexcept { free(pointer); }
__device__ __GPUSYM_INLINE void operator delete(void *pointer, const std::nothrow_t &) noexcept { free(pointer); }
__device__ __GPUSYM_INLINE void operator delete[](void *pointer, const std::nothrow_t &) noexcept { free(pointer); }
#if __cplusplus >= 201402L
/* The sized forms C++14 calls when it knows the size. */
__device__ __GPUSYM_INLINE void operator delete(void *pointer, __SIZE_TYPE__) noexcept { free(pointer); }
__device__ __GPUSYM_INLINE void operator delete[](void *pointer, __SIZE_TYPE__) noexcept { free(pointer); }
#endif
#pragma clang diagnostic pop
#endif

#endif
