// What clang needs to compile CUDA without the CUDA headers (-nocudainc):
// the attribute macros, dim3, cudaStream_t and the launch functions that
// <<<>>> and the kernel stubs call.
#pragma once

#include <stddef.h>
#include <stdlib.h>  // clang's cuda_wrappers/new, which <string> reaches, expects malloc

#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
#define __host__ __attribute__((host))

struct dim3 {
  unsigned x, y, z;
  __host__ __device__ dim3(unsigned x = 1, unsigned y = 1, unsigned z = 1) : x(x), y(y), z(z) {}
};
typedef struct CUstream_st *cudaStream_t;
typedef int cudaError_t;

// <<<>>> calls this one with CUDA >= 9.2 (the host side, which assumes a recent CUDA)...
extern "C" unsigned __cudaPushCallConfiguration(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
// ... and this one otherwise (the device side, which sees no CUDA version).
extern "C" cudaError_t cudaConfigureCall(dim3 grid, dim3 block, size_t shared = 0, cudaStream_t stream = 0);
// The stubs' bodies.
extern "C" cudaError_t __cudaPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared, cudaStream_t *stream);
extern "C" cudaError_t cudaLaunchKernel(const void *func, dim3 grid, dim3 block, void **args, size_t shared, cudaStream_t stream);
// What programs call beside launches (the CUDA runtime's declarations).
struct cudaLaunchConfig_t {
  dim3 gridDim, blockDim;
  size_t dynamicSmemBytes;
  cudaStream_t stream;
  void *attrs;
  unsigned numAttrs;
};
#define cudaStreamPerThread ((cudaStream_t)0x2)
extern "C" cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args);
extern "C" cudaError_t cudaGetLastError(void);
extern "C" const char *cudaGetErrorString(cudaError_t error);
