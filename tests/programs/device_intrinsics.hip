// HIP's device intrinsics on the simulated device against references the
// host computes another way: integer intrinsics bit for bit (from loops over
// bits), directed-rounding operations and conversions exactly (the host's
// own operation under fesetround), fast and special math within a stated
// tolerance, atomics of every type and scope exactly, and the clocks' rates.
// Prints one line per failed check and a summary: "CHECKS n failed m".
#include <hip/hip_runtime.h>

#include <cfenv>
#include <chrono>
#include <cstdint>
#include <thread>

static int checks, failed;

static void check(bool ok, const char* what, int index, double device, double expected) {
  checks++;
  if (!ok) {
    failed++;
    printf("FAIL %s[%d]: device %.17g expected %.17g\n", what, index, device, expected);
  }
}
static void check_bits(const char* what, int i, unsigned long long device, unsigned long long expected) {
  check(device == expected, what, i, double(device), double(expected));
}

// ---- integers ----------------------------------------------------------------------------------

constexpr int N = 12;
static const unsigned int U32[N] = {0u, 1u, 2u, 3u, 0x80000000u, 0xffffffffu, 0x12345678u, 0xdeadbeefu,
                                    0x00f0f000u, 7u, 0x7fffffffu, 0x00010000u};
static const unsigned long long U64[N] = {0ull, 1ull, 0x8000000000000000ull, ~0ull, 0x0123456789abcdefull,
                                          0xfedcba9876543210ull, 0xffffull << 40, 3ull, 0x7fffffffffffffffull,
                                          1ull << 32, 0xaaaaaaaaaaaaaaaaull, 42ull};

enum { POPC, POPCLL, CLZ, CLZLL, FFS, FFSLL, BREV, BREVLL, BYTE_PERM, MUL24, UMUL24, MULHI, UMULHI, MUL64HI,
       UMUL64HI, BFE32, BFE64, BFI32, BFI64, FSHL, FSHLC, FSHR, FSHRC, HADD, RHADD, UHADD, URHADD, SAD, USAD,
       INTEGER_OPS };
static const char* INTEGER_NAMES[] = {"__popc", "__popcll", "__clz", "__clzll", "__ffs", "__ffsll", "__brev",
                                      "__brevll", "__byte_perm", "__mul24", "__umul24", "__mulhi", "__umulhi",
                                      "__mul64hi", "__umul64hi", "__bitextract_u32", "__bitextract_u64",
                                      "__bitinsert_u32", "__bitinsert_u64", "__funnelshift_l", "__funnelshift_lc",
                                      "__funnelshift_r", "__funnelshift_rc", "__hadd", "__rhadd", "__uhadd",
                                      "__urhadd", "__sad", "__usad"};

__global__ void integers(unsigned long long* out, const unsigned int* a32, const unsigned long long* a64) {
  int i = threadIdx.x;
  unsigned int x = a32[i], y = a32[(i + 5) % N], s = a32[(i + 3) % N];
  unsigned long long p = a64[i], q = a64[(i + 7) % N];
  unsigned long long* r = out + i * INTEGER_OPS;
  r[POPC] = __popc(x);
  r[POPCLL] = __popcll(p);
  r[CLZ] = __clz(int(x));
  r[CLZLL] = __clzll((long long)p);
  r[FFS] = __ffs(int(x));
  r[FFSLL] = __ffsll((long long)p);
  r[BREV] = __brev(x);
  r[BREVLL] = __brevll(p);
  r[BYTE_PERM] = __byte_perm(x, y, s);
  r[MUL24] = (unsigned int)__mul24(int(x), int(y));
  r[UMUL24] = __umul24(x, y);
  r[MULHI] = (unsigned int)__mulhi(int(x), int(y));
  r[UMULHI] = __umulhi(x, y);
  r[MUL64HI] = (unsigned long long)__mul64hi((long long)p, (long long)q);
  r[UMUL64HI] = __umul64hi(p, q);
  r[BFE32] = __bitextract_u32(x, i * 3, i * 5 + 1);
  r[BFE64] = __bitextract_u64(p, i * 7, i * 9 + 2);
  r[BFI32] = __bitinsert_u32(x, y, i * 3, i * 5 + 1);
  r[BFI64] = __bitinsert_u64(p, q, i * 7, i * 9 + 2);
  r[FSHL] = __funnelshift_l(x, y, i * 5);
  r[FSHLC] = __funnelshift_lc(x, y, i * 5);
  r[FSHR] = __funnelshift_r(x, y, i * 5);
  r[FSHRC] = __funnelshift_rc(x, y, i * 5);
  r[HADD] = (unsigned int)__hadd(int(x), int(y));
  r[RHADD] = (unsigned int)__rhadd(int(x), int(y));
  r[UHADD] = __uhadd(x, y);
  r[URHADD] = __urhadd(x, y);
  r[SAD] = __sad(int(x), int(y), s & 0xffff);
  r[USAD] = __usad(x, y, s & 0xffff);
}

