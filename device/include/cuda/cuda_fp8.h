/*
 * CUDA's 8-bit floating point (cuda_fp8.h), for host and device code: the
 * storage types __nv_fp8_storage_t, __nv_fp8x2_storage_t and
 * __nv_fp8x4_storage_t, the conversions __nv_cvt_*, and the classes
 * __nv_fp8_e4m3, __nv_fp8_e5m2 and their pairs and quadruples.
 *
 * The two interpretations of a byte, as CUDA documents them:
 *   E4M3: sign, 4 exponent bits (bias 7), 3 fraction bits; no infinities,
 *         exponent field 15 holds normal values up to 448 (0x7e), and only
 *         0x7f and 0xff are NaNs;
 *   E5M2: sign, 5 exponent bits (bias 15), 2 fraction bits, as IEEE 754
 *         has it: infinities 0x7c and 0xfc, largest finite 57344 (0x7b);
 *         it is the upper byte of a binary16.
 * Both have subnormals.  A conversion to fp8 rounds the exact value once,
 * to nearest even.  A result beyond the largest finite value, an infinity
 * included, is that value with its sign under __NV_SATFINITE; under
 * __NV_NOSAT it is E5M2's infinity or E4M3's NaN.  A NaN stays a NaN with
 * its sign: 0x7f or 0xff for E4M3, 0x7e or 0xfe for E5M2.
 * Every fp8 value is exact in half, bfloat16, float and double, so the
 * conversions back are exact; E4M3's NaN becomes the half NaN 0x7fff with
 * its sign.
 *
 * The classes keep their bytes in `__x`, the lowest byte the first element
 * (x, then y, z, w).  Their constructors and conversion operators are
 * explicit, as CUDA's are; construction saturates to the largest finite
 * value (__NV_SATFINITE).  Conversions to the integers truncate towards
 * zero and saturate, as the __half2*_rz functions do: a NaN gives 0 (64-bit
 * results: 0x8000000000000000); to bool, false for either zero only.
 */
#ifndef GPUSYM_CUDA_FP8_H
#define GPUSYM_CUDA_FP8_H

#include "cuda_bf16.h"
#include "cuda_fp16.h"

#define __CUDA_FP8_TYPES_EXIST__

typedef unsigned char __nv_fp8_storage_t;
typedef unsigned short int __nv_fp8x2_storage_t;
typedef unsigned int __nv_fp8x4_storage_t;

typedef enum __nv_saturation_t { __NV_NOSAT, __NV_SATFINITE } __nv_saturation_t;
typedef enum __nv_fp8_interpretation_t { __NV_E4M3, __NV_E5M2 } __nv_fp8_interpretation_t;

#ifdef __cplusplus

#include <type_traits>

#define __GPUSYM_FP8_FN static __HOST_DEVICE__ inline

/* What a value beyond the largest finite one (or an infinity) becomes. */
__GPUSYM_FP8_FN unsigned int __gpusym_fp8_overflow(__nv_saturation_t saturate, __nv_fp8_interpretation_t kind) {
  if (saturate == __NV_SATFINITE) return kind == __NV_E4M3 ? 0x7eu : 0x7bu;
  return kind == __NV_E4M3 ? 0x7fu : 0x7cu;
}

/* (-1)^negative * magnitude * 2^exponent, rounded once to nearest even.
 * Both formats are rounded as one like binary16 (five exponent bits, bias
 * 15, subnormals below 2^-14) but with their fraction bits: E5M2 is that
 * format, and E4M3's value v has the bits that v * 2^-8 has there, up to
 * E4M3's top exponent field (15).  Whatever rounds past the largest finite
 * value overflows. */
__GPUSYM_FP8_FN __nv_fp8_storage_t __gpusym_fp8_round(bool negative, unsigned long long magnitude, int exponent,
                                                      __nv_saturation_t saturate, __nv_fp8_interpretation_t kind) {
  const bool e4m3 = kind == __NV_E4M3;
  const unsigned int bits = e4m3 ? __gpusym_round16<3, 5>(false, magnitude, exponent - 8, __gpusym_rn)
                                 : __gpusym_round16<2, 5>(false, magnitude, exponent, __gpusym_rn);
  const unsigned int largest = e4m3 ? 0x7eu : 0x7bu;
  return static_cast<__nv_fp8_storage_t>((negative ? 0x80u : 0u) |
                                         (bits > largest ? __gpusym_fp8_overflow(saturate, kind) : bits));
}

/* An IEEE 754 binary value of `Fraction` fraction and `Exponent` exponent
 * bits (double, float, binary16, bfloat16), given as its bits, to fp8. */
