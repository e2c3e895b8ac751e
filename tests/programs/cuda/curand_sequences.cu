// cuRAND's device generators: each line names a generator, its seed,
// subsequence and offset, and a function, then the values it returned (the
// test compares them with references computed from the algorithms).
#include <cstdio>
#include <curand_kernel.h>

constexpr int kCount = 8;

template <typename State>
__global__ void bits(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                     unsigned int *out) {
  State state;
  curand_init(seed, subsequence, offset, &state);
  for (int i = 0; i < kCount; i++) out[i] = curand(&state);
}

constexpr int kReals = 16;

template <typename State>
__global__ void reals(unsigned long long seed, unsigned long long subsequence, double *out) {
  State state;
  curand_init(seed, subsequence, 0, &state);
  for (int i = 0; i < 2; i++) out[i] = curand_uniform(&state);
  for (int i = 2; i < 4; i++) out[i] = curand_uniform_double(&state);
  for (int i = 4; i < 6; i++) out[i] = curand_normal(&state);
  for (int i = 6; i < 8; i++) out[i] = curand_normal_double(&state);
  for (int i = 8; i < 10; i++) out[i] = curand_log_normal(&state, 0.5f, 0.25f);
  for (int i = 10; i < 12; i++) out[i] = curand_log_normal_double(&state, -1.0, 2.0);
  float2 pair = curand_normal2(&state);
  double2 pair_double = curand_normal2_double(&state);
  out[12] = pair.x;
  out[13] = pair.y;
  out[14] = pair_double.x;
  out[15] = pair_double.y;
}

// MRG32k3a's three skips, after curand_init(seed, 0, 0).
__global__ void mrg_skips(unsigned long long seed, unsigned long long sequences, unsigned long long subsequences,
                          unsigned long long steps, unsigned int *out) {
  curandStateMRG32k3a_t state;
  curand_init(seed, 0, 0, &state);
  skipahead_sequence(sequences, &state);
  skipahead_subsequence(subsequences, &state);
  skipahead(steps, &state);
  for (int i = 0; i < kCount; i++) out[i] = curand(&state);
}

// Sobol32 and Sobol64 from the direction vectors of the first dimension
// (bit 31 - k, or 63 - k), plain from `offset` and scrambled.
__global__ void sobol(unsigned int offset, unsigned int *out32, unsigned long long *out64) {
  curandDirectionVectors32_t vectors32;
  curandDirectionVectors64_t vectors64;
  for (int k = 0; k < 32; k++) vectors32[k] = 1u << (31 - k);
  for (int k = 0; k < 64; k++) vectors64[k] = (k % 3 + 1ull) << (63 - k);
  curandStateSobol32_t plain32;
  curandStateScrambledSobol32_t scrambled32;
  curandStateSobol64_t plain64;
  curandStateScrambledSobol64_t scrambled64;
  curand_init(vectors32, offset, &plain32);
  curand_init(vectors32, 0x12345678u, offset, &scrambled32);
  curand_init(vectors64, offset, &plain64);
  curand_init(vectors64, 0x123456789abcdefull, offset, &scrambled64);
  for (int i = 0; i < kCount; i++) {
    out32[i] = curand(&plain32);
    out32[kCount + i] = curand(&scrambled32);
    out64[i] = curand(&plain64);
    out64[kCount + i] = curand(&scrambled64);
  }
}

// Philox's vector forms, after `skip` single outputs.
__global__ void philox_vectors(unsigned long long seed, unsigned int skip, unsigned int *out, float *reals) {
  curandStatePhilox4_32_10_t state;
  curand_init(seed, 0, 0, &state);
  for (unsigned int i = 0; i < skip; i++) curand(&state);
  uint4 a = curand4(&state);
  float4 u = curand_uniform4(&state);
  float4 n = curand_normal4(&state);
  unsigned int words[4] = {a.x, a.y, a.z, a.w};
  float values[8] = {u.x, u.y, u.z, u.w, n.x, n.y, n.z, n.w};
  for (int i = 0; i < 4; i++) out[i] = words[i];
  for (int i = 0; i < 8; i++) reals[i] = values[i];
}

// Many lanes, each its own subsequence, as programs use them: lane i's
// first value equals curand_init(seed, i, 0)'s first.
template <typename State>
__global__ void per_lane(unsigned long long seed, unsigned int *out) {
  State state;
  unsigned int id = blockIdx.x * blockDim.x + threadIdx.x;
  curand_init(seed, id, 0, &state);
  out[id] = curand(&state);
}

// Poisson and log-normal: their means over many draws.
template <typename State>
__global__ void moments(double lambda, double *out) {
  State state;
  curand_init(7, threadIdx.x, 0, &state);
  double poisson = 0, log_normal = 0;
  for (int i = 0; i < 1000; i++) {
    poisson += curand_poisson(&state, lambda);
    log_normal += curand_log_normal(&state, 0.0f, 0.5f);
  }
  out[2 * threadIdx.x] = poisson / 1000;
  out[2 * threadIdx.x + 1] = log_normal / 1000;
}

template <typename T>
static T *device_array(int count) {
  T *pointer = nullptr;
  cudaMalloc(&pointer, count * sizeof(T));
  return pointer;
}

