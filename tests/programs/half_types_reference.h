// Host side of the half_types checks: the inputs, the exact reference and
// the comparison of half_types_checks.h's results with it.  Include after
// half_types_checks.h.
#include <cstdarg>
#include <map>
#include <string>

typedef __float128 Exact;  // 113 bits: exact for every sum, product and fma of 16-bit values checked

// One 16-bit format: its bits' values, and rounding to it by searching the
// table of its finite non-negative values.
struct Format {
  int fraction, exponent;
  const char* name;
  std::vector<Exact> table;  // value of each pattern 0 .. infinity - 1

  Format(int fraction_bits, int exponent_bits, const char* type) : fraction(fraction_bits), exponent(exponent_bits), name(type) {
    for (unsigned bits = 0; bits < infinity(); bits++) table.push_back((Exact)value(bits));
  }
  unsigned infinity() const { return ((1u << exponent) - 1) << fraction; }
  unsigned short one() const { return fraction == 10 ? 0x3c00 : 0x3f80; }
  bool is_nan(unsigned short bits) const { return (bits & 0x7fffu) > infinity(); }
  // A NaN made quiet keeps its sign.
  bool is_quiet_nan(unsigned short bits, bool negative) const {
    return is_nan(bits) && (bits & (1u << (fraction - 1))) && ((bits >> 15) != 0) == negative;
  }
  long double value(unsigned short bits) const {
    const int bias = (1 << (exponent - 1)) - 1;
    const unsigned field = (bits >> fraction) & ((1u << exponent) - 1), part = bits & ((1u << fraction) - 1);
    long double v;
    if (field == (1u << exponent) - 1)
      v = part ? NAN : INFINITY;
    else if (field == 0)
      v = ldexpl(part, 1 - bias - fraction);
    else
      v = ldexpl(part + (1u << fraction), (int)field - bias - fraction);
    return (bits & 0x8000) ? -v : v;
  }
  // v (not a NaN) rounded in direction `mode` (0 nearest even, 1 towards
  // zero, 2 down, 3 up).
  unsigned short round(Exact v, int mode) const {
    const bool negative = v < 0 || (v == 0 && 1 / v < 0);
    const unsigned short sign = negative ? 0x8000 : 0;
    const Exact a = negative ? -v : v;
    const unsigned top = infinity() - 1;
    if (a > table[top]) {
      bool to_infinity;
      if (a == (Exact)INFINITY)
        to_infinity = true;
      else if (mode == 0)
        to_infinity = a >= table[top] + (table[top] - table[top - 1]) / 2;
      else
        to_infinity = (mode == 3 && !negative) || (mode == 2 && negative);
      return sign | (to_infinity ? infinity() : top);
    }
    unsigned lo = 0, hi = top;  // table[lo] <= a <= table[hi]
    while (hi - lo > 1) {
      const unsigned mid = (lo + hi) / 2;
      if (table[mid] <= a)
        lo = mid;
      else
        hi = mid;
    }
    if (table[hi] == a) return sign | hi;
    if (table[lo] == a) return sign | lo;
    switch (mode) {
      case 1: return sign | lo;
      case 2: return sign | (negative ? hi : lo);
      case 3: return sign | (negative ? lo : hi);
      default: break;
    }
    const Exact middle = (table[lo] + table[hi]) / 2;
    if (a < middle) return sign | lo;
    if (a > middle) return sign | hi;
    return sign | ((lo & 1) ? hi : lo);
  }
  // An exact result, or any NaN: 0xffff stands for "a NaN".
  unsigned short result(Exact v) const { return v != v ? 0xffff : round(v, 0); }
};

static const Format HALF(10, 5, "half"), BF16(7, 8, "bfloat16");
static const Format* const FORMAT[FORMATS] = {&HALF, &BF16};

// ---------------------------------------------------------------------------
// Reporting: one line per failing check (the first 8 of each function and
// type, then a count), and the number of checks.

// Names a check: where it ran, the type, the function (and a suffix).
struct Key {
  const char* where;
  const Format* format;
  const char* name;
  const char* suffix;
  Key(const char* w, const Format& f, const char* n, const char* s = "") : where(w), format(&f), name(n), suffix(s) {}
  std::string text() const { return std::string(where) + " " + format->name + " " + name + suffix; }
};

struct Report {
  long long checks = 0, failures = 0;
  std::map<std::string, long long> by_name;

