/*
 * HIP's device intrinsics beyond clang's math header: integer bit operations,
 * conversions with a rounding direction, reinterpretations, __ldg, timers,
 * __threadfence_system and __trap.  Plain C++ on both targets, but for the
 * timers, the fence and the trap.
 */
#ifndef GPUSYM_DEVICE_INTRINSICS_H
#define GPUSYM_DEVICE_INTRINSICS_H

#include <type_traits>

#define __GPUSYM_INTRINSIC static __device__ __GPUSYM_INLINE

/* ---- integers ---- */

__GPUSYM_INTRINSIC int __popc(unsigned int x) { return __builtin_popcount(x); }
__GPUSYM_INTRINSIC int __popcll(unsigned long long x) { return __builtin_popcountll(x); }
__GPUSYM_INTRINSIC int __clz(int x) { return x ? __builtin_clz(x) : 32; }
__GPUSYM_INTRINSIC int __clzll(long long x) { return x ? __builtin_clzll(x) : 64; }
__GPUSYM_INTRINSIC int __ffs(int x) { return __builtin_ffs(x); }
__GPUSYM_INTRINSIC int __ffs(unsigned int x) { return __builtin_ffs(static_cast<int>(x)); }
__GPUSYM_INTRINSIC int __ffsll(long long x) { return __builtin_ffsll(x); }
__GPUSYM_INTRINSIC int __ffsll(unsigned long long x) { return __builtin_ffsll(static_cast<long long>(x)); }
__GPUSYM_INTRINSIC unsigned int __brev(unsigned int x) { return __builtin_bitreverse32(x); }
__GPUSYM_INTRINSIC unsigned long long __brevll(unsigned long long x) { return __builtin_bitreverse64(x); }

/* Byte n of the result is byte (s >> 4n) & 7 of the eight bytes y:x. */
__GPUSYM_INTRINSIC unsigned int __byte_perm(unsigned int x, unsigned int y, unsigned int s) {
  unsigned long long bytes = (static_cast<unsigned long long>(y) << 32) | x;
  unsigned int result = 0;
  for (int n = 0; n < 4; n++) result |= static_cast<unsigned int>((bytes >> (8 * ((s >> (4 * n)) & 7))) & 0xff) << (8 * n);
  return result;
}

/* Products of the low 24 bits (sign-extended for __mul24), and high halves. */
__GPUSYM_INTRINSIC int __mul24(int x, int y) {
  return static_cast<int>(static_cast<unsigned int>((x << 8) >> 8) * static_cast<unsigned int>((y << 8) >> 8));
}
__GPUSYM_INTRINSIC unsigned int __umul24(unsigned int x, unsigned int y) { return (x & 0xffffffu) * (y & 0xffffffu); }
__GPUSYM_INTRINSIC int __mulhi(int x, int y) { return static_cast<int>((static_cast<long long>(x) * y) >> 32); }
__GPUSYM_INTRINSIC unsigned int __umulhi(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) * y) >> 32);
}
__GPUSYM_INTRINSIC long long __mul64hi(long long x, long long y) {
  return static_cast<long long>((static_cast<__int128>(x) * y) >> 64);
}
__GPUSYM_INTRINSIC unsigned long long __umul64hi(unsigned long long x, unsigned long long y) {
  return static_cast<unsigned long long>((static_cast<unsigned __int128>(x) * y) >> 64);
}

/* `width` bits of `src` from bit `offset` (both taken modulo the size), and
 * the low `width` bits of `insert` put there. */
__GPUSYM_INTRINSIC unsigned int __bitextract_u32(unsigned int src, unsigned int offset, unsigned int width) {
  width &= 31;
  return width ? (src >> (offset & 31)) & ((1u << width) - 1) : 0;
}
__GPUSYM_INTRINSIC unsigned long long __bitextract_u64(unsigned long long src, unsigned int offset, unsigned int width) {
  width &= 63;
  return width ? (src >> (offset & 63)) & ((1ull << width) - 1) : 0;
}
__GPUSYM_INTRINSIC unsigned int __bitinsert_u32(unsigned int src, unsigned int insert, unsigned int offset,
                                                unsigned int width) {
  unsigned int mask = ((1u << (width & 31)) - 1) << (offset & 31);
  return (src & ~mask) | ((insert << (offset & 31)) & mask);
}
__GPUSYM_INTRINSIC unsigned long long __bitinsert_u64(unsigned long long src, unsigned long long insert,
                                                      unsigned int offset, unsigned int width) {
  unsigned long long mask = ((1ull << (width & 63)) - 1) << (offset & 63);
  return (src & ~mask) | ((insert << (offset & 63)) & mask);
}

/* hi:lo shifted by `shift` modulo 32 (the c forms: clamped to 32); the high
 * word of a left shift, the low word of a right shift. */