template <int Fraction, int Exponent>
__GPUSYM_FP8_FN __nv_fp8_storage_t __gpusym_binary_to_fp8(unsigned long long bits, __nv_saturation_t saturate,
                                                          __nv_fp8_interpretation_t kind) {
  const bool negative = ((bits >> (Fraction + Exponent)) & 1) != 0;
  const unsigned long long fraction = bits & ((1ull << Fraction) - 1);
  const int field = static_cast<int>((bits >> Fraction) & ((1u << Exponent) - 1));
  const int top = (1 << Exponent) - 1, bias = (1 << (Exponent - 1)) - 1;
  const unsigned int sign = negative ? 0x80u : 0u;
  if (field == top && fraction != 0) return static_cast<__nv_fp8_storage_t>(sign | (kind == __NV_E4M3 ? 0x7fu : 0x7eu));
  if (field == top) return static_cast<__nv_fp8_storage_t>(sign | __gpusym_fp8_overflow(saturate, kind));
  if (field == 0) return __gpusym_fp8_round(negative, fraction, 1 - bias - Fraction, saturate, kind);
  return __gpusym_fp8_round(negative, fraction | (1ull << Fraction), field - bias - Fraction, saturate, kind);
}

/* An fp8 value's binary16 bits, exactly: an E5M2 is a binary16's upper
 * byte; an E4M3 is fraction * 2^-9 (field 0) or (8 + fraction) *
 * 2^(field - 10), which __gpusym_round16 places without rounding. */
__GPUSYM_FP8_FN unsigned short __gpusym_fp8_to_half_bits(__nv_fp8_storage_t x, __nv_fp8_interpretation_t kind) {
  if (kind == __NV_E5M2) return static_cast<unsigned short>(x << 8);
  const bool negative = (x & 0x80) != 0;
  const unsigned int field = (x >> 3) & 0xf, fraction = x & 7;
  if ((x & 0x7f) == 0x7f) return negative ? 0xffff : 0x7fff;
  if (field == 0) return __gpusym_round16<10, 5>(negative, fraction, -9, __gpusym_rn);
  return __gpusym_round16<10, 5>(negative, fraction | 8, static_cast<int>(field) - 10, __gpusym_rn);
}

__GPUSYM_FP8_FN float __gpusym_fp8_to_float(__nv_fp8_storage_t x, __nv_fp8_interpretation_t kind) {
  return __half2float(__ushort_as_half(__gpusym_fp8_to_half_bits(x, kind)));
}

/* ---- CUDA's conversions ---- */

__GPUSYM_FP8_FN __nv_fp8_storage_t __nv_cvt_double_to_fp8(const double x, const __nv_saturation_t saturate,
                                                          const __nv_fp8_interpretation_t fp8_interpretation) {
  return __gpusym_binary_to_fp8<52, 11>(__builtin_bit_cast(unsigned long long, x), saturate, fp8_interpretation);
}

__GPUSYM_FP8_FN __nv_fp8_storage_t __nv_cvt_float_to_fp8(const float x, const __nv_saturation_t saturate,
                                                         const __nv_fp8_interpretation_t fp8_interpretation) {
  return __gpusym_binary_to_fp8<23, 8>(__builtin_bit_cast(unsigned int, x), saturate, fp8_interpretation);
}

__GPUSYM_FP8_FN __nv_fp8_storage_t __nv_cvt_halfraw_to_fp8(const __half_raw x, const __nv_saturation_t saturate,
                                                           const __nv_fp8_interpretation_t fp8_interpretation) {
  return __gpusym_binary_to_fp8<10, 5>(x.x, saturate, fp8_interpretation);
}

__GPUSYM_FP8_FN __nv_fp8_storage_t __nv_cvt_bfloat16raw_to_fp8(const __nv_bfloat16_raw x,
                                                               const __nv_saturation_t saturate,
                                                               const __nv_fp8_interpretation_t fp8_interpretation) {
  return __gpusym_binary_to_fp8<7, 8>(x.x, saturate, fp8_interpretation);
}

/* Packing and unpacking: the first element (x) in the low byte. */
__GPUSYM_FP8_FN __nv_fp8x2_storage_t __gpusym_fp8x2(__nv_fp8_storage_t first, __nv_fp8_storage_t second) {
  return static_cast<__nv_fp8x2_storage_t>(first | (second << 8));
}
__GPUSYM_FP8_FN __nv_fp8x4_storage_t __gpusym_fp8x4(__nv_fp8x2_storage_t low, __nv_fp8x2_storage_t high) {
  return low | (static_cast<__nv_fp8x4_storage_t>(high) << 16);
}
__GPUSYM_FP8_FN __nv_fp8_storage_t __gpusym_fp8_byte(__nv_fp8x4_storage_t bytes, int index) {
  return static_cast<__nv_fp8_storage_t>(bytes >> (8 * index));
}

