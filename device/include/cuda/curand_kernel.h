/*
 * cuRAND's device API: the generators XORWOW (curandState_t,
 * curandStateXORWOW_t), Philox4x32-10 (curandStatePhilox4_32_10_t) and
 * MRG32k3a (curandStateMRG32k3a_t), with curand_init, curand,
 * curand_uniform(_double), curand_normal(2)(_double),
 * curand_log_normal(2)(_double), curand_poisson, skipahead and
 * skipahead_sequence (and skipahead_subsequence for MRG32k3a); for Philox
 * also curand4, curand_uniform4, curand_uniform2_double, curand_normal4(_double),
 * curand_log_normal4(_double) and curand_poisson4.  The quasirandom Sobol32
 * and Sobol64 (plain and scrambled) have curand_init from direction vectors,
 * curand, skipahead and curand_uniform(_double).  The states have cuRAND's
 * fields and sizes.
 *
 * Not provided: curand_discrete (its distributions come from cuRAND's host
 * API), MTGP32, and the normal and log-normal of the Sobol generators
 * (cuRAND's inverse-CDF of erfcinv).
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
 * MRG32k3a (L'Ecuyer, "Good parameters and implementations for combined
 * multiple recursive random number generators", Operations Research 1999):
 * two recurrences of order 3,
 *   x1[n] = (1403580 x1[n-2] - 810728 x1[n-3]) mod m1, m1 = 4294967087,
 *   x2[n] = (527612 x2[n-1] - 1370589 x2[n-3]) mod m2, m2 = 4294944443,
 * state s1 = (x1[n-3], x1[n-2], x1[n-1]), s2 likewise; the combined output
 * z = x1[n] - x2[n], plus m1 when that is <= 0, lies in [1, m1].
 * cuRAND's seeding: all six words 12345 (the published default) for seed 0;
 * otherwise, with a = low32(seed) ^ 0x55555555 and b = high32(seed) ^
 * 0xAAAAAAAA, s1 = (12345 a, 12345 b, 12345 a) mod m1 and s2 = (12345 b,
 * 12345 a, 12345 b) mod m2.  Then the subsequence skip, 2^76 steps each
 * (cuRAND's curand_init and skipahead_subsequence; skipahead_sequence skips
 * 2^127 steps each; rocRAND uses the same distances but seeds differently,
 * multiplying by the seed where cuRAND multiplies by 12345), and
 * the offset, 1 step each.  A step is
 * s -> A s with 3x3 matrices A1 = [0 1 0; 0 0 1; -810728 1403580 0] mod m1
 * and A2 = [0 1 0; 0 0 1; -1370589 0 527612] mod m2, so a skip of n applies
 * A^n, from powers A^(2^k) computed by squaring on first use.  cuRAND's
 * conversions of z: curand() = (unsigned) (z 1.000000048662) (a double
 * product, so all 32 bits are used); curand_uniform = (float) (z / m1) and
 * curand_uniform_double = z / m1, one output each, in (0, 1]; curand_normal
 * is Box-Muller on two uniforms u, v: sqrt(-2 ln u) (sin 2pi v, cos 2pi v),
 * in float with v 2pi a float product; curand_normal_double the same on two
 * double uniforms, with sincospi(2 v).
 *
 * Sobol (cuRAND's quasirandom generators): the state keeps the index i, the
 * value x and the scramble constant c; curand returns x, then x ^= the
 * direction vector of i's lowest clear bit and i += 1, so the n-th value is
 * c ^ (the vectors of the set bits of gray(n) = n ^ (n >> 1)).
 *
 * Distributions of XORWOW and Philox: curand_uniform is x 2^-32 + 2^-33 in
 * float, in (0, 1]; curand_uniform_double takes two outputs x, y:
 * (x ^ (y << 21)) 2^-53 + 2^-54.  curand_normal is Box-Muller on two
 * outputs x, y: u = x 2^-32 + 2^-33, v = y 2^-32 2pi + 2^-33 2pi,
 * sqrt(-2 ln u) (sin v, cos v); one call returns the first and keeps the
 * second for the next call.  curand_normal_double is the same on four
 * outputs, u and v made as curand_uniform_double's (v from 2^-52 steps,
 * times pi with sincospi).
 *
 * For every generator: curand_log_normal is exp(mean + stddev n) of a
 * Box-Muller pair, the second kept (after exp) for the next call, as cuRAND
 * does (its cache is apart from curand_normal's: a call of the one after
 * the other starts a new pair); curand_log_normal2 takes a pair.
 * curand_poisson counts uniforms multiplied under e^-lambda (Knuth) for
 * lambda < 64, else rounds a normal of mean and variance lambda: the right
 * distribution, not cuRAND's exact values (its algorithm is internal).
 */
