// cuda_fp8.h on the host and in a kernel: every E4M3 and E5M2 encoding
// decoded against a reference computed here from the formats' definitions,
// round trips of every finite encoding from float, double, half and
// bfloat16, rounding to nearest even at and around every midpoint,
// saturation, NaNs, subnormals, the packing order of pairs and quadruples
// and the classes' conversions.  Prints "WHERE NAME: ok" or "WHERE NAME:
// FAILED ..." a case and "fp8: N failed".  Compiled as plain C++ (-x c++),
// it makes the host's checks alone.
#include <cuda_fp8.h>

#include <cstdio>

enum Case {
  kDecodeE4M3,
  kDecodeE5M2,
  kRoundTripE4M3,
  kRoundTripE5M2,
  kNearestEven,
  kSaturation,
  kNaN,
  kSubnormals,
  kPacking,
  kClasses,
  kCases
};
static const char *const kNames[kCases] = {
    "E4M3 decoding", "E5M2 decoding", "E4M3 round trips",    "E5M2 round trips",  "rounding to nearest even",
    "saturation",    "NaN",           "subnormals and zero", "x2 and x4 packing", "class conversions",
};

// The checks of each case made, those failed and the input of the first
// failure (an encoding, or the number of the check).
struct Tally {
  int checks[kCases], failures[kCases];
  unsigned first[kCases];
};

__host__ __device__ void check(Tally &tally, Case which, bool ok, unsigned input) {
  tally.checks[which]++;
  if (!ok && tally.failures[which]++ == 0) tally.first[which] = input;
}

// ---- the formats, from their definitions ----

struct Format {
  __nv_fp8_interpretation_t kind;
  int exponent_bits, fraction_bits, bias;
  bool ieee_specials;  // E5M2: an all-ones exponent is infinity or NaN; E4M3: only S.1111.111 is NaN
};
__host__ __device__ Format format_of(__nv_fp8_interpretation_t kind) {
  return kind == __NV_E4M3 ? Format{__NV_E4M3, 4, 3, 7, false} : Format{__NV_E5M2, 5, 2, 15, true};
}

__host__ __device__ double power_of_two(int exponent) {
  double value = 1;
  for (; exponent > 0; exponent--) value *= 2;
  for (; exponent < 0; exponent++) value /= 2;
  return value;
}

struct Reference {
  double value;  // with its sign, zeros and NaNs included
  bool nan, infinite;
};

__host__ __device__ Reference reference(Format f, unsigned bits) {
  const bool negative = (bits & 0x80) != 0;
  const unsigned exponent = (bits >> f.fraction_bits) & ((1u << f.exponent_bits) - 1);
  const unsigned fraction = bits & ((1u << f.fraction_bits) - 1);
  const unsigned top = (1u << f.exponent_bits) - 1;
  Reference r = {0, false, false};
  if (f.ieee_specials ? exponent == top : exponent == top && fraction == (1u << f.fraction_bits) - 1) {
    r.nan = !f.ieee_specials || fraction != 0;
    r.infinite = !r.nan;
    const double magnitude = r.nan ? __builtin_nan("") : __builtin_inf();
    r.value = negative ? -magnitude : magnitude;  // a negation: a NaN's sign too
    return r;
  }
  const double significand = exponent == 0 ? fraction : (1u << f.fraction_bits) + fraction;
  const int scale = (exponent == 0 ? 1 : static_cast<int>(exponent)) - f.bias - f.fraction_bits;
  r.value = (negative ? -1 : 1) * significand * power_of_two(scale);
  return r;
}

__host__ __device__ bool is_nan(double x) { return x != x; }
__host__ __device__ bool sign_of(double x) { return (__builtin_bit_cast(unsigned long long, x) >> 63) != 0; }
// The same value, or both NaN, of the same sign (zeros and NaNs too).
__host__ __device__ bool same(double got, Reference want) {
  return (want.nan ? is_nan(got) : got == want.value) && sign_of(got) == sign_of(want.value);
}
__host__ __device__ bool is_fp8_nan(Format f, unsigned bits) { return reference(f, bits & 0xff).nan; }

