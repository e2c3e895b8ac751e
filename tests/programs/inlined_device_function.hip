// A non-static __device__ function with a parameter, inlined into a kernel
// at -O1 and above: its out-of-line copy's parameters name their type only
// through DW_AT_abstract_origin.
#include <hip/hip_runtime.h>

#include <cstdio>

__device__ unsigned twice(unsigned x) { return 2 * x + 1; }

__global__ void apply_twice(unsigned* out, unsigned value) { *out = twice(value); }

int main() {
  unsigned* device = nullptr;
  unsigned host = 0;
  hipMalloc(&device, sizeof host);
  hipLaunchKernelGGL(apply_twice, dim3(1), dim3(1), 0, 0, device, 20u);
  hipMemcpy(&host, device, sizeof host, hipMemcpyDeviceToHost);
  printf("twice(20) = %u\n", host);
  return 0;
}
