// Kernels calling the device library's math (exp2f, logf, hypotf, cosf, ... are
// __ocml_* functions the runtime computes over libm) and a device assert()
// that holds: each has a fast form.  Prints each kernel's largest relative
// difference from the host's libm, then "math: N wrong".
#include <hip/hip_runtime.h>

#include <cassert>
#include <cmath>
#include <cstdio>
#include <vector>

constexpr int kCount = 4096, kThreads = 128;

__global__ void exponentials(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = exp2f(x[i]) + expf(-x[i]) + logf(1.0f + x[i] * x[i]) + log2f(2.0f + x[i]);
}

__global__ void geometry(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hypotf(x[i], 3.0f) + cbrtf(x[i]) + ldexpf(x[i], i % 5) + cosf(x[i]);
}

__global__ void checked_sum(const float* x, float* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(i < n);
  out[i] = x[i] + x[(i + 1) % n];
}

static float host_exponentials(float x) { return exp2f(x) + expf(-x) + logf(1.0f + x * x) + log2f(2.0f + x); }
static float host_geometry(float x, int i) { return hypotf(x, 3.0f) + cbrtf(x) + ldexpf(x, i % 5) + cosf(x); }

int main() {
  std::vector<float> x(kCount), out(kCount);
  for (int i = 0; i < kCount; i++) x[i] = (i % 200) / 40.0f - 1.5f;
  float *dx, *dout;
  hipMalloc(&dx, kCount * sizeof(float));
  hipMalloc(&dout, kCount * sizeof(float));
  hipMemcpy(dx, x.data(), kCount * sizeof(float), hipMemcpyHostToDevice);
  int wrong = 0;
  for (int kernel = 0; kernel < 3; kernel++) {
    const char* name = kernel == 0 ? "exponentials" : kernel == 1 ? "geometry" : "checked_sum";
    auto launch = kernel == 0 ? exponentials : kernel == 1 ? geometry : checked_sum;
    launch<<<kCount / kThreads, kThreads>>>(dx, dout, kCount);
    hipMemcpy(out.data(), dout, kCount * sizeof(float), hipMemcpyDeviceToHost);
    double largest = 0;
    for (int i = 0; i < kCount; i++) {
      float expected = kernel == 0   ? host_exponentials(x[i])
                       : kernel == 1 ? host_geometry(x[i], i)
                                     : x[i] + x[(i + 1) % kCount];
      double difference = std::fabs(out[i] - expected) / std::fmax(1.0, std::fabs(expected));
      if (!(difference <= 1e-6)) wrong++;
      if (difference > largest) largest = difference;
    }
    printf("%s: %.3g\n", name, largest);
  }
  printf("math: %d wrong\n", wrong);
  return wrong != 0;
}
