/*
 * CUDA's half precision: __half (half), __half2 (half2), their raw forms
 * and functions, HIP's own (hip/hip_fp16.h, which follows CUDA's names and
 * documentation), with CUDA's names of the special values.
 */
#ifndef GPUSYM_CUDA_FP16_H
#define GPUSYM_CUDA_FP16_H

#define GPUSYM_CUDA_HEADERS 1 /* a CUDA source: HIP's headers leave out what CUDA has not */
#include "hip/hip_fp16.h"

#define CUDART_INF_FP16 HIPRT_INF_FP16
#define CUDART_MAX_NORMAL_FP16 HIPRT_MAX_NORMAL_FP16
#define CUDART_MIN_DENORM_FP16 HIPRT_MIN_DENORM_FP16
#define CUDART_NAN_FP16 HIPRT_NAN_FP16
#define CUDART_NEG_ZERO_FP16 HIPRT_NEG_ZERO_FP16
#define CUDART_ONE_FP16 HIPRT_ONE_FP16
#define CUDART_ZERO_FP16 HIPRT_ZERO_FP16

#endif