__GPUSYM_INTRINSIC unsigned int __gpusym_funnel(unsigned int lo, unsigned int hi, unsigned int shift, bool left) {
  unsigned long long both = (static_cast<unsigned long long>(hi) << 32) | lo;
  return left ? static_cast<unsigned int>((both << shift) >> 32) : static_cast<unsigned int>(both >> shift);
}
__GPUSYM_INTRINSIC unsigned int __funnelshift_l(unsigned int lo, unsigned int hi, unsigned int shift) {
  return __gpusym_funnel(lo, hi, shift & 31, true);
}
__GPUSYM_INTRINSIC unsigned int __funnelshift_lc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return __gpusym_funnel(lo, hi, shift < 32 ? shift : 32, true);
}
__GPUSYM_INTRINSIC unsigned int __funnelshift_r(unsigned int lo, unsigned int hi, unsigned int shift) {
  return __gpusym_funnel(lo, hi, shift & 31, false);
}
__GPUSYM_INTRINSIC unsigned int __funnelshift_rc(unsigned int lo, unsigned int hi, unsigned int shift) {
  return __gpusym_funnel(lo, hi, shift < 32 ? shift : 32, false);
}

/* Averages without overflow (rounded down, or up for the r forms), and sums
 * of absolute differences. */
__GPUSYM_INTRINSIC int __hadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y) >> 1); }
__GPUSYM_INTRINSIC int __rhadd(int x, int y) { return static_cast<int>((static_cast<long long>(x) + y + 1) >> 1); }
__GPUSYM_INTRINSIC unsigned int __uhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y) >> 1);
}
__GPUSYM_INTRINSIC unsigned int __urhadd(unsigned int x, unsigned int y) {
  return static_cast<unsigned int>((static_cast<unsigned long long>(x) + y + 1) >> 1);
}
__GPUSYM_INTRINSIC unsigned int __sad(int x, int y, unsigned int z) {
  return (x > y ? static_cast<unsigned int>(x) - static_cast<unsigned int>(y)
                : static_cast<unsigned int>(y) - static_cast<unsigned int>(x)) + z;
}
__GPUSYM_INTRINSIC unsigned int __usad(unsigned int x, unsigned int y, unsigned int z) {
  return (x > y ? x - y : y - x) + z;
}

/* ---- reinterpretations ---- */

__GPUSYM_INTRINSIC float __int_as_float(int x) { return __builtin_bit_cast(float, x); }
__GPUSYM_INTRINSIC int __float_as_int(float x) { return __builtin_bit_cast(int, x); }
__GPUSYM_INTRINSIC float __uint_as_float(unsigned int x) { return __builtin_bit_cast(float, x); }
__GPUSYM_INTRINSIC unsigned int __float_as_uint(float x) { return __builtin_bit_cast(unsigned int, x); }
__GPUSYM_INTRINSIC double __longlong_as_double(long long x) { return __builtin_bit_cast(double, x); }
__GPUSYM_INTRINSIC long long __double_as_longlong(double x) { return __builtin_bit_cast(long long, x); }
__GPUSYM_INTRINSIC int __double2hiint(double x) { return static_cast<int>(__double_as_longlong(x) >> 32); }
__GPUSYM_INTRINSIC int __double2loint(double x) { return static_cast<int>(__double_as_longlong(x)); }
__GPUSYM_INTRINSIC double __hiloint2double(int hi, int lo) {
  return __longlong_as_double(static_cast<long long>((static_cast<unsigned long long>(static_cast<unsigned int>(hi)) << 32) |
                                                     static_cast<unsigned int>(lo)));
}

/* ---- conversions with a rounding direction ---- */

/* Floating point to integer: rn to nearest even, rz toward zero, rd down, ru up. */
#define __GPUSYM_TO_INTEGER(from, fname, to, tname)                                                       \
  __GPUSYM_INTRINSIC to __##fname##2##tname##_rn(from x) { return static_cast<to>(__builtin_rint(x)); }  \
  __GPUSYM_INTRINSIC to __##fname##2##tname##_rz(from x) { return static_cast<to>(x); }                  \
  __GPUSYM_INTRINSIC to __##fname##2##tname##_rd(from x) { return static_cast<to>(__builtin_floor(x)); } \
  __GPUSYM_INTRINSIC to __##fname##2##tname##_ru(from x) { return static_cast<to>(__builtin_ceil(x)); }
#define __GPUSYM_TO_INTEGERS(from, fname)                                                                 \
  __GPUSYM_TO_INTEGER(from, fname, int, int)                                                              \
  __GPUSYM_TO_INTEGER(from, fname, unsigned int, uint)                                                    \
  __GPUSYM_TO_INTEGER(from, fname, long long, ll)                                                         \
  __GPUSYM_TO_INTEGER(from, fname, unsigned long long, ull)
__GPUSYM_TO_INTEGERS(float, float)
__GPUSYM_TO_INTEGERS(double, double)
#undef __GPUSYM_TO_INTEGERS
#undef __GPUSYM_TO_INTEGER

