/*
 * CUDA's integer intrinsics that HIP lacks: __fns, the dot products
 * __dp4a, __dp2a_lo and __dp2a_hi (signed and unsigned, on 32-bit words and
 * on the vector types), and the SIMD intrinsics on the two halfwords or four
 * bytes of a word (__vadd2, __vmaxs4, __vcmpgeu2, __vsadu4, ...), and
 * CUDA 12's DPX functions (__viaddmax_s32, __vimax3_u16x2, __vibmin_s16x2, ...).
 */
#ifndef GPUSYM_CUDA_INTRINSICS_H
#define GPUSYM_CUDA_INTRINSICS_H

/* The position of the |offset|th set bit of `mask` from bit `base` (towards
 * bit 31 for a positive offset, bit 0 for a negative one; offset 0: `base`
 * if set), or 0xffffffff: PTX's fns. */
static __device__ __GPUSYM_INLINE unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  if (offset == 0) return (mask >> (base & 31)) & 1 ? base : 0xffffffffu;
  int step = offset > 0 ? 1 : -1;
  unsigned int count = offset > 0 ? offset - 1 : -(offset + 1);
  for (int pos = static_cast<int>(base); pos >= 0 && pos < 32; pos += step)
    if ((mask >> pos) & 1 && count-- == 0) return static_cast<unsigned int>(pos);
  return 0xffffffffu;
}

/* Byte or halfword `n` of `word`, sign- or zero-extended as Part is. */
template <typename Part>
static __device__ __GPUSYM_INLINE int __gpusym_part(unsigned int word, int n) {
  return static_cast<Part>(word >> (8 * sizeof(Part) * n));
}

/* c + the sum of the products of the four bytes of a and b. */
template <typename Byte, typename T>
static __device__ __GPUSYM_INLINE T __gpusym_dp4a(T a, T b, T c) {
  unsigned int x = static_cast<unsigned int>(a), y = static_cast<unsigned int>(b);
  for (int n = 0; n < 4; n++) c += static_cast<T>(__gpusym_part<Byte>(x, n) * __gpusym_part<Byte>(y, n));
  return c;
}
/* c + the sum of the products of the two halfwords of a with bytes
 * `first`, first + 1 of b. */
template <typename Half, typename Byte, typename T>
static __device__ __GPUSYM_INLINE T __gpusym_dp2a(T a, T b, T c, int first) {
  unsigned int x = static_cast<unsigned int>(a), y = static_cast<unsigned int>(b);
  for (int n = 0; n < 2; n++) c += static_cast<T>(__gpusym_part<Half>(x, n) * __gpusym_part<Byte>(y, first + n));
  return c;
}

static __device__ __GPUSYM_INLINE int __dp4a(int a, int b, int c) { return __gpusym_dp4a<signed char>(a, b, c); }
static __device__ __GPUSYM_INLINE unsigned int __dp4a(unsigned int a, unsigned int b, unsigned int c) {
  return __gpusym_dp4a<unsigned char>(a, b, c);
}
static __device__ __GPUSYM_INLINE int __dp4a(char4 a, char4 b, int c) {
  return __dp4a(__builtin_bit_cast(int, a), __builtin_bit_cast(int, b), c);
}
static __device__ __GPUSYM_INLINE unsigned int __dp4a(uchar4 a, uchar4 b, unsigned int c) {
  return __dp4a(__builtin_bit_cast(unsigned int, a), __builtin_bit_cast(unsigned int, b), c);
}

#define __GPUSYM_DP2A(name, first)                                                                   \
  static __device__ __GPUSYM_INLINE int name(int a, int b, int c) {                                  \
    return __gpusym_dp2a<short, signed char>(a, b, c, first);                                        \
  }                                                                                                  \
  static __device__ __GPUSYM_INLINE unsigned int name(unsigned int a, unsigned int b, unsigned int c) { \
    return __gpusym_dp2a<unsigned short, unsigned char>(a, b, c, first);                             \
  }                                                                                                  \
  static __device__ __GPUSYM_INLINE int name(short2 a, char4 b, int c) {                             \
    return name(__builtin_bit_cast(int, a), __builtin_bit_cast(int, b), c);                          \
  }                                                                                                  \
  static __device__ __GPUSYM_INLINE unsigned int name(ushort2 a, uchar4 b, unsigned int c) {         \
    return name(__builtin_bit_cast(unsigned int, a), __builtin_bit_cast(unsigned int, b), c);        \
  }
__GPUSYM_DP2A(__dp2a_lo, 0)
__GPUSYM_DP2A(__dp2a_hi, 2)
#undef __GPUSYM_DP2A

