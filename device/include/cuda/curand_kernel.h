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
 * The generators (their steps, cuRAND's seeding, the skips and jump tables)
 * are gpusym/random_engines.h's, shared with rocRAND and hipRAND; this header
 * keeps cuRAND's states and conversions.  Offsets skip single outputs;
 * curand_init's and skipahead_sequence's subsequences are 2^67 steps apart
 * for XORWOW and the counter's high 64 bits for Philox (offset n starts at
 * output n % 4 of block n / 4); MRG32k3a's curand_init and
 * skipahead_subsequence skip 2^76 steps each, skipahead_sequence 2^127.
 * cuRAND's conversions of MRG32k3a's z: curand() = (unsigned) (z
 * 1.000000048662) (a double product, so all 32 bits are used);
 * curand_uniform = (float) (z / m1) and curand_uniform_double = z / m1, one
 * output each, in (0, 1]; curand_normal is Box-Muller on two uniforms u, v:
 * sqrt(-2 ln u) (sin 2pi v, cos 2pi v), in float with v 2pi a float product;
 * curand_normal_double the same on two double uniforms, with sincospi(2 v).
 * Sobol's state keeps the index i, the value x and the scramble constant c;
 * curand returns x and steps.
 *
 * Distributions of XORWOW and Philox: curand_uniform is x 2^-32 + 2^-33 in
 * float, in (0, 1]; curand_uniform_double takes two outputs x, y:
 * (x ^ (y << 21)) 2^-53 + 2^-54 (Philox's takes one, (x + 1) 2^-32, and
 * curand_uniform2_double two of the former from four).  curand_normal is Box-Muller on two
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
#include "gpusym/random_engines.h"

#ifdef __GPUSYM_INLINE
#define __GPUSYM_CURAND static __device__ __GPUSYM_INLINE
#define __GPUSYM_CURAND_SINCOSPI sincospi
#else /* a host compiler's (a .cpp that includes it for the types): plain inline functions */
#define __GPUSYM_CURAND static inline
#include <math.h>
static inline void __gpusym_curand_sincospi(double x, double *sine, double *cosine) {
  *sine = sin(x * M_PI);
  *cosine = cos(x * M_PI);
}
#define __GPUSYM_CURAND_SINCOSPI __gpusym_curand_sincospi
#endif

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

/* ---- XORWOW ---- */

__GPUSYM_CURAND void skipahead(unsigned long long n, curandStateXORWOW_t *state) {
  gpusym_random::xorwow_skip(n, state->d, state->v);
}
/* 2^67 steps each. */
__GPUSYM_CURAND void skipahead_sequence(unsigned long long n, curandStateXORWOW_t *state) {
  gpusym_random::xorwow_skip_subsequences(n, state->v);
}

