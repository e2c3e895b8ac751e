// The other source of statics_a.hip: its own static device variables of the
// same names, and the program's main.
#include <hip/hip_runtime.h>
#include <cstdio>

static __constant__ int factor;
static __device__ int result[4];

__global__ void scale_b() { result[threadIdx.x] = factor + static_cast<int>(threadIdx.x); }

void run_a(int *out);

int main() {
  int a[4], b[4], value = 10;
  run_a(a);
  hipMemcpyToSymbol(HIP_SYMBOL(factor), &value, sizeof value);
  scale_b<<<1, 4>>>();
  hipMemcpyFromSymbol(b, HIP_SYMBOL(result), sizeof b);
  for (int x : a) printf("%d ", x);
  for (int x : b) printf("%d ", x);
  printf("\n");
}