#ifndef GPUSYM_CURAND_KERNEL_H
#define GPUSYM_CURAND_KERNEL_H

#include "cuda_runtime.h"

#define __GPUSYM_CURAND static __device__ __GPUSYM_INLINE

/* ---- the states, with cuRAND's fields in cuRAND's order ---- */

/* Box-Muller's cached second value: boxmuller_flag(_double) says which. */
#define __GPUSYM_CURAND_EXTRA_NORMAL 1
#define __GPUSYM_CURAND_EXTRA_LOG_NORMAL 2
#define __GPUSYM_CURAND_NORMALS \
  int boxmuller_flag;           \
  int boxmuller_flag_double;    \
  float boxmuller_extra;        \
  double boxmuller_extra_double

struct curandStateXORWOW {
  unsigned int d;
  unsigned int v[5];
  __GPUSYM_CURAND_NORMALS;
};
typedef struct curandStateXORWOW curandStateXORWOW_t;
typedef struct curandStateXORWOW curandState_t;
typedef struct curandStateXORWOW curandState;

struct curandStatePhilox4_32_10 {
  uint4 ctr;
  uint4 output;
  uint2 key;
  unsigned int STATE;
  __GPUSYM_CURAND_NORMALS;
};
typedef struct curandStatePhilox4_32_10 curandStatePhilox4_32_10_t;

struct curandStateMRG32k3a {
  unsigned int s1[3];
  unsigned int s2[3];
  __GPUSYM_CURAND_NORMALS;
};
typedef struct curandStateMRG32k3a curandStateMRG32k3a_t;
#undef __GPUSYM_CURAND_NORMALS

typedef unsigned int curandDirectionVectors32_t[32];
typedef unsigned long long curandDirectionVectors64_t[64];

struct curandStateSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateSobol32 curandStateSobol32_t;
struct curandStateScrambledSobol32 {
  unsigned int i, x, c;
  unsigned int direction_vectors[32];
};
typedef struct curandStateScrambledSobol32 curandStateScrambledSobol32_t;
struct curandStateSobol64 {
  unsigned long long i, x, c;
  unsigned long long direction_vectors[64];
};
typedef struct curandStateSobol64 curandStateSobol64_t;
struct curandStateScrambledSobol64 {
  unsigned long long i, x, c;
  unsigned long long direction_vectors[64];
};
typedef struct curandStateScrambledSobol64 curandStateScrambledSobol64_t;

static_assert(sizeof(curandStateXORWOW_t) == 48, "cuRAND's XORWOW state is 48 bytes");
static_assert(sizeof(curandStatePhilox4_32_10_t) == 64, "cuRAND's Philox state is 64 bytes");
static_assert(sizeof(curandStateMRG32k3a_t) == 48, "cuRAND's MRG32k3a state is 48 bytes");
static_assert(sizeof(curandStateSobol32_t) == 140, "cuRAND's Sobol32 state is 140 bytes");
static_assert(sizeof(curandStateSobol64_t) == 536, "cuRAND's Sobol64 state is 536 bytes");

/* `table`, built by Build by the first lane to need it while the others
 * wait (a lane building never yields to another, so none waits on its own
 * CPU thread).  table.ready: 0, 1 while one lane builds it, 2. */
