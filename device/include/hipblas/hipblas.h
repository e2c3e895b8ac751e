/*
 * hipBLAS for the gpusym simulated device: the API of ROCm 6.2's hipBLAS
 * (2.2), its types, values and every function, implemented on the CPU over
 * OpenBLAS by gpusym's libhipblas (device/libraries/hipblas).  A function it
 * does not implement returns HIPBLAS_STATUS_NOT_SUPPORTED.
 *
 * As in hipBLAS 2.x, complex arguments are hipblasComplex and
 * hipblasDoubleComplex (two floats or doubles, real part first) unless
 * ROCM_MATHLIBS_API_USE_HIP_COMPLEX makes them hipFloatComplex and
 * hipDoubleComplex; with HIPBLAS_V2 the functions take HIP's complex types
 * and hipDataType (their _v2 forms, under the usual names).
 */
#ifndef HIPBLAS_H
#define HIPBLAS_H

#include "hipblas-export.h"
#include "hipblas-version.h"
#include <hip/hip_complex.h>
#include <hip/hip_runtime_api.h>
#include <hip/library_types.h>
#include <stdint.h>

#if __clang__
#define HIPBLAS_CLANG_STATIC static
#else
#define HIPBLAS_CLANG_STATIC
#endif
#ifndef HIPBLAS_DEPRECATED_MSG
#define HIPBLAS_DEPRECATED_MSG(MSG)
#endif

/* A library context: its stream, pointer mode, atomics and math modes. */
typedef void *hipblasHandle_t;

#if defined(__cplusplus) && defined(HIPBLAS_USE_HIP_HALF)
#include <hip/hip_fp16.h>
typedef __half hipblasHalf;
#else
typedef uint16_t hipblasHalf; /* IEEE half precision, as bits */
#endif
typedef int8_t hipblasInt8;
typedef int64_t hipblasStride; /* elements between the matrices of a strided batch */

#if defined(HIPBLAS_USE_HIP_BFLOAT16)
#include <hip/hip_bfloat16.h>
typedef hip_bfloat16 hipblasBfloat16;
#elif !defined(__cplusplus) || !defined(HIPBLAS_BFLOAT16_CLASS)
typedef struct hipblasBfloat16 {
  uint16_t data; /* the upper half of a float */
} hipblasBfloat16;
#else
/* bfloat16 with conversions: to float exactly, from float to nearest even. */
class hipblasBfloat16 {
 public:
  uint16_t data;
  hipblasBfloat16() = default;
  explicit hipblasBfloat16(float value) {
    union {
      float f;
      uint32_t u;
    } bits = {value};
    if ((bits.u & 0x7f800000u) != 0x7f800000u)
      bits.u += 0x7fffu + ((bits.u >> 16) & 1u);
    else if (bits.u & 0xffffu)
      bits.u |= 0x10000u; /* a NaN stays a NaN */
    data = static_cast<uint16_t>(bits.u >> 16);
  }
  operator float() const {
    union {
      uint32_t u;
      float f;
    } bits = {static_cast<uint32_t>(data) << 16};
    return bits.f;
  }
};
#endif

#if defined(ROCM_MATHLIBS_API_USE_HIP_COMPLEX)
typedef hipFloatComplex hipblasComplex;
typedef hipDoubleComplex hipblasDoubleComplex;
#else
/* Complex numbers of hipBLAS 2.x: the layout of hipFloatComplex and
 * hipDoubleComplex, with a constructor and real()/imag() in C++. */
#ifdef __cplusplus
#define GPUSYM_HIPBLAS_COMPLEX(name, real_type)                   \
  typedef struct name {                                           \
    real_type x, y;                                               \
    name() = default;                                             \
    name(real_type r, real_type i = 0) : x(r), y(i) {}            \
    real_type real() const { return x; }                          \
    real_type imag() const { return y; }                          \
    void real(real_type r) { x = r; }                             \
    void imag(real_type i) { y = i; }                             \
  } name;
#else
#define GPUSYM_HIPBLAS_COMPLEX(name, real_type) \
  typedef struct name {                         \
    real_type x, y;                             \
  } name;
#endif
GPUSYM_HIPBLAS_COMPLEX(hipblasComplex, float)
GPUSYM_HIPBLAS_COMPLEX(hipblasDoubleComplex, double)
#undef GPUSYM_HIPBLAS_COMPLEX
#endif

typedef enum {
  HIPBLAS_STATUS_SUCCESS = 0,
  HIPBLAS_STATUS_NOT_INITIALIZED = 1,
  HIPBLAS_STATUS_ALLOC_FAILED = 2,
  HIPBLAS_STATUS_INVALID_VALUE = 3,
  HIPBLAS_STATUS_MAPPING_ERROR = 4,
  HIPBLAS_STATUS_EXECUTION_FAILED = 5,
  HIPBLAS_STATUS_INTERNAL_ERROR = 6,
  HIPBLAS_STATUS_NOT_SUPPORTED = 7,
  HIPBLAS_STATUS_ARCH_MISMATCH = 8,
  HIPBLAS_STATUS_HANDLE_IS_NULLPTR = 9,
  HIPBLAS_STATUS_INVALID_ENUM = 10,
  HIPBLAS_STATUS_UNKNOWN = 11,
} hipblasStatus_t;

/* Where scalars (alpha, beta, results) live: host or device memory. */
typedef enum { HIPBLAS_POINTER_MODE_HOST, HIPBLAS_POINTER_MODE_DEVICE } hipblasPointerMode_t;

