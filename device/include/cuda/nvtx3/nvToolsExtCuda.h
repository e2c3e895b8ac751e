/* NVTX's names for CUDA's devices, contexts, streams and events: nothing
 * here, as every NVTX call (nvToolsExt.h). */
#ifndef GPUSYM_NVTOOLSEXTCUDA_H
#define GPUSYM_NVTOOLSEXTCUDA_H

#include "cuda.h"
#include "nvtx3/nvToolsExt.h"

static inline void nvtxNameCuDeviceA(CUdevice device, const char *name) { (void)device, (void)name; }
static inline void nvtxNameCuContextA(CUcontext context, const char *name) { (void)context, (void)name; }
static inline void nvtxNameCuStreamA(CUstream stream, const char *name) { (void)stream, (void)name; }
static inline void nvtxNameCuEventA(CUevent event, const char *name) { (void)event, (void)name; }
static inline void nvtxNameCudaDeviceA(int device, const char *name) { (void)device, (void)name; }
static inline void nvtxNameCudaStreamA(cudaStream_t stream, const char *name) { (void)stream, (void)name; }
static inline void nvtxNameCudaEventA(cudaEvent_t event, const char *name) { (void)event, (void)name; }

#endif
