/*
 * Half precision as HIP's hip_fp16.h gives it, for host and device code:
 * __half (also `half`) and the pair __half2 (`half2`), their raw forms
 * __half_raw and __half2_raw, and the functions of HIP's header and CUDA's
 * cuda_fp16.h: conversions in the four rounding directions, the pair
 * constructors and selectors, arithmetic (plain, _rn, _sat, fused, _relu),
 * ordered and unordered comparisons, NaN-aware minimum and maximum, the
 * math functions, loads and stores, atomics and HIP's packed add.
 *
 * A __half holds clang's _Float16.  Arithmetic of two halves is IEEE
 * binary16 rounded to nearest even; conversions from float, double and the
 * integers round exactly once in the direction named
 * (gpusym_detail/half_conversions.h), NaNs staying NaNs; conversions to
 * integers round in the direction named and saturate, a NaN giving 0
 * (64-bit results: 0x8000000000000000).  The math functions compute in
 * double and round once to half.  Comparisons and the _sat, _relu, min and
 * max functions follow CUDA's documentation; so do the __half2 operators
 * (each is the `__hb...2` function: true when it holds for both halves).
 * Warp shuffles of __half and __half2 are the generic __shfl* templates of
 * hip_runtime.h.  __HIP_NO_HALF_OPERATORS__ and __HIP_NO_HALF_CONVERSIONS__
 * remove the operators and the implicit conversions, as in HIP;
 * HIP_NO_HALF removes the names `half` and `half2`.
 */
#ifndef GPUSYM_HIP_FP16_H
#define GPUSYM_HIP_FP16_H

#if defined(__HIP__)
#include "hip/hip_runtime.h" /* the device overloads of the math functions */
#else
#include "hip/hip_vector_types.h"
#endif

#ifdef __cplusplus

#include <cmath>
#include <type_traits>

#include "hip/gpusym_detail/half_conversions.h"

#define __GPUSYM_HALF_FN static __HOST_DEVICE__ inline

/* Bits and value of a half at once; assignable from and convertible to the
 * bits (an unsigned short), so that CUDA's `raw.x = 0x3c00` works too. */
struct __half_raw {
  union {
    _Float16 data;
    unsigned short x;
  };
  __HOST_DEVICE__ __half_raw &operator=(unsigned short bits) {
    x = bits;
    return *this;
  }
  __HOST_DEVICE__ operator unsigned short() const { return x; }
};

struct alignas(4) __half2_raw {
  __half_raw x, y;
};

struct __hip_bfloat16;

/* The bits are also an unsigned short: the bit operations (negation,
 * absolute value, bit casts) use it, since a _Float16 moved through the
 * floating-point unit of a CPU without half-precision arithmetic may lose a
 * signalling NaN's bit pattern. */
struct __half {
  union {
    _Float16 data;
    unsigned short __x;
  };