// References written from the definitions, bit by bit where they are about bits.
static unsigned long long bit(unsigned long long v, int b) { return (v >> b) & 1; }
static unsigned long long reverse(unsigned long long v, int bits) {
  unsigned long long r = 0;
  for (int b = 0; b < bits; b++) r |= bit(v, b) << (bits - 1 - b);
  return r;
}
static int leading_zeros(unsigned long long v, int bits) {
  int n = 0;
  while (n < bits && !bit(v, bits - 1 - n)) n++;
  return n;
}
static int first_set(unsigned long long v, int bits) {
  for (int b = 0; b < bits; b++)
    if (bit(v, b)) return b + 1;
  return 0;
}
static unsigned long long extract(unsigned long long v, unsigned offset, unsigned width, int bits) {
  offset %= bits, width %= bits;
  unsigned long long r = 0;
  for (unsigned b = 0; b < width && offset + b < unsigned(bits); b++) r |= bit(v, offset + b) << b;
  return r;
}
static unsigned long long insert(unsigned long long v, unsigned long long in, unsigned offset, unsigned width,
                                 int bits) {
  offset %= bits, width %= bits;
  for (unsigned b = 0; b < width && offset + b < unsigned(bits); b++)
    v = (v & ~(1ull << (offset + b))) | (bit(in, b) << (offset + b));
  return v;
}
static long long signed24(unsigned int v) { return (v & 0x800000) ? (long long)(v & 0xffffff) - 0x1000000 : v & 0xffffff; }

