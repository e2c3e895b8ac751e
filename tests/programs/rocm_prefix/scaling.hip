#include <hip/hip_runtime.h>

#include "scaling.h"

__global__ void scale(int* values, int count, int factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) values[i] = i * factor;
}

long scaled_sum(int count, int factor) {
  int* device = nullptr;
  if (hipMalloc(&device, count * sizeof(int)) != hipSuccess) return -1;
  scale<<<(count + 63) / 64, 64>>>(device, count, factor);
  int* host = new int[count];
  hipError_t copied = hipMemcpy(host, device, count * sizeof(int), hipMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < count; ++i) sum += host[i];
  delete[] host;
  hipFree(device);
  return copied == hipSuccess ? sum : -1;
}
