// launch_loop: kernel launches for the launch-recording interposer, in a
// fixed order.
//   launch_loop N        N launches of loop::count<<<i % 3 + 1, 32, 8 * (i % 4)>>>,
//                        2 of it by hipLaunchKernel on its handle (grid 4, block 16),
//                        1 of loop::mark<<<1, 64>>> from a thread named "launcher",
//                        1 of loop::count<<<1, 2048>>> that the runtime refuses;
//                        prints the blocks counted, exits 0 if they are right.
//   launch_loop N empty  N launches of loop::empty<<<1, 1>>> (for timing).
#include <hip/hip_runtime.h>
#include <pthread.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>

namespace loop {
__global__ void count(unsigned int* counter) {
  if (threadIdx.x == 0) atomicAdd(counter, 1u);
}

__global__ void mark(unsigned int* counter) {
  if (threadIdx.x == 0) atomicAdd(counter, 100u);
}

__global__ void empty() {}
}  // namespace loop

static int empty_loop(int launches) {
  for (int i = 0; i < launches; i++) loop::empty<<<1, 1>>>();
  hipDeviceSynchronize();
  printf("%d empty launches\n", launches);
  return hipGetLastError() == hipSuccess ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: launch_loop N [empty]\n");
    return 2;
  }
  int launches = atoi(argv[1]);
  if (argc > 2 && strcmp(argv[2], "empty") == 0) return empty_loop(launches);

  unsigned int* counter;
  hipMalloc(&counter, sizeof *counter);
  hipMemset(counter, 0, sizeof *counter);
  unsigned int expected = 0;
  for (int i = 0; i < launches; i++) {
    loop::count<<<i % 3 + 1, 32, 8 * (i % 4)>>>(counter);
    expected += i % 3 + 1;
  }
  void* args[] = {&counter};
  hipLaunchKernel(reinterpret_cast<const void*>(&loop::count), dim3(4), dim3(16), args, 0, nullptr);
  hipLaunchKernel(reinterpret_cast<const void*>(&loop::count), dim3(4), dim3(16), args, 0, nullptr);
  expected += 8;
  std::thread launcher([counter] {
    pthread_setname_np(pthread_self(), "launcher");
    loop::mark<<<1, 64>>>(counter);
  });
  launcher.join();
  expected += 100;
  loop::count<<<1, 2048>>>(counter);
  hipError_t refused = hipGetLastError();
  hipDeviceSynchronize();
  unsigned int host = 0;
  hipMemcpy(&host, counter, sizeof host, hipMemcpyDeviceToHost);
  printf("blocks %u expected %u, oversized block: %s\n", host, expected, hipGetErrorName(refused));
  return host == expected && refused == hipErrorInvalidConfiguration ? 0 : 1;
}
