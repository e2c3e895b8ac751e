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

#include "hip/amd_detail/host_defines.h"

#if defined(__HIP__) || defined(__CUDA__)
/* __launch_bounds__(max threads per block[, min warps per execution unit]),
 * as HIP maps CUDA's two forms onto AMDGPU's attributes. */
#define __launch_bounds__(...) \
  __GPUSYM_LAUNCH_BOUNDS_PICK(__VA_ARGS__, __GPUSYM_LAUNCH_BOUNDS_2, __GPUSYM_LAUNCH_BOUNDS_1, )(__VA_ARGS__)
#define __GPUSYM_LAUNCH_BOUNDS_PICK(first, second, chosen, ...) chosen
#define __GPUSYM_LAUNCH_BOUNDS_1(max_threads) __attribute__((amdgpu_flat_work_group_size(1, max_threads)))
#define __GPUSYM_LAUNCH_BOUNDS_2(max_threads, min_warps) \
  __attribute__((amdgpu_flat_work_group_size(1, max_threads), amdgpu_waves_per_eu(min_warps)))
#else
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

/*
 * The target.  The simulated device's compile is for x86-64, so clang
 * defines none of the AMDGPU target's macros there itself: gpusym's driver
 * defines them for the build's first --offload-arch (__amdgcn_processor__,
 * __amdgcn_target_id__, __gfx90a__ and the like, __GFX9__ and the like,
 * __amdgcn_feature_*__; device/compiler/hip_source.py), as clang does in that
 * target's own compile.  The target id is also kept in the code object,
 * where the runtime reads it back as hipDeviceProp_t::gcnArchName
 * (device_queries.cpp): device code that chooses by __amdgcn_processor__
 * and host code that chooses by gcnArchName see the same target.
 */
#if defined(__HIP_DEVICE_COMPILE__) && !defined(__AMDGCN__) && defined(__amdgcn_target_id__)
extern "C" __device__ __attribute__((weak, used, visibility("default"))) const char __gpusym_target_id[] =
    __amdgcn_target_id__;
#endif

#ifdef __cplusplus
#define __GPUSYM_DEFAULT(value) = value
#else
#define __GPUSYM_DEFAULT(value)
#endif

#endif
