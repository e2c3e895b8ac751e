/*
 * CUDA's complex numbers: cuFloatComplex (cuComplex) and cuDoubleComplex are
 * HIP's hipFloatComplex and hipDoubleComplex (float2 and double2, real part
 * in x), with CUDA's names for HIP's functions, in host and device code.
 */
#ifndef GPUSYM_CUDA_CUCOMPLEX_H
#define GPUSYM_CUDA_CUCOMPLEX_H

#define GPUSYM_CUDA_HEADERS 1 /* a CUDA source: HIP's headers leave out what CUDA has not */
#include "hip/hip_complex.h"

typedef hipFloatComplex cuFloatComplex;
typedef hipDoubleComplex cuDoubleComplex;
typedef cuFloatComplex cuComplex;

#define __GPUSYM_CUCOMPLEX_FN static __HOST_DEVICE__ inline

/* Each CUDA name forwards to its HIP twin, for one precision (suffix f:
 * float, none: double). */
#define __GPUSYM_CUCOMPLEX(type, hip_type, real, suffix)                                                        \
  __GPUSYM_CUCOMPLEX_FN type make_##type(real re, real im) { return make_##hip_type(re, im); }                 \
  __GPUSYM_CUCOMPLEX_FN real cuCreal##suffix(type z) { return hipCreal##suffix(z); }                          \
  __GPUSYM_CUCOMPLEX_FN real cuCimag##suffix(type z) { return hipCimag##suffix(z); }                          \
  __GPUSYM_CUCOMPLEX_FN type cuConj##suffix(type z) { return hipConj##suffix(z); }                            \
  __GPUSYM_CUCOMPLEX_FN type cuCadd##suffix(type a, type b) { return hipCadd##suffix(a, b); }                 \
  __GPUSYM_CUCOMPLEX_FN type cuCsub##suffix(type a, type b) { return hipCsub##suffix(a, b); }                 \
  __GPUSYM_CUCOMPLEX_FN type cuCmul##suffix(type a, type b) { return hipCmul##suffix(a, b); }                 \
  __GPUSYM_CUCOMPLEX_FN type cuCdiv##suffix(type a, type b) { return hipCdiv##suffix(a, b); }                 \
  __GPUSYM_CUCOMPLEX_FN real cuCabs##suffix(type z) { return hipCabs##suffix(z); }                            \
  __GPUSYM_CUCOMPLEX_FN type cuCfma##suffix(type a, type b, type c) { return hipCfma##suffix(a, b, c); }

__GPUSYM_CUCOMPLEX(cuFloatComplex, hipFloatComplex, float, f)
__GPUSYM_CUCOMPLEX(cuDoubleComplex, hipDoubleComplex, double, )
#undef __GPUSYM_CUCOMPLEX

__GPUSYM_CUCOMPLEX_FN cuComplex make_cuComplex(float re, float im) { return make_hipFloatComplex(re, im); }
__GPUSYM_CUCOMPLEX_FN cuDoubleComplex cuComplexFloatToDouble(cuFloatComplex z) { return hipComplexFloatToDouble(z); }
__GPUSYM_CUCOMPLEX_FN cuFloatComplex cuComplexDoubleToFloat(cuDoubleComplex z) { return hipComplexDoubleToFloat(z); }

#undef __GPUSYM_CUCOMPLEX_FN

#endif
