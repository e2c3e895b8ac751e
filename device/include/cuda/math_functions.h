/* CUDA's math API (sqrtf, sincospif, norm3df, __fdividef, ...): it comes
 * with cuda_runtime.h. */
#ifndef GPUSYM_CUDA_MATH_FUNCTIONS_H
#define GPUSYM_CUDA_MATH_FUNCTIONS_H

#include "cuda_runtime.h"

#endif