__host__ __device__ float float_of_bits(unsigned bits) { return __builtin_bit_cast(float, bits); }
__host__ __device__ unsigned bits_of_float(float x) { return __builtin_bit_cast(unsigned, x); }
__host__ __device__ double double_of_bits(unsigned long long bits) { return __builtin_bit_cast(double, bits); }
__host__ __device__ unsigned long long bits_of_double(double x) { return __builtin_bit_cast(unsigned long long, x); }
// The neighbours of a nonzero finite value, away from zero and towards it.
__host__ __device__ float float_away(float x) { return float_of_bits(bits_of_float(x) + 1); }
__host__ __device__ float float_towards(float x) { return float_of_bits(bits_of_float(x) - 1); }
__host__ __device__ double double_away(double x) { return double_of_bits(bits_of_double(x) + 1); }
__host__ __device__ double double_towards(double x) { return double_of_bits(bits_of_double(x) - 1); }

__host__ __device__ __half_raw half_raw_of(__half h) { return static_cast<__half_raw>(h); }
__host__ __device__ __nv_bfloat16_raw bfloat16_raw_of(float x) {
  return static_cast<__nv_bfloat16_raw>(__float2bfloat16(x));
}
__host__ __device__ __half_raw half_raw_bits(unsigned short bits) {
  __half_raw raw;
  raw.x = bits;
  return raw;
}

// The value of an encoding as a class (__nv_fp8_e4m3 or __nv_fp8_e5m2)
// gives it back; and the encoding the class makes of a value.
template <typename Fp8>
__host__ __device__ bool class_decodes(__nv_fp8_storage_t x, Reference want) {
  Fp8 v;
  v.__x = x;
  return same(static_cast<float>(v), want) && same(static_cast<double>(v), want) &&
         same(__half2float(static_cast<__half>(v)), want) &&
         same(__bfloat162float(static_cast<__nv_bfloat16>(v)), want);
}
template <typename Fp8>
__host__ __device__ bool class_encodes(double value, unsigned bits) {
  return Fp8(value).__x == bits && Fp8(static_cast<float>(value)).__x == bits &&
         Fp8(__double2half(value)).__x == bits && Fp8(__float2bfloat16(static_cast<float>(value))).__x == bits;
}

// The value of every encoding, through each conversion back.
__host__ __device__ void check_decoding(Tally &tally, Case which, Format f) {
  for (unsigned bits = 0; bits < 256; bits++) {
    const Reference want = reference(f, bits);
    const __nv_fp8_storage_t x = static_cast<__nv_fp8_storage_t>(bits);
    const bool by_class = f.kind == __NV_E4M3 ? class_decodes<__nv_fp8_e4m3>(x, want)
                                              : class_decodes<__nv_fp8_e5m2>(x, want);
    const bool ok = by_class && same(__half2float(__half(__nv_cvt_fp8_to_halfraw(x, f.kind))), want);
    check(tally, which, ok, bits);
  }
}

// `value` (float, double, half and bfloat16 all hold it exactly) to fp8 in
// both saturation modes through every conversion; true when each gives
// `want` under SATFINITE and `want_nosat` under NOSAT.
__host__ __device__ bool converts_to(Format f, double value, unsigned want, unsigned want_nosat) {
  bool ok = true;
  for (int mode = 0; mode < 2; mode++) {
    const __nv_saturation_t saturate = mode ? __NV_SATFINITE : __NV_NOSAT;
    const unsigned expected = mode ? want : want_nosat;
    ok = ok && __nv_cvt_double_to_fp8(value, saturate, f.kind) == expected &&
         __nv_cvt_float_to_fp8(static_cast<float>(value), saturate, f.kind) == expected &&
         __nv_cvt_halfraw_to_fp8(half_raw_of(__double2half(value)), saturate, f.kind) == expected &&
         __nv_cvt_bfloat16raw_to_fp8(bfloat16_raw_of(static_cast<float>(value)), saturate, f.kind) == expected;
  }
  return ok;
}

