/* The atomics of compute capability 6.0 (double atomicAdd, the _block and
 * _system scopes): they come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_SM_60_ATOMIC_FUNCTIONS_H
#define GPUSYM_CUDA_SM_60_ATOMIC_FUNCTIONS_H

#include "cuda_runtime.h"

#endif
