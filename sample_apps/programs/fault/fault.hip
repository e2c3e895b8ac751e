// fault: a kernel that runs past the end of its buffer.  The grid covers
// 1024 threads for 960 elements and the kernel has no bounds check, so
// thread 192 of block 3 reads element 960, just past the allocation.
// On a GPU that is silent corruption (or garbage); the simulated device stops the
// program with a report naming the kernel, block, thread, address and the
// allocation, and ends it with SIGSEGV.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void scale(float* data, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  data[i] *= factor;  // the bug: no `if (i < n)`
}

int main() {
  const int n = 960;
  float* data;
  hipMalloc(&data, n * sizeof(float));
  hipMemset(data, 0, n * sizeof(float));
  scale<<<4, 256>>>(data, 2.0f);
  hipDeviceSynchronize();
  printf("fault: the out-of-bounds write went unnoticed\n");
  return 1;
}