static void integer_reference(int i, unsigned long long* r) {
  unsigned int x = U32[i], y = U32[(i + 5) % N], s = U32[(i + 3) % N];
  unsigned long long p = U64[i], q = U64[(i + 7) % N];
  int popc = 0, popcll = 0;
  for (int b = 0; b < 64; b++) popc += b < 32 && bit(x, b), popcll += bit(p, b);
  r[POPC] = popc;
  r[POPCLL] = popcll;
  r[CLZ] = leading_zeros(x, 32);
  r[CLZLL] = leading_zeros(p, 64);
  r[FFS] = first_set(x, 32);
  r[FFSLL] = first_set(p, 64);
  r[BREV] = reverse(x, 32);
  r[BREVLL] = reverse(p, 64);
  unsigned char bytes[8];
  for (int b = 0; b < 4; b++) bytes[b] = x >> (8 * b), bytes[b + 4] = y >> (8 * b);
  unsigned int perm = 0;
  for (int n = 0; n < 4; n++) perm |= unsigned(bytes[(s >> (4 * n)) & 7]) << (8 * n);
  r[BYTE_PERM] = perm;
  r[MUL24] = (unsigned int)(signed24(x) * signed24(y));
  r[UMUL24] = (unsigned int)((unsigned long long)(x & 0xffffff) * (y & 0xffffff));
  r[MULHI] = (unsigned int)(((long long)(int)x * (int)y) >> 32);
  r[UMULHI] = (unsigned int)(((unsigned long long)x * y) >> 32);
  // 64x64 high halves from 32-bit limbs.
  unsigned long long lo_lo = (p & 0xffffffff) * (q & 0xffffffff), hi_lo = (p >> 32) * (q & 0xffffffff);
  unsigned long long lo_hi = (p & 0xffffffff) * (q >> 32), hi_hi = (p >> 32) * (q >> 32);
  unsigned long long middle = (lo_lo >> 32) + (hi_lo & 0xffffffff) + (lo_hi & 0xffffffff);
  unsigned long long uhigh = hi_hi + (hi_lo >> 32) + (lo_hi >> 32) + (middle >> 32);
  r[UMUL64HI] = uhigh;
  r[MUL64HI] = uhigh - ((long long)p < 0 ? q : 0) - ((long long)q < 0 ? p : 0);
  r[BFE32] = extract(x, i * 3, i * 5 + 1, 32);
  r[BFE64] = extract(p, i * 7, i * 9 + 2, 64);
  r[BFI32] = insert(x, y, i * 3, i * 5 + 1, 32);
  r[BFI64] = insert(p, q, i * 7, i * 9 + 2, 64);
  unsigned long long both = ((unsigned long long)y << 32) | x;
  unsigned shift = i * 5, clamped = shift < 32 ? shift : 32;
  r[FSHL] = (unsigned int)((both << (shift % 32)) >> 32);
  r[FSHLC] = (unsigned int)((both << clamped) >> 32);
  r[FSHR] = (unsigned int)(both >> (shift % 32));
  r[FSHRC] = (unsigned int)(both >> clamped);
  long long sum = (long long)(int)x + (int)y;
  r[HADD] = (unsigned int)(int)(sum >= 0 ? sum / 2 : -((-sum + 1) / 2));
  r[RHADD] = (unsigned int)(int)(sum + 1 >= 0 ? (sum + 1) / 2 : -((-(sum + 1) + 1) / 2));
  r[UHADD] = (unsigned int)(((unsigned long long)x + y) / 2);
  r[URHADD] = (unsigned int)(((unsigned long long)x + y + 1) / 2);
  long long diff = (long long)(int)x - (int)y;
  r[SAD] = (unsigned int)((diff < 0 ? -diff : diff) + (s & 0xffff));
  r[USAD] = (unsigned int)((x > y ? x - y : y - x) + (s & 0xffff));
}

static void test_integers() {
  unsigned int* a32;
  unsigned long long *a64, *out;
  hipMalloc(&a32, sizeof U32);
  hipMalloc(&a64, sizeof U64);
  hipMalloc(&out, N * INTEGER_OPS * sizeof(unsigned long long));
  hipMemcpy(a32, U32, sizeof U32, hipMemcpyHostToDevice);
  hipMemcpy(a64, U64, sizeof U64, hipMemcpyHostToDevice);
  integers<<<1, N>>>(out, a32, a64);
  unsigned long long device[N][INTEGER_OPS], expected[INTEGER_OPS];
  hipMemcpy(device, out, sizeof device, hipMemcpyDeviceToHost);
  for (int i = 0; i < N; i++) {
    integer_reference(i, expected);
    for (int op = 0; op < INTEGER_OPS; op++) check_bits(INTEGER_NAMES[op], i, device[i][op], expected[op]);
  }
  hipFree(a32), hipFree(a64), hipFree(out);
}

// ---- directed rounding ---------------------------------------------------------------------------

