/*
 * HIP's macro layer as real programs use it: the qualifiers and their
 * include guard, __forceinline__ and __noinline__ (with libstdc++ included
 * after HIP), __align__, __launch_bounds__, the headers programs include by
 * ROCm's paths, <stdint.h> types at global scope, hipStreamPerThread and
 * hipGetStreamDeviceId, placement new in device code, and the target macros
 * (__amdgcn_processor__, __gfx*__) agreeing with gcnArchName.
 *
 * Prints one line per check, "NAME: ok ..." or "NAME: FAIL ...", and exits
 * 0 only if every check holds.  Needs two devices (GPUSYM_DEVICES, 2 by
 * default).
 */
#include <hip/hip_runtime.h>

/* rocThrust's guarded_hip_runtime_api.h, in essence: unless ROCm's guard of
 * host_defines.h says HIP's qualifiers are defined, it undefines them and
 * counts on hip_runtime_api.h to define them again.  With the guard under
 * another name, __host__ and __device__ would stay undefined from here on. */
#if !defined(HIP_INCLUDE_HIP_AMD_DETAIL_HOST_DEFINES_H)
#undef __host__
#undef __device__
#endif
#include <hip/hip_runtime_api.h>

/* Headers programs include by ROCm's paths. */
#include <hip/amd_detail/host_defines.h>
#include <hip/device_functions.h>
#include <hip/driver_types.h>
#include <hip/hip_bfloat16.h>
#include <hip/hip_math_constants.h>
#include <hip/hip_profile.h>
#include <hip/hip_texture_types.h>
#include <hip/library_types.h>
#include <hip/math_functions.h>

/* The C++ library after HIP: libstdc++ spells __attribute__((__noinline__)),
 * which a macro __noinline__ would break. */
