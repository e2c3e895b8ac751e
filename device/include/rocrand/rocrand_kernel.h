/*
 * rocRAND's device API on the simulated device: XORWOW
 * (rocrand_state_xorwow), Philox4x32-10 (rocrand_state_philox4x32_10),
 * MRG32k3a (rocrand_state_mrg32k3a), Sobol32 plain and scrambled
 * (rocrand_state_sobol32, rocrand_state_scrambled_sobol32), with
 * rocrand_init, rocrand, skipahead, skipahead_subsequence,
 * skipahead_sequence, rocrand_uniform(_double), rocrand_normal(_double),
 * rocrand_normal2(_double), rocrand_log_normal(2)(_double) and
 * rocrand_poisson; Philox also has rocrand4 and the 2- and 4-wide forms.
 * The functions are __device__ only (rocRAND's are also __host__).
 *
 * The generators are gpusym/random_engines.h's, shared with cuRAND, with
 * rocRAND's seeding (XORWOW's and MRG32k3a's constants differ from
 * cuRAND's) and distances: XORWOW's subsequences are 2^67 steps apart,
 * Philox's the counter's high 64 bits (for both, skipahead_sequence is
 * skipahead_subsequence, as in rocRAND), MRG32k3a's 2^76 steps and its
 * sequences 2^127.  The conversions are rocRAND's:
 *   uniform of x: 2^-32 + x 2^-32 (float), in (0, 1];
 *   uniform_double of x, y: 2^-53 + (x | (y >> 11) << 32) 2^-53;
 *   normal pair of x, y: u = 2^-32 + x 2^-32, v = (y + 1) 2^-32 2pi (float),
 *     sqrt(-2 ln u) (sin v, cos v); one rocrand_normal call returns the
 *     first and keeps the second for the next rocrand_normal or
 *     rocrand_log_normal (one cache, as rocRAND's);
 *   normal_double pair of x0, x1, y0, y1: u = 2^-53 + (x0 ^ x1 << 21) 2^-53,
 *     w = (1 + (y0 ^ y1 << 21)) 2^-52, sqrt(-2 ln u) (sinpi w, cospi w);
 *   MRG32k3a: rocrand = (unsigned) ((z - 1) 1.000000048661607), uniforms
 *     z / m1 (float or double), normals Box-Muller on two of those, v times
 *     2pi (float) or sincospi(2 v) (double);
 *   Sobol: rocrand returns the point, uniforms 2^-32 + x 2^-32.
 * rocrand_poisson counts uniforms multiplied under e^-lambda for lambda < 64,
 * else rounds a normal of mean and variance lambda: the distribution is
 * right, the values are not rocRAND's (its algorithm differs).  Not
 * provided: MTGP32, MT19937, MRG31k3p, LFSR113, ThreeFry and Sobol64 states,
 * rocrand_discrete, the Sobol generators' normals.
 */
#ifndef GPUSYM_ROCRAND_KERNEL_H
#define GPUSYM_ROCRAND_KERNEL_H

#include <hip/hip_runtime.h>

#include "gpusym/random_engines.h"
#include "rocrand/rocrand_version.h"

#define ROCRAND_XORWOW_DEFAULT_SEED 0ULL
#define ROCRAND_PHILOX4x32_DEFAULT_SEED 0xdeadbeefdeadbeefULL
#define ROCRAND_MRG32K3A_DEFAULT_SEED 12345ULL
#define ROCRAND_2POW32_INV (2.3283064e-10f)
#define ROCRAND_2POW32_INV_DOUBLE (2.3283064365386963e-10)
#define ROCRAND_2POW53_INV_DOUBLE (1.1102230246251565e-16)
#define ROCRAND_2POW32_INV_2PI (2.3283064e-10f * 6.2831855f)
#define ROCRAND_2PI (6.2831855f)
#define ROCRAND_PI (3.141592653f)
#define ROCRAND_PI_DOUBLE (3.1415926535897932)
#define ROCRAND_SQRT2 (1.4142135f)
#define ROCRAND_SQRT2_DOUBLE (1.4142135623730951)

