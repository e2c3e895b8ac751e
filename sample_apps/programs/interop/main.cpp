// interop: a plain C++ translation unit.  It knows the kernel `scale` only as
// a function declaration; the address it takes is the kernel's host handle,
// the case of C++ code launching HIP kernels through hipLaunchKernel.
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <vector>

void scale(float* data, float factor, int n);
extern "C" hipError_t launch_shift(float* data, float delta, int n);

int main() {
  int n = 1000;
  float factor = 3.0f;
  std::vector<float> host(n);
  for (int i = 0; i < n; i++) host[i] = static_cast<float>(i);

  float* data;
  hipMalloc(reinterpret_cast<void**>(&data), n * sizeof(float));
  hipMemcpy(data, host.data(), n * sizeof(float), hipMemcpyHostToDevice);

  void* args[] = {&data, &factor, &n};
  hipError_t launched = hipLaunchKernel(reinterpret_cast<const void*>(scale), dim3((n + 255) / 256), dim3(256),
                                        args, 0, nullptr);
  hipError_t shifted = launch_shift(data, 0.5f, n);
  hipMemcpy(host.data(), data, n * sizeof(float), hipMemcpyDeviceToHost);
  hipFree(data);

  int wrong = (launched != hipSuccess) + (shifted != hipSuccess);
  for (int i = 0; i < n; i++) wrong += host[i] != i * 3.0f + 0.5f;
  printf("interop: hipLaunchKernel(scale) from C++ and hipLaunchKernelGGL(shift): %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
