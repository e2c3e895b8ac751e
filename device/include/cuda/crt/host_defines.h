/* The qualifiers __host__, __device__, __global__, __shared__, __constant__,
 * __managed__, __forceinline__, __noinline__ and __align__, as HIP's headers
 * define them, and CUDA's __device_builtin__ family and __grid_constant__,
 * which mean nothing here. */
#ifndef GPUSYM_CUDA_CRT_HOST_DEFINES_H
#define GPUSYM_CUDA_CRT_HOST_DEFINES_H

/* CUDA's own guard, which code tests before undefining __host__ and
 * __device__ (Thrust's guarded_cuda_runtime_api.h). */
#define __HOST_DEFINES_H__
#define GPUSYM_CUDA_HEADERS 1 /* a CUDA source: HIP's headers leave out what CUDA has not */
#include "hip/amd_detail/host_defines.h"

#define __device_builtin__
#define __device_builtin_texture_type__
#define __device_builtin_surface_type__
#define __cudart_builtin__
/* A kernel parameter the device reads in place, never copied: parameters
 * are the launch's own memory here either way. */
#define __grid_constant__
#if !defined(__align__)
#define __align__(n) __attribute__((aligned(n)))
#endif

#endif