#define __GPUSYM_ROCRAND static __device__ __GPUSYM_INLINE

/* Box-Muller's kept second value, as rocRAND keeps it in each state. */
#define __GPUSYM_ROCRAND_NORMALS            \
  unsigned int boxmuller_float_state;       \
  unsigned int boxmuller_double_state;      \
  float boxmuller_float;                    \
  double boxmuller_double

struct rocrand_state_xorwow {
  unsigned int d;
  __GPUSYM_ROCRAND_NORMALS;
  unsigned int x[5];
};
struct rocrand_state_philox4x32_10 {
  uint4 counter;
  uint4 result;
  uint2 key;
  unsigned int substate;
  __GPUSYM_ROCRAND_NORMALS;
};
struct rocrand_state_mrg32k3a {
  unsigned int g1[3];
  unsigned int g2[3];
  __GPUSYM_ROCRAND_NORMALS;
};
struct rocrand_state_sobol32 {
  unsigned int d, i;
  unsigned int vectors[32];
};
struct rocrand_state_scrambled_sobol32 {
  unsigned int d, i, scramble_constant;
  unsigned int vectors[32];
};
#undef __GPUSYM_ROCRAND_NORMALS

template <typename State>
__GPUSYM_ROCRAND void __gpusym_rocrand_clear_normals(State *state) {
  state->boxmuller_float_state = 0;
  state->boxmuller_double_state = 0;
  state->boxmuller_float = 0.0f;
  state->boxmuller_double = 0.0;
}

/* ---- XORWOW ---- */

__GPUSYM_ROCRAND void rocrand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   rocrand_state_xorwow *state) {
  gpusym_random::xorwow_init(gpusym_random::rocrand_xorwow_seeding, seed, subsequence, offset, state->d, state->x);
  __gpusym_rocrand_clear_normals(state);
}
__GPUSYM_ROCRAND unsigned int rocrand(rocrand_state_xorwow *state) {
  return gpusym_random::xorwow_next(state->d, state->x);
}
__GPUSYM_ROCRAND void skipahead(unsigned long long offset, rocrand_state_xorwow *state) {
  gpusym_random::xorwow_skip(offset, state->d, state->x);
}
/* 2^67 steps each. */
__GPUSYM_ROCRAND void skipahead_subsequence(unsigned long long subsequence, rocrand_state_xorwow *state) {
  gpusym_random::xorwow_skip_subsequences(subsequence, state->x);
}
__GPUSYM_ROCRAND void skipahead_sequence(unsigned long long sequence, rocrand_state_xorwow *state) {
  gpusym_random::xorwow_skip_subsequences(sequence, state->x);
}

/* ---- Philox4x32-10 ---- */

