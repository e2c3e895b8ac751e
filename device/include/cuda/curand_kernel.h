/*
 * cuRAND's device API: the XORWOW generator (curandState_t,
 * curandStateXORWOW_t) and Philox4x32-10 (curandStatePhilox4_32_10_t), with
 * curand_init, curand, curand_uniform(_double), curand_normal(_double),
 * curand_normal2(_double), curand_log_normal(_double), curand_poisson,
 * skipahead and skipahead_sequence; for Philox also curand4,
 * curand_uniform4, curand_normal4 and curand_uniform2_double.
 *
 * The sequences are cuRAND's, from the published definitions:
 *
 * XORWOW (Marsaglia, "Xorshift RNGs", 2003): state v[0..4] and d.  A step:
 *   t = v0 ^ (v0 >> 2); v0..v3 = v1..v4; v4 = (v4 ^ (v4 << 4)) ^ (t ^ (t << 1));
 *   d += 362437; the output is v4 + d.
 * cuRAND's seeding: s0 = low32(seed) ^ 0xaad26b49, s1 = high32(seed) ^
 * 0xf7dcefdd, t0 = 1099087573 * s0, t1 = 2591861531 * s1 (mod 2^32);
 * d = 6615241 + t1 + t0, v = {123456789 + t0, 362436069 ^ t0,
 * 521288629 + t1, 88675123 ^ t1, 5783321 + t0}; then subsequence skips of
 * 2^67 steps and offset skips of 1 step.  The step is linear on v over
 * GF(2): a skip of n applies the 160x160 bit matrix M^n to v (powers M^(2^k)
 * computed by squaring on first use) and adds 362437 n to d.
 *
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
 * 3", SC 2011): ten rounds on a 128-bit counter with a 64-bit key, the key
 * bumped by (0x9E3779B9, 0xBB67AE85) between rounds; a round with
 * multipliers 0xD2511F53 (on word 0) and 0xCD9E8D57 (on word 2) maps
 * (c0, c1, c2, c3) to (hi(M1 c2) ^ c1 ^ k0, lo(M1 c2), hi(M0 c0) ^ c3 ^ k1,
 * lo(M0 c0)).  cuRAND's use: key = seed (low word first); the counter's
 * high 64 bits are the subsequence, its low 64 bits count blocks of four
 * outputs; offset n starts at output n % 4 of block n / 4.
 *
 * Distributions: curand_uniform is x 2^-32 + 2^-33 in float, in (0, 1];
 * curand_uniform_double takes two outputs x, y: (x ^ (y << 21)) 2^-53 +
 * 2^-54.  curand_normal is Box-Muller on two outputs x, y: u = x 2^-32 +
 * 2^-33, v = y 2^-32 2pi + 2^-33 2pi, sqrt(-2 ln u) (sin v, cos v); one
 * call returns the first and keeps the second for the next call.
 * curand_normal_double is the same on four outputs, u and v made as
 * curand_uniform_double's (v from 2^-52 steps, times pi with sincospi).
 * curand_poisson counts uniforms multiplied under e^-lambda (Knuth) for
 * lambda < 64, else rounds a normal of mean and variance lambda: its
 * distribution, not cuRAND's exact values.
 */
#ifndef GPUSYM_CURAND_KERNEL_H
#define GPUSYM_CURAND_KERNEL_H

#include "cuda_runtime.h"

#define __GPUSYM_CURAND static __device__ __GPUSYM_INLINE

/* Box-Muller's cached second values, common to the generators. */
struct __gpusym_curand_normals {
  int boxmuller_flag;
  int boxmuller_flag_double;
  float boxmuller_extra;
  double boxmuller_extra_double;
};