/* The float or double next to nonzero-or-zero finite `v`, up or down. */
template <typename T> __GPUSYM_INTRINSIC T __gpusym_next(T v, bool up) {
  using Bits = typename std::conditional<sizeof(T) == 4, int, long long>::type;
  const T tiniest = __builtin_bit_cast(T, Bits(1));
  if (v == 0) return up ? tiniest : -tiniest;
  Bits bits = __builtin_bit_cast(Bits, v);
  return __builtin_bit_cast(T, (v > 0) == up ? bits + 1 : bits - 1);
}

/* `exact` converted to To, rounded down (direction -1), up (+1) or toward
 * zero (0): the nearest, moved one step if it lies on the wrong side. */
template <typename To, typename From> __GPUSYM_INTRINSIC To __gpusym_directed(From exact, int direction) {
  To rounded = static_cast<To>(exact);
  int side;  /* the sign of rounded - exact, compared exactly (a plain `if`: C++11 has no `if constexpr`) */
  if (std::is_floating_point<From>::value)
    side = (rounded > exact) - (rounded < exact);
  else
    side = (static_cast<__int128>(rounded) > exact) - (static_cast<__int128>(rounded) < exact);
  if (direction == 0) direction = exact < 0 ? 1 : -1;
  if (side > 0 && direction < 0) return __gpusym_next(rounded, false);
  if (side < 0 && direction > 0) return __gpusym_next(rounded, true);
  return rounded;
}

#define __GPUSYM_TO_FLOATING(from, fname, to, tname)                                                      \
  __GPUSYM_INTRINSIC to __##fname##2##tname##_rn(from x) { return static_cast<to>(x); }                  \
  __GPUSYM_INTRINSIC to __##fname##2##tname##_rz(from x) { return __gpusym_directed<to>(x, 0); }         \
  __GPUSYM_INTRINSIC to __##fname##2##tname##_rd(from x) { return __gpusym_directed<to>(x, -1); }        \
  __GPUSYM_INTRINSIC to __##fname##2##tname##_ru(from x) { return __gpusym_directed<to>(x, 1); }
__GPUSYM_TO_FLOATING(int, int, float, float)
__GPUSYM_TO_FLOATING(unsigned int, uint, float, float)
__GPUSYM_TO_FLOATING(long long, ll, float, float)
__GPUSYM_TO_FLOATING(unsigned long long, ull, float, float)
__GPUSYM_TO_FLOATING(long long, ll, double, double)
__GPUSYM_TO_FLOATING(unsigned long long, ull, double, double)
__GPUSYM_TO_FLOATING(double, double, float, float)
#undef __GPUSYM_TO_FLOATING
__GPUSYM_INTRINSIC double __int2double_rn(int x) { return x; }
__GPUSYM_INTRINSIC double __uint2double_rn(unsigned int x) { return x; }

/* ---- memory, timers, traps ---- */

template <typename T> __GPUSYM_INTRINSIC T __ldg(const T *address) { return *address; }

#if defined(__AMDGCN__)
__GPUSYM_INTRINSIC void __threadfence_system(void) { __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, ""); }
__GPUSYM_INTRINSIC long long clock64(void) { return static_cast<long long>(__builtin_readcyclecounter()); }
__GPUSYM_INTRINSIC long long wall_clock64(void) { return static_cast<long long>(__builtin_amdgcn_s_memrealtime()); }
__GPUSYM_INTRINSIC __attribute__((noreturn)) void __trap(void) { __builtin_trap(); }
/* s_sleep 1 waits about 64 clocks. */
__GPUSYM_INTRINSIC void __nanosleep(unsigned int nanoseconds) {
  for (unsigned int i = 0; i < nanoseconds / 64; i++) __builtin_amdgcn_s_sleep(1);
}
#else
/* The simulated device's clocks (device_clock.cpp): clock64 counts
 * nanoseconds of the host's steady clock, wall_clock64 the same clock at
 * __GPUSYM_WALL_CLOCK_KHZ (hipDeviceAttributeWallClockRate). */
#define __GPUSYM_WALL_CLOCK_KHZ 100000
extern "C" __device__ long long __gpusym_clock64(void);
extern "C" __device__ long long __gpusym_wall_clock64(void);
extern "C" __device__ void __gpusym_nanosleep(unsigned int nanoseconds);
__GPUSYM_INTRINSIC void __threadfence_system(void) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
__GPUSYM_INTRINSIC long long clock64(void) { return __gpusym_clock64(); }
__GPUSYM_INTRINSIC long long wall_clock64(void) { return __gpusym_wall_clock64(); }
/* The lane's CPU thread sleeps about that long, a millisecond at most. */
__GPUSYM_INTRINSIC void __nanosleep(unsigned int nanoseconds) { __gpusym_nanosleep(nanoseconds); }
/* Reported as a device abort(): the kernel, block and thread, then SIGABRT. */
__GPUSYM_INTRINSIC __attribute__((noreturn)) void __trap(void) { __gpusym_abort(); }
#endif
__GPUSYM_INTRINSIC long long clock(void) { return clock64(); }

#endif