/* The SIMD intrinsics: `expr` of each part x, y of a and b (as Part, its
 * bounds lo and hi), its low bits kept. */
template <typename Part, typename Op>
static __device__ __GPUSYM_INLINE unsigned int __gpusym_simd(unsigned int a, unsigned int b, Op op) {
  constexpr int bits = 8 * sizeof(Part);
  constexpr unsigned int mask = (1u << bits) - 1;
  constexpr int lo = Part(-1) < 0 ? -static_cast<int>(mask >> 1) - 1 : 0;
  constexpr int hi = Part(-1) < 0 ? static_cast<int>(mask >> 1) : static_cast<int>(mask);
  unsigned int result = 0;
  for (int n = 0; n < 4 / static_cast<int>(sizeof(Part)); n++) {
    int x = __gpusym_part<Part>(a, n), y = __gpusym_part<Part>(b, n);
    result |= (static_cast<unsigned int>(op(x, y, lo, hi)) & mask) << (bits * n);
  }
  return result;
}
static __device__ __GPUSYM_INLINE int __gpusym_clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }

#define __GPUSYM_SIMD2(name, Part, expr)                                                       \
  static __device__ __GPUSYM_INLINE unsigned int name(unsigned int a, unsigned int b) {       \
    return __gpusym_simd<Part>(a, b, [](int x, int y, int lo, int hi) -> int {                 \
      (void)x, (void)y, (void)lo, (void)hi;                                                    \
      return expr;                                                                             \
    });                                                                                        \
  }
#define __GPUSYM_SIMD1(name, Part, expr)                                                       \
  static __device__ __GPUSYM_INLINE unsigned int name(unsigned int a) {                       \
    return __gpusym_simd<Part>(a, 0, [](int x, int y, int lo, int hi) -> int {                 \
      (void)x, (void)y, (void)lo, (void)hi;                                                    \
      return expr;                                                                             \
    });                                                                                        \
  }
/* Each intrinsic on halfwords (name2) and bytes (name4), signed (S) or
 * unsigned (U) parts. */
