/*
 * CUDA's integer intrinsics that HIP lacks: __fns, and the dot products
 * __dp4a, __dp2a_lo and __dp2a_hi (signed and unsigned, on 32-bit words and
 * on the vector types).
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

#endif
