// vector_kernels: a HIP translation unit whose host function takes float4,
// called from the plain C++ of vector_host.cpp.
#include <hip/hip_runtime.h>

__global__ void scale_vectors(float4* data, int n, float4 factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + 1.0f;
}

hipError_t scale_on_device(float4* host, int n, float4 factor) {
  float4* device;
  if (hipError_t error = hipMalloc(&device, n * sizeof(float4))) return error;
  hipMemcpy(device, host, n * sizeof(float4), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(scale_vectors, dim3((n + 63) / 64), dim3(64), 0, 0, device, n, factor);
  hipMemcpy(host, device, n * sizeof(float4), hipMemcpyDeviceToHost);
  return hipFree(device);
}
