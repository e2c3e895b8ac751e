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
#include "hip/hip_vector_types.h"

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
  hipErrorInvalidKernelFile = 218,
  hipErrorFileNotFound = 301,
  hipErrorSharedObjectInitFailed = 303,
  hipErrorInvalidHandle = 400,
  hipErrorInvalidResourceHandle = 400, /* HIP's other name: a hipStream_t or hipEvent_t */
  hipErrorNotFound = 500,
  hipErrorNotReady = 600,
  hipErrorIllegalAddress = 700,
  hipErrorLaunchOutOfResources = 701,
  hipErrorPeerAccessAlreadyEnabled = 704,
  hipErrorPeerAccessNotEnabled = 705,
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
typedef struct ihipEvent_t *hipEvent_t;
typedef struct ihipModule_t *hipModule_t;
typedef struct ihipModuleSymbol_t *hipFunction_t;
typedef void *hipDeviceptr_t;

/* Keys of hipModuleLaunchKernel's `extra`: the arguments as one buffer. */
#define HIP_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define HIP_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)
#define HIP_LAUNCH_PARAM_END ((void *)0x03)

/* Flags of hipStreamCreateWithFlags. */
#define hipStreamDefault 0x00
#define hipStreamNonBlocking 0x01

/* Flags of hipEventCreateWithFlags. */
#define hipEventDefault 0x0
#define hipEventBlockingSync 0x1
#define hipEventDisableTiming 0x2
#define hipEventInterprocess 0x4
#define hipEventDisableSystemFence 0x20000000u
#define hipEventReleaseToDevice 0x40000000u
#define hipEventReleaseToSystem 0x80000000u

typedef enum hipMemoryType {
  hipMemoryTypeUnregistered = 0,
  hipMemoryTypeHost = 1,
  hipMemoryTypeDevice = 2,
  hipMemoryTypeManaged = 3,
  hipMemoryTypeArray = 10,
  hipMemoryTypeUnified = 11,
} hipMemoryType;

typedef struct hipPointerAttribute_t {
  hipMemoryType type;
  int device;
  void *devicePointer;
  void *hostPointer;
  int isManaged;
  unsigned allocationFlags;
} hipPointerAttribute_t;

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
  /* The fields below were added later: appended, so the ones above keep their offsets. */
  int clockInstructionRate;
  int memoryClockRate;
  int memoryBusWidth;
  int l2CacheSize;
  int regsPerMultiprocessor;
  size_t sharedMemPerMultiprocessor;
  size_t maxSharedMemoryPerMultiProcessor;
  int pciDomainID;
  int isMultiGpuBoard;
  int asyncEngineCount;
  int unifiedAddressing;
  int managedMemory;
  int concurrentManagedAccess;
  int pageableMemoryAccess;
  int hostNativeAtomicSupported;
  int ECCEnabled;
  int kernelExecTimeoutEnabled;
  int cooperativeLaunch;
  int cooperativeMultiDeviceLaunch;
  int maxBlocksPerMultiProcessor;
  int streamPrioritiesSupported;
  int computePreemptionSupported;
} hipDeviceProp_t;

/* Devices. */
hipError_t hipGetDeviceCount(int *count);
hipError_t hipGetDevice(int *device);
hipError_t hipSetDevice(int device);
hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device);
hipError_t hipDeviceSynchronize(void);
hipError_t hipDeviceReset(void);
hipError_t hipDeviceCanAccessPeer(int *canAccessPeer, int deviceId, int peerDeviceId);
hipError_t hipDeviceEnablePeerAccess(int peerDeviceId, unsigned int flags);
hipError_t hipDeviceDisablePeerAccess(int peerDeviceId);

/* Streams. */
hipError_t hipStreamCreate(hipStream_t *stream);
hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags);
hipError_t hipStreamDestroy(hipStream_t stream);
hipError_t hipStreamSynchronize(hipStream_t stream);
hipError_t hipStreamQuery(hipStream_t stream);
hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags __GPUSYM_DEFAULT(0));
hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags);
hipError_t hipStreamGetDevice(hipStream_t stream, int *device);

/* Events. */
hipError_t hipEventCreate(hipEvent_t *event);
hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags);
hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream __GPUSYM_DEFAULT(0));
hipError_t hipEventSynchronize(hipEvent_t event);
hipError_t hipEventQuery(hipEvent_t event);
hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop);
hipError_t hipEventDestroy(hipEvent_t event);

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
hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size, hipMemcpyKind kind,
                          hipStream_t stream __GPUSYM_DEFAULT(0));
hipError_t hipMemsetAsync(void *dst, int value, size_t size, hipStream_t stream __GPUSYM_DEFAULT(0));
hipError_t hipMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t size);
hipError_t hipMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t size,
                              hipStream_t stream __GPUSYM_DEFAULT(0));
hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr);

/* Launch. */
hipError_t hipLaunchKernel(const void *function_address, dim3 numBlocks, dim3 dimBlocks,
                           void **args, size_t sharedMemBytes __GPUSYM_DEFAULT(0),
                           hipStream_t stream __GPUSYM_DEFAULT(0));

/* Code objects loaded at run time (a bundle from gpusym build --genco, or a
 * simulated-device code object). */
hipError_t hipModuleLoad(hipModule_t *module, const char *fname);
hipError_t hipModuleLoadData(hipModule_t *module, const void *image);
hipError_t hipModuleLoadDataEx(hipModule_t *module, const void *image, unsigned int numOptions,
                               int *options, void **optionValues);
hipError_t hipModuleUnload(hipModule_t module);
hipError_t hipModuleGetFunction(hipFunction_t *function, hipModule_t module, const char *kname);
hipError_t hipModuleGetGlobal(hipDeviceptr_t *dptr, size_t *bytes, hipModule_t module, const char *name);
hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned int gridDimX, unsigned int gridDimY,
                                 unsigned int gridDimZ, unsigned int blockDimX, unsigned int blockDimY,
                                 unsigned int blockDimZ, unsigned int sharedMemBytes, hipStream_t stream,
                                 void **kernelParams, void **extra);
const char *hipKernelNameRef(const hipFunction_t f);

#ifdef __cplusplus
} /* extern "C" */

/* HIP's C++ convenience overloads taking the symbol or kernel itself. */
template <typename T>
static inline hipError_t hipMalloc(T **ptr, size_t size) {
  return hipMalloc(reinterpret_cast<void **>(ptr), size);
}
#endif

#endif
