// Inline PTX on the simulated device: each family of instructions written as
// asm statements (CUB's idioms among them) next to the same computation in
// plain CUDA C++, in one kernel per family; a line per family says PASS or
// how many lanes' results differ.
#include <cstdio>
#include <cuda_fp16.h>

#define CHECKS 64  // per thread and family

// Each thread's pairs of (PTX result, plain C++ result).
__device__ unsigned long long got[8][256][CHECKS], want[8][256][CHECKS];

struct Recorder {
  int family, thread, n = 0;
  __device__ void operator()(unsigned long long ptx, unsigned long long cpp) {
    if (thread < 0) return;  // a block that does not record
    got[family][thread][n] = ptx;
    want[family][thread][n] = cpp;
    n++;
  }
};

__host__ __device__ unsigned int inputs(int n) { return 0x9e3779b9u * (n + 1) ^ (0x7f4a7c15u >> (n % 13)); }

// ---- CUB's warp scan step, and the shuffles ----
__global__ void shuffles(int *data) {
  Recorder check{0, static_cast<int>(threadIdx.x)};
  unsigned int lane = threadIdx.x % 32, value = data[threadIdx.x];
  // cub::WarpScanShfl::InclusiveScanStep (warp_scan_shfl.cuh), word for word.
  int output, input = static_cast<int>(value), offset = 2, first_lane = 0, member_mask = -1;
  int shfl_c = first_lane | 0;
  asm volatile(
      "{"
      "  .reg .s32 r0;"
      "  .reg .pred p;"
      "  shfl.sync.up.b32 r0|p, %1, %2, %3, %5;"
      "  @p add.s32 r0, r0, %4;"
      "  mov.s32 %0, r0;"
      "}"
      : "=r"(output)
      : "r"(input), "r"(offset), "r"(shfl_c), "r"(input), "r"(member_mask));
  int up = __shfl_up_sync(0xffffffffu, input, offset);
  check(output, lane >= 2 ? up + input : input);
  // idx, down and bfly, whole warp and within 16 lanes (c = (32 - width) << 8 | clamp).
  unsigned int r, in_range;
  asm("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(value), "r"(5), "r"(0x1f), "r"(0xffffffffu));
  check(r, __shfl_sync(0xffffffffu, value, 5));
  asm("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(value), "r"(3), "r"(0x100f), "r"(0xffffffffu));
  check(r, __shfl_sync(0xffffffffu, value, 3, 16));
  asm("{ .reg .pred q; shfl.sync.down.b32 %0|q, %2, %3, %4, %5; selp.u32 %1, 1, 0, q; }"
      : "=r"(r), "=r"(in_range)
      : "r"(value), "r"(3), "r"(0x1f), "r"(0xffffffffu));
  check(r, __shfl_down_sync(0xffffffffu, value, 3));
  check(in_range, lane + 3 <= 31);
  asm("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(value), "r"(2), "r"(0x100f), "r"(0xffffffffu));
  check(r, __shfl_down_sync(0xffffffffu, value, 2, 16));
  asm("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(value), "r"(9), "r"(0x1f), "r"(0xffffffffu));
  check(r, __shfl_xor_sync(0xffffffffu, value, 9));
  asm("shfl.up.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(value), "r"(4), "r"(0x1000));
  check(r, __shfl_up_sync(0xffffffffu, value, 4, 16));
  asm("shfl.idx.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(value), "r"(31), "r"(0x1f));
  check(r, __shfl_sync(0xffffffffu, value, 31));
  // A float through shfl, and a partial warp: lanes 0-19 only.
  float real = value * 0.5f, shuffled;
  asm("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(shuffled) : "r"(real), "r"(1), "r"(0x1f), "r"(0xffffffffu));
  check(__float_as_uint(shuffled), __float_as_uint(__shfl_xor_sync(0xffffffffu, real, 1)));
  if (lane < 20) {
    asm("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(value), "r"(1), "r"(19), "r"(0xfffffu));
    unsigned int down = __shfl_down_sync(0xfffffu, value, 1);
    check(r, lane < 19 ? down : value);
  }
}

// ---- votes, activemask, match, redux, bar.warp.sync ----
__global__ void votes(int *data) {
  Recorder check{1, static_cast<int>(threadIdx.x)};
  unsigned int lane = threadIdx.x % 32, value = data[threadIdx.x], r;
  int odd = value & 1;
  asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.sync.ballot.b32 %0, p, %2; }" : "=r"(r) : "r"(odd), "r"(~0u));
  check(r, __ballot_sync(~0u, odd));
  asm("{ .reg .pred p; setp.ne.u32 p, %1, 0; vote.ballot.b32 %0, !p; }" : "=r"(r) : "r"(odd));
  check(r, __ballot_sync(~0u, !odd));
  if (lane % 3 != 0) {  // divergent: a third of the lanes away
    unsigned int mask = __activemask(), active;
    asm("activemask.b32 %0;" : "=r"(active));
    check(active, mask);
    asm("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.any.pred q, p, %2; selp.u32 %0, 1, 0, q; }"
        : "=r"(r) : "r"(odd), "r"(mask));
    check(r, __any_sync(mask, odd) != 0);
    asm("{ .reg .pred p, q; setp.lt.u32 p, %1, 40; vote.sync.all.pred q, p, %2; selp.u32 %0, 1, 0, q; }"
        : "=r"(r) : "r"(lane), "r"(mask));
    check(r, __all_sync(mask, lane < 40) != 0);
    asm("{ .reg .pred p, q; setp.ne.u32 p, %1, 0; vote.sync.uni.pred q, p, %2; selp.u32 %0, 1, 0, q; }"
        : "=r"(r) : "r"(odd), "r"(mask));
    check(r, __all_sync(mask, odd) || !__any_sync(mask, odd));
    asm("bar.warp.sync %0;" ::"r"(mask));
    asm("match.any.sync.b32 %0, %1, %2;" : "=r"(r) : "r"(value % 4), "r"(mask));
    check(r, __match_any_sync(mask, value % 4));
    unsigned int all;
    int pred;
    asm("{ .reg .pred p; match.all.sync.b32 %0|p, %2, %3; selp.u32 %1, 1, 0, p; }"
        : "=r"(r), "=r"(all) : "r"(value / 1000000000u), "r"(mask));
    check(r, __match_all_sync(mask, value / 1000000000u, &pred));
    check(all, pred != 0);
    asm("redux.sync.add.u32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(mask));
    check(r, __reduce_add_sync(mask, value));
    asm("redux.sync.max.s32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(mask));
    check(r, __reduce_max_sync(mask, static_cast<int>(value)));
    asm("redux.sync.min.u32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(mask));
    check(r, __reduce_min_sync(mask, value));
    asm("redux.sync.xor.b32 %0, %1, %2;" : "=r"(r) : "r"(value), "r"(mask));
    check(r, __reduce_xor_sync(mask, value));
  }
}

// ---- special registers ----
__global__ void specials(int *) {
  bool recorded = blockIdx.x == 1 && blockIdx.y == 2;
  Recorder check{2, recorded ? static_cast<int>(threadIdx.x + blockDim.x * threadIdx.y) : -1};
  unsigned int lane = (threadIdx.x + blockDim.x * threadIdx.y) % 32, r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  check(r, lane);
  asm("mov.u32 %0, %%warpid;" : "=r"(r));
  check(r, (threadIdx.x + blockDim.x * threadIdx.y) / 32);
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(r));
  check(r, (1u << lane) - 1);
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(r));
  check(r, (2u << lane) - 1);
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(r));
  check(r, 1u << lane);
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(r));
  check(r, lane == 31 ? 0 : ~0u << (lane + 1));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(r));
  check(r, ~0u << lane);
  unsigned int x, y, z;
  asm("mov.u32 %0, %%tid.x; mov.u32 %1, %%tid.y; mov.u32 %2, %%tid.z;" : "=r"(x), "=r"(y), "=r"(z));
  check(x | y << 10 | z << 20, threadIdx.x | threadIdx.y << 10 | threadIdx.z << 20);
  asm("mov.u32 %0, %%ntid.x; mov.u32 %1, %%ntid.y; mov.u32 %2, %%ctaid.x;" : "=r"(x), "=r"(y), "=r"(z));
  check(x | y << 10 | z << 20, blockDim.x | blockDim.y << 10 | blockIdx.x << 20);
  asm("mov.u32 %0, %%nctaid.x; mov.u32 %1, %%nctaid.y; mov.u32 %2, %%ctaid.y;" : "=r"(x), "=r"(y), "=r"(z));
  check(x | y << 10 | z << 20, gridDim.x | gridDim.y << 10 | blockIdx.y << 20);
  unsigned long long before, after;
  asm volatile("mov.u64 %0, %%clock64;" : "=r"(before));
  asm volatile("nanosleep.u32 %0;" ::"r"(1000));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=r"(after));
  check(after > before, 1);
  asm volatile("mov.u32 %0, %%clock;" : "=r"(r));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(x));
  check(x, __smid());
  asm volatile("pmevent 1; prefetch.global.L2 [%0];" ::"r"(&got[0][0][0]));
}

// ---- integer arithmetic, logic, comparisons, moves ----
__global__ void integers(int *) {
  Recorder check{3, static_cast<int>(threadIdx.x)};
  unsigned int a = inputs(threadIdx.x), b = inputs(threadIdx.x + 7), c = inputs(threadIdx.x + 91), r;
  int sa = static_cast<int>(a), sb = static_cast<int>(b);
  unsigned long long wide, la = (static_cast<unsigned long long>(b) << 32) | a;
  // mov.b64 {lo, hi} (CUB's ShuffleIndex of 64-bit words) and back; 16-bit halves.
  unsigned int lo, hi;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(lo), "=r"(hi) : "r"(la));
  check(lo | static_cast<unsigned long long>(hi) << 32, la);
  asm("mov.b64 %0, {%1, %2};" : "=r"(wide) : "r"(b), "r"(a));
  check(wide, (static_cast<unsigned long long>(a) << 32) | b);
  asm("{ .reg .b16 l, h; mov.b32 {l, h}, %1; mov.b32 %0, {h, l}; }" : "=r"(r) : "r"(a));
  check(r, a >> 16 | a << 16);
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  check(r, a + b);
  asm("sub.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  check(r, static_cast<unsigned int>(sa - sb));
  asm("add.sat.s32 %0, %1, %2;" : "=r"(r) : "r"(0x7ffffff0), "r"(sb & 0xff));
  check(r, static_cast<long long>(0x7ffffff0) + (sb & 0xff) > 0x7fffffff ? 0x7fffffffu : 0x7ffffff0u + (sb & 0xff));
  // cvt.sat between integers clamps to the destination's range.
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(r) : "r"(sa));
  check(r, sa < 0 ? 0u : sa > 255 ? 255u : static_cast<unsigned int>(sa));
  asm("cvt.sat.s8.u32 %0, %1;" : "=r"(r) : "r"(a));
  check(r, a > 127 ? 127u : a);
  int scaled = static_cast<int>(a * 1000u);  // wrapped, as the register would be
  asm("cvt.sat.s16.s32 %0, %1;" : "=r"(r) : "r"(scaled));
  check(static_cast<int>(static_cast<short>(r)), scaled < -32768 ? -32768 : scaled > 32767 ? 32767 : scaled);
  asm("mul.lo.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  check(r, a * b);
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  check(r, static_cast<unsigned int>(__mulhi(sa, sb)));
  asm("mul.wide.u32 %0, %1, %2;" : "=r"(wide) : "r"(a), "r"(b));
  check(wide, static_cast<unsigned long long>(a) * b);
  asm("mul.wide.s32 %0, %1, %2;" : "=r"(wide) : "r"(sa), "r"(sb));
  check(wide, static_cast<unsigned long long>(static_cast<long long>(sa) * sb));
  asm("mad.lo.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(sa), "r"(sb), "r"(c));
  check(r, a * b + c);
  asm("mad.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  check(r, __umulhi(a, b) + c);
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=r"(wide) : "r"(a), "r"(b), "r"(la));
  check(wide, static_cast<unsigned long long>(a) * b + la);
  asm("div.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b % 1000 + 1));
  check(r, a / (b % 1000 + 1));
  asm("rem.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb % 1000 + 1));
  check(r, static_cast<unsigned int>(sa % (sb % 1000 + 1)));
  asm("div.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(-1));
  check(r, 0u - a);
  asm("div.s64 %0, %1, %2;" : "=r"(wide) : "r"(static_cast<long long>(la)), "r"(-7ll));
  check(wide, static_cast<unsigned long long>(static_cast<long long>(la) / -7));
  asm("min.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(sb));
  check(r, static_cast<unsigned int>(min(sa, sb)));
  asm("max.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
  check(r, max(a, b));
  asm("abs.s32 %0, %1;" : "=r"(r) : "r"(sa));
  check(r, static_cast<unsigned int>(abs(sa)));
  asm("neg.s32 %0, %1;" : "=r"(r) : "r"(sa));
  check(r, 0u - a);
  asm("and.b32 %0, %1, %2; or.b32 %0, %0, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c & 0xf0));
  check(r, (a & b) | (c & 0xf0));
  asm("xor.b32 %0, %1, %2; not.b32 %0, %0;" : "=r"(r) : "r"(a), "r"(b));
  check(r, ~(a ^ b));
  asm("cnot.b32 %0, %1;" : "=r"(r) : "r"(a & 1));
  check(r, !(a & 1));
  unsigned int amount = threadIdx.x % 40;  // PTX clamps shifts of 32 or more
  asm("shl.b32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(amount));
  check(r, amount >= 32 ? 0 : a << amount);
  asm("shr.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(amount));
  check(r, amount >= 32 ? 0 : a >> amount);
  asm("shr.s32 %0, %1, %2;" : "=r"(r) : "r"(sa), "r"(amount));
  check(r, static_cast<unsigned int>(sa >> (amount >= 32 ? 31 : amount)));
  asm("shl.b64 %0, %1, %2;" : "=r"(wide) : "r"(la), "r"(amount + 20));
  check(wide, amount + 20 >= 64 ? 0 : la << (amount + 20));
  // The tied operand: "+r" reads and writes one.
  unsigned int tied = a;
  asm("add.u32 %0, %0, %1;" : "+r"(tied) : "r"(b));
  check(tied, a + b);
  asm("add.u32 %0, %0, %1;" : "=r"(tied) : "r"(b), "0"(c));
  check(tied, c + b);
  asm("add.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "n"(12345));
  check(r, a + 12345);
  // setp with each comparison, combined, with p|q, selp and slct.
  unsigned int flags = 0;
  asm("{ .reg .pred p, q;"
      "  setp.lt.s32 p, %1, %2; selp.u32 %0, 1, 0, p;"
      "  setp.lo.u32 p|q, %3, %4; @q or.b32 %0, %0, 2; @p or.b32 %0, %0, 4;"
      "  setp.ge.s32.and p, %1, 0, p; @p or.b32 %0, %0, 8;"
      "  setp.hs.u32 q, %3, %4; @!q or.b32 %0, %0, 16;"
      "  setp.eq.u32.or p, %3, %4, q; @p or.b32 %0, %0, 32; }"
      : "=r"(flags) : "r"(sa), "r"(sb), "r"(a), "r"(b));
  bool lt = sa < sb, lo_ = a < b, and_ = sa >= 0 && lo_, or_ = a == b || a >= b;
  check(flags, lt | !lo_ << 1 | lo_ << 2 | and_ << 3 | lo_ << 4 | or_ << 5);
  asm("slct.u32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(sa));
  check(r, sa >= 0 ? a : b);
  asm("popc.b32 %0, %1;" : "=r"(r) : "r"(a));
  check(r, __popc(a));
  asm("popc.b64 %0, %1;" : "=r"(r) : "r"(la));
  check(r, __popcll(la));
  unsigned int small = threadIdx.x % 33 == 32 ? 0 : a >> (threadIdx.x % 33);  // 0 for one thread
  asm("clz.b32 %0, %1;" : "=r"(r) : "r"(small));
  check(r, __clz(small));
  asm("brev.b32 %0, %1;" : "=r"(r) : "r"(a));
  check(r, __brev(a));
  asm("bfind.u32 %0, %1;" : "=r"(r) : "r"(small));
  check(r, small ? 31 - __clz(small) : 0xffffffffu);
  asm("bfind.shiftamt.u32 %0, %1;" : "=r"(r) : "r"(small | 1));
  check(r, __clz(small | 1));
  asm("bfind.s32 %0, %1;" : "=r"(r) : "r"(sa));
  check(r, sa == -1 || sa == 0 ? 0xffffffffu : 31 - __clz(sa < 0 ? ~sa : sa));
}

// ---- bit fields: bfe, bfi, prmt, lop3 and CUB's video idioms ----
__device__ unsigned int reference_bfe(unsigned int a, unsigned int pos, unsigned int len, bool sign) {
  pos &= 0xff, len &= 0xff;
  unsigned int result = 0;
  bool fill = sign && len && (a >> (pos + len - 1 > 31 ? 31 : pos + len - 1)) & 1;
  for (unsigned int i = 0; i < 32; i++) {
    bool bit = i < len && pos + i <= 31 ? (a >> (pos + i)) & 1 : fill;
    result |= static_cast<unsigned int>(bit) << i;
  }
  return result;
}

__global__ void bitfields(int *) {
  Recorder check{4, static_cast<int>(threadIdx.x)};
  unsigned int a = inputs(threadIdx.x), b = inputs(threadIdx.x + 7), r;
  unsigned int pos = threadIdx.x % 36, len = (threadIdx.x * 7) % 34;
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
  check(r, reference_bfe(a, pos, len, false));
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(pos), "r"(len));
  check(r, reference_bfe(a, pos, len, true));
  unsigned long long wide, la = (static_cast<unsigned long long>(b) << 32) | a;
  asm("bfe.u64 %0, %1, %2, %3;" : "=r"(wide) : "r"(la), "r"(pos + 20), "r"(len));
  check(wide, (la >> (pos + 20)) & ((len >= 64 ? 0 : 1ull << len) - 1) & (pos + 20 >= 64 ? 0 : ~0ull));
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r) : "r"(a), "r"(b), "r"(pos), "r"(len));
  unsigned int field = len >= 32 ? ~0u : (1u << len) - 1;
  check(r, pos >= 32 ? b : (b & ~(field << pos)) | ((a << pos) & (field << pos)));
  unsigned int selector = inputs(threadIdx.x + 3) & 0xffff;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(selector));
  unsigned long long bytes = la;
  unsigned int expected = 0;
  for (int n = 0; n < 4; n++) {
    unsigned int sel = (selector >> (4 * n)) & 0xf, byte = (bytes >> (8 * (sel & 7))) & 0xff;
    if (sel & 8) byte = byte & 0x80 ? 0xff : 0;
    expected |= byte << (8 * n);
  }
  check(r, expected);
  check(__byte_perm(a, b, selector & 0x7777), [&] {
    asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(selector & 0x7777));
    return r;
  }());
  unsigned int c = inputs(threadIdx.x + 11);
  asm("lop3.b32 %0, %1, %2, %3, 0xE8;" : "=r"(r) : "r"(a), "r"(b), "r"(c));  // majority
  check(r, (a & b) | (a & c) | (b & c));
  asm("lop3.b32 %0, %1, %2, %3, 0x96;" : "=r"(r) : "r"(a), "r"(b), "r"(c));  // a ^ b ^ c
  check(r, a ^ b ^ c);
  // CUB's SHL_ADD, SHR_ADD and IADD3 (util_ptx.cuh).
  unsigned int shift = threadIdx.x % 40;
  asm("vshl.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(shift), "r"(c));
  check(r, (shift >= 32 ? 0 : a << shift) + c);
  asm("vshr.u32.u32.u32.clamp.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(shift), "r"(c));
  check(r, (shift >= 32 ? 0 : a >> shift) + c);
  asm("vadd.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  check(r, a + b + c);
  asm("vmax.s32.s32.s32.max %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  check(r, static_cast<unsigned int>(max(max(static_cast<int>(a), static_cast<int>(b)), static_cast<int>(c))));
  // SIMD video instructions: a sum of absolute differences of bytes (as
  // NVIDIA's stereoDisparity computes one), bytes added with saturation,
  // halves subtracted.
  auto lane = [](unsigned int word, int n, int width, bool is_signed) {
    int part = static_cast<int>((word >> (n * width)) & ((1u << width) - 1));
    return is_signed && part >> (width - 1) ? part - (1 << width) : part;
  };
  unsigned int sad = c, signed_sad = c, saturated = 0, halves = 0;
  for (int n = 0; n < 4; n++) {
    sad += abs(lane(a, n, 8, false) - lane(b, n, 8, false));
    signed_sad += abs(lane(a, n, 8, true) - lane(b, n, 8, true));
    saturated |= static_cast<unsigned int>(min(lane(a, n, 8, false) + lane(b, n, 8, false), 255)) << (8 * n);
  }
  for (int n = 0; n < 2; n++)
    halves |= (static_cast<unsigned int>(lane(a, n, 16, true) - lane(b, n, 16, true)) & 0xffff) << (16 * n);
  asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  check(r, sad);
  asm("vabsdiff4.s32.s32.s32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  check(r, signed_sad);
  asm("vadd4.u32.u32.u32.sat %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  check(r, saturated);
  asm("vsub2.s32.s32.s32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  check(r, halves);
  asm("vabsdiff.u32.u32.u32.add %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
  check(r, (a > b ? a - b : b - a) + c);
}

// ---- floats and conversions ----
__global__ void floats(int *) {
  Recorder check{5, static_cast<int>(threadIdx.x)};
  float x = (static_cast<int>(inputs(threadIdx.x) % 20001) - 10000) / 7.0f, y = threadIdx.x * 0.75f - 3.1f, r;
  double dx = x * 1.25, dr;
  asm("add.f32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
  check(__float_as_uint(r), __float_as_uint(x + y));
  asm("mul.rn.f32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
  check(__float_as_uint(r), __float_as_uint(x * y));
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=r"(r) : "r"(x), "r"(y), "r"(1.5f));
  check(__float_as_uint(r), __float_as_uint(fmaf(x, y, 1.5f)));
  asm("div.rn.f32 %0, %1, %2;" : "=r"(r) : "r"(x), "r"(y));
  check(__float_as_uint(r), __float_as_uint(x / y));
  asm("min.f32 %0, %1, %2; abs.f32 %0, %0;" : "=r"(r) : "r"(x), "r"(y));
  check(__float_as_uint(r), __float_as_uint(fabsf(fminf(x, y))));
  asm("max.f32 %0, %1, 0f3F800000; neg.f32 %0, %0;" : "=r"(r) : "r"(x));
  check(__float_as_uint(r), __float_as_uint(-fmaxf(x, 1.0f)));
  asm("sub.f64 %0, %1, %2;" : "=r"(dr) : "r"(dx), "r"(2.5));
  check(__double_as_longlong(dr), __double_as_longlong(dx - 2.5));
  asm("fma.rn.f64 %0, %1, %1, %2;" : "=r"(dr) : "r"(dx), "r"(0.125));
  check(__double_as_longlong(dr), __double_as_longlong(fma(dx, dx, 0.125)));
  int i;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(i) : "r"(x));
  check(i, __float2int_rn(x));
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(i) : "r"(x));
  check(i, static_cast<int>(x));
  asm("cvt.rmi.s32.f64 %0, %1;" : "=r"(i) : "r"(dx));
  check(i, static_cast<int>(floor(dx)));
  unsigned int u;
  asm("cvt.rzi.u32.f32 %0, %1;" : "=r"(u) : "r"(x));
  check(u, x <= 0 ? 0u : static_cast<unsigned int>(x));
  asm("cvt.rn.f32.s32 %0, %1;" : "=r"(r) : "r"(static_cast<int>(threadIdx.x) - 100));
  check(__float_as_uint(r), __float_as_uint(static_cast<float>(static_cast<int>(threadIdx.x) - 100)));
  asm("cvt.rn.f64.u32 %0, %1;" : "=r"(dr) : "r"(inputs(threadIdx.x)));
  check(__double_as_longlong(dr), __double_as_longlong(static_cast<double>(inputs(threadIdx.x))));
  asm("cvt.f64.f32 %0, %1;" : "=r"(dr) : "r"(x));
  check(__double_as_longlong(dr), __double_as_longlong(static_cast<double>(x)));
  asm("cvt.rn.f32.f64 %0, %1;" : "=r"(r) : "r"(dx));
  check(__float_as_uint(r), __float_as_uint(static_cast<float>(dx)));
  // Halves: cvt.rn.f16.f32 and back, as cuda_fp16.h's conversions.
  unsigned short h;
  asm("{ .reg .b16 t; cvt.rn.f16.f32 t, %1; mov.b16 %0, t; }" : "=r"(h) : "r"(x));
  check(h, __half_as_ushort(__float2half_rn(x)));
  asm("cvt.f32.f16 %0, %1;" : "=r"(r) : "r"(h));
  check(__float_as_uint(r), __float_as_uint(__half2float(__ushort_as_half(h))));
  asm("cvt.u16.u8 %0, %1;" : "=r"(h) : "r"(inputs(threadIdx.x)));
  check(h, inputs(threadIdx.x) & 0xff);
  asm("cvt.s32.s8 %0, %1;" : "=r"(i) : "r"(inputs(threadIdx.x)));
  check(i, static_cast<signed char>(inputs(threadIdx.x)));
  asm("cvt.sat.f32.f32 %0, %1;" : "=r"(r) : "r"(x / 1000));
  check(__float_as_uint(r), __float_as_uint(__saturatef(x / 1000)));
  asm("set.gt.u32.f32 %0, %1, %2;" : "=r"(u) : "r"(x), "r"(y));
  check(u, x > y ? 0xffffffffu : 0);
}

// ---- memory: loads, stores, atomics, fences, barriers ----
__global__ void memory(unsigned int *buffer, unsigned int *counters) {
  Recorder check{6, static_cast<int>(threadIdx.x)};
  __shared__ unsigned int tile[64];
  unsigned int *mine = buffer + 4 * threadIdx.x;
  // CUB's ThreadLoad<LOAD_CG> and ThreadStore<STORE_WB> of a uint4.
  unsigned int w, x, y, z;
  asm volatile("ld.global.cg.v4.u32 {%0, %1, %2, %3}, [%4];" : "=r"(w), "=r"(x), "=r"(y), "=r"(z) : "r"(mine));
  check(w | static_cast<unsigned long long>(z) << 32, mine[0] | static_cast<unsigned long long>(mine[3]) << 32);
  check(x | static_cast<unsigned long long>(y) << 32, mine[1] | static_cast<unsigned long long>(mine[2]) << 32);
  asm volatile("st.global.wb.v4.u32 [%0], {%1, %2, %3, %4};" ::"r"(mine), "r"(z), "r"(y), "r"(x), "r"(w) : "memory");
  check(mine[0] | static_cast<unsigned long long>(mine[3]) << 32, z | static_cast<unsigned long long>(w) << 32);
  unsigned int v;
  asm volatile("ld.global.nc.u32 %0, [%1+8];" : "=r"(v) : "r"(mine));
  check(v, mine[2]);
  asm volatile("ld.volatile.global.u32 %0, [%1];" : "=r"(v) : "r"(mine + 1));
  check(v, mine[1]);
  unsigned short half;
  asm volatile("ld.global.u16 %0, [%1+2];" : "=r"(half) : "r"(mine));
  check(half, mine[0] >> 16);
  asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"r"(mine + 3), "r"(threadIdx.x) : "memory");
  asm volatile("ld.acquire.gpu.u32 %0, [%1];" : "=r"(v) : "r"(mine + 3) : "memory");
  check(v, threadIdx.x);
  // Shared memory through a generic address, then a barrier and neighbours' values.
  asm volatile("st.u32 [%0], %1;" ::"r"(&tile[threadIdx.x]), "r"(threadIdx.x * 3) : "memory");
  asm volatile("bar.sync 0;" ::: "memory");
  asm volatile("ld.u32 %0, [%1];" : "=r"(v) : "r"(&tile[(threadIdx.x + 1) % 64]) : "memory");
  check(v, ((threadIdx.x + 1) % 64) * 3);
  asm volatile("barrier.sync 0, 64;" ::: "memory");
  // Atomics on global memory: every thread adds, so the totals are known after a barrier.
  unsigned int old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(counters), "r"(1u) : "memory");
  asm volatile("red.global.add.u32 [%0], %1;" ::"r"(counters + 1), "r"(threadIdx.x) : "memory");
  asm volatile("atom.global.max.s32 %0, [%1], %2;" : "=r"(old) : "r"(counters + 2), "r"(threadIdx.x) : "memory");
  asm volatile("atom.global.or.b32 %0, [%1], %2;" : "=r"(old) : "r"(counters + 3), "r"(1u << (threadIdx.x % 32)));
  asm volatile("atom.global.inc.u32 %0, [%1], %2;" : "=r"(old) : "r"(counters + 4), "r"(9u) : "memory");
  asm volatile("atom.shared.add.u32 %0, [%1], %2;" : "=r"(old) : "r"(&tile[0]), "r"(1u) : "memory");
  unsigned long long wide_old;
  asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=r"(wide_old) : "r"(counters + 6), "r"(1ull << 32) : "memory");
  float f_old;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=r"(f_old) : "r"(counters + 8), "r"(0.5f) : "memory");
  asm volatile("membar.gl; fence.acq_rel.gpu; bar.sync 0;" ::: "memory");
  check(counters[0], 64);
  check(counters[1], 64 * 63 / 2);
  check(counters[2], 63);
  check(counters[3], 0xffffffffu);
  check(counters[4], 64 % 10);
  check(tile[0], 64);
  check(*reinterpret_cast<unsigned long long *>(counters + 6), 64ull << 32);
  check(__float_as_uint(*reinterpret_cast<float *>(counters + 8)), __float_as_uint(32.0f));
  asm volatile("bar.sync 0;" ::: "memory");
  // cas and exch: one thread at a time wins a turn.
  if (threadIdx.x == 0) {
    asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "r"(counters + 9), "r"(0u), "r"(77u) : "memory");
    check(old, 0);
    asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(old) : "r"(counters + 9), "r"(0u), "r"(88u) : "memory");
    check(old, 77);
    asm volatile("atom.exch.b32 %0, [%1], %2;" : "=r"(old) : "r"(counters + 9), "r"(5u) : "memory");
    check(old, 77);
    check(counters[9], 5);
    unsigned int space;
    asm("{ .reg .pred p; isspacep.global p, %1; selp.u32 %0, 1, 0, p; }" : "=r"(space) : "r"(counters));
    check(space, 1);
    unsigned long long converted;
    asm("cvta.to.global.u64 %0, %1;" : "=r"(converted) : "r"(counters));
    check(converted, reinterpret_cast<unsigned long long>(counters));
  }
}

// ---- exit: half the lanes leave the kernel, the others go on ----
// As CUB's ThreadExit: the exit is in a device function inlined into the kernel.
__device__ __forceinline__ void leave() { asm volatile("exit;"); }

__global__ void exits(int *) {
  Recorder check{7, static_cast<int>(threadIdx.x)};
  check(0, 0);
  if (threadIdx.x % 2) asm volatile("exit;");
  check(__popc(__activemask()), 16);
  if (threadIdx.x % 4 == 2) asm volatile("{ .reg .pred p; setp.ne.u32 p, %0, 0; @p exit; }" ::"r"(1u));
  check(__popc(__activemask()), 8);
  if (threadIdx.x % 8 == 4) leave();
  check(__popc(__activemask()), 4);
}

int main() {
  const char *names[] = {"shfl", "vote", "special registers", "integer arithmetic", "bit fields", "floats and cvt",
                         "memory", "exit"};
  int *data;
  unsigned int *buffer, *counters;
  cudaMallocManaged(&data, 256 * sizeof(int));
  cudaMallocManaged(&buffer, 4 * 64 * sizeof(unsigned int));
  cudaMallocManaged(&counters, 16 * sizeof(unsigned int));
  for (int n = 0; n < 256; n++) data[n] = static_cast<int>(inputs(n) % 1000);
  for (int n = 0; n < 4 * 64; n++) buffer[n] = inputs(n + 500);
  for (int n = 0; n < 16; n++) counters[n] = 0;
  shuffles<<<1, 64>>>(data);
  votes<<<1, 64>>>(data);
  specials<<<dim3(2, 3), dim3(16, 4)>>>(data);
  integers<<<1, 64>>>(data);
  bitfields<<<1, 64>>>(data);
  floats<<<1, 64>>>(data);
  memory<<<1, 64>>>(buffer, counters);
  exits<<<1, 32>>>(data);
  if (cudaError_t error = cudaDeviceSynchronize()) {
    printf("inline_ptx: %s\n", cudaGetErrorString(error));
    return 1;
  }
  static unsigned long long g[8][256][CHECKS], w[8][256][CHECKS];
  cudaMemcpyFromSymbol(g, got, sizeof g);
  cudaMemcpyFromSymbol(w, want, sizeof w);
  int failed = 0;
  for (int family = 0; family < 8; family++) {
    int wrong = 0, checks = 0;
    for (int thread = 0; thread < 256; thread++)
      for (int n = 0; n < CHECKS; n++) {
        checks += g[family][thread][n] != 0 || w[family][thread][n] != 0;
        if (g[family][thread][n] != w[family][thread][n]) {
          if (!wrong)
            printf("inline_ptx: %s: thread %d check %d: 0x%llx, expected 0x%llx\n", names[family], thread, n,
                   g[family][thread][n], w[family][thread][n]);
          wrong++;
        }
      }
    if (wrong) printf("inline_ptx: %s: mismatch in %d of %d checks\n", names[family], wrong, checks);
    else printf("inline_ptx: %s: PASS\n", names[family]);
    failed += wrong != 0;
  }
  return failed;
}
