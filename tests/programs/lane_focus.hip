// Lanes at a barrier, for gdb's lane list and focus: each lane of a block
// stores a value of its own in shared memory, waits at __syncthreads inside
// a device function, then reads its neighbour's value.
#include <hip/hip_runtime.h>

#include <cstdio>

__device__ __attribute__((noinline)) int neighbour(int* tile, int t, int n) {
  __syncthreads();
  return tile[(t + 1) % n];
}

__global__ void rotate(int* out) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  int mine = 10 * t + blockIdx.x;
  tile[t] = mine;
  int next = neighbour(tile, t, blockDim.x);
  out[blockIdx.x * blockDim.x + t] = next - mine;
}

int main() {
  const int blocks = 4, lanes = 64;
  int* out;
  hipMalloc(&out, blocks * lanes * sizeof(int));
  hipLaunchKernelGGL(rotate, dim3(blocks), dim3(lanes), 0, 0, out);
  int host[blocks * lanes];
  hipMemcpy(host, out, sizeof host, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < blocks * lanes; i++) wrong += host[i] != (i % lanes == lanes - 1 ? -630 : 10);
  printf("lane_focus: %d lanes, %d wrong\n", blocks * lanes, wrong);
  hipFree(out);
  return wrong != 0;
}
