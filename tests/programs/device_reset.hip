// device_reset: hipDeviceReset, and the device's handles and memory after it.
//   device_reset               each misuse of a handle the reset destroyed, one
//                              line with its error; then new work on device 0,
//                              and device 1's allocation, checked
//   device_reset stale-kernel  a kernel reading an allocation the reset freed
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

constexpr int kCount = 1024;

__global__ void fill(int* out, int value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + i;
}

__global__ void copy(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i];
}

static void report(const char* what, hipError_t error) { printf("%s: %s\n", what, hipGetErrorName(error)); }

static int wrong(const int* values, int value) {
  int count = 0;
  for (int i = 0; i < kCount; i++) count += values[i] != value + i;
  return count;
}

int main(int argc, char** argv) {
  int* on_device1 = nullptr;
  hipSetDevice(1);
  hipMalloc(&on_device1, kCount * sizeof(int));
  fill<<<kCount / 256, 256>>>(on_device1, 7, kCount);
  hipDeviceSynchronize();

  hipSetDevice(0);
  int* before = nullptr;
  hipStream_t stream;
  hipEvent_t event;
  hipMalloc(&before, kCount * sizeof(int));
  hipStreamCreate(&stream);
  hipEventCreate(&event);
  fill<<<kCount / 256, 256, 0, stream>>>(before, 1, kCount);  // still queued or running: the reset waits
  hipEventRecord(event, stream);
  report("reset", hipDeviceReset());

  if (argc > 1 && !strcmp(argv[1], "stale-kernel")) {
    int* out = nullptr;
    hipMalloc(&out, kCount * sizeof(int));
    copy<<<kCount / 256, 256>>>(before, out, kCount);
    hipDeviceSynchronize();
    return 0;
  }

  int host[kCount];
  report("free of an allocation the reset freed", hipFree(before));
  report("copy from an allocation the reset freed", hipMemcpy(host, before, sizeof host, hipMemcpyDeviceToHost));
  fill<<<1, 1, 0, stream>>>(host, 0, 1);
  report("launch on a stream the reset destroyed", hipGetLastError());
  report("synchronize of a stream the reset destroyed", hipStreamSynchronize(stream));
  report("destroy of a stream the reset destroyed", hipStreamDestroy(stream));
  report("query of an event the reset destroyed", hipEventQuery(event));
  report("record of an event the reset destroyed", hipEventRecord(event, nullptr));

  int* after = nullptr;
  report("malloc after the reset", hipMalloc(&after, kCount * sizeof(int)));
  fill<<<kCount / 256, 256>>>(after, 3, kCount);
  hipMemcpy(host, after, sizeof host, hipMemcpyDeviceToHost);
  int wrong_after = wrong(host, 3);
  hipSetDevice(1);
  hipMemcpy(host, on_device1, sizeof host, hipMemcpyDeviceToHost);
  printf("device_reset: %d wrong after the reset on device 0, %d wrong on device 1\n", wrong_after, wrong(host, 7));
  return 0;
}
