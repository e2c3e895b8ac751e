/* CUDA's device functions (__syncthreads, __threadfence, the integer and
 * conversion intrinsics, ...): all of them come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_DEVICE_FUNCTIONS_H
#define GPUSYM_CUDA_DEVICE_FUNCTIONS_H

#include "cuda_runtime.h"

#endif
