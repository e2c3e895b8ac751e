// Kernel parameters of every shape the System V ABI distinguishes: each
// kernel writes back what it received, and the host compares it with what it
// passed.  Narrow signed integers (extension), integer and SSE registers run
// out (the rest on the stack, 8- or 16-byte aligned), by-value structs split
// across integer and SSE registers, structs passed in memory, an aggregate
// that no longer fits in the registers left (on the stack, while later
// arguments still take registers), long double, __int128.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

struct Echo {
  long long i[24];
  double d[24];
  long double ld[2];
  __int128 wide[2];
};

struct IntFloat { int a; float b; };             // one INTEGER eightbyte
struct Floats2 { float x, y; };                  // one SSE eightbyte
struct Floats3 { float x, y, z; };               // SSE, SSE
struct FloatsInt { float a, b; int c; };         // SSE, INTEGER
struct DoubleInt { double d; int i; };           // SSE, INTEGER
struct IntDouble { int i; double d; };           // INTEGER, SSE
struct Doubles2 { double x, y; };                // SSE, SSE
struct Longs2 { long long a, b; };               // INTEGER, INTEGER
struct Chars3 { char a, b, c; };                 // INTEGER, 3 bytes
struct Big { double a; long long b; int c; char d; };  // 24 bytes: memory
struct Huge { int v[40]; };                      // 160 bytes: memory

__global__ void integers(Echo* e, char c, signed char sc, unsigned char uc, short s, unsigned short us, int i,
                         unsigned u, long long ll, unsigned long long ull, bool t, bool f, short s2, char c2) {
  long long v[] = {c, sc, uc, s, us, i, u, ll, (long long)ull, t, f, s2, c2};
  for (int k = 0; k < 13; k++) e->i[k] = v[k];
}

__global__ void floats(Echo* e, float f0, double d1, float f2, double d3, float f4, double d5, float f6, double d7,
                       float f8, double d9, float f10, int after) {
  double v[] = {f0, d1, f2, d3, f4, d5, f6, d7, f8, d9, f10};
  for (int k = 0; k < 11; k++) e->d[k] = v[k];
  e->i[0] = after;
}

__global__ void small_structs(Echo* e, IntFloat a, Floats2 b, Floats3 c, FloatsInt d, Chars3 g) {
  e->i[0] = a.a;
  e->d[0] = a.b;
  e->d[1] = b.x;
  e->d[2] = b.y;
  e->d[3] = c.x;
  e->d[4] = c.y;
  e->d[5] = c.z;
  e->d[6] = d.a;
  e->d[7] = d.b;
  e->i[1] = d.c;
  e->i[2] = g.a;
  e->i[3] = g.b;
  e->i[4] = g.c;
}

__global__ void mixed_structs(Echo* e, DoubleInt a, IntDouble b, Doubles2 c, Longs2 d, float tail) {
  e->d[0] = a.d;
  e->i[0] = a.i;
  e->i[1] = b.i;
  e->d[1] = b.d;
  e->d[2] = c.x;
  e->d[3] = c.y;
  e->i[2] = d.a;
  e->i[3] = d.b;
  e->d[4] = tail;
}

// Longs2 needs two integer registers when only r9 is left: it goes on the
// stack, and the int after it still takes r9.
__global__ void gpr_overflow(Echo* e, int a1, int a2, int a3, int a4, Longs2 pair, int a5, int a6, Longs2 last) {
  long long v[] = {a1, a2, a3, a4, pair.a, pair.b, a5, a6, last.a, last.b};
  for (int k = 0; k < 10; k++) e->i[k] = v[k];
}

// Doubles2 needs two SSE registers when only xmm7 is left: on the stack, and
// the float after it takes xmm7.
__global__ void sse_overflow(Echo* e, double d0, double d1, double d2, double d3, double d4, double d5, double d6,
                             Doubles2 pair, float f7, Doubles2 last, float f8) {
  double v[] = {d0, d1, d2, d3, d4, d5, d6, pair.x, pair.y, f7, last.x, last.y, f8};
  for (int k = 0; k < 13; k++) e->d[k] = v[k];
}

