// Compiled as HIP by gpusym-hipcc (as hipcc compiles .cpp sources).
#include <hip/hip_runtime.h>
#include <cstdio>

void launch_all(int *out);

__global__ void bump(int *out) { out[threadIdx.x] += 100; }

int main() {
  int *device = nullptr;
  if (hipMalloc(&device, 8 * sizeof(int)) != hipSuccess) return 1;
  launch_all(device);
  bump<<<1, 8>>>(device);
  int host[8];
  if (hipMemcpy(host, device, sizeof host, hipMemcpyDeviceToHost) != hipSuccess) return 1;
  for (int value : host) printf("%d ", value);
  printf("\n");
  return hipFree(device) == hipSuccess ? 0 : 1;
}
