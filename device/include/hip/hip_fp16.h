/*
 * Half precision as HIP's hip_fp16.h gives it: __half (also `half`) and the
 * pair __half2, with conversions, operators and the __h* functions, for host
 * and device code.  A __half holds clang's _Float16, so arithmetic is IEEE
 * binary16 rounded to nearest; the math functions (hsqrt, hexp, ...) compute
 * in float and round once.
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

#define __GPUSYM_HALF_FN static __HOST_DEVICE__ inline

struct __half {
  _Float16 data;

  __half() = default;
  __HOST_DEVICE__ constexpr __half(_Float16 value) : data(value) {}
  __HOST_DEVICE__ constexpr __half(float value) : data(static_cast<_Float16>(value)) {}
  __HOST_DEVICE__ constexpr __half(double value) : data(static_cast<_Float16>(value)) {}
  __HOST_DEVICE__ constexpr __half(int value) : data(static_cast<_Float16>(value)) {}
  __HOST_DEVICE__ constexpr __half(unsigned int value) : data(static_cast<_Float16>(value)) {}
  __HOST_DEVICE__ constexpr __half(long long value) : data(static_cast<_Float16>(value)) {}
  __HOST_DEVICE__ constexpr __half(unsigned long long value) : data(static_cast<_Float16>(value)) {}
  __HOST_DEVICE__ constexpr __half(short value) : data(static_cast<_Float16>(value)) {}
  __HOST_DEVICE__ constexpr __half(unsigned short value) : data(static_cast<_Float16>(value)) {}
  __HOST_DEVICE__ constexpr operator float() const { return data; }

  __HOST_DEVICE__ __half &operator+=(__half other) { data += other.data; return *this; }
  __HOST_DEVICE__ __half &operator-=(__half other) { data -= other.data; return *this; }
  __HOST_DEVICE__ __half &operator*=(__half other) { data *= other.data; return *this; }
  __HOST_DEVICE__ __half &operator/=(__half other) { data /= other.data; return *this; }
  __HOST_DEVICE__ __half &operator++() { data += 1; return *this; }
  __HOST_DEVICE__ __half &operator--() { data -= 1; return *this; }
  __HOST_DEVICE__ __half operator++(int) { __half old = *this; data += 1; return old; }
  __HOST_DEVICE__ __half operator--(int) { __half old = *this; data -= 1; return old; }
};
typedef __half half;

/* Arithmetic and comparisons of two halves, in half precision. */
__GPUSYM_HALF_FN __half operator+(__half a, __half b) { return a.data + b.data; }
__GPUSYM_HALF_FN __half operator-(__half a, __half b) { return a.data - b.data; }
__GPUSYM_HALF_FN __half operator*(__half a, __half b) { return a.data * b.data; }
__GPUSYM_HALF_FN __half operator/(__half a, __half b) { return a.data / b.data; }
__GPUSYM_HALF_FN __half operator+(__half a) { return a; }
__GPUSYM_HALF_FN __half operator-(__half a) { return -a.data; }
__GPUSYM_HALF_FN bool operator==(__half a, __half b) { return a.data == b.data; }
__GPUSYM_HALF_FN bool operator!=(__half a, __half b) { return a.data != b.data; }
__GPUSYM_HALF_FN bool operator<(__half a, __half b) { return a.data < b.data; }
__GPUSYM_HALF_FN bool operator<=(__half a, __half b) { return a.data <= b.data; }
__GPUSYM_HALF_FN bool operator>(__half a, __half b) { return a.data > b.data; }
__GPUSYM_HALF_FN bool operator>=(__half a, __half b) { return a.data >= b.data; }

struct __GPUSYM_VEC_ALIGN(__half, 2) __half2 {
  __half x, y;

  __half2() = default;
  __HOST_DEVICE__ constexpr __half2(__half a, __half b) : x(a), y(b) {}

  __HOST_DEVICE__ __half2 &operator+=(__half2 o) { x += o.x; y += o.y; return *this; }
  __HOST_DEVICE__ __half2 &operator-=(__half2 o) { x -= o.x; y -= o.y; return *this; }
  __HOST_DEVICE__ __half2 &operator*=(__half2 o) { x *= o.x; y *= o.y; return *this; }
  __HOST_DEVICE__ __half2 &operator/=(__half2 o) { x /= o.x; y /= o.y; return *this; }
};
typedef __half2 half2;

__GPUSYM_HALF_FN __half2 operator+(__half2 a, __half2 b) { return a += b; }
__GPUSYM_HALF_FN __half2 operator-(__half2 a, __half2 b) { return a -= b; }
__GPUSYM_HALF_FN __half2 operator*(__half2 a, __half2 b) { return a *= b; }
__GPUSYM_HALF_FN __half2 operator/(__half2 a, __half2 b) { return a /= b; }
__GPUSYM_HALF_FN __half2 operator-(__half2 a) { return __half2(-a.x, -a.y); }
__GPUSYM_HALF_FN bool operator==(__half2 a, __half2 b) { return a.x == b.x && a.y == b.y; }
__GPUSYM_HALF_FN bool operator!=(__half2 a, __half2 b) { return !(a == b); }