  __half() = default;
  __HOST_DEVICE__ constexpr __half(const __half_raw &raw) : __x(raw.x) {}
  /* A template, so that `h = {}` and `h = {a, b}` take the copy assignment
   * rather than being ambiguous with this one. */
  template <typename R, typename std::enable_if<std::is_same<R, __half_raw>::value, int>::type = 0>
  __HOST_DEVICE__ __half &operator=(const R &raw) {
    __x = raw.x;
    return *this;
  }
  __HOST_DEVICE__ volatile __half &operator=(const __half_raw &raw) volatile {
    __x = raw.x;
    return *this;
  }
  __HOST_DEVICE__ volatile __half &operator=(const volatile __half_raw &raw) volatile {
    __x = raw.x;
    return *this;
  }
  __HOST_DEVICE__ operator __half_raw() const {
    __half_raw raw;
    raw.x = __x;
    return raw;
  }
  __HOST_DEVICE__ operator __half_raw() const volatile {
    __half_raw raw;
    raw.x = __x;
    return raw;
  }

#if !defined(__HIP_NO_HALF_CONVERSIONS__)
  __HOST_DEVICE__ constexpr __half(_Float16 value) : data(value) {}
  __HOST_DEVICE__ constexpr __half(float value) : data(static_cast<_Float16>(value)) {}
  /* double, the integers, bool: rounded once, to nearest even. */
  template <typename T, typename std::enable_if<std::is_arithmetic<T>::value && !std::is_same<T, float>::value &&
                                                    !std::is_same<T, _Float16>::value,
                                                int>::type = 0>
  __HOST_DEVICE__ __GPUSYM_CONSTEXPR14 __half(T value)
      : data(__builtin_bit_cast(_Float16, __gpusym_arithmetic_to16<10, 5>(value))) {}
  __HOST_DEVICE__ constexpr operator float() const { return data; }
  /* From a bfloat16 (hip_bf16.h, cuda_bf16.h), explicitly, as CUDA's __half
   * has it: through its float, exact, then rounded once. */
  template <typename B, typename std::enable_if<std::is_same<B, __hip_bfloat16>::value, int>::type = 0>
  __HOST_DEVICE__ explicit __half(const B &value) : __half(static_cast<float>(value)) {}
#endif

#if !defined(__HIP_NO_HALF_OPERATORS__)
  __HOST_DEVICE__ __half &operator+=(const __half &other) {
    data = data + other.data;
    return *this;
  }
  __HOST_DEVICE__ __half &operator-=(const __half &other) {
    data = data - other.data;
    return *this;
  }
  __HOST_DEVICE__ __half &operator*=(const __half &other) {
    data = data * other.data;
    return *this;
  }
  __HOST_DEVICE__ __half &operator/=(const __half &other) {
    data = data / other.data;
    return *this;
  }
  __HOST_DEVICE__ __half &operator++() {
    data = data + static_cast<_Float16>(1);
    return *this;
  }
  __HOST_DEVICE__ __half &operator--() {
    data = data - static_cast<_Float16>(1);
    return *this;
  }
  __HOST_DEVICE__ __half operator++(int) {
    __half old = *this;
    ++*this;
    return old;
  }
  __HOST_DEVICE__ __half operator--(int) {
    __half old = *this;
    --*this;
    return old;
  }
#endif
};

/* The half with these bits; its bits. */
__GPUSYM_HALF_FN __half __gpusym_half(unsigned short bits) {
  __half h;
  h.__x = bits;
  return h;
}
__GPUSYM_HALF_FN __half __gpusym_half_of(_Float16 value) {
  __half h;
  h.data = value;
  return h;
}
__GPUSYM_HALF_FN unsigned short __gpusym_half_bits(__half h) { return h.__x; }

struct alignas(4) __half2 {
  __half x, y;

  __half2() = default;
  __HOST_DEVICE__ constexpr __half2(const __half &a, const __half &b) : x(a), y(b) {}
  __HOST_DEVICE__ constexpr __half2(const __half2_raw &raw) : x(raw.x), y(raw.y) {}
  template <typename R, typename std::enable_if<std::is_same<R, __half2_raw>::value, int>::type = 0>
  __HOST_DEVICE__ __half2 &operator=(const R &raw) {
    x = raw.x;
    y = raw.y;
    return *this;
  }
  __HOST_DEVICE__ operator __half2_raw() const {
    __half2_raw raw;
    raw.x.x = x.__x;
    raw.y.x = y.__x;
    return raw;
  }

#if !defined(__HIP_NO_HALF_OPERATORS__)
  __HOST_DEVICE__ __half2 &operator+=(const __half2 &other) {
    x += other.x;
    y += other.y;
    return *this;
  }
  __HOST_DEVICE__ __half2 &operator-=(const __half2 &other) {
    x -= other.x;
    y -= other.y;
    return *this;
  }
  __HOST_DEVICE__ __half2 &operator*=(const __half2 &other) {
    x *= other.x;
    y *= other.y;
    return *this;
  }
  __HOST_DEVICE__ __half2 &operator/=(const __half2 &other) {
    x /= other.x;
    y /= other.y;
    return *this;
  }
  __HOST_DEVICE__ __half2 &operator++() {
    ++x;
    ++y;
    return *this;
  }
  __HOST_DEVICE__ __half2 &operator--() {
    --x;
    --y;
    return *this;
  }
  __HOST_DEVICE__ __half2 operator++(int) {
    __half2 old = *this;
    ++*this;
    return old;
  }
  __HOST_DEVICE__ __half2 operator--(int) {
    __half2 old = *this;
    --*this;
    return old;
  }
#endif
};

#if !defined(HIP_NO_HALF)
typedef __half half;
typedef __half2 half2;
#endif

