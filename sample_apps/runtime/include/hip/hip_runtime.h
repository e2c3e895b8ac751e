/*
 * HIP runtime header of gpusym, for programs compiled with clang's
 * `-x hip -nogpuinc`: the host API, the launch ABI clang emits, and the device
 * built-ins for both the AMDGPU targets and the simulated x86-64 device.
 */
#ifndef GPUSYM_HIP_RUNTIME_H
#define GPUSYM_HIP_RUNTIME_H

#include "hip/hip_runtime_api.h"

#define HIP_KERNEL_NAME(...) __VA_ARGS__
#define HIP_SYMBOL(symbol) symbol  /* as in HIP: the symbol overloads take the variable itself */

#if defined(__HIP__) && defined(__cplusplus)

/* The launch ABI of `kernel<<<grid, block, shmem, stream>>>(args)`. */
extern "C" hipError_t __hipPushCallConfiguration(dim3 gridDim, dim3 blockDim,
                                                 size_t sharedMem = 0,
                                                 hipStream_t stream = 0);
extern "C" hipError_t __hipPopCallConfiguration(dim3 *gridDim, dim3 *blockDim,
                                                size_t *sharedMem, hipStream_t *stream);

#define hipLaunchKernelGGL(kernel, numBlocks, numThreads, memPerBlock, stream, ...) \
  do {                                                                              \
    kernel<<<(numBlocks), (numThreads), (memPerBlock), (stream)>>>(__VA_ARGS__);    \
  } while (0)

#include "hip/gpusym_detail/device_builtins.h"
#include "hip/gpusym_detail/device_atomics.h"
#include "hip/gpusym_detail/device_math.h"

#endif /* __HIP__ */

#endif
