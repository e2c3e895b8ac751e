// Devices, streams and events, one case per run: `devices_streams CASE`.
// Each case prints `name: value` lines (error codes by hipGetErrorName) for
// tests/device/test_devices_streams.py to check, and exits 0 unless a call it needs
// failed unexpectedly.
#include <hip/hip_runtime.h>

#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <string>
#include <thread>

#define CHECK(call)                                                                \
  do {                                                                             \
    hipError_t status_ = (call);                                                   \
    if (status_ != hipSuccess) {                                                   \
      printf("failed: %s: %s at line %d\n", #call, hipGetErrorName(status_), __LINE__); \
      exit(2);                                                                     \
    }                                                                              \
  } while (0)

static const char* name(hipError_t error) { return hipGetErrorName(error); }

// Busy for `spins` iterations, then writes `value`.
__global__ void slow_write(int* buf, int value, long spins) {
  for (volatile long i = 0; i < spins; i = i + 1) {
  }
  *buf = value;
}

__global__ void copy_value(int* out, const int* in) { *out = *in; }

// Waits until the host (through a copy on another stream) sets *flag.
__global__ void wait_for_flag(volatile int* flag, int* seen) {
  while (*flag == 0) {
  }
  *seen = *flag;
}

__global__ void add_one(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

__global__ void first_kernel(int* data) { data[threadIdx.x] = threadIdx.x; }
__global__ void second_kernel(int* data) { data[threadIdx.x] = 2 * threadIdx.x; }

constexpr long kSpins = 150000000;  // tens of milliseconds at -O0

static int threads_case() {
  std::mutex mutex;
  std::condition_variable changed;
  int step = 0;
  int second_device = -1, second_stream_device = -1;
  int* second_allocation = nullptr;
  hipStream_t second_stream = nullptr;
  std::thread second([&] {
    CHECK(hipSetDevice(1));
    CHECK(hipMalloc(&second_allocation, 64));
    CHECK(hipStreamCreate(&second_stream));
    {
      std::unique_lock<std::mutex> lock(mutex);
      step = 1;
      changed.notify_all();
      changed.wait(lock, [&] { return step == 2; });  // the main thread has looked at its own device
    }
    CHECK(hipGetDevice(&second_device));
    CHECK(hipStreamGetDevice(second_stream, &second_stream_device));
  });
  int main_device = -1;
  {
    std::unique_lock<std::mutex> lock(mutex);
    changed.wait(lock, [&] { return step == 1; });
    CHECK(hipGetDevice(&main_device));
    step = 2;
    changed.notify_all();
  }
  second.join();
  CHECK(hipSetDevice(1));
  int new_thread_device = -1;
  std::thread([&] { CHECK(hipGetDevice(&new_thread_device)); }).join();
  int main_after = -1;
  CHECK(hipGetDevice(&main_after));
  hipPointerAttribute_t attributes;
  CHECK(hipPointerGetAttributes(&attributes, second_allocation + 3));
  int main_allocation_device = -1;
  CHECK(hipSetDevice(0));
  int* main_allocation;
  CHECK(hipMalloc(&main_allocation, 64));
  hipPointerAttribute_t main_attributes;
  CHECK(hipPointerGetAttributes(&main_attributes, main_allocation));
  main_allocation_device = main_attributes.device;
  printf("main thread: %d\n", main_device);
  printf("second thread: %d\n", second_device);
  printf("new thread: %d\n", new_thread_device);
  printf("main thread after hipSetDevice(1): %d\n", main_after);
  printf("allocation of the second thread: device %d\n", attributes.device);
  printf("allocation of the main thread: device %d\n", main_allocation_device);
  printf("stream of the second thread: device %d\n", second_stream_device);
  int host = 0;
  printf("pointer that is no allocation: %s\n", name(hipPointerGetAttributes(&attributes, &host)));
  return 0;
}

static int wrong_device_case() {
  int* data;
  CHECK(hipSetDevice(0));
  CHECK(hipMalloc(&data, 64 * sizeof(int)));
  hipStream_t s0, s1;
  hipEvent_t e0, e1;
  CHECK(hipStreamCreate(&s0));
  CHECK(hipEventCreate(&e0));
  CHECK(hipSetDevice(1));
  CHECK(hipStreamCreate(&s1));
  CHECK(hipEventCreate(&e1));
  printf("record device 1 event on device 1 stream: %s\n", name(hipEventRecord(e1, s1)));
  printf("record device 1 event on device 0 stream: %s\n", name(hipEventRecord(e1, s0)));
  printf("record device 1 event on the null stream of device 1: %s\n", name(hipEventRecord(e1, nullptr)));
  printf("record device 0 event on the null stream of device 1: %s\n", name(hipEventRecord(e0, nullptr)));
  first_kernel<<<1, 64, 0, s0>>>(data);
  printf("launch on a device 0 stream from device 1: %s\n", name(hipGetLastError()));
  CHECK(hipSetDevice(0));
  first_kernel<<<1, 64, 0, s0>>>(data);
  printf("launch on a device 0 stream from device 0: %s\n", name(hipGetLastError()));
  printf("device 0 stream waits for a device 1 event: %s\n", name(hipStreamWaitEvent(s0, e1, 0)));
  CHECK(hipEventRecord(e0, s0));
  CHECK(hipEventSynchronize(e0));
  CHECK(hipEventSynchronize(e1));
  float ms;
  printf("elapsed time between devices: %s\n", name(hipEventElapsedTime(&ms, e0, e1)));
  printf("copy on a device 1 stream from device 0: %s\n",
         name(hipMemsetAsync(data, 0, 64 * sizeof(int), s1)));
  CHECK(hipStreamSynchronize(s1));
  CHECK(hipStreamDestroy(s1));
  printf("record on a destroyed stream: %s\n", name(hipEventRecord(e1, s1)));
  printf("destroy a destroyed stream: %s\n", name(hipStreamDestroy(s1)));
  CHECK(hipEventDestroy(e1));
  printf("query a destroyed event: %s\n", name(hipEventQuery(e1)));
  printf("stream flags 7: %s\n", name(hipStreamCreateWithFlags(&s1, 7)));
  printf("event flags 0x100: %s\n", name(hipEventCreateWithFlags(&e1, 0x100)));
  return 0;
}

static int ordering_case() {
  hipStream_t a, b;
  CHECK(hipStreamCreateWithFlags(&a, hipStreamNonBlocking));
  CHECK(hipStreamCreateWithFlags(&b, hipStreamNonBlocking));
  hipEvent_t written;
  CHECK(hipEventCreateWithFlags(&written, hipEventDisableTiming));
  int *buf, *out;
  CHECK(hipMalloc(&buf, sizeof(int)));
  CHECK(hipMalloc(&out, sizeof(int)));
  CHECK(hipMemset(buf, 0, sizeof(int)));
  int wrong = 0;
  for (int round = 1; round <= 4; round++) {
    slow_write<<<1, 1, 0, a>>>(buf, 100 + round, kSpins / 8);
    CHECK(hipEventRecord(written, a));
    CHECK(hipStreamWaitEvent(b, written, 0));
    copy_value<<<1, 1, 0, b>>>(out, buf);
    int host = -1;
    CHECK(hipMemcpyAsync(&host, out, sizeof host, hipMemcpyDeviceToHost, b));
    CHECK(hipStreamSynchronize(b));
    printf("round %d: stream b read %d\n", round, host);
    wrong += host != 100 + round;
  }
  printf("ordering: %d wrong\n", wrong);
  return 0;
}

static int query_case() {
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  hipEvent_t after;
  CHECK(hipEventCreate(&after));
  int* buf;
  CHECK(hipMalloc(&buf, sizeof(int)));
  printf("empty stream: %s\n", name(hipStreamQuery(s)));
  printf("event never recorded: %s\n", name(hipEventQuery(after)));
  slow_write<<<1, 1, 0, s>>>(buf, 1, kSpins);
  CHECK(hipEventRecord(after, s));
  printf("stream while the kernel runs: %s\n", name(hipStreamQuery(s)));
  printf("event while the kernel runs: %s\n", name(hipEventQuery(after)));
  printf("last error after not ready: %s\n", name(hipGetLastError()));
  CHECK(hipStreamSynchronize(s));
  printf("stream after hipStreamSynchronize: %s\n", name(hipStreamQuery(s)));
  printf("event after hipStreamSynchronize: %s\n", name(hipEventQuery(after)));
  return 0;
}

static int elapsed_case() {
  hipStream_t s;
  CHECK(hipStreamCreate(&s));
  hipEvent_t start, stop, untimed, unrecorded;
  CHECK(hipEventCreate(&start));
  CHECK(hipEventCreate(&stop));
  CHECK(hipEventCreateWithFlags(&untimed, hipEventDisableTiming));
  CHECK(hipEventCreate(&unrecorded));
  int* buf;
  CHECK(hipMalloc(&buf, sizeof(int)));
  auto host_start = std::chrono::steady_clock::now();
  CHECK(hipEventRecord(start, s));
  slow_write<<<1, 1, 0, s>>>(buf, 1, kSpins);
  CHECK(hipEventRecord(stop, s));
  CHECK(hipEventRecord(untimed, s));
  float ms = -1;
  printf("before completion: %s\n", name(hipEventElapsedTime(&ms, start, stop)));
  CHECK(hipEventSynchronize(stop));
  double host_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - host_start).count();
  CHECK(hipEventElapsedTime(&ms, start, stop));
  printf("elapsed ms: %.3f\n", ms);
  printf("host ms: %.3f\n", host_ms);
  float same = -1;
  CHECK(hipEventElapsedTime(&same, stop, stop));
  printf("event and itself: %.3f\n", same);
  printf("event without timing: %s\n", name(hipEventElapsedTime(&ms, start, untimed)));
  printf("event never recorded: %s\n", name(hipEventElapsedTime(&ms, start, unrecorded)));
  printf("null result: %s\n", name(hipEventElapsedTime(nullptr, start, stop)));
  return 0;
}

static int null_stream_case() {
  hipStream_t blocking, nonblocking, releaser;
  CHECK(hipStreamCreate(&blocking));
  CHECK(hipStreamCreateWithFlags(&nonblocking, hipStreamNonBlocking));
  CHECK(hipStreamCreateWithFlags(&releaser, hipStreamNonBlocking));
  unsigned flags = 99;
  CHECK(hipStreamGetFlags(nonblocking, &flags));
  printf("flags of the non-blocking stream: %u\n", flags);
  int *buf, *out, *flag, *seen;
  CHECK(hipMalloc(&buf, sizeof(int)));
  CHECK(hipMalloc(&out, sizeof(int)));
  CHECK(hipMalloc(&flag, sizeof(int)));
  CHECK(hipMalloc(&seen, sizeof(int)));
  int host = -1;

  // Work on the null stream waits for the blocking stream's.
  slow_write<<<1, 1, 0, blocking>>>(buf, 7, kSpins / 2);
  copy_value<<<1, 1>>>(out, buf);
  CHECK(hipMemcpy(&host, out, sizeof host, hipMemcpyDeviceToHost));
  printf("null stream after a blocking stream: %d\n", host);

  // The blocking stream's work waits for the null stream's.
  slow_write<<<1, 1>>>(buf, 8, kSpins / 2);
  copy_value<<<1, 1, 0, blocking>>>(out, buf);
  CHECK(hipMemcpyAsync(&host, out, sizeof host, hipMemcpyDeviceToHost, blocking));
  CHECK(hipStreamSynchronize(blocking));
  printf("blocking stream after the null stream: %d\n", host);

  // A non-blocking stream is not ordered with the null stream: its kernel
  // waits for a flag that only a later copy sets, and the null stream's work
  // completes meanwhile.
  CHECK(hipMemset(flag, 0, sizeof(int)));
  wait_for_flag<<<1, 1, 0, nonblocking>>>(flag, seen);
  copy_value<<<1, 1>>>(out, buf);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  hipError_t null_state;
  while ((null_state = hipStreamQuery(nullptr)) == hipErrorNotReady && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  printf("null stream while a non-blocking stream waits: %s\n", name(null_state));
  printf("non-blocking stream meanwhile: %s\n", name(hipStreamQuery(nonblocking)));
  CHECK(hipStreamSynchronize(nullptr));
  int one = 1;
  CHECK(hipMemcpyAsync(flag, &one, sizeof one, hipMemcpyHostToDevice, releaser));
  CHECK(hipStreamSynchronize(nonblocking));
  CHECK(hipMemcpy(&host, seen, sizeof host, hipMemcpyDeviceToHost));
  printf("non-blocking stream after the flag: %s, saw %d\n", name(hipStreamQuery(nonblocking)), host);

  // hipDeviceSynchronize waits for every stream of the device.
  slow_write<<<1, 1, 0, nonblocking>>>(buf, 9, kSpins / 2);
  CHECK(hipDeviceSynchronize());
  printf("non-blocking stream after hipDeviceSynchronize: %s\n", name(hipStreamQuery(nonblocking)));

  // So does hipFree, for the device that owns the memory: a kernel may still use it.
  slow_write<<<1, 1, 0, nonblocking>>>(buf, 10, kSpins / 2);
  CHECK(hipFree(buf));
  printf("non-blocking stream after hipFree of its buffer: %s\n", name(hipStreamQuery(nonblocking)));
  return 0;
}

static int peer_case() {
  int access[2][2];
  for (int d = 0; d < 2; d++)
    for (int p = 0; p < 2; p++) CHECK(hipDeviceCanAccessPeer(&access[d][p], d, p));
  printf("can access peer: 0->1 %d, 1->0 %d, 0->0 %d\n", access[0][1], access[1][0], access[0][0]);
  int unused;
  printf("can access peer of device 9: %s\n", name(hipDeviceCanAccessPeer(&unused, 0, 9)));
  CHECK(hipSetDevice(0));
  printf("enable 1 from 0: %s\n", name(hipDeviceEnablePeerAccess(1, 0)));
  printf("enable 1 from 0 again: %s\n", name(hipDeviceEnablePeerAccess(1, 0)));
  printf("enable 0 from 0: %s\n", name(hipDeviceEnablePeerAccess(0, 0)));
  printf("enable with flags: %s\n", name(hipDeviceEnablePeerAccess(1, 1)));
  printf("disable 1 from 0: %s\n", name(hipDeviceDisablePeerAccess(1)));
  printf("disable 1 from 0 again: %s\n", name(hipDeviceDisablePeerAccess(1)));

  const int n = 1000;
  int host[n];
  for (int i = 0; i < n; i++) host[i] = i;
  int *on0, *on1;
  CHECK(hipMalloc(&on0, sizeof host));
  CHECK(hipMemcpy(on0, host, sizeof host, hipMemcpyHostToDevice));
  CHECK(hipSetDevice(1));
  CHECK(hipMalloc(&on1, sizeof host));
  CHECK(hipMemcpyPeer(on1, 1, on0, 0, sizeof host));
  // A kernel on device 1 changes it; a peer copy issued from device 0 comes after it.
  add_one<<<(n + 255) / 256, 256>>>(on1, n);
  CHECK(hipSetDevice(0));
  CHECK(hipMemcpyPeer(on0, 0, on1, 1, sizeof host));
  CHECK(hipMemcpy(host, on0, sizeof host, hipMemcpyDeviceToHost));
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += host[i] != i + 1;
  printf("hipMemcpyPeer both ways around a kernel on device 1: %d wrong\n", wrong);

  hipStream_t s1;
  CHECK(hipSetDevice(1));
  CHECK(hipStreamCreate(&s1));
  add_one<<<(n + 255) / 256, 256, 0, s1>>>(on1, n);
  CHECK(hipMemcpyPeerAsync(on0, 0, on1, 1, sizeof host, s1));
  CHECK(hipStreamSynchronize(s1));
  CHECK(hipMemcpy(host, on0, sizeof host, hipMemcpyDeviceToHost));
  wrong = 0;
  for (int i = 0; i < n; i++) wrong += host[i] != i + 2;
  printf("hipMemcpyPeerAsync after a kernel in its stream: %d wrong\n", wrong);
  printf("hipMemcpyPeer to device 9: %s\n", name(hipMemcpyPeer(on0, 9, on1, 1, sizeof host)));
  printf("hipMemcpyPeer from a host array: %s\n", name(hipMemcpyPeer(on0, 0, host, 1, sizeof host)));
  return 0;
}

static int devices_case() {
  int count = 0;
  CHECK(hipGetDeviceCount(&count));
  printf("count: %d\n", count);
  for (int d = 0; d < count; d++) {
    hipDeviceProp_t p;
    CHECK(hipGetDeviceProperties(&p, d));
    printf("device %d: %s, warpSize %d, maxThreadsPerBlock %d, memory %s, multiProcessorCount %s, "
           "concurrentKernels %d\n",
           d, p.name, p.warpSize, p.maxThreadsPerBlock, p.totalGlobalMem > 0 ? "yes" : "no",
           p.multiProcessorCount > 0 ? "yes" : "no", p.concurrentKernels);
  }
  printf("hipSetDevice(%d): %s\n", count, name(hipSetDevice(count)));
  printf("hipSetDevice(1): %s\n", name(hipSetDevice(1)));
  printf("hipSetDevice(-1): %s\n", name(hipSetDevice(-1)));
  int current = -1;
  CHECK(hipGetDevice(&current));
  printf("current: %d\n", current);
  hipDeviceProp_t p;
  printf("properties of device %d: %s\n", count, name(hipGetDeviceProperties(&p, count)));
  return 0;
}

// Launches from two host threads on two devices (for the launch interposer
// and the debugger): the main thread on device 0's null stream, then a
// thread named "device1" on a stream of device 1.
__attribute__((noinline)) void on_device_1(void) { __asm__ volatile("" ::: "memory"); }

static int launches_case() {
  int* data0;
  CHECK(hipMalloc(&data0, 64 * sizeof(int)));
  first_kernel<<<1, 64>>>(data0);
  CHECK(hipDeviceSynchronize());
  int wrong = 0;
  std::thread second([&] {
    pthread_setname_np(pthread_self(), "device1");
    CHECK(hipSetDevice(1));
    int* data1;
    CHECK(hipMalloc(&data1, 64 * sizeof(int)));
    hipStream_t s;
    CHECK(hipStreamCreateWithFlags(&s, hipStreamNonBlocking));
    on_device_1();
    second_kernel<<<2, 32, 0, s>>>(data1);
    CHECK(hipStreamSynchronize(s));
    int host[64];
    CHECK(hipMemcpy(host, data1, sizeof host, hipMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++) wrong += host[i] != 2 * i;
  });
  second.join();
  printf("launches: %d wrong\n", wrong);
  return 0;
}

int main(int argc, char** argv) {
  std::string which = argc > 1 ? argv[1] : "";
  if (which == "threads") return threads_case();
  if (which == "wrong-device") return wrong_device_case();
  if (which == "ordering") return ordering_case();
  if (which == "query") return query_case();
  if (which == "elapsed") return elapsed_case();
  if (which == "null-stream") return null_stream_case();
  if (which == "peer") return peer_case();
  if (which == "devices") return devices_case();
  if (which == "launches") return launches_case();
  fprintf(stderr, "usage: devices_streams threads|wrong-device|ordering|query|elapsed|null-stream|peer|devices|launches\n");
  return 2;
}
