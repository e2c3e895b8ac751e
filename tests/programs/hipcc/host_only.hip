// Launches a kernel whose fat binary (made by hand from AMDGPU code only)
// has no code for the simulated device.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void square(int *p) { p[threadIdx.x] *= p[threadIdx.x]; }

int main() {
  int *device = nullptr;
  if (hipMalloc(&device, 16) != hipSuccess) return 1;
  square<<<1, 4>>>(device);
  hipError_t first = hipGetLastError();
  square<<<1, 4>>>(device);
  hipError_t second = hipGetLastError();
  printf("%s %s\n", hipGetErrorName(first), hipGetErrorName(second));
  return 0;
}
