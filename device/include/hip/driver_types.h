/*
 * <hip/driver_types.h>: the types of HIP's memory and array API
 * (hipMemcpyKind, hipPitchedPtr, hipExtent, hipMemcpy3DParms, hipArray_t,
 * hipResourceDesc, hipChannelFormatDesc, ...), for C and C++.  gpusym
 * declares them with the runtime's API, so this brings in both.
 */
#ifndef GPUSYM_HIP_DRIVER_TYPES_H
#define GPUSYM_HIP_DRIVER_TYPES_H

#include "hip/hip_runtime_api.h"

#endif