/* The next four have CBLAS's values, and may be declared by another library first. */
#ifndef HIPBLAS_OPERATION_DECLARED
#define HIPBLAS_OPERATION_DECLARED
typedef enum { HIPBLAS_OP_N = 111, HIPBLAS_OP_T = 112, HIPBLAS_OP_C = 113 } hipblasOperation_t;
#endif
#ifndef HIPBLAS_FILL_MODE_DECLARED
#define HIPBLAS_FILL_MODE_DECLARED
typedef enum {
  HIPBLAS_FILL_MODE_UPPER = 121,
  HIPBLAS_FILL_MODE_LOWER = 122,
  HIPBLAS_FILL_MODE_FULL = 123
} hipblasFillMode_t;
#endif
#ifndef HIPBLAS_DIAG_TYPE_DECLARED
#define HIPBLAS_DIAG_TYPE_DECLARED
typedef enum { HIPBLAS_DIAG_NON_UNIT = 131, HIPBLAS_DIAG_UNIT = 132 } hipblasDiagType_t;
#endif
#ifndef HIPBLAS_SIDE_MODE_DECLARED
#define HIPBLAS_SIDE_MODE_DECLARED
typedef enum { HIPBLAS_SIDE_LEFT = 141, HIPBLAS_SIDE_RIGHT = 142, HIPBLAS_SIDE_BOTH = 143 } hipblasSideMode_t;
#endif

typedef enum {
  HIPBLAS_DEFAULT_MATH,
  HIPBLAS_XF32_XDL_MATH,
  HIPBLAS_PEDANTIC_MATH,
  HIPBLAS_TF32_TENSOR_OP_MATH,
  HIPBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION,
  HIPBLAS_TENSOR_OP_MATH
} hipblasMath_t;

#ifdef HIPBLAS_V2
typedef hipDataType hipblasDatatype_t;
#define HIPBLAS_R_16F HIP_R_16F
#define HIPBLAS_R_32F HIP_R_32F
#define HIPBLAS_R_64F HIP_R_64F
#define HIPBLAS_C_16F HIP_C_16F
#define HIPBLAS_C_32F HIP_C_32F
#define HIPBLAS_C_64F HIP_C_64F
#define HIPBLAS_R_8I HIP_R_8I
#define HIPBLAS_R_8U HIP_R_8U
#define HIPBLAS_R_32I HIP_R_32I
#define HIPBLAS_R_32U HIP_R_32U
#define HIPBLAS_C_8I HIP_C_8I
#define HIPBLAS_C_8U HIP_C_8U
#define HIPBLAS_C_32I HIP_C_32I
#define HIPBLAS_C_32U HIP_C_32U
#define HIPBLAS_R_16B HIP_R_16BF
#define HIPBLAS_C_16B HIP_C_16BF
#define HIPBLAS_DATATYPE_INVALID ((hipDataType)31)
#else
/* hipBLAS 2.x's own data types (hipDataType under HIPBLAS_V2). */
typedef enum {
  HIPBLAS_R_16F = 150,
  HIPBLAS_R_32F = 151,
  HIPBLAS_R_64F = 152,
  HIPBLAS_C_16F = 153,
  HIPBLAS_C_32F = 154,
  HIPBLAS_C_64F = 155,
  HIPBLAS_R_8I = 160,
  HIPBLAS_R_8U = 161,
  HIPBLAS_R_32I = 162,
  HIPBLAS_R_32U = 163,
  HIPBLAS_C_8I = 164,
  HIPBLAS_C_8U = 165,
  HIPBLAS_C_32I = 166,
  HIPBLAS_C_32U = 167,
  HIPBLAS_R_16B = 168,
  HIPBLAS_C_16B = 169,
  HIPBLAS_DATATYPE_INVALID = 255,
} hipblasDatatype_t;
#endif

/* The precision a GemmEx computes in (HIPBLAS_V2). */
typedef enum {
  HIPBLAS_COMPUTE_16F = 0,
  HIPBLAS_COMPUTE_16F_PEDANTIC = 1,
  HIPBLAS_COMPUTE_32F = 2,
  HIPBLAS_COMPUTE_32F_PEDANTIC = 3,
  HIPBLAS_COMPUTE_32F_FAST_16F = 4,
  HIPBLAS_COMPUTE_32F_FAST_16BF = 5,
  HIPBLAS_COMPUTE_32F_FAST_TF32 = 6,
  HIPBLAS_COMPUTE_64F = 7,
  HIPBLAS_COMPUTE_64F_PEDANTIC = 8,
  HIPBLAS_COMPUTE_32I = 9,
  HIPBLAS_COMPUTE_32I_PEDANTIC = 10,
} hipblasComputeType_t;

typedef enum { HIPBLAS_GEMM_DEFAULT = 160 } hipblasGemmAlgo_t;

typedef enum { HIPBLAS_ATOMICS_NOT_ALLOWED = 0, HIPBLAS_ATOMICS_ALLOWED = 1 } hipblasAtomicsMode_t;

typedef enum {
  HIPBLAS_GEMM_FLAGS_NONE = 0x0,
  HIPBLAS_GEMM_FLAGS_USE_CU_EFFICIENCY = 0x2,
  HIPBLAS_GEMM_FLAGS_FP16_ALT_IMPL = 0x4,
  HIPBLAS_GEMM_FLAGS_CHECK_SOLUTION_INDEX = 0x8,
  HIPBLAS_GEMM_FLAGS_FP16_ALT_IMPL_RNZ = 0x10
} hipblasGemmFlags_t;

#ifdef __cplusplus
extern "C" {
#endif

/* Every function of hipBLAS 2.2, declared from one table. */
#define GPUSYM_API_FUNCTION(result, name, parameters) HIPBLAS_EXPORT result name parameters;
#include "gpusym_functions.h"
#undef GPUSYM_API_FUNCTION

#ifdef __cplusplus
}
#endif

#ifdef HIPBLAS_V2
#include "gpusym_v2_names.h"
#endif

#endif
