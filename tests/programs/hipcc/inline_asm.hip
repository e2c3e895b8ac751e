#include <hip/hip_runtime.h>

__global__ void copy(int *out, int value) {
  int result;
  asm volatile("v_mov_b32_e32 %0, %1" : "=v"(result) : "v"(value));
  asm volatile("" ::: "memory");  // a compiler barrier is fine
  out[0] = result;
}
