/*
 * bfloat16 as HIP's hip_bf16.h gives it, for host and device code:
 * __hip_bfloat16 and the pair __hip_bfloat162, their raw forms
 * __hip_bfloat16_raw and __hip_bfloat162_raw, and the functions of HIP's
 * header and CUDA's cuda_bf16.h: conversions in the four rounding
 * directions, the pair constructors and selectors, arithmetic (plain, _rn,
 * _sat, fused, _relu), ordered and unordered comparisons, NaN-aware minimum
 * and maximum, the math functions, loads and stores, atomics and HIP's
 * packed add.
 *
 * A __hip_bfloat16 keeps its bits in `data` (an unsigned short), as older
 * HIP's did.  Conversions to it round exactly once in the direction named
 * (gpusym_detail/half_conversions.h; float to bfloat16 is to nearest even,
 * a NaN made quiet); arithmetic is done in float and rounded once, which
 * is exact for +, -, * and /; the fused multiply-add is rounded once from
 * the exact value.  Conversions to integers round in the direction named and
 * saturate, a NaN giving 0 (64-bit results: 0x8000000000000000).  The math
 * functions compute in double and round once.  Comparisons, the _sat, _relu,
 * min and max functions and the __hip_bfloat162 operators follow CUDA's
 * documentation.  Warp shuffles of both types are the generic __shfl*
 * templates of hip_runtime.h.
 */
#ifndef GPUSYM_HIP_BF16_H
#define GPUSYM_HIP_BF16_H

#if defined(__HIP__)
#include "hip/hip_runtime.h"
#else
#include "hip/hip_vector_types.h"
#endif

#ifdef __cplusplus

#include <cmath>
#include <type_traits>

#include "hip/gpusym_detail/half_conversions.h"

#define __GPUSYM_BF16_FN static __HOST_DEVICE__ inline

/* The float's upper half rounded to nearest even, a NaN made quiet; one
 * return statement each, as C++11's constexpr wants. */
static __HOST_DEVICE__ inline constexpr unsigned short __gpusym_bf16_round_bits(unsigned int bits) {
  return static_cast<unsigned short>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
}
static __HOST_DEVICE__ inline constexpr unsigned short __gpusym_bf16_from_float(float value) {
  return value != value ? static_cast<unsigned short>((__builtin_bit_cast(unsigned int, value) >> 16) | 0x40)
                        : __gpusym_bf16_round_bits(__builtin_bit_cast(unsigned int, value));
}
static __HOST_DEVICE__ inline constexpr float __gpusym_bf16_to_float(unsigned short bits) {
  return __builtin_bit_cast(float, static_cast<unsigned int>(bits) << 16);
}

struct alignas(2) __hip_bfloat16_raw {
  unsigned short x;
};
struct alignas(4) __hip_bfloat162_raw {
  unsigned short x, y;
};

struct __hip_bfloat16 {
  unsigned short data;

  __hip_bfloat16() = default;
  __HOST_DEVICE__ constexpr __hip_bfloat16(float value) : data(__gpusym_bf16_from_float(value)) {}
  /* double, the integers, bool: rounded once, to nearest even. */
  template <typename T, typename std::enable_if<std::is_arithmetic<T>::value && !std::is_same<T, float>::value,
                                                int>::type = 0>
  __HOST_DEVICE__ __GPUSYM_CONSTEXPR14 __hip_bfloat16(T value) : data(__gpusym_arithmetic_to16<7, 8>(value)) {}
  __HOST_DEVICE__ constexpr __hip_bfloat16(const __hip_bfloat16_raw &raw) : data(raw.x) {}
  __HOST_DEVICE__ constexpr __hip_bfloat16(__bf16 value) : data(__builtin_bit_cast(unsigned short, value)) {}

  /* A template, so that `h = {}` and `h = {a, b}` take the copy assignment
   * rather than being ambiguous with this one. */
  template <typename R, typename std::enable_if<std::is_same<R, __hip_bfloat16_raw>::value, int>::type = 0>
  __HOST_DEVICE__ __hip_bfloat16 &operator=(const R &raw) {
    data = raw.x;
    return *this;
  }
  __HOST_DEVICE__ volatile __hip_bfloat16 &operator=(const __hip_bfloat16_raw &raw) volatile {
    data = raw.x;
    return *this;
  }
  __HOST_DEVICE__ volatile __hip_bfloat16 &operator=(const volatile __hip_bfloat16_raw &raw) volatile {
    data = raw.x;
    return *this;
  }