/* HIP's named constants. */
#define HIPRT_INF_FP16 __ushort_as_half((unsigned short)0x7C00U)
#define HIPRT_MAX_NORMAL_FP16 __ushort_as_half((unsigned short)0x7BFFU)
#define HIPRT_MIN_DENORM_FP16 __ushort_as_half((unsigned short)0x0001U)
#define HIPRT_NAN_FP16 __ushort_as_half((unsigned short)0x7FFFU)
#define HIPRT_NEG_ZERO_FP16 __ushort_as_half((unsigned short)0x8000U)
#define HIPRT_ONE_FP16 __ushort_as_half((unsigned short)0x3C00U)
#define HIPRT_ZERO_FP16 __ushort_as_half((unsigned short)0x0000U)

/* ---- conversions ---- */

__GPUSYM_HALF_FN __half __float2half(float x) { return __gpusym_half(__gpusym_float_to16<10, 5>(x, __gpusym_rn)); }
__GPUSYM_HALF_FN __half __float2half_rn(float x) { return __gpusym_half(__gpusym_float_to16<10, 5>(x, __gpusym_rn)); }
__GPUSYM_HALF_FN __half __float2half_rz(float x) { return __gpusym_half(__gpusym_float_to16<10, 5>(x, __gpusym_rz)); }
__GPUSYM_HALF_FN __half __float2half_rd(float x) { return __gpusym_half(__gpusym_float_to16<10, 5>(x, __gpusym_rd)); }
__GPUSYM_HALF_FN __half __float2half_ru(float x) { return __gpusym_half(__gpusym_float_to16<10, 5>(x, __gpusym_ru)); }
__GPUSYM_HALF_FN __half __double2half(double x) { return __gpusym_half(__gpusym_double_to16<10, 5>(x, __gpusym_rn)); }
__GPUSYM_HALF_FN float __half2float(__half h) { return static_cast<float>(h.data); }

__GPUSYM_HALF_FN __half2 make_half2(__half x, __half y) { return __half2(x, y); }
__GPUSYM_HALF_FN __half2 __float2half2_rn(float x) { return __half2(__float2half_rn(x), __float2half_rn(x)); }
__GPUSYM_HALF_FN __half2 __floats2half2_rn(float a, float b) { return __half2(__float2half_rn(a), __float2half_rn(b)); }
__GPUSYM_HALF_FN __half2 __float22half2_rn(float2 v) { return __floats2half2_rn(v.x, v.y); }
__GPUSYM_HALF_FN float2 __half22float2(__half2 h) { return make_float2(__half2float(h.x), __half2float(h.y)); }
__GPUSYM_HALF_FN float __low2float(__half2 h) { return __half2float(h.x); }
__GPUSYM_HALF_FN float __high2float(__half2 h) { return __half2float(h.y); }

/* Integers to half and back, in each direction: __int2half_rn,
 * __half2int_rz, ... */
#define __GPUSYM_HALF_INTEGER(name, type, bits, is_signed, to16)                                          \
  __GPUSYM_HALF_FN __half __##name##2half_rn(type x) { return __gpusym_half(to16<10, 5>(x, __gpusym_rn)); } \
  __GPUSYM_HALF_FN __half __##name##2half_rz(type x) { return __gpusym_half(to16<10, 5>(x, __gpusym_rz)); } \
  __GPUSYM_HALF_FN __half __##name##2half_rd(type x) { return __gpusym_half(to16<10, 5>(x, __gpusym_rd)); } \
  __GPUSYM_HALF_FN __half __##name##2half_ru(type x) { return __gpusym_half(to16<10, 5>(x, __gpusym_ru)); } \
  __GPUSYM_HALF_FN type __half2##name##_rn(__half h) {                                                     \
    return __gpusym_to_integer<type, bits, is_signed>(__half2float(h), __gpusym_rn);                       \
  }                                                                                                        \
  __GPUSYM_HALF_FN type __half2##name##_rz(__half h) {                                                     \
    return __gpusym_to_integer<type, bits, is_signed>(__half2float(h), __gpusym_rz);                       \
  }                                                                                                        \
  __GPUSYM_HALF_FN type __half2##name##_rd(__half h) {                                                     \
    return __gpusym_to_integer<type, bits, is_signed>(__half2float(h), __gpusym_rd);                       \
  }                                                                                                        \
  __GPUSYM_HALF_FN type __half2##name##_ru(__half h) {                                                     \
    return __gpusym_to_integer<type, bits, is_signed>(__half2float(h), __gpusym_ru);                       \
  }
