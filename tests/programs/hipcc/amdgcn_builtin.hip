#include <hip/hip_runtime.h>

__global__ void nap(int *out) {
  __builtin_amdgcn_s_sendmsg(1, 0);
  out[0] = 1;
}