  void check(bool ok, const Key& key, const char* format, ...) __attribute__((format(printf, 4, 5))) {
    checks++;
    if (ok) return;
    va_list args;
    va_start(args, format);
    fail(key.text(), format, args);
    va_end(args);
  }
  // A 16-bit result against an expected one; 0xffff expects any NaN.  The
  // format and arguments describe the inputs.
  void bits(unsigned short got, unsigned short want, const Key& key, const char* format, ...)
      __attribute__((format(printf, 5, 6))) {
    checks++;
    if (want == 0xffff ? key.format->is_nan(got) : got == want) return;
    char inputs[256];
    va_list args;
    va_start(args, format);
    vsnprintf(inputs, sizeof inputs, format, args);
    va_end(args);
    if (want == 0xffff)
      failed(key.text(), "%s: got 0x%04x, want a NaN", inputs, got);
    else
      failed(key.text(), "%s: got 0x%04x, want 0x%04x", inputs, got, want);
  }
  void failed(const std::string& key, const char* format, ...) __attribute__((format(printf, 3, 4))) {
    va_list args;
    va_start(args, format);
    fail(key, format, args);
    va_end(args);
  }
  void fail(const std::string& key, const char* format, va_list args) {
    failures++;
    if (by_name[key]++ >= 8) return;
    char line[512];
    vsnprintf(line, sizeof line, format, args);
    printf("FAIL %s%s\n", key.c_str(), line);
  }
  int finish() {
    for (std::map<std::string, long long>::const_iterator it = by_name.begin(); it != by_name.end(); ++it)
      if (it->second > 8) printf("FAIL %s: %lld more failures not shown\n", it->first.c_str(), it->second - 8);
    if (failures == 0) {
      printf("ok %lld\n", checks);
      return 0;
    }
    printf("failed %lld of %lld checks\n", failures, checks);
    return 1;
  }
};

// ---------------------------------------------------------------------------
// Inputs.

struct Random {  // a fixed sequence: the number of checks never changes
  unsigned long long state = 0x9e3779b97f4a7c15ull;
  unsigned long long next() {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    unsigned long long x = state;
    x ^= x >> 29;
    x *= 0xbf58476d1ce4e5b9ull;
    return x ^ (x >> 32);
  }
};

static std::vector<float> float_inputs() {
  std::vector<float> out;
  for (int f = 0; f < FORMATS; f++) {
    const Format& format = *FORMAT[f];
    for (unsigned p = 0; p < format.infinity(); p++) {
      const float sign = (p & 1) ? -1.0f : 1.0f;
      const float v = (float)format.value(p);
      const float next = p + 1 < format.infinity() ? (float)format.value(p + 1)
                                                   : (float)(format.value(p) + (format.value(p) - format.value(p - 1)));
      const float middle = (float)(((long double)v + next) / 2);  // exact in float
      out.push_back(sign * v);
      out.push_back(sign * middle);
      out.push_back(sign * nextafterf(middle, INFINITY));
      out.push_back(sign * nextafterf(middle, -INFINITY));
      if (p % 7 == 0) out.push_back(sign * nextafterf(v, INFINITY)), out.push_back(-sign * nextafterf(v, -INFINITY));
    }
  }
  const unsigned int specials[] = {0x00000000u, 0x80000000u, 0x7f800000u, 0xff800000u, 0x7fc00000u, 0xffc00000u,
                                   0x7f800001u, 0xff812345u, 0x7fa00000u, 0x7f7fffffu, 0xff7fffffu, 0x00000001u,
                                   0x80000001u, 0x00800000u, 0x007fffffu, 0x477ff000u, 0x477fefffu, 0x477ff001u,
                                   0x33000000u, 0x33000001u, 0xb3000000u, 0x7f7f8000u, 0x7f7f7fffu, 0x7f7f8001u};
  for (unsigned bits : specials) out.push_back(__builtin_bit_cast(float, bits));
  Random random;
  for (int k = 0; k < 20000; k++) out.push_back(__builtin_bit_cast(float, (unsigned)random.next()));
  return out;
}

static std::vector<double> double_inputs() {
  std::vector<double> out;
  for (int f = 0; f < FORMATS; f++) {
    const Format& format = *FORMAT[f];
    for (unsigned p = 0; p + 1 < format.infinity(); p++) {
      const double sign = (p & 2) ? -1.0 : 1.0;
      const double middle = (double)((format.value(p) + format.value(p + 1)) / 2);
      // just above and below a tie: a conversion through float would make it a tie
      out.push_back(sign * middle);
      out.push_back(sign * nextafter(middle, INFINITY));
      out.push_back(sign * nextafter(middle, -INFINITY));
    }
  }
  const unsigned long long specials[] = {0, 0x8000000000000000ull, 0x7ff0000000000000ull, 0xfff0000000000000ull,
                                         0x7ff8000000000000ull, 0xfff8000000000001ull, 0x7ff0000000000001ull,
                                         0x0000000000000001ull, 0x7fefffffffffffffull, 0x3ff0000000000001ull};
  for (unsigned long long bits : specials) out.push_back(__builtin_bit_cast(double, bits));
  Random random;
  for (int k = 0; k < 10000; k++) out.push_back(__builtin_bit_cast(double, random.next()));
  for (int k = 0; k < 10000; k++) out.push_back(ldexp((double)(long long)random.next(), (int)(random.next() % 300) - 200));
  return out;
}

