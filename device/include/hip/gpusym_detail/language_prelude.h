/*
 * What every HIP source sees before its first line, as clang's HIP runtime
 * wrapper gives it under hipcc (gpusym's compiles use -nogpuinc, which drops
 * that wrapper, and include this instead): the language's qualifiers
 * (__host__, __device__, __global__, ...), HIP's version macros, and the
 * device math of <cmath> with the C++ headers the wrapper brings in.  A
 * source may thus use __device__ or sqrtf in device code without including
 * hip/hip_runtime.h; the rest of HIP's API still needs that header.
 */
#ifndef GPUSYM_LANGUAGE_PRELUDE_H
#define GPUSYM_LANGUAGE_PRELUDE_H

#include "hip/amd_detail/host_defines.h"
#include "hip/hip_version.h"

#ifdef __cplusplus
#include "hip/gpusym_detail/device_math.h"
#include <algorithm>
#include <complex>
#include <new>
#endif

#endif