__GPUSYM_FP8_FN __nv_fp8x2_storage_t __nv_cvt_double2_to_fp8x2(const double2 x, const __nv_saturation_t saturate,
                                                               const __nv_fp8_interpretation_t fp8_interpretation) {
  return __gpusym_fp8x2(__nv_cvt_double_to_fp8(x.x, saturate, fp8_interpretation),
                        __nv_cvt_double_to_fp8(x.y, saturate, fp8_interpretation));
}

__GPUSYM_FP8_FN __nv_fp8x2_storage_t __nv_cvt_float2_to_fp8x2(const float2 x, const __nv_saturation_t saturate,
                                                              const __nv_fp8_interpretation_t fp8_interpretation) {
  return __gpusym_fp8x2(__nv_cvt_float_to_fp8(x.x, saturate, fp8_interpretation),
                        __nv_cvt_float_to_fp8(x.y, saturate, fp8_interpretation));
}

__GPUSYM_FP8_FN __nv_fp8x2_storage_t __nv_cvt_halfraw2_to_fp8x2(const __half2_raw x, const __nv_saturation_t saturate,
                                                                const __nv_fp8_interpretation_t fp8_interpretation) {
  return __gpusym_fp8x2(__nv_cvt_halfraw_to_fp8(x.x, saturate, fp8_interpretation),
                        __nv_cvt_halfraw_to_fp8(x.y, saturate, fp8_interpretation));
}

__GPUSYM_FP8_FN __nv_fp8x2_storage_t __nv_cvt_bfloat16raw2_to_fp8x2(
    const __nv_bfloat162_raw x, const __nv_saturation_t saturate, const __nv_fp8_interpretation_t fp8_interpretation) {
  return __gpusym_fp8x2(__nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.x}, saturate, fp8_interpretation),
                        __nv_cvt_bfloat16raw_to_fp8(__nv_bfloat16_raw{x.y}, saturate, fp8_interpretation));
}

__GPUSYM_FP8_FN __half_raw __nv_cvt_fp8_to_halfraw(const __nv_fp8_storage_t x,
                                                   const __nv_fp8_interpretation_t fp8_interpretation) {
  __half_raw raw;
  raw.x = __gpusym_fp8_to_half_bits(x, fp8_interpretation);
  return raw;
}

__GPUSYM_FP8_FN __half2_raw __nv_cvt_fp8x2_to_halfraw2(const __nv_fp8x2_storage_t x,
                                                      const __nv_fp8_interpretation_t fp8_interpretation) {
  __half2_raw raw;
  raw.x = __nv_cvt_fp8_to_halfraw(__gpusym_fp8_byte(x, 0), fp8_interpretation);
  raw.y = __nv_cvt_fp8_to_halfraw(__gpusym_fp8_byte(x, 1), fp8_interpretation);
  return raw;
}

/* ---- the classes ---- */

/* What __nv_fp8_e4m3 and __nv_fp8_e5m2 share, for one interpretation. */
template <__nv_fp8_interpretation_t Kind>
struct __gpusym_fp8_scalar {
  __nv_fp8_storage_t __x;

  __gpusym_fp8_scalar() = default;
  __HOST_DEVICE__ explicit __gpusym_fp8_scalar(const __half f)
      : __x(__nv_cvt_halfraw_to_fp8(static_cast<__half_raw>(f), __NV_SATFINITE, Kind)) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_scalar(const __nv_bfloat16 f)
      : __x(__nv_cvt_bfloat16raw_to_fp8(static_cast<__nv_bfloat16_raw>(f), __NV_SATFINITE, Kind)) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_scalar(const float f) : __x(__nv_cvt_float_to_fp8(f, __NV_SATFINITE, Kind)) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_scalar(const double f) : __x(__nv_cvt_double_to_fp8(f, __NV_SATFINITE, Kind)) {}
  /* The integers through double: exact below 2^53, and larger ones saturate
   * either way. */
  template <typename T, typename std::enable_if<std::is_integral<T>::value, int>::type = 0>
  __HOST_DEVICE__ explicit __gpusym_fp8_scalar(const T val)
      : __x(__nv_cvt_double_to_fp8(static_cast<double>(val), __NV_SATFINITE, Kind)) {}

  __HOST_DEVICE__ explicit operator __half() const { return __ushort_as_half(__gpusym_fp8_to_half_bits(__x, Kind)); }
  __HOST_DEVICE__ explicit operator __nv_bfloat16() const { return __float2bfloat16(__gpusym_fp8_to_float(__x, Kind)); }
  __HOST_DEVICE__ explicit operator float() const { return __gpusym_fp8_to_float(__x, Kind); }
  __HOST_DEVICE__ explicit operator double() const { return __gpusym_fp8_to_float(__x, Kind); }
  __HOST_DEVICE__ explicit operator bool() const { return (__x & 0x7f) != 0; }
  template <typename T, typename std::enable_if<std::is_integral<T>::value && !std::is_same<T, bool>::value,
                                                int>::type = 0>
  __HOST_DEVICE__ explicit operator T() const {
    return __gpusym_to_integer<T, 8 * sizeof(T), std::is_signed<T>::value>(__gpusym_fp8_to_float(__x, Kind),
                                                                           __gpusym_rz);
  }
};