__GPUSYM_HALF_INTEGER(int, int, 32, true, __gpusym_signed_to16)
__GPUSYM_HALF_INTEGER(uint, unsigned int, 32, false, __gpusym_unsigned_to16)
__GPUSYM_HALF_INTEGER(short, short, 16, true, __gpusym_signed_to16)
__GPUSYM_HALF_INTEGER(ushort, unsigned short, 16, false, __gpusym_unsigned_to16)
__GPUSYM_HALF_INTEGER(ll, long long, 64, true, __gpusym_signed_to16)
__GPUSYM_HALF_INTEGER(ull, unsigned long long, 64, false, __gpusym_unsigned_to16)
#undef __GPUSYM_HALF_INTEGER
__GPUSYM_HALF_FN signed char __half2char_rz(__half h) {
  return __gpusym_to_integer<signed char, 8, true>(__half2float(h), __gpusym_rz);
}
__GPUSYM_HALF_FN unsigned char __half2uchar_rz(__half h) {
  return __gpusym_to_integer<unsigned char, 8, false>(__half2float(h), __gpusym_rz);
}

__GPUSYM_HALF_FN short __half_as_short(__half h) { return static_cast<short>(__gpusym_half_bits(h)); }
__GPUSYM_HALF_FN unsigned short __half_as_ushort(__half h) { return __gpusym_half_bits(h); }
__GPUSYM_HALF_FN __half __short_as_half(short x) { return __gpusym_half(static_cast<unsigned short>(x)); }
__GPUSYM_HALF_FN __half __ushort_as_half(unsigned short x) { return __gpusym_half(x); }

/* ---- pairs ---- */

__GPUSYM_HALF_FN __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__GPUSYM_HALF_FN __half2 __half2half2(__half a) { return __half2(a, a); }
__GPUSYM_HALF_FN __half __low2half(__half2 h) { return h.x; }
__GPUSYM_HALF_FN __half __high2half(__half2 h) { return h.y; }
__GPUSYM_HALF_FN __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
__GPUSYM_HALF_FN __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
__GPUSYM_HALF_FN __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__GPUSYM_HALF_FN __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__GPUSYM_HALF_FN __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }

/* ---- loads and stores (the cache hints mean nothing here) ---- */

#define __GPUSYM_HALF_MEMORY(type)                                               \
  __GPUSYM_HALF_FN type __ldg(const type *p) { return *p; }                      \
  __GPUSYM_HALF_FN type __ldcg(const type *p) { return *p; }                     \
  __GPUSYM_HALF_FN type __ldca(const type *p) { return *p; }                     \
  __GPUSYM_HALF_FN type __ldcs(const type *p) { return *p; }                     \
  __GPUSYM_HALF_FN type __ldlu(const type *p) { return *p; }                     \
  __GPUSYM_HALF_FN type __ldcv(const type *p) { return *p; }                     \
  __GPUSYM_HALF_FN void __stwb(type *p, type value) { *p = value; }              \
  __GPUSYM_HALF_FN void __stcg(type *p, type value) { *p = value; }              \
  __GPUSYM_HALF_FN void __stcs(type *p, type value) { *p = value; }              \
  __GPUSYM_HALF_FN void __stwt(type *p, type value) { *p = value; }
__GPUSYM_HALF_MEMORY(__half)
__GPUSYM_HALF_MEMORY(__half2)
#undef __GPUSYM_HALF_MEMORY

/* ---- classification, comparisons, minimum and maximum ---- */

__GPUSYM_HALF_FN bool __hisnan(__half a) { return (__gpusym_half_bits(a) & 0x7fff) > 0x7c00; }
/* CUDA's answer: -1 for minus infinity, 1 for plus infinity, else 0. */
__GPUSYM_HALF_FN int __hisinf(__half a) {
  const unsigned short bits = __gpusym_half_bits(a);
  return bits == 0x7c00 ? 1 : bits == 0xfc00 ? -1 : 0;
}

__GPUSYM_HALF_FN bool __heq(__half a, __half b) { return a.data == b.data; }
__GPUSYM_HALF_FN bool __hne(__half a, __half b) { return a.data < b.data || a.data > b.data; }
__GPUSYM_HALF_FN bool __hlt(__half a, __half b) { return a.data < b.data; }
__GPUSYM_HALF_FN bool __hle(__half a, __half b) { return a.data <= b.data; }
__GPUSYM_HALF_FN bool __hgt(__half a, __half b) { return a.data > b.data; }
__GPUSYM_HALF_FN bool __hge(__half a, __half b) { return a.data >= b.data; }
/* Unordered: also true when either is a NaN. */
__GPUSYM_HALF_FN bool __hequ(__half a, __half b) { return !(a.data < b.data) && !(a.data > b.data); }
__GPUSYM_HALF_FN bool __hneu(__half a, __half b) { return !(a.data == b.data); }
__GPUSYM_HALF_FN bool __hltu(__half a, __half b) { return !(a.data >= b.data); }
__GPUSYM_HALF_FN bool __hleu(__half a, __half b) { return !(a.data > b.data); }
__GPUSYM_HALF_FN bool __hgtu(__half a, __half b) { return !(a.data <= b.data); }
__GPUSYM_HALF_FN bool __hgeu(__half a, __half b) { return !(a.data < b.data); }

