// CUDA's warp functions, block votes and warp-synchronous code on 32-lane
// warps, full and partial masks, uniform and divergent: one line per check,
// "NAME: ok" or "NAME: FAIL".
#include <cstdio>

constexpr unsigned int kFull = 0xffffffffu;
constexpr int kThreads = 64;
enum Slot { kBallot, kBallotHalf, kActive, kDownSum, kXorSum, kUpScan, kWidth8, kHalfShfl, kAnyAll,
            kMatchAny, kMatchAll, kReduce, kReduceHalf, kSyncwarp, kBlockVotes, kVolatileSum, kWarpSize,
            kSlots };

__global__ void warp_functions(unsigned int *out) {
  __shared__ int shared[kThreads];
  __shared__ int sums[kThreads];
  unsigned int tid = threadIdx.x, lane = tid % 32;
  unsigned int *mine = out + tid * kSlots;
  static_assert(sizeof(__ballot_sync(kFull, 1)) == 4 && sizeof(__activemask()) == 4, "32-bit lane masks");

  mine[kBallot] = __ballot_sync(kFull, lane % 3 == 0);
  if (lane < 16) mine[kBallotHalf] = __ballot_sync(0xffffu, lane & 1);
  if (lane % 2) mine[kActive] = __activemask();

  int value = static_cast<int>(lane);  // divergent work, then a reduction
  if (lane % 4 == 0) value *= 2;
  else value += 1;
  int down = value, across = value;
  for (int offset = 16; offset > 0; offset >>= 1) down += __shfl_down_sync(kFull, down, offset);
  for (int mask = 1; mask < 32; mask <<= 1) across += __shfl_xor_sync(kFull, across, mask);
  mine[kDownSum] = down;
  mine[kXorSum] = across;
  int scan = 1;
  for (int offset = 1; offset < 32; offset <<= 1) {
    int before = __shfl_up_sync(kFull, scan, offset);
    if (lane >= static_cast<unsigned int>(offset)) scan += before;
  }
  mine[kUpScan] = scan;
  mine[kWidth8] = __shfl_sync(kFull, static_cast<int>(lane), 3, 8);
  if (lane >= 16) mine[kHalfShfl] = __shfl_sync(0xffff0000u, static_cast<int>(lane) * 10, 16);

  mine[kAnyAll] = __any_sync(kFull, lane == 7) | __all_sync(kFull, lane < 32) << 1 | __all_sync(kFull, lane < 31) << 2;
  if (lane < 8) mine[kAnyAll] |= __all_sync(0xffu, lane < 8) << 3;
  // Two groups voting apart: lane 6 votes only in the second.
  if (lane < 4) mine[kAnyAll] |= __any_sync(0x0fu, lane == 6) << 4;
  else if (lane < 8) mine[kAnyAll] |= __any_sync(0xf0u, lane == 6) << 4;

  mine[kMatchAny] = __match_any_sync(kFull, (lane / 4) % 3);
  int all_same = 0, mixed = 1;
  unsigned int same = __match_all_sync(kFull, 42u, &all_same);
  unsigned int differ = __match_all_sync(kFull, lane < 5, &mixed);
  mine[kMatchAll] = (same == kFull && all_same == 1 && differ == 0 && mixed == 0);

  mine[kReduce] = __reduce_add_sync(kFull, lane) == 496 && __reduce_min_sync(kFull, static_cast<int>(lane) - 3) == -3 &&
                  __reduce_max_sync(kFull, lane) == 31 && __reduce_and_sync(kFull, lane | 0x100) == 0x100 &&
                  __reduce_or_sync(kFull, 1u << lane) == kFull && __reduce_xor_sync(kFull, lane) == 0;
  if (lane >= 8 && lane < 16)
    mine[kReduceHalf] = __reduce_add_sync(0xff00u, lane) == 92 && __reduce_max_sync(0xff00u, lane) == 15 &&
                        __reduce_min_sync(0xff00u, lane) == 8;

  shared[tid] = -1;
  __syncthreads();
  if (lane < 16) {  // a diverged half exchanging through shared memory
    shared[tid] = static_cast<int>(tid);
    __syncwarp(0xffffu);
    mine[kSyncwarp] = shared[tid ^ 1];
  } else {
    __syncwarp(0xffff0000u);
    mine[kSyncwarp] = tid;
  }

  int count = __syncthreads_count(tid % 5 == 0);
  int all = __syncthreads_and(tid < kThreads), none = __syncthreads_or(tid == kThreads);
  int some = __syncthreads_or(tid == 40), not_all = __syncthreads_and(tid != 3);
  mine[kBlockVotes] = count == 13 && all == 1 && none == 0 && some == 1 && not_all == 0;

  sums[tid] = static_cast<int>(tid);  // the classic warp-synchronous last steps, no __syncwarp
  __syncthreads();
  if (tid < 32) {
    volatile int *v = sums;
    v[tid] += v[tid + 32];
    if (lane < 16) v[tid] += v[tid + 16];
    if (lane < 8) v[tid] += v[tid + 8];
    if (lane < 4) v[tid] += v[tid + 4];
    if (lane < 2) v[tid] += v[tid + 2];
    if (lane < 1) v[tid] += v[tid + 1];
  }
  __syncthreads();
  mine[kVolatileSum] = sums[0];
  mine[kWarpSize] = warpSize;
}

