// HIP's vector types as kernel parameters by value, the 32-byte aligned
// ones (double4, longlong4) included: on x86-64 they go on the stack at
// their alignment, around an int in a register.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void sum(double4 v, int n, longlong4 w, float4 f, char4 c, double* out) {
  out[0] = v.x + 10 * v.y + 100 * v.z + 1000 * v.w + n + w.x + w.w + f.y + f.z + c.x + c.w;
}

int main() {
  double* device = nullptr;
  hipMalloc(&device, sizeof(double));
  hipLaunchKernelGGL(sum, dim3(1), dim3(1), 0, 0, make_double4(1, 2, 3, 4), 5, make_longlong4(6, 0, 0, 7),
                     make_float4(0, 8, 9, 0), make_char4(10, 0, 0, 11), device);
  double host = 0;
  hipMemcpy(&host, device, sizeof host, hipMemcpyDeviceToHost);
  printf("%g %s\n", host, hipGetErrorName(hipGetLastError()));
  return 0;
}
