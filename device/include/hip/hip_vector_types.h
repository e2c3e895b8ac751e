/*
 * HIP's short vector types: char1 ... double4 with make_char1 ... make_double4,
 * for host and device code, C and C++ (see gpusym_detail/vector_types.h).
 */
#ifndef GPUSYM_HIP_VECTOR_TYPES_H
#define GPUSYM_HIP_VECTOR_TYPES_H

#include "hip/gpusym_detail/vector_types.h"

#endif
