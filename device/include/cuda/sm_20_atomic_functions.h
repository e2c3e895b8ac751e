/* The atomics of compute capability 2.0: they come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_SM_20_ATOMIC_FUNCTIONS_H
#define GPUSYM_CUDA_SM_20_ATOMIC_FUNCTIONS_H

#include "cuda_runtime.h"

#endif
