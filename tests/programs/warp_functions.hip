// Warp functions in uniform and divergent wavefronts, each result checked
// against the semantics computed on the host: one line per case with its
// count of wrong lanes.  Blocks of 100 lanes: a full wavefront of 64 and a
// partial one of 36.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kLanes = 100, kBlocks = 3, kWave = 64, kCases = 16;

__device__ int value_of(int lane) { return lane * 3 + 1000 * static_cast<int>(blockIdx.x); }

__global__ void uniform(long long* out) {
  int t = threadIdx.x, lane = __lane_id();
  int v = value_of(t);
  long long* o = out + (blockIdx.x * kLanes + t) * kCases;
  o[0] = __shfl(v, 5);
  o[1] = __shfl(v, lane + 1);              // lane 63 reads lane 0 (modulo the wavefront)
  o[2] = __shfl_up(v, 1);
  o[3] = __shfl_down(v, 2);
  o[4] = __shfl_xor(v, 1);
  o[5] = __shfl(v, 3, 16);                 // within groups of 16
  o[6] = static_cast<long long>(__ballot(lane % 3 == 0));
  o[7] = __any(lane == 7);
  o[8] = __all(lane < 100);
  o[9] = static_cast<long long>(__activemask());
  int sum = v;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
  o[10] = sum;                             // lane 0 of each wavefront: the wavefront's sum
  o[11] = __reduce_add_sync(~0ull, v);
  o[12] = static_cast<long long>(__shfl(static_cast<double>(v) + 0.5, 2) * 2);
  o[13] = __shfl_xor(static_cast<long long>(v) << 33, 3) >> 33;
  __syncthreads();
  o[14] = __shfl(v * 2, 63 - lane);        // after a barrier
  o[15] = lane;
}

__global__ void divergent(long long* out) {
  int t = threadIdx.x, lane = __lane_id();
  int v = value_of(t);
  long long* o = out + (blockIdx.x * kLanes + t) * kCases;
  for (int i = 0; i < kCases; i++) o[i] = -1;
  if (lane < 16) {                         // a shuffle in a branch: 16 lanes active
    o[0] = __shfl_down(v, 1, 16);
    o[1] = static_cast<long long>(__activemask());
  }
  o[2] = static_cast<long long>(__ballot(1));  // the wavefront together again
  if (lane >= 40) return;                  // an early return: the rest go on
  o[3] = __shfl(v, 45);                    // an exited source: 0
  o[4] = static_cast<long long>(__activemask());
  __syncwarp();
  o[5] = __any(lane == 39);
}

static long long mask_below(int n) { return n >= 64 ? -1ll : static_cast<long long>((1ull << n) - 1); }

int main() {
  std::vector<long long> got(kBlocks * kLanes * kCases);
  long long* d;
  hipMalloc(&d, got.size() * sizeof(long long));
  int wrong_total = 0;
  for (int kernel = 0; kernel < 2; kernel++) {
    if (kernel == 0) uniform<<<kBlocks, kLanes>>>(d);
    else divergent<<<kBlocks, kLanes>>>(d);
    hipMemcpy(got.data(), d, got.size() * sizeof(long long), hipMemcpyDeviceToHost);
    std::vector<int> wrong(kCases, 0);
    for (int b = 0; b < kBlocks; b++) {
      for (int t = 0; t < kLanes; t++) {
        int lane = t % kWave, first = t - lane, size = first + kWave <= kLanes ? kWave : kLanes - first;
        auto v = [&](int l) { return static_cast<long long>(l * 3 + 1000 * b); };
        auto in_wave = [&](int l) { return l >= 0 && l < size; };
        auto read = [&](int source) { return in_wave(source) ? v(first + source) : 0ll; };  // inactive: 0
        const long long* o = &got[(b * kLanes + t) * kCases];
        std::vector<long long> want(kCases, -1);
        if (kernel == 0) {
          long long active = mask_below(size), ballot = 0, sum = 0;
          for (int l = 0; l < size; l++) {
            if (l % 3 == 0) ballot |= 1ll << l;
            sum += v(first + l);
          }
          want[0] = read(5);
          want[1] = read((lane + 1) % kWave);
          want[2] = lane >= 1 ? read(lane - 1) : v(t);
          want[3] = lane + 2 < kWave ? read(lane + 2) : v(t);
          want[4] = read(lane ^ 1);
          want[5] = read((lane & ~15) + 3);
          want[6] = ballot;
          want[7] = size > 7;
          want[8] = 1;
          want[9] = active;
          want[10] = o[10];                // only lane 0's sum is the wavefront's
          if (lane == 0) want[10] = sum;
          want[11] = sum;
          want[12] = static_cast<long long>((static_cast<double>(read(2)) + 0.5) * 2);
          want[13] = read(lane ^ 3);
          want[14] = 2 * read(63 - lane);
          want[15] = lane;
        } else {
          if (lane < 16) {
            want[0] = lane % 16 + 1 < 16 ? read(lane + 1) : v(t);
            want[1] = size >= 16 ? 0xffff : mask_below(size);
          }
          want[2] = mask_below(size);
          if (lane < 40) {
            int alive = size < 40 ? size : 40;
            want[3] = 45 < alive ? read(45) : 0;
            want[4] = mask_below(alive);
            want[5] = alive > 39;
          }
        }
        for (int c = 0; c < kCases; c++) wrong[c] += o[c] != want[c];
      }
    }
    for (int c = 0; c < kCases; c++) {
      printf("warp_functions: %s case %d: %d wrong\n", kernel ? "divergent" : "uniform", c, wrong[c]);
      wrong_total += wrong[c];
    }
  }
  hipFree(d);
  printf("warp_functions: %d wrong\n", wrong_total);
  return wrong_total != 0;
}
