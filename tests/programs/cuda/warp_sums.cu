// A CUDA template kernel summing each warp's values with shuffles, as CUDA
// code does, for the tools' tests: run with "fault", its last block writes
// past the end of the output (memcheck and capture report it).
#include <cstdio>
#include <cstring>

template <typename T>
__global__ void warp_sums(const T *values, T *sums, int past_the_end) {
  int lane = threadIdx.x % warpSize;
  T sum = values[blockIdx.x * blockDim.x + threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2)
    sum += __shfl_down_sync(0xffffffffu, sum, offset);
  int warp = (blockIdx.x * blockDim.x + threadIdx.x) / warpSize;
  if (lane == 0) sums[warp + past_the_end * (blockIdx.x == gridDim.x - 1) * 1000] = sum;
}

int main(int argc, char **argv) {
  const int blocks = 4, threads = 64, warps = blocks * threads / 32;
  bool fault = argc > 1 && strcmp(argv[1], "fault") == 0;
  float host[blocks * threads], sums[warps];
  for (int i = 0; i < blocks * threads; i++) host[i] = float(i % 32);
  float *values, *device_sums;
  cudaMalloc(&values, sizeof host);
  cudaMalloc(&device_sums, sizeof sums);
  cudaMemcpy(values, host, sizeof host, cudaMemcpyHostToDevice);
  warp_sums<float><<<blocks, threads>>>(values, device_sums, fault);
  cudaError_t status = cudaMemcpy(sums, device_sums, sizeof sums, cudaMemcpyDeviceToHost);
  int wrong = 0;
  for (int w = 0; w < warps; w++) wrong += sums[w] != 496.0f;
  printf("warp_sums: %s, %d wrong\n", cudaGetErrorName(status), wrong);
  cudaFree(values);
  cudaFree(device_sums);
  return wrong != 0;
}
