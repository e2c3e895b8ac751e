#include <hip/hip_runtime.h>
#include <hip/hip_version.h>

#include <cstdio>

__global__ void square(float* values) { values[threadIdx.x] *= values[threadIdx.x]; }

int main() {
  float host[32];
  for (int i = 0; i < 32; ++i) host[i] = float(i);
  float* device = nullptr;
  if (hipMalloc(&device, sizeof host) != hipSuccess) return 1;
  hipMemcpy(device, host, sizeof host, hipMemcpyHostToDevice);
  square<<<1, 32>>>(device);
  hipMemcpy(host, device, sizeof host, hipMemcpyDeviceToHost);
  int version = 0;
  hipRuntimeGetVersion(&version);
  std::printf("squares %g %g runtime %d headers %d.%d\n", host[3], host[31], version, HIP_VERSION_MAJOR,
              HIP_VERSION_MINOR);
  return host[31] == 961.0f ? 0 : 1;
}
