#include <hip/hip_runtime.h>

__global__ void nap(int *out) {
  __builtin_amdgcn_s_sleep(1);
  out[0] = 1;
}