#define __GPUSYM_SIMD_BOTH(kind, name, sign, expr)                                             \
  kind(name##2, __GPUSYM_SIMD_##sign##16, expr) kind(name##4, __GPUSYM_SIMD_##sign##8, expr)
#define __GPUSYM_SIMD_S16 short
#define __GPUSYM_SIMD_U16 unsigned short
#define __GPUSYM_SIMD_S8 signed char
#define __GPUSYM_SIMD_U8 unsigned char

__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD1, __vabs, S, x < 0 ? -x : x)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD1, __vabsss, S, __gpusym_clamp(x < 0 ? -x : x, lo, hi))
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD1, __vneg, S, -x)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD1, __vnegss, S, __gpusym_clamp(-x, lo, hi))
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vabsdiffs, S, x > y ? x - y : y - x)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vabsdiffu, U, x > y ? x - y : y - x)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vadd, U, x + y)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vaddss, S, __gpusym_clamp(x + y, lo, hi))
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vaddus, U, __gpusym_clamp(x + y, lo, hi))
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vsub, U, x - y)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vsubss, S, __gpusym_clamp(x - y, lo, hi))
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vsubus, U, __gpusym_clamp(x - y, lo, hi))
/* Signed: the sum halved, rounded towards minus infinity when negative and
 * up otherwise, as CUDA does; unsigned: rounded up (__vavgu) or down (__vhaddu). */
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vavgs, S, x + y < 0 ? (x + y) >> 1 : (x + y + 1) >> 1)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vavgu, U, (x + y + 1) >> 1)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vhaddu, U, (x + y) >> 1)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vmaxs, S, x > y ? x : y)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vmaxu, U, x > y ? x : y)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vmins, S, x < y ? x : y)
__GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vminu, U, x < y ? x : y)
/* __vcmp*: all ones in the parts where the comparison holds; __vset*: 1. */
#define __GPUSYM_SIMD_COMPARE(name, sign, op)                                                  \
  __GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vcmp##name, sign, x op y ? -1 : 0)                     \
  __GPUSYM_SIMD_BOTH(__GPUSYM_SIMD2, __vset##name, sign, x op y ? 1 : 0)
__GPUSYM_SIMD_COMPARE(eq, U, ==)
__GPUSYM_SIMD_COMPARE(ne, U, !=)
__GPUSYM_SIMD_COMPARE(ges, S, >=)
__GPUSYM_SIMD_COMPARE(geu, U, >=)
__GPUSYM_SIMD_COMPARE(gts, S, >)
__GPUSYM_SIMD_COMPARE(gtu, U, >)
__GPUSYM_SIMD_COMPARE(les, S, <=)
__GPUSYM_SIMD_COMPARE(leu, U, <=)
__GPUSYM_SIMD_COMPARE(lts, S, <)
__GPUSYM_SIMD_COMPARE(ltu, U, <)
#undef __GPUSYM_SIMD_COMPARE

/* The sum of the absolute differences of the parts. */
#define __GPUSYM_SIMD_SAD(name, Part)                                                          \
  static __device__ __GPUSYM_INLINE unsigned int name(unsigned int a, unsigned int b) {       \
    unsigned int sum = 0;                                                                      \
    for (int n = 0; n < 4 / static_cast<int>(sizeof(Part)); n++) {                             \
      int x = __gpusym_part<Part>(a, n), y = __gpusym_part<Part>(b, n);                        \
      sum += static_cast<unsigned int>(x > y ? x - y : y - x);                                 \
    }                                                                                          \
    return sum;                                                                                \
  }
__GPUSYM_SIMD_SAD(__vsads2, short)
__GPUSYM_SIMD_SAD(__vsads4, signed char)
__GPUSYM_SIMD_SAD(__vsadu2, unsigned short)
__GPUSYM_SIMD_SAD(__vsadu4, unsigned char)
#undef __GPUSYM_SIMD_SAD
#undef __GPUSYM_SIMD_BOTH
#undef __GPUSYM_SIMD_S16
#undef __GPUSYM_SIMD_U16
#undef __GPUSYM_SIMD_S8
#undef __GPUSYM_SIMD_U8
#undef __GPUSYM_SIMD1
#undef __GPUSYM_SIMD2

/* CUDA 12's DPX functions, host and device: max or min of a + b and c
 * (__viaddmax, __viaddmin), of three (__vimax3, __vimin3), of two with the
 * comparison's outcome (__vibmax: a >= b; __vibmin: a <= b), _relu forms
 * clamped below at 0; on 32-bit integers or the two halfwords of a word
 * (sums wrap as the parts do). */
template <typename Part, typename Op>
static __host__ __device__ __GPUSYM_INLINE unsigned int __gpusym_dpx2(unsigned int a, unsigned int b, unsigned int c,
                                                                    Op op) {
  unsigned int result = 0;
  for (int n = 0; n < 2; n++) {
    Part x = static_cast<Part>(a >> (16 * n)), y = static_cast<Part>(b >> (16 * n)), z = static_cast<Part>(c >> (16 * n));
    result |= (static_cast<unsigned int>(op(x, y, z, n)) & 0xffffu) << (16 * n);
  }
  return result;
}
template <typename T> static __host__ __device__ __GPUSYM_INLINE T __gpusym_max(T x, T y) { return x > y ? x : y; }
template <typename T> static __host__ __device__ __GPUSYM_INLINE T __gpusym_min(T x, T y) { return x < y ? x : y; }
template <typename T> static __host__ __device__ __GPUSYM_INLINE T __gpusym_wrapping_add(T x, T y) {
  return static_cast<T>(static_cast<unsigned int>(x) + static_cast<unsigned int>(y));
}

#define __GPUSYM_DPX3(name, expr)                                                                         \
  static __host__ __device__ __GPUSYM_INLINE int name##_s32(int a, int b, int c) {                       \
    typedef int T;                                                                                       \
    T x = a, y = b, z = c;                                                                               \
    return expr;                                                                                         \
  }                                                                                                      \
  static __host__ __device__ __GPUSYM_INLINE int name##_s32_relu(int a, int b, int c) {                  \
    return __gpusym_max(name##_s32(a, b, c), 0);                                                         \
  }                                                                                                      \
  static __host__ __device__ __GPUSYM_INLINE unsigned int name##_u32(unsigned int a, unsigned int b,     \
                                                                    unsigned int c) {                    \
    typedef unsigned int T;                                                                              \
    T x = a, y = b, z = c;                                                                               \
    return expr;                                                                                         \
  }                                                                                                      \
  static __host__ __device__ __GPUSYM_INLINE unsigned int name##_s16x2(unsigned int a, unsigned int b,   \
                                                                      unsigned int c) {                  \
    return __gpusym_dpx2<short>(a, b, c, [](short x, short y, short z, int) -> short {                   \
      typedef short T;                                                                                   \
      return expr;                                                                                       \
    });                                                                                                  \
  }                                                                                                      \
  static __host__ __device__ __GPUSYM_INLINE unsigned int name##_s16x2_relu(unsigned int a, unsigned int b, \
                                                                           unsigned int c) {             \
    return __gpusym_dpx2<short>(a, b, c, [](short x, short y, short z, int) -> short {                   \
      typedef short T;                                                                                   \
      return __gpusym_max<short>(expr, 0);                                                               \
    });                                                                                                  \
  }                                                                                                      \
  static __host__ __device__ __GPUSYM_INLINE unsigned int name##_u16x2(unsigned int a, unsigned int b,   \
                                                                      unsigned int c) {                  \
    return __gpusym_dpx2<unsigned short>(a, b, c, [](unsigned short x, unsigned short y, unsigned short z, \
                                                     int) -> unsigned short {                            \
      typedef unsigned short T;                                                                          \
      return expr;                                                                                       \
    });                                                                                                  \
  }
