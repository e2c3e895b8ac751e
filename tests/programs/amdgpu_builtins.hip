// clang's AMDGPU builtins that mean something on a wavefront, each result
// checked lane by lane against the ISA's semantics computed on the host, on
// the wavefront size the program was built for (64, or 32 with
// -mno-wavefrontsize64).  Blocks of 100 lanes (25 x 2 x 2): full wavefronts
// and a partial last one, whose missing lanes are never active.  Prints each
// case that went wrong, then "ok" when none did.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kLanes = 100, kCases = 40;
const dim3 kGrid(2, 1, 2), kBlock(25, 2, 2);
constexpr int kBlocks = 4;

__device__ int value_of(int t, int b) { return t * 3 + 1000 * b + 1; }

__device__ long long* slot(long long* out) {
  int b = blockIdx.x + 2 * blockIdx.z, t = threadIdx.x + 25 * threadIdx.y + 50 * threadIdx.z;
  return out + (b * kLanes + t) * kCases;
}

__global__ void uniform(long long* out) {
  __shared__ int shared[kLanes];
  int b = blockIdx.x + 2 * blockIdx.z, t = threadIdx.x + 25 * threadIdx.y + 50 * threadIdx.z;
  int lane = __lane_id(), v = value_of(t, b);
  long long* o = slot(out);
  for (int i = 0; i < kCases; i++) o[i] = -7;
  o[0] = __builtin_amdgcn_mbcnt_lo(~0u, 0u);
  o[1] = __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
  o[2] = __builtin_amdgcn_mbcnt_lo(0xA5A5A5A5u, 7u);
  o[3] = __builtin_amdgcn_mbcnt_hi(0x0F0F0F0Fu, 3u);
  o[4] = __builtin_amdgcn_readfirstlane(v);
  o[5] = __builtin_amdgcn_readlane(v, 5);
  o[6] = __builtin_amdgcn_readlane(v, warpSize + 3);  // modulo the wavefront
  o[7] = __builtin_amdgcn_ds_bpermute((lane + 1) * 4, v);
  o[8] = __builtin_amdgcn_ds_bpermute(-4, v);         // the last lane
  o[9] = __builtin_amdgcn_ds_permute(((lane + 3) % warpSize) * 4, v);
  o[10] = __builtin_amdgcn_ds_permute((lane & ~3) * 4, v);  // four writers a lane: the highest wins
  o[11] = __builtin_amdgcn_ds_swizzle(v, 0x041F);     // bitmask: xor 1
  o[12] = __builtin_amdgcn_ds_swizzle(v, 0x01E0);     // bitmask: lane 15 of each 32
  o[13] = __builtin_amdgcn_ds_swizzle(v, 0x801B);     // quad_perm [3,2,1,0]
  o[14] = __builtin_amdgcn_ds_swizzle(v, 0x183C);     // and 0x1c, or 1, xor 6
  o[15] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, false);  // row_shr:1
  o[16] = __builtin_amdgcn_update_dpp(-1, v, 0x113, 0xf, 0xf, true);   // row_shr:3, bound_ctrl
  o[17] = __builtin_amdgcn_update_dpp(-1, v, 0x102, 0xf, 0xf, false);  // row_shl:2
  o[18] = __builtin_amdgcn_update_dpp(-1, v, 0x125, 0xf, 0xf, false);  // row_ror:5
  o[19] = __builtin_amdgcn_update_dpp(-1, v, 0xB1, 0xf, 0xf, false);   // quad_perm [1,0,3,2]
  o[20] = __builtin_amdgcn_update_dpp(-1, v, 0x142, 0xa, 0xf, false);  // row_bcast:15, rows 1 and 3
  o[21] = __builtin_amdgcn_update_dpp(-1, v, 0x143, 0xc, 0xf, false);  // row_bcast:31, rows 2 and 3
  o[22] = __builtin_amdgcn_update_dpp(-1, v, 0x138, 0xf, 0xf, false);  // wave_shr:1
  o[23] = __builtin_amdgcn_update_dpp(-1, v, 0x134, 0xf, 0xf, false);  // wave_rol:1
  o[24] = __builtin_amdgcn_update_dpp(-1, v, 0x140, 0xf, 0x5, false);  // row_mirror, banks 0 and 2
  o[25] = __builtin_amdgcn_update_dpp(-1, v, 0x141, 0xf, 0xf, false);  // row_half_mirror
