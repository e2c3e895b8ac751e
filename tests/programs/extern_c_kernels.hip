// Kernels with C linkage: their names are not mangled, so the names say
// nothing of their parameters' types (gpusym query reads them from the
// code object's debug information, with -g).
#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdio>

namespace shapes {
struct Pair {
  int first;
  float second;
};
}  // namespace shapes

typedef unsigned int count_t;

extern "C" __global__ void saxpy(const float* x, float* y, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] += a * x[i];
}

extern "C" {
__global__ void tally(count_t* counts, shapes::Pair pair, size_t n, const volatile char* flags) {
  if (threadIdx.x < n && flags[threadIdx.x]) atomicAdd(counts, pair.first);
}
}

int main() {
  float *x, *y;
  hipMalloc(&x, 64 * sizeof(float));
  hipMalloc(&y, 64 * sizeof(float));
  hipMemset(x, 0, 64 * sizeof(float));
  hipMemset(y, 0, 64 * sizeof(float));
  saxpy<<<1, 64>>>(x, y, 2.0f, 64);
  count_t* counts;
  char* flags;
  hipMalloc(&counts, sizeof(count_t));
  hipMalloc(&flags, 32);
  hipMemset(counts, 0, sizeof(count_t));
  hipMemset(flags, 1, 32);
  tally<<<1, 32>>>(counts, shapes::Pair{2, 0.5f}, 32, flags);
  count_t total = 0;
  hipMemcpy(&total, counts, sizeof(count_t), hipMemcpyDeviceToHost);
  printf("extern_c_kernels: total %u\n", total);
  hipFree(x);
  hipFree(y);
  hipFree(counts);
  hipFree(flags);
  return total != 64;
}