static std::vector<unsigned long long> integer_inputs() {
  std::vector<unsigned long long> out;
  for (unsigned x = 0; x < 65536; x++) out.push_back(x);  // every short and unsigned short
  for (int k = 0; k < 64; k++) {
    const unsigned long long power = 1ull << k;
    const long long offsets[] = {-2, -1, 0, 1, 2};
    for (long long d : offsets) out.push_back(power + d), out.push_back(0 - (power + d));
    // ties and near-ties of both formats at this scale (11 and 8 bits)
    const int precisions[] = {11, 8};
    for (int precision : precisions) {
      if (k < precision) continue;
      const unsigned long long half_step = power >> precision;
      const unsigned long long values[] = {power + half_step, power + 3 * half_step, power + half_step + 1,
                                           power + half_step - 1, (power << 1) - half_step};
      for (unsigned long long v : values) out.push_back(v), out.push_back(0 - v);
    }
  }
  Random random;
  for (int k = 0; k < 8000; k++) out.push_back(random.next());
  for (int k = 0; k < 8000; k++) out.push_back(random.next() >> (random.next() % 64));
  for (int k = 0; k < 8000; k++) out.push_back(0 - (random.next() >> (random.next() % 64)));
  return out;
}

// Special values of a format, for pairs and triples.
static std::vector<unsigned short> specials(const Format& f) {
  const unsigned short inf = (unsigned short)f.infinity(), one = f.one();
  const unsigned short top = inf - 1, smallest_normal = (unsigned short)(1u << f.fraction);
  std::vector<unsigned short> out = {0,    1, (unsigned short)(smallest_normal - 1), smallest_normal, one,
                                     (unsigned short)(one + 1), (unsigned short)(one - 1), (unsigned short)(one + (1u << f.fraction)),
                                     (unsigned short)(one - (1u << f.fraction)), (unsigned short)(one + (1u << (f.fraction - 1))),
                                     top, (unsigned short)(top - 1), inf};
  const size_t n = out.size();
  for (size_t i = 0; i < n; i++) out.push_back(out[i] | 0x8000);
  out.push_back(inf | (1u << (f.fraction - 1)));           // quiet NaN
  out.push_back(0x8000 | inf | (1u << (f.fraction - 1)) | 1);
  out.push_back(inf | 1);                                  // signalling NaN
  return out;
}

// A random pattern; `near` one nearby in exponent and bits (for ties and
// cancellation).
static unsigned short random_pattern(Random& random) { return (unsigned short)random.next(); }
static unsigned short nearby(const Format& f, Random& random, unsigned short a) {
  const int shift = (int)(random.next() % 7) - 3;
  int field = (int)((a >> f.fraction) & ((1u << f.exponent) - 1)) + shift;
  if (field < 0) field = 0;
  if (field > (int)(1u << f.exponent) - 2) field = (1 << f.exponent) - 2;
  const unsigned low = (unsigned)random.next() & ((1u << f.fraction) - 1);
  const unsigned keep = (unsigned)random.next() % (f.fraction + 1);  // keep some of a's fraction
  const unsigned mask = (1u << keep) - 1;
  const unsigned part = ((a & ((1u << f.fraction) - 1)) & ~mask) | (low & mask);
  return (unsigned short)((random.next() & 0x8000) | ((unsigned)field << f.fraction) | part);
}

static std::vector<unsigned short> pair_inputs(const Format& f) {
  std::vector<unsigned short> out;
  const std::vector<unsigned short> s = specials(f);
  for (unsigned short a : s)
    for (unsigned short b : s) out.push_back(a), out.push_back(b);
  Random random;
  for (int k = 0; k < 20000; k++) out.push_back(random_pattern(random)), out.push_back(random_pattern(random));
  for (int k = 0; k < 30000; k++) {
    const unsigned short a = random_pattern(random);
    out.push_back(a), out.push_back(nearby(f, random, a));
  }
  return out;
}

