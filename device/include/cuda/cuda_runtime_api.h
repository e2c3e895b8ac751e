/*
 * CUDA's runtime API on the gpusym simulated device.  Each cuda* function
 * is a function of the simulated runtime (so a debugger can break on it and
 * a failing call is named as the program called it), doing what its hip*
 * twin does.  CUDA's handles are HIP's (cudaStream_t is hipStream_t, ...),
 * and CUDA's error codes and enumerations keep CUDA's own values.
 */
#ifndef GPUSYM_CUDA_RUNTIME_API_H
#define GPUSYM_CUDA_RUNTIME_API_H

#include "hip/hip_runtime_api.h"

/* The CUDA release these headers declare. */
#define CUDART_VERSION 12040
#ifndef __CUDART_API_VERSION
#define __CUDART_API_VERSION CUDART_VERSION
#endif
#define CUDARTAPI
#define __dv(v) = v

#include "driver_types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- errors ---- */
cudaError_t cudaGetLastError(void);
cudaError_t cudaPeekAtLastError(void);
const char *cudaGetErrorName(cudaError_t error);
const char *cudaGetErrorString(cudaError_t error);

/* ---- devices ---- */
cudaError_t cudaDeviceSynchronize(void);

/* ---- memory ---- */
cudaError_t cudaMalloc(void **devPtr, size_t size);
cudaError_t cudaFree(void *devPtr);
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, enum cudaMemcpyKind kind);

#ifdef __cplusplus
}

/* The typed overloads CUDA's header gives C++. */
template <typename T>
static inline cudaError_t cudaMalloc(T **devPtr, size_t size) {
  return cudaMalloc(reinterpret_cast<void **>(devPtr), size);
}
#endif

#endif
