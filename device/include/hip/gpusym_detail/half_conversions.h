/*
 * Exact rounding to the two 16-bit floating-point formats, shared by
 * hip/hip_fp16.h (binary16: 5 exponent bits, 10 fraction bits) and
 * hip/hip_bf16.h (bfloat16: 8 and 7), for host and device code.
 *
 * Every conversion to a 16-bit format goes through one routine: a value
 * given as a sign, an integer magnitude and a power of two (which holds any
 * float, double or 64-bit integer exactly) is rounded once, to nearest even
 * or towards zero, minus or plus infinity, with subnormal results and
 * overflow as IEEE 754 has them.  A NaN stays a NaN, made quiet, with its
 * sign and the top of its payload.  Conversions back to integers round the
 * same four ways and saturate; a NaN gives 0 (64-bit results: the most
 * negative value's bits, 0x8000000000000000), as CUDA documents.
 *
 * A fused multiply-add of 16-bit values is exact in its product when done in
 * double; the sum is rounded to double towards odd, which rounding once more
 * to 16 bits makes the correctly rounded result.
 */
#ifndef GPUSYM_HALF_CONVERSIONS_H
#define GPUSYM_HALF_CONVERSIONS_H

#include "hip/hip_common.h"

#ifdef __cplusplus

#include <type_traits>

#if __cplusplus >= 201402L
#define __GPUSYM_CONSTEXPR14 constexpr
#else
#define __GPUSYM_CONSTEXPR14
#endif

#define __GPUSYM_ROUND_FN static __HOST_DEVICE__ inline __GPUSYM_CONSTEXPR14

/* The four rounding directions of the _rn, _rz, _rd and _ru functions. */
enum __gpusym_rounding { __gpusym_rn = 0, __gpusym_rz = 1, __gpusym_rd = 2, __gpusym_ru = 3 };

/* (-1)^negative * magnitude * 2^exponent, rounded to the format with
 * `Fraction` stored fraction bits and `Exponent` exponent bits; its bits. */
template <int Fraction, int Exponent>
__GPUSYM_ROUND_FN unsigned short __gpusym_round16(bool negative, unsigned long long magnitude, int exponent,
                                                  int mode) {
  const int bias = (1 << (Exponent - 1)) - 1;
  const long long infinity = static_cast<long long>((1u << Exponent) - 1) << Fraction;
  const unsigned short sign = negative ? 0x8000 : 0;
  if (magnitude == 0) return sign;
  const int top = 63 - __builtin_clzll(magnitude);
  const int scale = top + exponent;  // the value lies in [2^scale, 2^(scale+1))
  const int lowest_normal = 1 - bias;
  const bool normal = scale >= lowest_normal;
  const int last_place = (normal ? scale : lowest_normal) - Fraction;  // weight of the last stored bit
  const int dropped = last_place - exponent;                            // bits of `magnitude` below it
  unsigned long long kept = 0;
  bool inexact = false, above_half = false, at_half = false;
  if (dropped <= 0) {
    kept = magnitude << -dropped;
  } else if (dropped > 64) {
    inexact = true;  // below half the last place
  } else if (dropped == 64) {
    inexact = true;
    above_half = magnitude > (1ull << 63);
    at_half = magnitude == (1ull << 63);
  } else {
    kept = magnitude >> dropped;
    const unsigned long long rest = magnitude & ((1ull << dropped) - 1), half = 1ull << (dropped - 1);
    inexact = rest != 0;
    above_half = rest > half;
    at_half = rest == half;
  }
  bool up = false;
  switch (mode) {
    case __gpusym_rn: up = above_half || (at_half && (kept & 1)); break;
    case __gpusym_rd: up = inexact && negative; break;
    case __gpusym_ru: up = inexact && !negative; break;
    default: break;
  }
  kept += up;
  // A normal value's leading bit lands on the exponent field's lowest bit: a
  // carry out of the fraction moves it to the next binade, and a subnormal
  // rounded up to 2^lowest_normal becomes the smallest normal by itself.
  long long bits = ((normal ? static_cast<long long>(scale + bias - 1) : 0) << Fraction) + static_cast<long long>(kept);
  if (bits >= infinity) {
    const bool to_infinity = mode == __gpusym_rn || (mode == __gpusym_ru && !negative) || (mode == __gpusym_rd && negative);
    bits = to_infinity ? infinity : infinity - 1;
  }
  return static_cast<unsigned short>(sign | bits);
}

