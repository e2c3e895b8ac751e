/*
 * CUDA's bfloat16: __nv_bfloat16 (nv_bfloat16) and __nv_bfloat162
 * (nv_bfloat162), their raw forms, and the functions of cuda_bf16.h, over
 * HIP's (hip/hip_bf16.h, whose functions have CUDA's names), with CUDA's
 * names of the special values.
 */
#ifndef GPUSYM_CUDA_BF16_H
#define GPUSYM_CUDA_BF16_H

#define GPUSYM_CUDA_HEADERS 1 /* a CUDA source: HIP's headers leave out what CUDA has not */
#include "hip/hip_bf16.h"

typedef __hip_bfloat16 __nv_bfloat16;
typedef __hip_bfloat162 __nv_bfloat162;
typedef __hip_bfloat16_raw __nv_bfloat16_raw;
typedef __hip_bfloat162_raw __nv_bfloat162_raw;
typedef __nv_bfloat16 nv_bfloat16;
typedef __nv_bfloat162 nv_bfloat162;

#define CUDART_INF_BF16 HIPRT_INF_BF16
#define CUDART_MAX_NORMAL_BF16 HIPRT_MAX_NORMAL_BF16
#define CUDART_MIN_DENORM_BF16 HIPRT_MIN_DENORM_BF16
#define CUDART_NAN_BF16 HIPRT_NAN_BF16
#define CUDART_NEG_ZERO_BF16 HIPRT_NEG_ZERO_BF16
#define CUDART_ONE_BF16 HIPRT_ONE_BF16
#define CUDART_ZERO_BF16 HIPRT_ZERO_BF16

#endif