  __HOST_DEVICE__ constexpr operator float() const { return __gpusym_bf16_to_float(data); }
  __HOST_DEVICE__ constexpr operator __hip_bfloat16_raw() const { return __hip_bfloat16_raw{data}; }
  __HOST_DEVICE__ constexpr operator __hip_bfloat16_raw() const volatile { return __hip_bfloat16_raw{data}; }
  __HOST_DEVICE__ constexpr operator __bf16() const { return __builtin_bit_cast(__bf16, data); }
  /* HIP's conversions to the integers: the value truncated, as a cast of the
   * float would; bool: not zero. */
  __HOST_DEVICE__ constexpr operator bool() const { return (data & 0x7fff) != 0; }
  __HOST_DEVICE__ constexpr operator char() const { return static_cast<char>(__gpusym_bf16_to_float(data)); }
  __HOST_DEVICE__ constexpr operator signed char() const { return static_cast<signed char>(__gpusym_bf16_to_float(data)); }
  __HOST_DEVICE__ constexpr operator unsigned char() const {
    return static_cast<unsigned char>(__gpusym_bf16_to_float(data));
  }
  __HOST_DEVICE__ constexpr operator short() const { return static_cast<short>(__gpusym_bf16_to_float(data)); }
  __HOST_DEVICE__ constexpr operator unsigned short() const {
    return static_cast<unsigned short>(__gpusym_bf16_to_float(data));
  }
  __HOST_DEVICE__ constexpr operator int() const { return static_cast<int>(__gpusym_bf16_to_float(data)); }
  __HOST_DEVICE__ constexpr operator unsigned int() const { return static_cast<unsigned int>(__gpusym_bf16_to_float(data)); }
  __HOST_DEVICE__ constexpr operator long() const { return static_cast<long>(__gpusym_bf16_to_float(data)); }
  __HOST_DEVICE__ constexpr operator unsigned long() const {
    return static_cast<unsigned long>(__gpusym_bf16_to_float(data));
  }
  __HOST_DEVICE__ constexpr operator long long() const { return static_cast<long long>(__gpusym_bf16_to_float(data)); }
  __HOST_DEVICE__ constexpr operator unsigned long long() const {
    return static_cast<unsigned long long>(__gpusym_bf16_to_float(data));
  }
};

/* The bfloat16 with these bits. */
__GPUSYM_BF16_FN __hip_bfloat16 __gpusym_bf16(unsigned short bits) {
  __hip_bfloat16 b;
  b.data = bits;
  return b;
}

struct alignas(4) __hip_bfloat162 {
  __hip_bfloat16 x, y;

  __hip_bfloat162() = default;
  __HOST_DEVICE__ constexpr __hip_bfloat162(const __hip_bfloat16 &a, const __hip_bfloat16 &b) : x(a), y(b) {}
  __HOST_DEVICE__ constexpr __hip_bfloat162(const __hip_bfloat162_raw &raw)
      : x(__hip_bfloat16_raw{raw.x}), y(__hip_bfloat16_raw{raw.y}) {}
  template <typename R, typename std::enable_if<std::is_same<R, __hip_bfloat162_raw>::value, int>::type = 0>
  __HOST_DEVICE__ __hip_bfloat162 &operator=(const R &raw) {
    x.data = raw.x;
    y.data = raw.y;
    return *this;
  }
  __HOST_DEVICE__ constexpr operator __hip_bfloat162_raw() const { return __hip_bfloat162_raw{x.data, y.data}; }
  __HOST_DEVICE__ operator float2() const {
    return make_float2(__gpusym_bf16_to_float(x.data), __gpusym_bf16_to_float(y.data));
  }
};

/* HIP's named constants. */
#define HIPRT_ONE_BF16 __ushort_as_bfloat16((unsigned short)0x3F80U)
#define HIPRT_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x0000U)
#define HIPRT_INF_BF16 __ushort_as_bfloat16((unsigned short)0x7F80U)
#define HIPRT_MAX_NORMAL_BF16 __ushort_as_bfloat16((unsigned short)0x7F7FU)
#define HIPRT_MIN_DENORM_BF16 __ushort_as_bfloat16((unsigned short)0x0001U)
#define HIPRT_NAN_BF16 __ushort_as_bfloat16((unsigned short)0x7FFFU)
#define HIPRT_NEG_ZERO_BF16 __ushort_as_bfloat16((unsigned short)0x8000U)

/* ---- conversions ---- */

__GPUSYM_BF16_FN float __bfloat162float(__hip_bfloat16 b) { return __gpusym_bf16_to_float(b.data); }
__GPUSYM_BF16_FN __hip_bfloat16 __float2bfloat16(float x) { return __gpusym_bf16(__gpusym_bf16_from_float(x)); }
__GPUSYM_BF16_FN __hip_bfloat16 __float2bfloat16_rn(float x) { return __gpusym_bf16(__gpusym_bf16_from_float(x)); }
__GPUSYM_BF16_FN __hip_bfloat16 __float2bfloat16_rz(float x) {
  return __gpusym_bf16(__gpusym_float_to16<7, 8>(x, __gpusym_rz));
}
__GPUSYM_BF16_FN __hip_bfloat16 __float2bfloat16_rd(float x) {
  return __gpusym_bf16(__gpusym_float_to16<7, 8>(x, __gpusym_rd));
}
__GPUSYM_BF16_FN __hip_bfloat16 __float2bfloat16_ru(float x) {
  return __gpusym_bf16(__gpusym_float_to16<7, 8>(x, __gpusym_ru));
}
__GPUSYM_BF16_FN __hip_bfloat16 __double2bfloat16(double x) {
  return __gpusym_bf16(__gpusym_double_to16<7, 8>(x, __gpusym_rn));
}