__GPUSYM_DPX3(__viaddmax, __gpusym_max<T>(__gpusym_wrapping_add<T>(x, y), z))
__GPUSYM_DPX3(__viaddmin, __gpusym_min<T>(__gpusym_wrapping_add<T>(x, y), z))
__GPUSYM_DPX3(__vimax3, __gpusym_max<T>(__gpusym_max<T>(x, y), z))
__GPUSYM_DPX3(__vimin3, __gpusym_min<T>(__gpusym_min<T>(x, y), z))
#undef __GPUSYM_DPX3

static __host__ __device__ __GPUSYM_INLINE int __vimax_s32_relu(int a, int b) { return __gpusym_max(__gpusym_max(a, b), 0); }
static __host__ __device__ __GPUSYM_INLINE int __vimin_s32_relu(int a, int b) { return __gpusym_max(__gpusym_min(a, b), 0); }
static __host__ __device__ __GPUSYM_INLINE unsigned int __vimax_s16x2_relu(unsigned int a, unsigned int b) {
  return __gpusym_dpx2<short>(a, b, 0, [](short x, short y, short, int) -> short {
    return __gpusym_max<short>(__gpusym_max(x, y), 0);
  });
}
static __host__ __device__ __GPUSYM_INLINE unsigned int __vimin_s16x2_relu(unsigned int a, unsigned int b) {
  return __gpusym_dpx2<short>(a, b, 0, [](short x, short y, short, int) -> short {
    return __gpusym_max<short>(__gpusym_min(x, y), 0);
  });
}

#define __GPUSYM_DPX_BOOL(name, pick, holds)                                                              \
  static __host__ __device__ __GPUSYM_INLINE int name##_s32(int a, int b, bool *pred) {                  \
    *pred = a holds b;                                                                                   \
    return pick(a, b);                                                                                   \
  }                                                                                                      \
  static __host__ __device__ __GPUSYM_INLINE unsigned int name##_u32(unsigned int a, unsigned int b,     \
                                                                    bool *pred) {                        \
    *pred = a holds b;                                                                                   \
    return pick(a, b);                                                                                   \
  }                                                                                                      \
  template <typename Part>                                                                               \
  static __host__ __device__ __GPUSYM_INLINE unsigned int name##_16x2(unsigned int a, unsigned int b,    \
                                                                     bool *hi, bool *lo) {              \
    bool holds_in[2];                                                                                    \
    unsigned int result = 0;                                                                             \
    for (int n = 0; n < 2; n++) {                                                                        \
      Part x = static_cast<Part>(a >> (16 * n)), y = static_cast<Part>(b >> (16 * n));                   \
      holds_in[n] = x holds y;                                                                           \
      result |= (static_cast<unsigned int>(pick(x, y)) & 0xffffu) << (16 * n);                           \
    }                                                                                                    \
    *lo = holds_in[0];                                                                                   \
    *hi = holds_in[1];                                                                                   \
    return result;                                                                                       \
  }                                                                                                      \
  static __host__ __device__ __GPUSYM_INLINE unsigned int name##_s16x2(unsigned int a, unsigned int b,   \
                                                                      bool *hi, bool *lo) {             \
    return name##_16x2<short>(a, b, hi, lo);                                                             \
  }                                                                                                      \
  static __host__ __device__ __GPUSYM_INLINE unsigned int name##_u16x2(unsigned int a, unsigned int b,   \
                                                                      bool *hi, bool *lo) {             \
    return name##_16x2<unsigned short>(a, b, hi, lo);                                                    \
  }
__GPUSYM_DPX_BOOL(__vibmax, __gpusym_max, >=)
__GPUSYM_DPX_BOOL(__vibmin, __gpusym_min, <=)
#undef __GPUSYM_DPX_BOOL

#endif
