/*
 * Warp functions: __shfl, __shfl_up, __shfl_down, __shfl_xor, __ballot,
 * __any, __all, __activemask, __lane_id, __syncwarp, their *_sync forms and
 * the __reduce_*_sync reductions, over wavefronts of warpSize (64) lanes.
 *
 * Each is one primitive, __gpusym_wave_call: on the simulated device the
 * wavefront's lanes meet in the runtime (__gpusym_wave_meet, executor.cpp),
 * the lanes that reached the call being the active ones; on AMDGPU, the
 * hardware's cross-lane instructions.  Values of up to 8 bytes go through
 * as their bits, larger ones in 8-byte pieces.
 */
#ifndef GPUSYM_WARP_FUNCTIONS_H
#define GPUSYM_WARP_FUNCTIONS_H

#include "gpusym/lane.h"

#ifndef __AMDGCN_WAVEFRONT_SIZE
#define __AMDGCN_WAVEFRONT_SIZE GPUSYM_WAVE_SIZE
#endif

#if defined(__AMDGCN__)

static __device__ __GPUSYM_INLINE unsigned int __lane_id(void) {
  return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}

static __device__ __GPUSYM_INLINE unsigned long long __gpusym_wave_read(unsigned long long bits, int lane) {
  unsigned int low = __builtin_amdgcn_ds_bpermute(lane << 2, static_cast<int>(bits));
  unsigned int high = __builtin_amdgcn_ds_bpermute(lane << 2, static_cast<int>(bits >> 32));
  return (static_cast<unsigned long long>(high) << 32) | low;
}

static __device__ __GPUSYM_INLINE unsigned long long __gpusym_wave_call(unsigned int op, unsigned long long value,
                                                                         long long arg, int width) {
  int self = static_cast<int>(__lane_id()), base = self & ~(width - 1), index = self;
  switch (op) {
    case GPUSYM_WAVE_SHFL: return __gpusym_wave_read(value, static_cast<int>(arg) + base);
    case GPUSYM_WAVE_SHFL_UP:
      index = self - arg < base ? self : self - static_cast<int>(arg);
      return __gpusym_wave_read(value, index);
    case GPUSYM_WAVE_SHFL_DOWN:
      index = (self & (width - 1)) + arg >= width ? self : self + static_cast<int>(arg);
      return __gpusym_wave_read(value, index);
    case GPUSYM_WAVE_SHFL_XOR:
      index = (self ^ arg) >= ((self + width) & ~(width - 1)) ? self : self ^ static_cast<int>(arg);
      return __gpusym_wave_read(value, index);
    case GPUSYM_WAVE_BALLOT: return __builtin_amdgcn_ballot_w64(value != 0) & arg;
    case GPUSYM_WAVE_ANY: return (__builtin_amdgcn_ballot_w64(value != 0) & arg) != 0;
    case GPUSYM_WAVE_ALL: return (__builtin_amdgcn_read_exec() & arg & ~__builtin_amdgcn_ballot_w64(value != 0)) == 0;
    case GPUSYM_WAVE_ACTIVE: return __builtin_amdgcn_read_exec();
    case GPUSYM_WAVE_SYNC: __builtin_amdgcn_wave_barrier(); return 0;
  }
  unsigned int acc = static_cast<unsigned int>(value);  // a reduction: butterfly over the wavefront
  for (int offset = 1; offset < __AMDGCN_WAVEFRONT_SIZE; offset <<= 1) {
    unsigned int other = static_cast<unsigned int>(__gpusym_wave_read(acc, self ^ offset));
    acc = gpusym_wave_combine(op, acc, other);
  }
  return acc;
}

#else /* the simulated device, and the host pass of clang's HIP compile */

/* The runtime's meeting of a wavefront (fiber_switch.S): preserve_none, so
 * that a lane's context is a stack pointer, as at a barrier. */
extern "C" __device__ __attribute__((preserve_none)) unsigned long long __gpusym_wave_meet(
    unsigned int op, unsigned long long value, long long arg, int width);

static __device__ __GPUSYM_INLINE unsigned int __lane_id(void) {
  return __gpusym_lane->flat_thread % GPUSYM_WAVE_SIZE;
}

static __device__ __GPUSYM_INLINE unsigned long long __gpusym_wave_call(unsigned int op, unsigned long long value,
                                                                         long long arg, int width) {
  return __gpusym_wave_meet(op, value, arg, width);
}

#endif

