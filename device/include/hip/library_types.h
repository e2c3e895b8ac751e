/*
 * <hip/library_types.h>: the element types the math libraries' APIs take
 * (hipblas, hipsparse, ...), with HIP's values, which cross library
 * boundaries, and the library property selectors.  C and C++.
 */
#ifndef GPUSYM_HIP_LIBRARY_TYPES_H
#define GPUSYM_HIP_LIBRARY_TYPES_H

#include "hip/hip_common.h"

/* R_ real, C_ complex; then the bits of one (real) element and its kind:
 * F floating point, I signed, U unsigned, BF bfloat16. */
typedef enum hipDataType {
  HIP_R_32F = 0,
  HIP_R_64F = 1,
  HIP_R_16F = 2,
  HIP_R_8I = 3,
  HIP_C_32F = 4,
  HIP_C_64F = 5,
  HIP_C_16F = 6,
  HIP_C_8I = 7,
  HIP_R_8U = 8,
  HIP_C_8U = 9,
  HIP_R_32I = 10,
  HIP_C_32I = 11,
  HIP_R_32U = 12,
  HIP_C_32U = 13,
  HIP_R_16BF = 14,
  HIP_C_16BF = 15,
  HIP_R_4I = 16,
  HIP_C_4I = 17,
  HIP_R_4U = 18,
  HIP_C_4U = 19,
  HIP_R_16I = 20,
  HIP_C_16I = 21,
  HIP_R_16U = 22,
  HIP_C_16U = 23,
  HIP_R_64I = 24,
  HIP_C_64I = 25,
  HIP_R_64U = 26,
  HIP_C_64U = 27,
  /* The OCP 8-, 6- and 4-bit floating-point formats (E exponent bits,
   * M mantissa bits; UE8M0 an unsigned power of two), of later HIP. */
  HIP_R_8F_E4M3 = 28,
  HIP_R_8F_E5M2 = 29,
  HIP_R_8F_UE8M0 = 30,
  HIP_R_6F_E2M3 = 31,
  HIP_R_6F_E3M2 = 32,
  HIP_R_4F_E2M1 = 33,
  /* AMD's own 8-bit formats (finite, with one NaN and no negative zero). */
  HIP_R_8F_E4M3_FNUZ = 1000,
  HIP_R_8F_E5M2_FNUZ = 1001
} hipDataType;

typedef enum hipLibraryPropertyType {
  HIP_LIBRARY_MAJOR_VERSION = 0,
  HIP_LIBRARY_MINOR_VERSION = 1,
  HIP_LIBRARY_PATCH_LEVEL = 2
} hipLibraryPropertyType;

#endif
