// Kernels of a static library, launched by a function host code calls.
#include <cuda_runtime.h>

__global__ void square_all(int *values, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) values[i] *= values[i];
}

int squares_on_device(int *host, int n) {
  int *device = nullptr;
  if (cudaMalloc(&device, n * sizeof(int)) != cudaSuccess) return -1;
  cudaMemcpy(device, host, n * sizeof(int), cudaMemcpyHostToDevice);
  square_all<<<(n + 63) / 64, 64>>>(device, n);
  cudaMemcpy(host, device, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaFree(device);
  return static_cast<int>(cudaGetLastError());
}
