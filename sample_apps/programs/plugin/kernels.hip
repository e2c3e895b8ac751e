// The plugin: a shared library with kernels of its own (its own fat binary,
// registered when the library is loaded and unregistered when it is
// unloaded), and one C entry point the host program finds with dlsym.
#include <hip/hip_runtime.h>

#include <vector>

__global__ void square(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
}

// Squares 0..n-1 on the device; returns how many results are wrong, or -1
// when a HIP call fails.
extern "C" int plugin_square(int n) {
  std::vector<int> host(n);
  for (int i = 0; i < n; i++) host[i] = i;
  int* device;
  if (hipMalloc(&device, n * sizeof(int)) != hipSuccess) return -1;
  hipMemcpy(device, host.data(), n * sizeof(int), hipMemcpyHostToDevice);
  square<<<(n + 255) / 256, 256>>>(device, n);
  if (hipGetLastError() != hipSuccess) return -1;
  hipMemcpy(host.data(), device, n * sizeof(int), hipMemcpyDeviceToHost);
  hipFree(device);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += host[i] != i * i;
  return wrong;
}