/* Infinity of the format, with a sign. */
template <int Fraction, int Exponent>
__GPUSYM_ROUND_FN unsigned short __gpusym_infinity16(bool negative) {
  return static_cast<unsigned short>((negative ? 0x8000u : 0u) | (((1u << Exponent) - 1) << Fraction));
}

/* The NaN of the format for a source NaN's sign and leading payload bits. */
template <int Fraction, int Exponent>
__GPUSYM_ROUND_FN unsigned short __gpusym_quiet_nan16(bool negative, unsigned long long leading_payload) {
  return static_cast<unsigned short>((negative ? 0x8000u : 0u) | (((1u << Exponent) - 1) << Fraction) |
                                     (1u << (Fraction - 1)) | (leading_payload & ((1u << Fraction) - 1)));
}

template <int Fraction, int Exponent>
__GPUSYM_ROUND_FN unsigned short __gpusym_float_to16(float value, int mode) {
  const unsigned int bits = __builtin_bit_cast(unsigned int, value);
  const bool negative = (bits >> 31) != 0;
  const unsigned int field = (bits >> 23) & 0xff, fraction = bits & 0x7fffff;
  if (field == 0xff) {
    if (fraction == 0) return __gpusym_infinity16<Fraction, Exponent>(negative);
    return __gpusym_quiet_nan16<Fraction, Exponent>(negative, fraction >> (23 - Fraction));
  }
  if (field == 0) return __gpusym_round16<Fraction, Exponent>(negative, fraction, -149, mode);
  return __gpusym_round16<Fraction, Exponent>(negative, fraction | 0x800000u, static_cast<int>(field) - 150, mode);
}

template <int Fraction, int Exponent>
__GPUSYM_ROUND_FN unsigned short __gpusym_double_to16(double value, int mode) {
  const unsigned long long bits = __builtin_bit_cast(unsigned long long, value);
  const bool negative = (bits >> 63) != 0;
  const unsigned int field = static_cast<unsigned int>((bits >> 52) & 0x7ff);
  const unsigned long long fraction = bits & 0xfffffffffffffull;
  if (field == 0x7ff) {
    if (fraction == 0) return __gpusym_infinity16<Fraction, Exponent>(negative);
    return __gpusym_quiet_nan16<Fraction, Exponent>(negative, fraction >> (52 - Fraction));
  }
  if (field == 0) return __gpusym_round16<Fraction, Exponent>(negative, fraction, -1074, mode);
  return __gpusym_round16<Fraction, Exponent>(negative, fraction | (1ull << 52), static_cast<int>(field) - 1075, mode);
}

template <int Fraction, int Exponent>
__GPUSYM_ROUND_FN unsigned short __gpusym_signed_to16(long long value, int mode) {
  return __gpusym_round16<Fraction, Exponent>(
      value < 0, value < 0 ? 0ull - static_cast<unsigned long long>(value) : static_cast<unsigned long long>(value), 0,
      mode);
}

template <int Fraction, int Exponent>
__GPUSYM_ROUND_FN unsigned short __gpusym_unsigned_to16(unsigned long long value, int mode) {
  return __gpusym_round16<Fraction, Exponent>(false, value, 0, mode);
}

/* A value of any arithmetic type (a float or double, a signed or unsigned
 * integer of up to 64 bits), rounded to nearest even. */
template <int Fraction, int Exponent, typename T>
__GPUSYM_ROUND_FN unsigned short __gpusym_arithmetic_to16(T value) {
  return std::is_floating_point<T>::value
             ? __gpusym_double_to16<Fraction, Exponent>(static_cast<double>(value), __gpusym_rn)
         : std::is_signed<T>::value
             ? __gpusym_signed_to16<Fraction, Exponent>(static_cast<long long>(value), __gpusym_rn)
             : __gpusym_unsigned_to16<Fraction, Exponent>(static_cast<unsigned long long>(value), __gpusym_rn);
}

/* A value rounded to an integer in the given direction, ties of _rn to
 * even; a zero result keeps the value's sign, as ceil(-0.5) is -0. */
