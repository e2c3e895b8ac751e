/*
 * Host API of the gpusym simulated HIP runtime.
 *
 * A subset of HIP's hip_runtime_api.h with HIP's own names, types and error
 * codes, so that ordinary HIP host code compiles unchanged against it.  Usable
 * from plain C and C++ translation units as well as from HIP ones.
 */
#ifndef GPUSYM_HIP_RUNTIME_API_H
#define GPUSYM_HIP_RUNTIME_API_H

#include <stddef.h>
#include <stdint.h>

#include "hip/hip_common.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hipError_t {
  hipSuccess = 0,
  hipErrorInvalidValue = 1,
  hipErrorOutOfMemory = 2,
  hipErrorMemoryAllocation = 2,
  hipErrorNotInitialized = 3,
  hipErrorDeinitialized = 4,
  hipErrorInvalidConfiguration = 9,
  hipErrorInvalidSymbol = 13,
  hipErrorInvalidDevicePointer = 17,
  hipErrorInvalidMemcpyDirection = 21,
  hipErrorMissingConfiguration = 52,
  hipErrorInvalidDeviceFunction = 98,
  hipErrorNoDevice = 100,
  hipErrorInvalidDevice = 101,
  hipErrorInvalidImage = 200,
  hipErrorNoBinaryForGpu = 209,
  hipErrorInvalidHandle = 400,
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorLaunchFailure = 719,
  hipErrorNotSupported = 801,
  hipErrorUnknown = 999,
} hipError_t;

typedef enum hipMemcpyKind {
  hipMemcpyHostToHost = 0,
  hipMemcpyHostToDevice = 1,
  hipMemcpyDeviceToHost = 2,
  hipMemcpyDeviceToDevice = 3,
  hipMemcpyDefault = 4,
} hipMemcpyKind;

typedef struct ihipStream_t *hipStream_t;

typedef struct dim3 {
  uint32_t x, y, z;
#ifdef __cplusplus
  __HOST_DEVICE__ constexpr dim3(uint32_t _x = 1, uint32_t _y = 1, uint32_t _z = 1)
      : x(_x), y(_y), z(_z) {}
#endif
} dim3;

typedef struct hipDeviceProp_t {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int maxThreadsPerMultiProcessor;
  int computeMode;
  int concurrentKernels;
  int pciBusID;
  int pciDeviceID;
  int integrated;
  int canMapHostMemory;
  char gcnArchName[256];
} hipDeviceProp_t;

/* Devices. */
hipError_t hipGetDeviceCount(int *count);
hipError_t hipGetDevice(int *device);
hipError_t hipSetDevice(int device);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device);
hipError_t hipDeviceSynchronize(void);

/* Errors. */
hipError_t hipGetLastError(void);
hipError_t hipPeekAtLastError(void);
const char *hipGetErrorString(hipError_t error);
const char *hipGetErrorName(hipError_t error);

/* Memory. */
hipError_t hipMalloc(void **ptr, size_t size);
hipError_t hipFree(void *ptr);
hipError_t hipMemcpy(void *dst, const void *src, size_t size, hipMemcpyKind kind);
hipError_t hipMemset(void *dst, int value, size_t size);
hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t size,
                             size_t offset __GPUSYM_DEFAULT(0),
                             hipMemcpyKind kind __GPUSYM_DEFAULT(hipMemcpyHostToDevice));
hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t size,
                               size_t offset __GPUSYM_DEFAULT(0),
                               hipMemcpyKind kind __GPUSYM_DEFAULT(hipMemcpyDeviceToHost));

/* Launch. */
hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                           void **args, size_t sharedMemBytes __GPUSYM_DEFAULT(0),
                           hipStream_t stream __GPUSYM_DEFAULT(0));

#ifdef __cplusplus
} /* extern "C" */

/* HIP's C++ convenience overloads taking the symbol or kernel itself. */
template <typename T>
static inline hipError_t hipMalloc(T **ptr, size_t size) {
  return hipMalloc(reinterpret_cast<void **>(ptr), size);
}
#endif

#endif