struct curandStateXORWOW : __gpusym_curand_normals {
  unsigned int d;
  unsigned int v[5];
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 : __gpusym_curand_normals {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

/* ---- XORWOW ---- */

/* The bit matrices M^(2^k) of the step on v, for skips of 2^k steps (k < 64)
 * and of 2^(67 + k) steps (subsequences), each as 160 columns of 5 words. */
#define __GPUSYM_XORWOW_BITS 160
struct __gpusym_xorwow_jumps {
  unsigned int ready;  /* 0, 1 while one lane computes them, 2 */
  unsigned int offset[64][__GPUSYM_XORWOW_BITS][5];
  unsigned int subsequence[64][__GPUSYM_XORWOW_BITS][5];
};
static __device__ __gpusym_xorwow_jumps __gpusym_xorwow_table;

__GPUSYM_CURAND void __gpusym_xorwow_step(unsigned int v[5]) {
  unsigned int t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

/* v = A v over GF(2). */
__GPUSYM_CURAND void __gpusym_xorwow_apply(const unsigned int (*a)[5], unsigned int v[5]) {
  unsigned int r[5] = {0, 0, 0, 0, 0};
  for (int j = 0; j < __GPUSYM_XORWOW_BITS; j++)
    if ((v[j / 32] >> (j % 32)) & 1)
      for (int w = 0; w < 5; w++) r[w] ^= a[j][w];
  for (int w = 0; w < 5; w++) v[w] = r[w];
}

static __device__ inline void __gpusym_xorwow_build(__gpusym_xorwow_jumps &table) {
  unsigned int power[__GPUSYM_XORWOW_BITS][5];
  for (int j = 0; j < __GPUSYM_XORWOW_BITS; j++) {  /* M: the step of each unit vector */
    for (int w = 0; w < 5; w++) power[j][w] = w == j / 32 ? 1u << (j % 32) : 0u;
    __gpusym_xorwow_step(power[j]);
  }
  for (int k = 0; k < 67 + 64; k++) {  /* power is M^(2^k) */
    if (k < 64) __builtin_memcpy(table.offset[k], power, sizeof power);
    if (k >= 67) __builtin_memcpy(table.subsequence[k - 67], power, sizeof power);
    unsigned int square[__GPUSYM_XORWOW_BITS][5];
    __builtin_memcpy(square, power, sizeof power);
    for (int j = 0; j < __GPUSYM_XORWOW_BITS; j++) __gpusym_xorwow_apply(power, square[j]);
    __builtin_memcpy(power, square, sizeof power);
  }
}

/* The table, computed by the first lane to need it while the others wait
 * (a lane computing never yields to another, so none waits on its own CPU
 * thread). */
__GPUSYM_CURAND const __gpusym_xorwow_jumps &__gpusym_xorwow_jump_table() {
  __gpusym_xorwow_jumps &table = __gpusym_xorwow_table;
  if (__hip_atomic_load(&table.ready, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM) != 2) {
    unsigned int expected = 0;
    if (__hip_atomic_compare_exchange_strong(&table.ready, &expected, 1u, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE,
                                             __HIP_MEMORY_SCOPE_SYSTEM)) {
      __gpusym_xorwow_build(table);
      __hip_atomic_store(&table.ready, 2u, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
    }
    while (__hip_atomic_load(&table.ready, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM) != 2) __nanosleep(1000);
  }
  return table;
}

__GPUSYM_CURAND void skipahead(unsigned long long n, curandStateXORWOW_t *state) {
  const __gpusym_xorwow_jumps &table = __gpusym_xorwow_jump_table();
  state->d += 362437u * static_cast<unsigned int>(n);
  for (int k = 0; n; k++, n >>= 1)
    if (n & 1) __gpusym_xorwow_apply(table.offset[k], state->v);
}
/* 2^67 steps each; d moves by a multiple of 2^32. */
__GPUSYM_CURAND void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state) {
  const __gpusym_xorwow_jumps &table = __gpusym_xorwow_jump_table();
  for (int k = 0; n; k++, n >>= 1)
    if (n & 1) __gpusym_xorwow_apply(table.subsequence[k], state->v);
}

__GPUSYM_CURAND void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                 curandStateXORWOW_t *state) {
  unsigned int t0 = 1099087573u * (static_cast<unsigned int>(seed) ^ 0xaad26b49u);
  unsigned int t1 = 2591861531u * (static_cast<unsigned int>(seed >> 32) ^ 0xf7dcefddu);
  state->d = 6615241u + t1 + t0;
  state->v[0] = 123456789u + t0;
  state->v[1] = 362436069u ^ t0;
  state->v[2] = 521288629u + t1;
  state->v[3] = 88675123u ^ t1;
  state->v[4] = 5783321u + t0;
  if (subsequence) skipahead_sequence(subsequence, state);
  if (offset) skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

__GPUSYM_CURAND unsigned int curand(curandStateXORWOW_t *state) {
  __gpusym_xorwow_step(state->v);
  state->d += 362437u;
  return state->v[4] + state->d;
}

/* ---- Philox4x32-10 ---- */

__GPUSYM_CURAND uint4 __gpusym_philox(uint4 c, uint2 k) {
  for (int round = 0; round < 10; round++) {
    if (round) {
      k.x += 0x9E3779B9u;
      k.y += 0xBB67AE85u;
    }
    unsigned long long p0 = 0xD2511F53ull * c.x, p1 = 0xCD9E8D57ull * c.z;
    c = make_uint4(static_cast<unsigned int>(p1 >> 32) ^ c.y ^ k.x, static_cast<unsigned int>(p1),
                   static_cast<unsigned int>(p0 >> 32) ^ c.w ^ k.y, static_cast<unsigned int>(p0));
  }
  return c;
}

/* The counter's low (or, `high`, high) 64 bits advanced by n, carried on. */
__GPUSYM_CURAND void __gpusym_philox_advance(curandStatePhilox4_32_10_t *state, unsigned long long n, bool high) {
  unsigned int *words[4] = {&state->ctr.x, &state->ctr.y, &state->ctr.z, &state->ctr.w};
  unsigned long long carry = n;
  for (int i = high ? 2 : 0; i < 4 && carry; i++) {
    unsigned long long sum = *words[i] + (carry & 0xffffffffu);
    *words[i] = static_cast<unsigned int>(sum);
    carry = (carry >> 32) + (sum >> 32);
  }
  state->output = __gpusym_philox(state->ctr, state->key);
}

__GPUSYM_CURAND void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  unsigned long long blocks = n / 4;
  state->STATE += static_cast<unsigned int>(n % 4);
  if (state->STATE > 3) {
    blocks++;
    state->STATE -= 4;
  }
  __gpusym_philox_advance(state, blocks, false);
}
__GPUSYM_CURAND void skipahead_sequence(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  __gpusym_philox_advance(state, n, true);
}

__GPUSYM_CURAND void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                 curandStatePhilox4_32_10_t *state) {
  state->ctr = make_uint4(0, 0, 0, 0);
  state->key = make_uint2(static_cast<unsigned int>(seed), static_cast<unsigned int>(seed >> 32));
  state->STATE = 0;
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
  skipahead_sequence(subsequence, state);
  skipahead(offset, state);
}

__GPUSYM_CURAND unsigned int curand(curandStatePhilox4_32_10_t *state) {
  const unsigned int words[4] = {state->output.x, state->output.y, state->output.z, state->output.w};
  unsigned int result = words[state->STATE++];
  if (state->STATE == 4) {
    state->STATE = 0;
    __gpusym_philox_advance(state, 1, false);
  }
  return result;
}

/* The next four outputs. */
__GPUSYM_CURAND uint4 curand4(curandStatePhilox4_32_10_t *state) {
  uint4 now = state->output;
  unsigned int start = state->STATE;
  __gpusym_philox_advance(state, 1, false);
  const unsigned int words[8] = {now.x, now.y, now.z, now.w,
                                 state->output.x, state->output.y, state->output.z, state->output.w};
  return make_uint4(words[start], words[start + 1], words[start + 2], words[start + 3]);
}

/* ---- distributions, for both generators ---- */

#define __GPUSYM_CURAND_2POW32_INV 2.3283064e-10f
#define __GPUSYM_CURAND_2POW53_INV 1.1102230246251565e-16
#define __GPUSYM_CURAND_2PI 6.2831855f

__GPUSYM_CURAND float __gpusym_curand_uniform(unsigned int x) {
  return x * __GPUSYM_CURAND_2POW32_INV + __GPUSYM_CURAND_2POW32_INV / 2.0f;
}
__GPUSYM_CURAND double __gpusym_curand_uniform_double(unsigned int x, unsigned int y) {
  unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << 21);
  return z * __GPUSYM_CURAND_2POW53_INV + __GPUSYM_CURAND_2POW53_INV / 2.0;
}
__GPUSYM_CURAND float2 __gpusym_box_muller(unsigned int x, unsigned int y) {
  float u = __gpusym_curand_uniform(x);
  float v = y * (__GPUSYM_CURAND_2POW32_INV * __GPUSYM_CURAND_2PI) + __GPUSYM_CURAND_2POW32_INV * __GPUSYM_CURAND_2PI / 2.0f;
  float s = sqrtf(-2.0f * logf(u)), sine, cosine;
  sincosf(v, &sine, &cosine);
  return make_float2(sine * s, cosine * s);
}
__GPUSYM_CURAND double2 __gpusym_box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0,
                                                   unsigned int y1) {
  double u = __gpusym_curand_uniform_double(x0, x1);
  unsigned long long zy = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << 21);
  double v = zy * (__GPUSYM_CURAND_2POW53_INV * 2.0) + __GPUSYM_CURAND_2POW53_INV;
  double s = sqrt(-2.0 * log(u)), sine, cosine;
  sincospi(v, &sine, &cosine);
  return make_double2(sine * s, cosine * s);
}

