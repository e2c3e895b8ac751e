/*
 * clang's AMDGPU builtins that mean something on a wavefront, for the
 * simulated device: lane counts and cross-lane reads (mbcnt, readfirstlane,
 * readlane, ds_bpermute, ds_permute, ds_swizzle, update_dpp and mov_dpp),
 * timing and scheduling (s_sleep, s_memtime, s_memrealtime, s_waitcnt,
 * wave_barrier, s_barrier, fence) and the work-item queries (workitem_id_*,
 * workgroup_id_*), each as the ISA defines it on a wavefront of
 * GPUSYM_WAVE_SIZE (64 or 32) lanes.
 *
 * On AMDGPU they are clang's own, and the host pass of a HIP compile knows
 * them as its auxiliary target's, so only the simulated device's compile
 * (x86-64, where clang has none of them) gets these functions of the same
 * names and types (int, as clang 19 declares them; other values convert as
 * they do for the builtin).  Every other __builtin_amdgcn_* stays undeclared
 * there, and the driver names it (device/compiler/amdgpu_code.py).
 *
 * The cross-lane ones meet the wavefront as the warp functions do
 * (warp_functions.h: __gpusym_wave_call): the lanes that reach the call
 * together are the active ones, and a read of a lane that is not active
 * gives 0 (ds_bpermute, ds_permute, ds_swizzle, readlane) or counts as an
 * invalid source lane (DPP).
 */
#ifndef GPUSYM_AMDGPU_BUILTINS_H
#define GPUSYM_AMDGPU_BUILTINS_H

#if defined(__HIP_DEVICE_COMPILE__) && !defined(__AMDGCN__)

#define __GPUSYM_AMDGCN static __device__ __GPUSYM_INLINE

extern "C" __device__ long long __gpusym_clock64(void);
extern "C" __device__ long long __gpusym_wall_clock64(void);
extern "C" __device__ void __gpusym_nanosleep(unsigned int nanoseconds);

/* ---- work-item queries ---- */

__GPUSYM_AMDGCN unsigned int __builtin_amdgcn_workitem_id_x(void) { return __gpusym_lane->thread_idx.x; }
__GPUSYM_AMDGCN unsigned int __builtin_amdgcn_workitem_id_y(void) { return __gpusym_lane->thread_idx.y; }
__GPUSYM_AMDGCN unsigned int __builtin_amdgcn_workitem_id_z(void) { return __gpusym_lane->thread_idx.z; }
__GPUSYM_AMDGCN unsigned int __builtin_amdgcn_workgroup_id_x(void) { return __gpusym_lane->block_idx.x; }
__GPUSYM_AMDGCN unsigned int __builtin_amdgcn_workgroup_id_y(void) { return __gpusym_lane->block_idx.y; }
__GPUSYM_AMDGCN unsigned int __builtin_amdgcn_workgroup_id_z(void) { return __gpusym_lane->block_idx.z; }

/* ---- lane counts: v_mbcnt_lo_u32_b32, v_mbcnt_hi_u32_b32 ----
 * acc plus the bits of `mask` that stand for the lanes below this one:
 * lanes 0-31 for mbcnt_lo, lanes 32-63 for mbcnt_hi (none on 32 lanes). */

__GPUSYM_AMDGCN unsigned int __builtin_amdgcn_mbcnt_lo(unsigned int mask, unsigned int acc) {
  unsigned int lane = __lane_id();
  unsigned int below = lane >= 32 ? ~0u : (1u << lane) - 1;
  return acc + static_cast<unsigned int>(__builtin_popcount(mask & below));
}
__GPUSYM_AMDGCN unsigned int __builtin_amdgcn_mbcnt_hi(unsigned int mask, unsigned int acc) {
  unsigned int lane = __lane_id();
  unsigned int below = lane >= 32 ? (1u << (lane - 32)) - 1 : 0u;
  return acc + static_cast<unsigned int>(__builtin_popcount(mask & below));
}

/* ---- cross-lane reads ---- */

/* Lane `source` (of the wavefront, 0 to GPUSYM_WAVE_SIZE - 1) of `value`,
 * with bit 32 set when that lane is active (it met this call): every active
 * lane must call it, whatever it reads. */
__GPUSYM_AMDGCN unsigned long long __gpusym_amdgcn_read(int value, unsigned int source) {
  unsigned long long marked = (1ull << 32) | static_cast<unsigned int>(value);
  return __gpusym_wave_call(GPUSYM_WAVE_SHFL, marked, source & (GPUSYM_WAVE_SIZE - 1), GPUSYM_WAVE_SIZE);
}

