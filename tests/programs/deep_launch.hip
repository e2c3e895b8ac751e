// A launch from deep in the host stack: more host frames than the runtime
// frames a kernel's backtrace replaces with them.
#include <hip/hip_runtime.h>

__global__ void deep_kernel(int* out) { *out = 1; }

__attribute__((noinline)) void recurse(int depth, int* out) {
  if (depth == 0) {
    deep_kernel<<<1, 1>>>(out);
    hipDeviceSynchronize();
    return;
  }
  recurse(depth - 1, out);
}

int main() {
  int* out;
  hipMalloc(&out, sizeof(int));
  recurse(8, out);
  return 0;
}
