// A device assert() that fails in threads 17 and 40 of block 1 (of 2 blocks
// of 64), then the CUDA calls after it.  The first argument chooses the
// synchronising call that meets the failure: device (cudaDeviceSynchronize,
// the default), stream (cudaStreamSynchronize, everything launched on a
// stream of its own) or memcpy (a device-to-host cudaMemcpy).  Two more
// kernels each set a flag in mapped host memory: one queued behind the
// failing kernel, one launched after the failure; neither runs.  With
// other-device (as device, then device 1 is used: two devices needed, as
// gpusym's by default), another device's context has not failed.
// Exits 3 when the synchronising call returned cudaErrorAssert (the
// program's own choice), 1 when it did not, 2 when the set-up failed.
// The same source builds with nvcc for a GPU.
#include <cassert>
#include <cstdio>
#include <cstring>

__global__ void check(const int *data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(data[i] == 0);
}

__global__ void mark(int *flag) { *flag = 1; }

static void show(const char *call, cudaError_t error) {
  printf("%s: %s (%d)\n", call, cudaGetErrorName(error), static_cast<int>(error));
  fflush(stdout);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "device";
  constexpr int kBlocks = 2, kThreads = 64;
  int host[kBlocks * kThreads] = {};
  host[kThreads + 17] = host[kThreads + 40] = 1;
  int *data = nullptr, *flags = nullptr, *device_flags = nullptr;
  cudaStream_t stream = nullptr;
  if (cudaMalloc(&data, sizeof host) || cudaMemcpy(data, host, sizeof host, cudaMemcpyHostToDevice) ||
      cudaHostAlloc(&flags, 2 * sizeof(int), cudaHostAllocMapped) ||
      cudaHostGetDevicePointer(&device_flags, flags, 0) || cudaStreamCreate(&stream)) {
    puts("set-up failed");
    return 2;
  }
  flags[0] = flags[1] = 0;
  cudaStream_t on = strcmp(mode, "stream") == 0 ? stream : nullptr;
  check<<<kBlocks, kThreads, 0, on>>>(data);
  mark<<<1, 1, 0, on>>>(device_flags);  // queued behind the failing kernel
  cudaError_t met;
  if (strcmp(mode, "stream") == 0) {
    show("cudaStreamSynchronize", met = cudaStreamSynchronize(stream));
  } else if (strcmp(mode, "memcpy") == 0) {
    show("cudaMemcpy", met = cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  } else {
    show("cudaDeviceSynchronize", met = cudaDeviceSynchronize());
  }
  show("cudaGetLastError", cudaGetLastError());
  show("cudaGetLastError", cudaGetLastError());
  show("cudaPeekAtLastError", cudaPeekAtLastError());
  void *more = nullptr;
  show("cudaMalloc", cudaMalloc(&more, 256));
  show("cudaMemcpy", cudaMemcpy(host, data, sizeof host, cudaMemcpyDeviceToHost));
  show("cudaStreamSynchronize", cudaStreamSynchronize(stream));
  mark<<<1, 1>>>(device_flags + 1);
  show("launch", cudaGetLastError());
  show("cudaDeviceSynchronize", cudaDeviceSynchronize());
  printf("queued kernel ran: %d, later kernel ran: %d\n", flags[0], flags[1]);
  int devices = 0;
  show("cudaGetDeviceCount", cudaGetDeviceCount(&devices));
  int device = -1;
  show("cudaGetDevice", cudaGetDevice(&device));
  printf("device %d\n", device);
  fflush(stdout);
  if (strcmp(mode, "other-device") == 0) {
    show("cudaSetDevice", cudaSetDevice(1));
    int *other = nullptr;
    show("cudaMallocManaged", cudaMallocManaged(&other, sizeof(int)));
    *other = 0;
    mark<<<1, 1>>>(other);
    show("cudaDeviceSynchronize", cudaDeviceSynchronize());
    printf("kernel ran on device 1: %d\n", *other);
    show("cudaSetDevice", cudaSetDevice(0));
    show("cudaMalloc", cudaMalloc(&more, 256));
  }
  return met == cudaErrorAssert ? 3 : 1;
}