/* A NaN loses to a number; two NaNs give the canonical NaN; +0 is above -0. */
__GPUSYM_HALF_FN __half __hmax(__half a, __half b) {
  if (__hisnan(a)) return __hisnan(b) ? __gpusym_half(0x7fff) : b;
  if (__hisnan(b)) return a;
  if (a.data == b.data) return __gpusym_half(__gpusym_half_bits(a) & __gpusym_half_bits(b));  // -0 only if both are
  return a.data > b.data ? a : b;
}
__GPUSYM_HALF_FN __half __hmin(__half a, __half b) {
  if (__hisnan(a)) return __hisnan(b) ? __gpusym_half(0x7fff) : b;
  if (__hisnan(b)) return a;
  if (a.data == b.data) return __gpusym_half(__gpusym_half_bits(a) | __gpusym_half_bits(b));  // -0 if either is
  return a.data < b.data ? a : b;
}
/* A NaN wins: the canonical NaN. */
__GPUSYM_HALF_FN __half __hmax_nan(__half a, __half b) {
  return __hisnan(a) || __hisnan(b) ? __gpusym_half(0x7fff) : __hmax(a, b);
}
__GPUSYM_HALF_FN __half __hmin_nan(__half a, __half b) {
  return __hisnan(a) || __hisnan(b) ? __gpusym_half(0x7fff) : __hmin(a, b);
}

/* ---- arithmetic ---- */

__GPUSYM_HALF_FN __half __hadd(__half a, __half b) { return __gpusym_half_of(a.data + b.data); }
__GPUSYM_HALF_FN __half __hsub(__half a, __half b) { return __gpusym_half_of(a.data - b.data); }
__GPUSYM_HALF_FN __half __hmul(__half a, __half b) { return __gpusym_half_of(a.data * b.data); }
__GPUSYM_HALF_FN __half __hdiv(__half a, __half b) { return __gpusym_half_of(a.data / b.data); }
/* Never contracted into a fused multiply-add. */
__GPUSYM_HALF_FN __half __hadd_rn(__half a, __half b) {
#pragma clang fp contract(off)
  return __gpusym_half_of(a.data + b.data);
}
__GPUSYM_HALF_FN __half __hsub_rn(__half a, __half b) {
#pragma clang fp contract(off)
  return __gpusym_half_of(a.data - b.data);
}
__GPUSYM_HALF_FN __half __hmul_rn(__half a, __half b) {
#pragma clang fp contract(off)
  return __gpusym_half_of(a.data * b.data);
}
__GPUSYM_HALF_FN __half __hneg(__half a) { return __gpusym_half(__gpusym_half_bits(a) ^ 0x8000); }
__GPUSYM_HALF_FN __half __habs(__half a) { return __gpusym_half(__gpusym_half_bits(a) & 0x7fff); }
/* a * b + c, rounded once. */
__GPUSYM_HALF_FN __half __hfma(__half a, __half b, __half c) {
  return __gpusym_half(__gpusym_double_to16<10, 5>(
      __gpusym_fma_to_odd(static_cast<double>(a.data), static_cast<double>(b.data), static_cast<double>(c.data)),
      __gpusym_rn));
}
/* _sat: clamped to [0, 1], a NaN to +0. */
__GPUSYM_HALF_FN __half __gpusym_half_saturate(__half a) {
  if (__hisnan(a) || a.data < static_cast<_Float16>(0)) return __gpusym_half(0);
  return a.data > static_cast<_Float16>(1) ? __gpusym_half(0x3c00) : a;
}
__GPUSYM_HALF_FN __half __hadd_sat(__half a, __half b) { return __gpusym_half_saturate(__hadd(a, b)); }
__GPUSYM_HALF_FN __half __hsub_sat(__half a, __half b) { return __gpusym_half_saturate(__hsub(a, b)); }
__GPUSYM_HALF_FN __half __hmul_sat(__half a, __half b) { return __gpusym_half_saturate(__hmul(a, b)); }
__GPUSYM_HALF_FN __half __hfma_sat(__half a, __half b, __half c) { return __gpusym_half_saturate(__hfma(a, b, c)); }
/* _relu: a negative result is 0, a NaN the canonical NaN. */
__GPUSYM_HALF_FN __half __hfma_relu(__half a, __half b, __half c) {
  const __half r = __hfma(a, b, c);
  if (__hisnan(r)) return __gpusym_half(0x7fff);
  return r.data < static_cast<_Float16>(0) ? __gpusym_half(0) : r;
}

