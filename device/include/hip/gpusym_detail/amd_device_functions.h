/*
 * Device functions of AMD's HIP headers over the wavefront (warp_functions.h)
 * and the lane: lane masks, __mbcnt_lo/hi, __match_any and __match_all (and
 * their *_sync forms, of 64-bit masks), __fns32/__fns64, the clocks,
 * __smid and __get_dynamicgroupbaseptr.  Masks are of the wavefront's
 * lanes, GPUSYM_WAVE_SIZE (64, or 32 on RDNA targets), bit i for lane i.
 */
#ifndef GPUSYM_AMD_DEVICE_FUNCTIONS_H
#define GPUSYM_AMD_DEVICE_FUNCTIONS_H

#define __GPUSYM_AMD static __device__ __GPUSYM_INLINE

/* ---- lane masks and counts ---- */

__GPUSYM_AMD unsigned long long __gpusym_active_lanes(void) {
  return __gpusym_wave_call(GPUSYM_WAVE_ACTIVE, 0, __GPUSYM_ALL_LANES, warpSize);
}
__GPUSYM_AMD uint64_t __lanemask_eq(void) { return 1ull << __lane_id(); }
/* The active lanes below this one, and above it. */
__GPUSYM_AMD uint64_t __lanemask_lt(void) { return ((1ull << __lane_id()) - 1) & __gpusym_active_lanes(); }
__GPUSYM_AMD uint64_t __lanemask_gt(void) { return (~0ull << __lane_id() << 1) & __gpusym_active_lanes(); }

__GPUSYM_AMD unsigned int __mbcnt_lo(unsigned int mask, unsigned int acc) {
  return __builtin_amdgcn_mbcnt_lo(mask, acc);
}
__GPUSYM_AMD unsigned int __mbcnt_hi(unsigned int mask, unsigned int acc) {
  return __builtin_amdgcn_mbcnt_hi(mask, acc);
}

/* ---- match: the lanes whose value has the same bits ---- */

/* The lanes of `mask` (and active) whose value is this lane's: one round
 * per distinct value, its lowest lane's value voted on. */
__GPUSYM_AMD unsigned long long __gpusym_match_any(unsigned long long mask, unsigned long long bits) {
  unsigned long long left = mask & __gpusym_active_lanes(), same = 0;
  while (left) {
    unsigned long long leader = __gpusym_wave_call(GPUSYM_WAVE_SHFL, bits, __builtin_ctzll(left), warpSize);
    unsigned long long group = __gpusym_wave_call(GPUSYM_WAVE_BALLOT, bits == leader, left, warpSize);
    if (bits == leader) same = group;
    left &= ~group;
  }
  return same;
}

/* `mask` when every lane of it has the same value (*pred set to 1), else 0. */
__GPUSYM_AMD unsigned long long __gpusym_match_all(unsigned long long mask, unsigned long long bits, int *pred) {
  unsigned long long first = __gpusym_wave_call(GPUSYM_WAVE_SHFL, bits, mask ? __builtin_ctzll(mask) : 0, warpSize);
  *pred = static_cast<int>(__gpusym_wave_call(GPUSYM_WAVE_ALL, bits == first, static_cast<long long>(mask), warpSize));
  return *pred ? mask : 0;
}

template <typename T>
__GPUSYM_AMD unsigned long long __match_any(T value) {
  return __gpusym_match_any(~0ull, __gpusym_wave_bits(value));
}
template <typename T>
__GPUSYM_AMD unsigned long long __match_all(T value, int *pred) {
  return __gpusym_match_all(__gpusym_active_lanes(), __gpusym_wave_bits(value), pred);
}

/* The *_sync forms take HIP's 64-bit masks only: a 32-bit one is CUDA's
 * (gpusym's CUDA headers give those forms, returning 32-bit masks). */
