// Checks of hip/hip_fp16.h and hip/hip_bf16.h, shared by half_types.hip
// (device code and the host code of a HIP program) and half_types_host.cpp
// (plain C++).  The compute_* functions apply the headers' functions to lists
// of inputs and store the results' bits; verify() compares them with a
// reference computed here independently: exact values in __float128 (or long
// double for the math functions) rounded by searching a table of every
// finite 16-bit value, so each conversion, operation and rounding direction
// is checked against its exactly rounded result, NaNs, infinities,
// subnormals and ties included.  Every 16-bit pattern goes through every
// unary function and conversion to an integer; floats, doubles and integers
// around every 16-bit value, midpoint and power of two through every
// conversion; special, random and nearby pairs and triples through the
// binary functions and the fused multiply-adds.
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define HD __host__ __device__  // empty in plain C++ (hip/hip_common.h)

// ---------------------------------------------------------------------------
// The functions whose names differ between the two types, through one table
// per type: NAME is `half` or `bfloat16`.

enum { UNARY_OPS = 20, TO_INT_OPS = 26, FROM_INT_OPS = 6 * 4, BINARY_OPS = 18, COMPARE_OPS = 12, FMA_OPS = 11 };

#define NAMED_API(Self, Type, Type2, NAME, FRACTION, EXPONENT)                                     \
  struct Self {                                                                                    \
    typedef Type T;                                                                                \
    typedef Type2 T2;                                                                              \
    static const int fraction = FRACTION, exponent = EXPONENT;                                     \
    static HD unsigned short bits(T v) { return __##NAME##_as_ushort(v); }                         \
    static HD T of(unsigned short b) { return __ushort_as_##NAME(b); }                             \
    static HD short signed_bits(T v) { return __##NAME##_as_short(v); }                            \
    static HD T of_signed(short b) { return __short_as_##NAME(b); }                                \
    static HD float to_float(T v) { return __##NAME##2float(v); }                                  \
    static HD T from_float(int k, float f) {                                                       \
      switch (k) {                                                                                 \
        case 0: return __float2##NAME##_rn(f);                                                     \
        case 1: return __float2##NAME##_rz(f);                                                     \
        case 2: return __float2##NAME##_rd(f);                                                     \
        case 3: return __float2##NAME##_ru(f);                                                     \
        case 4: return __float2##NAME(f);                                                          \
        default: return T(f);                                                                      \
      }                                                                                            \
    }                                                                                              \
    static HD T from_double(int k, double d) { return k == 0 ? __double2##NAME(d) : T(d); }        \
    static HD unsigned long long to_int(int k, T v) {                                              \
      switch (k) {                                                                                 \
        case 0: return (unsigned long long)__##NAME##2int_rn(v);                                   \
        case 1: return (unsigned long long)__##NAME##2int_rz(v);                                   \
        case 2: return (unsigned long long)__##NAME##2int_rd(v);                                   \
        case 3: return (unsigned long long)__##NAME##2int_ru(v);                                   \
        case 4: return __##NAME##2uint_rn(v);                                                      \
        case 5: return __##NAME##2uint_rz(v);                                                      \
        case 6: return __##NAME##2uint_rd(v);                                                      \
        case 7: return __##NAME##2uint_ru(v);                                                      \
        case 8: return (unsigned long long)__##NAME##2short_rn(v);                                 \
        case 9: return (unsigned long long)__##NAME##2short_rz(v);                                 \
        case 10: return (unsigned long long)__##NAME##2short_rd(v);                                \
        case 11: return (unsigned long long)__##NAME##2short_ru(v);                                \
        case 12: return __##NAME##2ushort_rn(v);                                                   \
        case 13: return __##NAME##2ushort_rz(v);                                                   \
        case 14: return __##NAME##2ushort_rd(v);                                                   \
        case 15: return __##NAME##2ushort_ru(v);                                                   \
        case 16: return (unsigned long long)__##NAME##2ll_rn(v);                                   \
        case 17: return (unsigned long long)__##NAME##2ll_rz(v);                                   \
        case 18: return (unsigned long long)__##NAME##2ll_rd(v);                                   \
        case 19: return (unsigned long long)__##NAME##2ll_ru(v);                                   \
        case 20: return __##NAME##2ull_rn(v);                                                      \
        case 21: return __##NAME##2ull_rz(v);                                                      \
        case 22: return __##NAME##2ull_rd(v);                                                      \
        case 23: return __##NAME##2ull_ru(v);                                                      \
        case 24: return (unsigned long long)__##NAME##2char_rz(v);                                 \
        default: return __##NAME##2uchar_rz(v);                                                    \
      }                                                                                            \
    }                                                                                              \
    /* k = 4 * source type (int, uint, short, ushort, ll, ull) + direction */                     \
    static HD T from_int(int k, unsigned long long x) {                                            \
      switch (k) {                                                                                 \
        case 0: return __int2##NAME##_rn((int)x);                                                  \
        case 1: return __int2##NAME##_rz((int)x);                                                  \
        case 2: return __int2##NAME##_rd((int)x);                                                  \
        case 3: return __int2##NAME##_ru((int)x);                                                  \
        case 4: return __uint2##NAME##_rn((unsigned)x);                                            \
        case 5: return __uint2##NAME##_rz((unsigned)x);                                            \
        case 6: return __uint2##NAME##_rd((unsigned)x);                                            \
        case 7: return __uint2##NAME##_ru((unsigned)x);                                            \
        case 8: return __short2##NAME##_rn((short)x);                                              \
        case 9: return __short2##NAME##_rz((short)x);                                              \
        case 10: return __short2##NAME##_rd((short)x);                                             \
        case 11: return __short2##NAME##_ru((short)x);                                             \
        case 12: return __ushort2##NAME##_rn((unsigned short)x);                                   \
        case 13: return __ushort2##NAME##_rz((unsigned short)x);                                   \
        case 14: return __ushort2##NAME##_rd((unsigned short)x);                                   \
        case 15: return __ushort2##NAME##_ru((unsigned short)x);                                   \
        case 16: return __ll2##NAME##_rn((long long)x);                                            \
        case 17: return __ll2##NAME##_rz((long long)x);                                            \
        case 18: return __ll2##NAME##_rd((long long)x);                                            \
        case 19: return __ll2##NAME##_ru((long long)x);                                            \
        case 20: return __ull2##NAME##_rn(x);                                                      \
        case 21: return __ull2##NAME##_rz(x);                                                      \
        case 22: return __ull2##NAME##_rd(x);                                                      \
        case 23: return __ull2##NAME##_ru(x);                                                      \
        case 24: return T((long long)x);                                                           \
        case 25: return T(x);                                                                      \
        case 26: return T((int)x);                                                                 \
        default: return T((unsigned short)x);                                                      \
      }                                                                                            \
    }                                                                                              \
    static HD T2 pair(T a, T b) { return __halves2##NAME##2(a, b); }                               \
    static HD T2 make(T a, T b) { return make_##NAME##2(a, b); }                                   \
    static HD T2 both(T a) { return __##NAME##2##NAME##2(a); }                                     \
    static HD T low(T2 p) { return __low2##NAME(p); }                                              \
    static HD T high(T2 p) { return __high2##NAME(p); }                                            \
    static HD T2 lows(T2 a, T2 b) { return __lows2##NAME##2(a, b); }                               \
    static HD T2 highs(T2 a, T2 b) { return __highs2##NAME##2(a, b); }                             \
    static HD T2 low2(T2 p) { return __low2##NAME##2(p); }                                         \
    static HD T2 high2(T2 p) { return __high2##NAME##2(p); }                                       \
    static HD T2 from_float_both(float f) { return __float2##NAME##2_rn(f); }                      \
    static HD T2 from_floats(float a, float b) { return __floats2##NAME##2_rn(a, b); }             \
    static HD T2 from_float2(float2 v) { return __float22##NAME##2_rn(v); }                        \
    static HD float2 to_float2(T2 p) { return __##NAME##22float2(p); }                             \
  };

NAMED_API(HalfApi, __half, __half2, half, 10, 5)
NAMED_API(Bf16Api, __hip_bfloat16, __hip_bfloat162, bfloat16, 7, 8)
#undef NAMED_API

static const char* const UNARY_NAMES[UNARY_OPS] = {
    "hsqrt", "hrsqrt", "hrcp",   "hexp",   "hexp2",  "hexp10", "hlog",  "hlog2",  "hlog10",           "hsin",
    "hcos",  "htanh",  "hceil",  "hfloor", "htrunc", "hrint",  "__hneg", "__habs", "__hmul_sat(x, 1)", "htanh_approx"};
static const char* const UNARY2_NAMES[UNARY_OPS] = {
    "h2sqrt", "h2rsqrt", "h2rcp",   "h2exp",   "h2exp2",  "h2exp10", "h2log",   "h2log2",  "h2log10",           "h2sin",
    "h2cos",  "h2tanh",  "h2ceil",  "h2floor", "h2trunc", "h2rint",  "__hneg2", "__habs2", "__hmul2_sat(x, 1)", "h2tanh_approx"};
static const char* const TO_INT_NAMES[TO_INT_OPS] = {
    "2int_rn",   "2int_rz",   "2int_rd",   "2int_ru",   "2uint_rn", "2uint_rz", "2uint_rd", "2uint_ru", "2short_rn",
    "2short_rz", "2short_rd", "2short_ru", "2ushort_rn", "2ushort_rz", "2ushort_rd", "2ushort_ru", "2ll_rn", "2ll_rz",
    "2ll_rd",    "2ll_ru",    "2ull_rn",   "2ull_rz",   "2ull_rd",  "2ull_ru",  "2char_rz", "2uchar_rz"};
static const char* const FROM_INT_NAMES[FROM_INT_OPS + 4] = {
    "__int2*_rn",   "__int2*_rz",   "__int2*_rd",   "__int2*_ru",   "__uint2*_rn",  "__uint2*_rz",  "__uint2*_rd",
    "__uint2*_ru",  "__short2*_rn", "__short2*_rz", "__short2*_rd", "__short2*_ru", "__ushort2*_rn", "__ushort2*_rz",
    "__ushort2*_rd", "__ushort2*_ru", "__ll2*_rn",  "__ll2*_rz",    "__ll2*_rd",    "__ll2*_ru",    "__ull2*_rn",
    "__ull2*_rz",   "__ull2*_rd",   "__ull2*_ru",   "T(long long)", "T(unsigned long long)", "T(int)", "T(unsigned short)"};
static const char* const FROM_FLOAT_NAMES[6] = {"__float2*_rn", "__float2*_rz", "__float2*_rd",
                                                "__float2*_ru", "__float2*",    "T(float)"};
static const char* const BINARY_NAMES[BINARY_OPS] = {
    "__hadd",    "__hsub",    "__hmul", "__hdiv", "__hadd_rn",  "__hsub_rn",  "__hmul_rn", "__hadd_sat", "__hsub_sat",
    "__hmul_sat", "__hmax",   "__hmin", "__hmax_nan", "__hmin_nan", "operator+", "operator-", "operator*", "operator/"};
static const char* const BINARY2_NAMES[14] = {
    "__hadd2",     "__hsub2",     "__hmul2", "__h2div", "__hadd2_rn",  "__hsub2_rn",  "__hmul2_rn",
    "__hadd2_sat", "__hsub2_sat", "__hmul2_sat", "__hmax2", "__hmin2", "__hmax2_nan", "__hmin2_nan"};
static const char* const COMPARE_NAMES[COMPARE_OPS] = {"eq",  "ne",  "lt",  "le",  "gt",  "ge",
                                                       "equ", "neu", "ltu", "leu", "gtu", "geu"};
static const char* const FMA_NAMES[FMA_OPS] = {"__hfma",        "__hfma_sat",      "__hfma_relu",     "__hfma2.x",
                                               "__hfma2.y",     "__hfma2_sat.x",   "__hfma2_sat.y",   "__hfma2_relu.x",
                                               "__hfma2_relu.y", "__hcmadd.x",     "__hcmadd.y"};

// ---------------------------------------------------------------------------
// Inputs and results.  One Data holds the inputs (shared by both types) and
// the results of both types, in memory the device can write.

enum { FORMATS = 2, PATTERNS = 65536 };

struct Data {
  int n_floats, n_doubles, n_integers, n_pairs, n_triples;
  // inputs
  float* floats;
  double* doubles;
  unsigned long long* integers;
  unsigned short* pairs[FORMATS];    // 2 per pair: a, b
  unsigned short* triples[FORMATS];  // 3 per triple: a, b, c
  // results, per format
  unsigned short* unary[FORMATS];     // [op][pattern]
  unsigned short* unary2[FORMATS];    // [op][pattern][2]: the pair (p, permute(p))
  unsigned int* as_float[FORMATS];    // [pattern][2]: the function, the operator
  unsigned long long* to_int[FORMATS];  // [op][pattern]
  signed char* classify[FORMATS];     // [pattern][6]: isnan, isinf, isnan2 .x .y, isinf2 .x .y (1, 0, -1; 9 for other)
  unsigned short* from_float[FORMATS];   // [float][6]
  unsigned short* from_double[FORMATS];  // [double][2]
  unsigned short* from_int[FORMATS];     // [integer][28]
  unsigned short* binary[FORMATS];       // [pair][18 + 2 * 14]
  unsigned int* compare[FORMATS];        // [pair][4]: scalar bits, operator bits (6), pair results .x and .y bits
  unsigned int* masks[FORMATS];          // [pair][12 + 1]: __h*2_mask, then the __hb*2 and pair operator bits
  unsigned short* fma[FORMATS];          // [triple][11]
};

static HD unsigned int permute(unsigned int p) { return (p * 40503u + 12345u) & 0xffffu; }

// 1.0 and 0.0 as the pair comparisons give them: 1, 0, or 9 for anything else.
template <typename A>
static HD signed char truth(typename A::T v) {
  const unsigned short one = A::fraction == 10 ? 0x3c00 : 0x3f80;
  return A::bits(v) == one ? 1 : A::bits(v) == 0 ? 0 : 9;
}

template <typename A>
static HD typename A::T unary(int op, typename A::T x) {
  switch (op) {
    case 0: return hsqrt(x);
    case 1: return hrsqrt(x);
    case 2: return hrcp(x);
    case 3: return hexp(x);
    case 4: return hexp2(x);
    case 5: return hexp10(x);
    case 6: return hlog(x);
    case 7: return hlog2(x);
    case 8: return hlog10(x);
    case 9: return hsin(x);
    case 10: return hcos(x);
    case 11: return htanh(x);
    case 12: return hceil(x);
    case 13: return hfloor(x);
    case 14: return htrunc(x);
    case 15: return hrint(x);
    case 16: return __hneg(x);
    case 17: return __habs(x);
    case 18: return __hmul_sat(x, A::of(A::fraction == 10 ? 0x3c00 : 0x3f80));
    default: return htanh_approx(x);
  }
}

template <typename A>
static HD typename A::T2 unary2(int op, typename A::T2 x) {
  switch (op) {
    case 0: return h2sqrt(x);
    case 1: return h2rsqrt(x);
    case 2: return h2rcp(x);
    case 3: return h2exp(x);
    case 4: return h2exp2(x);
    case 5: return h2exp10(x);
    case 6: return h2log(x);
    case 7: return h2log2(x);
    case 8: return h2log10(x);
    case 9: return h2sin(x);
    case 10: return h2cos(x);
    case 11: return h2tanh(x);
    case 12: return h2ceil(x);
    case 13: return h2floor(x);
    case 14: return h2trunc(x);
    case 15: return h2rint(x);
    case 16: return __hneg2(x);
    case 17: return __habs2(x);
    case 18: {
      const typename A::T one = A::of(A::fraction == 10 ? 0x3c00 : 0x3f80);
      return __hmul2_sat(x, A::pair(one, one));
    }
    default: return h2tanh_approx(x);
  }
}

template <typename A>
static HD void compute_pattern(const Data& d, int f, int i) {
  typedef typename A::T T;
  typedef typename A::T2 T2;
  const T x = A::of((unsigned short)i), y = A::of((unsigned short)permute(i));
  const T2 xy = A::pair(x, y);
  for (int op = 0; op < UNARY_OPS; op++) {
    d.unary[f][op * PATTERNS + i] = A::bits(unary<A>(op, x));
    const T2 r = unary2<A>(op, xy);
    d.unary2[f][(op * PATTERNS + i) * 2] = A::bits(r.x);
    d.unary2[f][(op * PATTERNS + i) * 2 + 1] = A::bits(r.y);
  }
  const float as_function = A::to_float(x), as_operator = static_cast<float>(x);
  d.as_float[f][i * 2] = __builtin_bit_cast(unsigned int, as_function);
  d.as_float[f][i * 2 + 1] = __builtin_bit_cast(unsigned int, as_operator);
  for (int op = 0; op < TO_INT_OPS; op++) d.to_int[f][op * PATTERNS + i] = A::to_int(op, x);
  signed char* c = d.classify[f] + i * 6;
  c[0] = __hisnan(x);
  c[1] = (signed char)__hisinf(x);
  const T2 nan2 = __hisnan2(xy), inf2 = __hisinf2(xy);
  c[2] = truth<A>(nan2.x);
  c[3] = truth<A>(nan2.y);
  c[4] = truth<A>(inf2.x);
  c[5] = truth<A>(inf2.y);
}

template <typename A>
static HD void compute_float(const Data& d, int f, int i) {
  for (int k = 0; k < 6; k++) d.from_float[f][i * 6 + k] = A::bits(A::from_float(k, d.floats[i]));
}

template <typename A>
static HD void compute_double(const Data& d, int f, int i) {
  for (int k = 0; k < 2; k++) d.from_double[f][i * 2 + k] = A::bits(A::from_double(k, d.doubles[i]));
}

template <typename A>
static HD void compute_integer(const Data& d, int f, int i) {
  for (int k = 0; k < FROM_INT_OPS + 4; k++) d.from_int[f][i * (FROM_INT_OPS + 4) + k] = A::bits(A::from_int(k, d.integers[i]));
}

template <typename A>
static HD typename A::T binary(int op, typename A::T a, typename A::T b) {
  switch (op) {
    case 0: return __hadd(a, b);
    case 1: return __hsub(a, b);
    case 2: return __hmul(a, b);
    case 3: return __hdiv(a, b);
    case 4: return __hadd_rn(a, b);
    case 5: return __hsub_rn(a, b);
    case 6: return __hmul_rn(a, b);
    case 7: return __hadd_sat(a, b);
    case 8: return __hsub_sat(a, b);
    case 9: return __hmul_sat(a, b);
    case 10: return __hmax(a, b);
    case 11: return __hmin(a, b);
    case 12: return __hmax_nan(a, b);
    case 13: return __hmin_nan(a, b);
    case 14: return a + b;
    case 15: return a - b;
    case 16: return a * b;
    default: return a / b;
  }
}

template <typename A>
static HD typename A::T2 binary2(int op, typename A::T2 a, typename A::T2 b) {
  switch (op) {
    case 0: return __hadd2(a, b);
    case 1: return __hsub2(a, b);
    case 2: return __hmul2(a, b);
    case 3: return __h2div(a, b);
    case 4: return __hadd2_rn(a, b);
    case 5: return __hsub2_rn(a, b);
    case 6: return __hmul2_rn(a, b);
    case 7: return __hadd2_sat(a, b);
    case 8: return __hsub2_sat(a, b);
    case 9: return __hmul2_sat(a, b);
    case 10: return __hmax2(a, b);
    case 11: return __hmin2(a, b);
    case 12: return __hmax2_nan(a, b);
    default: return __hmin2_nan(a, b);
  }
}

template <typename A>
static HD unsigned int compare_bits(typename A::T a, typename A::T b) {
  const bool r[COMPARE_OPS] = {__heq(a, b),  __hne(a, b),  __hlt(a, b),  __hle(a, b),  __hgt(a, b),  __hge(a, b),
                               __hequ(a, b), __hneu(a, b), __hltu(a, b), __hleu(a, b), __hgtu(a, b), __hgeu(a, b)};
  unsigned int bits = 0;
  for (int k = 0; k < COMPARE_OPS; k++) bits |= (unsigned int)r[k] << k;
  return bits;
}

template <typename A>
static HD void compute_pair(const Data& d, int f, int i) {
  typedef typename A::T T;
  typedef typename A::T2 T2;
  const T a = A::of(d.pairs[f][i * 2]), b = A::of(d.pairs[f][i * 2 + 1]);
  unsigned short* r = d.binary[f] + i * (BINARY_OPS + 28);
  for (int op = 0; op < BINARY_OPS; op++) r[op] = A::bits(binary<A>(op, a, b));
  // Pairs (a, b) and (b, a): the first half computes op(a, b), the second op(b, a).
  const T2 ab = A::pair(a, b), ba = A::pair(b, a);
  for (int op = 0; op < 14; op++) {
    const T2 v = binary2<A>(op, ab, ba);
    r[BINARY_OPS + op * 2] = A::bits(v.x);
    r[BINARY_OPS + op * 2 + 1] = A::bits(v.y);
  }
  unsigned int* c = d.compare[f] + i * 4;
  c[0] = compare_bits<A>(a, b);
  c[1] = (unsigned)(a == b) | (unsigned)(a != b) << 1 | (unsigned)(a < b) << 2 | (unsigned)(a <= b) << 3 |
         (unsigned)(a > b) << 4 | (unsigned)(a >= b) << 5;
  const T2 results[COMPARE_OPS] = {__heq2(ab, ba),  __hne2(ab, ba),  __hlt2(ab, ba),  __hle2(ab, ba),
                                   __hgt2(ab, ba),  __hge2(ab, ba),  __hequ2(ab, ba), __hneu2(ab, ba),
                                   __hltu2(ab, ba), __hleu2(ab, ba), __hgtu2(ab, ba), __hgeu2(ab, ba)};
  // One truth value (0, 1 or 9) per comparison: .x into c[2] and .y into c[3],
  // two bits each (9 becomes 3).
  c[2] = c[3] = 0;
  for (int k = 0; k < COMPARE_OPS; k++) {
    const int tx = truth<A>(results[k].x), ty = truth<A>(results[k].y);
    c[2] |= (unsigned)(tx == 9 ? 3 : tx) << (k * 2);
    c[3] |= (unsigned)(ty == 9 ? 3 : ty) << (k * 2);
  }
  unsigned int* m = d.masks[f] + i * 13;
  const unsigned int masks[COMPARE_OPS] = {
      __heq2_mask(ab, ba),  __hne2_mask(ab, ba),  __hlt2_mask(ab, ba),  __hle2_mask(ab, ba),
      __hgt2_mask(ab, ba),  __hge2_mask(ab, ba),  __hequ2_mask(ab, ba), __hneu2_mask(ab, ba),
      __hltu2_mask(ab, ba), __hleu2_mask(ab, ba), __hgtu2_mask(ab, ba), __hgeu2_mask(ab, ba)};
  for (int k = 0; k < COMPARE_OPS; k++) m[k] = masks[k];
  // The __hb*2 functions and the pair operators on (a, b) and (b, a): true
  // when the comparison holds both ways.
  const bool both[COMPARE_OPS] = {__hbeq2(ab, ba),  __hbne2(ab, ba),  __hblt2(ab, ba),  __hble2(ab, ba),
                                  __hbgt2(ab, ba),  __hbge2(ab, ba),  __hbequ2(ab, ba), __hbneu2(ab, ba),
                                  __hbltu2(ab, ba), __hbleu2(ab, ba), __hbgtu2(ab, ba), __hbgeu2(ab, ba)};
  const bool operators[6] = {ab == ba, ab != ba, ab < ba, ab <= ba, ab > ba, ab >= ba};
  m[12] = 0;
  for (int k = 0; k < COMPARE_OPS; k++) m[12] |= (unsigned)both[k] << k;
  for (int k = 0; k < 6; k++) m[12] |= (unsigned)operators[k] << (COMPARE_OPS + k);
}

template <typename A>
static HD void compute_triple(const Data& d, int f, int i) {
  typedef typename A::T T;
  typedef typename A::T2 T2;
  const T a = A::of(d.triples[f][i * 3]), b = A::of(d.triples[f][i * 3 + 1]), c = A::of(d.triples[f][i * 3 + 2]);
  unsigned short* r = d.fma[f] + i * FMA_OPS;
  r[0] = A::bits(__hfma(a, b, c));
  r[1] = A::bits(__hfma_sat(a, b, c));
  r[2] = A::bits(__hfma_relu(a, b, c));
  // Pair forms on (a, b, c) and (c, a, b).
  const T2 p = A::pair(a, c), q = A::pair(b, a), s = A::pair(c, b);
  const T2 fma2 = __hfma2(p, q, s), sat2 = __hfma2_sat(p, q, s), relu2 = __hfma2_relu(p, q, s);
  r[3] = A::bits(fma2.x);
  r[4] = A::bits(fma2.y);
  r[5] = A::bits(sat2.x);
  r[6] = A::bits(sat2.y);
  r[7] = A::bits(relu2.x);
  r[8] = A::bits(relu2.y);
  // (a + ib)(c + ia) + (b + ic)
  const T2 cm = __hcmadd(A::pair(a, b), A::pair(c, a), A::pair(b, c));
  r[9] = A::bits(cm.x);
  r[10] = A::bits(cm.y);
}

// ---------------------------------------------------------------------------
// Checks of single values: the pair functions, bit casts, raw forms,
// operators, loads and stores, constants.  Run the same on host and device;
// `ok` gets one bool per check (MISC_CHECKS at most), names come from a host
// run.

enum { MISC_CHECKS = 256 };

struct Misc {
  bool* ok;
  const char** names;  // null on the device
  int n;
  HD void check(bool good, const char* name) {
    if (ok) ok[n] = good;
    if (names) names[n] = name;
    n++;
  }
};

template <typename A>
static HD void misc_checks_of(Misc& m, const char* type) {
  typedef typename A::T T;
  typedef typename A::T2 T2;
  const bool half = A::fraction == 10;
  const unsigned short one = half ? 0x3c00 : 0x3f80, two = half ? 0x4000 : 0x4000, three = half ? 0x4200 : 0x4040;
  const T a = A::of(one), b = A::of(two), c = A::of(three);
  const T2 ab = A::pair(a, b), bc = A::pair(b, c);
  (void)type;
  m.check(A::bits(ab.x) == one && A::bits(ab.y) == two, "halves2*2");
  m.check(A::bits(A::make(a, b).x) == one && A::bits(A::make(a, b).y) == two, "make_*2");
  m.check(A::bits(A::both(c).x) == three && A::bits(A::both(c).y) == three, "__*2*2 (both halves)");
  m.check(A::bits(A::low(ab)) == one && A::bits(A::high(ab)) == two, "__low2*, __high2*");
  m.check(A::bits(A::lows(ab, bc).x) == one && A::bits(A::lows(ab, bc).y) == two, "__lows2*2");
  m.check(A::bits(A::highs(ab, bc).x) == two && A::bits(A::highs(ab, bc).y) == three, "__highs2*2");
  m.check(A::bits(A::low2(ab).x) == one && A::bits(A::low2(ab).y) == one, "__low2*2");
  m.check(A::bits(A::high2(ab).x) == two && A::bits(A::high2(ab).y) == two, "__high2*2");
  m.check(A::bits(__lowhigh2highlow(ab).x) == two && A::bits(__lowhigh2highlow(ab).y) == one, "__lowhigh2highlow");
  m.check(__low2float(ab) == 1.0f && __high2float(ab) == 2.0f, "__low2float, __high2float");
  const float2 f2 = A::to_float2(bc);
  m.check(f2.x == 2.0f && f2.y == 3.0f, "__*22float2");
  const T2 from = A::from_floats(1.0f, 3.0f), from2 = A::from_float2(make_float2(2.0f, 1.0f)), same = A::from_float_both(3.0f);
  m.check(A::bits(from.x) == one && A::bits(from.y) == three, "__floats2*2_rn");
  m.check(A::bits(from2.x) == two && A::bits(from2.y) == one, "__float22*2_rn");
  m.check(A::bits(same.x) == three && A::bits(same.y) == three, "__float2*2_rn");
  // 1/3 to nearest even in both halves of the pair constructors
  const unsigned short third = half ? 0x3555 : 0x3eab;
  m.check(A::bits(A::from_floats(1.0f / 3, -1.0f / 3).x) == third &&
              A::bits(A::from_floats(1.0f / 3, -1.0f / 3).y) == (third | 0x8000),
          "__floats2*2_rn rounds each");
  m.check(A::signed_bits(A::of(0x8001)) == -32767 && A::bits(A::of_signed(-32767)) == 0x8001, "as_short, short_as");
  // operators
  T v = a;
  v += b;
  m.check(A::bits(v) == three, "operator+=");
  v -= a;
  m.check(A::bits(v) == two, "operator-=");
  v *= c;
  m.check(float(v) == 6.0f, "operator*=");
  v /= b;
  m.check(A::bits(v) == three, "operator/=");
  m.check(float(++v) == 4.0f && float(v++) == 4.0f && float(v) == 5.0f, "operator++");
  m.check(float(--v) == 4.0f && float(v--) == 4.0f && float(v) == 3.0f, "operator--");
  m.check(A::bits(-a) == (one | 0x8000) && A::bits(+a) == one, "unary - and +");
  T2 w = ab;
  w += bc;
  m.check(A::bits(w.x) == three && float(w.y) == 5.0f, "pair operator+=");
  w -= ab;
  m.check(A::bits(w.x) == two && A::bits(w.y) == three, "pair operator-=");
  w *= ab;
  m.check(A::bits(w.x) == two && float(w.y) == 6.0f, "pair operator*=");
  w /= bc;
  m.check(A::bits(w.x) == one && A::bits(w.y) == two, "pair operator/=");
  ++w;
  m.check(A::bits(w.x) == two && A::bits(w.y) == three, "pair operator++");
  w--;
  m.check(A::bits(w.x) == one && A::bits(w.y) == two, "pair operator--");
  const T2 sum = ab + bc, difference = bc - ab, product = ab * bc, quotient = bc / ab, negated = -ab;
  m.check(float(sum.x) == 3.0f && float(sum.y) == 5.0f && float(difference.x) == 1.0f && float(difference.y) == 1.0f,
          "pair operator+ and -");
  m.check(float(product.x) == 2.0f && float(product.y) == 6.0f && float(quotient.x) == 2.0f &&
              float(quotient.y) == 1.5f && float(negated.y) == -2.0f && A::bits((+ab).x) == one,
          "pair operator*, / and unary");
  // loads and stores
  T cell[2] = {a, b};
  T2 pcell[1] = {ab};
  m.check(A::bits(__ldg(cell)) == one && A::bits(__ldcg(cell + 1)) == two && A::bits(__ldca(cell)) == one &&
              A::bits(__ldcs(cell)) == one && A::bits(__ldlu(cell)) == one && A::bits(__ldcv(cell)) == one,
          "__ldg, __ldcg, __ldca, __ldcs, __ldlu, __ldcv");
  __stwb(cell, c);
  __stcg(cell + 1, c);
  m.check(A::bits(cell[0]) == three && A::bits(cell[1]) == three, "__stwb, __stcg");
  __stcs(cell, a);
  __stwt(cell + 1, b);
  m.check(A::bits(cell[0]) == one && A::bits(cell[1]) == two, "__stcs, __stwt");
  m.check(A::bits(__ldg(pcell).y) == two && A::bits(__ldcs(pcell).x) == one, "pair loads");
  __stwt(pcell, bc);
  m.check(A::bits(pcell[0].x) == two, "pair stores");
  // __hcmadd: (1 + 2i)(2 + 3i) + (2 + 3i) = -4 + 7i + 2 + 3i = -2 + 10i
  const T2 cm = __hcmadd(ab, bc, bc);
  m.check(float(cm.x) == -2.0f && float(cm.y) == 10.0f, "__hcmadd");
  // the double-rounding trap of a fused multiply-add: a * b exactly half
  // way between two values, c tiny: the sum must round up
  const T tie_a = A::of(half ? 0x3e00 : 0x3fc0);                         // 1.5
  const T tie_b = A::of(half ? 0x3c01 : 0x3f81);                         // 1 + ulp
  const T tiny = A::of(half ? 0x0001 : 0x0001);                          // smallest subnormal
  const unsigned short below = half ? 0x3e01 : 0x3fc1, above = half ? 0x3e02 : 0x3fc2;
  // 1.5 * (1 + u) = 1.5 + 1.5u: half way between 1.5 + u and 1.5 + 2u
  m.check(A::bits(__hfma(tie_a, tie_b, A::of(0))) == above, "__hfma tie to even");
  m.check(A::bits(__hfma(tie_a, tie_b, tiny)) == above, "__hfma tie plus tiny rounds up");
  m.check(A::bits(__hfma(tie_a, tie_b, A::of(0x8001))) == below, "__hfma tie minus tiny rounds down");
}

static HD int misc_checks(Misc& m) {
  misc_checks_of<HalfApi>(m, "half");
  misc_checks_of<Bf16Api>(m, "bfloat16");
  // raw forms and constants
  __half_raw hr;
  hr.x = 0x3c00;
  const __half h = hr;
  m.check(__half_as_ushort(h) == 0x3c00 && float(h) == 1.0f, "__half from __half_raw");
  const __half_raw back = __float2half(2.0f);
  m.check(back.x == 0x4000 && (unsigned short)back == 0x4000, "__half_raw from __half");
  __half2_raw h2r;
  h2r.x = 0x3c00;  // CUDA's spelling: the bits
  h2r.y.x = 0x4000;  // HIP's
  const __half2 h2 = h2r;
  m.check(__half_as_ushort(h2.x) == 0x3c00 && __half_as_ushort(h2.y) == 0x4000, "__half2 from __half2_raw");
  const __half2_raw h2back = h2;
  m.check(h2back.x.x == 0x3c00 && h2back.y.x == 0x4000, "__half2_raw from __half2");
  __hip_bfloat16_raw br;
  br.x = 0x3f80;
  const __hip_bfloat16 bf = br;
  m.check(bf.data == 0x3f80 && float(bf) == 1.0f, "__hip_bfloat16 from raw");
  const __hip_bfloat16_raw brback = __float2bfloat16(2.0f);
  m.check(brback.x == 0x4000, "__hip_bfloat16_raw from __hip_bfloat16");
  __hip_bfloat162_raw b2r;
  b2r.x = 0x3f80;
  b2r.y = 0x4000;
  const __hip_bfloat162 b2 = b2r;
  const __hip_bfloat162_raw b2back = b2;
  const float2 bf2 = b2;
  m.check(b2.x.data == 0x3f80 && b2back.y == 0x4000 && bf2.y == 2.0f, "__hip_bfloat162 raw and float2");
  m.check(__half_as_ushort(HIPRT_INF_FP16) == 0x7c00 && __half_as_ushort(HIPRT_NAN_FP16) == 0x7fff &&
              __half_as_ushort(HIPRT_ONE_FP16) == 0x3c00 && __half_as_ushort(HIPRT_MAX_NORMAL_FP16) == 0x7bff &&
              __half_as_ushort(HIPRT_MIN_DENORM_FP16) == 1 && __half_as_ushort(HIPRT_NEG_ZERO_FP16) == 0x8000 &&
              __half_as_ushort(HIPRT_ZERO_FP16) == 0,
          "HIPRT_*_FP16");
  m.check(__bfloat16_as_ushort(HIPRT_INF_BF16) == 0x7f80 && __bfloat16_as_ushort(HIPRT_NAN_BF16) == 0x7fff &&
              __bfloat16_as_ushort(HIPRT_ONE_BF16) == 0x3f80 && __bfloat16_as_ushort(HIPRT_MAX_NORMAL_BF16) == 0x7f7f &&
              __bfloat16_as_ushort(HIPRT_MIN_DENORM_BF16) == 1 && __bfloat16_as_ushort(HIPRT_NEG_ZERO_BF16) == 0x8000 &&
              __bfloat16_as_ushort(HIPRT_ZERO_BF16) == 0,
          "HIPRT_*_BF16");
  // conversions of the types themselves
  const half hv = 2.5;  // the `half` name, from a double
  m.check(__half_as_ushort(hv) == 0x4100 && int(float(hv)) == 2, "half from double, to float");
  const __half from_long = 100000L, from_bool = true, from_char = (char)7;
  m.check(__half_as_ushort(from_long) == 0x7c00 && __half_as_ushort(from_bool) == 0x3c00 &&
              __half_as_ushort(from_char) == 0x4700,
          "__half from long, bool, char");
  const __hip_bfloat16 bv = 3.0, big = 16777217u, small = (short)-3;
  m.check(bv.data == 0x4040 && big.data == 0x4b80 && small.data == 0xc040, "__hip_bfloat16 from double, unsigned, short");
  const __hip_bfloat16 bn = -2.75f;
  const int as_int = bn;
  const long long as_ll = bn;
  const unsigned char as_uchar = __float2bfloat16(200.5f);
  const bool as_bool = __float2bfloat16(0.0f), nonzero = bn;
  m.check(as_int == -2 && as_ll == -2 && as_uchar == 200 && !as_bool && nonzero, "__hip_bfloat16 to integers and bool");
  const __bf16 native = bn;
  const __hip_bfloat16 from_native = native;
  m.check(from_native.data == bn.data, "__hip_bfloat16 and __bf16");
  volatile __half vh;
  vh = __half_raw(__float2half(3.0f));
  const __half_raw vraw = vh;
  m.check(vraw.x == 0x4200, "volatile __half");
  m.check(__hisinf(__ushort_as_half(0xfc00)) == -1 && __hisinf(__ushort_as_half(0x7c00)) == 1 &&
              __hisinf(__ushort_as_bfloat16(0xff80)) == -1 && __hisinf(__ushort_as_bfloat16(0x7f80)) == 1,
          "__hisinf signs");
  return m.n;
}
