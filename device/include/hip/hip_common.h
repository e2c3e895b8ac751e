/*
 * Platform macros and function qualifiers, as HIP's hip_common.h and
 * host_defines.h provide them.
 */
#ifndef GPUSYM_HIP_COMMON_H
#define GPUSYM_HIP_COMMON_H

#ifndef __HIP_PLATFORM_AMD__
#define __HIP_PLATFORM_AMD__ 1
#endif
#define __HIP_PLATFORM_GPUSYM__ 1

#if defined(__HIP__) || defined(__CUDA__)
/* Compiled by clang as HIP: the qualifiers are clang's own attributes. */
#define __host__ __attribute__((host))
#define __device__ __attribute__((device))
#define __global__ __attribute__((global))
#define __constant__ __attribute__((constant))
#define __managed__ __attribute__((managed))
#if defined(__HIP_DEVICE_COMPILE__) && !defined(__AMDGCN__)
/*
 * Simulated device: the blocks of a dispatch run on several CPU threads at
 * once, each block's lanes on one of them, so block-shared memory is
 * thread-local storage (thread_local at block scope is implicitly static,
 * as __shared__ is).
 */
#define __shared__ __attribute__((shared)) thread_local
#else
#define __shared__ __attribute__((shared))
#endif
/* __launch_bounds__(max threads per block[, min warps per execution unit]). */
#define __launch_bounds__(...) \
  __GPUSYM_LAUNCH_BOUNDS_PICK(__VA_ARGS__, __GPUSYM_LAUNCH_BOUNDS_2, __GPUSYM_LAUNCH_BOUNDS_1, )(__VA_ARGS__)
#define __GPUSYM_LAUNCH_BOUNDS_PICK(first, second, chosen, ...) chosen
#define __GPUSYM_LAUNCH_BOUNDS_1(max_threads) __attribute__((amdgpu_flat_work_group_size(1, max_threads)))
#define __GPUSYM_LAUNCH_BOUNDS_2(max_threads, min_warps) \
  __attribute__((amdgpu_flat_work_group_size(1, max_threads), amdgpu_waves_per_eu(min_warps)))
#else
/* Plain C or C++: the qualifiers vanish, as they do in HIP's headers. */
#define __host__
#define __device__
#define __global__
#define __constant__
#define __managed__
#define __shared__
#define __launch_bounds__(...)
#endif

#define __HOST_DEVICE__ __host__ __device__

/* Older HIP's markers, which code still tests. */
#if defined(__clang__) && defined(__HIP__)
#define __HIP_CLANG_ONLY__ 1
#else
#define __HIP_CLANG_ONLY__ 0
#endif
#define HIP_PUBLIC_API __attribute__((visibility("default")))
#define HIP_INTERNAL_EXPORTED_API __attribute__((visibility("default")))

/* What the device compiled for has, as HIP's __HIP_ARCH_HAS_*__ say it: 1
 * in a device compile where it does, 0 elsewhere and in host code.  The
 * simulated device has the reducing barriers, and no warp functions yet. */
#if defined(__HIP_DEVICE_COMPILE__)
#define __GPUSYM_ARCH_HAS 1
#if defined(__AMDGCN__)
#define __GPUSYM_ARCH_HAS_WARP 1
#define __GPUSYM_ARCH_HAS_SYNC_EXT 0
#else
#define __GPUSYM_ARCH_HAS_WARP 0
#define __GPUSYM_ARCH_HAS_SYNC_EXT 1
#endif
#else
#define __GPUSYM_ARCH_HAS 0
#define __GPUSYM_ARCH_HAS_WARP 0
#define __GPUSYM_ARCH_HAS_SYNC_EXT 0
#endif
#define __HIP_ARCH_HAS_GLOBAL_INT32_ATOMICS__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_GLOBAL_FLOAT_ATOMIC_EXCH__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_SHARED_INT32_ATOMICS__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_SHARED_FLOAT_ATOMIC_EXCH__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_FLOAT_ATOMIC_ADD__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_GLOBAL_INT64_ATOMICS__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_SHARED_INT64_ATOMICS__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_DOUBLES__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_WARP_VOTE__ (__GPUSYM_ARCH_HAS_WARP)
#define __HIP_ARCH_HAS_WARP_BALLOT__ (__GPUSYM_ARCH_HAS_WARP)
#define __HIP_ARCH_HAS_WARP_SHUFFLE__ (__GPUSYM_ARCH_HAS_WARP)
#define __HIP_ARCH_HAS_WARP_FUNNEL_SHIFT__ (0)
#define __HIP_ARCH_HAS_THREAD_FENCE_SYSTEM__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_SYNC_THREAD_EXT__ (__GPUSYM_ARCH_HAS_SYNC_EXT)
#define __HIP_ARCH_HAS_SURFACE_FUNCS__ (0)
#define __HIP_ARCH_HAS_3DGRID__ (__GPUSYM_ARCH_HAS)
#define __HIP_ARCH_HAS_DYNAMIC_PARALLEL__ (0)

#ifdef __cplusplus
#define __GPUSYM_DEFAULT(value) = value
#else
#define __GPUSYM_DEFAULT(value)
#endif

#endif
