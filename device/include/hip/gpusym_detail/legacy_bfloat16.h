/*
 * HIP's older bfloat16 type, `hip_bfloat16`, as <hip/hip_bfloat16.h> gives
 * it (rocBLAS and other libraries still use it).  It is a plain struct with
 * the bits in `data`, trivial and of standard layout so that C sees the same
 * type.  In C, in C++ before C++11 and in C++ not compiled as HIP it is only
 * that struct, as in HIP; compiled as HIP (C++11 or later) it also has:
 *
 * - an explicit constructor from float, rounding to nearest even (a NaN
 *   stays a NaN: a signalling one keeps a payload bit rather than becoming
 *   infinity), and one with the tag `hip_bfloat16::truncate` that keeps the
 *   float's upper half; `round_to_bfloat16(f)` and `round_to_bfloat16(f,
 *   truncate)` giving the same; assignment from a float;
 * - the conversion to float (the bits become the float's upper half);
 * - arithmetic (+, -, *, / and their assignments, ++, --, unary + and -)
 *   in float, rounded back, and the comparisons, in float;
 * - std::isinf, std::isnan and std::iszero overloads, and `<<` on streams
 *   (printing the float).
 */
#ifndef GPUSYM_LEGACY_BFLOAT16_H
#define GPUSYM_LEGACY_BFLOAT16_H

#include "hip/hip_common.h"

#if !defined(__cplusplus) || __cplusplus < 201103L || !defined(__HIP__)

#include <stdint.h>

typedef struct {
  uint16_t data;
} hip_bfloat16;

#else

#include <stdint.h>

#include <ostream>
#include <type_traits>

struct hip_bfloat16 {
  uint16_t data;

  enum truncate_t { truncate };

  __HOST_DEVICE__ hip_bfloat16() = default;
  explicit __HOST_DEVICE__ hip_bfloat16(float f) : data(rounded_bits(f)) {}
  explicit __HOST_DEVICE__ hip_bfloat16(float f, truncate_t) : data(truncated_bits(f)) {}

  __HOST_DEVICE__ operator float() const { return __builtin_bit_cast(float, static_cast<uint32_t>(data) << 16); }
  __HOST_DEVICE__ hip_bfloat16 &operator=(const float &f) {
    data = rounded_bits(f);
    return *this;
  }

  static __HOST_DEVICE__ hip_bfloat16 round_to_bfloat16(float f) {
    hip_bfloat16 result;
    result.data = rounded_bits(f);
    return result;
  }
  static __HOST_DEVICE__ hip_bfloat16 round_to_bfloat16(float f, truncate_t) {
    hip_bfloat16 result;
    result.data = truncated_bits(f);
    return result;
  }

 private:
  /* The float's upper half rounded to nearest even.  A NaN's upper half is
   * kept, with its lowest bit set when the payload it loses was not zero,
   * so that no NaN turns into infinity. */
  static __HOST_DEVICE__ uint16_t rounded_bits(float f) {
    const uint32_t bits = __builtin_bit_cast(uint32_t, f);
    if ((bits & 0x7f800000u) != 0x7f800000u) return static_cast<uint16_t>((bits + 0x7fffu + ((bits >> 16) & 1u)) >> 16);
    return static_cast<uint16_t>((bits >> 16) | ((bits & 0xffffu) != 0 ? 1u : 0u));
  }
  /* The upper half as it is, a NaN kept a NaN in the same way. */
  static __HOST_DEVICE__ uint16_t truncated_bits(float f) {
    const uint32_t bits = __builtin_bit_cast(uint32_t, f);
    const bool nan = (bits & 0x7f800000u) == 0x7f800000u && (bits & 0xffffu) != 0;
    return static_cast<uint16_t>((bits >> 16) | (nan ? 1u : 0u));
  }
};

static_assert(std::is_standard_layout<hip_bfloat16>::value, "hip_bfloat16 is shared with C");
static_assert(std::is_trivial<hip_bfloat16>::value, "hip_bfloat16 is shared with C");
static_assert(sizeof(hip_bfloat16) == 2, "hip_bfloat16 is two bytes");

inline std::ostream &operator<<(std::ostream &stream, const hip_bfloat16 &value) { return stream << float(value); }

inline __HOST_DEVICE__ hip_bfloat16 operator+(hip_bfloat16 a) { return a; }
inline __HOST_DEVICE__ hip_bfloat16 operator-(hip_bfloat16 a) {
  a.data ^= 0x8000;
  return a;
}
inline __HOST_DEVICE__ hip_bfloat16 operator+(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) + float(b)); }
inline __HOST_DEVICE__ hip_bfloat16 operator-(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) - float(b)); }
inline __HOST_DEVICE__ hip_bfloat16 operator*(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) * float(b)); }
inline __HOST_DEVICE__ hip_bfloat16 operator/(hip_bfloat16 a, hip_bfloat16 b) { return hip_bfloat16(float(a) / float(b)); }
inline __HOST_DEVICE__ bool operator==(hip_bfloat16 a, hip_bfloat16 b) { return float(a) == float(b); }
inline __HOST_DEVICE__ bool operator!=(hip_bfloat16 a, hip_bfloat16 b) { return !(a == b); }
inline __HOST_DEVICE__ bool operator<(hip_bfloat16 a, hip_bfloat16 b) { return float(a) < float(b); }
inline __HOST_DEVICE__ bool operator>(hip_bfloat16 a, hip_bfloat16 b) { return float(b) < float(a); }
/* As HIP defines them: the negation of the strict comparisons. */
inline __HOST_DEVICE__ bool operator<=(hip_bfloat16 a, hip_bfloat16 b) { return !(a > b); }
inline __HOST_DEVICE__ bool operator>=(hip_bfloat16 a, hip_bfloat16 b) { return !(a < b); }
inline __HOST_DEVICE__ hip_bfloat16 &operator+=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a + b; }
inline __HOST_DEVICE__ hip_bfloat16 &operator-=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a - b; }
inline __HOST_DEVICE__ hip_bfloat16 &operator*=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a * b; }
inline __HOST_DEVICE__ hip_bfloat16 &operator/=(hip_bfloat16 &a, hip_bfloat16 b) { return a = a / b; }
inline __HOST_DEVICE__ hip_bfloat16 &operator++(hip_bfloat16 &a) { return a += hip_bfloat16(1.0f); }
inline __HOST_DEVICE__ hip_bfloat16 &operator--(hip_bfloat16 &a) { return a -= hip_bfloat16(1.0f); }
inline __HOST_DEVICE__ hip_bfloat16 operator++(hip_bfloat16 &a, int) {
  const hip_bfloat16 old = a;
  ++a;
  return old;
}
inline __HOST_DEVICE__ hip_bfloat16 operator--(hip_bfloat16 &a, int) {
  const hip_bfloat16 old = a;
  --a;
  return old;
}

namespace std {
constexpr __HOST_DEVICE__ bool isinf(hip_bfloat16 a) { return (a.data & 0x7fff) == 0x7f80; }
constexpr __HOST_DEVICE__ bool isnan(hip_bfloat16 a) { return (a.data & 0x7fff) > 0x7f80; }
constexpr __HOST_DEVICE__ bool iszero(hip_bfloat16 a) { return (a.data & 0x7fff) == 0; }
}  // namespace std

#endif

#endif
