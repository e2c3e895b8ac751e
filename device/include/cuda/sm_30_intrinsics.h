/* The intrinsics of compute capability 3.0 (the warp shuffles and votes):
 * they come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_SM_30_INTRINSICS_H
#define GPUSYM_CUDA_SM_30_INTRINSICS_H

#include "cuda_runtime.h"

#endif