// Triples: special values, and random ones whose exponents lie near enough
// (those of bfloat16 within 20 of each other) that the product and the
// addend overlap, where a fused multiply-add rounds differently from two
// roundings.
static std::vector<unsigned short> triple_inputs(const Format& f) {
  std::vector<unsigned short> out;
  const std::vector<unsigned short> s = specials(f);
  for (size_t i = 0; i < s.size(); i += 2)
    for (size_t j = 0; j < s.size(); j += 3)
      for (size_t k = 0; k < s.size(); k += 2) out.push_back(s[i]), out.push_back(s[j]), out.push_back(s[k]);
  Random random;
  const int spread = f.exponent == 8 ? 20 : 100, bias = (1 << (f.exponent - 1)) - 1;
  for (int n = 0; n < 30000; n++) {
    unsigned short t[3];
    const int centre = (int)(random.next() % (2 * (unsigned)bias)) - bias / 2;
    for (int m = 0; m < 3; m++) {
      int field = centre / 2 + bias + (int)(random.next() % (2 * spread + 1)) - spread;
      if (m == 2) field = centre + bias + (int)(random.next() % (2 * spread + 1)) - spread;  // near the product
      if (field < 0) field = 0;
      if (field > (int)(1u << f.exponent) - 2) field = (1 << f.exponent) - 2;
      t[m] = (unsigned short)((random.next() & 0x8000) | ((unsigned)field << f.fraction) |
                              ((unsigned)random.next() & ((1u << f.fraction) - 1)));
    }
    out.push_back(t[0]), out.push_back(t[1]), out.push_back(t[2]);
  }
  return out;
}

// ---------------------------------------------------------------------------
// Allocation: inputs once, results for both types.

template <typename Allocate>
static void allocate(Data& d, Allocate allocate_bytes) {
  const std::vector<float> floats = float_inputs();
  const std::vector<double> doubles = double_inputs();
  const std::vector<unsigned long long> integers = integer_inputs();
  d.n_floats = (int)floats.size();
  d.n_doubles = (int)doubles.size();
  d.n_integers = (int)integers.size();
  d.floats = (float*)allocate_bytes(floats.size() * sizeof(float));
  d.doubles = (double*)allocate_bytes(doubles.size() * sizeof(double));
  d.integers = (unsigned long long*)allocate_bytes(integers.size() * sizeof(unsigned long long));
  memcpy(d.floats, floats.data(), floats.size() * sizeof(float));
  memcpy(d.doubles, doubles.data(), doubles.size() * sizeof(double));
  memcpy(d.integers, integers.data(), integers.size() * sizeof(unsigned long long));
  for (int f = 0; f < FORMATS; f++) {
    const std::vector<unsigned short> pairs = pair_inputs(*FORMAT[f]), triples = triple_inputs(*FORMAT[f]);
    d.n_pairs = (int)pairs.size() / 2;  // the same count for both types
    d.n_triples = (int)triples.size() / 3;
    d.pairs[f] = (unsigned short*)allocate_bytes(pairs.size() * 2);
    d.triples[f] = (unsigned short*)allocate_bytes(triples.size() * 2);
    memcpy(d.pairs[f], pairs.data(), pairs.size() * 2);
    memcpy(d.triples[f], triples.data(), triples.size() * 2);
    d.unary[f] = (unsigned short*)allocate_bytes((size_t)UNARY_OPS * PATTERNS * 2);
    d.unary2[f] = (unsigned short*)allocate_bytes((size_t)UNARY_OPS * PATTERNS * 4);
    d.as_float[f] = (unsigned int*)allocate_bytes((size_t)PATTERNS * 8);
    d.to_int[f] = (unsigned long long*)allocate_bytes((size_t)TO_INT_OPS * PATTERNS * 8);
    d.classify[f] = (signed char*)allocate_bytes((size_t)PATTERNS * 6);
    d.from_float[f] = (unsigned short*)allocate_bytes((size_t)d.n_floats * 6 * 2);
    d.from_double[f] = (unsigned short*)allocate_bytes((size_t)d.n_doubles * 2 * 2);
    d.from_int[f] = (unsigned short*)allocate_bytes((size_t)d.n_integers * (FROM_INT_OPS + 4) * 2);
    d.binary[f] = (unsigned short*)allocate_bytes((size_t)d.n_pairs * (BINARY_OPS + 28) * 2);
    d.compare[f] = (unsigned int*)allocate_bytes((size_t)d.n_pairs * 4 * 4);
    d.masks[f] = (unsigned int*)allocate_bytes((size_t)d.n_pairs * 13 * 4);
    d.fma[f] = (unsigned short*)allocate_bytes((size_t)d.n_triples * FMA_OPS * 2);
  }
}

// Every result computed on the host, as the device computes them.
static void compute_on_host(const Data& d) {
  for (int i = 0; i < PATTERNS; i++) compute_pattern<HalfApi>(d, 0, i), compute_pattern<Bf16Api>(d, 1, i);
  for (int i = 0; i < d.n_floats; i++) compute_float<HalfApi>(d, 0, i), compute_float<Bf16Api>(d, 1, i);
  for (int i = 0; i < d.n_doubles; i++) compute_double<HalfApi>(d, 0, i), compute_double<Bf16Api>(d, 1, i);
  for (int i = 0; i < d.n_integers; i++) compute_integer<HalfApi>(d, 0, i), compute_integer<Bf16Api>(d, 1, i);
  for (int i = 0; i < d.n_pairs; i++) compute_pair<HalfApi>(d, 0, i), compute_pair<Bf16Api>(d, 1, i);
  for (int i = 0; i < d.n_triples; i++) compute_triple<HalfApi>(d, 0, i), compute_triple<Bf16Api>(d, 1, i);
}

