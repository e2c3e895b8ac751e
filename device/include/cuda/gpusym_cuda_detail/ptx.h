/*
 * Inline PTX's warp, block and runtime side.  The compile's inline_ptx pass
 * (device/passes/inline_ptx.cpp) turns an asm statement's PTX into IR: the
 * arithmetic into plain instructions, and every instruction that needs the
 * lanes of a warp, the block or the runtime (shuffles, votes, barriers,
 * special registers, clocks, trap) into a call of one of these functions,
 * which it finds by name.  They are written over CUDA's warp functions and
 * intrinsics, so once inlined a kernel's asm is what the same kernel written
 * with __shfl_sync, __ballot_sync or __syncthreads would be, on the
 * simulated device and on AMDGPU alike.  They are kept (used) until the pass
 * has run; it then lets them go.  Predicates travel as unsigned ints, and the
 * numbers of the modes and registers are the pass's.
 */
#ifndef GPUSYM_CUDA_PTX_H
#define GPUSYM_CUDA_PTX_H

#define __GPUSYM_PTX extern "C" __device__ __GPUSYM_INLINE __attribute__((used))

/* shfl: the source lane j of mode up (0), down (1), bfly (2) or idx (3) from
 * b and c (the clamp in bits 0-4, the segment mask in bits 8-12); the value
 * of lane j, or the lane's own when j is outside the segment, and bit 32 set
 * when it was inside.  `sync`: the .sync form, `mask` the lanes taking part. */
__GPUSYM_PTX unsigned long long __gpusym_ptx_shfl(unsigned int mode, unsigned int sync, unsigned int mask,
                                                  unsigned int value, unsigned int b, unsigned int c) {
  int lane = static_cast<int>(__lane_id() % 32u), segment = static_cast<int>((c >> 8) & 31u);
  int low = lane & segment, high = low | (static_cast<int>(c & 31u) & ~segment), offset = static_cast<int>(b);
  int source = mode == 0 ? lane - offset : mode == 1 ? lane + offset : mode == 2 ? lane ^ offset
                                                                           : low | (offset & ~segment);
  bool inside = mode == 0 ? source >= high : source <= high;
  source = inside ? source : lane;
  unsigned int got = sync ? __shfl_sync(mask, value, source, 32) : __shfl(value, source, 32);
  return got | static_cast<unsigned long long>(inside) << 32;
}

/* vote: ballot (0), any (1), all (2) or uni (3) of `predicate`. */
__GPUSYM_PTX unsigned int __gpusym_ptx_vote(unsigned int mode, unsigned int sync, unsigned int mask,
                                            unsigned int predicate) {
  if (mode == 0) return sync ? __ballot_sync(mask, predicate) : __ballot(predicate);
  int all = sync ? __all_sync(mask, predicate) : __all(predicate);
  int any = sync ? __any_sync(mask, predicate) : __any(predicate);
  return mode == 1 ? any : mode == 2 ? all : all || !any;
}

__GPUSYM_PTX unsigned int __gpusym_ptx_activemask(void) { return __activemask(); }
__GPUSYM_PTX void __gpusym_ptx_syncwarp(unsigned int mask) { __syncwarp(mask); }
/* bar.sync and barrier.sync, whatever their barrier and count: the block's. */
__GPUSYM_PTX void __gpusym_ptx_barrier(void) { __syncthreads(); }

/* match.any: the lanes of `mask` with this lane's value; match.all: `mask`
 * when all have it, else 0, and bit 32 set when they do. */
__GPUSYM_PTX unsigned int __gpusym_ptx_match_any(unsigned int mask, unsigned long long value) {
  return __match_any_sync(mask, value);
}
__GPUSYM_PTX unsigned long long __gpusym_ptx_match_all(unsigned int mask, unsigned long long value) {
  int all = 0;
  unsigned int lanes = __match_all_sync(mask, value, &all);
  return lanes | static_cast<unsigned long long>(all != 0) << 32;
}

/* redux.sync: add (0), min.s32 (1), min.u32 (2), max.s32 (3), max.u32 (4),
 * and (5), or (6), xor (7). */
__GPUSYM_PTX unsigned int __gpusym_ptx_redux(unsigned int op, unsigned int mask, unsigned int value) {
  int as_signed = static_cast<int>(value);
  switch (op) {
    case 0: return __reduce_add_sync(mask, value);
    case 1: return static_cast<unsigned int>(__reduce_min_sync(mask, as_signed));
    case 2: return __reduce_min_sync(mask, value);
    case 3: return static_cast<unsigned int>(__reduce_max_sync(mask, as_signed));
    case 4: return __reduce_max_sync(mask, value);
    case 5: return __reduce_and_sync(mask, value);
    case 6: return __reduce_or_sync(mask, value);
    default: return __reduce_xor_sync(mask, value);
  }
}

/* The special registers: %laneid (0), %warpid (1), %nwarpid (2),
 * %lanemask_eq, _lt, _le, _gt, _ge (3-7), %tid.x-z (8-10), %ntid.x-z
 * (11-13), %ctaid.x-z (14-16), %nctaid.x-z (17-19), %clock (20), %clock64
 * (21), %globaltimer (22, nanoseconds, as clock64 counts on the simulated
 * device), %globaltimer_lo and _hi (23, 24), %smid (25). */
__GPUSYM_PTX unsigned long long __gpusym_ptx_special(unsigned int which) {
  unsigned int lane = __lane_id() % 32u;
  /* The clock only where asked: a call the optimiser cannot drop, which
   * would keep every kernel reading %laneid from its fast form. */
  switch (which) {
    case 0: return lane;
    case 1:
      return (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) / 32u;
    case 2: return 64; /* the most warps a multiprocessor holds */
    case 3: return 1u << lane;
    case 4: return (1u << lane) - 1u;
    case 5: return (1u << lane) * 2u - 1u;
    case 6: return ~0u << lane << 1;
    case 7: return ~0u << lane;
    case 8: return threadIdx.x;
    case 9: return threadIdx.y;
    case 10: return threadIdx.z;
    case 11: return blockDim.x;
    case 12: return blockDim.y;
    case 13: return blockDim.z;
    case 14: return blockIdx.x;
    case 15: return blockIdx.y;
    case 16: return blockIdx.z;
    case 17: return gridDim.x;
    case 18: return gridDim.y;
    case 19: return gridDim.z;
    case 20: case 21: case 22: return static_cast<unsigned long long>(clock64());
    case 23: return static_cast<unsigned long long>(clock64()) & 0xffffffffu;
    case 24: return static_cast<unsigned long long>(clock64()) >> 32;
    default: return __smid();
  }
}

__GPUSYM_PTX void __gpusym_ptx_trap(void) { __trap(); }
__GPUSYM_PTX void __gpusym_ptx_nanosleep(unsigned int nanoseconds) { __nanosleep(nanoseconds); }

#undef __GPUSYM_PTX
#endif
