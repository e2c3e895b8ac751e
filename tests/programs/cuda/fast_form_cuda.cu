// CUDA kernels the fast form must cover: a block reduction of CUB's in a
// device function of the program's own (which the inliner alone leaves
// out of line), a warp reduction with __shfl_xor_sync (whose mask
// synccheck checks) and expf, and an extern __shared__ array in a template.
// Prints "NAME: ok" or "NAME: FAILED".
#include <cub/cub.cuh>

#include <cstdio>
#include <vector>

constexpr int THREADS = 128;

// Two sums at once, as HeCBench's channelSum writes them.
template <typename T>
__device__ void block_sums(T &first, T &second) {
  using Reduce = cub::BlockReduce<T, THREADS>;
  __shared__ typename Reduce::TempStorage first_storage, second_storage;
  first = Reduce(first_storage).Sum(first);
  second = Reduce(second_storage).Sum(second);
}

__global__ void sums_and_squares(const int *in, int *sums, int *squares) {
  int value = in[blockIdx.x * THREADS + threadIdx.x], square = value * value;
  block_sums(value, square);
  if (threadIdx.x == 0) sums[blockIdx.x] = value, squares[blockIdx.x] = square;
}

__global__ void warp_sums(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x, value = in[i];
  for (int offset = 16; offset > 0; offset /= 2) value += __shfl_xor_sync(0xffffffffu, value, offset);
  out[i] = value + static_cast<int>(expf(0.0f)) - 1;  // a math function, which sets no errno on a device
}

// Each block's values reversed through dynamic shared memory.
template <typename T>
__global__ void reverse(const T *in, T *out) {
  extern __shared__ char bytes[];
  T *tile = reinterpret_cast<T *>(bytes);
  tile[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * blockDim.x + threadIdx.x] = tile[blockDim.x - 1 - threadIdx.x];
}

int main() {
  const int blocks = 6, n = blocks * THREADS;
  int *in, *sums, *squares, *warps, *reversed;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&sums, blocks * sizeof(int));
  cudaMallocManaged(&squares, blocks * sizeof(int));
  cudaMallocManaged(&warps, n * sizeof(int));
  cudaMallocManaged(&reversed, n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = i % 17 - 8;
  sums_and_squares<<<blocks, THREADS>>>(in, sums, squares);
  warp_sums<<<blocks, THREADS>>>(in, warps);
  reverse<<<blocks, THREADS, THREADS * sizeof(int)>>>(in, reversed);
  cudaDeviceSynchronize();
  bool block_ok = true, warp_ok = true, reverse_ok = true;
  for (int b = 0; b < blocks; b++) {
    int sum = 0, square = 0;
    for (int t = 0; t < THREADS; t++) sum += in[b * THREADS + t], square += in[b * THREADS + t] * in[b * THREADS + t];
    block_ok &= sums[b] == sum && squares[b] == square;
  }
  for (int i = 0; i < n; i++) {
    int sum = 0;
    for (int j = i / 32 * 32; j < i / 32 * 32 + 32; j++) sum += in[j];
    warp_ok &= warps[i] == sum;
  }
  for (int i = 0; i < n; i++) reverse_ok &= reversed[i] == in[i / THREADS * THREADS + THREADS - 1 - i % THREADS];
  printf("sums_and_squares: %s\nwarp_sums: %s\nreverse: %s\n", block_ok ? "ok" : "FAILED", warp_ok ? "ok" : "FAILED",
         reverse_ok ? "ok" : "FAILED");
  return !(block_ok && warp_ok && reverse_ok);
}