// Every finite encoding back from its value; the classes too.
__host__ __device__ void check_round_trips(Tally &tally, Case which, Format f) {
  for (unsigned bits = 0; bits < 256; bits++) {
    const Reference r = reference(f, bits);
    if (r.nan || r.infinite) continue;
    const bool by_class = f.kind == __NV_E4M3 ? class_encodes<__nv_fp8_e4m3>(r.value, bits)
                                              : class_encodes<__nv_fp8_e5m2>(r.value, bits);
    check(tally, which, by_class && converts_to(f, r.value, bits, bits), bits);
  }
}

// Between each pair of neighbouring finite values of either sign: the
// midpoint goes to the even encoding, the floats and doubles just beside it
// to the nearer value.  Past the largest finite value, the midpoint to the
// next binade's first value (E5M2's infinity, E4M3's NaN) overflows when it
// rounds up.
__host__ __device__ void check_nearest_even(Tally &tally, Format f) {
  const unsigned largest = f.kind == __NV_E4M3 ? 0x7e : 0x7b;
  for (unsigned low = 0; low <= largest; low++) {
    const unsigned high = low + 1;
    const double a = reference(f, low).value;
    // The value the next encoding would have if it were finite: the same
    // spacing as below the largest value, which is in its binade.
    const double b = high <= largest ? reference(f, high).value : 2 * a - reference(f, low - 1).value;
    const double middle = (a + b) / 2;
    const bool up_overflows = high > largest;
    for (int sign = 0; sign < 2; sign++) {
      const unsigned s = sign ? 0x80 : 0;
      const double m = sign ? -middle : middle;
      const unsigned sat_high = up_overflows ? largest : high;
      const unsigned nosat_high = up_overflows ? (f.kind == __NV_E4M3 ? 0x7f : 0x7c) : high;
      const bool tie_goes_up = (low & 1) != 0;  // to the even encoding
      bool ok = converts_to(f, m, s | (tie_goes_up ? sat_high : low), s | (tie_goes_up ? nosat_high : low));
      ok = ok && __nv_cvt_float_to_fp8(float_away(static_cast<float>(m)), __NV_SATFINITE, f.kind) == (s | sat_high) &&
           __nv_cvt_float_to_fp8(float_away(static_cast<float>(m)), __NV_NOSAT, f.kind) == (s | nosat_high) &&
           __nv_cvt_float_to_fp8(float_towards(static_cast<float>(m)), __NV_NOSAT, f.kind) == (s | low) &&
           __nv_cvt_double_to_fp8(double_away(m), __NV_SATFINITE, f.kind) == (s | sat_high) &&
           __nv_cvt_double_to_fp8(double_away(m), __NV_NOSAT, f.kind) == (s | nosat_high) &&
           __nv_cvt_double_to_fp8(double_towards(m), __NV_NOSAT, f.kind) == (s | low);
      check(tally, kNearestEven, ok, (f.kind == __NV_E4M3 ? 0 : 0x100) | s | low);
    }
  }
}

