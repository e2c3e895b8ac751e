/* CUDA's double-precision intrinsics (__dadd_rn, __double2hiint, ...): they
 * come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_DEVICE_DOUBLE_FUNCTIONS_H
#define GPUSYM_CUDA_DEVICE_DOUBLE_FUNCTIONS_H

#include "cuda_runtime.h"

#endif
