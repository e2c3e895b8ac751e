// macro_value: the device code writes DEVICE_VALUE, a macro given on the
// command line (-DDEVICE_VALUE=...); the host prints what the device wrote.
#include <hip/hip_runtime.h>

#include <cstdio>

#ifndef DEVICE_VALUE
#define DEVICE_VALUE -1
#endif

__global__ void write_value(int* out) { *out = DEVICE_VALUE; }

int main() {
  int* device;
  int value = 0;
  hipMalloc(&device, sizeof(int));
  write_value<<<1, 1>>>(device);
  hipMemcpy(&value, device, sizeof(int), hipMemcpyDeviceToHost);
  hipFree(device);
  printf("device wrote %d\n", value);
  return 0;
}