__GPUSYM_CURAND void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                 curandStateXORWOW_t *state) {
  gpusym_random::xorwow_init(gpusym_random::curand_xorwow_seeding, seed, subsequence, offset, state->d, state->v);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

__GPUSYM_CURAND unsigned int curand(curandStateXORWOW_t *state) {
  return gpusym_random::xorwow_next(state->d, state->v);
}

/* ---- Philox4x32-10 ---- */

/* The counter's low (or, `high`, high) 64 bits advanced by n, and its block. */
__GPUSYM_CURAND void __gpusym_philox_advance(curandStatePhilox4_32_10_t *state, unsigned long long n, bool high) {
  unsigned int counter[4] = {state->ctr.x, state->ctr.y, state->ctr.z, state->ctr.w}, key[2] = {state->key.x,
                                                                                                state->key.y};
  unsigned int block[4];
  gpusym_random::philox_advance(counter, n, high);
  gpusym_random::philox_block(counter, key, block);
  state->ctr = make_uint4(counter[0], counter[1], counter[2], counter[3]);
  state->output = make_uint4(block[0], block[1], block[2], block[3]);
}

__GPUSYM_CURAND void skipahead(unsigned long long n, curandStatePhilox4_32_10_t *state) {
  __gpusym_philox_advance(state, gpusym_random::philox_skip(state->STATE, n), false);
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

__GPUSYM_CURAND void skipahead(unsigned long long n, curandStateMRG32k3a_t *state) {
  gpusym_random::mrg32k3a_skip(state->s1, state->s2, n, 0);
}
/* 2^76 steps each, as cuRAND's (whose comment says n is masked to 51 bits,
 * which its code does not do: here any n skips n 2^76 steps). */
__GPUSYM_CURAND void skipahead_subsequence(unsigned long long n, curandStateMRG32k3a_t *state) {
  gpusym_random::mrg32k3a_skip(state->s1, state->s2, n, 1);
}
/* 2^127 steps each. */
__GPUSYM_CURAND void skipahead_sequence(unsigned long long n, curandStateMRG32k3a_t *state) {
  gpusym_random::mrg32k3a_skip(state->s1, state->s2, n, 2);
}

__GPUSYM_CURAND void curand_init(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                                 curandStateMRG32k3a_t *state) {
  gpusym_random::mrg32k3a_seed_curand(seed, state->s1, state->s2);
  if (subsequence) skipahead_subsequence(subsequence, state);
  if (offset) skipahead(offset, state);
  state->boxmuller_flag = 0;
  state->boxmuller_flag_double = 0;
  state->boxmuller_extra = 0.0f;
  state->boxmuller_extra_double = 0.0;
}

__GPUSYM_CURAND unsigned int __gpusym_mrg32k3a_next(curandStateMRG32k3a_t *state) {
  return gpusym_random::mrg32k3a_next(state->s1, state->s2);
}

#define __GPUSYM_MRG_NORM gpusym_random::mrg_norm

__GPUSYM_CURAND unsigned int curand(curandStateMRG32k3a_t *state) {
  return static_cast<unsigned int>(__gpusym_mrg32k3a_next(state) * 1.000000048662);
}

/* ---- Sobol32 and Sobol64, plain and scrambled ---- */

#define __GPUSYM_CURAND_SOBOL(State, Word, Bits)                                                           \
  __GPUSYM_CURAND void skipahead(Word n, State *state) {                                                  \
    state->i += n;                                                                                        \
    state->x = gpusym_random::sobol_point<Word, Bits>(state->direction_vectors, state->c, state->i);      \
  }                                                                                                       \
  __GPUSYM_CURAND Word curand(State *state) {                                                             \
    Word value = state->x;                                                                                \
    gpusym_random::sobol_step<Word, Bits>(state->direction_vectors, state->i, state->x);                  \
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

__GPUSYM_CURAND float __gpusym_curand_uniform(unsigned int x) { return gpusym_random::curand_uniform(x); }
__GPUSYM_CURAND double __gpusym_curand_uniform_double(unsigned int x, unsigned int y) {
  return gpusym_random::curand_uniform_double(x, y);
}
__GPUSYM_CURAND float2 __gpusym_box_muller(unsigned int x, unsigned int y) {
  float2 pair;
  gpusym_random::curand_normals(x, y, pair.x, pair.y);
  return pair;
}
__GPUSYM_CURAND double2 __gpusym_box_muller_double(unsigned int x0, unsigned int x1, unsigned int y0,
                                                   unsigned int y1) {
  double2 pair;
  gpusym_random::curand_normals_double(x0, x1, y0, y1, pair.x, pair.y);
  return pair;
}

/* XORWOW's and Philox's uniforms and normal pairs, from their bits. */
#define __GPUSYM_CURAND_FROM_BITS(State)                                                                  \
  __GPUSYM_CURAND float curand_uniform(State *state) { return __gpusym_curand_uniform(curand(state)); }   \
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
__GPUSYM_CURAND double curand_uniform_double(curandStateXORWOW_t *state) {
  unsigned int x = curand(state);
  return __gpusym_curand_uniform_double(x, curand(state));
}
/* Philox's takes one output, as cuRAND's does: (x + 1) 2^-32 (its two-output
 * form is curand_uniform2_double's). */
__GPUSYM_CURAND double curand_uniform_double(curandStatePhilox4_32_10_t *state) {
  return (curand(state) + 1.0) * 2.3283064365386963e-10;
}

/* MRG32k3a's, from its combined output z. */
__GPUSYM_CURAND float curand_uniform(curandStateMRG32k3a_t *state) {
  return static_cast<float>(__gpusym_mrg32k3a_next(state) * __GPUSYM_MRG_NORM);
}
__GPUSYM_CURAND double curand_uniform_double(curandStateMRG32k3a_t *state) {
  return __gpusym_mrg32k3a_next(state) * __GPUSYM_MRG_NORM;
}
__GPUSYM_CURAND float2 curand_normal2(curandStateMRG32k3a_t *state) {
  float u = curand_uniform(state);
  float v = curand_uniform(state) * 6.2831855f;
  float s = sqrtf(-2.0f * logf(u)), sine, cosine;
  sincosf(v, &sine, &cosine);
  return make_float2(sine * s, cosine * s);
}
__GPUSYM_CURAND double2 curand_normal2_double(curandStateMRG32k3a_t *state) {
  double u = curand_uniform_double(state);
  double v = curand_uniform_double(state) * 2.0;
  double s = sqrt(-2.0 * log(u)), sine, cosine;
  __GPUSYM_CURAND_SINCOSPI(v, &sine, &cosine);
  return make_double2(sine * s, cosine * s);
}

/* The Sobol generators' uniforms: one value each. */
__GPUSYM_CURAND float __gpusym_sobol_uniform(unsigned int x) { return __gpusym_curand_uniform(x); }
__GPUSYM_CURAND float __gpusym_sobol_uniform(unsigned long long x) {
  return __gpusym_curand_uniform(static_cast<unsigned int>(x >> 32));
}
__GPUSYM_CURAND double __gpusym_sobol_uniform_double(unsigned int x) { return x * 0x1p-32 + 0x1p-33; }
__GPUSYM_CURAND double __gpusym_sobol_uniform_double(unsigned long long x) {
  return (x >> 11) * 0x1p-53 + 0x1p-54;
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
    return gpusym_random::poisson(                                                                        \
        lambda, [state] { return curand_uniform_double(state); }, [state] { return curand_normal_double(state); }); \
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