static int failures = 0;

static void check(const char *name, bool good) {
  printf("%s: %s\n", name, good ? "ok" : "FAIL");
  failures += !good;
}

int main() {
  unsigned int *device = nullptr, host[kThreads * kSlots] = {};
  cudaMalloc(&device, sizeof host);
  cudaMemset(device, 0, sizeof host);
  warp_functions<<<1, kThreads>>>(device);
  cudaMemcpy(host, device, sizeof host, cudaMemcpyDeviceToHost);
  bool ballot = true, ballot_half = true, active = true, down = true, across = true, up = true, width8 = true;
  bool half_shfl = true, any_all = true, match_any = true, match_all = true, reduce = true, reduce_half = true;
  bool syncwarp = true, votes = true, volatile_sum = true, warp_size = true;
  for (unsigned int tid = 0; tid < kThreads; tid++) {
    const unsigned int *r = host + tid * kSlots, lane = tid % 32;
    ballot &= r[kBallot] == 0x49249249u;
    ballot_half &= lane >= 16 || r[kBallotHalf] == 0xaaaau;
    active &= lane % 2 == 0 || r[kActive] == 0xaaaaaaaau;
    int sum = 0;
    for (int l = 0; l < 32; l++) sum += l % 4 == 0 ? 2 * l : l + 1;
    down &= lane != 0 || static_cast<int>(r[kDownSum]) == sum;
    across &= static_cast<int>(r[kXorSum]) == sum;
    up &= r[kUpScan] == lane + 1;
    width8 &= r[kWidth8] == (lane & ~7u) + 3;
    half_shfl &= lane < 16 || r[kHalfShfl] == 160;
    any_all &= r[kAnyAll] == (lane < 4 ? 0xbu : lane < 8 ? 0x1bu : 0x3u);
    unsigned int group = 0;
    for (unsigned int l = 0; l < 32; l++) group |= ((l / 4) % 3 == (lane / 4) % 3) << l;
    match_any &= r[kMatchAny] == group;
    match_all &= r[kMatchAll] == 1;
    reduce &= r[kReduce] == 1;
    reduce_half &= lane < 8 || lane >= 16 || r[kReduceHalf] == 1;
    syncwarp &= r[kSyncwarp] == (lane < 16 ? tid ^ 1 : tid);
    votes &= r[kBlockVotes] == 1;
    volatile_sum &= r[kVolatileSum] == kThreads * (kThreads - 1) / 2;
    warp_size &= r[kWarpSize] == 32;
  }
  check("ballot_sync full mask", ballot);
  check("ballot_sync partial mask, divergent", ballot_half);
  check("activemask divergent", active);
  check("shfl_down_sync reduction after divergent code", down);
  check("shfl_xor_sync butterfly", across);
  check("shfl_up_sync scan", up);
  check("shfl_sync width 8", width8);
  check("shfl_sync partial mask", half_shfl);
  check("any_sync and all_sync", any_all);
  check("match_any_sync", match_any);
  check("match_all_sync", match_all);
  check("reduce_*_sync full mask", reduce);
  check("reduce_*_sync partial mask", reduce_half);
  check("syncwarp(mask) in divergent branches", syncwarp);
  check("syncthreads_count/and/or", votes);
  check("warp-synchronous volatile sum without syncwarp", volatile_sum);
  check("warpSize is 32", warp_size);
  return failures != 0 || cudaGetLastError() != cudaSuccess;
}
