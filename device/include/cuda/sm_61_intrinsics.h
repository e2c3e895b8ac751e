/* The intrinsics of compute capability 6.1 (__dp4a, __dp2a_lo, __dp2a_hi):
 * they come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_SM_61_INTRINSICS_H
#define GPUSYM_CUDA_SM_61_INTRINSICS_H

#include "cuda_runtime.h"

#endif