constexpr int R = 8;
static const float FA[R] = {1.0f, 0.1f, -0.1f, 3.0f, 1e-3f, -7.25f, 16777217.0f, 2.5f};
static const float FB[R] = {3.0f, 0.7f, 0.3f, -7.0f, 3e7f, 0.3f, 3.0f, -0.3f};
static const double DA[R] = {1.0, 0.1, -0.1, 3.0, 1e-3, -7.25, 9007199254740993.0, 2.5};
static const double DB[R] = {3.0, 0.7, 0.3, -7.0, 3e17, 0.3, 3.0, -0.3};
static const long long LL[R] = {1, -1, 16777217, -16777217, 9007199254740993LL, (1LL << 62) + 1, 123456789,
                                -987654321987654321LL};

// Per input: 16 float ops, 16 double ops (add, sub, mul, div x rd, rn, ru, rz),
// then the conversions.
enum { F_OPS = 16, D_OPS = 16, CONV = 24, ROUNDED = F_OPS + D_OPS + CONV };

__global__ void rounded(double* out, const float* fa, const float* fb, const double* da, const double* db,
                        const long long* ll) {
  int i = threadIdx.x;
  float a = fa[i], b = fb[i];
  double c = da[i], d = db[i];
  long long n = ll[i];
  double* r = out + i * ROUNDED;
  float f[F_OPS] = {__fadd_rd(a, b), __fadd_rn(a, b), __fadd_ru(a, b), __fadd_rz(a, b),
                    __fsub_rd(a, b), __fsub_rn(a, b), __fsub_ru(a, b), __fsub_rz(a, b),
                    __fmul_rd(a, b), __fmul_rn(a, b), __fmul_ru(a, b), __fmul_rz(a, b),
                    __fdiv_rd(a, b), __fdiv_rn(a, b), __fdiv_ru(a, b), __fdiv_rz(a, b)};
  double g[D_OPS] = {__dadd_rd(c, d), __dadd_rn(c, d), __dadd_ru(c, d), __dadd_rz(c, d),
                     __dsub_rd(c, d), __dsub_rn(c, d), __dsub_ru(c, d), __dsub_rz(c, d),
                     __dmul_rd(c, d), __dmul_rn(c, d), __dmul_ru(c, d), __dmul_rz(c, d),
                     __ddiv_rd(c, d), __ddiv_rn(c, d), __ddiv_ru(c, d), __ddiv_rz(c, d)};
  double v[CONV] = {double(__float2int_rd(a * 3.3f)), double(__float2int_rn(a * 3.3f)), double(__float2int_ru(a * 3.3f)),
                    double(__float2int_rz(a * 3.3f)), double(__double2ll_rd(c * 3.3)), double(__double2ll_rn(c * 3.3)),
                    double(__double2ll_ru(c * 3.3)), double(__double2ll_rz(c * 3.3)), __ll2float_rd(n), __ll2float_rn(n),
                    __ll2float_ru(n), __ll2float_rz(n), __ll2double_rd(n), __ll2double_rn(n),
                    __ll2double_ru(n), __ll2double_rz(n), __double2float_rd(c / 3), __double2float_rn(c / 3),
                    __double2float_ru(c / 3), __double2float_rz(c / 3), __int2float_rd(int(n)),
                    __int2float_rn(int(n)), __int2float_ru(int(n)), __int2float_rz(int(n))};
  for (int k = 0; k < F_OPS; k++) r[k] = f[k];
  for (int k = 0; k < D_OPS; k++) r[F_OPS + k] = g[k];
  for (int k = 0; k < CONV; k++) r[F_OPS + D_OPS + k] = v[k];
}

static const int MODES[4] = {FE_DOWNWARD, FE_TONEAREST, FE_UPWARD, FE_TOWARDZERO};

// The host's operation in `mode`; volatile keeps it at run time, after fesetround.
template <typename F> static double in_mode(int mode, F compute) {
  fesetround(mode);
  double r = compute();
  fesetround(FE_TONEAREST);
  return r;
}

