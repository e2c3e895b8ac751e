/*
 * HIP's AMD extensions to kernel launches: hipExtLaunchKernel (declared with
 * the other launches in hip_runtime_api.h) and its template form
 * hipExtLaunchKernelGGL, a launch between two event records, and
 * hipExtModuleLaunchKernel.
 */
#ifndef GPUSYM_HIP_EXT_H
#define GPUSYM_HIP_EXT_H

#include "hip/hip_runtime.h"

#ifdef __cplusplus
extern "C" {
#endif
/* hipModuleLaunchKernel by work-items: the grid is globalWorkSize /
 * localWorkSize in each dimension (which must divide it), between two
 * event records on the stream (either may be null).  flags change nothing. */
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void **kernelParams, void **extra, hipEvent_t startEvent __GPUSYM_DEFAULT(0),
                                    hipEvent_t stopEvent __GPUSYM_DEFAULT(0), uint32_t flags __GPUSYM_DEFAULT(0));
#ifdef __cplusplus
}  // extern "C"
#endif

#if defined(__HIP__) && defined(__cplusplus)
/* As hipLaunchKernelGGL (a <<<>>> launch through the kernel's stub), with
 * startEvent recorded on the stream before it and stopEvent after (either
 * may be null).  flags: hipExtAnyOrderLaunch or 0, the same here. */
template <typename... Args, typename Kernel = void (*)(Args...)>
static inline void hipExtLaunchKernelGGL(Kernel kernel, const dim3 &numBlocks, const dim3 &dimBlocks,
                                         uint32_t sharedMemBytes, hipStream_t stream, hipEvent_t startEvent,
                                         hipEvent_t stopEvent, uint32_t flags, Args... args) {
  (void)flags;
  if (startEvent) hipEventRecord(startEvent, stream);
  kernel<<<numBlocks, dimBlocks, sharedMemBytes, stream>>>(args...);
  if (stopEvent) hipEventRecord(stopEvent, stream);
}
#endif

#endif
