/*
 * The random-number generators under gpusym's cuRAND, rocRAND and hipRAND:
 * their bits, seeding, skips and the jump tables, on plain words.  The
 * device APIs (cuda/curand_kernel.h, rocrand/rocrand_kernel.h) keep their
 * own states and conversions to reals and call these; the host library
 * (device/libraries/rocrand) calls them from host code.  Device code (HIP
 * or CUDA compiles) gets __device__ functions, host code plain ones.
 *
 * XORWOW (Marsaglia, "Xorshift RNGs", 2003): state v[0..4] and the Weyl
 * counter d.  A step: t = v0 ^ (v0 >> 2); v0..v3 = v1..v4;
 * v4 = (v4 ^ (v4 << 4)) ^ (t ^ (t << 1)); d += 362437; the output is v4 + d.
 * Seeding (cuRAND's and rocRAND's, with different constants X0, X1, M0, M1):
 * t0 = M0 (low32(seed) ^ X0), t1 = M1 (high32(seed) ^ X1) mod 2^32,
 * d = 6615241 + t1 + t0, v = {123456789 + t0, 362436069 ^ t0,
 * 521288629 + t1, 88675123 ^ t1, 5783321 + t0}; subsequences are 2^67
 * steps apart.  The step is linear on v over GF(2): a skip of n applies
 * the 160x160 bit matrix M^n (from powers M^(2^k) computed by squaring on
 * first use) and adds 362437 n to d.
 *
 * Philox4x32-10 (Salmon et al., "Parallel random numbers: as easy as 1, 2,
 * 3", SC 2011): ten rounds on a 128-bit counter with a 64-bit key, the key
 * bumped by (0x9E3779B9, 0xBB67AE85) between rounds; a round with
 * multipliers 0xD2511F53 (on word 0) and 0xCD9E8D57 (on word 2) maps
 * (c0, c1, c2, c3) to (hi(M1 c2) ^ c1 ^ k0, lo(M1 c2), hi(M0 c0) ^ c3 ^ k1,
 * lo(M0 c0)).  key = seed (low word first); the counter's high 64 bits are
 * the subsequence, its low 64 bits count blocks of four outputs.
 *
 * MRG32k3a (L'Ecuyer, Operations Research 1999): two recurrences of order 3,
 *   x1[n] = (1403580 x1[n-2] - 810728 x1[n-3]) mod m1, m1 = 4294967087,
 *   x2[n] = (527612 x2[n-1] - 1370589 x2[n-3]) mod m2, m2 = 4294944443,
 * state s1 = (x1[n-3], x1[n-2], x1[n-1]), s2 likewise; the output
 * z = x1[n] - x2[n], plus m1 when that is <= 0, lies in [1, m1].  A step is
 * s -> A s with A1 = [0 1 0; 0 0 1; -810728 1403580 0] mod m1 and
 * A2 = [0 1 0; 0 0 1; -1370589 0 527612] mod m2; skips of n, n 2^76
 * (subsequences) and n 2^127 (sequences) steps apply powers A^(2^k).
 * cuRAND's seeding: all six words 12345 for seed 0, else with
 * a = low32(seed) ^ 0x55555555 and b = high32(seed) ^ 0xAAAAAAAA,
 * s1 = (12345 a, 12345 b, 12345 a) mod m1, s2 = (12345 b, 12345 a,
 * 12345 b) mod m2.  rocRAND's: the same with the seed (12345 for seed 0)
 * as the multiplier, reduced as rocRAND reduces a 64-bit product.
 *
 * Sobol (the quasirandom generators): with direction vectors v[k] and the
 * scramble constant c, the n-th value is c ^ (the v[k] of the set bits of
 * gray(n) = n ^ (n >> 1)); a step from n xors in the vector of n's lowest
 * clear bit.
 */
#ifndef GPUSYM_RANDOM_ENGINES_H
#define GPUSYM_RANDOM_ENGINES_H

#if defined(__HIP__) || defined(__CUDA__)
#define __GPUSYM_RANDOM_DEVICE 1
#define __GPUSYM_RANDOM static __device__ __attribute__((always_inline, nodebug)) inline
#define __GPUSYM_RANDOM_COLD static __device__ __attribute__((noinline)) inline
#define __GPUSYM_RANDOM_TABLE_STORAGE static __device__
#else
#include <math.h>
#define __GPUSYM_RANDOM static inline
#define __GPUSYM_RANDOM_COLD static __attribute__((noinline)) inline
#define __GPUSYM_RANDOM_TABLE_STORAGE static
#endif

