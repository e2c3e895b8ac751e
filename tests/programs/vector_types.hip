// HIP's vector types on the simulated device against the same arithmetic
// done component by component on scalars by the host, exactly; their sizes
// and alignments (checked by every compile, AMDGPU included); and the
// language surface: hipLaunchKernelGGL with a template kernel, with and
// without HIP_KERNEL_NAME, the hipThreadIdx_x family, HIP_DYNAMIC_SHARED,
// __launch_bounds__ with one and two arguments, and memset, memcpy and
// strlen from hip_runtime.h alone.  Prints "FAIL ..." lines and a summary.
#include <hip/hip_runtime.h>

static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4");
static_assert(sizeof(float3) == 12 && alignof(float3) == 4, "float3");
static_assert(sizeof(float2) == 8 && alignof(float2) == 8, "float2");
static_assert(sizeof(float1) == 4 && alignof(float1) == 4, "float1");
static_assert(sizeof(double2) == 16 && alignof(double2) == 16, "double2");
static_assert(sizeof(double3) == 24 && alignof(double3) == 8, "double3");
static_assert(sizeof(double4) == 32 && alignof(double4) == 32, "double4");
static_assert(sizeof(char4) == 4 && alignof(char4) == 4, "char4");
static_assert(sizeof(uchar3) == 3 && alignof(uchar3) == 1, "uchar3");
static_assert(sizeof(short2) == 4 && alignof(short2) == 4, "short2");
static_assert(sizeof(ushort4) == 8 && alignof(ushort4) == 8, "ushort4");
static_assert(sizeof(int3) == 12 && alignof(int3) == 4, "int3");
static_assert(sizeof(uint4) == 16 && alignof(uint4) == 16, "uint4");
static_assert(sizeof(long2) == 16 && alignof(long2) == 16, "long2");
static_assert(sizeof(ulonglong4) == 32 && alignof(ulonglong4) == 32, "ulonglong4");
static_assert(sizeof(longlong1) == 8 && alignof(longlong1) == 8, "longlong1");

static int checks, failed;
static void check(bool ok, const char* what, long long device, long long expected) {
  checks++;
  if (!ok) {
    failed++;
    printf("FAIL %s: device %lld expected %lld\n", what, device, expected);
  }
}

// Every operator on a and b; results as numbers (comparisons as 0 or 1).
template <typename V> __host__ __device__ void exercise(V a, V b, V* out) {
  out[0] = a + b;
  out[1] = a - b;
  out[2] = a * b;
  out[3] = a / b;
  out[4] = a * 3;
  out[5] = 2 + a;
  out[6] = -a;
  V c = a;
  c += b, c -= 1, c *= b, c /= 2;
  out[7] = c;
  c = a;
  out[8] = c++;
  out[9] = ++c;
  --c, c--;
  out[10] = c;
  c.x = 9;  // components are lvalues
  out[11] = c;
  out[12] = V(a == a) + V(a != b) * 2 + V(a == b) * 4 + V(a != a) * 8;
}
template <typename V> __host__ __device__ void exercise_integers(V a, V b, V* out) {
  out[0] = a % b;
  out[1] = a ^ b;
  out[2] = a | b;
  out[3] = a & b;
  out[4] = a << 1;
  out[5] = a >> 1;
  out[6] = ~a;
  V c = a;
  c %= b, c <<= 2, c |= 1, c &= b, c ^= 5, c >>= 1;
  out[7] = c;
}
constexpr int OPS = 13, INTEGER_OPS = 8;

// The operands come through memory: vectors aligned to 32 bytes (double4,
// longlong4) cannot be kernel arguments on the simulated device.
template <typename V> __global__ void run_ops(const V* in, V* out) {
  exercise(in[0], in[1], out);
  if constexpr (std::is_integral<typename V::value_type>::value) exercise_integers(in[0], in[1], out + OPS);
}