static void rounded_reference(int i, double* r) {
  volatile float a = FA[i], b = FB[i];
  volatile double c = DA[i], d = DB[i];
  volatile long long n = LL[i];
  for (int m = 0; m < 4; m++) {
    int mode = MODES[m];
    r[0 + m] = in_mode(mode, [&] { return float(a + b); });
    r[4 + m] = in_mode(mode, [&] { return float(a - b); });
    r[8 + m] = in_mode(mode, [&] { return float(a * b); });
    r[12 + m] = in_mode(mode, [&] { return float(a / b); });
    r[F_OPS + 0 + m] = in_mode(mode, [&] { return double(c + d); });
    r[F_OPS + 4 + m] = in_mode(mode, [&] { return double(c - d); });
    r[F_OPS + 8 + m] = in_mode(mode, [&] { return double(c * d); });
    r[F_OPS + 12 + m] = in_mode(mode, [&] { return double(c / d); });
    float scaled = a * 3.3f;
    double scaled_d = c * 3.3, third = c / 3;
    double* v = r + F_OPS + D_OPS;
    v[0 + m] = in_mode(mode, [&] { return double(int(std::nearbyint(scaled))); });
    v[4 + m] = in_mode(mode, [&] { return double((long long)std::nearbyint(scaled_d)); });
    v[8 + m] = in_mode(mode, [&] { return double(float(n)); });
    v[12 + m] = in_mode(mode, [&] { return double(double(n)); });
    v[16 + m] = in_mode(mode, [&] { return double(float(third)); });
    v[20 + m] = in_mode(mode, [&] { return double(float(int(n))); });
  }
}

static const char* ROUNDED_NAMES[] = {"__fadd", "__fsub", "__fmul", "__fdiv", "__dadd", "__dsub", "__dmul",
                                      "__ddiv", "__float2int", "__double2ll", "__ll2float", "__ll2double",
                                      "__double2float", "__int2float"};

static void test_rounding() {
  float *fa, *fb;
  double *da, *db, *out;
  long long* ll;
  hipMalloc(&fa, sizeof FA), hipMalloc(&fb, sizeof FB), hipMalloc(&da, sizeof DA), hipMalloc(&db, sizeof DB);
  hipMalloc(&ll, sizeof LL), hipMalloc(&out, R * ROUNDED * sizeof(double));
  hipMemcpy(fa, FA, sizeof FA, hipMemcpyHostToDevice), hipMemcpy(fb, FB, sizeof FB, hipMemcpyHostToDevice);
  hipMemcpy(da, DA, sizeof DA, hipMemcpyHostToDevice), hipMemcpy(db, DB, sizeof DB, hipMemcpyHostToDevice);
  hipMemcpy(ll, LL, sizeof LL, hipMemcpyHostToDevice);
  rounded<<<1, R>>>(out, fa, fb, da, db, ll);
  double device[R][ROUNDED], expected[ROUNDED];
  hipMemcpy(device, out, sizeof device, hipMemcpyDeviceToHost);
  for (int i = 0; i < R; i++) {
    rounded_reference(i, expected);
    for (int k = 0; k < ROUNDED; k++) {
      char name[64];
      snprintf(name, sizeof name, "%s_%s", ROUNDED_NAMES[k / 4], (const char*[]){"rd", "rn", "ru", "rz"}[k % 4]);
      check(device[i][k] == expected[k], name, i, device[i][k], expected[k]);
    }
  }
  hipFree(fa), hipFree(fb), hipFree(da), hipFree(db), hipFree(ll), hipFree(out);
}

// ---- reinterpretations, fast and special math --------------------------------------------------

enum { AS_FLOAT, AS_INT, HI, LO, HILO, EXPF, LOGF, SINF, COSF, POWF, FDIVIDEF, SATURATE, ERFINV, ERFCINV,
       NCDFINV, I0, I1, J0, MATH_OPS };
