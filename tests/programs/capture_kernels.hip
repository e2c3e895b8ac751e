// capture_kernels: launches for gpusym capture to record.
//   loop N   N launches of tick<<<>>>, one hipLaunchKernelGGL and one
//            hipLaunchKernel on the handle, then a check; exits 0 if all ran.
//   oob      prints two lines and the start of a third, then a kernel
//            writes far out of bounds (a crash in a kernel).
//   hang N   N launches of tick<<<>>>, then a loop that never ends.
//   refused  tick<<<1, 32>>>, then tick<<<1, 2048>>>, which the runtime refuses
//            (more threads than a block may have); exits 0 if it did.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace capture {
__global__ void tick(unsigned int* counter) {
  if (threadIdx.x == 0) atomicAdd(counter, 1u);
}

template <typename T>
__global__ void scatter(T* data, long stride) {
  data[(blockIdx.x * blockDim.x + threadIdx.x) * stride] = T(1);
}
}  // namespace capture

static int loop(int launches) {
  unsigned int* counter;
  hipMalloc(&counter, sizeof *counter);
  hipMemset(counter, 0, sizeof *counter);
  for (int i = 0; i < launches; i++) capture::tick<<<2, 32>>>(counter);
  hipLaunchKernelGGL(capture::tick, dim3(3), dim3(64), 0, 0, counter);
  void* args[] = {&counter};
  hipLaunchKernel(reinterpret_cast<const void*>(&capture::tick), dim3(4), dim3(16), args, 0, nullptr);
  hipDeviceSynchronize();
  unsigned int host = 0;
  hipMemcpy(&host, counter, sizeof host, hipMemcpyDeviceToHost);
  unsigned int expected = 2u * launches + 3u + 4u;
  printf("blocks %u expected %u\n", host, expected);
  return host == expected ? 0 : 1;
}

static int out_of_bounds() {
  float* data;
  hipMalloc(&data, 64 * sizeof(float));
  printf("allocated %zu bytes\n", 64 * sizeof(float));
  printf("launching scatter\n");
  printf("synchronizing...");
  capture::scatter<float><<<2, 64>>>(data, 1L << 24);
  hipDeviceSynchronize();
  puts("not reached");
  return 0;
}

static int hang(int launches) {
  unsigned int* counter;
  hipMalloc(&counter, sizeof *counter);
  for (int i = 0; i < launches; i++) capture::tick<<<1, 32>>>(counter);
  hipDeviceSynchronize();
  for (volatile unsigned long spin = 0;; spin++) {
  }
}

static int refused() {
  unsigned int* counter;
  hipMalloc(&counter, sizeof *counter);
  capture::tick<<<1, 32>>>(counter);
  capture::tick<<<1, 2048>>>(counter);
  hipError_t error = hipGetLastError();
  printf("%s\n", hipGetErrorName(error));
  return error == hipErrorInvalidConfiguration ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc >= 3 && strcmp(argv[1], "loop") == 0) return loop(atoi(argv[2]));
  if (argc >= 2 && strcmp(argv[1], "oob") == 0) return out_of_bounds();
  if (argc >= 3 && strcmp(argv[1], "hang") == 0) return hang(atoi(argv[2]));
  if (argc >= 2 && strcmp(argv[1], "refused") == 0) return refused();
  fprintf(stderr, "usage: capture_kernels loop N | oob | hang N | refused\n");
  return 2;
}
