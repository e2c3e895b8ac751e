/* The intrinsics of compute capability 2.0 (__syncthreads_count, __ballot,
 * __threadfence_system): they come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_SM_20_INTRINSICS_H
#define GPUSYM_CUDA_SM_20_INTRINSICS_H

#include "cuda_runtime.h"

#endif