static __HOST_DEVICE__ inline double __gpusym_round_integral_magnitude(double value, int mode) {
  if (!(value > -4503599627370496.0 && value < 4503599627370496.0)) return value;  // |value| >= 2^52, NaN
  const double whole = static_cast<double>(static_cast<long long>(value));         // towards zero
  const double part = value - whole;                                               // exact
  switch (mode) {
    case __gpusym_rz: return whole;
    case __gpusym_rd: return part < 0 ? whole - 1 : whole;
    case __gpusym_ru: return part > 0 ? whole + 1 : whole;
    default: break;
  }
  const double size = part < 0 ? -part : part, away = part < 0 ? whole - 1 : whole + 1;
  if (size > 0.5) return away;
  if (size < 0.5) return whole;
  return static_cast<long long>(whole) % 2 == 0 ? whole : away;
}
static __HOST_DEVICE__ inline double __gpusym_round_integral(double value, int mode) {
  const double rounded = __gpusym_round_integral_magnitude(value, mode);
  return rounded == 0 ? __builtin_copysign(0.0, value) : rounded;
}

/* A 16-bit value (as a double, exactly) to an integer of `Bits` bits, rounded
 * in the given direction and saturated to the integer's range. */
template <typename Int, int Bits, bool Signed>
static __HOST_DEVICE__ inline Int __gpusym_to_integer(double value, int mode) {
  const unsigned long long highest_bits = Signed ? (1ull << (Bits - 1)) - 1 : ~0ull >> (64 - Bits);
  const Int highest = static_cast<Int>(highest_bits);
  const Int lowest = Signed ? static_cast<Int>(-static_cast<long long>(highest_bits) - 1) : static_cast<Int>(0);
  if (value != value) return Bits == 64 ? static_cast<Int>(1ull << 63) : static_cast<Int>(0);
  const double limit = 2.0 * static_cast<double>(1ull << (Bits - (Signed ? 2 : 1)));  // 2^(value bits)
  const double rounded = __gpusym_round_integral(value, mode);
  if (rounded >= limit) return highest;
  if (rounded < (Signed ? -limit : 0.0)) return lowest;
  return static_cast<Int>(rounded);
}

/* a * b + c with the product exact in double (as any product of two 16-bit
 * floats is), rounded to double towards odd: the last bit of an inexact sum
 * is set, so that rounding it again to 16 bits, in any direction, is
 * rounding the exact value once. */
static __HOST_DEVICE__ inline double __gpusym_fma_to_odd(double a, double b, double c) {
#pragma clang fp reassociate(off)
  const double product = a * b;
  double sum = product + c;
  if (sum - sum != 0) return sum;  // infinite or NaN
  const double product_part = sum - c, c_part = sum - product_part;
  const double error = (product - product_part) + (c - c_part);  // sum + error is exact
  if (error != 0) {
    unsigned long long bits = __builtin_bit_cast(unsigned long long, sum);
    if ((bits & 1) == 0) bits += ((error > 0) == (sum > 0)) ? 1 : static_cast<unsigned long long>(-1);
    sum = __builtin_bit_cast(double, bits);
  }
  return sum;
}

#undef __GPUSYM_ROUND_FN

#if defined(__HIP__)
/* Adds `value` to the 16- or 32-bit value at `address` with `add`, in a
 * compare-and-swap loop on the value's own bytes (so memcheck sees no wider
 * access); returns the old value. */
template <typename T, typename Add>
static __device__ inline T __gpusym_atomic_add16(T *address, T value, Add add) {
  static_assert(sizeof(T) == 2 || sizeof(T) == 4, "a 16-bit value or a pair of them");
  typedef typename std::conditional<sizeof(T) == 2, unsigned short, unsigned int>::type Bits;
  Bits *bits = reinterpret_cast<Bits *>(address);
  Bits old = __hip_atomic_load(bits, __ATOMIC_RELAXED, __HIP_MEMORY_SCOPE_AGENT);
  Bits sum;
  do {
    sum = __builtin_bit_cast(Bits, add(__builtin_bit_cast(T, old), value));
  } while (!__hip_atomic_compare_exchange_weak(bits, &old, sum, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                               __HIP_MEMORY_SCOPE_AGENT));
  return __builtin_bit_cast(T, old);
}
#endif

#endif /* __cplusplus */

#endif
