/*
 * The device side of CUDA's runtime API (dynamic parallelism): kernels that
 * launch kernels, and the runtime calls device code may make.
 *
 * clang does not take a <<<>>> in device code.  gpusym-nvcc, when a compile
 * fails on one, compiles the source again with each launch in device code
 * spelled `__gpusym_cdp::configure<&kernel>(grid, block, shared, stream)
 * (arguments)` (device/compiler/device_launches.py).  The launched kernel
 * runs once the launching kernel's blocks are done, after the launches its
 * threads made before, and the launching kernel completes after it: a
 * schedule CUDA allows, which no correct program can tell from a GPU's.
 *
 * Device code's cudaMalloc and cudaFree take from the device heap, as
 * malloc() in device code does.  Its cudaMemcpyAsync and cudaMemsetAsync
 * run in order with its launches.  Its streams are names only: what a
 * kernel's threads launch runs in the order they launched it, whatever the
 * stream.
 * cudaLaunchDevice and cudaGetParameterBuffer, which nvcc's own code
 * generation calls, answer cudaErrorNotSupported.
 */
#ifndef GPUSYM_CUDA_DEVICE_RUNTIME_API_H
#define GPUSYM_CUDA_DEVICE_RUNTIME_API_H

#include "cuda_runtime_api.h"

/* The named streams of device-side launches (CUDA 12). */
#define cudaStreamTailLaunch ((cudaStream_t)0x3)
#define cudaStreamFireAndForget ((cudaStream_t)0x4)

#if defined(__cplusplus) && defined(__CUDACC__)
extern "C" {
__host__ __device__ int __gpusym_device_launch(const void *kernel, unsigned int grid_x, unsigned int grid_y,
                                               unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                               unsigned int block_z, size_t shared_mem, cudaStream_t stream,
                                               void **args);
__host__ __device__ int __gpusym_device_copy(void *dst, const void *src, size_t count, cudaStream_t stream);
__host__ __device__ int __gpusym_device_set(void *dst, int value, size_t count, cudaStream_t stream);
__device__ int __gpusym_device_last_error(int clear);
__device__ const char *__gpusym_device_error_string(int error);
__device__ const char *__gpusym_device_error_name(int error);
__device__ void *__gpusym_device_malloc(size_t size);
__device__ void __gpusym_device_free(void *pointer);

__device__ inline cudaError_t cudaGetLastError(void) { return static_cast<cudaError_t>(__gpusym_device_last_error(1)); }
__device__ inline cudaError_t cudaPeekAtLastError(void) {
  return static_cast<cudaError_t>(__gpusym_device_last_error(0));
}
__device__ inline const char *cudaGetErrorString(cudaError_t error) { return __gpusym_device_error_string(error); }
__device__ inline const char *cudaGetErrorName(cudaError_t error) { return __gpusym_device_error_name(error); }
__device__ inline cudaError_t cudaMalloc(void **devPtr, size_t size) {
  *devPtr = __gpusym_device_malloc(size);
  return *devPtr || !size ? cudaSuccess : cudaErrorMemoryAllocation;
}
__device__ inline cudaError_t cudaFree(void *devPtr) {
  __gpusym_device_free(devPtr);
  return cudaSuccess;
}
__device__ inline cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind,
                                              cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(__gpusym_device_copy(dst, src, count, stream));
}
__device__ inline cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream = 0) {
  return static_cast<cudaError_t>(__gpusym_device_set(devPtr, value, count, stream));
}
__device__ inline cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int) {
  *pStream = cudaStreamFireAndForget;
  return cudaSuccess;
}
__device__ inline cudaError_t cudaStreamDestroy(cudaStream_t) { return cudaSuccess; }

__device__ inline void *cudaGetParameterBuffer(size_t, size_t) { return nullptr; }
__device__ inline void *cudaGetParameterBufferV2(void *, dim3, dim3, unsigned int) { return nullptr; }
__device__ inline cudaError_t cudaLaunchDevice(void *, void *, dim3, dim3, unsigned int, cudaStream_t) {
  return cudaErrorNotSupported;
}
__device__ inline cudaError_t cudaLaunchDeviceV2(void *, cudaStream_t) { return cudaErrorNotSupported; }
/* What device-side cudaDeviceSynchronize became in CUDA 11.6. */
__device__ inline cudaError_t __cudaDeviceSynchronizeDeprecationAvoidance(void) { return cudaErrorNotSupported; }
}

template <typename T>
__device__ inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc(static_cast<void **>(static_cast<void *>(devPtr)), size);
}

namespace __gpusym_cdp {
/* The kernel `Kernel` names; a variable's initializer may name a kernel
 * where device code may not. */
template <auto Kernel>
inline constexpr auto entry = Kernel;

template <typename Kernel>
struct launch;
/* A configured launch: called with the kernel's arguments, converted to
 * its parameters' types as a launch converts them. */
template <typename... Parameters>
struct launch<void (*)(Parameters...)> {
  const void *kernel;
  dim3 grid, block;
  size_t shared_mem;
  cudaStream_t stream;
  __host__ __device__ cudaError_t operator()(Parameters... arguments) const {
    void *addresses[] = {const_cast<void *>(static_cast<const void *>(&arguments))..., nullptr};
    return static_cast<cudaError_t>(__gpusym_device_launch(kernel, grid.x, grid.y, grid.z, block.x, block.y, block.z,
                                                           shared_mem, stream, addresses));
  }
};

template <auto Kernel>
__host__ __device__ launch<decltype(Kernel)> configure(dim3 grid, dim3 block, size_t shared_mem = 0,
                                                        cudaStream_t stream = 0) {
  return {reinterpret_cast<const void *>(entry<Kernel>), grid, block, shared_mem, stream};
}
}  // namespace __gpusym_cdp
#endif

#endif
