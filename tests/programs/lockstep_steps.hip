// Kernels and the lockstep steps each needs (tests/device/test_lockstep.py reads
// the simulated device's code): none where barriers order every access to
// __shared__ memory, a volatile variable is the lane's own, or no two lanes'
// accesses between barriers meet; one in the warp-synchronous sum.
#include <hip/hip_runtime.h>

__global__ void block_sum(const float* in, float* out) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  tile[t] = in[blockIdx.x * 256 + t];
  __syncthreads();
  for (int stride = 128; stride > 0; stride /= 2) {
    if (t < stride) tile[t] += tile[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = tile[0];
}

__global__ void spin(int* out, long spins) {
  for (volatile long i = 0; i < spins; i = i + 1) {
  }
  out[threadIdx.x] = 1;
}

__global__ void warp_sum(const int* in, int* out) {
  __shared__ int s[64];
  int t = threadIdx.x;
  s[t] = in[t];
  for (int offset = 32; offset > 0; offset /= 2)
    if (t < offset) s[t] += s[t + offset];
  if (t == 0) out[0] = s[0];
}

// Blelloch's scan as GPU Gems 3 (ch. 39) writes it, n values at run time,
// in a loop over the blocks' shares.  Between two barriers of the
// down-sweep each lane reads its left slot, overwrites it, then reads its
// right one, at offset·(2t + 1) - 1 and offset·(2t + 2) - 1, which no other
// lane touches; `offset` comes out of the up-sweep, whose trips every lane
// makes alike (each has a barrier).
__global__ void gems_scan(int* data, int n, int shares) {
  __shared__ int temp[1024];
  int t = threadIdx.x;
  for (int share = blockIdx.x; share < shares; share += gridDim.x) {
    int* part = data + share * n;
    temp[2 * t] = part[2 * t];
    temp[2 * t + 1] = part[2 * t + 1];
    int offset = 1;
    for (int d = n >> 1; d > 0; d >>= 1) {
      __syncthreads();
      if (t < d) temp[offset * (2 * t + 2) - 1] += temp[offset * (2 * t + 1) - 1];
      offset *= 2;
    }
    if (t == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
      offset >>= 1;
      __syncthreads();
      if (t < d) {
        int left = offset * (2 * t + 1) - 1, right = offset * (2 * t + 2) - 1;
        int value = temp[left];
        temp[left] = temp[right];
        temp[right] += value;
      }
    }
    __syncthreads();
    part[2 * t] = temp[2 * t];
    part[2 * t + 1] = temp[2 * t + 1];
    __syncthreads();
  }
}