__GPUSYM_BF16_FN __hip_bfloat162 make_bfloat162(__hip_bfloat16 x, __hip_bfloat16 y) { return __hip_bfloat162(x, y); }
__GPUSYM_BF16_FN __hip_bfloat162 __float2bfloat162_rn(float x) {
  return __hip_bfloat162(__float2bfloat16_rn(x), __float2bfloat16_rn(x));
}
__GPUSYM_BF16_FN __hip_bfloat162 __floats2bfloat162_rn(float a, float b) {
  return __hip_bfloat162(__float2bfloat16_rn(a), __float2bfloat16_rn(b));
}
__GPUSYM_BF16_FN __hip_bfloat162 __float22bfloat162_rn(float2 v) { return __floats2bfloat162_rn(v.x, v.y); }
__GPUSYM_BF16_FN float2 __bfloat1622float2(__hip_bfloat162 b) {
  return make_float2(__bfloat162float(b.x), __bfloat162float(b.y));
}
__GPUSYM_BF16_FN float __low2float(__hip_bfloat162 b) { return __bfloat162float(b.x); }
__GPUSYM_BF16_FN float __high2float(__hip_bfloat162 b) { return __bfloat162float(b.y); }

/* Integers to bfloat16 and back, in each direction: __int2bfloat16_rn,
 * __bfloat162int_rz, ... */
#define __GPUSYM_BF16_INTEGER(name, type, bits, is_signed, to16)                                         \
  __GPUSYM_BF16_FN __hip_bfloat16 __##name##2bfloat16_rn(type x) { return __gpusym_bf16(to16<7, 8>(x, __gpusym_rn)); } \
  __GPUSYM_BF16_FN __hip_bfloat16 __##name##2bfloat16_rz(type x) { return __gpusym_bf16(to16<7, 8>(x, __gpusym_rz)); } \
  __GPUSYM_BF16_FN __hip_bfloat16 __##name##2bfloat16_rd(type x) { return __gpusym_bf16(to16<7, 8>(x, __gpusym_rd)); } \
  __GPUSYM_BF16_FN __hip_bfloat16 __##name##2bfloat16_ru(type x) { return __gpusym_bf16(to16<7, 8>(x, __gpusym_ru)); } \
  __GPUSYM_BF16_FN type __bfloat162##name##_rn(__hip_bfloat16 b) {                                       \
    return __gpusym_to_integer<type, bits, is_signed>(__bfloat162float(b), __gpusym_rn);                 \
  }                                                                                                      \
  __GPUSYM_BF16_FN type __bfloat162##name##_rz(__hip_bfloat16 b) {                                       \
    return __gpusym_to_integer<type, bits, is_signed>(__bfloat162float(b), __gpusym_rz);                 \
  }                                                                                                      \
  __GPUSYM_BF16_FN type __bfloat162##name##_rd(__hip_bfloat16 b) {                                       \
    return __gpusym_to_integer<type, bits, is_signed>(__bfloat162float(b), __gpusym_rd);                 \
  }                                                                                                      \
  __GPUSYM_BF16_FN type __bfloat162##name##_ru(__hip_bfloat16 b) {                                       \
    return __gpusym_to_integer<type, bits, is_signed>(__bfloat162float(b), __gpusym_ru);                 \
  }
__GPUSYM_BF16_INTEGER(int, int, 32, true, __gpusym_signed_to16)
__GPUSYM_BF16_INTEGER(uint, unsigned int, 32, false, __gpusym_unsigned_to16)
__GPUSYM_BF16_INTEGER(short, short, 16, true, __gpusym_signed_to16)
__GPUSYM_BF16_INTEGER(ushort, unsigned short, 16, false, __gpusym_unsigned_to16)
__GPUSYM_BF16_INTEGER(ll, long long, 64, true, __gpusym_signed_to16)
__GPUSYM_BF16_INTEGER(ull, unsigned long long, 64, false, __gpusym_unsigned_to16)
#undef __GPUSYM_BF16_INTEGER
__GPUSYM_BF16_FN signed char __bfloat162char_rz(__hip_bfloat16 b) {
  return __gpusym_to_integer<signed char, 8, true>(__bfloat162float(b), __gpusym_rz);
}
__GPUSYM_BF16_FN unsigned char __bfloat162uchar_rz(__hip_bfloat16 b) {
  return __gpusym_to_integer<unsigned char, 8, false>(__bfloat162float(b), __gpusym_rz);
}

