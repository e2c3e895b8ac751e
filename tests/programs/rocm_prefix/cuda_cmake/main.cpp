// Host C++ using the runtime API directly and the library's kernels.
#include <cuda_runtime.h>

#include <cstdio>

int squares_on_device(int *host, int n);

int main() {
  int devices = 0, runtime = 0;
  cudaGetDeviceCount(&devices);
  cudaRuntimeGetVersion(&runtime);
  int values[100];
  for (int i = 0; i < 100; i++) values[i] = i;
  int status = squares_on_device(values, 100);
  std::printf("squares %d %d status %d devices %d runtime %d\n", values[3], values[31], status, devices, runtime);
  return status;
}
