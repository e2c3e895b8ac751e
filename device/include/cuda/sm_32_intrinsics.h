/* The intrinsics of compute capability 3.2 (__ldg and the cache-hinted loads
 * and stores, the funnel shifts): they come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_SM_32_INTRINSICS_H
#define GPUSYM_CUDA_SM_32_INTRINSICS_H

#include "cuda_runtime.h"

#endif
