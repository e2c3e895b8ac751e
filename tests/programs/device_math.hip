// Device math on the simulated device against the host's libm: one line per
// function with the device and host results.
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>

__global__ void compute(const float* x, float* f, double* d) {
  float v = x[0];
  f[0] = sqrtf(v);
  f[1] = expf(v);
  f[2] = sinf(v);
  f[3] = powf(v, 3.0f);
  f[4] = rsqrtf(v);
  f[5] = std::tanh(v);
  d[0] = exp(static_cast<double>(v));
  d[1] = log(static_cast<double>(v));
  d[2] = atan2(static_cast<double>(v), 2.0);
}

int main() {
  const float x = 1.7f;
  float *dx, *df;
  double* dd;
  float f[6];
  double d[3];
  hipMalloc(&dx, sizeof(float));
  hipMalloc(&df, sizeof f);
  hipMalloc(&dd, sizeof d);
  hipMemcpy(dx, &x, sizeof x, hipMemcpyHostToDevice);
  compute<<<1, 1>>>(dx, df, dd);
  hipMemcpy(f, df, sizeof f, hipMemcpyDeviceToHost);
  hipMemcpy(d, dd, sizeof d, hipMemcpyDeviceToHost);
  printf("sqrtf %.9g %.9g\n", f[0], std::sqrt(x));
  printf("expf %.9g %.9g\n", f[1], std::exp(x));
  printf("sinf %.9g %.9g\n", f[2], std::sin(x));
  printf("powf %.9g %.9g\n", f[3], std::pow(x, 3.0f));
  printf("rsqrtf %.9g %.9g\n", f[4], 1.0f / std::sqrt(x));
  printf("tanh %.9g %.9g\n", f[5], std::tanh(x));
  printf("exp %.17g %.17g\n", d[0], std::exp(static_cast<double>(x)));
  printf("log %.17g %.17g\n", d[1], std::log(static_cast<double>(x)));
  printf("atan2 %.17g %.17g\n", d[2], std::atan2(static_cast<double>(x), 2.0));
  return 0;
}