__global__ void in_memory(Echo* e, Big big, int i, Huge huge, char c, Big again) {
  e->d[0] = big.a;
  e->i[0] = big.b;
  e->i[1] = big.c;
  e->i[2] = big.d;
  e->i[3] = i;
  long long sum = 0;
  for (int k = 0; k < 40; k++) sum += (long long)huge.v[k] * (k + 1);
  e->i[4] = sum;
  e->i[5] = c;
  e->d[1] = again.a;
  e->i[6] = again.b;
  e->i[7] = again.c;
  e->i[8] = again.d;
}

__global__ void wide(Echo* e, long double x, int a, __int128 w, long long b, long long c, long long d, __int128 w2,
                     char tail, long double y) {
  e->ld[0] = x;
  e->ld[1] = y;
  e->wide[0] = w;
  e->wide[1] = w2;
  e->i[0] = a;
  e->i[1] = b;
  e->i[2] = c;
  e->i[3] = d;
  e->i[4] = tail;
}

__global__ void dims(Echo* e, dim3 size, unsigned char tag, dim3 more) {
  long long v[] = {size.x, size.y, size.z, tag, more.x, more.y, more.z};
  for (int k = 0; k < 7; k++) e->i[k] = v[k];
  // every lane of the block sees the same arguments
  if (threadIdx.x == blockDim.x - 1) e->i[7] = size.x + more.z + threadIdx.x;
}

static int failures = 0;
static Echo* device_echo;

static Echo run_kernel(void (*launch)()) {
  hipMemset(device_echo, 0, sizeof(Echo));
  launch();
  Echo echo;
  hipMemcpy(&echo, device_echo, sizeof echo, hipMemcpyDeviceToHost);
  return echo;
}

static void expect_ints(const char* name, const long long* got, const long long* want, int count) {
  for (int k = 0; k < count; k++)
    if (got[k] != want[k]) {
      printf("%s: integer %d is %lld, expected %lld\n", name, k, got[k], want[k]);
      failures++;
    }
}

static void expect_doubles(const char* name, const double* got, const double* want, int count) {
  for (int k = 0; k < count; k++)
    if (got[k] != want[k]) {
      printf("%s: value %d is %.17g, expected %.17g\n", name, k, got[k], want[k]);
      failures++;
    }
}