/* ---- the same on both halves of a pair ---- */

#define __GPUSYM_HALF2_UNARY(name, scalar) \
  __GPUSYM_HALF_FN __half2 name(__half2 a) { return __half2(scalar(a.x), scalar(a.y)); }
#define __GPUSYM_HALF2_BINARY(name, scalar) \
  __GPUSYM_HALF_FN __half2 name(__half2 a, __half2 b) { return __half2(scalar(a.x, b.x), scalar(a.y, b.y)); }
#define __GPUSYM_HALF2_TERNARY(name, scalar)                  \
  __GPUSYM_HALF_FN __half2 name(__half2 a, __half2 b, __half2 c) { \
    return __half2(scalar(a.x, b.x, c.x), scalar(a.y, b.y, c.y));  \
  }
__GPUSYM_HALF2_BINARY(__hadd2, __hadd)
__GPUSYM_HALF2_BINARY(__hsub2, __hsub)
__GPUSYM_HALF2_BINARY(__hmul2, __hmul)
__GPUSYM_HALF2_BINARY(__h2div, __hdiv)
__GPUSYM_HALF2_BINARY(__hadd2_rn, __hadd_rn)
__GPUSYM_HALF2_BINARY(__hsub2_rn, __hsub_rn)
__GPUSYM_HALF2_BINARY(__hmul2_rn, __hmul_rn)
__GPUSYM_HALF2_BINARY(__hadd2_sat, __hadd_sat)
__GPUSYM_HALF2_BINARY(__hsub2_sat, __hsub_sat)
__GPUSYM_HALF2_BINARY(__hmul2_sat, __hmul_sat)
__GPUSYM_HALF2_BINARY(__hmax2, __hmax)
__GPUSYM_HALF2_BINARY(__hmin2, __hmin)
__GPUSYM_HALF2_BINARY(__hmax2_nan, __hmax_nan)
__GPUSYM_HALF2_BINARY(__hmin2_nan, __hmin_nan)
__GPUSYM_HALF2_TERNARY(__hfma2, __hfma)
__GPUSYM_HALF2_TERNARY(__hfma2_sat, __hfma_sat)
__GPUSYM_HALF2_TERNARY(__hfma2_relu, __hfma_relu)
__GPUSYM_HALF2_UNARY(__hneg2, __hneg)
__GPUSYM_HALF2_UNARY(__habs2, __habs)

/* Complex multiply-add: a * b + c with (x, y) as x + iy, in two fused steps
 * per part. */
__GPUSYM_HALF_FN __half2 __hcmadd(__half2 a, __half2 b, __half2 c) {
  const __half real = __hfma(a.x, b.x, __hfma(__hneg(a.y), b.y, c.x));
  const __half imaginary = __hfma(a.x, b.y, __hfma(a.y, b.x, c.y));
  return __half2(real, imaginary);
}

/* Comparisons of pairs: 1.0 or 0.0 in each half, all-ones or zero in each
 * half of a mask, or one bool true when both hold. */
#define __GPUSYM_HALF2_COMPARE(name, scalar)                                                               \
  __GPUSYM_HALF_FN __half2 name##2(__half2 a, __half2 b) {                                                 \
    return __half2(__gpusym_half(scalar(a.x, b.x) ? 0x3c00 : 0), __gpusym_half(scalar(a.y, b.y) ? 0x3c00 : 0)); \
  }                                                                                                        \
  __GPUSYM_HALF_FN unsigned int name##2_mask(__half2 a, __half2 b) {                                       \
    return (scalar(a.x, b.x) ? 0xffffu : 0u) | (scalar(a.y, b.y) ? 0xffff0000u : 0u);                     \
  }
