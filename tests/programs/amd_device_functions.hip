// AMD's device functions over the wavefront and the lane (lane masks,
// __mbcnt_lo/hi, __match_any/__match_all and their *_sync forms, __fns*,
// the clocks, __smid, __get_dynamicgroupbaseptr), each lane's result checked
// against one computed on the host, with every lane active and with the odd
// lanes only, on the wavefront size the program was built for.  Blocks of
// 100 lanes: full wavefronts and a partial last one.  Prints each case that
// went wrong, then "ok" when none did.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kLanes = 100, kCases = 32, kBlocks = 2;
constexpr unsigned long long kOdd = 0xAAAAAAAAAAAAAAAAull;

__global__ void functions(long long* out) {
  extern __shared__ int dynamic[];
  int t = threadIdx.x, lane = __lane_id();
  long long* o = out + (blockIdx.x * kLanes + t) * kCases;
  for (int i = 0; i < kCases; i++) o[i] = -7;
  int p = -1;
  o[0] = __lanemask_eq();
  o[1] = __lanemask_lt();
  o[2] = __lanemask_gt();
  o[3] = __mbcnt_hi(~0u, __mbcnt_lo(~0u, 0u));
  o[4] = __match_any(lane % 3);
  o[5] = __match_all(7, &p);
  o[6] = p;
  o[7] = __match_all(lane, &p);
  o[8] = p;
  o[9] = __match_any_sync(~0ull, lane / 4);
  o[10] = __fns64(0x8000000100010001ull, lane, 1);
  o[11] = __fns32(0xA5A5A5A5u, lane % 32, -2);
  o[12] = __fns(0xF0F0u, lane % 32, 0);
  o[13] = __smid();
  dynamic[t] = t * 3 + 1;
  __syncthreads();
  o[14] = static_cast<int*>(__get_dynamicgroupbaseptr())[(t + 1) % kLanes];
  long long c0 = __clock64(), c1 = __clock();
  o[15] = c1 >= c0;
  if (lane % 2 == 1) {
    o[16] = __lanemask_lt();
    o[17] = __lanemask_gt();
    o[18] = __match_any(lane % 3);
    o[19] = __match_all(5, &p);
    o[20] = p;
    o[21] = __match_any_sync(kOdd, lane / 8);
    o[22] = __match_all_sync(kOdd, 1, &p);
    o[23] = p;
    o[24] = __match_all_sync(kOdd, lane, &p);
    o[25] = p;
  }
}

// The `offset`th set bit of the low `width` bits of mask from `base` (up
// for offset > 0, down for < 0; base itself for 0), or ~0u.
static unsigned fns(unsigned long long mask, int width, int base, int offset) {
  if (offset == 0) return (mask >> base) & 1 ? base : ~0u;
  std::vector<int> chosen;
  for (int bit = 0; bit < width; bit++)
    if ((mask >> bit) & 1 && (offset > 0 ? bit >= base : bit <= base)) chosen.push_back(bit);
  int n = offset > 0 ? offset : -offset;
  if (static_cast<int>(chosen.size()) < n) return ~0u;
  return offset > 0 ? chosen[n - 1] : chosen[chosen.size() - n];
}

int main() {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return 2;
  const int wave = prop.warpSize;
  printf("amd_device_functions: wave %d\n", wave);
  std::vector<long long> got(kBlocks * kLanes * kCases);
  long long* d = nullptr;
  if (hipMalloc(&d, got.size() * sizeof(long long)) != hipSuccess) return 2;
  functions<<<kBlocks, kLanes, kLanes * sizeof(int)>>>(d);
  if (hipMemcpy(got.data(), d, got.size() * sizeof(long long), hipMemcpyDeviceToHost) != hipSuccess) return 2;
  int wrong = 0;
  for (int b = 0; b < kBlocks; b++) {
    for (int t = 0; t < kLanes; t++) {
      int lane = t % wave, first = t - lane, size = first + wave <= kLanes ? wave : kLanes - first;
      unsigned long long all = size == 64 ? ~0ull : (1ull << size) - 1, odd = all & kOdd;
      auto where = [&](unsigned long long lanes, auto same) {  // the lanes of `lanes` with same(l)
        unsigned long long m = 0;
        for (int l = 0; l < size; l++)
          if ((lanes >> l) & 1 && same(l)) m |= 1ull << l;
        return m;
      };
      const long long* o = &got[(b * kLanes + t) * kCases];
      std::vector<long long> want(kCases, -7);
      want[0] = 1ll << lane;
      want[1] = where(all, [&](int l) { return l < lane; });
      want[2] = where(all, [&](int l) { return l > lane; });
      want[3] = lane;
      want[4] = where(all, [&](int l) { return l % 3 == lane % 3; });
      want[5] = all;
      want[6] = 1;
      want[7] = size == 1 ? all : 0;
      want[8] = size == 1;
      want[9] = where(all, [&](int l) { return l / 4 == lane / 4; });
      want[10] = fns(0x8000000100010001ull, 64, lane, 1);
      want[11] = fns(0xA5A5A5A5u, 32, lane % 32, -2);
      want[12] = fns(0xF0F0u, 32, lane % 32, 0);
      want[13] = got[(b * kLanes) * kCases + 13];  // one compute unit runs the block
      if (want[13] < 0 || want[13] >= prop.multiProcessorCount) want[13] = -1;
      want[14] = (t + 1) % kLanes * 3 + 1;
      want[15] = 1;
      if (lane % 2 == 1) {
        want[16] = where(odd, [&](int l) { return l < lane; });
        want[17] = where(odd, [&](int l) { return l > lane; });
        want[18] = where(odd, [&](int l) { return l % 3 == lane % 3; });
        want[19] = odd;
        want[20] = 1;
        want[21] = where(odd, [&](int l) { return l / 8 == lane / 8; });
        want[22] = kOdd;
        want[23] = 1;
        want[24] = odd == (1ull << lane) ? kOdd : 0;
        want[25] = odd == (1ull << lane);
      }
      for (int i = 0; i < kCases; i++) {
        if (o[i] != want[i] && wrong++ < 20)
          printf("block %d thread %d case %d: got %llx, want %llx\n", b, t, i, o[i], want[i]);
      }
    }
  }
  if (!wrong) printf("ok\n");
  return wrong ? 1 : 0;
}