/* The counter's low (or, `high`, high) 64 bits advanced by n, and its block. */
__GPUSYM_ROCRAND void __gpusym_rocrand_philox_advance(rocrand_state_philox4x32_10 *state, unsigned long long n,
                                                      bool high) {
  unsigned int counter[4] = {state->counter.x, state->counter.y, state->counter.z, state->counter.w};
  unsigned int key[2] = {state->key.x, state->key.y}, block[4];
  gpusym_random::philox_advance(counter, n, high);
  gpusym_random::philox_block(counter, key, block);
  state->counter = make_uint4(counter[0], counter[1], counter[2], counter[3]);
  state->result = make_uint4(block[0], block[1], block[2], block[3]);
}
__GPUSYM_ROCRAND void skipahead(unsigned long long offset, rocrand_state_philox4x32_10 *state) {
  __gpusym_rocrand_philox_advance(state, gpusym_random::philox_skip(state->substate, offset), false);
}
__GPUSYM_ROCRAND void skipahead_subsequence(unsigned long long subsequence, rocrand_state_philox4x32_10 *state) {
  __gpusym_rocrand_philox_advance(state, subsequence, true);
}
__GPUSYM_ROCRAND void skipahead_sequence(unsigned long long sequence, rocrand_state_philox4x32_10 *state) {
  __gpusym_rocrand_philox_advance(state, sequence, true);
}
__GPUSYM_ROCRAND void rocrand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   rocrand_state_philox4x32_10 *state) {
  state->counter = make_uint4(0, 0, 0, 0);
  state->key = make_uint2(static_cast<unsigned int>(seed), static_cast<unsigned int>(seed >> 32));
  state->substate = 0;
  __gpusym_rocrand_clear_normals(state);
  skipahead_subsequence(subsequence, state);
  skipahead(offset, state);
}
__GPUSYM_ROCRAND unsigned int rocrand(rocrand_state_philox4x32_10 *state) {
  const unsigned int words[4] = {state->result.x, state->result.y, state->result.z, state->result.w};
  unsigned int value = words[state->substate++];
  if (state->substate == 4) {
    state->substate = 0;
    __gpusym_rocrand_philox_advance(state, 1, false);
  }
  return value;
}
/* The next four outputs. */
__GPUSYM_ROCRAND uint4 rocrand4(rocrand_state_philox4x32_10 *state) {
  uint4 now = state->result;
  unsigned int start = state->substate;
  __gpusym_rocrand_philox_advance(state, 1, false);
  const unsigned int words[8] = {now.x, now.y, now.z, now.w,
                                 state->result.x, state->result.y, state->result.z, state->result.w};
  return make_uint4(words[start], words[start + 1], words[start + 2], words[start + 3]);
}

/* ---- MRG32k3a ---- */

__GPUSYM_ROCRAND void skipahead(unsigned long long offset, rocrand_state_mrg32k3a *state) {
  gpusym_random::mrg32k3a_skip(state->g1, state->g2, offset, 0);
}
/* 2^76 steps each. */
__GPUSYM_ROCRAND void skipahead_subsequence(unsigned long long subsequence, rocrand_state_mrg32k3a *state) {
  gpusym_random::mrg32k3a_skip(state->g1, state->g2, subsequence, 1);
}
/* 2^127 steps each. */
__GPUSYM_ROCRAND void skipahead_sequence(unsigned long long sequence, rocrand_state_mrg32k3a *state) {
  gpusym_random::mrg32k3a_skip(state->g1, state->g2, sequence, 2);
}
__GPUSYM_ROCRAND void rocrand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                   rocrand_state_mrg32k3a *state) {
  gpusym_random::mrg32k3a_seed_rocrand(seed, state->g1, state->g2);
  skipahead_subsequence(subsequence, state);
  skipahead(offset, state);
  __gpusym_rocrand_clear_normals(state);
}
__GPUSYM_ROCRAND unsigned int rocrand(rocrand_state_mrg32k3a *state) {
  return gpusym_random::rocrand_mrg_bits(gpusym_random::mrg32k3a_next(state->g1, state->g2));
}

/* ---- Sobol32 ---- */

