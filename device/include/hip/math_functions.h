/*
 * <hip/math_functions.h>, which programs include for device math: in
 * gpusym the math functions come with hip_runtime.h (gpusym_detail/
 * device_math.h, over clang's HIP math headers).
 */
#ifndef GPUSYM_HIP_MATH_FUNCTIONS_H
#define GPUSYM_HIP_MATH_FUNCTIONS_H

#include "hip/hip_runtime.h"

#endif
