/* threadIdx, blockIdx, blockDim, gridDim and warpSize, as CUDA declares them
 * (gpusym's HIP headers define them for both languages). */
#ifndef GPUSYM_DEVICE_LAUNCH_PARAMETERS_H
#define GPUSYM_DEVICE_LAUNCH_PARAMETERS_H

#include "cuda_runtime.h"

#endif