__GPUSYM_ROCRAND void skipahead(unsigned long long offset, rocrand_state_sobol32 *state) {
  state->i += static_cast<unsigned int>(offset);
  state->d = gpusym_random::sobol_point<unsigned int, 32>(state->vectors, 0u, state->i);
}
__GPUSYM_ROCRAND void rocrand_init(const unsigned int *vectors, unsigned int offset, rocrand_state_sobol32 *state) {
  for (int k = 0; k < 32; k++) state->vectors[k] = vectors[k];
  state->i = 0;
  skipahead(offset, state);
}
__GPUSYM_ROCRAND unsigned int rocrand(rocrand_state_sobol32 *state) {
  unsigned int value = state->d;
  gpusym_random::sobol_step<unsigned int, 32>(state->vectors, state->i, state->d);
  return value;
}
__GPUSYM_ROCRAND void skipahead(unsigned long long offset, rocrand_state_scrambled_sobol32 *state) {
  state->i += static_cast<unsigned int>(offset);
  state->d = gpusym_random::sobol_point<unsigned int, 32>(state->vectors, 0u, state->i);
}
__GPUSYM_ROCRAND void rocrand_init(const unsigned int *vectors, unsigned int scramble_constant, unsigned int offset,
                                   rocrand_state_scrambled_sobol32 *state) {
  for (int k = 0; k < 32; k++) state->vectors[k] = vectors[k];
  state->scramble_constant = scramble_constant;
  state->i = 0;
  skipahead(offset, state);
}
/* The point xor the scramble constant. */
__GPUSYM_ROCRAND unsigned int rocrand(rocrand_state_scrambled_sobol32 *state) {
  unsigned int value = state->d ^ state->scramble_constant;
  gpusym_random::sobol_step<unsigned int, 32>(state->vectors, state->i, state->d);
  return value;
}

/* ---- distributions ---- */

__GPUSYM_ROCRAND float __gpusym_rocrand_uniform(unsigned int x) { return gpusym_random::rocrand_uniform_of(x); }
__GPUSYM_ROCRAND double __gpusym_rocrand_uniform_double(unsigned int x, unsigned int y) {
  return gpusym_random::rocrand_uniform_double_of(x, y);
}
__GPUSYM_ROCRAND float2 __gpusym_rocrand_box_muller(unsigned int x, unsigned int y) {
  float pair[2];
  gpusym_random::rocrand_normal_pair(x, y, pair);
  return make_float2(pair[0], pair[1]);
}
__GPUSYM_ROCRAND double2 __gpusym_rocrand_box_muller_double(uint4 bits) {
  double pair[2];
  gpusym_random::rocrand_normal_double_pair(bits.x, bits.y, bits.z, bits.w, pair);
  return make_double2(pair[0], pair[1]);
}

/* XORWOW's and Philox's, from their bits. */
#define __GPUSYM_ROCRAND_FROM_BITS(State)                                                                    \
  __GPUSYM_ROCRAND float rocrand_uniform(State *state) { return __gpusym_rocrand_uniform(rocrand(state)); } \
  __GPUSYM_ROCRAND double rocrand_uniform_double(State *state) {                                             \
    unsigned int x = rocrand(state);                                                                         \
    return __gpusym_rocrand_uniform_double(x, rocrand(state));                                               \
  }                                                                                                          \
  __GPUSYM_ROCRAND float2 rocrand_normal2(State *state) {                                                    \
    unsigned int x = rocrand(state);                                                                         \
    return __gpusym_rocrand_box_muller(x, rocrand(state));                                                   \
  }                                                                                                          \
  __GPUSYM_ROCRAND double2 rocrand_normal_double2(State *state) {                                            \
    unsigned int x0 = rocrand(state), x1 = rocrand(state), y0 = rocrand(state);                              \
    return __gpusym_rocrand_box_muller_double(make_uint4(x0, x1, y0, rocrand(state)));                       \
  }
__GPUSYM_ROCRAND_FROM_BITS(rocrand_state_xorwow)
__GPUSYM_ROCRAND_FROM_BITS(rocrand_state_philox4x32_10)
#undef __GPUSYM_ROCRAND_FROM_BITS