template <typename Table, void (*Build)(Table &)>
__GPUSYM_CURAND const Table &__gpusym_curand_table(Table &table) {
  if (__hip_atomic_load(&table.ready, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM) != 2) {
    unsigned int expected = 0;
    if (__hip_atomic_compare_exchange_strong(&table.ready, &expected, 1u, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE,
                                             __HIP_MEMORY_SCOPE_SYSTEM)) {
      Build(table);
      __hip_atomic_store(&table.ready, 2u, __ATOMIC_RELEASE, __HIP_MEMORY_SCOPE_SYSTEM);
    }
    while (__hip_atomic_load(&table.ready, __ATOMIC_ACQUIRE, __HIP_MEMORY_SCOPE_SYSTEM) != 2) __nanosleep(1000);
  }
  return table;
}

/* ---- XORWOW ---- */

/* The bit matrices M^(2^k) of the step on v, for skips of 2^k steps (k < 64)
 * and of 2^(67 + k) steps (subsequences), each as 160 columns of 5 words. */
#define __GPUSYM_XORWOW_BITS 160
struct __gpusym_xorwow_jumps {
  unsigned int ready;
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

__GPUSYM_CURAND const __gpusym_xorwow_jumps &__gpusym_xorwow_jump_table() {
  return __gpusym_curand_table<__gpusym_xorwow_jumps, __gpusym_xorwow_build>(__gpusym_xorwow_table);
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

/* ---- MRG32k3a ---- */

#define __GPUSYM_MRG_M1 4294967087u
#define __GPUSYM_MRG_M2 4294944443u

/* The powers A^(2^k) of each component's matrix (0: A1 mod m1, 1: A2 mod
 * m2), for skips of 2^k steps, 2^(76 + k) (subsequences) and 2^(127 + k)
 * (sequences), k < 64. */
struct __gpusym_mrg32k3a_jumps {
  unsigned int ready;
  unsigned int power[2][3][64][3][3];
};
static __device__ __gpusym_mrg32k3a_jumps __gpusym_mrg32k3a_table;

__GPUSYM_CURAND unsigned int __gpusym_mrg_mulmod(unsigned int a, unsigned int b, unsigned int m) {
  return static_cast<unsigned int>(static_cast<unsigned long long>(a) * b % m);
}

/* c = a b mod m; c may be a or b. */
__GPUSYM_CURAND void __gpusym_mrg_matmul(const unsigned int (*a)[3], const unsigned int (*b)[3], unsigned int (*c)[3],
                                         unsigned int m) {
  unsigned int r[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      unsigned long long sum = 0;
      for (int k = 0; k < 3; k++) sum += __gpusym_mrg_mulmod(a[i][k], b[k][j], m);
      r[i][j] = static_cast<unsigned int>(sum % m);
    }
  __builtin_memcpy(c, r, sizeof r);
}

/* v = a v mod m. */
__GPUSYM_CURAND void __gpusym_mrg_apply(const unsigned int (*a)[3], unsigned int v[3], unsigned int m) {
  unsigned int r[3];
  for (int i = 0; i < 3; i++) {
    unsigned long long sum = 0;
    for (int k = 0; k < 3; k++) sum += __gpusym_mrg_mulmod(a[i][k], v[k], m);
    r[i] = static_cast<unsigned int>(sum % m);
  }
  for (int i = 0; i < 3; i++) v[i] = r[i];
}

static __device__ inline void __gpusym_mrg32k3a_build(__gpusym_mrg32k3a_jumps &table) {
  const unsigned int moduli[2] = {__GPUSYM_MRG_M1, __GPUSYM_MRG_M2};
  const unsigned int steps[2][3][3] = {{{0, 1, 0}, {0, 0, 1}, {__GPUSYM_MRG_M1 - 810728u, 1403580u, 0}},
                                       {{0, 1, 0}, {0, 0, 1}, {__GPUSYM_MRG_M2 - 1370589u, 0, 527612u}}};
  for (int c = 0; c < 2; c++) {
    unsigned int power[3][3];  /* A^(2^k) */
    __builtin_memcpy(power, steps[c], sizeof power);
    for (int k = 0; k < 127 + 64; k++) {
      if (k < 64) __builtin_memcpy(table.power[c][0][k], power, sizeof power);
      if (k >= 76 && k < 76 + 64) __builtin_memcpy(table.power[c][1][k - 76], power, sizeof power);
      if (k >= 127) __builtin_memcpy(table.power[c][2][k - 127], power, sizeof power);
      __gpusym_mrg_matmul(power, power, power, moduli[c]);
    }
  }
}

/* n skips of 1 (kind 0), 2^76 (1) or 2^127 (2) steps. */
__GPUSYM_CURAND void __gpusym_mrg32k3a_skip(curandStateMRG32k3a_t *state, unsigned long long n, int kind) {
  const __gpusym_mrg32k3a_jumps &table =
      __gpusym_curand_table<__gpusym_mrg32k3a_jumps, __gpusym_mrg32k3a_build>(__gpusym_mrg32k3a_table);
  for (int k = 0; n; k++, n >>= 1)
    if (n & 1) {
      __gpusym_mrg_apply(table.power[0][kind][k], state->s1, __GPUSYM_MRG_M1);
      __gpusym_mrg_apply(table.power[1][kind][k], state->s2, __GPUSYM_MRG_M2);
    }
}

__GPUSYM_CURAND void skipahead(unsigned long long n, curandStateMRG32k3a_t *state) {
  __gpusym_mrg32k3a_skip(state, n, 0);
}
/* 2^76 steps each, as cuRAND's (whose comment says n is masked to 51 bits,
 * which its code does not do: here any n skips n 2^76 steps). */
__GPUSYM_CURAND void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t *state) {
  __gpusym_mrg32k3a_skip(state, n, 1);
}
/* 2^127 steps each. */
__GPUSYM_CURAND void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t *state) {
  __gpusym_mrg32k3a_skip(state, n, 2);
}

