// Every way HIP launches a kernel besides <<<>>> and hipLaunchKernel: the
// launch API before it (hipConfigureCall, hipSetupArgument, hipLaunchByPtr,
// as old code and hand-written stubs use it), hipExtLaunchKernel and
// hipExtLaunchKernelGGL with their events, and hipMemcpyDeviceToDeviceNoCU.
// Each check prints `name: ok` or `name: got G, want W`.
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>

#include <cstddef>
#include <cstdio>

// Parameters of mixed sizes and alignments, so that each offset matters.
struct Pair {
  double a;
  int b;
};
__global__ void mixed(char c, double d, short s, Pair p, long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = c + static_cast<long long>(d) + s + static_cast<long long>(p.a) + p.b + i;
}

__global__ void fill(int *out, int value) { out[blockIdx.x * blockDim.x + threadIdx.x] = value; }

static void expect(const char *what, long long got, long long want) {
  if (got == want)
    printf("%s: ok\n", what);
  else
    printf("%s: got %lld, want %lld\n", what, got, want);
}

static void expect_error(const char *what, hipError_t got, hipError_t want) {
  if (got == want)
    printf("%s: ok\n", what);
  else
    printf("%s: got %s, want %s\n", what, hipGetErrorName(got), hipGetErrorName(want));
}

// Sets up one argument as a stub of the old launch API does: at the next
// offset aligned for its type.
template <typename T> static void setup(const T &value, size_t &offset) {
  offset = (offset + alignof(T) - 1) / alignof(T) * alignof(T);
  hipSetupArgument(&value, sizeof value, offset);
  offset += sizeof value;
}

static void old_launch_api() {
  long long *out;
  hipMallocManaged(&out, 8 * sizeof(long long));
  hipStream_t stream;
  hipStreamCreate(&stream);
  expect_error("configure", hipConfigureCall(dim3(2), dim3(4), 0, stream), hipSuccess);
  size_t offset = 0;
  setup(char(1), offset);
  setup(20.0, offset);
  setup(short(300), offset);
  setup(Pair{4000.0, 50000}, offset);
  setup(out, offset);
  expect_error("launch by pointer", hipLaunchByPtr(reinterpret_cast<const void *>(mixed)), hipSuccess);
  hipStreamSynchronize(stream);
  long long wrong = 0;
  for (int i = 0; i < 8; i++) wrong += out[i] != 54321 + i;
  expect("arguments at their offsets", wrong, 0);

  expect_error("launch without a configuration", hipLaunchByPtr(reinterpret_cast<const void *>(mixed)),
               hipErrorMissingConfiguration);
  expect_error("its last error", hipGetLastError(), hipErrorMissingConfiguration);
  int value = 1;
  expect_error("argument without a configuration", hipSetupArgument(&value, sizeof value, 0),
               hipErrorMissingConfiguration);
  hipConfigureCall(dim3(1), dim3(1));
  expect_error("launch of what is no kernel", hipLaunchByPtr(&value), hipErrorInvalidDeviceFunction);
  hipConfigureCall(dim3(1), dim3(1));
  setup(char(1), offset = 0);
  expect_error("too few arguments", hipLaunchByPtr(reinterpret_cast<const void *>(mixed)), hipErrorInvalidValue);
  hipGetLastError();
  hipStreamDestroy(stream);
  hipFree(out);
}

static void ext_launches() {
  int *out;
  hipMallocManaged(&out, 64 * sizeof(int));
  hipEvent_t start, stop;
  hipEventCreate(&start);
  hipEventCreate(&stop);
  int value = 7;
  void *args[] = {&out, &value};
  expect_error("ext launch", hipExtLaunchKernel(reinterpret_cast<const void *>(fill), dim3(4), dim3(16), args, 0,
                                                nullptr, start, stop, hipExtAnyOrderLaunch),
               hipSuccess);
  expect_error("stop event completes with the kernel", hipEventSynchronize(stop), hipSuccess);
  long long sum = 0;
  for (int i = 0; i < 64; i++) sum += out[i];
  expect("ext launch ran", sum, 64 * 7);
  float ms = -1;
  expect_error("elapsed between its events", hipEventElapsedTime(&ms, start, stop), hipSuccess);
  expect("elapsed is not negative", ms >= 0, 1);

  hipExtLaunchKernelGGL(fill, dim3(2), dim3(32), 0, nullptr, start, stop, 0, out, 9);
  hipEventSynchronize(stop);
  sum = 0;
  for (int i = 0; i < 64; i++) sum += out[i];
  expect("ext launch GGL ran", sum, 64 * 9);
  hipExtLaunchKernelGGL(fill, dim3(1), dim3(64), 0, nullptr, nullptr, nullptr, 0, out, 2);
  hipDeviceSynchronize();
  expect("ext launch GGL without events", out[63], 2);

  expect_error("ext launch of what is no kernel",
               hipExtLaunchKernel(&value, dim3(1), dim3(1), args, 0, nullptr, nullptr, nullptr, 0),
               hipErrorInvalidDeviceFunction);
  hipGetLastError();
  hipEventDestroy(start);
  hipEventDestroy(stop);
  hipFree(out);
}

static void copy_without_compute_units() {
  int *a, *b;
  hipMalloc(&a, 16 * sizeof(int));
  hipMalloc(&b, 16 * sizeof(int));
  hipLaunchKernelGGL(fill, dim3(1), dim3(16), 0, 0, a, 11);
  expect_error("device to device without compute units",
               hipMemcpy(b, a, 16 * sizeof(int), hipMemcpyDeviceToDeviceNoCU), hipSuccess);
  int host[16] = {};
  hipMemcpy(host, b, sizeof host, hipMemcpyDeviceToHost);
  expect("copied", host[15], 11);
  expect_error("host memory is no device memory",
               hipMemcpy(b, host, sizeof host, hipMemcpyDeviceToDeviceNoCU), hipErrorInvalidValue);
  hipGetLastError();
  hipFree(a);
  hipFree(b);
}

int main() {
  old_launch_api();
  ext_launches();
  copy_without_compute_units();
  return 0;
}
