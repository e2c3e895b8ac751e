// vector_add: c = a * scale + b on the device, checked on the host.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                      \
  do {                                                                                   \
    hipError_t error_ = (call);                                                          \
    if (error_ != hipSuccess) {                                                          \
      fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(error_));              \
      return 1;                                                                          \
    }                                                                                    \
  } while (0)

__global__ void vector_add(const float* a, const float* b, float* c, float scale, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    c[i] = a[i] * scale + b[i];
  }
}

int main() {
  const int n = 100000;
  const float scale = 2.5f;
  std::vector<float> a(n), b(n), c(n);
  for (int i = 0; i < n; i++) {
    a[i] = static_cast<float>(i);
    b[i] = static_cast<float>(n - i);
  }

  float *d_a, *d_b, *d_c;
  CHECK(hipMalloc(&d_a, n * sizeof(float)));
  CHECK(hipMalloc(&d_b, n * sizeof(float)));
  CHECK(hipMalloc(&d_c, n * sizeof(float)));
  CHECK(hipMemcpy(d_a, a.data(), n * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(d_b, b.data(), n * sizeof(float), hipMemcpyHostToDevice));

  const int block = 256;
  const int grid = (n + block - 1) / block;
  vector_add<<<grid, block>>>(d_a, d_b, d_c, scale, n);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(c.data(), d_c, n * sizeof(float), hipMemcpyDeviceToHost));

  int wrong = 0;
  for (int i = 0; i < n; i++) {
    if (c[i] != a[i] * scale + b[i]) wrong++;
  }
  CHECK(hipFree(d_a));
  CHECK(hipFree(d_b));
  CHECK(hipFree(d_c));
  printf("vector_add: %d elements, %d blocks of %d, %d wrong\n", n, grid, block, wrong);
  return wrong == 0 ? 0 : 1;
}
