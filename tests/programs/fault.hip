// fault: kernels that fail, each in block 1 thread 17 only (the other lanes
// of the 2 blocks of 64 do nothing), for the runtime's fault reports.
//   past-end  writes the element just past the end of a 256-byte allocation
//   far       writes 1 GiB past its start, far from any allocation
//   freed     reads from an allocation freed before the launch
//   assert    a device assert() that fails
//   abort     a device abort()
//   stack     recursion that overflows the lane's stack
//   host      a null-pointer write in host code, after a kernel ran
//   chained   the same with the program's own SIGSEGV handler, installed
//             before the first launch: it gets the fault and exits 3
//   copies    copies and frees that are invalid fail as before; exits 0
// Prints "base 0x..." (the allocation the kernel gets) before launching.
#include <hip/hip_runtime.h>

#include <cassert>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <unistd.h>

namespace fault {
__device__ bool chosen() { return blockIdx.x == 1 && threadIdx.x == 17; }

template <typename T>
__global__ void poke(T* data, long index) {
  if (chosen()) data[index] = T(1);
}

__global__ void peek(const float* data, float* out) {
  if (chosen()) out[0] = data[5];
}

__global__ void check(const int* data) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  assert(data[i] == 0);
}

__global__ void stop() {
  if (chosen()) abort();
}

__device__ int descend(int n) {
  volatile char frame[1024];
  frame[n % 1024] = static_cast<char>(n);
  return n == 0 ? 0 : descend(n - 1) + frame[7];
}

__global__ void recurse(int* out, int depth) {
  if (chosen()) out[0] = descend(depth);
}
}  // namespace fault

constexpr int kCount = 64;  // 256 bytes of float or int

static void show(const void* base) {
  printf("base %p\n", base);
  fflush(stdout);
}

static int finish() {
  hipDeviceSynchronize();
  puts("not reached");
  return 0;
}

static void own_handler(int) {
  const char text[] = "fault: own handler\n";
  write(STDERR_FILENO, text, sizeof text - 1);
  _exit(3);
}

static int copies() {
  float* data;
  float host[kCount] = {};
  hipMalloc(&data, sizeof host);
  int wrong = 0;
  wrong += hipMemcpy(data, host, sizeof host + 4, hipMemcpyHostToDevice) != hipErrorInvalidValue;
  wrong += hipMemset(data + 1, 0, sizeof host) != hipErrorInvalidValue;
  wrong += hipMemcpy(data, host, sizeof host, hipMemcpyHostToDevice) != hipSuccess;
  wrong += hipFree(data) != hipSuccess;
  wrong += hipMemcpy(host, data, sizeof host, hipMemcpyDeviceToHost) != hipErrorInvalidValue;
  wrong += hipFree(data) != hipErrorInvalidValue;
  // Many allocations and frees: the freed ones' addresses come back only later.
  void* first = nullptr;
  for (int i = 0; i < 1000; i++) {
    void* memory;
    wrong += hipMalloc(&memory, 1000) != hipSuccess;
    if (i == 0) first = memory;
    wrong += i > 0 && memory == first;
    wrong += reinterpret_cast<uintptr_t>(memory) % 256 != 0;
    memset(memory, 1, 1000);
    wrong += hipFree(memory) != hipSuccess;
  }
  printf("copies: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (strcmp(mode, "copies") == 0) return copies();
  if (strcmp(mode, "chained") == 0) signal(SIGSEGV, own_handler);
  float* data;
  hipMalloc(&data, kCount * sizeof(float));
  hipMemset(data, 0, kCount * sizeof(float));
  if (strcmp(mode, "past-end") == 0) {
    show(data);
    fault::poke<float><<<2, 64>>>(data, kCount);
    return finish();
  }
  if (strcmp(mode, "far") == 0) {
    show(data);
    fault::poke<float><<<2, 64>>>(data, 1L << 28);
    return finish();
  }
  if (strcmp(mode, "freed") == 0) {
    show(data);
    hipFree(data);
    float* out;
    hipMalloc(&out, sizeof(float));  // not where the freed one was
    fault::peek<<<2, 64>>>(data, out);
    return finish();
  }
  if (strcmp(mode, "assert") == 0) {
    int* values;
    hipMalloc(&values, 2 * kCount * sizeof(int));
    hipMemset(values, 0, 2 * kCount * sizeof(int));
    int one = 1;
    hipMemcpy(values + kCount + 17, &one, sizeof one, hipMemcpyHostToDevice);
    show(values);
    fault::check<<<2, 64>>>(values);
    return finish();
  }
  if (strcmp(mode, "abort") == 0) {
    fault::stop<<<2, 64>>>();
    return finish();
  }
  if (strcmp(mode, "stack") == 0) {
    fault::recurse<<<2, 64>>>(reinterpret_cast<int*>(data), 1 << 20);
    return finish();
  }
  if (strcmp(mode, "host") == 0 || strcmp(mode, "chained") == 0) {
    fault::poke<float><<<2, 64>>>(data, 0);
    hipDeviceSynchronize();
    *static_cast<volatile int*>(nullptr) = 1;
    puts("not reached");
    return 0;
  }
  fprintf(stderr, "usage: fault past-end|far|freed|assert|abort|stack|host|chained|copies\n");
  return 2;
}
