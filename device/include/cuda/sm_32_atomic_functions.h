/* The atomics of compute capability 3.2: they come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_SM_32_ATOMIC_FUNCTIONS_H
#define GPUSYM_CUDA_SM_32_ATOMIC_FUNCTIONS_H

#include "cuda_runtime.h"

#endif
