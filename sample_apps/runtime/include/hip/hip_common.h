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

#ifdef __cplusplus
#define __GPUSYM_DEFAULT(value) = value
#else
#define __GPUSYM_DEFAULT(value)
#endif

#endif