static const char* MATH_NAMES[] = {"__int_as_float", "__float_as_int", "__double2hiint", "__double2loint",
                                   "__hiloint2double", "__expf", "__logf", "__sinf", "__cosf", "__powf",
                                   "__fdividef", "__saturatef", "erfinvf", "erfcinv", "normcdfinv",
                                   "cyl_bessel_i0f", "cyl_bessel_i1", "j0f"};

__global__ void math(double* out, const float* xs, const double* ds) {
  int i = threadIdx.x;
  float x = xs[i];
  double d = ds[i];
  double* r = out + i * MATH_OPS;
  r[AS_FLOAT] = __int_as_float(0x3f800000 + i);
  r[AS_INT] = __float_as_int(x);
  r[HI] = __double2hiint(d);
  r[LO] = __double2loint(d);
  r[HILO] = __hiloint2double(__double2hiint(d), __double2loint(d));
  r[EXPF] = __expf(x);
  r[LOGF] = __logf(x + 2);
  r[SINF] = __sinf(x);
  r[COSF] = __cosf(x);
  r[POWF] = __powf(x + 2, 1.5f);
  r[FDIVIDEF] = __fdividef(x, 3.0f);
  r[SATURATE] = __saturatef(x);
  r[ERFINV] = erff(erfinvf(x / 4));  // round trips back to the argument
  r[ERFCINV] = erfc(erfcinv(1 + d / 8));
  r[NCDFINV] = normcdf(normcdfinv(0.5 + d / 8));
  r[I0] = cyl_bessel_i0f(x);
  r[I1] = cyl_bessel_i1(d);
  r[J0] = j0f(x);
}

// I_n(x) = sum_k (x/2)^(2k+n) / (k! (k+n)!), summed until it no longer changes.
static double bessel_i(int n, double x) {
  double term = std::pow(x / 2, n), sum = 0;
  for (int k = 1; k <= n; k++) term /= k;
  for (int k = 0; sum + term != sum; k++) {
    sum += term;
    term *= (x / 2) * (x / 2) / ((k + 1) * (k + 1 + n));
  }
  return sum;
}

static void test_math() {
  constexpr int M = 8;
  const float xs[M] = {0.0f, 0.5f, -0.75f, 1.25f, 2.0f, -1.5f, 0.001f, 3.9f};
  const double ds[M] = {0.0, 1.5, -2.25, 3.75e-300, 6.5, -7.875, 1e300, 0.125};
  float* dx;
  double *dd, *out;
  hipMalloc(&dx, sizeof xs), hipMalloc(&dd, sizeof ds), hipMalloc(&out, M * MATH_OPS * sizeof(double));
  hipMemcpy(dx, xs, sizeof xs, hipMemcpyHostToDevice), hipMemcpy(dd, ds, sizeof ds, hipMemcpyHostToDevice);
  math<<<1, M>>>(out, dx, dd);
  double device[M][MATH_OPS];
  hipMemcpy(device, out, sizeof device, hipMemcpyDeviceToHost);
  for (int i = 0; i < M; i++) {
    float x = xs[i];
    double d = ds[i];
    uint64_t bits;
    memcpy(&bits, &d, 8);
    int as_int;
    memcpy(&as_int, &x, 4);
    uint32_t one_plus = 0x3f800000 + i;
    float as_float;
    memcpy(&as_float, &one_plus, 4);
    // Exact: reinterpretations.  Within 1e-6 relative (float), 1e-12
    // (double): the fast functions and the inverse round trips.
    double exact[] = {as_float, double(as_int), double(int32_t(bits >> 32)), double(int32_t(bits)), d};
    double approx[] = {std::exp(x), std::log(x + 2), std::sin(x), std::cos(x), std::pow(x + 2.0, 1.5), x / 3.0,
                       x < 0 ? 0.0 : x > 1 ? 1.0 : x, x / 4.0, 1 + d / 8, 0.5 + d / 8, bessel_i(0, x),
                       bessel_i(1, d), ::j0(x)};
    for (int k = 0; k < MATH_OPS; k++) {
      if (k < EXPF) {
        check(device[i][k] == exact[k], MATH_NAMES[k], i, device[i][k], exact[k]);
        continue;
      }
      bool in_double = k == ERFCINV || k == NCDFINV || k == I1;
      if (k == ERFCINV && std::fabs(d / 8) >= 1) continue;  // outside the domain
      if (k == NCDFINV && std::fabs(d / 8) >= 0.5) continue;
      if (k == I1 && std::fabs(d) > 700) continue;                           // overflows
      double want = approx[k - EXPF], tolerance = (in_double ? 1e-12 : 1e-6) * std::fmax(std::fabs(want), 1e-30);
      check(std::fabs(device[i][k] - want) <= tolerance, MATH_NAMES[k], i, device[i][k], want);
    }
  }
  hipFree(dx), hipFree(dd), hipFree(out);
}

