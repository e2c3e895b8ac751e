// multi_device: two host threads, each driving its own device with two
// streams ordered by events; then a copy between the devices.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <thread>
#include <vector>

__global__ void scale(float* out, const float* in, float factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[i] * factor;
}

constexpr int kElements = 1 << 16;

struct Work {
  int device;
  float factor;
  float* result = nullptr;  // on `device`, kept for the peer copy
  std::vector<float> host;
  int wrong = 0;
};

// Copies in on one stream, computes on another once the copy's event has
// completed, and copies out on the first once the kernel's event has.
static void drive(Work& work) {
  int wrong = 0;
  wrong += hipSetDevice(work.device) != hipSuccess;
  std::vector<float> input(kElements);
  for (int i = 0; i < kElements; i++) input[i] = static_cast<float>(i % 1000);
  work.host.assign(kElements, 0.0f);

  float* in;
  wrong += hipMalloc(&in, kElements * sizeof(float)) != hipSuccess;
  wrong += hipMalloc(&work.result, kElements * sizeof(float)) != hipSuccess;
  hipStream_t copies, compute;
  wrong += hipStreamCreateWithFlags(&copies, hipStreamNonBlocking) != hipSuccess;
  wrong += hipStreamCreate(&compute) != hipSuccess;
  hipEvent_t copied, started, computed;
  wrong += hipEventCreateWithFlags(&copied, hipEventDisableTiming) != hipSuccess;
  wrong += hipEventCreate(&started) != hipSuccess;
  wrong += hipEventCreate(&computed) != hipSuccess;

  wrong += hipMemcpyAsync(in, input.data(), kElements * sizeof(float), hipMemcpyHostToDevice, copies) != hipSuccess;
  wrong += hipEventRecord(copied, copies) != hipSuccess;
  wrong += hipStreamWaitEvent(compute, copied, 0) != hipSuccess;
  wrong += hipEventRecord(started, compute) != hipSuccess;
  scale<<<(kElements + 255) / 256, 256, 0, compute>>>(work.result, in, work.factor, kElements);
  wrong += hipGetLastError() != hipSuccess;
  wrong += hipEventRecord(computed, compute) != hipSuccess;
  wrong += hipStreamWaitEvent(copies, computed, 0) != hipSuccess;
  wrong += hipMemcpyAsync(work.host.data(), work.result, kElements * sizeof(float), hipMemcpyDeviceToHost,
                          copies) != hipSuccess;
  wrong += hipStreamSynchronize(copies) != hipSuccess;

  float ms = -1.0f;
  wrong += hipEventElapsedTime(&ms, started, computed) != hipSuccess || ms < 0.0f;
  for (int i = 0; i < kElements; i++) wrong += work.host[i] != input[i] * work.factor;

  hipEventDestroy(copied);
  hipEventDestroy(started);
  hipEventDestroy(computed);
  hipStreamDestroy(copies);
  hipStreamDestroy(compute);
  hipFree(in);
  work.wrong = wrong;
}

int main() {
  int devices = 0;
  if (hipGetDeviceCount(&devices) != hipSuccess || devices < 1) {
    printf("multi_device: no device: 1 wrong\n");
    return 1;
  }
  Work works[2] = {{0, 2.0f}, {1 % devices, 3.0f}};
  std::thread first(drive, std::ref(works[0])), second(drive, std::ref(works[1]));
  first.join();
  second.join();
  int wrong = works[0].wrong + works[1].wrong;

  // Device 1's result into device 0's memory, then back to the host.
  wrong += hipSetDevice(works[0].device) != hipSuccess;
  wrong += hipMemcpyPeer(works[0].result, works[0].device, works[1].result, works[1].device,
                         kElements * sizeof(float)) != hipSuccess;
  std::vector<float> copied(kElements);
  wrong += hipMemcpy(copied.data(), works[0].result, kElements * sizeof(float), hipMemcpyDeviceToHost) != hipSuccess;
  for (int i = 0; i < kElements; i++) wrong += copied[i] != works[1].host[i];
  hipFree(works[0].result);
  hipFree(works[1].result);

  int used = devices < 2 ? 1 : 2;
  printf("multi_device: 2 host threads on %d device%s, 2 streams and 3 events each, a peer copy: %d wrong\n", used,
         used == 1 ? "" : "s", wrong);
  return wrong == 0 ? 0 : 1;
}