/* The active lanes of the wavefront (bit i: its lane i). */
__GPUSYM_AMDGCN unsigned long long __gpusym_amdgcn_active(void) {
  return __gpusym_wave_call(GPUSYM_WAVE_ACTIVE, 0, __GPUSYM_ALL_LANES, GPUSYM_WAVE_SIZE);
}

/* v_readfirstlane_b32: the value of the first active lane, for all (two
 * meetings: which lanes are active, then the read). */
__GPUSYM_AMDGCN int __builtin_amdgcn_readfirstlane(int value) {
  unsigned int first = static_cast<unsigned int>(__builtin_ctzll(__gpusym_amdgcn_active()));
  return static_cast<int>(__gpusym_amdgcn_read(value, first));
}

/* v_readlane_b32: the value of lane `lane` (modulo the wavefront; the
 * builtin asks for the same one in every lane); 0 if it is not active. */
__GPUSYM_AMDGCN int __builtin_amdgcn_readlane(int value, int lane) {
  unsigned long long got = __gpusym_amdgcn_read(value, static_cast<unsigned int>(lane));
  return got >> 32 ? static_cast<int>(got) : 0;
}

/* ds_bpermute_b32: the value of lane address / 4 (modulo the wavefront); 0
 * if it is not active. */
__GPUSYM_AMDGCN int __builtin_amdgcn_ds_bpermute(int address, int value) {
  unsigned long long got = __gpusym_amdgcn_read(value, static_cast<unsigned int>(address) >> 2);
  return got >> 32 ? static_cast<int>(got) : 0;
}

/* ds_permute_b32: each active lane writes its value to lane address / 4
 * (modulo the wavefront), and each lane reads what was written to it: the
 * highest writer's value, 0 if none wrote.  The writers of each lane come
 * from a ballot of each bit of the destinations (with the active lanes and
 * the read, 8 meetings on 64 lanes, 7 on 32). */
__GPUSYM_AMDGCN int __builtin_amdgcn_ds_permute(int address, int value) {
  unsigned int lane = __lane_id();
  unsigned int target = (static_cast<unsigned int>(address) >> 2) & (GPUSYM_WAVE_SIZE - 1);
  unsigned long long writers = __gpusym_amdgcn_active();
  for (unsigned int bit = 1; bit < GPUSYM_WAVE_SIZE; bit <<= 1) {
    unsigned long long set = __gpusym_wave_call(GPUSYM_WAVE_BALLOT, (target & bit) != 0, __GPUSYM_ALL_LANES,
                                                GPUSYM_WAVE_SIZE);
    writers &= lane & bit ? set : ~set;
  }
  unsigned int source = writers ? 63u - static_cast<unsigned int>(__builtin_clzll(writers)) : lane;
  unsigned long long got = __gpusym_amdgcn_read(value, source);
  return writers ? static_cast<int>(got) : 0;
}

/* ds_swizzle_b32: with bit 15 of `pattern` set, a permutation of each four
 * lanes (lane i of a quad reads lane pattern bits [2i+1:2i] of it); without
 * it, each lane of each 32 reads lane ((lane & and) | or) ^ xor, the masks
 * bits [4:0], [9:5] and [14:10].  A source lane that is not active gives 0. */
__GPUSYM_AMDGCN int __builtin_amdgcn_ds_swizzle(int value, int pattern) {
  unsigned int lane = __lane_id(), bits = static_cast<unsigned int>(pattern), source;
  if (bits & 0x8000u) {
    source = (lane & ~3u) | ((bits >> ((lane & 3u) * 2)) & 3u);
  } else {
    unsigned int and_mask = bits & 31u, or_mask = (bits >> 5) & 31u, xor_mask = (bits >> 10) & 31u;
    source = (lane & 32u) | ((((lane & and_mask) | or_mask) ^ xor_mask) & 31u);
  }
  unsigned long long got = __gpusym_amdgcn_read(value, source);
  return got >> 32 ? static_cast<int>(got) : 0;
}

/* The lane a DPP control has lane `lane` read, -1 for none (out of its row
 * or of the wavefront, or a reserved control).  Rows are 16 lanes. */