#if !defined(__AMDGCN__)  // GFX10's controls: the gfx90a code object this program also holds has none
  o[26] = __builtin_amdgcn_update_dpp(-1, v, 0x155, 0xf, 0xf, false);  // row_share:5
  o[27] = __builtin_amdgcn_update_dpp(-1, v, 0x163, 0xf, 0xf, false);  // row_xmask:3
#endif
  o[28] = __builtin_amdgcn_mov_dpp(v, 0x111, 0xf, 0xf, true);          // row_shr:1, bound_ctrl
  // An inclusive scan of the wavefront as LLVM's atomic optimizer and
  // rocPRIM write it: row_shr 1, 2, 4, 8, then row_bcast:15 and :31.
  int sum = v;
  sum += __builtin_amdgcn_update_dpp(0, sum, 0x111, 0xf, 0xf, false);
  sum += __builtin_amdgcn_update_dpp(0, sum, 0x112, 0xf, 0xf, false);
  sum += __builtin_amdgcn_update_dpp(0, sum, 0x114, 0xf, 0xf, false);
  sum += __builtin_amdgcn_update_dpp(0, sum, 0x118, 0xf, 0xf, false);
  sum += __builtin_amdgcn_update_dpp(0, sum, 0x142, 0xa, 0xf, false);
  sum += __builtin_amdgcn_update_dpp(0, sum, 0x143, 0xc, 0xf, false);
  o[29] = sum;
  o[30] = __builtin_amdgcn_workitem_id_x() + 100 * __builtin_amdgcn_workitem_id_y() +
          10000 * __builtin_amdgcn_workitem_id_z();
  o[31] = __builtin_amdgcn_workgroup_id_x() + 100 * __builtin_amdgcn_workgroup_id_y() +
          10000 * __builtin_amdgcn_workgroup_id_z();
  unsigned long long time0 = __builtin_amdgcn_s_memtime(), real0 = __builtin_amdgcn_s_memrealtime();
  __builtin_amdgcn_s_sleep(127);  // about 64 * 127 clocks
  unsigned long long time1 = __builtin_amdgcn_s_memtime(), real1 = __builtin_amdgcn_s_memrealtime();
  o[32] = time1 - time0 >= 64 * 127;      // clock64's nanoseconds
  o[33] = real1 - real0 >= 64 * 127 / 10;  // 100 MHz
  shared[t] = v;  // through __shared__ memory within the wavefront, as rocPRIM's wave_barrier
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "wavefront");
  __builtin_amdgcn_wave_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "wavefront");
  o[34] = shared[t ^ 1];
  __builtin_amdgcn_s_barrier();            // and across the block
  shared[t] = v * 2;
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  o[35] = shared[(t + 50) % kLanes];
  __builtin_amdgcn_fence(__ATOMIC_SEQ_CST, "agent");
  o[36] = __builtin_amdgcn_readfirstlane(static_cast<int>(__builtin_amdgcn_workitem_id_x()) + lane);
  o[37] = lane;
  o[38] = warpSize;
}