/* Two values, the first (x) in the low byte. */
template <__nv_fp8_interpretation_t Kind>
struct __gpusym_fp8_pair {
  __nv_fp8x2_storage_t __x;

  __gpusym_fp8_pair() = default;
  __HOST_DEVICE__ explicit __gpusym_fp8_pair(const __half2 f)
      : __x(__nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(f), __NV_SATFINITE, Kind)) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_pair(const __nv_bfloat162 f)
      : __x(__nv_cvt_bfloat16raw2_to_fp8x2(static_cast<__nv_bfloat162_raw>(f), __NV_SATFINITE, Kind)) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_pair(const float2 f) : __x(__nv_cvt_float2_to_fp8x2(f, __NV_SATFINITE, Kind)) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_pair(const double2 f)
      : __x(__nv_cvt_double2_to_fp8x2(f, __NV_SATFINITE, Kind)) {}

  __HOST_DEVICE__ explicit operator __half2() const { return __half2(__nv_cvt_fp8x2_to_halfraw2(__x, Kind)); }
  __HOST_DEVICE__ explicit operator float2() const {
    return make_float2(__gpusym_fp8_to_float(__gpusym_fp8_byte(__x, 0), Kind),
                       __gpusym_fp8_to_float(__gpusym_fp8_byte(__x, 1), Kind));
  }
};

/* Four values, the first (x) in the low byte. */
template <__nv_fp8_interpretation_t Kind>
struct __gpusym_fp8_quad {
  __nv_fp8x4_storage_t __x;

  __gpusym_fp8_quad() = default;
  __HOST_DEVICE__ explicit __gpusym_fp8_quad(const __half2 flo, const __half2 fhi)
      : __x(__gpusym_fp8x4(__gpusym_fp8_pair<Kind>(flo).__x, __gpusym_fp8_pair<Kind>(fhi).__x)) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_quad(const __nv_bfloat162 flo, const __nv_bfloat162 fhi)
      : __x(__gpusym_fp8x4(__gpusym_fp8_pair<Kind>(flo).__x, __gpusym_fp8_pair<Kind>(fhi).__x)) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_quad(const float4 f)
      : __x(__gpusym_fp8x4(__nv_cvt_float2_to_fp8x2(make_float2(f.x, f.y), __NV_SATFINITE, Kind),
                           __nv_cvt_float2_to_fp8x2(make_float2(f.z, f.w), __NV_SATFINITE, Kind))) {}
  __HOST_DEVICE__ explicit __gpusym_fp8_quad(const double4 f)
      : __x(__gpusym_fp8x4(__nv_cvt_double2_to_fp8x2(make_double2(f.x, f.y), __NV_SATFINITE, Kind),
                           __nv_cvt_double2_to_fp8x2(make_double2(f.z, f.w), __NV_SATFINITE, Kind))) {}

  __HOST_DEVICE__ explicit operator float4() const {
    return make_float4(__gpusym_fp8_to_float(__gpusym_fp8_byte(__x, 0), Kind),
                       __gpusym_fp8_to_float(__gpusym_fp8_byte(__x, 1), Kind),
                       __gpusym_fp8_to_float(__gpusym_fp8_byte(__x, 2), Kind),
                       __gpusym_fp8_to_float(__gpusym_fp8_byte(__x, 3), Kind));
  }
};

/* CUDA's classes, one interpretation each; they take the constructors of
 * what they share. */
#define __GPUSYM_FP8_CLASS(name, shared, kind) \
  struct name : shared<kind> {                 \
    name() = default;                          \
    using shared<kind>::shared;                \
  };
__GPUSYM_FP8_CLASS(__nv_fp8_e4m3, __gpusym_fp8_scalar, __NV_E4M3)
__GPUSYM_FP8_CLASS(__nv_fp8_e5m2, __gpusym_fp8_scalar, __NV_E5M2)
__GPUSYM_FP8_CLASS(__nv_fp8x2_e4m3, __gpusym_fp8_pair, __NV_E4M3)
__GPUSYM_FP8_CLASS(__nv_fp8x2_e5m2, __gpusym_fp8_pair, __NV_E5M2)
__GPUSYM_FP8_CLASS(__nv_fp8x4_e4m3, __gpusym_fp8_quad, __NV_E4M3)
__GPUSYM_FP8_CLASS(__nv_fp8x4_e5m2, __gpusym_fp8_quad, __NV_E5M2)
#undef __GPUSYM_FP8_CLASS

#undef __GPUSYM_FP8_FN

#endif /* __cplusplus */

#endif
