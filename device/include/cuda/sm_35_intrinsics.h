/* The intrinsics of compute capability 3.5: they come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_SM_35_INTRINSICS_H
#define GPUSYM_CUDA_SM_35_INTRINSICS_H

#include "cuda_runtime.h"

#endif
