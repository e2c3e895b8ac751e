/* CUDA's profiler control: accepted, with nothing to profile on the simulated device. */
#ifndef GPUSYM_CUDA_PROFILER_API_H
#define GPUSYM_CUDA_PROFILER_API_H

#include "cuda_runtime_api.h"

#endif