// The same arithmetic on the scalar components, one at a time.
template <typename T> void scalar_ops(T a, T b, long double* out) {
  T r[OPS + INTEGER_OPS] = {};
  r[0] = a + b, r[1] = a - b, r[2] = a * b, r[3] = a / b, r[4] = a * T(3), r[5] = T(2) + a, r[6] = T(-a);
  T c = a;
  c = T(c + b), c = T(c - 1), c = T(c * b), c = T(c / 2);
  r[7] = c;
  c = a;
  r[8] = c, c = T(c + 1), c = T(c + 1), r[9] = c, c = T(c - 1), c = T(c - 1), r[10] = c, r[11] = 9;
  if constexpr (std::is_integral<T>::value) {
    T* s = r + OPS;
    s[0] = T(a % b), s[1] = T(a ^ b), s[2] = T(a | b), s[3] = T(a & b), s[4] = T(a << 1), s[5] = T(a >> 1);
    s[6] = T(~a);
    c = T(a % b), c = T(c << 2), c = T(c | 1), c = T(c & b), c = T(c ^ 5), c = T(c >> 1);
    s[7] = c;
  }
  for (int k = 0; k < OPS + INTEGER_OPS; k++) out[k] = r[k];
}

// Component i, read through the named members.
template <typename T, typename V> T component(const V& v, int i) {
  if constexpr (V::rank > 3) if (i == 3) return v.w;
  if constexpr (V::rank > 2) if (i == 2) return v.z;
  if constexpr (V::rank > 1) if (i == 1) return v.y;
  return v.x;
}

template <typename V> void test(const char* name, V a, V b) {
  using T = typename V::value_type;
  constexpr int n = V::rank, total = OPS + INTEGER_OPS;
  V *device, operands[2] = {a, b};
  hipMalloc(&device, (total + 2) * sizeof(V));
  hipMemset(device, 0, total * sizeof(V));
  hipMemcpy(device + total, operands, sizeof operands, hipMemcpyHostToDevice);
  run_ops<<<1, 1>>>(device + total, device);
  V results[total];
  hipMemcpy(results, device, sizeof results, hipMemcpyDeviceToHost);
  hipFree(device);
  int ops = std::is_integral<T>::value ? total : OPS;
  for (int i = 0; i < n; i++) {
    long double expected[total];
    scalar_ops<T>(component<T>(a, i), component<T>(b, i), expected);
    // Comparisons: a == a, a != b (b differs in every component), not a == b, not a != a.
    expected[12] = 1 + 2;
    if (i > 0) expected[11] = expected[10];  // only .x was assigned
    for (int k = 0; k < ops; k++) {
      char what[64];
      snprintf(what, sizeof what, "%s op %d component %d", name, k, i);
      T device_value = component<T>(results[k], i);
      check(device_value == T(expected[k]), what, (long long)device_value, (long long)T(expected[k]));
    }
  }
}

// ---- language surface --------------------------------------------------------------------------

template <typename T, int Scale> __global__ void __launch_bounds__(256) scale(T* out, T value) {
  out[hipBlockIdx_x * hipBlockDim_x + hipThreadIdx_x] = value * Scale + T(hipGridDim_x);
}

// A kernel template whose arguments are deduced from the launch's, which
// convert as in a call (int* to const int*).
template <typename T> __global__ void add_to(const T* in, T* out, T value) {
  out[hipThreadIdx_x] = in[hipThreadIdx_x] + value;
}

__global__ void __launch_bounds__(128, 2) reverse_block(int* out) {
  HIP_DYNAMIC_SHARED(int, tile)
  unsigned t = hipThreadIdx_x;
  tile[t] = int(t + hipThreadIdx_y + hipThreadIdx_z + hipBlockIdx_y + hipBlockIdx_z + hipGridDim_y - 1);
  __syncthreads();
  out[t] = tile[hipBlockDim_x - 1 - t] + int(hipBlockDim_y + hipBlockDim_z + hipGridDim_z) - 3;
}