__GPUSYM_BF16_FN short __bfloat16_as_short(__hip_bfloat16 b) { return static_cast<short>(b.data); }
__GPUSYM_BF16_FN unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) { return b.data; }
__GPUSYM_BF16_FN __hip_bfloat16 __short_as_bfloat16(short x) { return __gpusym_bf16(static_cast<unsigned short>(x)); }
__GPUSYM_BF16_FN __hip_bfloat16 __ushort_as_bfloat16(unsigned short x) { return __gpusym_bf16(x); }

/* ---- pairs ---- */

__GPUSYM_BF16_FN __hip_bfloat162 __bfloat162bfloat162(__hip_bfloat16 a) { return __hip_bfloat162(a, a); }
__GPUSYM_BF16_FN __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hip_bfloat162(a, b);
}
__GPUSYM_BF16_FN __hip_bfloat16 __low2bfloat16(__hip_bfloat162 b) { return b.x; }
__GPUSYM_BF16_FN __hip_bfloat16 __high2bfloat16(__hip_bfloat162 b) { return b.y; }
__GPUSYM_BF16_FN __hip_bfloat162 __low2bfloat162(__hip_bfloat162 b) { return __hip_bfloat162(b.x, b.x); }
__GPUSYM_BF16_FN __hip_bfloat162 __high2bfloat162(__hip_bfloat162 b) { return __hip_bfloat162(b.y, b.y); }
__GPUSYM_BF16_FN __hip_bfloat162 __lows2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162(a.x, b.x);
}
__GPUSYM_BF16_FN __hip_bfloat162 __highs2bfloat162(__hip_bfloat162 a, __hip_bfloat162 b) {
  return __hip_bfloat162(a.y, b.y);
}
__GPUSYM_BF16_FN __hip_bfloat162 __lowhigh2highlow(__hip_bfloat162 b) { return __hip_bfloat162(b.y, b.x); }

/* ---- loads and stores (the cache hints mean nothing here) ---- */

#define __GPUSYM_BF16_MEMORY(type)                                  \
  __GPUSYM_BF16_FN type __ldg(const type *p) { return *p; }         \
  __GPUSYM_BF16_FN type __ldcg(const type *p) { return *p; }        \
  __GPUSYM_BF16_FN type __ldca(const type *p) { return *p; }        \
  __GPUSYM_BF16_FN type __ldcs(const type *p) { return *p; }        \
  __GPUSYM_BF16_FN type __ldlu(const type *p) { return *p; }        \
  __GPUSYM_BF16_FN type __ldcv(const type *p) { return *p; }        \
  __GPUSYM_BF16_FN void __stwb(type *p, type value) { *p = value; } \
  __GPUSYM_BF16_FN void __stcg(type *p, type value) { *p = value; } \
  __GPUSYM_BF16_FN void __stcs(type *p, type value) { *p = value; } \
  __GPUSYM_BF16_FN void __stwt(type *p, type value) { *p = value; }
__GPUSYM_BF16_MEMORY(__hip_bfloat16)
__GPUSYM_BF16_MEMORY(__hip_bfloat162)
#undef __GPUSYM_BF16_MEMORY

/* ---- classification, comparisons, minimum and maximum ---- */

__GPUSYM_BF16_FN bool __hisnan(__hip_bfloat16 a) { return (a.data & 0x7fff) > 0x7f80; }
/* CUDA's answer: -1 for minus infinity, 1 for plus infinity, else 0. */
__GPUSYM_BF16_FN int __hisinf(__hip_bfloat16 a) { return a.data == 0x7f80 ? 1 : a.data == 0xff80 ? -1 : 0; }

#define __GPUSYM_BF16_COMPARE(name, expression)                    \
  __GPUSYM_BF16_FN bool name(__hip_bfloat16 a, __hip_bfloat16 b) { \
    const float x = __bfloat162float(a), y = __bfloat162float(b);  \
    return expression;                                             \
  }
__GPUSYM_BF16_COMPARE(__heq, x == y)
__GPUSYM_BF16_COMPARE(__hne, x < y || x > y)
__GPUSYM_BF16_COMPARE(__hlt, x < y)
__GPUSYM_BF16_COMPARE(__hle, x <= y)
__GPUSYM_BF16_COMPARE(__hgt, x > y)
__GPUSYM_BF16_COMPARE(__hge, x >= y)
/* Unordered: also true when either is a NaN. */
__GPUSYM_BF16_COMPARE(__hequ, !(x < y) && !(x > y))
__GPUSYM_BF16_COMPARE(__hneu, !(x == y))
__GPUSYM_BF16_COMPARE(__hltu, !(x >= y))
__GPUSYM_BF16_COMPARE(__hleu, !(x > y))
__GPUSYM_BF16_COMPARE(__hgtu, !(x <= y))
__GPUSYM_BF16_COMPARE(__hgeu, !(x < y))
#undef __GPUSYM_BF16_COMPARE

