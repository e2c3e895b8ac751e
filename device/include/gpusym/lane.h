/*
 * The state of one simulated GPU thread (a "lane"), shared by the runtime and
 * the device code compiled for the simulated device.
 *
 * Device code reads its coordinates through the thread-local pointer
 * __gpusym_lane, which the runtime points at the lane it is running on the
 * current CPU thread.  The pointer is initial-exec TLS owned by the runtime, so
 * reading threadIdx.x costs one %fs-relative load.
 */
#ifndef GPUSYM_LANE_H
#define GPUSYM_LANE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

struct gpusym_dim3 {
  uint32_t x, y, z;
};

struct gpusym_lane {
  struct gpusym_dim3 thread_idx;
  struct gpusym_dim3 block_idx;
  struct gpusym_dim3 block_dim;
  struct gpusym_dim3 grid_dim;
  uint64_t dispatch_id;   /* the dispatch this lane belongs to */
  uint32_t flat_thread;   /* thread index within the block */
  uint32_t state;         /* enum gpusym_lane_state */
  void *saved_sp;         /* stack pointer while suspended at a barrier */
};

enum gpusym_lane_state {
  GPUSYM_LANE_UNSTARTED = 0,
  GPUSYM_LANE_RUNNING = 1,
  GPUSYM_LANE_AT_BARRIER = 2,
  GPUSYM_LANE_EXITED = 3,
  GPUSYM_LANE_AT_WAVE_OP = 4,     /* in a warp function, waiting for its wavefront */
  GPUSYM_LANE_WAVE_OP_DONE = 5,   /* its warp function has its result; it goes on next */
  /* At a barrier or not started, and held while a wavefront's lanes meet at
   * a warp function (the lanes of that wavefront waiting at the next
   * barrier, and the next wavefront's first lane). */
  GPUSYM_LANE_HELD_AT_BARRIER = 6,
  GPUSYM_LANE_HELD_UNSTARTED = 7,
};

/* Wavefronts: the lanes of a block in groups of GPUSYM_WAVE_SIZE, by their
 * flat index: 64 as on CDNA and gfx90a, or 32 as on RDNA, when the device
 * code is compiled for it (gpusym build -mno-wavefrontsize64, or an RDNA
 * --offload-arch).  The runtime runs each code object's kernels with the
 * size it was compiled for (its __gpusym_wave_size). */
#ifndef GPUSYM_WAVE_SIZE
#define GPUSYM_WAVE_SIZE 64
#endif
#define GPUSYM_MAX_WAVE_SIZE 64

/* What a warp function does with its wavefront's values (__gpusym_wave_meet). */
enum gpusym_wave_op {
  GPUSYM_WAVE_SHFL = 0,          /* arg: source lane */
  GPUSYM_WAVE_SHFL_UP = 1,       /* arg: delta */
  GPUSYM_WAVE_SHFL_DOWN = 2,     /* arg: delta */
  GPUSYM_WAVE_SHFL_XOR = 3,      /* arg: lane mask */
  GPUSYM_WAVE_BALLOT = 4,        /* value: predicate; arg: mask of the lanes asked for */
  GPUSYM_WAVE_ANY = 5,
  GPUSYM_WAVE_ALL = 6,
  GPUSYM_WAVE_ACTIVE = 7,        /* the active lanes' mask */
  GPUSYM_WAVE_SYNC = 8,          /* only the meeting */
  GPUSYM_WAVE_ADD_I32 = 9,       /* reductions over the active lanes in arg's mask */
  GPUSYM_WAVE_MIN_I32 = 10,
  GPUSYM_WAVE_MAX_I32 = 11,
  GPUSYM_WAVE_MIN_U32 = 12,
  GPUSYM_WAVE_MAX_U32 = 13,
  GPUSYM_WAVE_AND = 14,
  GPUSYM_WAVE_OR = 15,
  GPUSYM_WAVE_XOR = 16,
  /* An access to __shared__ memory in lockstep with the wavefront (the
   * simulated device's compile puts these in: wave_lockstep.cpp); value:
   * 1 a load, 2 a store; arg: the address.  Only the meeting. */
  GPUSYM_WAVE_STEP = 17,
  /* A warp's matrix multiply-accumulate, D = A * B + C (CUDA's
   * wmma::mma_sync): value: the lane's operands (below); arg: the shape and
   * the inputs' type, gpusym_mma_arg.  The lanes' accumulators get D. */
  GPUSYM_WAVE_MMA = 18,
};

/* The types of a matrix multiply's inputs.  The accumulator is a float for
 * the first three, an int32_t for the bytes and a double for doubles. */
enum gpusym_mma_type {
  GPUSYM_MMA_F16 = 0,  /* IEEE half */
  GPUSYM_MMA_BF16 = 1, /* bfloat16 */
  GPUSYM_MMA_TF32 = 2, /* a float, of which the 10 high bits of the mantissa count */
  GPUSYM_MMA_S8 = 3,
  GPUSYM_MMA_U8 = 4,
  GPUSYM_MMA_F64 = 5,
};

#if defined(__HIP__)
#define GPUSYM_HOST_DEVICE __host__ __device__
#else
#define GPUSYM_HOST_DEVICE
#endif

/* A matrix multiply's arg: A is M x K, B is K x N, C and D are M x N.
 * Each lane holds an equal share of each matrix: of its elements in
 * row-major order, the run of `elements / wave` at lane * that.  A lane's
 * operands are its share of A, then its share of B (of the inputs' type),
 * then its share of C as the accumulator's type, at the offset below, where
 * the runtime writes its share of D. */
static inline GPUSYM_HOST_DEVICE unsigned long long gpusym_mma_arg(unsigned m, unsigned n, unsigned k,
                                                                   enum gpusym_mma_type type) {
  return m | n << 8 | k << 16 | (unsigned long long)type << 24;
}
/* Where the accumulator's share starts: after the `inputs` elements of A's
 * and B's shares, of `input_size` bytes each, at a multiple of 8 bytes. */
static inline GPUSYM_HOST_DEVICE unsigned gpusym_mma_accumulator_offset(unsigned inputs, unsigned input_size) {
  return (inputs * input_size + 7) & ~7u;
}

/* Two values of a wave reduction combined (GPUSYM_WAVE_ADD_I32 to _XOR). */
static inline GPUSYM_HOST_DEVICE uint32_t gpusym_wave_combine(uint32_t op, uint32_t a, uint32_t b) {
  switch (op) {
    case GPUSYM_WAVE_ADD_I32: return a + b;
    case GPUSYM_WAVE_MIN_I32: return (int32_t)b < (int32_t)a ? b : a;
    case GPUSYM_WAVE_MAX_I32: return (int32_t)b > (int32_t)a ? b : a;
    case GPUSYM_WAVE_MIN_U32: return b < a ? b : a;
    case GPUSYM_WAVE_MAX_U32: return b > a ? b : a;
    case GPUSYM_WAVE_AND: return a & b;
    case GPUSYM_WAVE_OR: return a | b;
    default: return a ^ b;
  }
}

#ifdef __cplusplus
}
#endif

#endif