__GPUSYM_CURAND void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                 curandStateMRG32k3a_t *state) {
  for (int i = 0; i < 3; i++) state->s1[i] = state->s2[i] = 12345u;
  if (seed) {
    unsigned int a = static_cast<unsigned int>(seed) ^ 0x55555555u;
    unsigned int b = static_cast<unsigned int>(seed >> 32) ^ 0xAAAAAAAAu;
    state->s1[0] = __gpusym_mrg_mulmod(a, 12345u, __GPUSYM_MRG_M1);
    state->s1[1] = __gpusym_mrg_mulmod(b, 12345u, __GPUSYM_MRG_M1);
    state->s1[2] = __gpusym_mrg_mulmod(a, 12345u, __GPUSYM_MRG_M1);
    state->s2[0] = __gpusym_mrg_mulmod(b, 12345u, __GPUSYM_MRG_M2);
    state->s2[1] = __gpusym_mrg_mulmod(a, 12345u, __GPUSYM_MRG_M2);
    state->s2[2] = __gpusym_mrg_mulmod(b, 12345u, __GPUSYM_MRG_M2);
  }
  if (subsequence) skipahead_subsequence(subsequence, state);
  if (offset) skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

/* One step; the combined output z, in [1, m1]. */
__GPUSYM_CURAND unsigned int __gpusym_mrg32k3a_next(curandStateMRG32k3a_t *state) {
  unsigned int *s1 = state->s1, *s2 = state->s2;
  unsigned int p1 = static_cast<unsigned int>((1403580ull * s1[1] + 810728ull * (__GPUSYM_MRG_M1 - s1[0])) %
                                              __GPUSYM_MRG_M1);
  unsigned int p2 = static_cast<unsigned int>((527612ull * s2[2] + 1370589ull * (__GPUSYM_MRG_M2 - s2[0])) %
                                              __GPUSYM_MRG_M2);
  s1[0] = s1[1];
  s1[1] = s1[2];
  s1[2] = p1;
  s2[0] = s2[1];
  s2[1] = s2[2];
  s2[2] = p2;
  return p1 > p2 ? p1 - p2 : p1 - p2 + __GPUSYM_MRG_M1;
}

#define __GPUSYM_MRG_NORM 2.3283065498378288e-10 /* 1 / m1 */

__GPUSYM_CURAND unsigned int curand(curandStateMRG32k3a_t *state) {
  return static_cast<unsigned int>(__gpusym_mrg32k3a_next(state) * 1.000000048662);
}

/* ---- Sobol32 and Sobol64, plain and scrambled ---- */

#define __GPUSYM_CURAND_SOBOL(State, Word, Bits)                                                           \
  __GPUSYM_CURAND void skipahead(Word n, State *state) {                                                  \
    state->x = state->c;                                                                                  \
    state->i += n;                                                                                        \
    Word gray = state->i ^ (state->i >> 1);                                                               \
    for (int k = 0; k < Bits; k++)                                                                        \
      if ((gray >> k) & 1) state->x ^= state->direction_vectors[k];                                       \
  }                                                                                                       \
  __GPUSYM_CURAND Word curand(State *state) {                                                             \
    Word value = state->x;                                                                                \
    int k = 0; /* the lowest clear bit of i, at most Bits - 1 */                                         \
    while (k < Bits - 1 && ((state->i >> k) & 1)) k++;                                                    \
    state->x ^= state->direction_vectors[k];                                                              \
    state->i++;                                                                                           \
    return value;                                                                                         \
  }                                                                                                       \
  __GPUSYM_CURAND void __gpusym_sobol_init(const Word *vectors, Word scramble, Word offset, State *state) { \
    state->i = 0;                                                                                         \
    state->c = scramble;                                                                                  \
    for (int k = 0; k < Bits; k++) state->direction_vectors[k] = vectors[k];                              \
    state->x = scramble;                                                                                  \
    skipahead(offset, state);                                                                             \
  }
__GPUSYM_CURAND_SOBOL(curandStateSobol32_t, unsigned int, 32)
__GPUSYM_CURAND_SOBOL(curandStateScrambledSobol32_t, unsigned int, 32)
__GPUSYM_CURAND_SOBOL(curandStateSobol64_t, unsigned long long, 64)
__GPUSYM_CURAND_SOBOL(curandStateScrambledSobol64_t, unsigned long long, 64)
#undef __GPUSYM_CURAND_SOBOL

__GPUSYM_CURAND void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int offset,
                                 curandStateSobol32_t *state) {
  __gpusym_sobol_init(direction_vectors, 0u, offset, state);
}
__GPUSYM_CURAND void curand_init(curandDirectionVectors32_t direction_vectors, unsigned int scramble_c,
                                 unsigned int offset, curandStateScrambledSobol32_t *state) {
  __gpusym_sobol_init(direction_vectors, scramble_c, offset, state);
}
__GPUSYM_CURAND void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long offset,
                                 curandStateSobol64_t *state) {
  __gpusym_sobol_init(direction_vectors, 0ull, offset, state);
}
__GPUSYM_CURAND void curand_init(curandDirectionVectors64_t direction_vectors, unsigned long long scramble_c,
                                 unsigned long long offset, curandStateScrambledSobol64_t *state) {
  __gpusym_sobol_init(direction_vectors, scramble_c, offset, state);
}

