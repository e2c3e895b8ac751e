// A small block whose lanes write __shared__ memory, meet at barriers and
// shuffle: for gdb's process record on one lane.  Lane 7 writes lane 5's
// element of the tile between the barriers, so a watchpoint on tile[5] run
// backwards from lane 3 finds another lane's write.
#include <hip/hip_runtime.h>

#include <cstdio>

constexpr int kLanes = 16, kBlocks = 2;

__device__ __noinline__ int twice(int v) { return v * 2; }

__global__ void record_lane(int* out) {
  __shared__ int tile[kLanes];
  int t = threadIdx.x;
  int x = twice(t) + static_cast<int>(blockIdx.x);
  tile[t] = x;
  __syncthreads();
  if (t == 7) tile[5] += 100;
  __syncthreads();
  int mine = tile[t];
  int left = __shfl_up(mine, 1);
  out[blockIdx.x * kLanes + t] = mine + left;
}

int main() {
  int* out;
  hipMalloc(&out, kBlocks * kLanes * sizeof(int));
  record_lane<<<kBlocks, kLanes>>>(out);
  int got[kBlocks * kLanes];
  hipMemcpy(got, out, sizeof got, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int b = 0; b < kBlocks; b++)
    for (int t = 0; t < kLanes; t++) {
      auto tile = [&](int i) { return 2 * i + b + (i == 5 ? 100 : 0); };
      wrong += got[b * kLanes + t] != tile(t) + (t > 0 ? tile(t - 1) : tile(t));
    }
  printf("record_lane: %d wrong\n", wrong);
  hipFree(out);
  return wrong != 0;
}
