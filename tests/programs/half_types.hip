// hip/hip_fp16.h and hip/hip_bf16.h on the simulated device and in the host
// code of a HIP program: every function checked against an exact reference
// (half_types_checks.h, half_types_reference.h), then the device-only ones:
// warp shuffles of the four types, atomics, amd_mixed_dot; and the older
// hip_bfloat16 of <hip/hip_bfloat16.h>.  Prints one line
// per failing check (the first few of each function) and "ok N" when all N
// pass; exits 1 otherwise.
#include <hip/hip_runtime.h>

#include <hip/gpusym_detail/legacy_bfloat16.h>

#include <sstream>

#include "half_types_checks.h"
#include "half_types_reference.h"

#define CHECK_HIP(call)                                                          \
  do {                                                                           \
    hipError_t error_ = (call);                                                  \
    if (error_ != hipSuccess) {                                                  \
      printf("FAIL %s: %s\n", #call, hipGetErrorName(error_));                   \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)

static __device__ int lane_index() { return blockIdx.x * blockDim.x + threadIdx.x; }

__global__ void run_patterns(Data d) {
  const int i = lane_index();
  if (i < PATTERNS) compute_pattern<HalfApi>(d, 0, i), compute_pattern<Bf16Api>(d, 1, i);
}
__global__ void run_floats(Data d) {
  const int i = lane_index();
  if (i < d.n_floats) compute_float<HalfApi>(d, 0, i), compute_float<Bf16Api>(d, 1, i);
}
__global__ void run_doubles(Data d) {
  const int i = lane_index();
  if (i < d.n_doubles) compute_double<HalfApi>(d, 0, i), compute_double<Bf16Api>(d, 1, i);
}
__global__ void run_integers(Data d) {
  const int i = lane_index();
  if (i < d.n_integers) compute_integer<HalfApi>(d, 0, i), compute_integer<Bf16Api>(d, 1, i);
}
__global__ void run_pairs(Data d) {
  const int i = lane_index();
  if (i < d.n_pairs) compute_pair<HalfApi>(d, 0, i), compute_pair<Bf16Api>(d, 1, i);
}
__global__ void run_triples(Data d) {
  const int i = lane_index();
  if (i < d.n_triples) compute_triple<HalfApi>(d, 0, i), compute_triple<Bf16Api>(d, 1, i);
}
// HIP's older hip_bfloat16 (<hip/hip_bfloat16.h>).
static HD void legacy_checks(Misc& m) {
  const hip_bfloat16 third(1.0f / 3);
  m.check(third.data == 0x3eab, "hip_bfloat16(float) to nearest");
  m.check(hip_bfloat16(__builtin_bit_cast(float, 0x3f808000u)).data == 0x3f80 &&
              hip_bfloat16(__builtin_bit_cast(float, 0x3f818000u)).data == 0x3f82,
          "hip_bfloat16(float) ties to even");
  m.check(hip_bfloat16(__builtin_bit_cast(float, 0x7f800001u)).data == 0x7f81 &&
              hip_bfloat16(__builtin_bit_cast(float, 0xffc00000u)).data == 0xffc0 &&
              hip_bfloat16(__builtin_bit_cast(float, 0x7f7fffffu)).data == 0x7f80,
          "hip_bfloat16(float): NaNs stay NaNs, overflow to infinity");
  m.check(hip_bfloat16(1.0f / 3, hip_bfloat16::truncate).data == 0x3eaa &&
              hip_bfloat16::round_to_bfloat16(1.0f / 3, hip_bfloat16::truncate).data == 0x3eaa &&
              hip_bfloat16::round_to_bfloat16(1.0f / 3).data == 0x3eab &&
              hip_bfloat16(__builtin_bit_cast(float, 0x7f800001u), hip_bfloat16::truncate).data == 0x7f81,
          "hip_bfloat16 truncate");
  hip_bfloat16 v;
  v = 2.0f;
  v += hip_bfloat16(1.0f);
  v *= hip_bfloat16(4.0f);
  v -= hip_bfloat16(2.0f);
  v /= hip_bfloat16(5.0f);
  m.check(float(v) == 2.0f && float(++v) == 3.0f && float(v--) == 3.0f && float(v) == 2.0f &&
              float(-v) == -2.0f && float(+v) == 2.0f,
          "hip_bfloat16 arithmetic");
  const hip_bfloat16 one(1.0f), two(2.0f);
  m.check(one < two && two > one && one <= one && two >= one && one != two && one == hip_bfloat16(1.0f) &&
              float(one + two) == 3.0f && float(two - one) == 1.0f && float(one * two) == 2.0f && float(one / two) == 0.5f,
          "hip_bfloat16 comparisons and operators");
  hip_bfloat16 nan, inf, zero;
  nan.data = 0x7fc1, inf.data = 0xff80, zero.data = 0x8000;
  m.check(std::isnan(nan) && !std::isnan(inf) && std::isinf(inf) && !std::isinf(nan) && std::iszero(zero) &&
              !std::iszero(one),
          "std::isnan, std::isinf, std::iszero on hip_bfloat16");
}

__global__ void run_misc(bool* ok, int* count) {
  Misc m = {ok, nullptr, 0};
  misc_checks(m);
  legacy_checks(m);
  *count = m.n;
}

// Shuffles: each lane holds its index (and 100 + it in a pair's high half).
enum { SHUFFLES = 10, BLOCK = 64 };
struct Sums {
  __half half[2];  // the second is the high half of a 4-byte word
  __half2 half2;
  __hip_bfloat16 bf16[2];
  __hip_bfloat162 bf162;
};
__global__ void run_warp_functions(unsigned int* shuffled, Sums* sums, unsigned short* old, float* dots) {
  const int t = threadIdx.x;
  const __half h = __int2half_rn(t % warpSize), high = __int2half_rn(100 + t % warpSize);
  const __hip_bfloat16 b = __int2bfloat16_rn(t % warpSize), bhigh = __int2bfloat16_rn(100 + t % warpSize);
  const __half2 h2 = __halves2half2(h, high);
  const __hip_bfloat162 b2 = __halves2bfloat162(b, bhigh);
  unsigned int* out = shuffled + t * SHUFFLES;
  out[0] = __half_as_ushort(__shfl(h, 3));
  out[1] = __half_as_ushort(__shfl_xor(h, 1));
  out[2] = __half_as_ushort(__shfl_down(h, 1));
  out[3] = __half_as_ushort(__shfl_up(h, 2));
  out[4] = __bfloat16_as_ushort(__shfl_xor_sync(~0ull, b, 2));
  out[5] = __bfloat16_as_ushort(__shfl_down_sync(~0ull, b, 4));
  out[6] = __builtin_bit_cast(unsigned int, __shfl_xor(h2, 1));
  out[7] = __builtin_bit_cast(unsigned int, __shfl_sync(~0ull, b2, 5));
  out[8] = __builtin_bit_cast(unsigned int, __shfl_up_sync(~0ull, h2, 1));
  out[9] = __builtin_bit_cast(unsigned int, __shfl_down(b2, 3));
  const __half one = __float2half(1.0f);
  const __hip_bfloat16 bone = __float2bfloat16(1.0f);
  old[t * 6 + 0] = __half_as_ushort(atomicAdd(&sums->half[0], one));
  old[t * 6 + 1] = __half_as_ushort(unsafeAtomicAdd(&sums->half[1], one));
  old[t * 6 + 2] = __half_as_ushort(atomicAdd(&sums->half2, __halves2half2(one, __float2half(2.0f))).x);
  old[t * 6 + 3] = __bfloat16_as_ushort(atomicAdd(&sums->bf16[0], bone));
  old[t * 6 + 4] = __bfloat16_as_ushort(unsafeAtomicAdd(&sums->bf16[1], bone));
  old[t * 6 + 5] = __bfloat16_as_ushort(unsafeAtomicAdd(&sums->bf162, __halves2bfloat162(bone, __float2bfloat16(2.0f))).x);
  if (t == 0) {
    const __half2 a = __floats2half2_rn(1.5f, -2.0f), c = __floats2half2_rn(4.0f, 0.25f);
    dots[0] = amd_mixed_dot(a, c, 0.5f, false);  // 6 - 0.5 + 0.5
    dots[1] = amd_mixed_dot(a, c, 0.5f, true);   // clamped to 1
    dots[2] = amd_mixed_dot(a, c, -7.0f, true);  // clamped to 0
  }
}

static void check_warp_functions(int warp, Report& report) {
  unsigned int* shuffled;
  Sums* sums;
  unsigned short* old;
  float* dots;
  CHECK_HIP(hipMallocManaged(&shuffled, BLOCK * SHUFFLES * sizeof(unsigned int)));
  CHECK_HIP(hipMallocManaged(&sums, sizeof(Sums)));
  CHECK_HIP(hipMallocManaged(&old, BLOCK * 6 * sizeof(unsigned short)));
  CHECK_HIP(hipMallocManaged(&dots, 3 * sizeof(float)));
  memset(sums, 0, sizeof(Sums));
  run_warp_functions<<<1, BLOCK>>>(shuffled, sums, old, dots);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  const char* names[SHUFFLES] = {"__shfl(__half)",           "__shfl_xor(__half)",        "__shfl_down(__half)",
                                 "__shfl_up(__half)",        "__shfl_xor_sync(bfloat16)", "__shfl_down_sync(bfloat16)",
                                 "__shfl_xor(__half2)",      "__shfl_sync(bfloat162)",    "__shfl_up_sync(__half2)",
                                 "__shfl_down(bfloat162)"};
  for (int t = 0; t < BLOCK; t++) {
    const int lane = t % warp;
    const int from[SHUFFLES] = {3,
                                lane ^ 1,
                                lane + 1 < warp ? lane + 1 : lane,
                                lane >= 2 ? lane - 2 : lane,
                                lane ^ 2,
                                lane + 4 < warp ? lane + 4 : lane,
                                lane ^ 1,
                                5,
                                lane >= 1 ? lane - 1 : lane,
                                lane + 3 < warp ? lane + 3 : lane};
    for (int k = 0; k < SHUFFLES; k++) {
      const bool bf16 = k == 4 || k == 5 || k == 7 || k == 9, pair = k >= 6;
      unsigned int want = bf16 ? __bfloat16_as_ushort(__int2bfloat16_rn(from[k])) : __half_as_ushort(__int2half_rn(from[k]));
      if (pair)
        want |= (unsigned)(bf16 ? __bfloat16_as_ushort(__int2bfloat16_rn(100 + from[k]))
                                : __half_as_ushort(__int2half_rn(100 + from[k])))
                << 16;
      report.check(shuffled[t * SHUFFLES + k] == want, Key("device", bf16 ? BF16 : HALF, names[k]),
                   " in lane %d of %d: got 0x%08x, want 0x%08x", lane, warp, shuffled[t * SHUFFLES + k], want);
    }
  }
  const struct {
    const char* name;
    unsigned short got, want;
  } totals[] = {
      {"atomicAdd(__half)", __half_as_ushort(sums->half[0]), 0x5400},                      // 64
      {"unsafeAtomicAdd(__half), high half", __half_as_ushort(sums->half[1]), 0x5400},      // 64
      {"atomicAdd(__half2).x", __half_as_ushort(sums->half2.x), 0x5400},                   // 64
      {"atomicAdd(__half2).y", __half_as_ushort(sums->half2.y), 0x5800},                   // 128
      {"atomicAdd(bfloat16)", __bfloat16_as_ushort(sums->bf16[0]), 0x4280},                // 64
      {"unsafeAtomicAdd(bfloat16), high half", __bfloat16_as_ushort(sums->bf16[1]), 0x4280},
      {"unsafeAtomicAdd(bfloat162).x", __bfloat16_as_ushort(sums->bf162.x), 0x4280},
      {"unsafeAtomicAdd(bfloat162).y", __bfloat16_as_ushort(sums->bf162.y), 0x4300},       // 128
  };
  for (const auto& total : totals)
    report.check(total.got == total.want, Key("device", HALF, total.name), ": got 0x%04x, want 0x%04x", total.got, total.want);
  // Each lane saw a different old value: 0 .. 63, once each.
  for (int k = 0; k < 6; k++) {
    bool seen[BLOCK] = {};
    int distinct = 0;
    for (int t = 0; t < BLOCK; t++) {
      const unsigned short bits = old[t * 6 + k];
      const float value = k < 3 ? __half2float(__ushort_as_half(bits)) : __bfloat162float(__ushort_as_bfloat16(bits));
      const int v = (int)value;
      if (v >= 0 && v < BLOCK && v == value && !seen[v]) seen[v] = true, distinct++;
    }
    report.check(distinct == BLOCK, Key("device", k < 3 ? HALF : BF16, "atomic adds' old values"), " %d: %d distinct",
                 k, distinct);
  }
  report.check(dots[0] == 6.0f && dots[1] == 1.0f && dots[2] == 0.0f, Key("device", HALF, "amd_mixed_dot"),
               ": got %g %g %g", dots[0], dots[1], dots[2]);
  CHECK_HIP(hipFree(shuffled));
  CHECK_HIP(hipFree(sums));
  CHECK_HIP(hipFree(old));
  CHECK_HIP(hipFree(dots));
}

static void launch(void (*kernel)(Data), int n, const Data& d) {
  kernel<<<(n + 255) / 256, 256>>>(d);
  CHECK_HIP(hipGetLastError());
}

int main() {
  Data d;
  allocate(d, [](size_t bytes) {
    void* p = nullptr;
    CHECK_HIP(hipMallocManaged(&p, bytes));
    return p;
  });
  Report report;

  launch(run_patterns, PATTERNS, d);
  launch(run_floats, d.n_floats, d);
  launch(run_doubles, d.n_doubles, d);
  launch(run_integers, d.n_integers, d);
  launch(run_pairs, d.n_pairs, d);
  launch(run_triples, d.n_triples, d);
  CHECK_HIP(hipDeviceSynchronize());
  verify(d, "device", report);

  bool *device_ok, host_ok[MISC_CHECKS];
  int* device_count;
  const char* names[MISC_CHECKS];
  CHECK_HIP(hipMallocManaged(&device_ok, MISC_CHECKS));
  CHECK_HIP(hipMallocManaged(&device_count, sizeof(int)));
  run_misc<<<1, 1>>>(device_ok, device_count);
  CHECK_HIP(hipGetLastError());
  CHECK_HIP(hipDeviceSynchronize());
  Misc host = {host_ok, names, 0};
  misc_checks(host);
  legacy_checks(host);
  const int count = host.n;
  std::ostringstream printed;
  printed << hip_bfloat16(2.5f);
  report.check(printed.str() == "2.5", Key("host", BF16, "hip_bfloat16 operator<<"), ": got %s", printed.str().c_str());
  if (*device_count != count) printf("FAIL misc: %d checks on the device, %d on the host\n", *device_count, count), exit(1);
  verify_misc(device_ok, names, count, "device", report);
  verify_misc(host_ok, names, count, "host", report);

  hipDeviceProp_t properties;
  CHECK_HIP(hipGetDeviceProperties(&properties, 0));
  check_warp_functions(properties.warpSize, report);

  // The same functions in this program's host code.
  compute_on_host(d);
  verify(d, "host", report);
  return report.finish();
}