__GPUSYM_HALF2_COMPARE(__heq, __heq)
__GPUSYM_HALF2_COMPARE(__hne, __hne)
__GPUSYM_HALF2_COMPARE(__hlt, __hlt)
__GPUSYM_HALF2_COMPARE(__hle, __hle)
__GPUSYM_HALF2_COMPARE(__hgt, __hgt)
__GPUSYM_HALF2_COMPARE(__hge, __hge)
__GPUSYM_HALF2_COMPARE(__hequ, __hequ)
__GPUSYM_HALF2_COMPARE(__hneu, __hneu)
__GPUSYM_HALF2_COMPARE(__hltu, __hltu)
__GPUSYM_HALF2_COMPARE(__hleu, __hleu)
__GPUSYM_HALF2_COMPARE(__hgtu, __hgtu)
__GPUSYM_HALF2_COMPARE(__hgeu, __hgeu)
#undef __GPUSYM_HALF2_COMPARE
#define __GPUSYM_HALF2_BOTH(name, scalar) \
  __GPUSYM_HALF_FN bool name(__half2 a, __half2 b) { return scalar(a.x, b.x) && scalar(a.y, b.y); }
__GPUSYM_HALF2_BOTH(__hbeq2, __heq)
__GPUSYM_HALF2_BOTH(__hbne2, __hne)
__GPUSYM_HALF2_BOTH(__hblt2, __hlt)
__GPUSYM_HALF2_BOTH(__hble2, __hle)
__GPUSYM_HALF2_BOTH(__hbgt2, __hgt)
__GPUSYM_HALF2_BOTH(__hbge2, __hge)
__GPUSYM_HALF2_BOTH(__hbequ2, __hequ)
__GPUSYM_HALF2_BOTH(__hbneu2, __hneu)
__GPUSYM_HALF2_BOTH(__hbltu2, __hltu)
__GPUSYM_HALF2_BOTH(__hbleu2, __hleu)
__GPUSYM_HALF2_BOTH(__hbgtu2, __hgtu)
__GPUSYM_HALF2_BOTH(__hbgeu2, __hgeu)
#undef __GPUSYM_HALF2_BOTH
__GPUSYM_HALF_FN __half2 __hisnan2(__half2 a) {
  return __half2(__gpusym_half(__hisnan(a.x) ? 0x3c00 : 0), __gpusym_half(__hisnan(a.y) ? 0x3c00 : 0));
}
__GPUSYM_HALF_FN __half2 __hisinf2(__half2 a) {
  return __half2(__gpusym_half(__hisinf(a.x) ? 0x3c00 : 0), __gpusym_half(__hisinf(a.y) ? 0x3c00 : 0));
}

/* ---- operators ---- */

#if !defined(__HIP_NO_HALF_OPERATORS__)
__GPUSYM_HALF_FN __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }
__GPUSYM_HALF_FN __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }
__GPUSYM_HALF_FN __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }
__GPUSYM_HALF_FN __half operator/(const __half &a, const __half &b) { return __hdiv(a, b); }
__GPUSYM_HALF_FN __half operator+(const __half &a) { return a; }
__GPUSYM_HALF_FN __half operator-(const __half &a) { return __hneg(a); }
__GPUSYM_HALF_FN bool operator==(const __half &a, const __half &b) { return __heq(a, b); }
__GPUSYM_HALF_FN bool operator!=(const __half &a, const __half &b) { return __hneu(a, b); }
__GPUSYM_HALF_FN bool operator<(const __half &a, const __half &b) { return __hlt(a, b); }
__GPUSYM_HALF_FN bool operator<=(const __half &a, const __half &b) { return __hle(a, b); }
__GPUSYM_HALF_FN bool operator>(const __half &a, const __half &b) { return __hgt(a, b); }
__GPUSYM_HALF_FN bool operator>=(const __half &a, const __half &b) { return __hge(a, b); }

__GPUSYM_HALF_FN __half2 operator+(const __half2 &a, const __half2 &b) { return __hadd2(a, b); }
__GPUSYM_HALF_FN __half2 operator-(const __half2 &a, const __half2 &b) { return __hsub2(a, b); }
__GPUSYM_HALF_FN __half2 operator*(const __half2 &a, const __half2 &b) { return __hmul2(a, b); }
__GPUSYM_HALF_FN __half2 operator/(const __half2 &a, const __half2 &b) { return __h2div(a, b); }
__GPUSYM_HALF_FN __half2 operator+(const __half2 &a) { return a; }
__GPUSYM_HALF_FN __half2 operator-(const __half2 &a) { return __hneg2(a); }
__GPUSYM_HALF_FN bool operator==(const __half2 &a, const __half2 &b) { return __hbeq2(a, b); }
__GPUSYM_HALF_FN bool operator!=(const __half2 &a, const __half2 &b) { return __hbneu2(a, b); }
__GPUSYM_HALF_FN bool operator<(const __half2 &a, const __half2 &b) { return __hblt2(a, b); }
__GPUSYM_HALF_FN bool operator<=(const __half2 &a, const __half2 &b) { return __hble2(a, b); }
__GPUSYM_HALF_FN bool operator>(const __half2 &a, const __half2 &b) { return __hbgt2(a, b); }
__GPUSYM_HALF_FN bool operator>=(const __half2 &a, const __half2 &b) { return __hbge2(a, b); }
#endif

