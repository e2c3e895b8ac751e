// hipRAND's and rocRAND's device and host APIs: each line names what was
// generated, then the values (the test compares them with references
// computed from the algorithms' definitions, and checks the statistics).
#include <cstdio>
#include <cmath>
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>
#include <hiprand/hiprand_kernel.h>
#include <rocrand/rocrand_kernel.h>
#include <vector>

constexpr int kCount = 8;

template <typename State>
__global__ void bits(unsigned long long seed, unsigned long long subsequence, unsigned long long offset,
                     unsigned int *out) {
  State state;
  hiprand_init(seed, subsequence, offset, &state);
  for (int i = 0; i < kCount; i++) out[i] = hiprand(&state);
}

// skipahead(steps) after skipahead_sequence(sequences), from (seed, 0, 0).
template <typename State>
__global__ void skips(unsigned long long seed, unsigned long long sequences, unsigned long long steps,
                      unsigned int *out) {
  State state;
  hiprand_init(seed, 0, 0, &state);
  skipahead_sequence(sequences, &state);
  skipahead(steps, &state);
  for (int i = 0; i < kCount; i++) out[i] = hiprand(&state);
}

// rocRAND's own names.
__global__ void rocrand_names(unsigned long long seed, unsigned int *out) {
  rocrand_state_xorwow state;
  rocrand_init(seed, 1, 2, &state);
  for (int i = 0; i < kCount; i++) out[i] = rocrand(&state);
}

template <typename State>
__global__ void reals(unsigned long long seed, double *out) {
  State state;
  hiprand_init(seed, 0, 0, &state);
  for (int i = 0; i < 2; i++) out[i] = hiprand_uniform(&state);
  for (int i = 2; i < 4; i++) out[i] = hiprand_uniform_double(&state);
  for (int i = 4; i < 6; i++) out[i] = hiprand_normal(&state);
  for (int i = 6; i < 8; i++) out[i] = hiprand_normal_double(&state);
  for (int i = 8; i < 10; i++) out[i] = hiprand_log_normal(&state, 0.5f, 0.25f);
}

__global__ void philox4(unsigned long long seed, unsigned int *out, double *normals) {
  hiprandStatePhilox4_32_10_t state;
  hiprand_init(seed, 0, 1, &state);
  uint4 x = hiprand4(&state);
  out[0] = x.x, out[1] = x.y, out[2] = x.z, out[3] = x.w;
  float4 n = hiprand_normal4(&state);
  normals[0] = n.x, normals[1] = n.y, normals[2] = n.z, normals[3] = n.w;
}

__global__ void sobol(const unsigned int *vectors, unsigned int offset, unsigned int *out) {
  hiprandStateSobol32_t state;
  hiprand_init(const_cast<unsigned int *>(vectors), offset, &state);
  for (int i = 0; i < kCount; i++) out[i] = hiprand(&state);
}

// Per thread (own subsequence) sums: uniform min, max, sum; normal sum and
// sum of squares; Poisson(4) and Poisson(100) sums; log-normal(0, 0.5) sum.
constexpr int kThreads = 256, kPerThread = 400;
template <typename State>
__global__ void moments(unsigned long long seed, double *out) {
  int t = threadIdx.x;
  State state;
  hiprand_init(seed, t, 0, &state);
  double low = 2, high = -1, sum = 0, normal = 0, squares = 0, small = 0, large = 0, log_normal = 0;
  for (int i = 0; i < kPerThread; i++) {
    float u = hiprand_uniform(&state);
    low = fmin(low, u), high = fmax(high, u), sum += u;
    double n = hiprand_normal_double(&state);
    normal += n, squares += n * n;
    small += hiprand_poisson(&state, 4.0);
    large += hiprand_poisson(&state, 100.0);
    log_normal += hiprand_log_normal(&state, 0.0f, 0.5f);
  }
  double *row = out + 8 * t;
  row[0] = low, row[1] = high, row[2] = sum, row[3] = normal, row[4] = squares, row[5] = small, row[6] = large,
  row[7] = log_normal;
}

template <typename T, typename Fill>
std::vector<T> run(Fill fill) {
  T *device;
  (void)hipMalloc(&device, 8 * kThreads * sizeof(T));
  fill(device);
  std::vector<T> host(8 * kThreads);
  (void)hipMemcpy(host.data(), device, host.size() * sizeof(T), hipMemcpyDeviceToHost);
  (void)hipFree(device);
  return host;
}