__global__ void divergent(long long* out) {
  int b = blockIdx.x + 2 * blockIdx.z, t = threadIdx.x + 25 * threadIdx.y + 50 * threadIdx.z;
  int lane = __lane_id(), v = value_of(t, b);
  long long* o = slot(out);
  for (int i = 0; i < kCases; i++) o[i] = -7;
  if (lane % 2 == 1) {  // the odd lanes
    o[0] = __builtin_amdgcn_readfirstlane(v);
    o[1] = __builtin_amdgcn_ds_bpermute((lane - 1) * 4, v);  // an even lane: not active, 0
    o[2] = __builtin_amdgcn_ds_bpermute((lane + 2) * 4, v);
    o[3] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, false);  // an even source: old
    o[4] = __builtin_amdgcn_update_dpp(-1, v, 0x111, 0xf, 0xf, true);   // with bound_ctrl: 0
    o[5] = __builtin_amdgcn_update_dpp(-1, v, 0x112, 0xf, 0xf, false);
    o[6] = __builtin_amdgcn_ds_permute(((lane + 2) % warpSize) * 4, v);
    o[7] = __builtin_amdgcn_ds_swizzle(v, 0x081F);  // xor 2: odd
    o[8] = __builtin_amdgcn_ds_swizzle(v, 0x041F);  // xor 1: even, 0
    unsigned long long active = __ballot(1);
    o[9] = __builtin_amdgcn_mbcnt_hi(static_cast<unsigned int>(active >> 32),
                                     __builtin_amdgcn_mbcnt_lo(static_cast<unsigned int>(active), 0u));
    o[10] = __builtin_amdgcn_readlane(v, 4);  // an even lane: 0
  } else {
    o[0] = __builtin_amdgcn_readfirstlane(v);  // the even lanes, in their own branch
  }
  if (lane >= 20) return;  // an early return: lanes 0-19 of each wavefront go on
  o[11] = __builtin_amdgcn_readfirstlane(v * 5);
  o[12] = __builtin_amdgcn_readlane(v, 25);         // returned: 0
  o[13] = __builtin_amdgcn_ds_bpermute(30 * 4, v);  // returned: 0
  o[14] = __builtin_amdgcn_update_dpp(-1, v, 0x104, 0xf, 0xf, false);  // row_shl:4, lanes 16-19 read returned lanes
  __builtin_amdgcn_wave_barrier();
  if (lane < 8) {
    o[15] = __builtin_amdgcn_readfirstlane(v);
  } else {
    o[15] = __builtin_amdgcn_readfirstlane(v);
    o[16] = __builtin_amdgcn_update_dpp(-1, v, 0x138, 0xf, 0xf, false);  // wave_shr:1: lane 8 reads lane 7, not active
  }
  o[17] = __builtin_amdgcn_ds_permute((19 - lane) * 4, v);  // reversed, lanes 20 up not written
}

static bool present(int first, int lane, int size) { return lane >= 0 && lane < size && first + lane < kLanes; }