/* ---- distributions ---- */

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

/* XORWOW's and Philox's uniforms and normal pairs, from their bits. */
#define __GPUSYM_CURAND_FROM_BITS(State)                                                                  \
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
  }
__GPUSYM_CURAND_FROM_BITS(curandStateXORWOW_t)
__GPUSYM_CURAND_FROM_BITS(curandStatePhilox4_32_10_t)
#undef __GPUSYM_CURAND_FROM_BITS

/* MRG32k3a's, from its combined output z. */
__GPUSYM_CURAND float curand_uniform(curandStateMRG32k3a_t *state) {
  return static_cast<float>(__gpusym_mrg32k3a_next(state) * __GPUSYM_MRG_NORM);
}
__GPUSYM_CURAND double curand_uniform_double(curandStateMRG32k3a_t *state) {
  return __gpusym_mrg32k3a_next(state) * __GPUSYM_MRG_NORM;
}
__GPUSYM_CURAND float2 curand_normal2(curandStateMRG32k3a_t *state) {
  float u = curand_uniform(state);
  float v = curand_uniform(state) * __GPUSYM_CURAND_2PI;
  float s = sqrtf(-2.0f * logf(u)), sine, cosine;
  sincosf(v, &sine, &cosine);
  return make_float2(sine * s, cosine * s);
}
__GPUSYM_CURAND double2 curand_normal2_double(curandStateMRG32k3a_t *state) {
  double u = curand_uniform_double(state);
  double v = curand_uniform_double(state) * 2.0;
  double s = sqrt(-2.0 * log(u)), sine, cosine;
  sincospi(v, &sine, &cosine);
  return make_double2(sine * s, cosine * s);
}