__host__ __device__ void check_saturation(Tally &tally) {
  const double infinity = __builtin_inf();
  const double cases[] = {1e6, 1e30, 1e300, infinity, 65504.0, 3.0e38};
  int n = 0;
  for (double value : cases) {
    for (int sign = 0; sign < 2; sign++) {
      const double v = sign ? -value : value;
      const unsigned s = sign ? 0x80 : 0;
      // bfloat16 and float keep these (rounded) values; half overflows past 65504 to infinity, which saturates too.
      check(tally, kSaturation, converts_to(format_of(__NV_E4M3), v, s | 0x7e, s | 0x7f), n++);
      check(tally, kSaturation, converts_to(format_of(__NV_E5M2), v, s | 0x7b, s | 0x7c), n++);
    }
  }
  // The edges: E4M3's 464 is the midpoint from 448 up, and rounds to 448;
  // E5M2's 61440 is the midpoint to infinity, and rounds up.
  check(tally, kSaturation, converts_to(format_of(__NV_E4M3), 464.0, 0x7e, 0x7e), n++);
  check(tally, kSaturation, converts_to(format_of(__NV_E4M3), 480.0, 0x7e, 0x7f), n++);
  check(tally, kSaturation, converts_to(format_of(__NV_E5M2), 61440.0, 0x7b, 0x7c), n++);
  check(tally, kSaturation, converts_to(format_of(__NV_E5M2), 57344.0, 0x7b, 0x7b), n++);
  // The classes saturate, from every source type.
  check(tally, kSaturation, __nv_fp8_e4m3(1e9f).__x == 0x7e && __nv_fp8_e4m3(-infinity).__x == 0xfe, n++);
  check(tally, kSaturation, __nv_fp8_e5m2(infinity).__x == 0x7b && __nv_fp8_e5m2(-1e300).__x == 0xfb, n++);
  check(tally, kSaturation, __nv_fp8_e4m3(__float2half(60000.0f)).__x == 0x7e, n++);
  check(tally, kSaturation, __nv_fp8_e5m2(__float2bfloat16(-1e20f)).__x == 0xfb, n++);
  check(tally, kSaturation, __nv_fp8_e4m3(1000).__x == 0x7e && __nv_fp8_e4m3(-1000L).__x == 0xfe, n++);
  check(tally, kSaturation, __nv_fp8_e5m2(100000u).__x == 0x7b && __nv_fp8_e5m2(-100000LL).__x == 0xfb, n++);
  check(tally, kSaturation, __nv_fp8_e4m3(~0ull).__x == 0x7e && __nv_fp8_e5m2(~0ul).__x == 0x7b, n++);
}

__host__ __device__ void check_nan(Tally &tally) {
  const float nan = float_of_bits(0x7fc00000u), negative_nan = float_of_bits(0xffc00000u);
  const float signalling = float_of_bits(0x7f800001u);
  const __nv_fp8_interpretation_t kinds[] = {__NV_E4M3, __NV_E5M2};
  int n = 0;
  for (__nv_fp8_interpretation_t kind : kinds) {
    const Format f = format_of(kind);
    const unsigned want = kind == __NV_E4M3 ? 0x7f : 0x7e;
    for (int mode = 0; mode < 2; mode++) {
      const __nv_saturation_t saturate = mode ? __NV_SATFINITE : __NV_NOSAT;
      check(tally, kNaN, __nv_cvt_float_to_fp8(nan, saturate, kind) == want, n++);
      check(tally, kNaN, __nv_cvt_float_to_fp8(negative_nan, saturate, kind) == (0x80 | want), n++);
      check(tally, kNaN, is_fp8_nan(f, __nv_cvt_float_to_fp8(signalling, saturate, kind)), n++);
      check(tally, kNaN, __nv_cvt_double_to_fp8(double_of_bits(0xfff8000000000000ull), saturate, kind) == (0x80 | want),
            n++);
      check(tally, kNaN, is_fp8_nan(f, __nv_cvt_double_to_fp8(double_of_bits(0x7ff0000000000001ull), saturate, kind)),
            n++);
      check(tally, kNaN, __nv_cvt_halfraw_to_fp8(half_raw_bits(0x7e00), saturate, kind) == want, n++);
      check(tally, kNaN, is_fp8_nan(f, __nv_cvt_halfraw_to_fp8(half_raw_bits(0xfc01), saturate, kind)), n++);
      __nv_bfloat16_raw bf = {0x7fc0};
      check(tally, kNaN, __nv_cvt_bfloat16raw_to_fp8(bf, saturate, kind) == want, n++);
    }
  }
  // The classes: NaN in, NaN out, and 0 as an integer below 64 bits.
  const __nv_fp8_e4m3 e4m3_nan(nan);
  const __nv_fp8_e5m2 e5m2_nan(-nan);
  check(tally, kNaN, e4m3_nan.__x == 0x7f && is_nan(static_cast<float>(e4m3_nan)), n++);
  check(tally, kNaN, is_fp8_nan(format_of(__NV_E5M2), e5m2_nan.__x) && is_nan(static_cast<double>(e5m2_nan)), n++);
  check(tally, kNaN, static_cast<int>(e4m3_nan) == 0 && static_cast<unsigned char>(e5m2_nan) == 0, n++);
  check(tally, kNaN, static_cast<long long>(e4m3_nan) == static_cast<long long>(0x8000000000000000ull), n++);
  check(tally, kNaN, static_cast<bool>(e4m3_nan) && static_cast<bool>(e5m2_nan), n++);
  check(tally, kNaN, __half_as_ushort(static_cast<__half>(e4m3_nan)) == 0x7fff, n++);
}

