// The built-in variables of device code, and host variables of the same
// names (as many programs have), for gdb expressions and conditions.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void fill(int *out) {
  int index = blockIdx.x * blockDim.x + threadIdx.x;
  out[index] = index * warpSize;  // line 9
}

int main() {
  dim3 blockDim(64), gridDim(3);
  int *out;
  if (hipMalloc(&out, 192 * sizeof(int)) != hipSuccess) return 1;
  fill<<<gridDim, blockDim>>>(out);
  if (hipDeviceSynchronize() != hipSuccess) return 1;
  hipFree(out);
  printf("builtins: %u x %u\n", gridDim.x, blockDim.x);  // line 19
  return 0;
}
