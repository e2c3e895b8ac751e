/*
 * bfloat16 as HIP's hip_bf16.h gives it: __hip_bfloat16 and the pair
 * __hip_bfloat162, with conversions (float to bfloat16 rounds to nearest
 * even; NaN stays NaN), operators and the __h* functions, for host and device
 * code.  Arithmetic is done in float and rounded to bfloat16, as in HIP.
 */
#ifndef GPUSYM_HIP_BF16_H
#define GPUSYM_HIP_BF16_H

#if defined(__HIP__)
#include "hip/hip_runtime.h"
#else
#include "hip/hip_vector_types.h"
#endif

#ifdef __cplusplus

#define __GPUSYM_BF16_FN static __HOST_DEVICE__ inline

struct __hip_bfloat16 {
  unsigned short data;

  __hip_bfloat16() = default;
  __HOST_DEVICE__ constexpr __hip_bfloat16(float value) : data(__round_bits(value)) {}
  __HOST_DEVICE__ constexpr operator float() const { return __builtin_bit_cast(float, static_cast<unsigned int>(data) << 16); }

  /* The upper half of the float's bits, rounded to nearest even; a NaN
   * made quiet.  One return statement each, as C++11's constexpr wants. */
  static __HOST_DEVICE__ constexpr unsigned short __round_bits(float value) {
    return value != value ? static_cast<unsigned short>((__builtin_bit_cast(unsigned int, value) >> 16) | 0x40)
                          : __round_bits(__builtin_bit_cast(unsigned int, value));
  }
  static __HOST_DEVICE__ constexpr unsigned short __round_bits(unsigned int bits) {
    return static_cast<unsigned short>((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
  }
};

__GPUSYM_BF16_FN __hip_bfloat16 operator+(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) + float(b); }
__GPUSYM_BF16_FN __hip_bfloat16 operator-(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) - float(b); }
__GPUSYM_BF16_FN __hip_bfloat16 operator*(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) * float(b); }
__GPUSYM_BF16_FN __hip_bfloat16 operator/(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) / float(b); }
__GPUSYM_BF16_FN __hip_bfloat16 operator-(__hip_bfloat16 a) {
  a.data ^= 0x8000;
  return a;
}
__GPUSYM_BF16_FN __hip_bfloat16 operator+(__hip_bfloat16 a) { return a; }
__GPUSYM_BF16_FN __hip_bfloat16 &operator+=(__hip_bfloat16 &a, __hip_bfloat16 b) { return a = a + b; }
__GPUSYM_BF16_FN __hip_bfloat16 &operator-=(__hip_bfloat16 &a, __hip_bfloat16 b) { return a = a - b; }
__GPUSYM_BF16_FN __hip_bfloat16 &operator*=(__hip_bfloat16 &a, __hip_bfloat16 b) { return a = a * b; }
__GPUSYM_BF16_FN __hip_bfloat16 &operator/=(__hip_bfloat16 &a, __hip_bfloat16 b) { return a = a / b; }
__GPUSYM_BF16_FN bool operator==(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) == float(b); }
__GPUSYM_BF16_FN bool operator!=(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) != float(b); }
__GPUSYM_BF16_FN bool operator<(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) < float(b); }
__GPUSYM_BF16_FN bool operator<=(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) <= float(b); }
__GPUSYM_BF16_FN bool operator>(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) > float(b); }
__GPUSYM_BF16_FN bool operator>=(__hip_bfloat16 a, __hip_bfloat16 b) { return float(a) >= float(b); }

struct __GPUSYM_VEC_ALIGN(__hip_bfloat16, 2) __hip_bfloat162 {
  __hip_bfloat16 x, y;
  __hip_bfloat162() = default;
  __HOST_DEVICE__ constexpr __hip_bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) : x(a), y(b) {}
};

/* ---- conversions ---- */

