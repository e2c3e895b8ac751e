// The kernel and its launcher, called from plain C++ (main.cpp).
#include <cstdio>

__device__ float scaled(float value, float factor);

template <typename T>
__global__ void scale_all(T *data, int n, T factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = scaled(data[i], factor);
}

int scale_on_device(float *host, int n, float factor) {
  float *device = nullptr;
  if (cudaMalloc(&device, n * sizeof(float)) != cudaSuccess) return -1;
  cudaMemcpy(device, host, n * sizeof(float), cudaMemcpyHostToDevice);
  scale_all<float><<<(n + 127) / 128, 128>>>(device, n, factor);
  cudaError_t launched = cudaGetLastError();
  cudaMemcpy(host, device, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaFree(device);
  return launched == cudaSuccess ? 0 : -1;
}
