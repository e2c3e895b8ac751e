// interop: kernels compiled as HIP, launched from plain C++ (main.cpp).
#include <hip/hip_runtime.h>

__global__ void scale(float* data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

__global__ void shift(float* data, float delta, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += delta;
}

extern "C" hipError_t launch_shift(float* data, float delta, int n) {
  hipLaunchKernelGGL(shift, dim3((n + 127) / 128), dim3(128), 0, 0, data, delta, n);
  return hipGetLastError();
}