/* MRG32k3a's, from its combined output z. */
__GPUSYM_ROCRAND float rocrand_uniform(rocrand_state_mrg32k3a *state) {
  return static_cast<float>(gpusym_random::mrg32k3a_next(state->g1, state->g2) * gpusym_random::mrg_norm);
}
__GPUSYM_ROCRAND double rocrand_uniform_double(rocrand_state_mrg32k3a *state) {
  return gpusym_random::mrg32k3a_next(state->g1, state->g2) * gpusym_random::mrg_norm;
}
__GPUSYM_ROCRAND float2 rocrand_normal2(rocrand_state_mrg32k3a *state) {
  unsigned int z0 = gpusym_random::mrg32k3a_next(state->g1, state->g2);
  float pair[2];
  gpusym_random::rocrand_mrg_normal_pair(z0, gpusym_random::mrg32k3a_next(state->g1, state->g2), pair);
  return make_float2(pair[0], pair[1]);
}
__GPUSYM_ROCRAND double2 rocrand_normal_double2(rocrand_state_mrg32k3a *state) {
  unsigned int z0 = gpusym_random::mrg32k3a_next(state->g1, state->g2);
  double pair[2];
  gpusym_random::rocrand_mrg_normal_double_pair(z0, gpusym_random::mrg32k3a_next(state->g1, state->g2), pair);
  return make_double2(pair[0], pair[1]);
}

/* Sobol32's uniforms: one point each. */
#define __GPUSYM_ROCRAND_SOBOL(State)                                                                        \
  __GPUSYM_ROCRAND float rocrand_uniform(State *state) { return __gpusym_rocrand_uniform(rocrand(state)); } \
  __GPUSYM_ROCRAND double rocrand_uniform_double(State *state) {                                             \
    return ROCRAND_2POW32_INV_DOUBLE + rocrand(state) * ROCRAND_2POW32_INV_DOUBLE;                           \
  }
__GPUSYM_ROCRAND_SOBOL(rocrand_state_sobol32)
__GPUSYM_ROCRAND_SOBOL(rocrand_state_scrambled_sobol32)
#undef __GPUSYM_ROCRAND_SOBOL

/* What every pseudorandom generator builds on its uniforms and pairs. */
#define __GPUSYM_ROCRAND_DISTRIBUTIONS(State)                                                              \
  __GPUSYM_ROCRAND float rocrand_normal(State *state) {                                                    \
    if (state->boxmuller_float_state) {                                                                    \
      state->boxmuller_float_state = 0;                                                                    \
      return state->boxmuller_float;                                                                       \
    }                                                                                                      \
    float2 pair = rocrand_normal2(state);                                                                  \
    state->boxmuller_float = pair.y;                                                                       \
    state->boxmuller_float_state = 1;                                                                      \
    return pair.x;                                                                                         \
  }                                                                                                        \
  __GPUSYM_ROCRAND double rocrand_normal_double(State *state) {                                            \
    if (state->boxmuller_double_state) {                                                                   \
      state->boxmuller_double_state = 0;                                                                   \
      return state->boxmuller_double;                                                                      \
    }                                                                                                      \
    double2 pair = rocrand_normal_double2(state);                                                          \
    state->boxmuller_double = pair.y;                                                                      \
    state->boxmuller_double_state = 1;                                                                     \
    return pair.x;                                                                                         \
  }                                                                                                        \
  __GPUSYM_ROCRAND float rocrand_log_normal(State *state, float mean, float stddev) {                      \
    return expf(mean + stddev * rocrand_normal(state));                                                    \
  }                                                                                                        \
  __GPUSYM_ROCRAND double rocrand_log_normal_double(State *state, double mean, double stddev) {            \
    return exp(mean + stddev * rocrand_normal_double(state));                                              \
  }                                                                                                        \
  __GPUSYM_ROCRAND float2 rocrand_log_normal2(State *state, float mean, float stddev) {                    \
    float2 pair = rocrand_normal2(state);                                                                  \
    return make_float2(expf(mean + stddev * pair.x), expf(mean + stddev * pair.y));                        \
  }                                                                                                        \
  __GPUSYM_ROCRAND double2 rocrand_log_normal_double2(State *state, double mean, double stddev) {          \
    double2 pair = rocrand_normal_double2(state);                                                          \
    return make_double2(exp(mean + stddev * pair.x), exp(mean + stddev * pair.y));                         \
  }                                                                                                        \
  __GPUSYM_ROCRAND unsigned int rocrand_poisson(State *state, double lambda) {                             \
    return gpusym_random::poisson(                                                                         \
        lambda, [state] { return rocrand_uniform_double(state); }, [state] { return rocrand_normal_double(state); }); \
  }
