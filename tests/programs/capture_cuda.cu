// capture_cuda: CUDA launches for gpusym capture.  On a machine without a
// GPU every launch fails (cudaErrorInsufficientDriver) but the host side
// runs.  g through its stub (grid 2, block 32), then cudaLaunchKernel on
// g's handle (grid 3, block 64), then cudaLaunchKernelExC (grid 4, block
// 16, 8 bytes of shared memory); prints each launch's result.
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
  cudaLaunchConfig_t config = {};
  config.gridDim = dim3(4);
  config.blockDim = dim3(16);
  config.dynamicSmemBytes = 8;
  cudaError_t extended = cudaLaunchKernelExC(&config, (const void*)g, args);
  printf("%s %s %s\n", cudaGetErrorName(stub), cudaGetErrorName(handle), cudaGetErrorName(extended));
  return 0;
}