int main() {
  hipMalloc(&device_echo, sizeof(Echo));
  {
    Echo e = run_kernel([] {
      integers<<<1, 1>>>(device_echo, -5, -128, 200, -30000, 60000, -2000000000, 4000000000u, -9000000000000000000ll,
                         18000000000000000000ull, true, false, -1, -7);
    });
    long long want[] = {-5, -128, 200, -30000, 60000, -2000000000, 4000000000ll, -9000000000000000000ll,
                        (long long)18000000000000000000ull, 1, 0, -1, -7};
    expect_ints("integers", e.i, want, 13);
  }
  {
    Echo e = run_kernel([] {
      floats<<<1, 1>>>(device_echo, 0.5f, 1.25, -2.5f, 3.125, 4.75f, -5.5, 6.25f, 7.0625, 8.5f, -9.75, 10.5f, -11);
    });
    double want[] = {0.5, 1.25, -2.5, 3.125, 4.75, -5.5, 6.25, 7.0625, 8.5, -9.75, 10.5};
    expect_doubles("floats", e.d, want, 11);
    long long after[] = {-11};
    expect_ints("floats", e.i, after, 1);
  }
  {
    Echo e = run_kernel([] {
      small_structs<<<1, 1>>>(device_echo, IntFloat{-3, 1.5f}, Floats2{2.5f, -3.5f}, Floats3{4.5f, 5.5f, -6.5f},
                              FloatsInt{7.5f, 8.5f, -9}, Chars3{-1, 2, -3});
    });
    long long ints[] = {-3, -9, -1, 2, -3};
    double reals[] = {1.5, 2.5, -3.5, 4.5, 5.5, -6.5, 7.5, 8.5};
    expect_ints("small_structs", e.i, ints, 5);
    expect_doubles("small_structs", e.d, reals, 8);
  }
  {
    Echo e = run_kernel([] {
      mixed_structs<<<1, 1>>>(device_echo, DoubleInt{1.25, -7}, IntDouble{8, -2.75}, Doubles2{3.5, -4.5},
                              Longs2{-(1ll << 40), 1ll << 50}, 0.125f);
    });
    long long ints[] = {-7, 8, -(1ll << 40), 1ll << 50};
    double reals[] = {1.25, -2.75, 3.5, -4.5, 0.125};
    expect_ints("mixed_structs", e.i, ints, 4);
    expect_doubles("mixed_structs", e.d, reals, 5);
  }
  {
    Echo e = run_kernel([] {
      gpr_overflow<<<1, 1>>>(device_echo, 1, -2, 3, -4, Longs2{5, -6}, 7, -8, Longs2{1ll << 60, -9});
    });
    long long want[] = {1, -2, 3, -4, 5, -6, 7, -8, 1ll << 60, -9};
    expect_ints("gpr_overflow", e.i, want, 10);
  }
  {
    Echo e = run_kernel([] {
      sse_overflow<<<1, 1>>>(device_echo, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, Doubles2{7.5, 8.5}, 9.5f,
                             Doubles2{10.5, 11.5}, 12.5f);
    });
    double want[] = {0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6.5, 7.5, 8.5, 9.5, 10.5, 11.5, 12.5};
    expect_doubles("sse_overflow", e.d, want, 13);
  }
  {
    static Huge huge;
    for (int k = 0; k < 40; k++) huge.v[k] = k * k - 100;
    Echo e = run_kernel([] {
      in_memory<<<1, 1>>>(device_echo, Big{1.75, -(1ll << 45), -12, 'q'}, 99, huge, -2, Big{-0.25, 77, 13, -4});
    });
    long long sum = 0;
    for (int k = 0; k < 40; k++) sum += (long long)huge.v[k] * (k + 1);
    long long ints[] = {-(1ll << 45), -12, 'q', 99, sum, -2, 77, 13, -4};
    double reals[] = {1.75, -0.25};
    expect_ints("in_memory", e.i, ints, 9);
    expect_doubles("in_memory", e.d, reals, 2);
  }
  {
    Echo e = run_kernel([] {
      wide<<<1, 1>>>(device_echo, 1.0L / 3, -5, -((__int128)3 << 100), 6, -7, 8, ((__int128)1 << 90) + 12345, -9,
                     -2.0L / 7);
    });
    long long ints[] = {-5, 6, -7, 8, -9};
    expect_ints("wide", e.i, ints, 5);
    if (e.ld[0] != 1.0L / 3 || e.ld[1] != -2.0L / 7) {
      printf("wide: long doubles are %.21Lg and %.21Lg\n", e.ld[0], e.ld[1]);
      failures++;
    }
    if (e.wide[0] != -((__int128)3 << 100) || e.wide[1] != ((__int128)1 << 90) + 12345) {
      printf("wide: __int128 values differ\n");
      failures++;
    }
  }
  {
    Echo e = run_kernel([] { dims<<<1, 33>>>(device_echo, dim3(3, 4, 5), 250, dim3(6, 7, 8)); });
    long long want[] = {3, 4, 5, 250, 6, 7, 8, 3 + 8 + 32};
    expect_ints("dims", e.i, want, 8);
  }
  printf("signatures: %d wrong\n", failures);
  return failures == 0 ? 0 : 1;
}