__GPUSYM_ROCRAND_DISTRIBUTIONS(rocrand_state_xorwow)
__GPUSYM_ROCRAND_DISTRIBUTIONS(rocrand_state_philox4x32_10)
__GPUSYM_ROCRAND_DISTRIBUTIONS(rocrand_state_mrg32k3a)
#undef __GPUSYM_ROCRAND_DISTRIBUTIONS

/* Philox's forms on two and four outputs at once. */
__GPUSYM_ROCRAND float2 rocrand_uniform2(rocrand_state_philox4x32_10 *state) {
  unsigned int x = rocrand(state);
  return make_float2(__gpusym_rocrand_uniform(x), __gpusym_rocrand_uniform(rocrand(state)));
}
__GPUSYM_ROCRAND float4 rocrand_uniform4(rocrand_state_philox4x32_10 *state) {
  uint4 x = rocrand4(state);
  return make_float4(__gpusym_rocrand_uniform(x.x), __gpusym_rocrand_uniform(x.y), __gpusym_rocrand_uniform(x.z),
                     __gpusym_rocrand_uniform(x.w));
}
__GPUSYM_ROCRAND double2 rocrand_uniform_double2(rocrand_state_philox4x32_10 *state) {
  uint4 x = rocrand4(state);
  return make_double2(__gpusym_rocrand_uniform_double(x.x, x.y), __gpusym_rocrand_uniform_double(x.z, x.w));
}
__GPUSYM_ROCRAND double4 rocrand_uniform_double4(rocrand_state_philox4x32_10 *state) {
  double2 a = rocrand_uniform_double2(state), b = rocrand_uniform_double2(state);
  return make_double4(a.x, a.y, b.x, b.y);
}
__GPUSYM_ROCRAND float4 rocrand_normal4(rocrand_state_philox4x32_10 *state) {
  uint4 x = rocrand4(state);
  float2 a = __gpusym_rocrand_box_muller(x.x, x.y), b = __gpusym_rocrand_box_muller(x.z, x.w);
  return make_float4(a.x, a.y, b.x, b.y);
}
__GPUSYM_ROCRAND double4 rocrand_normal_double4(rocrand_state_philox4x32_10 *state) {
  double2 a = __gpusym_rocrand_box_muller_double(rocrand4(state));
  double2 b = __gpusym_rocrand_box_muller_double(rocrand4(state));
  return make_double4(a.x, a.y, b.x, b.y);
}
__GPUSYM_ROCRAND float4 rocrand_log_normal4(rocrand_state_philox4x32_10 *state, float mean, float stddev) {
  float4 n = rocrand_normal4(state);
  return make_float4(expf(mean + stddev * n.x), expf(mean + stddev * n.y), expf(mean + stddev * n.z),
                     expf(mean + stddev * n.w));
}
__GPUSYM_ROCRAND double4 rocrand_log_normal_double4(rocrand_state_philox4x32_10 *state, double mean, double stddev) {
  double4 n = rocrand_normal_double4(state);
  return make_double4(exp(mean + stddev * n.x), exp(mean + stddev * n.y), exp(mean + stddev * n.z),
                      exp(mean + stddev * n.w));
}
__GPUSYM_ROCRAND uint4 rocrand_poisson4(rocrand_state_philox4x32_10 *state, double lambda) {
  unsigned int a = rocrand_poisson(state, lambda), b = rocrand_poisson(state, lambda);
  unsigned int c = rocrand_poisson(state, lambda);
  return make_uint4(a, b, c, rocrand_poisson(state, lambda));
}

#undef __GPUSYM_ROCRAND

#endif
