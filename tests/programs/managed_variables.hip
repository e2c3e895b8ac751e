// __managed__ variables: one copy shared by host and device code, with its
// initializer, written by kernels and by the host in turn.
#include <hip/hip_runtime.h>

#include <cstdio>

__managed__ int counter = 5;
__managed__ float values[4];

__global__ void bump() {
  atomicAdd(&counter, 1);
  values[threadIdx.x] = threadIdx.x * 1.5f + counter * 0;
}

int main() {
  printf("initial: %d\n", counter);
  bump<<<1, 4>>>();
  hipDeviceSynchronize();
  printf("after a launch: %d %g %g\n", counter, values[1], values[3]);
  counter = 100;
  bump<<<2, 4>>>();
  hipDeviceSynchronize();
  printf("after the host wrote: %d\n", counter);
  hipPointerAttribute_t attributes;
  hipError_t status = hipPointerGetAttributes(&attributes, &counter);
  printf("attributes: %s managed=%d\n", hipGetErrorName(status), attributes.isManaged);
  return 0;
}
