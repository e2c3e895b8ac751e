/*
 * The qualifiers of HIP's language (__host__, __device__, __global__,
 * __shared__, __constant__, __managed__, __forceinline__, __noinline__),
 * at the path and under the include guard ROCm gives them.  Code tests the
 * guard: rocThrust's guarded_hip_runtime_api.h, for one, undefines __host__
 * and __device__ unless it is defined, counting on HIP's headers to define
 * them again, which an include guard of another name would prevent.
 */
#ifndef HIP_INCLUDE_HIP_AMD_DETAIL_HOST_DEFINES_H
#define HIP_INCLUDE_HIP_AMD_DETAIL_HOST_DEFINES_H

/* The guard of the header's older home (hcc_detail), which older code tests. */
#define HIP_INCLUDE_HIP_HCC_DETAIL_HOST_DEFINES_H

/* Older HIP's launch machinery; code still tests the macro, always 1 now. */
#ifndef GENERIC_GRID_LAUNCH
#define GENERIC_GRID_LAUNCH 1
#endif

#if defined(__clang__) && (defined(__HIP__) || defined(__CUDA__))

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

#define __forceinline__ inline __attribute__((always_inline))

/*
 * clang reads __noinline__ as a keyword in HIP and CUDA (the feature
 * cuda_noinline_keyword) precisely so that it needs no macro: a macro
 * expanding to an attribute would turn the GNU spelling
 * __attribute__((__noinline__)), which libstdc++ uses (<string>, <memory>,
 * ...), into a nested attribute and break it.  Only a clang without the
 * keyword gets the macro.
 */
#if !defined(__has_feature) || !__has_feature(cuda_noinline_keyword)
#define __noinline__ __attribute__((noinline))
#endif

#else

/*
 * Plain C or C++: the qualifiers vanish, as in HIP's headers.  __noinline__
 * becomes nothing, so __attribute__((__noinline__)) stays well formed (an
 * empty attribute list).
 */
#define __host__
#define __device__
#define __global__
#define __constant__
#define __managed__
#define __shared__
#define __forceinline__ inline
#define __noinline__

#endif

/* Marks HIP's image functions; they are available on every device here. */
#define __hip_img_chk__

#endif