// Zeros keep their sign; values too small for the smallest subnormal go to
// zero, or to it from above half of it; the largest subnormal rounds up to
// the smallest normal.
__host__ __device__ void check_subnormals(Tally &tally) {
  const __nv_fp8_interpretation_t kinds[] = {__NV_E4M3, __NV_E5M2};
  int n = 0;
  for (__nv_fp8_interpretation_t kind : kinds) {
    const Format f = format_of(kind);
    const double smallest = reference(f, 0x01).value, normal = reference(f, 1u << f.fraction_bits).value;
    for (int sign = 0; sign < 2; sign++) {
      const unsigned s = sign ? 0x80 : 0;
      const double one = sign ? -1 : 1;
      check(tally, kSubnormals, converts_to(f, one * 0.0, s, s), n++);
      check(tally, kSubnormals, converts_to(f, one * smallest / 2, s, s), n++);  // a tie, to the even zero
      check(tally, kSubnormals, converts_to(f, one * smallest / 4, s, s), n++);
      check(tally, kSubnormals, converts_to(f, one * smallest * 3 / 4, s | 1, s | 1), n++);
      check(tally, kSubnormals, converts_to(f, one * smallest * 3 / 2, s | 2, s | 2), n++);  // tie to even 2
      check(tally, kSubnormals, converts_to(f, one * smallest * 5 / 2, s | 2, s | 2), n++);  // tie to even 2
      check(tally, kSubnormals, __nv_cvt_double_to_fp8(one * 1e-300, __NV_NOSAT, kind) == s, n++);
      check(tally, kSubnormals, __nv_cvt_float_to_fp8(one * 1e-45f, __NV_NOSAT, kind) == s, n++);
      // Between the largest subnormal and the smallest normal: the tie goes to the normal (an even encoding).
      const double largest_subnormal = normal - smallest;
      const unsigned normal_bits = 1u << f.fraction_bits;
      const double between = one * (largest_subnormal + normal) / 2;
      check(tally, kSubnormals, converts_to(f, between, s | normal_bits, s | normal_bits), n++);
    }
    check(tally, kSubnormals, __half_as_ushort(__half(__nv_cvt_fp8_to_halfraw(0x80, kind))) == 0x8000, n++);
  }
}

__host__ __device__ bool same_float(float got, float want) { return bits_of_float(got) == bits_of_float(want); }