/* The Sobol generators' uniforms: one value each. */
__GPUSYM_CURAND float __gpusym_sobol_uniform(unsigned int x) { return __gpusym_curand_uniform(x); }
__GPUSYM_CURAND float __gpusym_sobol_uniform(unsigned long long x) {
  return __gpusym_curand_uniform(static_cast<unsigned int>(x >> 32));
}
__GPUSYM_CURAND double __gpusym_sobol_uniform_double(unsigned int x) { return x * 0x1p-32 + 0x1p-33; }
__GPUSYM_CURAND double __gpusym_sobol_uniform_double(unsigned long long x) {
  return (x >> 11) * __GPUSYM_CURAND_2POW53_INV + __GPUSYM_CURAND_2POW53_INV / 2.0;
}
#define __GPUSYM_CURAND_SOBOL_UNIFORMS(State)                                                             \
  __GPUSYM_CURAND float curand_uniform(State *state) { return __gpusym_sobol_uniform(curand(state)); }    \
  __GPUSYM_CURAND double curand_uniform_double(State *state) {                                            \
    return __gpusym_sobol_uniform_double(curand(state));                                                  \
  }
__GPUSYM_CURAND_SOBOL_UNIFORMS(curandStateSobol32_t)
__GPUSYM_CURAND_SOBOL_UNIFORMS(curandStateScrambledSobol32_t)
__GPUSYM_CURAND_SOBOL_UNIFORMS(curandStateSobol64_t)
__GPUSYM_CURAND_SOBOL_UNIFORMS(curandStateScrambledSobol64_t)
#undef __GPUSYM_CURAND_SOBOL_UNIFORMS