/* A NaN loses to a number; two NaNs give the canonical NaN; +0 is above -0. */
__GPUSYM_BF16_FN __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) {
  if (__hisnan(a)) return __hisnan(b) ? __gpusym_bf16(0x7fff) : b;
  if (__hisnan(b)) return a;
  const float x = __bfloat162float(a), y = __bfloat162float(b);
  if (x == y) return __gpusym_bf16(a.data & b.data);  // -0 only if both are
  return x > y ? a : b;
}
__GPUSYM_BF16_FN __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) {
  if (__hisnan(a)) return __hisnan(b) ? __gpusym_bf16(0x7fff) : b;
  if (__hisnan(b)) return a;
  const float x = __bfloat162float(a), y = __bfloat162float(b);
  if (x == y) return __gpusym_bf16(a.data | b.data);  // -0 if either is
  return x < y ? a : b;
}
/* A NaN wins: the canonical NaN. */
__GPUSYM_BF16_FN __hip_bfloat16 __hmax_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) || __hisnan(b) ? __gpusym_bf16(0x7fff) : __hmax(a, b);
}
__GPUSYM_BF16_FN __hip_bfloat16 __hmin_nan(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __hisnan(a) || __hisnan(b) ? __gpusym_bf16(0x7fff) : __hmin(a, b);
}

/* ---- arithmetic: in float, rounded once ---- */

__GPUSYM_BF16_FN __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __gpusym_bf16(__gpusym_bf16_from_float(__bfloat162float(a) + __bfloat162float(b)));
}
__GPUSYM_BF16_FN __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __gpusym_bf16(__gpusym_bf16_from_float(__bfloat162float(a) - __bfloat162float(b)));
}
__GPUSYM_BF16_FN __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __gpusym_bf16(__gpusym_bf16_from_float(__bfloat162float(a) * __bfloat162float(b)));
}
__GPUSYM_BF16_FN __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __gpusym_bf16(__gpusym_bf16_from_float(__bfloat162float(a) / __bfloat162float(b)));
}
/* Never contracted into a fused multiply-add (nor are the above: each
 * rounds its result to bfloat16 before anything else uses it). */
