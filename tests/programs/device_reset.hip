// hipDeviceReset and the calls after it, one case per run: `device_reset CASE`.
//   after  handles of device 0 made before its reset, used after it; new
//          work on device 0; device 1's allocation and stream, untouched;
//          then device 1's own reset.  Prints `name: value` lines (error
//          codes by hipGetErrorName) and exits 0 unless a call it needs
//          failed unexpectedly.
//   fault  a kernel reads an allocation made before the reset: the runtime
//          reports the fault (block 1 thread 17).  Prints "base 0x..." (the
//          allocation) before launching.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

#define CHECK(call)                                                                \
  do {                                                                             \
    hipError_t status_ = (call);                                                   \
    if (status_ != hipSuccess) {                                                   \
      printf("failed: %s: %s at line %d\n", #call, hipGetErrorName(status_), __LINE__); \
      exit(2);                                                                     \
    }                                                                              \
  } while (0)

constexpr int kCount = 64;  // 256 bytes of int or float
constexpr long kSpins = 50000000;

// Busy for `spins` iterations, then writes data[i] = i + 1.
__global__ void slow_fill(int* data, long spins) {
  for (volatile long i = 0; i < spins; i = i + 1) {
  }
  data[threadIdx.x] = threadIdx.x + 1;
}

__global__ void add_one(int* data) { data[threadIdx.x] += 1; }

__global__ void peek(const float* data, float* out) {
  if (blockIdx.x == 1 && threadIdx.x == 17) out[0] = data[5];
}

static void line(const char* what, hipError_t error) {
  printf("%s: %s\n", what, hipGetErrorName(error));
  fflush(stdout);
}

// How many of data[i] differ from i * scale + offset.
static int wrong(const int* data, int scale, int offset) {
  int count = 0;
  for (int i = 0; i < kCount; i++) count += data[i] != i * scale + offset;
  return count;
}

// Breakpoint targets for a debugger looking at the runtime around the reset.
extern "C" __attribute__((noinline)) void before_reset() { __asm__ volatile(""); }
extern "C" __attribute__((noinline)) void after_reset() { __asm__ volatile(""); }

static int after_case() {
  int host[kCount];
  // Device 1: an allocation holding i * 3 and a stream, made before the reset.
  int* kept;
  hipStream_t kept_stream;
  CHECK(hipSetDevice(1));
  CHECK(hipMalloc(&kept, sizeof host));
  CHECK(hipStreamCreate(&kept_stream));
  for (int i = 0; i < kCount; i++) host[i] = 3 * i;
  CHECK(hipMemcpy(kept, host, sizeof host, hipMemcpyHostToDevice));

  // Device 0: an allocation, a stream and an event, with work still queued
  // on the stream when the reset comes.
  CHECK(hipSetDevice(0));
  int* old;
  hipStream_t stream;
  hipEvent_t event;
  CHECK(hipMalloc(&old, sizeof host));
  CHECK(hipStreamCreate(&stream));
  CHECK(hipEventCreate(&event));
  CHECK(hipDeviceEnablePeerAccess(1, 0));
  int queued[kCount] = {};
  slow_fill<<<1, kCount, 0, stream>>>(old, kSpins);
  CHECK(hipMemcpyAsync(queued, old, sizeof queued, hipMemcpyDeviceToHost, stream));
  CHECK(hipEventRecord(event, stream));
  before_reset();

  line("reset", hipDeviceReset());
  after_reset();
  printf("work queued before the reset: %d wrong\n", wrong(queued, 1, 1));

  // Memory of device 0 from before the reset: freed.
  line("hipFree of a pre-reset pointer", hipFree(old));
  line("hipMemcpy from a pre-reset pointer", hipMemcpy(host, old, sizeof host, hipMemcpyDeviceToHost));
  line("hipMemcpy to a pre-reset pointer", hipMemcpy(old, host, sizeof host, hipMemcpyHostToDevice));
  line("hipMemset of a pre-reset pointer", hipMemset(old, 0, sizeof host));
  line("hipMemcpyAsync from a pre-reset pointer", hipMemcpyAsync(host, old, sizeof host, hipMemcpyDeviceToHost));
  hipPointerAttribute_t attributes;
  line("hipPointerGetAttributes of a pre-reset pointer", hipPointerGetAttributes(&attributes, old));

  // Its stream and event: destroyed.
  line("hipStreamSynchronize of a pre-reset stream", hipStreamSynchronize(stream));
  line("hipStreamQuery of a pre-reset stream", hipStreamQuery(stream));
  int fresh_host[kCount] = {};
  line("hipMemcpyAsync on a pre-reset stream",
       hipMemcpyAsync(fresh_host, host, sizeof host, hipMemcpyHostToHost, stream));
  int* fresh;
  CHECK(hipMalloc(&fresh, sizeof host));
  add_one<<<1, kCount, 0, stream>>>(fresh);
  line("launch on a pre-reset stream", hipGetLastError());
  line("hipStreamDestroy of a pre-reset stream", hipStreamDestroy(stream));
  line("hipEventQuery of a pre-reset event", hipEventQuery(event));
  line("hipEventSynchronize of a pre-reset event", hipEventSynchronize(event));
  line("hipEventRecord of a pre-reset event", hipEventRecord(event, nullptr));
  line("hipStreamWaitEvent on a pre-reset event", hipStreamWaitEvent(nullptr, event, 0));
  line("hipEventDestroy of a pre-reset event", hipEventDestroy(event));
  // Peer access starts disabled again.
  line("enable peer access to device 1 again", hipDeviceEnablePeerAccess(1, 0));

  // The device works as before: a new allocation, stream and event.
  hipGetLastError();  // clear the errors above
  for (int i = 0; i < kCount; i++) host[i] = 2 * i;
  CHECK(hipMemcpy(fresh, host, sizeof host, hipMemcpyHostToDevice));
  add_one<<<1, kCount>>>(fresh);
  CHECK(hipGetLastError());
  CHECK(hipMemcpy(host, fresh, sizeof host, hipMemcpyDeviceToHost));
  printf("allocation and launch after the reset: %d wrong\n", wrong(host, 2, 1));
  hipStream_t new_stream;
  hipEvent_t new_event;
  CHECK(hipStreamCreate(&new_stream));
  CHECK(hipEventCreate(&new_event));
  add_one<<<1, kCount, 0, new_stream>>>(fresh);
  CHECK(hipGetLastError());
  CHECK(hipEventRecord(new_event, new_stream));
  CHECK(hipEventSynchronize(new_event));
  CHECK(hipMemcpy(host, fresh, sizeof host, hipMemcpyDeviceToHost));
  printf("stream and event after the reset: %d wrong\n", wrong(host, 2, 2));

  // Device 1's allocation and stream are untouched.
  CHECK(hipPointerGetAttributes(&attributes, kept));
  printf("device 1 allocation: device %d\n", attributes.device);
  CHECK(hipSetDevice(1));
  add_one<<<1, kCount, 0, kept_stream>>>(kept);
  line("launch on the device 1 stream", hipGetLastError());
  CHECK(hipStreamSynchronize(kept_stream));
  CHECK(hipMemcpy(host, kept, sizeof host, hipMemcpyDeviceToHost));
  printf("device 1 allocation after its kernel: %d wrong\n", wrong(host, 3, 1));

  // Device 1's own reset frees what device 0's left alone.
  line("reset of device 1", hipDeviceReset());
  line("hipFree of device 1's pre-reset pointer", hipFree(kept));
  line("hipStreamQuery of device 1's pre-reset stream", hipStreamQuery(kept_stream));
  CHECK(hipSetDevice(0));
  line("hipFree of a post-reset pointer", hipFree(fresh));
  line("last error", hipGetLastError());
  return 0;
}

static int fault_case() {
  float* data;
  CHECK(hipMalloc(&data, kCount * sizeof(float)));
  CHECK(hipMemset(data, 0, kCount * sizeof(float)));
  printf("base %p\n", static_cast<void*>(data));
  fflush(stdout);
  CHECK(hipDeviceReset());
  float* out;
  CHECK(hipMalloc(&out, sizeof(float)));  // not where the freed one was
  peek<<<2, kCount>>>(data, out);
  hipDeviceSynchronize();
  puts("not reached");
  return 0;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "after") == 0) return after_case();
  if (strcmp(mode, "fault") == 0) return fault_case();
  fprintf(stderr, "usage: device_reset after|fault\n");
  return 2;
}