/* What every pseudorandom generator builds on its uniforms and normal pairs. */
#define __GPUSYM_CURAND_DISTRIBUTIONS(State)                                                              \
  __GPUSYM_CURAND float curand_normal(State *state) {                                                     \
    if (state->boxmuller_flag == __GPUSYM_CURAND_EXTRA_NORMAL) {                                          \
      state->boxmuller_flag = 0;                                                                          \
      return state->boxmuller_extra;                                                                      \
    }                                                                                                     \
    float2 pair = curand_normal2(state);                                                                  \
    state->boxmuller_extra = pair.y;                                                                      \
    state->boxmuller_flag = __GPUSYM_CURAND_EXTRA_NORMAL;                                                 \
    return pair.x;                                                                                        \
  }                                                                                                       \
  __GPUSYM_CURAND double curand_normal_double(State *state) {                                             \
    if (state->boxmuller_flag_double == __GPUSYM_CURAND_EXTRA_NORMAL) {                                   \
      state->boxmuller_flag_double = 0;                                                                   \
      return state->boxmuller_extra_double;                                                               \
    }                                                                                                     \
    double2 pair = curand_normal2_double(state);                                                          \
    state->boxmuller_extra_double = pair.y;                                                               \
    state->boxmuller_flag_double = __GPUSYM_CURAND_EXTRA_NORMAL;                                          \
    return pair.x;                                                                                        \
  }                                                                                                       \
  __GPUSYM_CURAND float curand_log_normal(State *state, float mean, float stddev) {                       \
    if (state->boxmuller_flag == __GPUSYM_CURAND_EXTRA_LOG_NORMAL) {                                      \
      state->boxmuller_flag = 0;                                                                          \
      return state->boxmuller_extra;                                                                      \
    }                                                                                                     \
    float2 pair = curand_normal2(state);                                                                  \
    state->boxmuller_extra = expf(mean + stddev * pair.y);                                                \
    state->boxmuller_flag = __GPUSYM_CURAND_EXTRA_LOG_NORMAL;                                             \
    return expf(mean + stddev * pair.x);                                                                  \
  }                                                                                                       \
  __GPUSYM_CURAND double curand_log_normal_double(State *state, double mean, double stddev) {             \
    if (state->boxmuller_flag_double == __GPUSYM_CURAND_EXTRA_LOG_NORMAL) {                               \
      state->boxmuller_flag_double = 0;                                                                   \
      return state->boxmuller_extra_double;                                                               \
    }                                                                                                     \
    double2 pair = curand_normal2_double(state);                                                          \
    state->boxmuller_extra_double = exp(mean + stddev * pair.y);                                          \
    state->boxmuller_flag_double = __GPUSYM_CURAND_EXTRA_LOG_NORMAL;                                      \
    return exp(mean + stddev * pair.x);                                                                   \
  }                                                                                                       \
  __GPUSYM_CURAND float2 curand_log_normal2(State *state, float mean, float stddev) {                     \
    float2 pair = curand_normal2(state);                                                                  \
    return make_float2(expf(mean + stddev * pair.x), expf(mean + stddev * pair.y));                       \
  }                                                                                                       \
  __GPUSYM_CURAND double2 curand_log_normal2_double(State *state, double mean, double stddev) {           \
    double2 pair = curand_normal2_double(state);                                                          \
    return make_double2(exp(mean + stddev * pair.x), exp(mean + stddev * pair.y));                        \
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
__GPUSYM_CURAND_DISTRIBUTIONS(curandStateMRG32k3a_t)
#undef __GPUSYM_CURAND_DISTRIBUTIONS

/* Philox's forms on four outputs at once. */
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
__GPUSYM_CURAND double4 curand_normal4_double(curandStatePhilox4_32_10_t *state) {
  uint4 x = curand4(state), y = curand4(state);
  double2 a = __gpusym_box_muller_double(x.x, x.y, x.z, x.w), b = __gpusym_box_muller_double(y.x, y.y, y.z, y.w);
  return make_double4(a.x, a.y, b.x, b.y);
}
__GPUSYM_CURAND float4 curand_log_normal4(curandStatePhilox4_32_10_t *state, float mean, float stddev) {
  float4 n = curand_normal4(state);
  return make_float4(expf(mean + stddev * n.x), expf(mean + stddev * n.y), expf(mean + stddev * n.z),
                     expf(mean + stddev * n.w));
}
__GPUSYM_CURAND double4 curand_log_normal4_double(curandStatePhilox4_32_10_t *state, double mean, double stddev) {
  double4 n = curand_normal4_double(state);
  return make_double4(exp(mean + stddev * n.x), exp(mean + stddev * n.y), exp(mean + stddev * n.z),
                      exp(mean + stddev * n.w));
}
__GPUSYM_CURAND uint4 curand_poisson4(curandStatePhilox4_32_10_t *state, double lambda) {
  unsigned int a = curand_poisson(state, lambda), b = curand_poisson(state, lambda);
  unsigned int c = curand_poisson(state, lambda);
  return make_uint4(a, b, c, curand_poisson(state, lambda));
}

#undef __GPUSYM_CURAND

#endif