__GPUSYM_AMDGCN int __gpusym_dpp_source(int lane, int control) {
  int row = lane & ~15, in_row = lane & 15, count = control & 15;
  if (control >= 0 && control <= 0xff) return (lane & ~3) | ((control >> ((lane & 3) * 2)) & 3);  // quad_perm
  if (control >= 0x100 && control <= 0x10f) return in_row + count < 16 ? lane + count : -1;  // row_shl
  if (control >= 0x110 && control <= 0x11f) return in_row >= count ? lane - count : -1;      // row_shr
  if (control >= 0x120 && control <= 0x12f) return row | ((in_row - count) & 15);            // row_ror
  switch (control) {
    case 0x130: return lane + 1 < GPUSYM_WAVE_SIZE ? lane + 1 : -1;  // wave_shl:1
    case 0x134: return (lane + 1) & (GPUSYM_WAVE_SIZE - 1);          // wave_rol:1
    case 0x138: return lane - 1;                                     // wave_shr:1
    case 0x13c: return (lane - 1) & (GPUSYM_WAVE_SIZE - 1);          // wave_ror:1
    case 0x140: return row | (15 - in_row);                          // row_mirror
    case 0x141: return (lane & ~7) | (7 - (lane & 7));               // row_half_mirror
    case 0x142: return row > 0 ? row - 1 : -1;                       // row_bcast:15, to the next row
    case 0x143: return lane >= 32 ? 31 : -1;                         // row_bcast:31, to rows 2 and 3
  }
  if (control >= 0x150 && control <= 0x15f) return row | count;              // row_share (row_newbcast)
  if (control >= 0x160 && control <= 0x16f) return row | (in_row ^ count);   // row_xmask
  return -1;
}

/* v_mov_b32 with DPP: lanes that row_mask (a bit a row) or bank_mask (a bit
 * for each 4 lanes of a row) leave out keep `old`; a lane whose source is
 * invalid (out of range, or not active) gets 0 with bound_ctrl, else
 * keeps `old`. */
__GPUSYM_AMDGCN int __builtin_amdgcn_update_dpp(int old, int src, int dpp_ctrl, int row_mask, int bank_mask,
                                                bool bound_ctrl) {
  int lane = static_cast<int>(__lane_id());
  int source = __gpusym_dpp_source(lane, dpp_ctrl);
  bool in_range = source >= 0 && source < GPUSYM_WAVE_SIZE;
  unsigned long long got = __gpusym_amdgcn_read(src, static_cast<unsigned int>(in_range ? source : lane));
  if (!(row_mask >> (lane >> 4) & 1) || !(bank_mask >> ((lane >> 2) & 3) & 1)) return old;
  if (in_range && got >> 32) return static_cast<int>(got);
  return bound_ctrl ? 0 : old;
}

/* The same with no old value: 0 (a register's undefined contents on AMDGPU). */
__GPUSYM_AMDGCN int __builtin_amdgcn_mov_dpp(int src, int dpp_ctrl, int row_mask, int bank_mask, bool bound_ctrl) {
  return __builtin_amdgcn_update_dpp(0, src, dpp_ctrl, row_mask, bank_mask, bound_ctrl);
}

/* ---- timing and scheduling ---- */

/* s_sleep n: about 64 * n clocks (n of 0 to 127), at the 1 GHz clock64 counts. */
__GPUSYM_AMDGCN void __builtin_amdgcn_s_sleep(int n) {
  __gpusym_nanosleep(64u * (static_cast<unsigned int>(n) & 127u));
}
/* s_memtime: the shader clock, clock64's; s_memrealtime: the constant
 * 100 MHz clock, wall_clock64's. */
__GPUSYM_AMDGCN unsigned long long __builtin_amdgcn_s_memtime(void) {
  return static_cast<unsigned long long>(__gpusym_clock64());
}
__GPUSYM_AMDGCN unsigned long long __builtin_amdgcn_s_memrealtime(void) {
  return static_cast<unsigned long long>(__gpusym_wall_clock64());
}
/* s_waitcnt: a lane's memory operations have all completed when its next
 * instruction runs, so there is nothing to wait for; it still orders them
 * with what follows (rocPRIM's release before a look-back flag). */
__GPUSYM_AMDGCN void __builtin_amdgcn_s_waitcnt(int) { __atomic_thread_fence(__ATOMIC_SEQ_CST); }
/* The wavefront's active lanes meet, as at __syncwarp. */
__GPUSYM_AMDGCN void __builtin_amdgcn_wave_barrier(void) {
  __gpusym_wave_call(GPUSYM_WAVE_SYNC, 0, __GPUSYM_ALL_LANES, GPUSYM_WAVE_SIZE);
}
/* The block's barrier, __syncthreads'. */
__GPUSYM_AMDGCN void __builtin_amdgcn_s_barrier(void) { __gpusym_barrier(); }
/* A fence of `order` (__ATOMIC_ACQUIRE to __ATOMIC_SEQ_CST); the block's
 * lanes share a CPU thread, the device's are the host's threads, so any
 * scope is the host's. */
template <typename... AddressSpaces>
__GPUSYM_AMDGCN void __builtin_amdgcn_fence(unsigned int order, const char *, AddressSpaces...) {
  __atomic_thread_fence(static_cast<int>(order));
}

#undef __GPUSYM_AMDGCN

#endif

#endif
