// __half and __hip_bfloat16 on the simulated device.  Bit patterns of known
// conversions are checked exactly; arithmetic against the host computing in
// double and rounding once to half (exact: double holds every sum, product
// and quotient of two halves closely enough that rounding twice is
// innocuous), and bfloat16 against the host rounding float by hand.
// Prints "FAIL ..." lines and a summary.
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>
#include <hip/hip_runtime.h>

static_assert(sizeof(__half) == 2 && sizeof(__half2) == 4 && alignof(__half2) == 4, "half layout");
static_assert(sizeof(__hip_bfloat16) == 2, "bfloat16 layout");

constexpr int N = 8, OPS = 14;
static const float A[N] = {1.0f, 0.333333f, -2.5f, 1000.0f, 6.1e-5f, -0.1f, 65504.0f, 3.0f};
static const float B[N] = {3.0f, 0.1f, 0.75f, -7.0f, 2.0f, 0.2f, 0.5f, -1e-3f};

__global__ void compute(unsigned short* out, const float* a, const float* b) {
  int i = threadIdx.x;
  __half x = __float2half(a[i]), y = __float2half(b[i]);
  __hip_bfloat16 p = __float2bfloat16(a[i]), q = __float2bfloat16(b[i]);
  __half2 pair = __hadd2(__halves2half2(x, y), __float2half2_rn(1.0f));
  __half r[] = {x, __hadd(x, y), __hsub(x, y), __hmul(x, y), __hdiv(x, y), __hfma(x, y, x), x + y * x, -x,
                __low2half(pair), __high2half(pair), hsqrt(__habs(x)), __half(__hlt(x, y) + 2 * __hge(x, y))};
  unsigned short* row = out + i * OPS;
  for (int k = 0; k < 12; k++) row[k] = __half_as_ushort(r[k]);
  row[12] = __bfloat16_as_ushort(__hadd(p, q));
  row[13] = __bfloat16_as_ushort(p * q);
}

static unsigned short half_bits(double v) { return __builtin_bit_cast(unsigned short, static_cast<_Float16>(v)); }
// float to bfloat16 by hand: keep the upper 16 bits, rounded to nearest even.
static unsigned short bfloat_bits(float v) {
  unsigned int bits = __builtin_bit_cast(unsigned int, v);
  unsigned int rest = bits & 0xffff, upper = bits >> 16;
  return static_cast<unsigned short>(upper + (rest > 0x8000 || (rest == 0x8000 && (upper & 1))));
}
static float bfloat_value(float v) { return __builtin_bit_cast(float, unsigned(bfloat_bits(v)) << 16); }

int main() {
  int checks = 0, failed = 0;
  auto check = [&](bool ok, const char* what, int i, unsigned device, unsigned expected) {
    checks++;
    if (!ok) failed++, printf("FAIL %s[%d]: device 0x%04x expected 0x%04x\n", what, i, device, expected);
  };
  // Known encodings: 1, the largest half, a third, underflow to zero, overflow to infinity.
  const struct { float value; unsigned short bits; } known[] = {
      {1.0f, 0x3c00}, {65504.0f, 0x7bff}, {1.0f / 3, 0x3555}, {1e-8f, 0x0000}, {70000.0f, 0x7c00}, {-2.0f, 0xc000}};
  for (int i = 0; i < 6; i++) check(__half_as_ushort(__float2half(known[i].value)) == known[i].bits, "__float2half", i,
                                    __half_as_ushort(__float2half(known[i].value)), known[i].bits);
  check(__bfloat16_as_ushort(__float2bfloat16(1.0f)) == 0x3f80, "__float2bfloat16(1)", 0,
        __bfloat16_as_ushort(__float2bfloat16(1.0f)), 0x3f80);

  float *da, *db;
  unsigned short* out;
  hipMalloc(&da, sizeof A), hipMalloc(&db, sizeof B), hipMalloc(&out, N * OPS * 2);
  hipMemcpy(da, A, sizeof A, hipMemcpyHostToDevice), hipMemcpy(db, B, sizeof B, hipMemcpyHostToDevice);
  compute<<<1, N>>>(out, da, db);
  unsigned short device[N][OPS];
  hipMemcpy(device, out, sizeof device, hipMemcpyDeviceToHost);
  const char* names[OPS] = {"__float2half", "__hadd", "__hsub", "__hmul", "__hdiv", "__hfma", "x + y * x",
                            "-x", "__hadd2.x", "__hadd2.y", "hsqrt(__habs)", "__hlt/__hge",
                            "__hadd(bfloat16)", "bfloat16 *"};
  for (int i = 0; i < N; i++) {
    double x = static_cast<_Float16>(A[i]), y = static_cast<_Float16>(B[i]);
    double yx = static_cast<_Float16>(y * x);
    float p = bfloat_value(A[i]), q = bfloat_value(B[i]);
    unsigned short expected[OPS] = {half_bits(x), half_bits(x + y), half_bits(x - y), half_bits(x * y),
                                    half_bits(x / y), half_bits(x * y + x), half_bits(x + yx), half_bits(-x),
                                    half_bits(x + 1), half_bits(y + 1), half_bits(std::sqrt(std::fabs(x))),
                                    half_bits(x < y ? 1 : 2), bfloat_bits(p + q), bfloat_bits(p * q)};
    for (int k = 0; k < OPS; k++) check(device[i][k] == expected[k], names[k], i, device[i][k], expected[k]);
  }
  hipFree(da), hipFree(db), hipFree(out);
  printf("CHECKS %d failed %d\n", checks, failed);
  return failed != 0;
}