// ---------------------------------------------------------------------------
// The reference.

// The unary functions, exactly rounded from long double; 0xffff: a NaN.
static unsigned short unary_reference(const Format& f, int op, unsigned short bits) {
  const long double x = f.value(bits);
  if (op == 16) return bits ^ 0x8000;
  if (op == 17) return bits & 0x7fff;
  if (op == 18) {  // _sat of x * 1
    if (f.is_nan(bits) || (x < 0)) return 0;
    return x > 1 ? f.one() : bits;
  }
  if (x != x) return 0xffff;
  long double r = 0;
  switch (op) {
    case 0: r = sqrtl(x); break;
    case 1: r = 1 / sqrtl(x); break;
    case 2: r = 1 / x; break;
    case 3: r = expl(x); break;
    case 4: r = exp2l(x); break;
    case 5: r = powl(10, x); break;
    case 6: r = logl(x); break;
    case 7: r = log2l(x); break;
    case 8: r = log10l(x); break;
    case 9: r = sinl(x); break;
    case 10: r = cosl(x); break;
    case 11: case 19: r = tanhl(x); break;
    case 12: r = ceill(x); break;
    case 13: r = floorl(x); break;
    case 14: r = truncl(x); break;
    default: r = nearbyintl(x); break;
  }
  return f.result((Exact)r);
}

// Conversion to an integer of `bits` bits, rounded in `mode`, saturated.
static unsigned long long integer_reference(long double x, int mode, int bits, bool is_signed) {
  if (x != x) return bits == 64 ? 1ull << 63 : 0;
  long double r = mode == 0 ? nearbyintl(x) : mode == 1 ? truncl(x) : mode == 2 ? floorl(x) : ceill(x);
  const long double top = ldexpl(1, is_signed ? bits - 1 : bits);  // one past the largest
  const long double bottom = is_signed ? -top : 0;
  long long value;
  unsigned long long uvalue;
  if (is_signed) {
    value = r >= top ? (long long)(top - 1) : r < bottom ? (long long)bottom : (long long)r;
    if (bits == 64 && r >= top) value = 0x7fffffffffffffffll;
    if (bits == 64 && r < bottom) value = (long long)(1ull << 63);
    return (unsigned long long)value;
  }
  uvalue = r >= top ? (bits == 64 ? ~0ull : (unsigned long long)(top - 1)) : r < 0 ? 0 : (unsigned long long)r;
  return uvalue;
}

// a op b for the binary functions; 0xffff: a NaN.
static unsigned short binary_reference(const Format& f, int op, unsigned short a, unsigned short b) {
  const long double x = f.value(a), y = f.value(b);
  const bool nan = f.is_nan(a) || f.is_nan(b);
  const int arithmetic = op >= 14 ? op - 14 : op >= 7 && op <= 9 ? op - 7 : op >= 4 && op <= 6 ? op - 4 : op;
  if (op <= 9 || op >= 14) {
    unsigned short r;
    if (nan) {
      r = 0xffff;
    } else {
      const Exact ex = (Exact)x, ey = (Exact)y;
      const Exact v = arithmetic == 0 ? ex + ey : arithmetic == 1 ? ex - ey : arithmetic == 2 ? ex * ey : ex / ey;
      r = f.result(v);
    }
    if (op >= 7 && op <= 9) {  // _sat
      if (r == 0xffff || f.is_nan(r)) return 0;
      const long double v = f.value(r);
      return v < 0 ? 0 : v > 1 ? f.one() : r;
    }
    return r;
  }
  const bool na = f.is_nan(a), nb = f.is_nan(b);
  const unsigned short canonical = 0x7fff;
  if (op >= 12) {  // _nan: a NaN wins, as the canonical NaN
    if (na || nb) return canonical;
    op -= 2;
  }
  if (na) return nb ? canonical : b;
  if (nb) return a;
  if (x == y) return op == 10 ? (a & b) : (a | b);  // +0 above -0
  return (op == 10) == (x > y) ? a : b;
}

static bool compare_reference(int op, long double x, long double y) {
  switch (op) {
    case 0: return x == y;
    case 1: return x < y || x > y;
    case 2: return x < y;
    case 3: return x <= y;
    case 4: return x > y;
    case 5: return x >= y;
    case 6: return !(x < y) && !(x > y);
    case 7: return !(x == y);
    case 8: return !(x >= y);
    case 9: return !(x > y);
    case 10: return !(x <= y);
    default: return !(x < y);
  }
}

