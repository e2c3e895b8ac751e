/*
 * <hip/device_functions.h>, which programs include for the device's
 * intrinsics (__popc, __syncthreads_count, __byte_perm, ...): in gpusym they
 * come with hip_runtime.h (gpusym_detail/device_intrinsics.h and
 * device_builtins.h).
 */
#ifndef GPUSYM_HIP_DEVICE_FUNCTIONS_H
#define GPUSYM_HIP_DEVICE_FUNCTIONS_H

#include "hip/hip_runtime.h"

#endif
