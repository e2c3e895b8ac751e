/*
 * CUDA runtime header of gpusym: what nvcc gives every CUDA source.  The
 * simulated device runs CUDA programs as it runs HIP ones; these headers
 * give CUDA's names and semantics over gpusym's HIP headers and runtime:
 * the host API (cuda_runtime_api.h) and the device language (threadIdx,
 * __syncthreads, the warp functions with 32-lane masks, atomics, math).
 */
#ifndef GPUSYM_CUDA_RUNTIME_H
#define GPUSYM_CUDA_RUNTIME_H

#include "cuda_runtime_api.h"
#include "hip/hip_runtime.h"
#include "device_launch_parameters.h"

#endif