template <typename T>
static __device__ __GPUSYM_INLINE unsigned long long __gpusym_wave_bits(T value) {
  static_assert(sizeof(T) <= 8, "warp functions take values of up to 8 bytes");
  unsigned long long bits = 0;
  __builtin_memcpy(&bits, &value, sizeof(T));
  return bits;
}

template <typename T>
static __device__ __GPUSYM_INLINE T __gpusym_wave_value(unsigned long long bits) {
  T value;
  __builtin_memcpy(&value, &bits, sizeof(T));
  return value;
}

/* A shuffle of a value of up to 8 bytes goes through as its bits; a larger
 * one (a float4, a struct), as cooperative groups' shuffles take any
 * trivially copyable type, in 8-byte pieces, one wavefront call each. */
template <typename T, bool = (sizeof(T) <= 8)>
struct __gpusym_shuffler {
  static __device__ __GPUSYM_INLINE T run(unsigned int op, T var, long long arg, int width) {
    return __gpusym_wave_value<T>(__gpusym_wave_call(op, __gpusym_wave_bits(var), arg, width));
  }
};
template <typename T>
struct __gpusym_shuffler<T, false> {
  static __device__ __GPUSYM_INLINE T run(unsigned int op, T var, long long arg, int width) {
    unsigned long long pieces[(sizeof(T) + 7) / 8] = {};
    __builtin_memcpy(pieces, &var, sizeof(T));
    for (unsigned long long &piece : pieces) piece = __gpusym_wave_call(op, piece, arg, width);
    __builtin_memcpy(&var, pieces, sizeof(T));
    return var;
  }
};

template <typename T>
static __device__ __GPUSYM_INLINE T __gpusym_shuffle(unsigned int op, T var, long long arg, int width) {
  return __gpusym_shuffler<T>::run(op, var, arg, width);
}

template <typename T>
static __device__ __GPUSYM_INLINE T __shfl(T var, int src_lane, int width = warpSize) {
  return __gpusym_shuffle(GPUSYM_WAVE_SHFL, var, src_lane, width);
}
template <typename T>
static __device__ __GPUSYM_INLINE T __shfl_up(T var, unsigned int delta, int width = warpSize) {
  return __gpusym_shuffle(GPUSYM_WAVE_SHFL_UP, var, delta, width);
}
template <typename T>
static __device__ __GPUSYM_INLINE T __shfl_down(T var, unsigned int delta, int width = warpSize) {
  return __gpusym_shuffle(GPUSYM_WAVE_SHFL_DOWN, var, delta, width);
}
template <typename T>
static __device__ __GPUSYM_INLINE T __shfl_xor(T var, int lane_mask, int width = warpSize) {
  return __gpusym_shuffle(GPUSYM_WAVE_SHFL_XOR, var, lane_mask, width);
}

#define __GPUSYM_ALL_LANES (~0ll)

static __device__ __GPUSYM_INLINE unsigned long long __ballot(int predicate) {
  return __gpusym_wave_call(GPUSYM_WAVE_BALLOT, predicate != 0, __GPUSYM_ALL_LANES, warpSize);
}
static __device__ __GPUSYM_INLINE unsigned long long __ballot64(int predicate) { return __ballot(predicate); }
static __device__ __GPUSYM_INLINE int __any(int predicate) {
  return static_cast<int>(__gpusym_wave_call(GPUSYM_WAVE_ANY, predicate != 0, __GPUSYM_ALL_LANES, warpSize));
}
static __device__ __GPUSYM_INLINE int __all(int predicate) {
  return static_cast<int>(__gpusym_wave_call(GPUSYM_WAVE_ALL, predicate != 0, __GPUSYM_ALL_LANES, warpSize));
}
static __device__ __GPUSYM_INLINE unsigned long long __activemask(void) {
  return __gpusym_wave_call(GPUSYM_WAVE_ACTIVE, 0, __GPUSYM_ALL_LANES, warpSize);
}
static __device__ __GPUSYM_INLINE void __syncwarp(void) {
  __gpusym_wave_call(GPUSYM_WAVE_SYNC, 0, __GPUSYM_ALL_LANES, warpSize);
}

/* synccheck (GPUSYM_CHECK): a *_sync form's mask must name only lanes that
 * take part: none that has exited or is past the end of the block, checked
 * once the wavefront has met (the lanes that had not started then have). */
#if defined(__AMDGCN__)
template <typename Mask>
static __device__ __GPUSYM_INLINE void __gpusym_check_sync_mask(Mask, const char *) {}
#else
extern "C" __device__ unsigned char __gpusym_checks;
extern "C" __device__ void __gpusym_check_mask(unsigned long long mask, const char *function);
template <typename Mask>
static __device__ __GPUSYM_INLINE void __gpusym_check_sync_mask(Mask mask, const char *function) {
  if (__builtin_expect(__gpusym_checks & 4, 0)) __gpusym_check_mask(static_cast<unsigned long long>(mask), function);
}
#endif

