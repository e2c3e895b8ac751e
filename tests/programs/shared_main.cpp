// shared_main: plain C++ using the kernels of libshared_kernels.so, once
// through a function of the library and once through hipLaunchKernel on the
// kernel's handle, which the library exports.
#include <hip/hip_runtime_api.h>

#include <cstdio>
#include <vector>

void add_one(int* data, int n);  // the kernel's host handle, defined in the library
extern "C" hipError_t library_square(int* data, int n);

int main() {
  int n = 300;
  std::vector<int> host(n);
  for (int i = 0; i < n; i++) host[i] = i;

  int* data;
  hipMalloc(reinterpret_cast<void**>(&data), n * sizeof(int));
  hipMemcpy(data, host.data(), n * sizeof(int), hipMemcpyHostToDevice);

  hipError_t squared = library_square(data, n);
  void* args[] = {&data, &n};
  hipError_t added = hipLaunchKernel(reinterpret_cast<const void*>(add_one), dim3((n + 127) / 128), dim3(128),
                                     args, 0, nullptr);
  hipMemcpy(host.data(), data, n * sizeof(int), hipMemcpyDeviceToHost);
  hipFree(data);

  int wrong = (squared != hipSuccess) + (added != hipSuccess);
  for (int i = 0; i < n; i++) wrong += host[i] != i * i + 1;
  printf("shared_main: library_square %s, hipLaunchKernel(add_one) %s: %d wrong\n", hipGetErrorName(squared),
         hipGetErrorName(added), wrong);
  return wrong == 0 ? 0 : 1;
}