int main() {
  int device = 0;
  hipDeviceProp_t prop;
  if (hipGetDevice(&device) != hipSuccess || hipGetDeviceProperties(&prop, device) != hipSuccess) return 2;
  const int wave = prop.warpSize;
  printf("amdgpu_builtins: wave %d\n", wave);
  std::vector<long long> got(kBlocks * kLanes * kCases);
  long long* d = nullptr;
  if (hipMalloc(&d, got.size() * sizeof(long long)) != hipSuccess) return 2;
  int wrong_total = 0;
  for (int kernel = 0; kernel < 2; kernel++) {
    if (kernel == 0) uniform<<<kGrid, kBlock>>>(d);
    else divergent<<<kGrid, kBlock>>>(d);
    if (hipMemcpy(got.data(), d, got.size() * sizeof(long long), hipMemcpyDeviceToHost) != hipSuccess) return 2;
    std::vector<int> wrong(kCases, 0);
    std::vector<std::vector<long long>> first_wrong(kCases);
    for (int b = 0; b < kBlocks; b++) {
      for (int t = 0; t < kLanes; t++) {
        int lane = t % wave, first = t - lane, size = first + wave <= kLanes ? wave : kLanes - first;
        int row = lane & ~15, in_row = lane & 15;
        auto v = [&](int l) { return static_cast<long long>((first + l) * 3 + 1000 * b + 1); };
        auto active = [&](int l) { return present(first, l, size); };
        auto read = [&](int l) { return active(l) ? v(l) : 0ll; };  // an inactive lane reads 0
        // A DPP move whose source lane is `source` (-1: out of range) and
        // whose destination lane is written: its source's value if valid.
        auto dpp = [&](int source, bool written, bool bound_ctrl, long long old) {
          if (!written) return old;
          if (source >= 0 && source < wave && active(source)) return v(source);
          return bound_ctrl ? 0ll : old;
        };
        const long long* o = &got[(b * kLanes + t) * kCases];
        std::vector<long long> want(kCases, -7);
        if (kernel == 0) {
          auto below = [&](unsigned long long mask, int from, int to) {  // set bits of mask in [from, to) below lane
            long long n = 0;
            for (int l = from; l < to && l < lane; l++) n += (mask >> (l - from)) & 1;
            return n;
          };
          want[0] = below(~0u, 0, 32);
          want[1] = lane;
          want[2] = 7 + below(0xA5A5A5A5u, 0, 32);
          want[3] = 3 + below(0x0F0F0F0Fu, 32, 64);
          want[4] = v(0);
          want[5] = read(5);
          want[6] = read(3);
          want[7] = read((lane + 1) % wave);
          want[8] = read(wave - 1);
          want[9] = active((lane - 3 + wave) % wave) ? v((lane - 3 + wave) % wave) : 0;
          want[10] = lane % 4 == 0 ? v(lane + 3 < size ? lane + 3 : size - 1) : 0;
          want[11] = read(lane ^ 1);
          want[12] = read((lane & 32) | 15);
          want[13] = read((lane & ~3) | (3 - (lane & 3)));
          want[14] = read((lane & 32) | ((((lane & 0x1c) | 1) ^ 6) & 31));
          want[15] = dpp(in_row >= 1 ? lane - 1 : -1, true, false, -1);
          want[16] = dpp(in_row >= 3 ? lane - 3 : -1, true, true, -1);
          want[17] = dpp(in_row + 2 < 16 ? lane + 2 : -1, true, false, -1);
          want[18] = dpp(row + ((in_row + 16 - 5) % 16), true, false, -1);
          want[19] = dpp(lane ^ 1, true, false, -1);
          want[20] = dpp(row - 1, (lane / 16) % 2 == 1, false, -1);
          want[21] = dpp(31, lane >= 32, false, -1);
          want[22] = dpp(lane - 1, true, false, -1);
          want[23] = dpp((lane + 1) % wave, true, false, -1);
          want[24] = dpp(row + 15 - in_row, in_row / 4 % 2 == 0, false, -1);
          want[25] = dpp((lane & ~7) + 7 - (lane & 7), true, false, -1);
          want[26] = dpp(row + 5, true, false, -1);
          want[27] = dpp(row + (in_row ^ 3), true, false, -1);
          want[28] = dpp(in_row >= 1 ? lane - 1 : -1, true, true, 0);
          long long sum = 0;
          for (int l = 0; l <= lane; l++) sum += v(l);
          want[29] = static_cast<int>(sum);
          int x = t % 25, y = t / 25 % 2, z = t / 50;
          want[30] = x + 100 * y + 10000 * z;
          want[31] = b % 2 + 10000 * (b / 2);
          want[32] = 1;
          want[33] = 1;
          want[34] = v(lane ^ 1);
          want[35] = 2 * ((t + 50) % kLanes * 3 + 1000 * b + 1);
          want[36] = first % 25;  // the first lane's threadIdx.x, plus its lane 0
          want[37] = lane;
          want[38] = wave;
        } else {
          int odd_first = present(first, 1, size) ? 1 : -1;
          if (lane % 2 == 1) {
            want[0] = v(odd_first);
            want[1] = 0;
            want[2] = (lane + 2) % wave % 2 == 1 ? read((lane + 2) % wave) : 0;
            want[3] = -1;
            want[4] = 0;
            want[5] = dpp(in_row >= 2 ? lane - 2 : -1, true, false, -1);
            int writer = (lane - 2 + wave) % wave;  // odd
            want[6] = active(writer) ? v(writer) : 0;
            want[7] = read(lane ^ 2);
            want[8] = 0;
            want[9] = lane / 2;
            want[10] = 0;
          } else {
            want[0] = v(0);
          }
          if (lane < 20) {
            int alive = size < 20 ? size : 20;  // lanes 0 to alive - 1 go on
            auto live = [&](int l) { return l >= 0 && l < alive ? v(l) : 0ll; };
            want[11] = 5 * v(0);
            want[12] = 0;
            want[13] = 0;
            want[14] = in_row + 4 < 16 && lane + 4 < alive ? v(lane + 4) : -1;
            want[15] = lane < 8 ? v(0) : v(8);
            if (lane >= 8) want[16] = lane - 1 >= 8 ? v(lane - 1) : -1;
            want[17] = live(19 - lane);
          }
        }
        for (int c = 0; c < kCases; c++) {
          if (o[c] == want[c]) continue;
          if (!wrong[c]++) first_wrong[c] = {b, t, o[c], want[c]};
        }
      }
    }
    for (int c = 0; c < kCases; c++) {
      if (!wrong[c]) continue;
      const std::vector<long long>& w = first_wrong[c];
      printf("amdgpu_builtins: %s case %d: %d wrong (block %lld thread %lld: %lld, not %lld)\n",
             kernel ? "divergent" : "uniform", c, wrong[c], w[0], w[1], w[2], w[3]);
      wrong_total += wrong[c];
    }
  }
  hipFree(d);
  if (wrong_total) {
    printf("amdgpu_builtins: %d wrong\n", wrong_total);
    return 1;
  }
  printf("ok\n");
  return 0;
}
