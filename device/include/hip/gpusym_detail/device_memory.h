/*
 * The C library's memory functions in device code, as HIP has them:
 * malloc() and free() on the device's heap (hipLimitMallocHeapSize bytes;
 * null when a request does not fit), memcpy() and memset().  They overload
 * the host functions by target, so host code keeps the C library's.
 *
 * On AMDGPU, malloc and free are the ROCm device library's, as in clang's
 * HIP headers; on the simulated device, the runtime's heap (device_heap.cpp).
 */
#ifndef GPUSYM_DEVICE_MEMORY_H
#define GPUSYM_DEVICE_MEMORY_H

#if defined(__AMDGCN__)
extern "C" __device__ unsigned long long __ockl_dm_alloc(unsigned long long size);
extern "C" __device__ void __ockl_dm_dealloc(unsigned long long address);
static __device__ __GPUSYM_INLINE void *malloc(size_t size) { return reinterpret_cast<void *>(__ockl_dm_alloc(size)); }
static __device__ __GPUSYM_INLINE void free(void *pointer) {
  __ockl_dm_dealloc(reinterpret_cast<unsigned long long>(pointer));
}
#else
extern "C" __device__ void *__gpusym_device_malloc(size_t size);
extern "C" __device__ void __gpusym_device_free(void *pointer);
static __device__ __GPUSYM_INLINE void *malloc(size_t size) { return __gpusym_device_malloc(size); }
static __device__ __GPUSYM_INLINE void free(void *pointer) { __gpusym_device_free(pointer); }
#endif

static __device__ __GPUSYM_INLINE void *memcpy(void *destination, const void *source, size_t size) {
  return __builtin_memcpy(destination, source, size);
}
static __device__ __GPUSYM_INLINE void *memset(void *destination, int value, size_t size) {
  return __builtin_memset(destination, value, size);
}

#endif
