// Host code only, compiled by the C++ compiler with hip::host.
#include <hip/hip_runtime.h>

#include <cstdio>

int main() {
  hipDeviceProp_t properties;
  if (hipGetDeviceProperties(&properties, 0) != hipSuccess) return 1;
  std::printf("device %s arch %s\n", properties.name, properties.gcnArchName);
  return 0;
}
