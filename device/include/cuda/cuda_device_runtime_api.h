/*
 * The device side of CUDA's runtime API (dynamic parallelism): kernels that
 * launch kernels.  The simulated device does not launch from device code, so
 * these answer cudaErrorNotSupported.  Libraries declare paths that use
 * them (Thrust's device-side launches, CUB's device_synchronize) and take
 * them only when called from a kernel, which host-launched code never does.
 */
#ifndef GPUSYM_CUDA_DEVICE_RUNTIME_API_H
#define GPUSYM_CUDA_DEVICE_RUNTIME_API_H

#include "cuda_runtime_api.h"

#if defined(__cplusplus) && defined(__CUDACC__)
extern "C" {
__device__ inline void *cudaGetParameterBuffer(size_t, size_t) { return nullptr; }
__device__ inline void *cudaGetParameterBufferV2(void *, dim3, dim3, unsigned int) { return nullptr; }
__device__ inline cudaError_t cudaLaunchDevice(void *, void *, dim3, dim3, unsigned int, cudaStream_t) {
  return cudaErrorNotSupported;
}
__device__ inline cudaError_t cudaLaunchDeviceV2(void *, cudaStream_t) { return cudaErrorNotSupported; }
/* What device-side cudaDeviceSynchronize became in CUDA 11.6. */
__device__ inline cudaError_t __cudaDeviceSynchronizeDeprecationAvoidance(void) { return cudaErrorNotSupported; }
}
#endif

#endif
