/*
 * Complex numbers as HIP's hip_complex.h gives them: hipFloatComplex (a
 * float2) and hipDoubleComplex (a double2), real part in x, imaginary part in
 * y, with HIP's functions, for host and device code.
 */
#ifndef GPUSYM_HIP_COMPLEX_H
#define GPUSYM_HIP_COMPLEX_H

#if defined(__HIP__)
#include "hip/hip_runtime.h"
#else
#include "hip/hip_vector_types.h"
#endif

#include <math.h>

typedef float2 hipFloatComplex;
typedef double2 hipDoubleComplex;
typedef hipFloatComplex hipComplex;

#define __GPUSYM_COMPLEX_FN static __HOST_DEVICE__ inline

/* One set of functions per precision: suffix f for float, none for double. */
#define __GPUSYM_COMPLEX(type, real, suffix, hypot)                                              \
  __GPUSYM_COMPLEX_FN type make_##type(real re, real im) {                                      \
    type z;                                                                                     \
    z.x = re;                                                                                   \
    z.y = im;                                                                                   \
    return z;                                                                                   \
  }                                                                                             \
  __GPUSYM_COMPLEX_FN real hipCreal##suffix(type z) { return z.x; }                             \
  __GPUSYM_COMPLEX_FN real hipCimag##suffix(type z) { return z.y; }                             \
  __GPUSYM_COMPLEX_FN type hipConj##suffix(type z) { return make_##type(z.x, -z.y); }           \
  __GPUSYM_COMPLEX_FN real hipCsqabs##suffix(type z) { return z.x * z.x + z.y * z.y; }          \
  __GPUSYM_COMPLEX_FN type hipCadd##suffix(type a, type b) { return make_##type(a.x + b.x, a.y + b.y); } \
  __GPUSYM_COMPLEX_FN type hipCsub##suffix(type a, type b) { return make_##type(a.x - b.x, a.y - b.y); } \
  __GPUSYM_COMPLEX_FN type hipCmul##suffix(type a, type b) {                                    \
    return make_##type(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);                           \
  }                                                                                             \
  __GPUSYM_COMPLEX_FN type hipCdiv##suffix(type a, type b) {                                    \
    real norm = hipCsqabs##suffix(b);                                                           \
    return make_##type((a.x * b.x + a.y * b.y) / norm, (a.y * b.x - a.x * b.y) / norm);         \
  }                                                                                             \
  __GPUSYM_COMPLEX_FN real hipCabs##suffix(type z) { return hypot(z.x, z.y); }       \
  /* a * b + c */                                                                               \
  __GPUSYM_COMPLEX_FN type hipCfma##suffix(type a, type b, type c) {                            \
    return make_##type(a.x * b.x - a.y * b.y + c.x, a.x * b.y + a.y * b.x + c.y);               \
  }

__GPUSYM_COMPLEX(hipFloatComplex, float, f, hypotf)
__GPUSYM_COMPLEX(hipDoubleComplex, double, , hypot)
#undef __GPUSYM_COMPLEX

__GPUSYM_COMPLEX_FN hipComplex make_hipComplex(float re, float im) { return make_hipFloatComplex(re, im); }
__GPUSYM_COMPLEX_FN hipDoubleComplex hipComplexFloatToDouble(hipFloatComplex z) {
  return make_hipDoubleComplex(z.x, z.y);
}
__GPUSYM_COMPLEX_FN hipFloatComplex hipComplexDoubleToFloat(hipDoubleComplex z) {
  return make_hipFloatComplex((float)z.x, (float)z.y);
}

#undef __GPUSYM_COMPLEX_FN

#endif