// ---- atomics -----------------------------------------------------------------------------------

struct Counters {
  int i_add, i_sub, i_min, i_max;
  unsigned int u_add, u_and, u_or, u_xor, inc, dec, cas;
  unsigned long long ull_add, ull_max, ull_or;
  long long ll_add, ll_min;
  float f_add, f_sys, f_block, f_unsafe;
  double d_add, d_sys, d_min, d_safe;
  int exch_seen;
};

constexpr int BLOCKS = 16, THREADS = 64, LANES = BLOCKS * THREADS;

__global__ void atomics(Counters* c) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&c->i_add, t);
  atomicSub(&c->i_sub, t);
  atomicMin(&c->i_min, 1000 - t);
  atomicMax_system(&c->i_max, t);
  atomicAdd_block(&c->u_add, 3u);
  atomicAnd(&c->u_and, ~(1u << (t % 32)));
  atomicOr_system(&c->u_or, 1u << (t % 31));
  atomicXor(&c->u_xor, unsigned(t));
  atomicInc(&c->inc, 99u);
  atomicDec_system(&c->dec, 10u);
  unsigned int seen = c->cas;
  while (atomicCAS(&c->cas, seen, seen + 2) != seen) seen = c->cas;
  atomicAdd(&c->ull_add, 1ull << 33);
  atomicMax(&c->ull_max, (unsigned long long)t << 40);
  atomicOr_block(&c->ull_or, 1ull << (t % 64));
  atomicAdd(&c->ll_add, -(1LL << 34));
  atomicMin_system(&c->ll_min, -(long long)t * 1000000000000LL);
  atomicAdd(&c->f_add, 0.5f);
  atomicAdd_system(&c->f_sys, 1.0f);
  atomicAdd_block(&c->f_block, 2.0f);
  unsafeAtomicAdd(&c->f_unsafe, 0.25f);
  atomicAdd(&c->d_add, 0.125);
  atomicSub_system(&c->d_sys, 1.0);
  atomicMin(&c->d_min, -0.5 * t);
  safeAtomicAdd(&c->d_safe, 4.0);
  atomicExch(&c->exch_seen, t);
}