// p + c in 113 bits, rounded towards odd (an inexact sum gets its last bit
// set), which rounding to 16 bits then rounds as the exact sum would be.
static Exact sum_to_odd(Exact p, Exact c) {
  const Exact s = p + c;
  if (s != s || s - s != 0) return s;
  const Exact p_part = s - c, c_part = s - p_part, error = (p - p_part) + (c - c_part);
  if (error == 0) return s;
  unsigned __int128 bits = __builtin_bit_cast(unsigned __int128, s);
  if ((bits & 1) == 0) bits += ((error > 0) == (s > 0)) ? 1 : (unsigned __int128)-1;
  return __builtin_bit_cast(Exact, bits);
}

// The exact fused multiply-add, rounded once; 0xffff: a NaN.
static unsigned short fma_reference(const Format& f, unsigned short a, unsigned short b, unsigned short c) {
  if (f.is_nan(a) || f.is_nan(b) || f.is_nan(c)) return 0xffff;
  return f.result(sum_to_odd((Exact)f.value(a) * (Exact)f.value(b), (Exact)f.value(c)));  // the product is exact
}
static unsigned short fma_any(const Format& f, unsigned short a, unsigned short b, unsigned short c) {
  const unsigned short r = fma_reference(f, a, b, c);
  return r == 0xffff ? (unsigned short)(f.infinity() | (1u << (f.fraction - 1))) : r;  // a NaN to go on with
}

// ---------------------------------------------------------------------------
// Verification.

// The unary functions' references, computed once.
static std::vector<unsigned short> unary_table[FORMATS];