namespace gpusym_random {

/* `table`, built by Build by the first caller to need it while the others
 * wait (a device lane building never yields to another, so none waits on
 * its own CPU thread).  table.ready: 0, 1 while one builds it, 2. */
template <typename Table, void (*Build)(Table &)>
__GPUSYM_RANDOM const Table &built(Table &table) {
  if (__atomic_load_n(&table.ready, __ATOMIC_ACQUIRE) != 2) {
    unsigned int expected = 0;
    if (__atomic_compare_exchange_n(&table.ready, &expected, 1u, false, __ATOMIC_ACQUIRE, __ATOMIC_ACQUIRE)) {
      Build(table);
      __atomic_store_n(&table.ready, 2u, __ATOMIC_RELEASE);
    }
    while (__atomic_load_n(&table.ready, __ATOMIC_ACQUIRE) != 2) {
#ifdef __GPUSYM_RANDOM_DEVICE
      __nanosleep(1000);
#else
      __builtin_ia32_pause();
#endif
    }
  }
  return table;
}

/* ---- XORWOW ---- */

struct xorwow_seeding {
  unsigned int low_xor, high_xor, low_multiplier, high_multiplier;
};
constexpr xorwow_seeding curand_xorwow_seeding = {0xaad26b49u, 0xf7dcefddu, 1099087573u, 2591861531u};
constexpr xorwow_seeding rocrand_xorwow_seeding = {0x2c7f967fu, 0xa03697cbu, 1228688033u, 2073658381u};

/* The bit matrices M^(2^k) of the step on v, for skips of 2^k steps (k < 64)
 * and of 2^(67 + k) steps (subsequences), each as 160 columns of 5 words. */
constexpr int xorwow_bits = 160;
struct xorwow_jumps {
  unsigned int ready;
  unsigned int offset[64][xorwow_bits][5];
  unsigned int subsequence[64][xorwow_bits][5];
};
__GPUSYM_RANDOM_TABLE_STORAGE xorwow_jumps xorwow_table;

__GPUSYM_RANDOM void xorwow_step(unsigned int v[5]) {
  unsigned int t = v[0] ^ (v[0] >> 2);
  v[0] = v[1];
  v[1] = v[2];
  v[2] = v[3];
  v[3] = v[4];
  v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
}

/* v = A v over GF(2). */
__GPUSYM_RANDOM void xorwow_apply(const unsigned int (*a)[5], unsigned int v[5]) {
  unsigned int r[5] = {0, 0, 0, 0, 0};
  for (int j = 0; j < xorwow_bits; j++)
    if ((v[j / 32] >> (j % 32)) & 1)
      for (int w = 0; w < 5; w++) r[w] ^= a[j][w];
  for (int w = 0; w < 5; w++) v[w] = r[w];
}

__GPUSYM_RANDOM_COLD void xorwow_build(xorwow_jumps &table) {
  unsigned int power[xorwow_bits][5];
  for (int j = 0; j < xorwow_bits; j++) { /* M: the step of each unit vector */
    for (int w = 0; w < 5; w++) power[j][w] = w == j / 32 ? 1u << (j % 32) : 0u;
    xorwow_step(power[j]);
  }
  for (int k = 0; k < 67 + 64; k++) { /* power is M^(2^k) */
    if (k < 64) __builtin_memcpy(table.offset[k], power, sizeof power);
    if (k >= 67) __builtin_memcpy(table.subsequence[k - 67], power, sizeof power);
    unsigned int square[xorwow_bits][5];
    __builtin_memcpy(square, power, sizeof power);
    for (int j = 0; j < xorwow_bits; j++) xorwow_apply(power, square[j]);
    __builtin_memcpy(power, square, sizeof power);
  }
}

/* n steps. */
__GPUSYM_RANDOM void xorwow_skip(unsigned long long n, unsigned int &d, unsigned int v[5]) {
  const xorwow_jumps &table = built<xorwow_jumps, xorwow_build>(xorwow_table);
  d += 362437u * static_cast<unsigned int>(n);
  for (int k = 0; n; k++, n >>= 1)
    if (n & 1) xorwow_apply(table.offset[k], v);
}

/* n subsequences of 2^67 steps: d moves by a multiple of 2^32. */
__GPUSYM_RANDOM void xorwow_skip_subsequences(unsigned long long n, unsigned int v[5]) {
  const xorwow_jumps &table = built<xorwow_jumps, xorwow_build>(xorwow_table);
  for (int k = 0; n; k++, n >>= 1)
    if (n & 1) xorwow_apply(table.subsequence[k], v);
}

__GPUSYM_RANDOM void xorwow_init(const xorwow_seeding &seeding, unsigned long long seed,
                                 unsigned long long subsequence, unsigned long long offset, unsigned int &d,
                                 unsigned int v[5]) {
  unsigned int t0 = seeding.low_multiplier * (static_cast<unsigned int>(seed) ^ seeding.low_xor);
  unsigned int t1 = seeding.high_multiplier * (static_cast<unsigned int>(seed >> 32) ^ seeding.high_xor);
  d = 6615241u + t1 + t0;
  v[0] = 123456789u + t0;
  v[1] = 362436069u ^ t0;
  v[2] = 521288629u + t1;
  v[3] = 88675123u ^ t1;
  v[4] = 5783321u + t0;
  if (subsequence) xorwow_skip_subsequences(subsequence, v);
  if (offset) xorwow_skip(offset, d, v);
}

__GPUSYM_RANDOM unsigned int xorwow_next(unsigned int &d, unsigned int v[5]) {
  xorwow_step(v);
  d += 362437u;
  return v[4] + d;
}

/* ---- Philox4x32-10 ---- */

/* out = the ten rounds of counter c under key k. */
__GPUSYM_RANDOM void philox_block(const unsigned int c_in[4], const unsigned int k_in[2], unsigned int out[4]) {
  unsigned int c[4] = {c_in[0], c_in[1], c_in[2], c_in[3]}, k[2] = {k_in[0], k_in[1]};
  for (int round = 0; round < 10; round++) {
    if (round) {
      k[0] += 0x9E3779B9u;
      k[1] += 0xBB67AE85u;
    }
    unsigned long long p0 = 0xD2511F53ull * c[0], p1 = 0xCD9E8D57ull * c[2];
    unsigned int next[4] = {static_cast<unsigned int>(p1 >> 32) ^ c[1] ^ k[0], static_cast<unsigned int>(p1),
                            static_cast<unsigned int>(p0 >> 32) ^ c[3] ^ k[1], static_cast<unsigned int>(p0)};
    for (int i = 0; i < 4; i++) c[i] = next[i];
  }
  for (int i = 0; i < 4; i++) out[i] = c[i];
}

/* The counter's low (or, `high`, high) 64 bits advanced by n, carried on. */
__GPUSYM_RANDOM void philox_advance(unsigned int c[4], unsigned long long n, bool high) {
  unsigned long long carry = n;
  for (int i = high ? 2 : 0; i < 4 && carry; i++) {
    unsigned long long sum = c[i] + (carry & 0xffffffffu);
    c[i] = static_cast<unsigned int>(sum);
    carry = (carry >> 32) + (sum >> 32);
  }
}

/* n outputs on from output `position` (0..3) of a block: position moves
 * on; returns how many blocks the counter moves on. */
__GPUSYM_RANDOM unsigned long long philox_skip(unsigned int &position, unsigned long long n) {
  unsigned long long blocks = n / 4;
  position += static_cast<unsigned int>(n % 4);
  if (position > 3) {
    blocks++;
    position -= 4;
  }
  return blocks;
}

/* ---- MRG32k3a ---- */

constexpr unsigned int mrg_m1 = 4294967087u;
constexpr unsigned int mrg_m2 = 4294944443u;
constexpr double mrg_norm = 2.3283065498378288e-10; /* 1 / m1 */

/* The powers A^(2^k) of each component's matrix (0: A1 mod m1, 1: A2 mod
 * m2), for skips of 2^k steps, 2^(76 + k) (subsequences) and 2^(127 + k)
 * (sequences), k < 64. */
struct mrg32k3a_jumps {
  unsigned int ready;
  unsigned int power[2][3][64][3][3];
};
__GPUSYM_RANDOM_TABLE_STORAGE mrg32k3a_jumps mrg32k3a_table;

__GPUSYM_RANDOM unsigned int mrg_mulmod(unsigned int a, unsigned int b, unsigned int m) {
  return static_cast<unsigned int>(static_cast<unsigned long long>(a) * b % m);
}

/* v = a v mod m. */
__GPUSYM_RANDOM void mrg_apply(const unsigned int (*a)[3], unsigned int v[3], unsigned int m) {
  unsigned int r[3];
  for (int i = 0; i < 3; i++) {
    unsigned long long sum = 0;
    for (int k = 0; k < 3; k++) sum += mrg_mulmod(a[i][k], v[k], m);
    r[i] = static_cast<unsigned int>(sum % m);
  }
  for (int i = 0; i < 3; i++) v[i] = r[i];
}

__GPUSYM_RANDOM_COLD void mrg32k3a_build(mrg32k3a_jumps &table) {
  const unsigned int moduli[2] = {mrg_m1, mrg_m2};
  const unsigned int steps[2][3][3] = {{{0, 1, 0}, {0, 0, 1}, {mrg_m1 - 810728u, 1403580u, 0}},
                                       {{0, 1, 0}, {0, 0, 1}, {mrg_m2 - 1370589u, 0, 527612u}}};
  for (int c = 0; c < 2; c++) {
    unsigned int power[3][3]; /* A^(2^k) */
    __builtin_memcpy(power, steps[c], sizeof power);
    for (int k = 0; k < 127 + 64; k++) {
      if (k < 64) __builtin_memcpy(table.power[c][0][k], power, sizeof power);
      if (k >= 76 && k < 76 + 64) __builtin_memcpy(table.power[c][1][k - 76], power, sizeof power);
      if (k >= 127) __builtin_memcpy(table.power[c][2][k - 127], power, sizeof power);
      unsigned int square[3][3];
      for (int j = 0; j < 3; j++) {
        unsigned int column[3] = {power[0][j], power[1][j], power[2][j]};
        mrg_apply(power, column, moduli[c]);
        for (int i = 0; i < 3; i++) square[i][j] = column[i];
      }
      __builtin_memcpy(power, square, sizeof power);
    }
  }
}

/* n skips of 1 (kind 0), 2^76 (1) or 2^127 (2) steps. */
__GPUSYM_RANDOM void mrg32k3a_skip(unsigned int s1[3], unsigned int s2[3], unsigned long long n, int kind) {
  const mrg32k3a_jumps &table = built<mrg32k3a_jumps, mrg32k3a_build>(mrg32k3a_table);
  for (int k = 0; n; k++, n >>= 1)
    if (n & 1) {
      mrg_apply(table.power[0][kind][k], s1, mrg_m1);
      mrg_apply(table.power[1][kind][k], s2, mrg_m2);
    }
}

__GPUSYM_RANDOM void mrg32k3a_seed_curand(unsigned long long seed, unsigned int s1[3], unsigned int s2[3]) {
  for (int i = 0; i < 3; i++) s1[i] = s2[i] = 12345u;
  if (seed) {
    unsigned int a = static_cast<unsigned int>(seed) ^ 0x55555555u;
    unsigned int b = static_cast<unsigned int>(seed >> 32) ^ 0xAAAAAAAAu;
    s1[0] = s1[2] = mrg_mulmod(a, 12345u, mrg_m1);
    s1[1] = mrg_mulmod(b, 12345u, mrg_m1);
    s2[0] = s2[2] = mrg_mulmod(b, 12345u, mrg_m2);
    s2[1] = mrg_mulmod(a, 12345u, mrg_m2);
  }
}

/* rocRAND's reduction of p toward [0, m) for m = 2^32 - fold: p's high word
 * folded in `folds` times, then one subtraction of m. */
__GPUSYM_RANDOM unsigned long long mrg_fold(unsigned long long p, unsigned int fold, unsigned int m, int folds) {
  for (int i = 0; i < folds; i++) p = fold * (p >> 32) + (p & 0xffffffffull);
  return p >= m ? p - m : p;
}

/* x seed mod m as rocRAND computes it: x split at bit 17, each part's
 * product with the 64-bit seed wrapping at 2^64 before it is folded. */
__GPUSYM_RANDOM unsigned int mrg_seed_product(unsigned int x, unsigned long long seed, unsigned int fold,
                                              unsigned int m, int folds) {
  unsigned long long high = x >> 17, low = x & 0x1ffffu;
  unsigned long long sum = mrg_fold(high * seed, fold, m, folds) * 131072ull + mrg_fold(low * seed, fold, m, folds);
  return static_cast<unsigned int>(mrg_fold(sum, fold, m, folds));
}

__GPUSYM_RANDOM void mrg32k3a_seed_rocrand(unsigned long long seed, unsigned int s1[3], unsigned int s2[3]) {
  if (!seed) seed = 12345u;
  unsigned int a = static_cast<unsigned int>(seed) ^ 0x55555555u;
  unsigned int b = static_cast<unsigned int>(seed >> 32) ^ 0xAAAAAAAAu;
  s1[0] = s1[2] = mrg_seed_product(a, seed, 209u, mrg_m1, 1);
  s1[1] = mrg_seed_product(b, seed, 209u, mrg_m1, 1);
  s2[0] = s2[2] = mrg_seed_product(b, seed, 22853u, mrg_m2, 2);
  s2[1] = mrg_seed_product(a, seed, 22853u, mrg_m2, 2);
}

/* One step; the combined output z, in [1, m1]. */
__GPUSYM_RANDOM unsigned int mrg32k3a_next(unsigned int s1[3], unsigned int s2[3]) {
  unsigned int p1 = static_cast<unsigned int>((1403580ull * s1[1] + 810728ull * (mrg_m1 - s1[0])) % mrg_m1);
  unsigned int p2 = static_cast<unsigned int>((527612ull * s2[2] + 1370589ull * (mrg_m2 - s2[0])) % mrg_m2);
  s1[0] = s1[1];
  s1[1] = s1[2];
  s1[2] = p1;
  s2[0] = s2[1];
  s2[1] = s2[2];
  s2[2] = p2;
  return p1 > p2 ? p1 - p2 : p1 - p2 + mrg_m1;
}

/* ---- Sobol ---- */

/* The value of point i. */
template <typename Word, int Bits>
__GPUSYM_RANDOM Word sobol_point(const Word *vectors, Word scramble, Word i) {
  Word gray = i ^ (i >> 1), x = scramble;
  for (int k = 0; k < Bits; k++)
    if ((gray >> k) & 1) x ^= vectors[k];
  return x;
}

/* x (point i's value) becomes point i + 1's. */
template <typename Word, int Bits>
__GPUSYM_RANDOM void sobol_step(const Word *vectors, Word &i, Word &x) {
  int k = 0; /* the lowest clear bit of i, at most Bits - 1 */
  while (k < Bits - 1 && ((i >> k) & 1)) k++;
  x ^= vectors[k];
  i++;
}

/* ---- rocRAND's conversions (rocrand/rocrand_kernel.h and the host library) ---- */

constexpr float rocrand_2pow32_inv = 2.3283064e-10f;
constexpr double rocrand_2pow53_inv = 1.1102230246251565e-16;

/* x's uniform in (0, 1]: 2^-32 + x 2^-32. */
__GPUSYM_RANDOM float rocrand_uniform_of(unsigned int x) { return rocrand_2pow32_inv + x * rocrand_2pow32_inv; }
/* Two outputs' double: 2^-53 + (x | (y >> 11) << 32) 2^-53. */
__GPUSYM_RANDOM double rocrand_uniform_double_of(unsigned int x, unsigned int y) {
  unsigned long long bits = x | (static_cast<unsigned long long>(y >> 11) << 32);
  return rocrand_2pow53_inv + bits * rocrand_2pow53_inv;
}

/* Box-Muller on the uniforms u and v (v in turns): sqrt(-2 ln u)
 * (sin 2pi v, cos 2pi v); `angle` is 2pi v in float, v itself in double. */
__GPUSYM_RANDOM void box_muller(float u, float angle, float out[2]) {
  float s = sqrtf(-2.0f * logf(u));
  out[0] = sinf(angle) * s;
  out[1] = cosf(angle) * s;
}
__GPUSYM_RANDOM void box_muller(double u, double turns, double out[2]) {
  double s = sqrt(-2.0 * log(u)), sine, cosine;
#ifdef __GPUSYM_RANDOM_DEVICE
  sincospi(2.0 * turns, &sine, &cosine);
#else
  sine = sin(2.0 * turns * 3.14159265358979323846);
  cosine = cos(2.0 * turns * 3.14159265358979323846);
#endif
  out[0] = sine * s;
  out[1] = cosine * s;
}

/* A normal pair from two outputs: u = 2^-32 + x 2^-32, angle = (y + 1) 2^-32 2pi. */
__GPUSYM_RANDOM void rocrand_normal_pair(unsigned int x, unsigned int y, float out[2]) {
  constexpr float step = rocrand_2pow32_inv * 6.2831855f;
  box_muller(rocrand_uniform_of(x), step + y * step, out);
}
/* From four: u = 2^-53 + (x0 ^ x1 << 21) 2^-53, turns = (1 + (y0 ^ y1 << 21)) 2^-53. */
__GPUSYM_RANDOM void rocrand_normal_double_pair(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1,
                                                double out[2]) {
  unsigned long long a = x0 ^ (static_cast<unsigned long long>(x1) << 21);
  unsigned long long b = y0 ^ (static_cast<unsigned long long>(y1) << 21);
  box_muller(rocrand_2pow53_inv + a * rocrand_2pow53_inv, rocrand_2pow53_inv + b * rocrand_2pow53_inv, out);
}
/* MRG32k3a's from two outputs z: u = z0 / m1, v = z1 / m1 (float or double). */
__GPUSYM_RANDOM void rocrand_mrg_normal_pair(unsigned int z0, unsigned int z1, float out[2]) {
  box_muller(static_cast<float>(z0 * mrg_norm), static_cast<float>(z1 * mrg_norm) * 6.2831855f, out);
}
__GPUSYM_RANDOM void rocrand_mrg_normal_double_pair(unsigned int z0, unsigned int z1, double out[2]) {
  box_muller(z0 * mrg_norm, z1 * mrg_norm, out);
}
/* MRG32k3a's 32-bit output of z: (unsigned) ((z - 1) (2^32 - 1) / (m1 - 1)). */
__GPUSYM_RANDOM unsigned int rocrand_mrg_bits(unsigned int z) {
  return static_cast<unsigned int>((z - 1) * 1.000000048661607);
}

/* ---- Poisson ---- */

/* A Poisson count of mean lambda: uniforms multiplied under e^-lambda
 * (Knuth) for lambda < 64, else a normal of mean and variance lambda,
 * rounded.  Uniform() gives doubles in (0, 1], Normal() standard normals;
 * exp and sqrt are the device's in device code, libm's in host code. */
/* cuRAND's conversions of outputs to reals, for curand_kernel.h's
 * distributions and cuRAND's host API alike: a uniform in (0, 1] from one
 * output (a double from two), a Box-Muller pair of normals from two (from
 * four). */
__GPUSYM_RANDOM float curand_uniform(unsigned int x) { return x * 2.3283064e-10f + 2.3283064e-10f / 2.0f; }
__GPUSYM_RANDOM double curand_uniform_double(unsigned int x, unsigned int y) {
  unsigned long long z = static_cast<unsigned long long>(x) ^ (static_cast<unsigned long long>(y) << 21);
  return z * 1.1102230246251565e-16 + 1.1102230246251565e-16 / 2.0;
}
__GPUSYM_RANDOM void curand_normals(unsigned int x, unsigned int y, float &first, float &second) {
  const float turn = 2.3283064e-10f * 6.2831855f;
  float angle = y * turn + turn / 2.0f, scale = sqrtf(-2.0f * logf(curand_uniform(x)));
  first = sinf(angle) * scale;
  second = cosf(angle) * scale;
}
__GPUSYM_RANDOM void curand_normals_double(unsigned int x0, unsigned int x1, unsigned int y0, unsigned int y1,
                                           double &first, double &second) {
  unsigned long long z = static_cast<unsigned long long>(y0) ^ (static_cast<unsigned long long>(y1) << 21);
  double half_turns = z * (1.1102230246251565e-16 * 2.0) + 1.1102230246251565e-16;
  double scale = sqrt(-2.0 * log(curand_uniform_double(x0, x1))), sine, cosine;
#if defined(__GPUSYM_RANDOM_DEVICE)
  sincospi(half_turns, &sine, &cosine);
#else
  sine = sin(half_turns * M_PI);
  cosine = cos(half_turns * M_PI);
#endif
  first = sine * scale;
  second = cosine * scale;
}

template <typename Uniform, typename Normal>
__GPUSYM_RANDOM unsigned int poisson(double lambda, Uniform uniform, Normal normal) {
  if (lambda >= 64) {
    double value = lambda + sqrt(lambda) * normal() + 0.5;
    return value > 0 ? static_cast<unsigned int>(value) : 0u;
  }
  double limit = exp(-lambda), product = uniform();
  unsigned int count = 0;
  for (; product > limit; count++) product *= uniform();
  return count;
}

}  // namespace gpusym_random

#undef __GPUSYM_RANDOM
#undef __GPUSYM_RANDOM_COLD
#undef __GPUSYM_RANDOM_TABLE_STORAGE
#undef __GPUSYM_RANDOM_DEVICE

#endif
