/*
 * Device math: clang's own HIP math headers, included as clang's HIP wrapper
 * includes them.  They implement sqrtf, expf, std::sin, ... over the ROCm
 * device library's __ocml_* functions.  On the simulated device the runtime
 * provides those functions (over libm); in AMDGPU code objects they stay
 * undefined references, as in any build without the ROCm device library.
 */
#ifndef GPUSYM_DEVICE_MATH_H
#define GPUSYM_DEVICE_MATH_H

#include <cmath>
#include <cstdlib>

#include <__clang_hip_libdevice_declares.h>

#if !defined(__AMDGCN__)
/* The few AMDGPU instructions the math header uses directly, in the terms of
 * the same library (their x86-64 meaning: no hardware approximations). */
#define __builtin_amdgcn_exp2f(x) __ocml_exp2_f32(x)
#define __builtin_amdgcn_logf(x) __ocml_log2_f32(x)
#define __builtin_amdgcn_rsqf(x) __ocml_rsqrt_f32(x)
#define __builtin_amdgcn_rcpf(x) (1.0f / (x))
#define __builtin_amdgcn_ldexpf(x, e) __ocml_ldexp_f32(x, e)
#define __builtin_amdgcn_ldexp(x, e) __ocml_ldexp_f64(x, e)
#endif

/* Every rounding-mode variant (__fadd_rd, __fmul_rz, __dsqrt_ru, ...), not
 * only the _rn ones. */
#define OCML_BASIC_ROUNDED_OPERATIONS 1
#include <__clang_hip_math.h>
#include <__clang_hip_stdlib.h>
#include <__clang_cuda_math_forward_declares.h>
#include <__clang_hip_cmath.h>

#endif