// The first element in the lowest byte, for the functions and the classes.
__host__ __device__ void check_packing(Tally &tally) {
  int n = 0;
  const float a = 1.0f, b = -2.0f, c = 0.5f, d = 448.0f;
  // E4M3: 1 = 0x38, -2 = 0xc0, 0.5 = 0x30, 448 = 0x7e; E5M2: 1 = 0x3c, -2 = 0xc0, 0.5 = 0x38, 448 = 0x5f.
  const unsigned e4m3_ab = 0xc038, e4m3_cd = 0x7e30, e5m2_ab = 0xc03c, e5m2_cd = 0x5f38;
  check(tally, kPacking, __nv_cvt_float2_to_fp8x2(make_float2(a, b), __NV_SATFINITE, __NV_E4M3) == e4m3_ab, n++);
  check(tally, kPacking, __nv_cvt_float2_to_fp8x2(make_float2(c, d), __NV_NOSAT, __NV_E5M2) == e5m2_cd, n++);
  check(tally, kPacking, __nv_cvt_double2_to_fp8x2(make_double2(a, b), __NV_SATFINITE, __NV_E5M2) == e5m2_ab, n++);
  check(tally, kPacking,
        __nv_cvt_halfraw2_to_fp8x2(static_cast<__half2_raw>(__floats2half2_rn(c, d)), __NV_NOSAT, __NV_E4M3) ==
            e4m3_cd,
        n++);
  __nv_bfloat162_raw pair = {bfloat16_raw_of(a).x, bfloat16_raw_of(b).x};
  check(tally, kPacking, __nv_cvt_bfloat16raw2_to_fp8x2(pair, __NV_SATFINITE, __NV_E4M3) == e4m3_ab, n++);
  const __half2_raw halves = __nv_cvt_fp8x2_to_halfraw2(e5m2_cd, __NV_E5M2);
  check(tally, kPacking, __half2float(__half(halves.x)) == c && __half2float(__half(halves.y)) == d, n++);

  const __nv_fp8x2_e4m3 x2_e4m3(make_float2(a, b));
  const __nv_fp8x2_e5m2 x2_e5m2(make_double2(c, d));
  check(tally, kPacking, x2_e4m3.__x == e4m3_ab && x2_e5m2.__x == e5m2_cd, n++);
  check(tally, kPacking, __nv_fp8x2_e5m2(__floats2half2_rn(a, b)).__x == e5m2_ab, n++);
  check(tally, kPacking, __nv_fp8x2_e4m3(__floats2bfloat162_rn(c, d)).__x == e4m3_cd, n++);
  const float2 back = static_cast<float2>(x2_e4m3);
  check(tally, kPacking, back.x == a && back.y == b, n++);
  const __half2 back_halves = static_cast<__half2>(x2_e5m2);
  check(tally, kPacking, __low2float(back_halves) == c && __high2float(back_halves) == d, n++);

  const __nv_fp8x4_e4m3 x4_e4m3(make_float4(a, b, c, d));
  const __nv_fp8x4_e5m2 x4_e5m2(make_double4(a, b, c, d));
  check(tally, kPacking, x4_e4m3.__x == (e4m3_ab | e4m3_cd << 16) && x4_e5m2.__x == (e5m2_ab | e5m2_cd << 16), n++);
  check(tally, kPacking,
        __nv_fp8x4_e5m2(__floats2half2_rn(a, b), __floats2half2_rn(c, d)).__x == (e5m2_ab | e5m2_cd << 16), n++);
  check(tally, kPacking,
        __nv_fp8x4_e4m3(__floats2bfloat162_rn(a, b), __floats2bfloat162_rn(c, d)).__x == (e4m3_ab | e4m3_cd << 16),
        n++);
  const float4 four = static_cast<float4>(x4_e5m2);
  check(tally, kPacking, four.x == a && four.y == b && four.z == c && four.w == d, n++);
  check(tally, kPacking,
        sizeof(__nv_fp8_e4m3) == 1 && sizeof(__nv_fp8x2_e5m2) == 2 && sizeof(__nv_fp8x4_e4m3) == 4 &&
            alignof(__nv_fp8x2_e4m3) == 2 && alignof(__nv_fp8x4_e5m2) == 4,
        n++);
}

