// A kernel parameter the simulated device cannot pass: aligned beyond the
// 64 bytes the runtime aligns a kernel's stack arguments to.
#include <hip/hip_runtime.h>

struct alignas(128) Wide {
  int value;
};

__global__ void take_wide(int* out, Wide wide) { *out = wide.value; }

int main() { return 0; }
