// CUDA's math functions that host code may call too (rsqrtf, erfinvf,
// normcdf, sincospif, norm3df, ...): each on the host and on the device,
// against known values, one line each.
#include <cmath>
#include <cstdio>

#define FUNCTIONS(X)                                   \
  X(rsqrtf(4.0f), 0.5)                                 \
  X(rsqrt(0.25), 2.0)                                  \
  X(rcbrtf(8.0f), 0.5)                                 \
  X(sinpif(0.5f), 1.0)                                 \
  X(cospi(1.0), -1.0)                                  \
  X(erfinvf(0.5f), 0.4769362762044699)                 \
  X(erfinv(-0.9), -1.1630871536766743)                 \
  X(erfcinv(1e-10), 4.572824967389486)                 \
  X(normcdf(1.0), 0.8413447460685429)                  \
  X(normcdfinvf(0.975f), 1.959963984540054)            \
  X(erfcx(30.0), 0.018795888861416751)                 \
  X(norm3df(1.0f, 2.0f, 2.0f), 3.0)                    \
  X(rnorm4d(1.0, 1.0, 1.0, 1.0), 0.5)                  \
  X(rhypotf(3.0f, 4.0f), 0.2)                          \
  X(umin(3u, 4000000000u) + umax(3u, 4u), 7.0)         \
  X(double(llmax(-5ll, 2ll) + ullmin(7ull, 9ull)), 9.0)

constexpr int kCount = 16;

__host__ __device__ void evaluate(double *out) {
  int i = 0;
#define EVALUATE(call, expected) out[i++] = call;
  FUNCTIONS(EVALUATE)
}

__global__ void on_device(double *out) { evaluate(out); }

int main() {
  static const char *names[] = {
#define NAME(call, expected) #call,
      FUNCTIONS(NAME)};
  static const double expected[] = {
#define EXPECTED(call, value) value,
      FUNCTIONS(EXPECTED)};
  double host[kCount], device[kCount], *out;
  evaluate(host);
  cudaMalloc(&out, sizeof device);
  on_device<<<1, 1>>>(out);
  cudaMemcpy(device, out, sizeof device, cudaMemcpyDeviceToHost);
  for (int i = 0; i < kCount; i++) {
    double tolerance = 2e-6 * std::fabs(expected[i]);
    bool ok = std::fabs(host[i] - expected[i]) <= tolerance && std::fabs(device[i] - expected[i]) <= tolerance;
    if (ok)
      printf("%s: ok\n", names[i]);
    else
      printf("%s: FAIL (host %.9g, device %.9g)\n", names[i], host[i], device[i]);
  }
  return 0;
}