__GPUSYM_BF16_FN __hip_bfloat16 __hadd_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hadd(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 __hsub_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hsub(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 __hmul_rn(__hip_bfloat16 a, __hip_bfloat16 b) { return __hmul(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 __hneg(__hip_bfloat16 a) { return __gpusym_bf16(a.data ^ 0x8000); }
__GPUSYM_BF16_FN __hip_bfloat16 __habs(__hip_bfloat16 a) { return __gpusym_bf16(a.data & 0x7fff); }
/* a * b + c, rounded once. */
__GPUSYM_BF16_FN __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __gpusym_bf16(__gpusym_double_to16<7, 8>(
      __gpusym_fma_to_odd(__bfloat162float(a), __bfloat162float(b), __bfloat162float(c)), __gpusym_rn));
}
/* _sat: clamped to [0, 1], a NaN to +0. */
__GPUSYM_BF16_FN __hip_bfloat16 __gpusym_bf16_saturate(__hip_bfloat16 a) {
  const float x = __bfloat162float(a);
  if (x != x || x < 0.0f) return __gpusym_bf16(0);
  return x > 1.0f ? __gpusym_bf16(0x3f80) : a;
}
__GPUSYM_BF16_FN __hip_bfloat16 __hadd_sat(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __gpusym_bf16_saturate(__hadd(a, b));
}
__GPUSYM_BF16_FN __hip_bfloat16 __hsub_sat(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __gpusym_bf16_saturate(__hsub(a, b));
}
__GPUSYM_BF16_FN __hip_bfloat16 __hmul_sat(__hip_bfloat16 a, __hip_bfloat16 b) {
  return __gpusym_bf16_saturate(__hmul(a, b));
}
__GPUSYM_BF16_FN __hip_bfloat16 __hfma_sat(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __gpusym_bf16_saturate(__hfma(a, b, c));
}
/* _relu: a negative result is 0, a NaN the canonical NaN. */
__GPUSYM_BF16_FN __hip_bfloat16 __hfma_relu(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  const __hip_bfloat16 r = __hfma(a, b, c);
  if (__hisnan(r)) return __gpusym_bf16(0x7fff);
  return __bfloat162float(r) < 0.0f ? __gpusym_bf16(0) : r;
}

/* ---- the same on both halves of a pair ---- */

#define __GPUSYM_BF162_UNARY(name, scalar) \
  __GPUSYM_BF16_FN __hip_bfloat162 name(__hip_bfloat162 a) { return __hip_bfloat162(scalar(a.x), scalar(a.y)); }
#define __GPUSYM_BF162_BINARY(name, scalar)                                     \
  __GPUSYM_BF16_FN __hip_bfloat162 name(__hip_bfloat162 a, __hip_bfloat162 b) { \
    return __hip_bfloat162(scalar(a.x, b.x), scalar(a.y, b.y));                 \
  }
#define __GPUSYM_BF162_TERNARY(name, scalar)                                                       \
  __GPUSYM_BF16_FN __hip_bfloat162 name(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) { \
    return __hip_bfloat162(scalar(a.x, b.x, c.x), scalar(a.y, b.y, c.y));                          \
  }
__GPUSYM_BF162_BINARY(__hadd2, __hadd)
__GPUSYM_BF162_BINARY(__hsub2, __hsub)
__GPUSYM_BF162_BINARY(__hmul2, __hmul)
__GPUSYM_BF162_BINARY(__h2div, __hdiv)
__GPUSYM_BF162_BINARY(__hadd2_rn, __hadd_rn)
__GPUSYM_BF162_BINARY(__hsub2_rn, __hsub_rn)
__GPUSYM_BF162_BINARY(__hmul2_rn, __hmul_rn)
__GPUSYM_BF162_BINARY(__hadd2_sat, __hadd_sat)
__GPUSYM_BF162_BINARY(__hsub2_sat, __hsub_sat)
__GPUSYM_BF162_BINARY(__hmul2_sat, __hmul_sat)
__GPUSYM_BF162_BINARY(__hmax2, __hmax)
__GPUSYM_BF162_BINARY(__hmin2, __hmin)
__GPUSYM_BF162_BINARY(__hmax2_nan, __hmax_nan)
__GPUSYM_BF162_BINARY(__hmin2_nan, __hmin_nan)
__GPUSYM_BF162_TERNARY(__hfma2, __hfma)
__GPUSYM_BF162_TERNARY(__hfma2_sat, __hfma_sat)
__GPUSYM_BF162_TERNARY(__hfma2_relu, __hfma_relu)
__GPUSYM_BF162_UNARY(__hneg2, __hneg)
__GPUSYM_BF162_UNARY(__habs2, __habs)

/* Complex multiply-add: a * b + c with (x, y) as x + iy, in two fused steps
 * per part. */
__GPUSYM_BF16_FN __hip_bfloat162 __hcmadd(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  const __hip_bfloat16 real = __hfma(a.x, b.x, __hfma(__hneg(a.y), b.y, c.x));
  const __hip_bfloat16 imaginary = __hfma(a.x, b.y, __hfma(a.y, b.x, c.y));
  return __hip_bfloat162(real, imaginary);
}

/* Comparisons of pairs: 1.0 or 0.0 in each half, all-ones or zero in each
 * half of a mask, or one bool true when both hold. */
#define __GPUSYM_BF162_COMPARE(name, scalar)                                                        \
  __GPUSYM_BF16_FN __hip_bfloat162 name##2(__hip_bfloat162 a, __hip_bfloat162 b) {                  \
    return __hip_bfloat162(__gpusym_bf16(scalar(a.x, b.x) ? 0x3f80 : 0),                            \
                           __gpusym_bf16(scalar(a.y, b.y) ? 0x3f80 : 0));                           \
  }                                                                                                 \
  __GPUSYM_BF16_FN unsigned int name##2_mask(__hip_bfloat162 a, __hip_bfloat162 b) {                \
    return (scalar(a.x, b.x) ? 0xffffu : 0u) | (scalar(a.y, b.y) ? 0xffff0000u : 0u);              \
  }
__GPUSYM_BF162_COMPARE(__heq, __heq)
__GPUSYM_BF162_COMPARE(__hne, __hne)
__GPUSYM_BF162_COMPARE(__hlt, __hlt)
__GPUSYM_BF162_COMPARE(__hle, __hle)
__GPUSYM_BF162_COMPARE(__hgt, __hgt)
__GPUSYM_BF162_COMPARE(__hge, __hge)
__GPUSYM_BF162_COMPARE(__hequ, __hequ)
__GPUSYM_BF162_COMPARE(__hneu, __hneu)
__GPUSYM_BF162_COMPARE(__hltu, __hltu)
__GPUSYM_BF162_COMPARE(__hleu, __hleu)
__GPUSYM_BF162_COMPARE(__hgtu, __hgtu)
__GPUSYM_BF162_COMPARE(__hgeu, __hgeu)
#undef __GPUSYM_BF162_COMPARE
#define __GPUSYM_BF162_BOTH(name, scalar) \
  __GPUSYM_BF16_FN bool name(__hip_bfloat162 a, __hip_bfloat162 b) { return scalar(a.x, b.x) && scalar(a.y, b.y); }
__GPUSYM_BF162_BOTH(__hbeq2, __heq)
__GPUSYM_BF162_BOTH(__hbne2, __hne)
__GPUSYM_BF162_BOTH(__hblt2, __hlt)
__GPUSYM_BF162_BOTH(__hble2, __hle)
__GPUSYM_BF162_BOTH(__hbgt2, __hgt)
__GPUSYM_BF162_BOTH(__hbge2, __hge)
__GPUSYM_BF162_BOTH(__hbequ2, __hequ)
__GPUSYM_BF162_BOTH(__hbneu2, __hneu)
__GPUSYM_BF162_BOTH(__hbltu2, __hltu)
__GPUSYM_BF162_BOTH(__hbleu2, __hleu)
__GPUSYM_BF162_BOTH(__hbgtu2, __hgtu)
__GPUSYM_BF162_BOTH(__hbgeu2, __hgeu)
#undef __GPUSYM_BF162_BOTH
__GPUSYM_BF16_FN __hip_bfloat162 __hisnan2(__hip_bfloat162 a) {
  return __hip_bfloat162(__gpusym_bf16(__hisnan(a.x) ? 0x3f80 : 0), __gpusym_bf16(__hisnan(a.y) ? 0x3f80 : 0));
}
__GPUSYM_BF16_FN __hip_bfloat162 __hisinf2(__hip_bfloat162 a) {
  return __hip_bfloat162(__gpusym_bf16(__hisinf(a.x) ? 0x3f80 : 0), __gpusym_bf16(__hisinf(a.y) ? 0x3f80 : 0));
}

/* ---- operators ---- */

__GPUSYM_BF16_FN __hip_bfloat16 operator+(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hadd(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 operator-(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hsub(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 operator*(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hmul(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 operator/(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hdiv(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 operator+(const __hip_bfloat16 &a) { return a; }
__GPUSYM_BF16_FN __hip_bfloat16 operator-(const __hip_bfloat16 &a) { return __hneg(a); }
__GPUSYM_BF16_FN __hip_bfloat16 &operator+=(__hip_bfloat16 &a, const __hip_bfloat16 &b) { return a = __hadd(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 &operator-=(__hip_bfloat16 &a, const __hip_bfloat16 &b) { return a = __hsub(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 &operator*=(__hip_bfloat16 &a, const __hip_bfloat16 &b) { return a = __hmul(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 &operator/=(__hip_bfloat16 &a, const __hip_bfloat16 &b) { return a = __hdiv(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 &operator++(__hip_bfloat16 &a) { return a = __hadd(a, __gpusym_bf16(0x3f80)); }
__GPUSYM_BF16_FN __hip_bfloat16 &operator--(__hip_bfloat16 &a) { return a = __hsub(a, __gpusym_bf16(0x3f80)); }
__GPUSYM_BF16_FN __hip_bfloat16 operator++(__hip_bfloat16 &a, int) {
  const __hip_bfloat16 old = a;
  ++a;
  return old;
}
__GPUSYM_BF16_FN __hip_bfloat16 operator--(__hip_bfloat16 &a, int) {
  const __hip_bfloat16 old = a;
  --a;
  return old;
}
__GPUSYM_BF16_FN bool operator==(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __heq(a, b); }
__GPUSYM_BF16_FN bool operator!=(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hneu(a, b); }
__GPUSYM_BF16_FN bool operator<(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hlt(a, b); }
__GPUSYM_BF16_FN bool operator<=(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hle(a, b); }
__GPUSYM_BF16_FN bool operator>(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hgt(a, b); }
__GPUSYM_BF16_FN bool operator>=(const __hip_bfloat16 &a, const __hip_bfloat16 &b) { return __hge(a, b); }

__GPUSYM_BF16_FN __hip_bfloat162 operator+(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hadd2(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 operator-(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hsub2(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 operator*(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hmul2(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 operator/(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __h2div(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 operator+(const __hip_bfloat162 &a) { return a; }
__GPUSYM_BF16_FN __hip_bfloat162 operator-(const __hip_bfloat162 &a) { return __hneg2(a); }
__GPUSYM_BF16_FN __hip_bfloat162 &operator+=(__hip_bfloat162 &a, const __hip_bfloat162 &b) { return a = __hadd2(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 &operator-=(__hip_bfloat162 &a, const __hip_bfloat162 &b) { return a = __hsub2(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 &operator*=(__hip_bfloat162 &a, const __hip_bfloat162 &b) { return a = __hmul2(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 &operator/=(__hip_bfloat162 &a, const __hip_bfloat162 &b) { return a = __h2div(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 &operator++(__hip_bfloat162 &a) {
  ++a.x;
  ++a.y;
  return a;
}
__GPUSYM_BF16_FN __hip_bfloat162 &operator--(__hip_bfloat162 &a) {
  --a.x;
  --a.y;
  return a;
}
__GPUSYM_BF16_FN __hip_bfloat162 operator++(__hip_bfloat162 &a, int) {
  const __hip_bfloat162 old = a;
  ++a;
  return old;
}
__GPUSYM_BF16_FN __hip_bfloat162 operator--(__hip_bfloat162 &a, int) {
  const __hip_bfloat162 old = a;
  --a;
  return old;
}
__GPUSYM_BF16_FN bool operator==(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hbeq2(a, b); }
__GPUSYM_BF16_FN bool operator!=(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hbneu2(a, b); }
__GPUSYM_BF16_FN bool operator<(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hblt2(a, b); }
__GPUSYM_BF16_FN bool operator<=(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hble2(a, b); }
__GPUSYM_BF16_FN bool operator>(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hbgt2(a, b); }
__GPUSYM_BF16_FN bool operator>=(const __hip_bfloat162 &a, const __hip_bfloat162 &b) { return __hbge2(a, b); }

/* ---- math: computed in double, rounded to bfloat16 once ---- */

#define __GPUSYM_BF16_MATH(name, pair_name, expression)                                      \
  __GPUSYM_BF16_FN __hip_bfloat16 name(__hip_bfloat16 h) {                                   \
    const double x = __bfloat162float(h);                                                    \
    return __gpusym_bf16(__gpusym_double_to16<7, 8>(expression, __gpusym_rn));              \
  }                                                                                          \
  __GPUSYM_BF16_FN __hip_bfloat162 pair_name(__hip_bfloat162 h) { return __hip_bfloat162(name(h.x), name(h.y)); }
__GPUSYM_BF16_MATH(hsqrt, h2sqrt, std::sqrt(x))
__GPUSYM_BF16_MATH(hrsqrt, h2rsqrt, 1.0 / std::sqrt(x))
__GPUSYM_BF16_MATH(hrcp, h2rcp, 1.0 / x)
__GPUSYM_BF16_MATH(hexp, h2exp, std::exp(x))
__GPUSYM_BF16_MATH(hexp2, h2exp2, std::exp2(x))
__GPUSYM_BF16_MATH(hexp10, h2exp10, std::pow(10.0, x))
__GPUSYM_BF16_MATH(hlog, h2log, std::log(x))
__GPUSYM_BF16_MATH(hlog2, h2log2, std::log2(x))
__GPUSYM_BF16_MATH(hlog10, h2log10, std::log10(x))
__GPUSYM_BF16_MATH(hsin, h2sin, std::sin(x))
__GPUSYM_BF16_MATH(hcos, h2cos, std::cos(x))
__GPUSYM_BF16_MATH(htanh, h2tanh, std::tanh(x))
__GPUSYM_BF16_MATH(htanh_approx, h2tanh_approx, std::tanh(x))
__GPUSYM_BF16_MATH(hceil, h2ceil, __gpusym_round_integral(x, __gpusym_ru))
__GPUSYM_BF16_MATH(hfloor, h2floor, __gpusym_round_integral(x, __gpusym_rd))
__GPUSYM_BF16_MATH(htrunc, h2trunc, __gpusym_round_integral(x, __gpusym_rz))
__GPUSYM_BF16_MATH(hrint, h2rint, __gpusym_round_integral(x, __gpusym_rn))
#undef __GPUSYM_BF16_MATH

#undef __GPUSYM_BF162_UNARY
#undef __GPUSYM_BF162_BINARY
#undef __GPUSYM_BF162_TERNARY

#if defined(__HIP__)
/* ---- device only: atomics ---- */

static __device__ inline __hip_bfloat162 unsafeAtomicAdd(__hip_bfloat162 *address, __hip_bfloat162 value) {
  return __gpusym_atomic_add16(address, value, [](__hip_bfloat162 a, __hip_bfloat162 b) { return __hadd2(a, b); });
}
static __device__ inline __hip_bfloat16 unsafeAtomicAdd(__hip_bfloat16 *address, __hip_bfloat16 value) {
  return __gpusym_atomic_add16(address, value, [](__hip_bfloat16 a, __hip_bfloat16 b) { return __hadd(a, b); });
}
static __device__ inline __hip_bfloat162 atomicAdd(__hip_bfloat162 *address, __hip_bfloat162 value) {
  return unsafeAtomicAdd(address, value);
}
static __device__ inline __hip_bfloat16 atomicAdd(__hip_bfloat16 *address, __hip_bfloat16 value) {
  return unsafeAtomicAdd(address, value);
}
#endif

#undef __GPUSYM_BF16_FN

#endif /* __cplusplus */

#endif