void print(const char *name, const unsigned int *values, int n) {
  std::printf("%s:", name);
  for (int i = 0; i < n; i++) std::printf(" %u", values[i]);
  std::printf("\n");
}
void print(const char *name, const float *values, int n) {
  std::printf("%s:", name);
  for (int i = 0; i < n; i++) std::printf(" %.9g", values[i]);
  std::printf("\n");
}
void print(const char *name, const double *values, int n) {
  std::printf("%s:", name);
  for (int i = 0; i < n; i++) std::printf(" %.17g", values[i]);
  std::printf("\n");
}

#define CHECK(call)                                                          \
  do {                                                                       \
    int status_ = (call);                                                    \
    if (status_) std::printf("status %s %d\n", #call, status_);              \
  } while (0)

// Host API: `count` numbers of generator `type` into device memory, by `generate`.
template <typename T, typename Generate>
void host_api(const char *name, hiprandRngType_t type, unsigned long long seed, unsigned long long offset,
              hipStream_t stream, int count, Generate generate) {
  hiprandGenerator_t generator;
  CHECK(hiprandCreateGenerator(&generator, type));
  if (type == HIPRAND_RNG_QUASI_SOBOL32)
    CHECK(hiprandSetQuasiRandomGeneratorDimensions(generator, 2));
  else
    CHECK(hiprandSetPseudoRandomGeneratorSeed(generator, seed));
  CHECK(hiprandSetGeneratorOffset(generator, offset));
  CHECK(hiprandSetStream(generator, stream));
  T *device;
  CHECK(hipMalloc(&device, count * sizeof(T)));
  CHECK(generate(generator, device, count));
  std::vector<T> host(count);
  CHECK(hipMemcpyAsync(host.data(), device, count * sizeof(T), hipMemcpyDeviceToHost, stream));
  CHECK(hipStreamSynchronize(stream));
  print(name, host.data(), count);
  CHECK(hipFree(device));
  CHECK(hiprandDestroyGenerator(generator));
}

int main() {
  const unsigned long long seed = 1234;
  auto out = run<unsigned int>([](unsigned int *d) { bits<hiprandState_t><<<1, 1>>>(1234, 0, 0, d); });
  print("xorwow 0 0", out.data(), kCount);
  out = run<unsigned int>([](unsigned int *d) { bits<hiprandStateXORWOW_t><<<1, 1>>>(1234, 3, 5, d); });
  print("xorwow 3 5", out.data(), kCount);
  out = run<unsigned int>([](unsigned int *d) { bits<hiprandStatePhilox4_32_10_t><<<1, 1>>>(1234, 3, 5, d); });
  print("philox 3 5", out.data(), kCount);
  out = run<unsigned int>([](unsigned int *d) { bits<hiprandStateMRG32k3a_t><<<1, 1>>>(1234, 3, 5, d); });
  print("mrg32k3a 3 5", out.data(), kCount);
  out = run<unsigned int>([](unsigned int *d) { skips<hiprandStateXORWOW_t><<<1, 1>>>(1234, 2, 1000, d); });
  print("skip xorwow 2 1000", out.data(), kCount);
  out = run<unsigned int>([](unsigned int *d) { skips<hiprandStatePhilox4_32_10_t><<<1, 1>>>(1234, 2, 1001, d); });
  print("skip philox 2 1001", out.data(), kCount);
  out = run<unsigned int>([](unsigned int *d) { skips<hiprandStateMRG32k3a_t><<<1, 1>>>(1234, 2, 1000, d); });
  print("skip mrg32k3a 2 1000", out.data(), kCount);
  out = run<unsigned int>([](unsigned int *d) { rocrand_names<<<1, 1>>>(1234, d); });
  print("rocrand xorwow 1 2", out.data(), kCount);

  auto reals_x = run<double>([](double *d) { reals<hiprandStateXORWOW_t><<<1, 1>>>(1234, d); });
  print("reals xorwow", reals_x.data(), 10);
  auto reals_m = run<double>([](double *d) { reals<hiprandStateMRG32k3a_t><<<1, 1>>>(1234, d); });
  print("reals mrg32k3a", reals_m.data(), 10);

  unsigned int *p4;
  double *n4;
  (void)hipMalloc(&p4, 4 * sizeof(unsigned int));
  (void)hipMalloc(&n4, 4 * sizeof(double));
  philox4<<<1, 1>>>(seed, p4, n4);
  unsigned int p4_host[4];
  double n4_host[4];
  (void)hipMemcpy(p4_host, p4, sizeof p4_host, hipMemcpyDeviceToHost);
  (void)hipMemcpy(n4_host, n4, sizeof n4_host, hipMemcpyDeviceToHost);
  print("philox4 1", p4_host, 4);
  print("philox normal4", n4_host, 4);

  // Sobol: the direction vectors of Joe and Kuo's third dimension (s 2, a 1, m 1 3).
  unsigned int vectors[32], *device_vectors;
  vectors[0] = 1u << 31, vectors[1] = 3u << 30;
  for (int k = 2; k < 32; k++) vectors[k] = vectors[k - 2] ^ (vectors[k - 2] >> 2) ^ vectors[k - 1];
  (void)hipMalloc(&device_vectors, sizeof vectors);
  (void)hipMemcpy(device_vectors, vectors, sizeof vectors, hipMemcpyHostToDevice);
  out = run<unsigned int>([&](unsigned int *d) { sobol<<<1, 1>>>(device_vectors, 5, d); });
  print("sobol 5", out.data(), kCount);

  auto m = run<double>([](double *d) { moments<hiprandStatePhilox4_32_10_t><<<1, kThreads>>>(1234, d); });
  double total[8] = {2, -1, 0, 0, 0, 0, 0, 0};
  for (int t = 0; t < kThreads; t++) {
    total[0] = m[8 * t] < total[0] ? m[8 * t] : total[0];
    total[1] = m[8 * t + 1] > total[1] ? m[8 * t + 1] : total[1];
    for (int i = 2; i < 8; i++) total[i] += m[8 * t + i];
  }
  for (int i = 2; i < 8; i++) total[i] /= kThreads * kPerThread;
  print("moments philox", total, 8);

  // Host API.
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream));
  host_api<float>("host uniform xorwow 10", HIPRAND_RNG_PSEUDO_XORWOW, seed, 10, stream, 8, hiprandGenerateUniform);
  host_api<unsigned int>("host bits philox 7", HIPRAND_RNG_PSEUDO_PHILOX4_32_10, seed, 7, stream, 8, hiprandGenerate);
  host_api<unsigned int>("host bits mrg32k3a 0", HIPRAND_RNG_PSEUDO_MRG32K3A, seed, 0, nullptr, 8, hiprandGenerate);
  host_api<unsigned int>("host bits sobol32 3", HIPRAND_RNG_QUASI_SOBOL32, 0, 3, stream, 8, hiprandGenerate);
  host_api<double>("host normal_double philox 0", HIPRAND_RNG_PSEUDO_PHILOX4_32_10, seed, 0, stream, 4,
                   [](hiprandGenerator_t g, double *d, size_t n) {
                     return hiprandGenerateNormalDouble(g, d, n, 2.0, 3.0);
                   });
  host_api<double>("host uniform_double xorwow 0", HIPRAND_RNG_PSEUDO_XORWOW, seed, 0, stream, 4,
                   hiprandGenerateUniformDouble);

  // Two calls continue the sequence.
  hiprandGenerator_t generator;
  unsigned int *device_bits, host_bits[8];
  CHECK(hiprandCreateGenerator(&generator, HIPRAND_RNG_PSEUDO_XORWOW));
  CHECK(hiprandSetPseudoRandomGeneratorSeed(generator, seed));
  CHECK(hipMalloc(&device_bits, sizeof host_bits));
  CHECK(hiprandGenerate(generator, device_bits, 3));
  CHECK(hiprandGenerate(generator, device_bits + 3, 5));
  CHECK(hipMemcpy(host_bits, device_bits, sizeof host_bits, hipMemcpyDeviceToHost));
  print("host continued xorwow 0", host_bits, 8);

  // Statistics of the host API's distributions, from a host generator.
  hiprandGenerator_t host_generator;
  CHECK(hiprandCreateGeneratorHost(&host_generator, HIPRAND_RNG_PSEUDO_MRG32K3A));
  std::vector<float> normals(100000), log_normals(100000);
  std::vector<unsigned int> counts(100000);
  CHECK(hiprandGenerateNormal(host_generator, normals.data(), normals.size(), 1.0f, 2.0f));
  CHECK(hiprandGenerateLogNormal(host_generator, log_normals.data(), log_normals.size(), 0.0f, 0.5f));
  CHECK(hiprandGeneratePoisson(host_generator, counts.data(), counts.size(), 7.5));
  double stats[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < normals.size(); i++) {
    stats[0] += normals[i] / normals.size();
    stats[1] += (normals[i] - 1.0) * (normals[i] - 1.0) / normals.size();
    stats[2] += log_normals[i] / normals.size();
    stats[3] += counts[i] / double(normals.size());
  }
  print("host moments mrg32k3a", stats, 4);

  int version = 0;
  CHECK(hiprandGetVersion(&version));
  std::printf("version: %d\n", version);
  unsigned char chars[4];
  std::printf("not implemented: %d\n", hiprandGenerateChar(generator, chars, 4));
  CHECK(hiprandDestroyGenerator(generator));
  CHECK(hiprandDestroyGenerator(host_generator));
  return 0;
}
