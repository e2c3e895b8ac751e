// hip/hip_fp16.h and hip/hip_bf16.h in plain C++ (no HIP compile): the types
// and every host function, checked against the exact reference of
// half_types.hip.  Prints one line per failing check and "ok N" when all N
// pass; exits 1 otherwise.
#include <hip/gpusym_detail/legacy_bfloat16.h>

#include "half_types_checks.h"
#include "half_types_reference.h"

// Outside a HIP compile, HIP's older hip_bfloat16 is only the struct C sees.
static const hip_bfloat16 legacy_one = {0x3f80};
static_assert(sizeof(hip_bfloat16) == 2, "hip_bfloat16");

static_assert(sizeof(__half) == 2 && alignof(__half) == 2, "__half");
static_assert(sizeof(__half2) == 4 && alignof(__half2) == 4, "__half2");
static_assert(sizeof(__half_raw) == 2 && sizeof(__half2_raw) == 4, "raw halves");
static_assert(sizeof(__hip_bfloat16) == 2 && alignof(__hip_bfloat16) == 2, "__hip_bfloat16");
static_assert(sizeof(__hip_bfloat162) == 4 && alignof(__hip_bfloat162) == 4, "__hip_bfloat162");
static_assert(sizeof(__hip_bfloat16_raw) == 2 && sizeof(__hip_bfloat162_raw) == 4, "raw bfloat16s");
static_assert(std::is_trivially_copyable<__half>::value && std::is_trivially_copyable<__half2>::value &&
                  std::is_trivially_copyable<__hip_bfloat16>::value && std::is_trivially_copyable<__hip_bfloat162>::value,
              "copied as bytes");
// constant expressions, as HIP allows them
constexpr __half one_half = 1.0f;
constexpr __hip_bfloat16 one_bf16 = 1.0f;
static_assert(float(one_half) == 1.0f && float(one_bf16) == 1.0f && one_bf16.data == 0x3f80, "constexpr");

int main() {
  Data d;
  allocate(d, [](size_t bytes) { return malloc(bytes); });
  Report report;
  compute_on_host(d);
  verify(d, "host", report);
  bool ok[MISC_CHECKS];
  const char* names[MISC_CHECKS];
  Misc misc = {ok, names, 0};
  const int count = misc_checks(misc);
  verify_misc(ok, names, count, "host", report);
  report.check(legacy_one.data == 0x3f80, Key("host", BF16, "hip_bfloat16 in plain C++"), ": got 0x%04x", legacy_one.data);
  return report.finish();
}