template <bool>
struct __gpusym_mask64 {};
template <>
struct __gpusym_mask64<true> {
  typedef unsigned long long type;
};
template <typename MaskT, typename T>
__GPUSYM_AMD typename __gpusym_mask64<sizeof(MaskT) == 8>::type __match_any_sync(MaskT mask, T value) {
  unsigned long long result = __gpusym_match_any(mask, __gpusym_wave_bits(value));
  __gpusym_check_sync_mask(mask, "__match_any_sync");
  return result;
}
template <typename MaskT, typename T>
__GPUSYM_AMD typename __gpusym_mask64<sizeof(MaskT) == 8>::type __match_all_sync(MaskT mask, T value, int *pred) {
  unsigned long long result = __gpusym_match_all(mask, __gpusym_wave_bits(value), pred);
  __gpusym_check_sync_mask(mask, "__match_all_sync");
  return result;
}

/* ---- __fns: the bit `offset` set bits from `base` ----
 * offset 0: base itself if set; n > 0: the nth set bit at or above base;
 * -n: the nth at or below it; ~0u when there is none (or base is past the
 * mask's `width` bits). */
__GPUSYM_AMD unsigned int __gpusym_fns(unsigned long long mask, int width, unsigned int base, int offset) {
  int left = offset > 0 ? offset : offset < 0 ? -offset : 1, step = offset < 0 ? -1 : 1;
  if (offset == 0) mask &= 1ull << (base & 63);
  for (int bit = static_cast<int>(base); bit >= 0 && bit < width; bit += step)
    if ((mask >> bit) & 1 && --left == 0) return static_cast<unsigned int>(bit);
  return ~0u;
}
__GPUSYM_AMD unsigned int __fns64(unsigned long long mask, unsigned int base, int offset) {
  return __gpusym_fns(mask, 64, base, offset);
}
__GPUSYM_AMD unsigned int __fns32(unsigned int mask, unsigned int base, int offset) {
  return __gpusym_fns(mask, 32, base, offset);
}
#ifndef __CUDA_RUNTIME_H__ /* a CUDA compile has CUDA's own (gpusym_cuda_detail/intrinsics.h) */
__GPUSYM_AMD unsigned int __fns(unsigned int mask, unsigned int base, int offset) {
  return __fns32(mask, base, offset);
}
#endif

/* ---- clocks, ids, dynamic shared memory ---- */

__GPUSYM_AMD long long __clock64(void) { return clock64(); }
__GPUSYM_AMD long long __clock(void) { return clock64(); }

#if defined(__AMDGCN__)
/* The hardware's ids (s_getreg of HW_ID, HW_ID1 from GFX10): the shader
 * engine's above the compute unit's (work-group processor's). */
#if defined(__GFX9__)
__GPUSYM_AMD unsigned int __smid(void) {
  return (__builtin_amdgcn_s_getreg((2 << 11) | (13 << 6) | 4) << 4) | __builtin_amdgcn_s_getreg((3 << 11) | (8 << 6) | 4);
}
#else
__GPUSYM_AMD unsigned int __smid(void) {
  return (__builtin_amdgcn_s_getreg((2 << 11) | (18 << 6) | 23) << 4) |
         __builtin_amdgcn_s_getreg((3 << 11) | (10 << 6) | 23);
}
#endif
#else
/* The compute unit running the block: the worker thread's number, 0 to
 * multiProcessorCount - 1 (device_ids.cpp). */
extern "C" __device__ unsigned int __gpusym_smid(void);
__GPUSYM_AMD unsigned int __smid(void) { return __gpusym_smid(); }
#endif

/* Every extern __shared__ array is the block's dynamic shared memory. */
__GPUSYM_AMD void *__get_dynamicgroupbaseptr(void) {
  extern __shared__ unsigned char __hip_dynamic_group_base[];
  return __hip_dynamic_group_base;
}

/* The four bytes of a word (HIP's helper of __byte_perm). */
struct ucharHolder {
  union {
    unsigned char c[4];
    unsigned int ui;
  };
} __attribute__((aligned(4)));

#undef __GPUSYM_AMD

#endif