template <typename State>
static void print_bits(const char *name, unsigned long long seed, unsigned long long subsequence,
                       unsigned long long offset) {
  unsigned int *out = device_array<unsigned int>(kCount), host[kCount];
  bits<State><<<1, 1>>>(seed, subsequence, offset, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("%s %llu %llu %llu curand", name, seed, subsequence, offset);
  for (unsigned int value : host) printf(" %u", value);
  printf("\n");
  cudaFree(out);
}

template <typename State>
static void print_reals(const char *name, unsigned long long seed, unsigned long long subsequence) {
  double *out = device_array<double>(kReals), host[kReals];
  reals<State><<<1, 1>>>(seed, subsequence, out);
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  printf("%s %llu %llu 0 reals", name, seed, subsequence);
  for (double value : host) printf(" %.17g", value);
  printf("\n");
  cudaFree(out);
}

template <typename State>
static void print_moments(const char *name) {
  for (double lambda : {4.0, 100.0}) {
    double *means = device_array<double>(64), host_means[64];
    moments<State><<<1, 32>>>(lambda, means);
    cudaMemcpy(host_means, means, sizeof host_means, cudaMemcpyDeviceToHost);
    double poisson = 0, log_normal = 0;
    for (int i = 0; i < 32; i++) {
      poisson += host_means[2 * i] / 32;
      log_normal += host_means[2 * i + 1] / 32;
    }
    printf("moments %s %g %.6f %.6f\n", name, lambda, poisson, log_normal);
    cudaFree(means);
  }
}

int main() {
  const unsigned long long offsets[][3] = {{1234, 0, 0}, {0, 0, 0}, {0xfedcba9876543210ull, 0, 0},
                                           {1234, 1, 0}, {1234, 3, 5}, {42, 0, 1000003},
                                           {42, 1ull << 40, 7}, {42, 0x8000000000000001ull, 0}};
  for (const auto &o : offsets) {
    print_bits<curandStateXORWOW_t>("xorwow", o[0], o[1], o[2]);
    print_bits<curandStatePhilox4_32_10_t>("philox", o[0], o[1], o[2]);
    print_bits<curandStateMRG32k3a_t>("mrg32k3a", o[0], o[1], o[2]);
  }
  print_reals<curandStateXORWOW_t>("xorwow", 1234, 0);
  print_reals<curandStatePhilox4_32_10_t>("philox", 1234, 0);
  print_reals<curandStateMRG32k3a_t>("mrg32k3a", 1234, 0);
  print_reals<curandStateMRG32k3a_t>("mrg32k3a", 0, 5);

  const unsigned long long skips[][4] = {{1234, 1, 0, 0}, {1234, 2, 3, 10}, {0, 0, 1ull << 51, 1ull << 63},
                                         {7, 0xffffffffffffffffull, 0xffffffffffffffffull, 0xffffffffffffffffull}};
  unsigned int *skipped = device_array<unsigned int>(kCount), host_skipped[kCount];
  for (const auto &k : skips) {
    mrg_skips<<<1, 1>>>(k[0], k[1], k[2], k[3], skipped);
    cudaMemcpy(host_skipped, skipped, sizeof host_skipped, cudaMemcpyDeviceToHost);
    printf("mrgskips %llu %llu %llu %llu", k[0], k[1], k[2], k[3]);
    for (unsigned int value : host_skipped) printf(" %u", value);
    printf("\n");
  }

  unsigned int *sobol32 = device_array<unsigned int>(2 * kCount), host_sobol32[2 * kCount];
  unsigned long long *sobol64 = device_array<unsigned long long>(2 * kCount), host_sobol64[2 * kCount];
  for (unsigned int offset : {0u, 5u, 1000u}) {
    sobol<<<1, 1>>>(offset, sobol32, sobol64);
    cudaMemcpy(host_sobol32, sobol32, sizeof host_sobol32, cudaMemcpyDeviceToHost);
    cudaMemcpy(host_sobol64, sobol64, sizeof host_sobol64, cudaMemcpyDeviceToHost);
    printf("sobol %u", offset);
    for (unsigned int value : host_sobol32) printf(" %u", value);
    for (unsigned long long value : host_sobol64) printf(" %llu", value);
    printf("\n");
  }

  unsigned int *words = device_array<unsigned int>(4), host_words[4];
  float *reals = device_array<float>(8), host_reals[8];
  for (unsigned int skip = 0; skip < 4; skip++) {
    philox_vectors<<<1, 1>>>(99, skip, words, reals);
    cudaMemcpy(host_words, words, sizeof host_words, cudaMemcpyDeviceToHost);
    cudaMemcpy(host_reals, reals, sizeof host_reals, cudaMemcpyDeviceToHost);
    printf("philox4 99 %u %u %u %u %u", skip, host_words[0], host_words[1], host_words[2], host_words[3]);
    for (float value : host_reals) printf(" %.9g", value);
    printf("\n");
  }

  const int lanes = 96;
  unsigned int *firsts = device_array<unsigned int>(lanes), host_firsts[lanes];
  per_lane<curandState><<<3, 32>>>(1234, firsts);
  cudaMemcpy(host_firsts, firsts, sizeof host_firsts, cudaMemcpyDeviceToHost);
  printf("lanes 1234");
  for (unsigned int value : host_firsts) printf(" %u", value);
  printf("\n");
  per_lane<curandStateMRG32k3a_t><<<3, 32>>>(1234, firsts);
  cudaMemcpy(host_firsts, firsts, sizeof host_firsts, cudaMemcpyDeviceToHost);
  printf("mrglanes 1234");
  for (unsigned int value : host_firsts) printf(" %u", value);
  printf("\n");

  print_moments<curandStateXORWOW_t>("xorwow");
  print_moments<curandStatePhilox4_32_10_t>("philox");
  print_moments<curandStateMRG32k3a_t>("mrg32k3a");
  return cudaGetLastError() == cudaSuccess ? 0 : 1;
}
