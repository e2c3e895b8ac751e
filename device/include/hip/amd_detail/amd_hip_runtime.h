/*
 * The path of HIP's AMD runtime header, which code includes directly
 * (rocPRIM 3.x does): gpusym's hip_runtime.h, so that a compile never
 * reaches another HIP installation's header of that name.
 */
#include "hip/hip_runtime.h"