/* ---- math: computed in double, rounded to half once ---- */

#define __GPUSYM_HALF_MATH(name, pair_name, expression)                                           \
  __GPUSYM_HALF_FN __half name(__half h) {                                                        \
    const double x = static_cast<double>(h.data);                                                 \
    return __gpusym_half(__gpusym_double_to16<10, 5>(expression, __gpusym_rn));                   \
  }                                                                                               \
  __GPUSYM_HALF_FN __half2 pair_name(__half2 h) { return __half2(name(h.x), name(h.y)); }
__GPUSYM_HALF_MATH(hsqrt, h2sqrt, std::sqrt(x))
__GPUSYM_HALF_MATH(hrsqrt, h2rsqrt, 1.0 / std::sqrt(x))
__GPUSYM_HALF_MATH(hrcp, h2rcp, 1.0 / x)
__GPUSYM_HALF_MATH(hexp, h2exp, std::exp(x))
__GPUSYM_HALF_MATH(hexp2, h2exp2, std::exp2(x))
__GPUSYM_HALF_MATH(hexp10, h2exp10, std::pow(10.0, x))
__GPUSYM_HALF_MATH(hlog, h2log, std::log(x))
__GPUSYM_HALF_MATH(hlog2, h2log2, std::log2(x))
__GPUSYM_HALF_MATH(hlog10, h2log10, std::log10(x))
__GPUSYM_HALF_MATH(hsin, h2sin, std::sin(x))
__GPUSYM_HALF_MATH(hcos, h2cos, std::cos(x))
__GPUSYM_HALF_MATH(htanh, h2tanh, std::tanh(x))
__GPUSYM_HALF_MATH(htanh_approx, h2tanh_approx, std::tanh(x))
__GPUSYM_HALF_MATH(hceil, h2ceil, __gpusym_round_integral(x, __gpusym_ru))
__GPUSYM_HALF_MATH(hfloor, h2floor, __gpusym_round_integral(x, __gpusym_rd))
__GPUSYM_HALF_MATH(htrunc, h2trunc, __gpusym_round_integral(x, __gpusym_rz))
__GPUSYM_HALF_MATH(hrint, h2rint, __gpusym_round_integral(x, __gpusym_rn))
#undef __GPUSYM_HALF_MATH

#undef __GPUSYM_HALF2_UNARY
#undef __GPUSYM_HALF2_BINARY
#undef __GPUSYM_HALF2_TERNARY

#if defined(__HIP__)
/* ---- device only: atomics and HIP's mixed-precision dot product ---- */

static __device__ inline __half2 unsafeAtomicAdd(__half2 *address, __half2 value) {
  return __gpusym_atomic_add16(address, value, [](__half2 a, __half2 b) { return __hadd2(a, b); });
}
static __device__ inline __half unsafeAtomicAdd(__half *address, __half value) {
  return __gpusym_atomic_add16(address, value, [](__half a, __half b) { return __hadd(a, b); });
}
static __device__ inline __half2 atomicAdd(__half2 *address, __half2 value) { return unsafeAtomicAdd(address, value); }
static __device__ inline __half atomicAdd(__half *address, __half value) { return unsafeAtomicAdd(address, value); }

/* a.x * b.x + a.y * b.y + c, computed in double and rounded to float; with
 * `saturate`, clamped to [0, 1]. */
static __device__ inline float amd_mixed_dot(__half2 a, __half2 b, float c, bool saturate) {
  const double products = static_cast<double>(a.x.data) * b.x.data + static_cast<double>(a.y.data) * b.y.data;
  const float r = static_cast<float>(products + c);
  if (!saturate) return r;
  return r != r || r < 0.0f ? 0.0f : r > 1.0f ? 1.0f : r;
}
#endif

#undef __GPUSYM_HALF_FN

#endif /* __cplusplus */

#endif
