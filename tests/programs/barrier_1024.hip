// __syncthreads with the largest block: every lane reads what its neighbour
// wrote before the barrier, over several rounds, in a 3D block of 1024.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void rotate(int* out, int rounds) {
  __shared__ int ring[1024];
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int n = blockDim.x * blockDim.y * blockDim.z;
  int value = t + 1000000 * blockIdx.x;
  for (int r = 0; r < rounds; r++) {
    ring[t] = value;
    __syncthreads();
    value = ring[(t + 1) % n];
    __syncthreads();
  }
  out[blockIdx.x * n + t] = value;
}

int main() {
  const int blocks = 3, n = 1024, rounds = 5;
  int* d;
  hipMalloc(&d, blocks * n * sizeof(int));
  rotate<<<blocks, dim3(16, 8, 8)>>>(d, rounds);
  int host[blocks * n];
  hipMemcpy(host, d, sizeof host, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < blocks; b++)
    for (int t = 0; t < n; t++) wrong += host[b * n + t] != (t + rounds) % n + 1000000 * b;
  printf("barrier_1024: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
