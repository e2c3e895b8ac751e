// A launch from deep in the host stack: DEPTH (argument; 8 by default)
// recursive calls, past the runtime's record of a launch's host frames when
// it is large.
#include <hip/hip_runtime.h>

#include <cstdlib>

__global__ void deep_kernel(int* out) { *out = 1; }

__attribute__((noinline)) void recurse(int depth, int* out) {
  if (depth == 0) {
    deep_kernel<<<1, 1>>>(out);
    hipDeviceSynchronize();
    return;
  }
  recurse(depth - 1, out);
}

int main(int argc, char** argv) {
  int* out;
  hipMalloc(&out, sizeof(int));
  recurse(argc > 1 ? std::atoi(argv[1]) : 8, out);
  return 0;
}