#include <cstdarg>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#define CHECK_HIP(call)                                                          \
  do {                                                                           \
    hipError_t error_ = (call);                                                  \
    if (error_ != hipSuccess) {                                                  \
      printf("FAIL: %s: %s at line %d\n", #call, hipGetErrorName(error_), __LINE__); \
      exit(2);                                                                   \
    }                                                                            \
  } while (0)

static int failures = 0;

/* One line per check: "name: ok detail" or "name: FAIL detail". */
static void report(const char *name, bool ok, const char *format = "", ...) {
  char detail[512];
  va_list args;
  va_start(args, format);
  vsnprintf(detail, sizeof detail, format, args);
  va_end(args);
  printf("%s: %s%s%s\n", name, ok ? "ok" : "FAIL", *detail ? " " : "", detail);
  if (!ok) failures++;
}

/* ---- <stdint.h> types at global scope, in host and device declarations ---- */
uint8_t global_u8 = 0xab;
int16_t global_i16 = -2;
uint32_t global_u32 = 0xdeadbeefu;
int64_t global_i64 = -(int64_t(1) << 40);
uintptr_t global_address = 0;
__device__ uint64_t device_u64;
typedef uint16_t half_bits_t;
static_assert(sizeof(uint8_t) == 1 && sizeof(int16_t) == 2 && sizeof(uint32_t) == 4 && sizeof(int64_t) == 8,
              "stdint widths");

__global__ void stdint_sizes(uint32_t *out) {
  device_u64 = 0x0123456789abcdefull;
  out[0] = sizeof(int8_t) + sizeof(uint16_t) + sizeof(int32_t) + sizeof(uint64_t) + sizeof(half_bits_t);
  out[1] = static_cast<uint32_t>(device_u64 >> 32);
  out[2] = sizeof(uintptr_t) + sizeof(intptr_t) + sizeof(size_t);
}

/* ---- qualifiers ---- */
#if !defined(__forceinline__) || !defined(__host__) || !defined(__device__) || !defined(__global__) ||       \
    !defined(__shared__) || !defined(__constant__) || !defined(__managed__)
#error "a qualifier of HIP's is not defined"
#endif

__device__ __forceinline__ int twice(int x) { return 2 * x; }
__host__ __device__ __forceinline__ int thrice(int x) { return 3 * x; }
__device__ __noinline__ int plus_one(int x) { return x + 1; }
/* libstdc++'s spelling, in host and device code. */
__attribute__((__noinline__)) static int host_minus_one(int x) { return x - 1; }
__device__ __attribute__((__noinline__)) int device_minus_one(int x) { return x - 1; }

__constant__ int table[4] = {10, 20, 30, 40};
__device__ int device_total;

__global__ void qualified(int *out) {
  __shared__ int tile[64];
  int i = threadIdx.x;
  tile[i] = twice(i) + thrice(i) + plus_one(i) + device_minus_one(i) + table[i % 4];
  __syncthreads();
  out[i] = tile[63 - i];
  if (i == 0) device_total = tile[0];
}

/* ---- __align__ ---- */
typedef struct __align__(16) {
  float x, y, z;
} aligned_vec3;
struct __align__(8) pair8 {
  int a, b;
};
static_assert(alignof(aligned_vec3) == 16 && sizeof(aligned_vec3) == 16, "__align__(16)");
static_assert(alignof(pair8) == 8, "__align__(8)");

__global__ void aligned(aligned_vec3 v, pair8 p, float *out) {
  out[0] = v.x + v.y + v.z;
  out[1] = static_cast<float>(p.a * p.b);
  out[2] = static_cast<float>(alignof(aligned_vec3));
  out[3] = static_cast<float>(reinterpret_cast<uintptr_t>(&v) % 16);
}

/* ---- __launch_bounds__ ---- */
__global__ void __launch_bounds__(256) bounded_one(int *out) { out[threadIdx.x] = threadIdx.x; }
__global__ void __launch_bounds__(128, 2) bounded_two(int *out) { out[threadIdx.x] += 1000; }
template <int Block>
__global__ void __launch_bounds__(Block) bounded_template(int *out) {
  out[threadIdx.x] += Block;
}

/* ---- math constants, device functions ---- */
__global__ void constants(uint32_t *bits, uint64_t *wide, int *flags) {
  float f[6] = {HIP_PI_F, HIP_INF_F, HIP_NAN_F, HIP_NEG_ZERO_F, HIP_MIN_DENORM_F, HIP_MAX_NORMAL_F};
  for (int i = 0; i < 6; i++) memcpy(&bits[i], &f[i], 4);
  double d[3] = {HIP_PI, HIP_NAN, HIP_LN2};
  for (int i = 0; i < 3; i++) memcpy(&wide[i], &d[i], 8);
  flags[0] = __popc(0xf0f0u);                               /* device_functions.h */
  flags[1] = static_cast<int>(sinf(HIP_PIO2_F) * 1000.0f);   /* math_functions.h */
}

/* ---- placement new, and new and delete on the device heap ---- */
struct Counter {
  int value, doubled;
  __host__ __device__ Counter(int v) : value(v), doubled(2 * v) {}
  __host__ __device__ ~Counter() { value = -1; }
};

template <typename T>
__host__ __device__ T *make_at(void *place, int v) {
  return new (place) T(v);
}

__global__ void placement(Counter *slots, int *out) {
  int i = threadIdx.x;
  Counter *c = new (&slots[i]) Counter(i + 1);
  out[i] = c->doubled;
  c->~Counter();                        /* slots[i].value becomes -1 */
  if (i == 0) {
    int local[4];
    int *array = new (local) int[4];    /* array placement new */
    for (int k = 0; k < 4; k++) array[k] = k * k;
    Counter *again = make_at<Counter>(&slots[0], 21);
    int *heap = new int(7);
    int *many = new int[8];
    int *none = new (std::nothrow_t{}) int(5);  /* std::nothrow itself is a host variable */
    for (int k = 0; k < 8; k++) many[k] = k;
    out[64] = array[3] + again->doubled + *heap + many[7] + (none ? *none : 100);  /* 9 + 42 + 7 + 7 + 5 */
    delete heap;
    delete[] many;
    delete none;
  }
}

/* ---- hipStreamPerThread ---- */
__global__ void scale(int *data, int factor) { data[threadIdx.x] *= factor; }

/* ---- the target ---- */
#if !defined(__HIP_DEVICE_COMPILE__) && defined(__amdgcn_processor__)
#error "the host compile must not see the device's target macros, as in HIP"
#endif

struct TargetSeen {
  char processor[64];
  char target_id[64];
  int family;        /* N of __GFXN__, 0 if none */
  char specific[32]; /* which of a few __gfx*__ macros is defined */
};

__global__ void target(TargetSeen *seen) {
#if defined(__amdgcn_processor__) && defined(__amdgcn_target_id__)
  const char processor[] = __amdgcn_processor__, target_id[] = __amdgcn_target_id__;
  memcpy(seen->processor, processor, sizeof processor);
  memcpy(seen->target_id, target_id, sizeof target_id);
#endif
#if defined(__GFX12__)
  seen->family = 12;
#elif defined(__GFX11__)
  seen->family = 11;
#elif defined(__GFX10__)
  seen->family = 10;
#elif defined(__GFX9__)
  seen->family = 9;
#elif defined(__GFX8__)
  seen->family = 8;
#endif
#if defined(__gfx90a__)
  const char specific[] = "__gfx90a__";
#elif defined(__gfx942__)
  const char specific[] = "__gfx942__";
#elif defined(__gfx1030__)
  const char specific[] = "__gfx1030__";
#else
  const char specific[] = "none";
#endif
  memcpy(seen->specific, specific, sizeof specific);
}

int main() {
  /* qualifiers, __forceinline__, __noinline__ */
  {
    int *d, h[64];
    CHECK_HIP(hipMalloc(&d, sizeof h));
    qualified<<<1, 64>>>(d);
    CHECK_HIP(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
    int total = 0;
    CHECK_HIP(hipMemcpyFromSymbol(&total, HIP_SYMBOL(device_total), sizeof total));
    bool ok = true;
    for (int i = 0; i < 64; i++) {
      int j = 63 - i;
      ok = ok && h[i] == 2 * j + 3 * j + (j + 1) + (j - 1) + 10 * (j % 4 + 1);
    }
    ok = ok && total == 10 && thrice(2) == 6 && host_minus_one(1) == 0;
    report("qualifiers", ok, "(__forceinline__, __noinline__, __constant__, __shared__, __device__)");
    CHECK_HIP(hipFree(d));
  }
  /* <stdint.h> */
  {
    uint32_t *d, h[3];
    CHECK_HIP(hipMalloc(&d, sizeof h));
    stdint_sizes<<<1, 1>>>(d);
    CHECK_HIP(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
    bool ok = h[0] == 1 + 2 + 4 + 8 + 2 && h[1] == 0x01234567u && h[2] == 24 && global_u8 == 0xab &&
              global_i16 == -2 && global_u32 == 0xdeadbeefu && global_i64 == -(int64_t(1) << 40) &&
              global_address == 0;
    report("stdint", ok, "(%u %#x %u)", h[0], h[1], h[2]);
    CHECK_HIP(hipFree(d));
  }
  /* __align__ */
  {
    float *d, h[4];
    CHECK_HIP(hipMalloc(&d, sizeof h));
    aligned_vec3 v = {1.0f, 2.0f, 3.5f};
    pair8 p = {6, 7};
    aligned<<<1, 1>>>(v, p, d);
    CHECK_HIP(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
    report("align", h[0] == 6.5f && h[1] == 42.0f && h[2] == 16.0f && h[3] == 0.0f, "(alignof %g on the device)",
           h[2]);
    CHECK_HIP(hipFree(d));
  }
  /* __launch_bounds__ */
  {
    int *d, h[256];
    CHECK_HIP(hipMalloc(&d, sizeof h));
    bounded_one<<<1, 256>>>(d);
    bounded_two<<<1, 128>>>(d);
    bounded_template<64><<<1, 64>>>(d);
    CHECK_HIP(hipGetLastError());
    CHECK_HIP(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
    bool ok = true;
    for (int i = 0; i < 256; i++) ok = ok && h[i] == i + (i < 128 ? 1000 : 0) + (i < 64 ? 64 : 0);
    report("launch_bounds", ok, "(one and two arguments, a template's)");
    CHECK_HIP(hipFree(d));
  }
  /* math constants, math and device functions */
  {
    uint32_t *bits;
    uint64_t *wide;
    int *flags;
    CHECK_HIP(hipMalloc(&bits, 6 * sizeof *bits));
    CHECK_HIP(hipMalloc(&wide, 3 * sizeof *wide));
    CHECK_HIP(hipMalloc(&flags, 2 * sizeof *flags));
    constants<<<1, 1>>>(bits, wide, flags);
    uint32_t b[6];
    uint64_t w[3];
    int f[2];
    CHECK_HIP(hipMemcpy(b, bits, sizeof b, hipMemcpyDeviceToHost));
    CHECK_HIP(hipMemcpy(w, wide, sizeof w, hipMemcpyDeviceToHost));
    CHECK_HIP(hipMemcpy(f, flags, sizeof f, hipMemcpyDeviceToHost));
    const uint32_t want[6] = {0x40490fdbu, 0x7f800000u, 0x7fffffffu, 0x80000000u, 0x00000001u, 0x7f7fffffu};
    const uint64_t want_wide[3] = {0x400921fb54442d18ull, 0xfff8000000000000ull, 0x3fe62e42fefa39efull};
    float host_pi = HIP_PI_F;
    uint32_t host_pi_bits;
    memcpy(&host_pi_bits, &host_pi, 4);
    bool ok = memcmp(b, want, sizeof b) == 0 && memcmp(w, want_wide, sizeof w) == 0 && host_pi_bits == want[0];
    report("math_constants", ok, "(HIP_PI_F %#x, HIP_NAN %#llx)", b[0], static_cast<unsigned long long>(w[1]));
    report("device_functions", f[0] == 8 && f[1] == 1000, "(__popc %d, sinf %d)", f[0], f[1]);
    CHECK_HIP(hipFree(bits));
    CHECK_HIP(hipFree(wide));
    CHECK_HIP(hipFree(flags));
  }
  /* the other headers */
  {
    HIP_SCOPED_MARKER("hip_macros", "headers");
    HIP_BEGIN_MARKER("hip_macros", "headers");
    HIP_END_MARKER();
    static_assert(HIP_R_32F == 0 && HIP_C_64F == 5 && HIP_R_16BF == 14 && HIP_R_8F_E4M3_FNUZ == 1000 &&
                      HIP_LIBRARY_PATCH_LEVEL == 2,
                  "library_types.h");
    hipDataType type = HIP_R_16F;
    hipChannelFormatDesc desc = hipCreateChannelDesc<float4>();
    hipExtent extent = make_hipExtent(1, 2, 3);
    hipMemcpyKind kind = hipMemcpyHostToDevice;
    hip_bfloat16 bf(1.5f);
    bool ok = type == 2 && desc.x == 32 && desc.w == 32 && desc.f == hipChannelFormatKindFloat &&
              extent.depth == 3 && kind == 1 && sizeof(hip_bfloat16) == 2 && static_cast<float>(bf) == 1.5f &&
              bf.data == 0x3fc0;
    report("headers", ok, "(library_types, hip_texture_types, driver_types, hip_bfloat16, hip_profile)");
  }
  /* placement new */
  {
    Counter *slots;
    int *d, h[65];
    CHECK_HIP(hipMalloc(&slots, 64 * sizeof(Counter)));
    CHECK_HIP(hipMalloc(&d, sizeof h));
    placement<<<1, 64>>>(slots, d);
    CHECK_HIP(hipMemcpy(h, d, sizeof h, hipMemcpyDeviceToHost));
    std::vector<Counter> after(64, Counter(0));
    CHECK_HIP(hipMemcpy(after.data(), slots, 64 * sizeof(Counter), hipMemcpyDeviceToHost));
    bool ok = h[64] == 9 + 42 + 7 + 7 + 5 && after[0].value == 21;
    for (int i = 0; i < 64; i++) ok = ok && h[i] == 2 * (i + 1) && (i == 0 || after[i].value == -1);
    alignas(Counter) unsigned char place[sizeof(Counter)];
    ok = ok && make_at<Counter>(place, 4)->doubled == 8;  /* the library's placement new, on the host */
    report("placement_new", ok, "(%d)", h[64]);
    CHECK_HIP(hipFree(slots));
    CHECK_HIP(hipFree(d));
  }
  /* hipStreamPerThread */
  {
    int *d, h[64];
    for (int i = 0; i < 64; i++) h[i] = i;
    CHECK_HIP(hipMalloc(&d, sizeof h));
    CHECK_HIP(hipMemcpyAsync(d, h, sizeof h, hipMemcpyHostToDevice, hipStreamPerThread));
    scale<<<1, 64, 0, hipStreamPerThread>>>(d, 2);
    hipLaunchKernelGGL(scale, dim3(1), dim3(64), 0, hipStreamPerThread, d, 3);
    hipEvent_t done;
    CHECK_HIP(hipEventCreate(&done));
    CHECK_HIP(hipEventRecord(done, hipStreamPerThread));
    CHECK_HIP(hipStreamWaitEvent(hipStreamPerThread, done, 0));
    CHECK_HIP(hipMemcpyAsync(h, d, sizeof h, hipMemcpyDeviceToHost, hipStreamPerThread));
    CHECK_HIP(hipStreamSynchronize(hipStreamPerThread));
    CHECK_HIP(hipEventSynchronize(done));
    bool ok = hipStreamQuery(hipStreamPerThread) == hipSuccess;
    for (int i = 0; i < 64; i++) ok = ok && h[i] == 6 * i;
    int device = -1;
    CHECK_HIP(hipStreamGetDevice(hipStreamPerThread, &device));
    ok = ok && device == 0 && hipStreamDestroy(hipStreamPerThread) != hipSuccess;
    (void)hipGetLastError();
    report("stream_per_thread", ok, "(copies, <<<>>>, hipLaunchKernelGGL, events)");
    CHECK_HIP(hipEventDestroy(done));
    CHECK_HIP(hipFree(d));
  }
  /* hipGetStreamDeviceId */
  {
    hipStream_t on_one;
    int from_null_0 = hipGetStreamDeviceId(nullptr);
    CHECK_HIP(hipSetDevice(1));
    CHECK_HIP(hipStreamCreate(&on_one));
    int from_null_1 = hipGetStreamDeviceId(0), from_per_thread_1 = hipGetStreamDeviceId(hipStreamPerThread);
    int other_thread = -2;  /* a new host thread starts on device 0: its own default stream is there */
    std::thread([&] { other_thread = hipGetStreamDeviceId(hipStreamPerThread); }).join();
    CHECK_HIP(hipSetDevice(0));
    int from_created = hipGetStreamDeviceId(on_one);
    int from_bogus = hipGetStreamDeviceId(reinterpret_cast<hipStream_t>(&on_one));
    bool ok = from_null_0 == 0 && from_null_1 == 1 && from_per_thread_1 == 1 && other_thread == 0 &&
              from_created == 1 && from_bogus == -1;
    report("stream_device_id", ok, "(%d %d %d %d %d %d)", from_null_0, from_null_1, from_per_thread_1, other_thread,
           from_created, from_bogus);
    CHECK_HIP(hipStreamDestroy(on_one));
  }
  /* the target */
  {
    TargetSeen *d, seen;
    CHECK_HIP(hipMalloc(&d, sizeof seen));
    CHECK_HIP(hipMemset(d, 0, sizeof seen));
    target<<<1, 1>>>(d);
    CHECK_HIP(hipMemcpy(&seen, d, sizeof seen, hipMemcpyDeviceToHost));
    hipDeviceProp_t prop;
    CHECK_HIP(hipGetDeviceProperties(&prop, 0));
    std::string arch = prop.gcnArchName, processor = arch.substr(0, arch.find(':'));
    bool ok = *seen.processor && processor == seen.processor && arch == seen.target_id && seen.family > 0;
    report("target", ok, "(gcnArchName %s, __amdgcn_processor__ %s, __amdgcn_target_id__ %s, __GFX%d__, %s)",
           prop.gcnArchName, seen.processor, seen.target_id, seen.family, seen.specific);
    CHECK_HIP(hipFree(d));
  }
  printf("%d failed\n", failures);
  return failures ? 1 : 0;
}
