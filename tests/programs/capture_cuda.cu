// capture_cuda: CUDA launches for gpusym capture.  On a machine without a
// GPU every launch fails (cudaErrorInsufficientDriver) but the host side
// runs.  g through its stub (grid 2, block 32), then cudaLaunchKernel on
// g's handle (grid 3, block 64); prints each launch's result.
#include <cuda_runtime.h>

#include <cstdio>

__global__ void g(float* p, int n) {
  if (p && threadIdx.x < n) p[threadIdx.x] = 1.0f;
}

int main() {
  float* p = nullptr;
  int n = 4;
  g<<<2, 32>>>(p, n);
  cudaError_t stub = cudaGetLastError();
  void* args[] = {&p, &n};
  cudaError_t handle = cudaLaunchKernel((const void*)g, dim3(3), dim3(64), args, 0, nullptr);
  printf("%s %s\n", cudaGetErrorName(stub), cudaGetErrorName(handle));
  return 0;
}
