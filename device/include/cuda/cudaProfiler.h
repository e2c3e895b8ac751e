/* The driver API's profiler control (cuProfilerStart and friends): the calls
 * succeed, with nothing to profile on the simulated device. */
#ifndef GPUSYM_CUDA_PROFILER_H
#define GPUSYM_CUDA_PROFILER_H

#include "cuda.h"

#ifdef __cplusplus
extern "C" {
#endif

CUresult cuProfilerInitialize(const char *configFile, const char *outputFile, int outputMode);
CUresult cuProfilerStart(void);
CUresult cuProfilerStop(void);

#ifdef __cplusplus
}
#endif

#endif
