// reduction: __shared__ memory, __syncthreads, atomics, __device__ helpers,
// a __device__ and a __constant__ variable set with hipMemcpyToSymbol.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kBlock = 256;

__constant__ float weights[4];
__device__ unsigned int blocks_done;

__device__ float weighted(float x, int i) { return x * weights[i % 4]; }

__device__ void tree_sum(float* tile, int t) {
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) tile[t] += tile[t + stride];
    __syncthreads();
  }
}

// Static shared memory: one partial sum per block.
__global__ void block_sum(const float* in, float* partial, int n) {
  __shared__ float tile[kBlock];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? weighted(in[i], i) : 0.0f;
  __syncthreads();
  tree_sum(tile, t);
  if (t == 0) {
    partial[blockIdx.x] = tile[0];
    atomicAdd(&blocks_done, 1u);
  }
}

// Dynamic shared memory, and one float atomic per block.
__global__ void total_sum(const float* in, float* total, int n) {
  extern __shared__ float scratch[];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  scratch[t] = i < n ? weighted(in[i], i) : 0.0f;
  __syncthreads();
  tree_sum(scratch, t);
  if (t == 0) atomicAdd(total, scratch[0]);
}

__global__ void histogram(const int* values, int n, unsigned int* bins, int* extremes) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  atomicAdd(&bins[values[i] % 16], 1u);
  atomicMax(&extremes[0], values[i]);
  atomicMin(&extremes[1], values[i]);
}

int main() {
  const int n = 1 << 16;
  const int blocks = n / kBlock;
  const float host_weights[4] = {1.0f, 2.0f, 0.5f, 0.0f};
  std::vector<float> in(n);
  std::vector<int> values(n);
  for (int i = 0; i < n; i++) {
    in[i] = static_cast<float>(i % 4);
    values[i] = (i * 7919) % 1000;
  }
  float expected = 0;  // every term is a multiple of 0.5 below 2^24: exact
  for (int i = 0; i < n; i++) expected += in[i] * host_weights[i % 4];

  unsigned int zero = 0;
  hipMemcpyToSymbol(HIP_SYMBOL(weights), host_weights, sizeof host_weights);
  hipMemcpyToSymbol(HIP_SYMBOL(blocks_done), &zero, sizeof zero);

  float *d_in, *d_partial, *d_total;
  int *d_values, *d_extremes;
  unsigned int* d_bins;
  hipMalloc(&d_in, n * sizeof(float));
  hipMalloc(&d_partial, blocks * sizeof(float));
  hipMalloc(&d_total, sizeof(float));
  hipMalloc(&d_values, n * sizeof(int));
  hipMalloc(&d_bins, 16 * sizeof(unsigned int));
  hipMalloc(&d_extremes, 2 * sizeof(int));
  hipMemcpy(d_in, in.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(d_values, values.data(), n * sizeof(int), hipMemcpyHostToDevice);
  hipMemset(d_total, 0, sizeof(float));
  hipMemset(d_bins, 0, 16 * sizeof(unsigned int));
  const int initial_extremes[2] = {-1, 1 << 30};
  hipMemcpy(d_extremes, initial_extremes, sizeof initial_extremes, hipMemcpyHostToDevice);

  block_sum<<<blocks, kBlock>>>(d_in, d_partial, n);
  total_sum<<<blocks, kBlock, kBlock * sizeof(float)>>>(d_in, d_total, n);
  histogram<<<blocks, kBlock>>>(d_values, n, d_bins, d_extremes);

  std::vector<float> partial(blocks);
  float total = 0;
  unsigned int done = 0, bins[16];
  int extremes[2];
  hipMemcpy(partial.data(), d_partial, blocks * sizeof(float), hipMemcpyDeviceToHost);
  hipMemcpy(&total, d_total, sizeof(float), hipMemcpyDeviceToHost);
  hipMemcpy(bins, d_bins, sizeof bins, hipMemcpyDeviceToHost);
  hipMemcpy(extremes, d_extremes, sizeof extremes, hipMemcpyDeviceToHost);
  hipMemcpyFromSymbol(&done, HIP_SYMBOL(blocks_done), sizeof done);

  float block_total = 0;
  for (float p : partial) block_total += p;
  unsigned int expected_bins[16] = {};
  int expected_max = -1, expected_min = 1 << 30;
  for (int v : values) {
    expected_bins[v % 16]++;
    expected_max = v > expected_max ? v : expected_max;
    expected_min = v < expected_min ? v : expected_min;
  }
  int wrong = (block_total != expected) + (total != expected) + (done != static_cast<unsigned>(blocks)) +
              (extremes[0] != expected_max) + (extremes[1] != expected_min);
  for (int b = 0; b < 16; b++) wrong += bins[b] != expected_bins[b];
  if (hipGetLastError() != hipSuccess) wrong++;

  hipFree(d_in);
  hipFree(d_partial);
  hipFree(d_total);
  hipFree(d_values);
  hipFree(d_bins);
  hipFree(d_extremes);
  printf("reduction: sum %.1f (expected %.1f) over %d blocks, histogram of %d values: %d wrong\n", total, expected,
         done, n, wrong);
  return wrong == 0 ? 0 : 1;
}
