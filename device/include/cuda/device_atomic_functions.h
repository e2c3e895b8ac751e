/* CUDA's atomics (atomicAdd, atomicCAS, ... with their _block and _system
 * forms): all of them come with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_DEVICE_ATOMIC_FUNCTIONS_H
#define GPUSYM_CUDA_DEVICE_ATOMIC_FUNCTIONS_H

#include "cuda_runtime.h"

#endif