/* The *_sync forms: `mask` names the lanes taking part; the lanes that
 * reach the call meet as above, and a vote counts only the lanes of `mask`. */
template <typename Mask>
static __device__ __GPUSYM_INLINE void __syncwarp(Mask mask) {
  __syncwarp();
  __gpusym_check_sync_mask(mask, "__syncwarp");
}
template <typename Mask, typename T>
static __device__ __GPUSYM_INLINE T __shfl_sync(Mask mask, T var, int src_lane, int width = warpSize) {
  auto result = __shfl(var, src_lane, width);
  __gpusym_check_sync_mask(mask, "__shfl_sync");
  return result;
}
template <typename Mask, typename T>
static __device__ __GPUSYM_INLINE T __shfl_up_sync(Mask mask, T var, unsigned int delta, int width = warpSize) {
  auto result = __shfl_up(var, delta, width);
  __gpusym_check_sync_mask(mask, "__shfl_up_sync");
  return result;
}
template <typename Mask, typename T>
static __device__ __GPUSYM_INLINE T __shfl_down_sync(Mask mask, T var, unsigned int delta, int width = warpSize) {
  auto result = __shfl_down(var, delta, width);
  __gpusym_check_sync_mask(mask, "__shfl_down_sync");
  return result;
}
template <typename Mask, typename T>
static __device__ __GPUSYM_INLINE T __shfl_xor_sync(Mask mask, T var, int lane_mask, int width = warpSize) {
  auto result = __shfl_xor(var, lane_mask, width);
  __gpusym_check_sync_mask(mask, "__shfl_xor_sync");
  return result;
}
template <typename Mask>
static __device__ __GPUSYM_INLINE unsigned long long __ballot_sync(Mask mask, int predicate) {
  auto result = __gpusym_wave_call(GPUSYM_WAVE_BALLOT, predicate != 0, static_cast<long long>(mask), warpSize);
  __gpusym_check_sync_mask(mask, "__ballot_sync");
  return result;
}
template <typename Mask>
static __device__ __GPUSYM_INLINE int __any_sync(Mask mask, int predicate) {
  auto result = static_cast<int>(__gpusym_wave_call(GPUSYM_WAVE_ANY, predicate != 0, static_cast<long long>(mask), warpSize));
  __gpusym_check_sync_mask(mask, "__any_sync");
  return result;
}
template <typename Mask>
static __device__ __GPUSYM_INLINE int __all_sync(Mask mask, int predicate) {
  auto result = static_cast<int>(__gpusym_wave_call(GPUSYM_WAVE_ALL, predicate != 0, static_cast<long long>(mask), warpSize));
  __gpusym_check_sync_mask(mask, "__all_sync");
  return result;
}

#define __GPUSYM_REDUCE(name, op, type)                                                            \
  template <typename Mask>                                                                         \
  static __device__ __GPUSYM_INLINE type name(Mask mask, type value) {                             \
    type result = static_cast<type>(                                                               \
        __gpusym_wave_call(op, static_cast<unsigned int>(value), static_cast<long long>(mask), warpSize)); \
    __gpusym_check_sync_mask(mask, #name);                                                         \
    return result;                                                                                 \
  }
__GPUSYM_REDUCE(__reduce_add_sync, GPUSYM_WAVE_ADD_I32, int)
__GPUSYM_REDUCE(__reduce_add_sync, GPUSYM_WAVE_ADD_I32, unsigned int)
__GPUSYM_REDUCE(__reduce_min_sync, GPUSYM_WAVE_MIN_I32, int)
__GPUSYM_REDUCE(__reduce_min_sync, GPUSYM_WAVE_MIN_U32, unsigned int)
__GPUSYM_REDUCE(__reduce_max_sync, GPUSYM_WAVE_MAX_I32, int)
__GPUSYM_REDUCE(__reduce_max_sync, GPUSYM_WAVE_MAX_U32, unsigned int)
__GPUSYM_REDUCE(__reduce_and_sync, GPUSYM_WAVE_AND, unsigned int)
__GPUSYM_REDUCE(__reduce_or_sync, GPUSYM_WAVE_OR, unsigned int)
__GPUSYM_REDUCE(__reduce_xor_sync, GPUSYM_WAVE_XOR, unsigned int)
#undef __GPUSYM_REDUCE

#endif
