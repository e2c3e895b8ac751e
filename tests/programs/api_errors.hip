// api_errors: HIP API calls that must fail with HIP's error code, not crash.
// Prints one line per case: "<case>: <error name> survived".  Ends with a
// valid launch whose result is checked, and exits 0 when that launch worked.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void increment(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

static int not_a_kernel;  // an ordinary host variable
static float not_a_symbol[4];  // host memory, not a __device__ variable

static void report(const char* what, hipError_t error) {
  printf("%s: %s survived\n", what, hipGetErrorName(error));
  fflush(stdout);
}

int main() {
  int n = 64;
  int* device;
  hipMalloc(&device, n * sizeof(int));
  hipGetLastError();  // start from a clean last error

  void* args[] = {&device, &n};
  report("launch of a host variable",
         hipLaunchKernel(reinterpret_cast<const void*>(&not_a_kernel), dim3(1), dim3(64), args, 0, nullptr));
  hipGetLastError();

  increment<<<1, 2048>>>(device, n);
  report("block of 2048 threads", hipGetLastError());

  increment<<<dim3(1), dim3(0)>>>(device, n);
  report("block dimension 0", hipGetLastError());

  int stack[16] = {};
  int host[16] = {};
  report("memcpy host to device into a stack array",
         hipMemcpy(stack, host, sizeof stack, hipMemcpyHostToDevice));
  report("memcpy device to host from a host pointer",
         hipMemcpy(host, stack, sizeof host, hipMemcpyDeviceToHost));
  report("free of a host pointer", hipFree(host));

  int* freed;
  hipMalloc(&freed, 256);
  hipFree(freed);
  report("double free", hipFree(freed));
  report("memcpy from freed memory", hipMemcpy(host, freed, sizeof host, hipMemcpyDeviceToHost));
  report("memcpy past the end of an allocation", hipMemcpy(host, device, 2 * n * sizeof(int), hipMemcpyDeviceToHost));
  report("memset past the end of an allocation", hipMemset(device, 0, 4096));
  increment<<<dim3(4, 0, 1), 64>>>(device, n);
  report("grid with a zero dimension", hipGetLastError());
  void* huge = nullptr;
  report("malloc of 2^62 bytes", hipMalloc(&huge, size_t{1} << 62));
  report("malloc into a null pointer", hipMalloc(nullptr, 16));
  report("memcpy to a non-symbol", hipMemcpyToSymbol(HIP_SYMBOL(not_a_symbol), host, sizeof(float)));

  report("last error", hipGetLastError());
  report("last error after reading it", hipGetLastError());

  // A valid launch still works.
  int values[64];
  for (int i = 0; i < n; i++) values[i] = i;
  hipMemcpy(device, values, sizeof values, hipMemcpyHostToDevice);
  increment<<<1, 64>>>(device, n);
  hipError_t launched = hipGetLastError();
  hipMemcpy(values, device, sizeof values, hipMemcpyDeviceToHost);
  hipFree(device);
  int wrong = launched != hipSuccess;
  for (int i = 0; i < n; i++) wrong += values[i] != i + 1;
  printf("valid launch afterwards: %s, %d wrong\n", hipGetErrorName(launched), wrong);
  return wrong == 0 ? 0 : 1;
}
