/*
 * <hip/hip_bfloat16.h>: HIP's older bfloat16 type, `hip_bfloat16`, which
 * rocBLAS and other libraries still use (gpusym_detail/legacy_bfloat16.h;
 * the newer __hip_bfloat16 is <hip/hip_bf16.h>'s, as in HIP).
 */
#ifndef GPUSYM_HIP_HIP_BFLOAT16_H
#define GPUSYM_HIP_HIP_BFLOAT16_H

#include "hip/gpusym_detail/legacy_bfloat16.h"

#endif