static void verify(const Data& d, const char* where, Report& report) {
  for (int fi = 0; fi < FORMATS; fi++) {
    const Format& f = *FORMAT[fi];
    if (unary_table[fi].empty()) {
      unary_table[fi].resize((size_t)UNARY_OPS * PATTERNS);
      for (int op = 0; op < UNARY_OPS; op++)
        for (int p = 0; p < PATTERNS; p++) unary_table[fi][op * PATTERNS + p] = unary_reference(f, op, (unsigned short)p);
    }
    const char* prefix = fi == 0 ? "__half" : "__bfloat16";
    // every pattern through the unary functions, conversions and tests
    for (int op = 0; op < UNARY_OPS; op++) {
      const Key scalar(where, f, UNARY_NAMES[op]), pair(where, f, UNARY2_NAMES[op]);
      for (int p = 0; p < PATTERNS; p++) {
        const unsigned q = permute(p);
        const size_t at = (size_t)op * PATTERNS + p;
        report.bits(d.unary[fi][at], unary_table[fi][at], scalar, "(0x%04x)", p);
        report.bits(d.unary2[fi][at * 2], unary_table[fi][at], pair, "(0x%04x, 0x%04x).x", p, q);
        report.bits(d.unary2[fi][at * 2 + 1], unary_table[fi][op * PATTERNS + q], pair, "(0x%04x, 0x%04x).y", p, q);
      }
    }
    for (int k = 0; k < 2; k++) {
      const Key name(where, f, k == 0 ? "to float" : "operator float");
      for (int p = 0; p < PATTERNS; p++) {
        const float got = __builtin_bit_cast(float, d.as_float[fi][p * 2 + k]);
        const long double x = f.value((unsigned short)p);
        const bool negative = (p & 0x8000) != 0;
        const bool ok = f.is_nan((unsigned short)p) ? got != got && std::signbit(got) == negative
                                                    : got == (float)x && std::signbit(got) == negative;
        report.check(ok, name, "(0x%04x): got %a", p, (double)got);
      }
    }
    static const int int_bits[] = {32, 32, 16, 16, 64, 64, 8, 8};
    for (int op = 0; op < TO_INT_OPS; op++) {
      const Key name(where, f, prefix, TO_INT_NAMES[op]);
      const int group = op < 24 ? op / 4 : op == 24 ? 6 : 7;
      const int mode = op < 24 ? op % 4 : 1;
      for (int p = 0; p < PATTERNS; p++) {
        const unsigned long long want = integer_reference(f.value((unsigned short)p), mode, int_bits[group], group % 2 == 0);
        const unsigned long long got = d.to_int[fi][(size_t)op * PATTERNS + p];
        report.check(got == want, name, "(0x%04x): got 0x%llx, want 0x%llx", p, got, want);
      }
    }
    const Key isnan_key(where, f, "__hisnan"), isinf_key(where, f, "__hisinf"), isnan2_key(where, f, "__hisnan2"),
        isinf2_key(where, f, "__hisinf2");
    for (int p = 0; p < PATTERNS; p++) {
      const unsigned short q = (unsigned short)permute(p);
      const signed char* c = d.classify[fi] + p * 6;
      const bool nan = f.is_nan((unsigned short)p), qnan = f.is_nan(q);
      const int inf = (p & 0x7fff) == (int)f.infinity() ? (p & 0x8000 ? -1 : 1) : 0;
      const int qinf = (q & 0x7fff) == f.infinity() ? 1 : 0;
      report.check(c[0] == nan, isnan_key, "(0x%04x): got %d", p, c[0]);
      report.check(c[1] == inf, isinf_key, "(0x%04x): got %d", p, c[1]);
      report.check(c[2] == nan && c[3] == qnan, isnan2_key, "(0x%04x, 0x%04x): got %d %d", p, q, c[2], c[3]);
      report.check(c[4] == (inf != 0) && c[5] == qinf, isinf2_key, "(0x%04x, 0x%04x): got %d %d", p, q, c[4], c[5]);
    }
    // floats, doubles and integers in each direction
    for (int k = 0; k < 6; k++) {
      const Key name(where, f, FROM_FLOAT_NAMES[k]);
      const int mode = k < 4 ? k : 0;
      for (int i = 0; i < d.n_floats; i++) {
        const float v = d.floats[i];
        const unsigned short got = d.from_float[fi][i * 6 + k];
        if (v != v)
          report.check(f.is_quiet_nan(got, std::signbit(v)), name, "(%a): got 0x%04x, want a quiet NaN of its sign",
                       (double)v, got);
        else
          report.bits(got, f.round((Exact)v, mode), name, "(%a)", (double)v);
      }
    }
    for (int k = 0; k < 2; k++) {
      const Key name(where, f, k == 0 ? "__double2*" : "T(double)");
      for (int i = 0; i < d.n_doubles; i++) {
        const double v = d.doubles[i];
        const unsigned short got = d.from_double[fi][i * 2 + k];
        if (v != v)
          report.check(f.is_quiet_nan(got, std::signbit(v)), name, "(%a): got 0x%04x, want a quiet NaN of its sign", v, got);
        else
          report.bits(got, f.round((Exact)v, 0), name, "(%a)", v);
      }
    }
    for (int k = 0; k < FROM_INT_OPS + 4; k++) {
      const Key name(where, f, FROM_INT_NAMES[k]);
      const int source = k < 24 ? k / 4 : k == 24 ? 4 : k == 25 ? 5 : k == 26 ? 0 : 3;
      for (int i = 0; i < d.n_integers; i++) {
        const unsigned long long x = d.integers[i];
        long double v;
        switch (source) {
          case 0: v = (int)x; break;
          case 1: v = (unsigned)x; break;
          case 2: v = (short)x; break;
          case 3: v = (unsigned short)x; break;
          case 4: v = (long long)x; break;
          default: v = x; break;
        }
        report.bits(d.from_int[fi][(size_t)i * (FROM_INT_OPS + 4) + k], f.round((Exact)v, k < 24 ? k % 4 : 0), name,
                    "(0x%llx)", x);
      }
    }
    // pairs
    std::vector<Key> binary_keys, binary2_keys, mask_keys, compare_keys, compare2_keys, both_keys;
    std::vector<std::string> names;
    names.reserve(4 * COMPARE_OPS);
    for (int op = 0; op < BINARY_OPS; op++) binary_keys.push_back(Key(where, f, BINARY_NAMES[op]));
    for (int op = 0; op < 14; op++) binary2_keys.push_back(Key(where, f, BINARY2_NAMES[op]));
    for (int k = 0; k < COMPARE_OPS; k++) {
      compare_keys.push_back(Key(where, f, "__h", COMPARE_NAMES[k]));
      names.push_back(std::string(COMPARE_NAMES[k]) + "2");
      compare2_keys.push_back(Key(where, f, "__h", names.back().c_str()));
      names.push_back(std::string(COMPARE_NAMES[k]) + "2_mask");
      mask_keys.push_back(Key(where, f, "__h", names.back().c_str()));
      names.push_back(std::string(COMPARE_NAMES[k]) + "2");
      both_keys.push_back(Key(where, f, "__hb", names.back().c_str()));
    }
    const Key operators_key(where, f, "comparison operators"), pair_operators_key(where, f, "pair comparison operators");
    for (int i = 0; i < d.n_pairs; i++) {
      const unsigned short a = d.pairs[fi][i * 2], b = d.pairs[fi][i * 2 + 1];
      const unsigned short* r = d.binary[fi] + (size_t)i * (BINARY_OPS + 28);
      for (int op = 0; op < BINARY_OPS; op++)
        report.bits(r[op], binary_reference(f, op, a, b), binary_keys[op], "(0x%04x, 0x%04x)", a, b);
      for (int op = 0; op < 14; op++) {
        report.bits(r[BINARY_OPS + op * 2], binary_reference(f, op, a, b), binary2_keys[op], "((0x%04x, 0x%04x), (0x%04x, 0x%04x)).x", a, b, b, a);
        report.bits(r[BINARY_OPS + op * 2 + 1], binary_reference(f, op, b, a), binary2_keys[op], "((0x%04x, 0x%04x), (0x%04x, 0x%04x)).y", a, b, b, a);
      }
      const long double x = f.value(a), y = f.value(b);
      const unsigned int* c = d.compare[fi] + (size_t)i * 4;
      const unsigned int* m = d.masks[fi] + (size_t)i * 13;
      unsigned int scalar = 0, both = 0;
      for (int k = 0; k < COMPARE_OPS; k++) {
        const bool forward = compare_reference(k, x, y), backward = compare_reference(k, y, x);
        scalar |= (unsigned)forward << k;
        both |= (unsigned)(forward && backward) << k;
        const unsigned int mask = (forward ? 0xffffu : 0u) | (backward ? 0xffff0000u : 0u);
        report.check(m[k] == mask, mask_keys[k], "(0x%04x, 0x%04x): got 0x%08x, want 0x%08x", a, b, m[k], mask);
        report.check(((c[0] >> k) & 1) == (unsigned)forward, compare_keys[k], "(0x%04x, 0x%04x): got %u", a, b, (c[0] >> k) & 1);
        const unsigned gx = (c[2] >> (2 * k)) & 3, gy = (c[3] >> (2 * k)) & 3;
        report.check(gx == (unsigned)forward && gy == (unsigned)backward, compare2_keys[k],
                     "((0x%04x, 0x%04x), (0x%04x, 0x%04x)): got %u %u (3: neither 1.0 nor 0.0)", a, b, b, a, gx, gy);
        report.check(((m[12] >> k) & 1) == (unsigned)(forward && backward), both_keys[k],
                     "((0x%04x, 0x%04x), (0x%04x, 0x%04x)): got %u", a, b, b, a, (m[12] >> k) & 1);
      }
      // == is eq, != is neu, then lt, le, gt, ge: for scalars, and both ways for pairs
      const int operator_ops[6] = {0, 7, 2, 3, 4, 5};
      unsigned int operators = 0, pair_operators = 0;
      for (int k = 0; k < 6; k++) {
        operators |= ((scalar >> operator_ops[k]) & 1u) << k;
        pair_operators |= ((both >> operator_ops[k]) & 1u) << k;
      }
      report.check(c[1] == operators, operators_key, "(0x%04x, 0x%04x): got 0x%x, want 0x%x (== != < <= > >=)", a, b, c[1],
                   operators);
      report.check(m[12] >> COMPARE_OPS == pair_operators, pair_operators_key,
                   "((0x%04x, 0x%04x), (0x%04x, 0x%04x)): got 0x%x, want 0x%x (== != < <= > >=)", a, b, b, a,
                   m[12] >> COMPARE_OPS, pair_operators);
    }
    std::vector<Key> fma_keys;
    for (int k = 0; k < FMA_OPS; k++) fma_keys.push_back(Key(where, f, FMA_NAMES[k]));
    const auto saturate = [&](unsigned short v) -> unsigned short {
      if (v == 0xffff || f.is_nan(v)) return 0;
      const long double x = f.value(v);
      return x < 0 ? 0 : x > 1 ? f.one() : v;
    };
    const auto relu = [&](unsigned short v) -> unsigned short {
      if (v == 0xffff || f.is_nan(v)) return 0x7fff;
      return f.value(v) < 0 ? 0 : v;
    };
    for (int i = 0; i < d.n_triples; i++) {
      const unsigned short a = d.triples[fi][i * 3], b = d.triples[fi][i * 3 + 1], c = d.triples[fi][i * 3 + 2];
      const unsigned short* r = d.fma[fi] + (size_t)i * FMA_OPS;
      const unsigned short forward = fma_reference(f, a, b, c), backward = fma_reference(f, c, a, b);
      const unsigned short want[FMA_OPS] = {
          forward, saturate(forward), relu(forward), forward, backward, saturate(forward), saturate(backward),
          relu(forward), relu(backward),
          // (a + ib)(c + ia) + (b + ic), each part in two fused steps
          fma_reference(f, a, c, fma_any(f, b ^ 0x8000, a, b)), fma_reference(f, a, a, fma_any(f, b, c, c))};
      for (int k = 0; k < FMA_OPS; k++) report.bits(r[k], want[k], fma_keys[k], "(0x%04x, 0x%04x, 0x%04x)", a, b, c);
    }
  }
}

static void verify_misc(const bool* ok, const char* const* names, int n, const char* where, Report& report) {
  for (int k = 0; k < n; k++) {
    report.checks++;
    if (!ok[k]) report.failed(std::string(where) + " " + names[k], ": wrong result");
  }
}