static void test_atomics() {
  Counters start = {};
  start.i_min = 1 << 30;
  start.u_and = ~0u;
  start.ll_min = 0;
  Counters* device;
  hipMalloc(&device, sizeof start);
  hipMemcpy(device, &start, sizeof start, hipMemcpyHostToDevice);
  atomics<<<BLOCKS, THREADS>>>(device);
  Counters c;
  hipMemcpy(&c, device, sizeof c, hipMemcpyDeviceToHost);
  long long sum = (long long)LANES * (LANES - 1) / 2;
  unsigned int x = 0, inc = 0, dec = 0;
  for (int t = 0; t < LANES; t++) x ^= t, inc = inc >= 99 ? 0 : inc + 1, dec = dec == 0 || dec > 10 ? 10 : dec - 1;
  struct { const char* name; double device, expected; } results[] = {
      {"atomicAdd(int)", double(c.i_add), double(int(sum))},
      {"atomicSub(int)", double(c.i_sub), double(int(-sum))},
      {"atomicMin(int)", double(c.i_min), 1000.0 - (LANES - 1)},
      {"atomicMax_system(int)", double(c.i_max), LANES - 1.0},
      {"atomicAdd_block(unsigned)", double(c.u_add), 3.0 * LANES},
      {"atomicAnd(unsigned)", double(c.u_and), 0.0},
      {"atomicOr_system(unsigned)", double(c.u_or), double(0x7fffffffu)},
      {"atomicXor(unsigned)", double(c.u_xor), double(x)},
      {"atomicInc", double(c.inc), double(inc)},
      {"atomicDec_system", double(c.dec), double(dec)},
      {"atomicCAS(unsigned)", double(c.cas), 2.0 * LANES},
      {"atomicAdd(unsigned long long)", double(c.ull_add), double(LANES * (1ull << 33))},
      {"atomicMax(unsigned long long)", double(c.ull_max), double((unsigned long long)(LANES - 1) << 40)},
      {"atomicOr_block(unsigned long long)", double(c.ull_or), double(~0ull)},
      {"atomicAdd(long long)", double(c.ll_add), double(-(long long)LANES * (1LL << 34))},
      {"atomicMin_system(long long)", double(c.ll_min), double(-(LANES - 1) * 1000000000000LL)},
      {"atomicAdd(float)", c.f_add, 0.5 * LANES},
      {"atomicAdd_system(float)", c.f_sys, 1.0 * LANES},
      {"atomicAdd_block(float)", c.f_block, 2.0 * LANES},
      {"unsafeAtomicAdd(float)", c.f_unsafe, 0.25 * LANES},
      {"atomicAdd(double)", c.d_add, 0.125 * LANES},
      {"atomicSub_system(double)", c.d_sys, -1.0 * LANES},
      {"atomicMin(double)", c.d_min, -0.5 * (LANES - 1)},
      {"safeAtomicAdd(double)", c.d_safe, 4.0 * LANES},
  };
  for (auto& r : results) check(r.device == r.expected, r.name, 0, r.device, r.expected);
  check(c.exch_seen >= 0 && c.exch_seen < LANES, "atomicExch(int)", 0, c.exch_seen, 0);
  hipFree(device);
}

// ---- clocks ------------------------------------------------------------------------------------

__global__ void clocks(long long* out) {
  out[0] = clock64();
  out[1] = wall_clock64();
  out[2] = clock();
}

static void test_clocks() {
  long long *device, before[3], after[3];
  hipMalloc(&device, sizeof before);
  auto start = std::chrono::steady_clock::now();
  clocks<<<1, 1>>>(device);
  hipMemcpy(before, device, sizeof before, hipMemcpyDeviceToHost);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  clocks<<<1, 1>>>(device);
  hipMemcpy(after, device, sizeof after, hipMemcpyDeviceToHost);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  // Rates in ticks per second; the host's interval encloses the device's, so
  // the device's may only be shorter, by the launches around it (under 10%).
  double clock_rate = (after[0] - before[0]) / seconds, wall_rate = (after[1] - before[1]) / seconds;
  check(clock_rate > 0.9e9 && clock_rate <= 1e9, "clock64 rate (1 GHz)", 0, clock_rate, 1e9);
  check(wall_rate > 0.9e8 && wall_rate <= 1e8, "wall_clock64 rate (100 MHz)", 0, wall_rate, 1e8);
  check(after[2] > before[2], "clock increases", 0, double(after[2]), double(before[2]));
  hipFree(device);
}

int main() {
  test_integers();
  test_rounding();
  test_math();
  test_atomics();
  test_clocks();
  printf("CHECKS %d failed %d\n", checks, failed);
  return failed != 0;
}