// The integers: truncated towards zero, saturated; bool: not a zero.
__host__ __device__ void check_classes(Tally &tally) {
  int n = 0;
  const __nv_fp8_e4m3 x(-3.75f), big(448.0f);
  const __nv_fp8_e5m2 y(3.75f), huge(57344.0);
  __nv_fp8_e5m2 infinity;
  infinity.__x = 0x7c;
  check(tally, kClasses, x.__x == 0xc7 && static_cast<float>(x) == -3.75f, n++);
  check(tally, kClasses, y.__x == 0x44 && static_cast<float>(y) == 4.0f, n++);  // 3.75 is a tie: to even 4
  check(tally, kClasses, static_cast<int>(x) == -3 && static_cast<short>(x) == -3 && static_cast<long>(x) == -3, n++);
  check(tally, kClasses, static_cast<signed char>(x) == -3 && static_cast<char>(x) == -3, n++);
  check(tally, kClasses, static_cast<unsigned>(x) == 0 && static_cast<unsigned char>(x) == 0, n++);
  check(tally, kClasses, static_cast<signed char>(big) == 127 && static_cast<unsigned char>(big) == 255, n++);
  check(tally, kClasses, static_cast<unsigned short>(big) == 448 && static_cast<long long>(big) == 448, n++);
  check(tally, kClasses, static_cast<short>(huge) == 32767 && static_cast<unsigned short>(huge) == 57344, n++);
  check(tally, kClasses,
        static_cast<int>(infinity) == 2147483647 && static_cast<unsigned long long>(infinity) == ~0ull, n++);
  __nv_fp8_e4m3 zero, negative_zero;
  zero.__x = 0x00;
  negative_zero.__x = 0x80;
  check(tally, kClasses, !static_cast<bool>(zero) && !static_cast<bool>(negative_zero) && static_cast<bool>(x), n++);
  // The integer constructors round to nearest even: 17 lies between 16 and 18.
  check(tally, kClasses, static_cast<float>(__nv_fp8_e4m3(17)) == 16.0f, n++);
  check(tally, kClasses, static_cast<float>(__nv_fp8_e4m3(static_cast<short>(19))) == 20.0f, n++);
  check(tally, kClasses, static_cast<float>(__nv_fp8_e5m2(static_cast<unsigned short>(5))) == 5.0f, n++);
  check(tally, kClasses, static_cast<float>(__nv_fp8_e5m2(-9L)) == -8.0f, n++);  // a tie: to even 8
  check(tally, kClasses, static_cast<double>(__nv_fp8_e4m3(0.1)) == 0.1015625, n++);
  check(tally, kClasses, __half2float(static_cast<__half>(__nv_fp8_e4m3(__float2half(0.3f)))) == 0.3125f, n++);
  check(tally, kClasses, __bfloat162float(static_cast<__nv_bfloat16>(__nv_fp8_e5m2(1000.0f))) == 1024.0f, n++);
}

__host__ __device__ void run_checks(Tally &tally) {
  check_decoding(tally, kDecodeE4M3, format_of(__NV_E4M3));
  check_decoding(tally, kDecodeE5M2, format_of(__NV_E5M2));
  check_round_trips(tally, kRoundTripE4M3, format_of(__NV_E4M3));
  check_round_trips(tally, kRoundTripE5M2, format_of(__NV_E5M2));
  check_nearest_even(tally, format_of(__NV_E4M3));
  check_nearest_even(tally, format_of(__NV_E5M2));
  check_saturation(tally);
  check_nan(tally);
  check_subnormals(tally);
  check_packing(tally);
  check_classes(tally);
}

// Each case's outcome; a case fails too unless it made as many checks as on
// the host (the device's tally is all zeros when the kernel did not run).
static int report(const char *where, const Tally &tally, const Tally &host) {
  int failed = 0;
  for (int which = 0; which < kCases; which++) {
    const int made = tally.checks[which];
    if (made == 0 || made != host.checks[which]) {
      printf("%s %s: FAILED %d checks made, %d on the host\n", where, kNames[which], made, host.checks[which]);
    } else if (tally.failures[which] != 0) {
      printf("%s %s: FAILED %d of %d checks, the first at 0x%x\n", where, kNames[which], tally.failures[which], made,
             tally.first[which]);
    } else {
      printf("%s %s: ok\n", where, kNames[which]);
    }
    failed += made == 0 || made != host.checks[which] || tally.failures[which] != 0;
  }
  return failed;
}

#ifdef __CUDACC__
__global__ void device_checks(Tally *tally) { run_checks(*tally); }
#endif

int main() {
  Tally host = {};
  run_checks(host);
  int failed = report("host", host, host);
#ifdef __CUDACC__
  Tally *on_device = nullptr;
  Tally device = {};
  cudaMalloc(&on_device, sizeof(Tally));
  cudaMemcpy(on_device, &device, sizeof(Tally), cudaMemcpyHostToDevice);
  device_checks<<<1, 1>>>(on_device);
  const cudaError_t status = cudaMemcpy(&device, on_device, sizeof(Tally), cudaMemcpyDeviceToHost);
  if (status != cudaSuccess) {
    printf("device: FAILED %s\n", cudaGetErrorName(status));
    failed++;
  } else {
    failed += report("device", device, host);
  }
  cudaFree(on_device);
#endif
  printf("fp8: %d failed\n", failed);
  return failed != 0;
}
