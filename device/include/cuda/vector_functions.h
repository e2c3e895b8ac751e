/* CUDA's make_char1 ... make_double4, HIP's own. */
#ifndef GPUSYM_CUDA_VECTOR_FUNCTIONS_H
#define GPUSYM_CUDA_VECTOR_FUNCTIONS_H

#include "hip/hip_vector_types.h"

#endif
