/*
 * CUDA's warp functions where they differ from HIP's (hip/gpusym_detail/
 * warp_functions.h, which gives the shuffles, votes and reductions): lane
 * masks of 32 bits (__ballot, __ballot_sync and __activemask return an
 * unsigned int), and __match_any_sync and __match_all_sync.  A CUDA compile
 * has 32-lane warps, so the masks hold every lane.
 *
 * As in HIP's, the lanes that reach a call together take part, and a
 * *_sync form counts only the lanes of its mask; synccheck reports a mask
 * naming lanes that have exited.
 */
#ifndef GPUSYM_CUDA_WARP_H
#define GPUSYM_CUDA_WARP_H

static __device__ __GPUSYM_INLINE unsigned int __activemask(void) {
  return static_cast<unsigned int>(__gpusym_hip_activemask());
}
static __device__ __GPUSYM_INLINE unsigned int __ballot(int predicate) {
  return static_cast<unsigned int>(__gpusym_hip_ballot(predicate));
}
static __device__ __GPUSYM_INLINE unsigned int __ballot_sync(unsigned int mask, int predicate) {
  return static_cast<unsigned int>(__gpusym_hip_ballot_sync(mask, predicate));
}

/* The lanes of `mask` whose value has the same bits as this lane's: one
 * round per distinct value, its lowest lane's value voted on. */
template <typename T>
static __device__ __GPUSYM_INLINE unsigned int __match_any_sync(unsigned int mask, T value) {
  unsigned long long bits = __gpusym_wave_bits(value);
  unsigned int left = mask & static_cast<unsigned int>(__gpusym_wave_call(GPUSYM_WAVE_ACTIVE, 0, ~0ll, warpSize));
  unsigned int same = 0;
  while (left) {
    unsigned long long leader = __gpusym_wave_call(GPUSYM_WAVE_SHFL, bits, __builtin_ctz(left), warpSize);
    unsigned int group = static_cast<unsigned int>(__gpusym_wave_call(GPUSYM_WAVE_BALLOT, bits == leader, left, warpSize));
    if (bits == leader) same = group;
    left &= ~group;
  }
  __gpusym_check_sync_mask(mask, "__match_any_sync");
  return same;
}

/* `mask` when every lane of it has the same value (*pred set to 1), else 0. */
template <typename T>
static __device__ __GPUSYM_INLINE unsigned int __match_all_sync(unsigned int mask, T value, int *pred) {
  unsigned long long bits = __gpusym_wave_bits(value);
  unsigned long long first = __gpusym_wave_call(GPUSYM_WAVE_SHFL, bits, mask ? __builtin_ctz(mask) : 0, warpSize);
  int all = static_cast<int>(__gpusym_wave_call(GPUSYM_WAVE_ALL, bits == first, mask, warpSize));
  __gpusym_check_sync_mask(mask, "__match_all_sync");
  *pred = all;
  return all ? mask : 0u;
}

#endif