/* ---- conversions ---- */

__GPUSYM_HALF_FN __half __float2half(float x) { return x; }
__GPUSYM_HALF_FN __half __float2half_rn(float x) { return x; }
__GPUSYM_HALF_FN __half __double2half(double x) { return x; }
__GPUSYM_HALF_FN float __half2float(__half h) { return h.data; }
__GPUSYM_HALF_FN float __low2float(__half2 h) { return h.x; }
__GPUSYM_HALF_FN float __high2float(__half2 h) { return h.y; }
__GPUSYM_HALF_FN __half2 __float2half2_rn(float x) { return __half2(x, x); }
__GPUSYM_HALF_FN __half2 __floats2half2_rn(float a, float b) { return __half2(a, b); }
__GPUSYM_HALF_FN __half2 __float22half2_rn(float2 v) { return __half2(v.x, v.y); }
__GPUSYM_HALF_FN float2 __half22float2(__half2 h) { return float2(float(h.x), float(h.y)); }
__GPUSYM_HALF_FN __half2 __halves2half2(__half a, __half b) { return __half2(a, b); }
__GPUSYM_HALF_FN __half2 __half2half2(__half a) { return __half2(a, a); }
__GPUSYM_HALF_FN __half __low2half(__half2 h) { return h.x; }
__GPUSYM_HALF_FN __half __high2half(__half2 h) { return h.y; }
__GPUSYM_HALF_FN __half2 __lows2half2(__half2 a, __half2 b) { return __half2(a.x, b.x); }
__GPUSYM_HALF_FN __half2 __highs2half2(__half2 a, __half2 b) { return __half2(a.y, b.y); }
__GPUSYM_HALF_FN __half2 __low2half2(__half2 h) { return __half2(h.x, h.x); }
__GPUSYM_HALF_FN __half2 __high2half2(__half2 h) { return __half2(h.y, h.y); }
__GPUSYM_HALF_FN __half2 __lowhigh2highlow(__half2 h) { return __half2(h.y, h.x); }
__GPUSYM_HALF_FN int __half2int_rz(__half h) { return static_cast<int>(h.data); }
__GPUSYM_HALF_FN int __half2int_rn(__half h) { return static_cast<int>(std::rint(float(h))); }
__GPUSYM_HALF_FN __half __int2half_rn(int x) { return x; }
__GPUSYM_HALF_FN __half __uint2half_rn(unsigned int x) { return x; }
__GPUSYM_HALF_FN short __half_as_short(__half h) { return __builtin_bit_cast(short, h.data); }
__GPUSYM_HALF_FN unsigned short __half_as_ushort(__half h) { return __builtin_bit_cast(unsigned short, h.data); }
__GPUSYM_HALF_FN __half __short_as_half(short x) { return __builtin_bit_cast(_Float16, x); }
__GPUSYM_HALF_FN __half __ushort_as_half(unsigned short x) { return __builtin_bit_cast(_Float16, x); }

/* ---- arithmetic and comparison functions ---- */

__GPUSYM_HALF_FN __half __hadd(__half a, __half b) { return a + b; }
__GPUSYM_HALF_FN __half __hsub(__half a, __half b) { return a - b; }
__GPUSYM_HALF_FN __half __hmul(__half a, __half b) { return a * b; }
__GPUSYM_HALF_FN __half __hdiv(__half a, __half b) { return a / b; }
__GPUSYM_HALF_FN __half __hneg(__half a) { return -a; }
__GPUSYM_HALF_FN __half __habs(__half a) { return a.data < 0 ? -a : a; }
/* Fused: the product is exact in double, and the sum is rounded to half. */
__GPUSYM_HALF_FN __half __hfma(__half a, __half b, __half c) {
  return static_cast<_Float16>(static_cast<double>(a.data) * b.data + c.data);
}
__GPUSYM_HALF_FN __half __hsat(__half a) { return a.data < 0 ? __half(0.0f) : a.data > 1 ? __half(1.0f) : a; }
__GPUSYM_HALF_FN __half __hadd_sat(__half a, __half b) { return __hsat(a + b); }
__GPUSYM_HALF_FN __half __hsub_sat(__half a, __half b) { return __hsat(a - b); }
__GPUSYM_HALF_FN __half __hmul_sat(__half a, __half b) { return __hsat(a * b); }
__GPUSYM_HALF_FN __half __hfma_sat(__half a, __half b, __half c) { return __hsat(__hfma(a, b, c)); }
__GPUSYM_HALF_FN bool __heq(__half a, __half b) { return a == b; }
__GPUSYM_HALF_FN bool __hne(__half a, __half b) { return a != b; }
__GPUSYM_HALF_FN bool __hlt(__half a, __half b) { return a < b; }
__GPUSYM_HALF_FN bool __hle(__half a, __half b) { return a <= b; }
__GPUSYM_HALF_FN bool __hgt(__half a, __half b) { return a > b; }
__GPUSYM_HALF_FN bool __hge(__half a, __half b) { return a >= b; }
__GPUSYM_HALF_FN bool __hisnan(__half a) { return a.data != a.data; }
__GPUSYM_HALF_FN bool __hisinf(__half a) { return a.data == __builtin_inff16() || a.data == -__builtin_inff16(); }
__GPUSYM_HALF_FN __half __hmax(__half a, __half b) { return std::fmax(float(a), float(b)); }
__GPUSYM_HALF_FN __half __hmin(__half a, __half b) { return std::fmin(float(a), float(b)); }