#define __GPUSYM_CURAND_DISTRIBUTIONS(State)                                                              \
  __GPUSYM_CURAND float curand_uniform(State *state) { return __gpusym_curand_uniform(curand(state)); }   \
  __GPUSYM_CURAND double curand_uniform_double(State *state) {                                            \
    unsigned int x = curand(state);                                                                       \
    return __gpusym_curand_uniform_double(x, curand(state));                                              \
  }                                                                                                       \
  __GPUSYM_CURAND float2 curand_normal2(State *state) {                                                   \
    unsigned int x = curand(state);                                                                       \
    return __gpusym_box_muller(x, curand(state));                                                         \
  }                                                                                                       \
  __GPUSYM_CURAND double2 curand_normal2_double(State *state) {                                           \
    unsigned int x0 = curand(state), x1 = curand(state), y0 = curand(state);                              \
    return __gpusym_box_muller_double(x0, x1, y0, curand(state));                                         \
  }                                                                                                       \
  __GPUSYM_CURAND float curand_normal(State *state) {                                                     \
    if (state->boxmuller_flag) {                                                                          \
      state->boxmuller_flag = 0;                                                                          \
      return state->boxmuller_extra;                                                                      \
    }                                                                                                     \
    float2 pair = curand_normal2(state);                                                                  \
    state->boxmuller_extra = pair.y;                                                                      \
    state->boxmuller_flag = 1;                                                                            \
    return pair.x;                                                                                        \
  }                                                                                                       \
  __GPUSYM_CURAND double curand_normal_double(State *state) {                                             \
    if (state->boxmuller_flag_double) {                                                                   \
      state->boxmuller_flag_double = 0;                                                                   \
      return state->boxmuller_extra_double;                                                               \
    }                                                                                                     \
    double2 pair = curand_normal2_double(state);                                                          \
    state->boxmuller_extra_double = pair.y;                                                               \
    state->boxmuller_flag_double = 1;                                                                     \
    return pair.x;                                                                                        \
  }                                                                                                       \
  __GPUSYM_CURAND float curand_log_normal(State *state, float mean, float stddev) {                       \
    return expf(mean + stddev * curand_normal(state));                                                    \
  }                                                                                                       \
  __GPUSYM_CURAND double curand_log_normal_double(State *state, double mean, double stddev) {             \
    return exp(mean + stddev * curand_normal_double(state));                                              \
  }                                                                                                       \
  __GPUSYM_CURAND unsigned int curand_poisson(State *state, double lambda) {                              \
    if (lambda >= 64) {                                                                                   \
      double value = lambda + sqrt(lambda) * curand_normal_double(state) + 0.5;                           \
      return value > 0 ? static_cast<unsigned int>(value) : 0u;                                          \
    }                                                                                                     \
    double limit = exp(-lambda), product = curand_uniform_double(state);                                  \
    unsigned int count = 0;                                                                               \
    for (; product > limit; count++) product *= curand_uniform_double(state);                             \
    return count;                                                                                         \
  }
__GPUSYM_CURAND_DISTRIBUTIONS(curandStateXORWOW_t)
__GPUSYM_CURAND_DISTRIBUTIONS(curandStatePhilox4_32_10_t)
#undef __GPUSYM_CURAND_DISTRIBUTIONS

__GPUSYM_CURAND float4 curand_uniform4(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  return make_float4(__gpusym_curand_uniform(x.x), __gpusym_curand_uniform(x.y), __gpusym_curand_uniform(x.z),
                     __gpusym_curand_uniform(x.w));
}
__GPUSYM_CURAND double2 curand_uniform2_double(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  return make_double2(__gpusym_curand_uniform_double(x.x, x.y), __gpusym_curand_uniform_double(x.z, x.w));
}
__GPUSYM_CURAND float4 curand_normal4(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state);
  float2 a = __gpusym_box_muller(x.x, x.y), b = __gpusym_box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}

#undef __GPUSYM_CURAND

#endif