static void test_language() {
  int* out;
  hipMalloc(&out, 256 * sizeof(int));
  int host[256];
  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<int, 3>), dim3(2), dim3(64), 0, 0, out, 5);
  hipMemcpy(host, out, 128 * sizeof(int), hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < 128; i++) wrong += host[i] != 5 * 3 + 2;
  check(wrong == 0, "hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<int, 3>))", wrong, 0);

  hipLaunchKernelGGL(add_to, dim3(1), dim3(64), 0, 0, out, out + 64, 10);
  hipMemcpy(host, out, 128 * sizeof(int), hipMemcpyDeviceToHost);
  wrong = 0;
  for (int i = 64; i < 128; i++) wrong += host[i] != 5 * 3 + 2 + 10;
  check(wrong == 0, "hipLaunchKernelGGL(add_to) converts its arguments", wrong, 0);

  hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<int, 7>), 4, 32, 0, nullptr, out, 2.9);  // converted to int
  hipMemcpy(host, out, 128 * sizeof(int), hipMemcpyDeviceToHost);
  wrong = 0;
  for (int i = 0; i < 128; i++) wrong += host[i] != 2 * 7 + 4;
  check(wrong == 0, "hipLaunchKernelGGL(HIP_KERNEL_NAME(scale<int, 7>))", wrong, 0);

  hipLaunchKernelGGL(reverse_block, dim3(1), dim3(100), 100 * sizeof(int), 0, out);
  hipMemcpy(host, out, 100 * sizeof(int), hipMemcpyDeviceToHost);
  wrong = 0;
  for (int i = 0; i < 100; i++) wrong += host[i] != 99 - i;
  check(wrong == 0, "HIP_DYNAMIC_SHARED and hipThreadIdx_x", wrong, 0);
  hipFree(out);

  // The C library through hip_runtime.h alone.
  char text[16];
  memset(text, 'a', sizeof text);
  memcpy(text + 3, "\0", 1);
  check(strlen(text) == 3, "memset, memcpy, strlen", (long long)strlen(text), 3);
  check(fabs(sqrt(16.0) - 4.0) == 0, "sqrt, fabs", 0, 0);
}

int main() {
  test("char4", make_char4(7, -8, 9, 100), make_char4(2, 3, -4, 5));
  test("uchar3", make_uchar3(7, 200, 9), make_uchar3(2, 3, 4));
  test("short2", make_short2(-300, 1200), make_short2(7, -9));
  test("ushort4", make_ushort4(1, 60000, 3, 4), make_ushort4(2, 3, 4, 5));
  test("int1", make_int1(-17), make_int1(5));
  test("int3", make_int3(1000, -2000, 3), make_int3(7, 11, -13));
  test("uint4", make_uint4(1, 2, 3, 0x80000000u), make_uint4(3, 5, 7, 9));
  test("long2", make_long2(-(1L << 40), 12345), make_long2(3, -7));
  test("ulong3", make_ulong3(1ul << 63, 5, 6), make_ulong3(3, 2, 1));
  test("longlong4", make_longlong4(1LL << 50, -5, 6, 7), make_longlong4(-3, 2, 9, 8));
  test("ulonglong2", make_ulonglong2(~0ull, 8), make_ulonglong2(2, 3));
  test("float4", make_float4(1.5f, -2.25f, 3e10f, 0.1f), make_float4(0.5f, 4.0f, -3.0f, 0.3f));
  test("float3", make_float3(1.0f, 2.0f, 3.0f), make_float3(3.0f, -7.0f, 0.1f));
  test("float2", make_float2(5.5f, -0.0f), make_float2(2.0f, 1.0f));
  test("double4", make_double4(1.0 / 3, -2e300, 5, 7), make_double4(0.1, 3, -1e-300, 2));
  test("double2", make_double2(1.25, 2.5), make_double2(-0.5, 8.0));
  test("double1", make_double1(3.0), make_double1(0.7));
  test_language();
  printf("CHECKS %d failed %d\n", checks, failed);
  return failed != 0;
}
