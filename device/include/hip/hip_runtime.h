/*
 * HIP runtime header of gpusym, for programs compiled with clang's
 * `-x hip -nogpuinc`: the host API, the launch ABI clang emits, and the device
 * built-ins for both the AMDGPU targets and the simulated x86-64 device.
 */
#ifndef GPUSYM_HIP_RUNTIME_H
#define GPUSYM_HIP_RUNTIME_H

/* The qualifiers first: clang's cuda_wrappers headers (<algorithm>, <new>,
 * ...), which a compile by clang itself gets where it finds a ROCm
 * installation, use them. */
#include "hip/amd_detail/host_defines.h"

/* The C and C++ library headers HIP's own hip_runtime.h brings in (with
 * clang's HIP wrapper), which programs come to rely on: std::string and
 * std::unique_ptr, for one, arrive through <thread> and <complex>. */
#include <assert.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef __cplusplus
#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iosfwd>
#include <new>
#include <thread>
#include <tuple>
#include <type_traits>
#include <utility>
#endif

#include "hip/hip_runtime_api.h"

/* __align__(n), CUDA's spelling of an alignment, which HIP keeps
 * (`typedef struct __align__(16) { ... } T;`). */
#if !defined(__align__)
#define __align__(n) __attribute__((aligned(n)))
#endif

#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(symbol) symbol  /* as in HIP: the symbol overloads take the variable itself */

#if defined(__HIP__) && defined(__cplusplus)

/* The launch ABI of `kernel<<<grid, block, shmem, stream>>>(args)`. */
extern "C" hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                 size_t sharedMem = 0,
                                                 hipStream_t stream = 0);
extern "C" hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                size_t *sharedMem, hipStream_t *stream);

/*
 * hipLaunchKernelGGL(kernel, grid, block, shmem, stream, args...): as in HIP,
 * a macro for the triple-chevron launch (clang calls the kernel's
 * __device_stub__ through its handle), so the arguments convert as in a call
 * and a kernel template's arguments are deduced from them.  A kernel name
 * with commas in its template arguments needs HIP_KERNEL_NAME(...).  With
 * HIP_TEMPLATE_KERNEL_LAUNCH defined, it is HIP's function template instead.
 */
#if defined(HIP_TEMPLATE_KERNEL_LAUNCH)
template <typename... Args, typename Kernel = void (*)(Args...)>
static inline void hipLaunchKernelGGL(Kernel kernel, const dim3 &numBlocks, const dim3 &dimBlocks,
                                      uint32_t sharedMemBytes, hipStream_t stream, Args... args) {
  kernel<<<numBlocks, dimBlocks, sharedMemBytes, stream>>>(args...);
}
#else
#define hipLaunchKernelGGL(kernelName, numBlocks, numThreads, memPerBlock, streamId, ...) \
  do {                                                                                    \
    kernelName<<<(numBlocks), (numThreads), (memPerBlock), (streamId)>>>(__VA_ARGS__);   \
  } while (0)
#endif

#include "hip/gpusym_detail/device_builtins.h"
#include "hip/gpusym_detail/warp_functions.h"
#include "hip/gpusym_detail/device_atomics.h"
#include "hip/gpusym_detail/device_math.h"
#include "hip/gpusym_detail/device_intrinsics.h"
#include "hip/gpusym_detail/amdgpu_builtins.h"
#include "hip/gpusym_detail/amd_device_functions.h"
#include "hip/gpusym_detail/device_memory.h"
#include "hip/gpusym_detail/device_new.h"
#include "hip/gpusym_detail/texture_fetch.h"
#include "hip/gpusym_detail/surface_functions.h"

/* HIP's older names of the coordinates and of dynamic shared memory, and
 * the placeholder type of its old launch macros' first argument. */
#define hipThreadIdx_x (threadIdx.x)
#define hipThreadIdx_y (threadIdx.y)
#define hipThreadIdx_z (threadIdx.z)
#define hipBlockIdx_x (blockIdx.x)
#define hipBlockIdx_y (blockIdx.y)
#define hipBlockIdx_z (blockIdx.z)
#define hipBlockDim_x (blockDim.x)
#define hipBlockDim_y (blockDim.y)
#define hipBlockDim_z (blockDim.z)
#define hipGridDim_x (gridDim.x)
#define hipGridDim_y (gridDim.y)
#define hipGridDim_z (gridDim.z)
#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];
#define HIP_DYNAMIC_SHARED_ATTRIBUTE
typedef int hipLaunchParm;

#endif /* __HIP__ */

#endif
