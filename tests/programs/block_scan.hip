// An inclusive scan of each block's values, the usual two-level way: each
// wavefront scans its lanes with shuffles, its last lane stores the
// wavefront's total in __shared__ memory, then lane 0 turns those totals
// into each wavefront's exclusive prefix in place.  For gdb's watchpoints
// on __shared__ memory: every block writes its own copy of wave_prefix.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kBlock = 256, kBlocks = 8, kWave = 64, kWaves = kBlock / kWave;

__host__ __device__ int value_at(int i) { return i % 7 + 1; }

__global__ void block_scan(int* out, int* totals) {
  __shared__ int wave_prefix[kWaves];
  int t = threadIdx.x, lane = t % kWave, wave = t / kWave;
  int value = value_at(blockIdx.x * kBlock + t);
  for (int offset = 1; offset < kWave; offset *= 2) {
    int below = __shfl_up(value, offset);
    if (lane >= offset) value += below;
  }
  if (lane == kWave - 1) wave_prefix[wave] = value;
  __syncthreads();
  if (t == 0) {
    int sum = 0;
    for (int w = 0; w < kWaves; w++) {
      int total = wave_prefix[w];
      wave_prefix[w] = sum;
      sum += total;
    }
    totals[blockIdx.x] = sum;
  }
  __syncthreads();
  out[blockIdx.x * kBlock + t] = value + wave_prefix[wave];
}

int main() {
  int *out, *totals;
  hipMalloc(&out, kBlocks * kBlock * sizeof(int));
  hipMalloc(&totals, kBlocks * sizeof(int));
  block_scan<<<kBlocks, kBlock>>>(out, totals);
  std::vector<int> got(kBlocks * kBlock), sums(kBlocks);
  hipMemcpy(got.data(), out, got.size() * sizeof(int), hipMemcpyDeviceToHost);
  hipMemcpy(sums.data(), totals, sums.size() * sizeof(int), hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < kBlocks; b++) {
    int sum = 0;
    for (int t = 0; t < kBlock; t++) {
      sum += value_at(b * kBlock + t);
      wrong += got[b * kBlock + t] != sum;
    }
    wrong += sums[b] != sum;
  }
  printf("block_scan: %d blocks, %d wrong\n", kBlocks, wrong);
  hipFree(out);
  hipFree(totals);
  return wrong != 0;
}
