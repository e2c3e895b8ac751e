/* CUDA's built-in host types: the runtime's types and the vector types. */
#ifndef GPUSYM_CUDA_BUILTIN_TYPES_H
#define GPUSYM_CUDA_BUILTIN_TYPES_H

#include "driver_types.h"
#define GPUSYM_CUDA_HEADERS 1 /* a CUDA source: HIP's headers leave out what CUDA has not */
#include "hip/hip_runtime_api.h"

#endif
