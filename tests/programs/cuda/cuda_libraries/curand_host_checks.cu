// cuRAND's host API on the simulated device: the generators' sequences are
// the device API's from curand_init(seed, 0, offset) (computed here by a
// kernel), on device and host generators; and the statistics of uniforms,
// normals, log-normals and Poisson counts.  Prints "NAME: ok" or
// "NAME: FAILED ...".
#include <curand.h>
#include <curand_kernel.h>

#include <cmath>
#include <cstdio>
#include <vector>

static int failures = 0;

static void report(const char *name, bool ok) {
  printf("%s: %s\n", name, ok ? "ok" : "FAILED");
  if (!ok) failures++;
}

#define CHECK(call)                                                \
  do {                                                             \
    curandStatus_t s_ = (call);                                    \
    if (s_ != CURAND_STATUS_SUCCESS) {                             \
      printf("%s: FAILED status %d\n", #call, int(s_));            \
      failures++;                                                  \
    }                                                              \
  } while (0)

constexpr int N = 64;
constexpr unsigned long long SEED = 1234;

// One thread draws, from subsequence 0: N bits, N uniforms, N normals.
template <class State>
__global__ void device_draws(unsigned long long seed, unsigned long long offset, unsigned int *bits, float *uniforms,
                             float *normals, double *uniform_doubles) {
  State state;
  curand_init(seed, 0, offset, &state);
  for (int i = 0; i < N; i++) bits[i] = curand(&state);
  curand_init(seed, 0, offset, &state);
  for (int i = 0; i < N; i++) uniforms[i] = curand_uniform(&state);
  curand_init(seed, 0, offset, &state);
  for (int i = 0; i < N; i++) normals[i] = curand_normal(&state);
  curand_init(seed, 0, offset, &state);
  for (int i = 0; i < N; i++) uniform_doubles[i] = curand_uniform_double(&state);
}

struct Draws {
  std::vector<unsigned int> bits = std::vector<unsigned int>(N);
  std::vector<float> uniforms = std::vector<float>(N), normals = std::vector<float>(N);
  std::vector<double> uniform_doubles = std::vector<double>(N);
};

template <class State> Draws reference(unsigned long long offset) {
  unsigned int *bits;
  float *uniforms, *normals;
  double *doubles;
  cudaMallocManaged(&bits, N * sizeof(unsigned int));
  cudaMallocManaged(&uniforms, N * sizeof(float));
  cudaMallocManaged(&normals, N * sizeof(float));
  cudaMallocManaged(&doubles, N * sizeof(double));
  device_draws<State><<<1, 1>>>(SEED, offset, bits, uniforms, normals, doubles);
  cudaDeviceSynchronize();
  Draws d;
  d.bits.assign(bits, bits + N);
  d.uniforms.assign(uniforms, uniforms + N);
  d.normals.assign(normals, normals + N);
  d.uniform_doubles.assign(doubles, doubles + N);
  cudaFree(bits), cudaFree(uniforms), cudaFree(normals), cudaFree(doubles);
  return d;
}

// The same draws from the host API, with a device generator (into managed
// memory) or a host one.
Draws host_api(curandRngType_t type, bool host, unsigned long long offset) {
  curandGenerator_t g;
  CHECK(host ? curandCreateGeneratorHost(&g, type) : curandCreateGenerator(&g, type));
  CHECK(curandSetPseudoRandomGeneratorSeed(g, SEED));
  CHECK(curandSetGeneratorOffset(g, offset));
  Draws d;
  unsigned int *bits;
  float *uniforms, *normals;
  double *doubles;
  cudaMallocManaged(&bits, N * sizeof(unsigned int));
  cudaMallocManaged(&uniforms, N * sizeof(float));
  cudaMallocManaged(&normals, N * sizeof(float));
  cudaMallocManaged(&doubles, N * sizeof(double));
  CHECK(curandGenerate(g, bits, N));
  CHECK(curandSetGeneratorOffset(g, offset));  // each draw from the start
  CHECK(curandGenerateUniform(g, uniforms, N));
  CHECK(curandSetGeneratorOffset(g, offset));
  CHECK(curandGenerateNormal(g, normals, N, 0.0f, 1.0f));
  CHECK(curandSetGeneratorOffset(g, offset));
  CHECK(curandGenerateUniformDouble(g, doubles, N));
  cudaDeviceSynchronize();
  d.bits.assign(bits, bits + N);
  d.uniforms.assign(uniforms, uniforms + N);
  d.normals.assign(normals, normals + N);
  d.uniform_doubles.assign(doubles, doubles + N);
  cudaFree(bits), cudaFree(uniforms), cudaFree(normals), cudaFree(doubles);
  CHECK(curandDestroyGenerator(g));
  return d;
}

template <class T> bool near(const std::vector<T> &a, const std::vector<T> &b, double tolerance) {
  for (int i = 0; i < N; i++)
    if (std::fabs(double(a[i]) - double(b[i])) > tolerance) return false;
  return true;
}

void compare(const char *name, const Draws &host, const Draws &device, bool bits) {
  char line[128];
  snprintf(line, sizeof line, "%s bits", name);
  if (bits) report(line, host.bits == device.bits);
  snprintf(line, sizeof line, "%s uniforms", name);
  report(line, near(host.uniforms, device.uniforms, 0));
  snprintf(line, sizeof line, "%s normals", name);
  report(line, near(host.normals, device.normals, 1e-5));
  snprintf(line, sizeof line, "%s uniform doubles", name);
  report(line, near(host.uniform_doubles, device.uniform_doubles, 0));
}

// Mean and standard deviation of n draws of `generate` into device memory.
template <class T, class F> void moments(F generate, size_t n, double &mean, double &stddev, bool log = false) {
  T *out;
  cudaMalloc(&out, n * sizeof(T));
  generate(out, n);
  std::vector<T> host(n);
  cudaMemcpy(host.data(), out, n * sizeof(T), cudaMemcpyDeviceToHost);
  double sum = 0, squares = 0;
  for (T v : host) {
    double x = log ? std::log(double(v)) : double(v);
    sum += x, squares += x * x;
  }
  mean = sum / n;
  stddev = std::sqrt(squares / n - mean * mean);
  cudaFree(out);
}

int main() {
  int version = 0;
  CHECK(curandGetVersion(&version));
  report("version", version == CURAND_VERSION);

  compare("XORWOW", host_api(CURAND_RNG_PSEUDO_XORWOW, false, 0), reference<curandStateXORWOW_t>(0), true);
  compare("XORWOW host generator, offset 10", host_api(CURAND_RNG_PSEUDO_DEFAULT, true, 10),
          reference<curandStateXORWOW_t>(10), true);
  compare("Philox", host_api(CURAND_RNG_PSEUDO_PHILOX4_32_10, false, 5), reference<curandStatePhilox4_32_10_t>(5),
          true);
  compare("MRG32k3a", host_api(CURAND_RNG_PSEUDO_MRG32K3A, false, 0), reference<curandStateMRG32k3a_t>(0), false);

  // Statistics, on a stream; successive calls continue the sequence.
  curandGenerator_t g;
  CHECK(curandCreateGenerator(&g, CURAND_RNG_PSEUDO_XORWOW));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  CHECK(curandSetStream(g, stream));
  const size_t n = 200000;
  double mean, stddev;
  moments<float>([&](float *out, size_t k) { CHECK(curandGenerateUniform(g, out, k)); cudaStreamSynchronize(stream); },
                 n, mean, stddev);
  report("uniform mean and deviation", std::fabs(mean - 0.5) < 0.01 && std::fabs(stddev - std::sqrt(1 / 12.0)) < 0.01);
  moments<float>(
      [&](float *out, size_t k) { CHECK(curandGenerateNormal(g, out, k, 3.0f, 2.0f)); cudaStreamSynchronize(stream); },
      n, mean, stddev);
  report("normal mean and deviation", std::fabs(mean - 3) < 0.02 && std::fabs(stddev - 2) < 0.02);
  moments<double>([&](double *out, size_t k) { CHECK(curandGenerateNormalDouble(g, out, k, -1.0, 0.5)); cudaStreamSynchronize(stream); },
                  n, mean, stddev);
  report("normal double mean and deviation", std::fabs(mean + 1) < 0.01 && std::fabs(stddev - 0.5) < 0.01);
  moments<float>([&](float *out, size_t k) { CHECK(curandGenerateLogNormal(g, out, k, 0.5f, 0.25f)); cudaStreamSynchronize(stream); },
                 n, mean, stddev, true);
  report("log-normal's log mean and deviation", std::fabs(mean - 0.5) < 0.01 && std::fabs(stddev - 0.25) < 0.01);
  moments<unsigned int>(
      [&](unsigned int *out, size_t k) { CHECK(curandGeneratePoisson(g, out, k, 4.5)); cudaStreamSynchronize(stream); },
      n, mean, stddev);
  report("Poisson mean and variance", std::fabs(mean - 4.5) < 0.05 && std::fabs(stddev * stddev - 4.5) < 0.1);

  // Bad calls.
  float *out;
  cudaMalloc(&out, 4 * sizeof(float));
  report("odd count of normals: CURAND_STATUS_LENGTH_NOT_MULTIPLE",
         curandGenerateNormal(g, out, 3, 0, 1) == CURAND_STATUS_LENGTH_NOT_MULTIPLE);
  curandGenerator_t other;
  report("MTGP32: CURAND_STATUS_TYPE_ERROR",
         curandCreateGenerator(&other, CURAND_RNG_PSEUDO_MTGP32) == CURAND_STATUS_TYPE_ERROR);
  report("null generator: CURAND_STATUS_NOT_INITIALIZED",
         curandGenerateUniform(nullptr, out, 4) == CURAND_STATUS_NOT_INITIALIZED);
  CHECK(curandCreateGenerator(&other, CURAND_RNG_QUASI_SOBOL32));
  CHECK(curandSetQuasiRandomGeneratorDimensions(other, 2));
  report("Sobol32 seed: CURAND_STATUS_TYPE_ERROR",
         curandSetPseudoRandomGeneratorSeed(other, 1) == CURAND_STATUS_TYPE_ERROR);
  CHECK(curandGenerateUniform(other, out, 4));
  std::vector<float> sobol(4);
  cudaMemcpy(sobol.data(), out, 4 * sizeof(float), cudaMemcpyDeviceToHost);
  // Each dimension's points 0 and 1 (0 and 2^31), one dimension after the other.
  report("Sobol32 uniforms", sobol[0] == 0x1p-33f && sobol[1] == 0.5f && sobol[2] == 0x1p-33f && sobol[3] == 0.5f);
  CHECK(curandDestroyGenerator(other));
  CHECK(curandDestroyGenerator(g));
  cudaStreamDestroy(stream);
  cudaFree(out);
  printf("curand: %d failed\n", failures);
  return failures != 0;
}