__GPUSYM_BF16_FN __hip_bfloat16 __float2bfloat16(float x) { return x; }
__GPUSYM_BF16_FN float __bfloat162float(__hip_bfloat16 b) { return b; }
__GPUSYM_BF16_FN __hip_bfloat162 __float2bfloat162_rn(float x) { return __hip_bfloat162(x, x); }
__GPUSYM_BF16_FN __hip_bfloat162 __floats2bfloat162_rn(float a, float b) { return __hip_bfloat162(a, b); }
__GPUSYM_BF16_FN __hip_bfloat162 __float22bfloat162_rn(float2 v) { return __hip_bfloat162(v.x, v.y); }
__GPUSYM_BF16_FN float2 __bfloat1622float2(__hip_bfloat162 b) { return float2(float(b.x), float(b.y)); }
__GPUSYM_BF16_FN __hip_bfloat162 __halves2bfloat162(__hip_bfloat16 a, __hip_bfloat16 b) { return __hip_bfloat162(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 __low2bfloat16(__hip_bfloat162 b) { return b.x; }
__GPUSYM_BF16_FN __hip_bfloat16 __high2bfloat16(__hip_bfloat162 b) { return b.y; }
__GPUSYM_BF16_FN short __bfloat16_as_short(__hip_bfloat16 b) { return static_cast<short>(b.data); }
__GPUSYM_BF16_FN unsigned short __bfloat16_as_ushort(__hip_bfloat16 b) { return b.data; }
__GPUSYM_BF16_FN __hip_bfloat16 __short_as_bfloat16(short x) {
  __hip_bfloat16 b;
  b.data = static_cast<unsigned short>(x);
  return b;
}
__GPUSYM_BF16_FN __hip_bfloat16 __ushort_as_bfloat16(unsigned short x) {
  __hip_bfloat16 b;
  b.data = x;
  return b;
}

/* ---- arithmetic and comparison functions ---- */

__GPUSYM_BF16_FN __hip_bfloat16 __hadd(__hip_bfloat16 a, __hip_bfloat16 b) { return a + b; }
__GPUSYM_BF16_FN __hip_bfloat16 __hsub(__hip_bfloat16 a, __hip_bfloat16 b) { return a - b; }
__GPUSYM_BF16_FN __hip_bfloat16 __hmul(__hip_bfloat16 a, __hip_bfloat16 b) { return a * b; }
__GPUSYM_BF16_FN __hip_bfloat16 __hdiv(__hip_bfloat16 a, __hip_bfloat16 b) { return a / b; }
__GPUSYM_BF16_FN __hip_bfloat16 __hfma(__hip_bfloat16 a, __hip_bfloat16 b, __hip_bfloat16 c) {
  return __builtin_fmaf(float(a), float(b), float(c));
}
__GPUSYM_BF16_FN __hip_bfloat16 __hneg(__hip_bfloat16 a) { return -a; }
__GPUSYM_BF16_FN __hip_bfloat16 __habs(__hip_bfloat16 a) { return __ushort_as_bfloat16(a.data & 0x7fff); }
__GPUSYM_BF16_FN bool __heq(__hip_bfloat16 a, __hip_bfloat16 b) { return a == b; }
__GPUSYM_BF16_FN bool __hne(__hip_bfloat16 a, __hip_bfloat16 b) { return a != b; }
__GPUSYM_BF16_FN bool __hlt(__hip_bfloat16 a, __hip_bfloat16 b) { return a < b; }
__GPUSYM_BF16_FN bool __hle(__hip_bfloat16 a, __hip_bfloat16 b) { return a <= b; }
__GPUSYM_BF16_FN bool __hgt(__hip_bfloat16 a, __hip_bfloat16 b) { return a > b; }
__GPUSYM_BF16_FN bool __hge(__hip_bfloat16 a, __hip_bfloat16 b) { return a >= b; }
__GPUSYM_BF16_FN bool __hisnan(__hip_bfloat16 a) { return float(a) != float(a); }
__GPUSYM_BF16_FN bool __hisinf(__hip_bfloat16 a) { return (a.data & 0x7fff) == 0x7f80; }
__GPUSYM_BF16_FN __hip_bfloat16 __hmax(__hip_bfloat16 a, __hip_bfloat16 b) { return __builtin_fmaxf(a, b); }
__GPUSYM_BF16_FN __hip_bfloat16 __hmin(__hip_bfloat16 a, __hip_bfloat16 b) { return __builtin_fminf(a, b); }

#define __GPUSYM_BF162_MAP2(name, scalar)                                                      \
  __GPUSYM_BF16_FN __hip_bfloat162 name(__hip_bfloat162 a, __hip_bfloat162 b) {                \
    return __hip_bfloat162(scalar(a.x, b.x), scalar(a.y, b.y));                                \
  }
__GPUSYM_BF162_MAP2(__hadd2, __hadd)
__GPUSYM_BF162_MAP2(__hsub2, __hsub)
__GPUSYM_BF162_MAP2(__hmul2, __hmul)
__GPUSYM_BF162_MAP2(__h2div, __hdiv)
#undef __GPUSYM_BF162_MAP2
__GPUSYM_BF16_FN __hip_bfloat162 __hfma2(__hip_bfloat162 a, __hip_bfloat162 b, __hip_bfloat162 c) {
  return __hip_bfloat162(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}

#if defined(__HIP__)
/* HIP's packed atomic add (gpusym_detail/device_atomics.h). */
static __device__ inline __hip_bfloat162 unsafeAtomicAdd(__hip_bfloat162 *address, __hip_bfloat162 value) {
  return __gpusym_atomic_add_pair(address, value);
}
#endif

#undef __GPUSYM_BF16_FN

#endif /* __cplusplus */

#endif
