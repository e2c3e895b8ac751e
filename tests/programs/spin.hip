// A kernel whose lanes spin until the debugger stops them: Ctrl-C lands
// while a dispatch runs.  The host says when it has launched.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void spin(volatile long* counter) {
  for (long i = 0; i < (1L << 50); i++) counter[threadIdx.x] = i;  // spin: the loop
}

int main() {
  long* counter;
  hipMalloc(&counter, 64 * sizeof(long));
  hipLaunchKernelGGL(spin, dim3(2), dim3(64), 0, 0, counter);
  printf("spin: launched\n");
  fflush(stdout);
  hipDeviceSynchronize();
  hipFree(counter);
  return 0;
}
