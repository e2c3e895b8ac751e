// A kernel on a grid of BLOCKS x 256 lanes (BLOCKS from argv, 256 by
// default), launched twice: lane filters on a grid of many blocks.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>

__global__ void scale(float *data, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= factor;
}

int main(int argc, char **argv) {
  int blocks = argc > 1 ? atoi(argv[1]) : 256;
  int n = blocks * 256;
  float *data;
  if (hipMalloc(&data, n * sizeof(float)) != hipSuccess) return 1;
  hipLaunchKernelGGL(scale, dim3(blocks), dim3(256), 0, 0, data, 2.0f, n);
  hipLaunchKernelGGL(scale, dim3(blocks), dim3(256), 0, 0, data, 3.0f, n);
  if (hipDeviceSynchronize() != hipSuccess) return 1;
  hipFree(data);
  printf("lane_grid: %d lanes scaled twice\n", n);
  return 0;
}
