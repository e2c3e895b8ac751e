// A kernel waiting at more places than the fast form's masks have bits of
// their own for (62): 128 barriers, unrolled, then a 32-lane group's
// shuffles.  Prints how many threads got a value other than the host's.
#include <hip/hip_runtime.h>

#include <cstdio>

constexpr int kThreads = 64, kRounds = 64;

__global__ void many_waits(int *out) {
  __shared__ int shared[kThreads];
  int t = threadIdx.x, value = t;
#pragma unroll
  for (int round = 0; round < kRounds; round++) {
    shared[t] = value;
    __syncthreads();
    value += shared[(t + 1) % kThreads] & 1;
    __syncthreads();
  }
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor(value, offset, 32);
  out[t] = value;
}

int main() {
  int *out;
  hipMallocManaged(&out, kThreads * sizeof(int));
  many_waits<<<1, kThreads>>>(out);
  hipDeviceSynchronize();
  int values[kThreads], next[kThreads], wrong = 0;
  for (int t = 0; t < kThreads; t++) values[t] = t;
  for (int round = 0; round < kRounds; round++) {
    for (int t = 0; t < kThreads; t++) next[t] = values[t] + (values[(t + 1) % kThreads] & 1);
    for (int t = 0; t < kThreads; t++) values[t] = next[t];
  }
  for (int t = 0; t < kThreads; t++) {
    int sum = 0;
    for (int lane = t / 32 * 32; lane < t / 32 * 32 + 32; lane++) sum += values[lane];
    wrong += out[t] != sum;
  }
  printf("many waits: %d wrong\n", wrong);
  return wrong != 0;
}