/* The same on both halves of a pair. */
#define __GPUSYM_HALF2_MAP2(name, scalar)                                                      \
  __GPUSYM_HALF_FN __half2 name(__half2 a, __half2 b) { return __half2(scalar(a.x, b.x), scalar(a.y, b.y)); }
__GPUSYM_HALF2_MAP2(__hadd2, __hadd)
__GPUSYM_HALF2_MAP2(__hsub2, __hsub)
__GPUSYM_HALF2_MAP2(__hmul2, __hmul)
__GPUSYM_HALF2_MAP2(__h2div, __hdiv)
__GPUSYM_HALF2_MAP2(__hmax2, __hmax)
__GPUSYM_HALF2_MAP2(__hmin2, __hmin)
#undef __GPUSYM_HALF2_MAP2
__GPUSYM_HALF_FN __half2 __hfma2(__half2 a, __half2 b, __half2 c) {
  return __half2(__hfma(a.x, b.x, c.x), __hfma(a.y, b.y, c.y));
}
__GPUSYM_HALF_FN __half2 __hneg2(__half2 a) { return -a; }
__GPUSYM_HALF_FN __half2 __habs2(__half2 a) { return __half2(__habs(a.x), __habs(a.y)); }
__GPUSYM_HALF_FN bool __hbeq2(__half2 a, __half2 b) { return a.x == b.x && a.y == b.y; }
__GPUSYM_HALF_FN bool __hbne2(__half2 a, __half2 b) { return a.x != b.x && a.y != b.y; }
__GPUSYM_HALF_FN bool __hblt2(__half2 a, __half2 b) { return a.x < b.x && a.y < b.y; }
__GPUSYM_HALF_FN bool __hbgt2(__half2 a, __half2 b) { return a.x > b.x && a.y > b.y; }

#if defined(__HIP__)
/* HIP's packed atomic add (gpusym_detail/device_atomics.h). */
static __device__ inline __half2 unsafeAtomicAdd(__half2 *address, __half2 value) {
  return __gpusym_atomic_add_pair(address, value);
}
#endif

/* ---- math: computed in float, rounded to half once ---- */

#define __GPUSYM_HALF_MATH(name, expr)                                                         \
  __GPUSYM_HALF_FN __half name(__half h) {                                                     \
    float x = h;                                                                               \
    return expr;                                                                               \
  }                                                                                            \
  __GPUSYM_HALF_FN __half2 name##2(__half2 h) { return __half2(name(h.x), name(h.y)); }
__GPUSYM_HALF_MATH(hsqrt, std::sqrt(x))
__GPUSYM_HALF_MATH(hrsqrt, 1.0f / std::sqrt(x))
__GPUSYM_HALF_MATH(hrcp, 1.0f / x)
__GPUSYM_HALF_MATH(hexp, std::exp(x))
__GPUSYM_HALF_MATH(hexp2, std::exp2(x))
__GPUSYM_HALF_MATH(hexp10, std::pow(10.0f, x))
__GPUSYM_HALF_MATH(hlog, std::log(x))
__GPUSYM_HALF_MATH(hlog2, std::log2(x))
__GPUSYM_HALF_MATH(hlog10, std::log10(x))
__GPUSYM_HALF_MATH(hsin, std::sin(x))
__GPUSYM_HALF_MATH(hcos, std::cos(x))
__GPUSYM_HALF_MATH(hfloor, std::floor(x))
__GPUSYM_HALF_MATH(hceil, std::ceil(x))
__GPUSYM_HALF_MATH(htrunc, std::trunc(x))
__GPUSYM_HALF_MATH(hrint, std::rint(x))
#undef __GPUSYM_HALF_MATH

#undef __GPUSYM_HALF_FN

#endif /* __cplusplus */

#endif
