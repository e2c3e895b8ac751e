// Many small asynchronous launches of multi-block kernels from two host
// threads, then one synchronize: every block of every launch must run once.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <thread>

__global__ void count_blocks(unsigned int* counters, int slot) {
  if (threadIdx.x == 0) atomicAdd(&counters[slot], 1u);
}

int main() {
  const int launches_per_thread = 3000;
  unsigned int* counters;
  hipMalloc(&counters, 2 * sizeof(unsigned int));
  hipMemset(counters, 0, 2 * sizeof(unsigned int));
  auto launcher = [counters](int slot) {
    for (int i = 0; i < launches_per_thread; i++) count_blocks<<<1 + i % 3, 32>>>(counters, slot);
  };
  std::thread first(launcher, 0), second(launcher, 1);
  first.join();
  second.join();
  hipDeviceSynchronize();
  unsigned int host[2];
  hipMemcpy(host, counters, sizeof host, hipMemcpyDeviceToHost);
  unsigned int expected = 0;
  for (int i = 0; i < launches_per_thread; i++) expected += 1 + i % 3;
  printf("blocks %u %u expected %u\n", host[0], host[1], expected);
  return host[0] == expected && host[1] == expected && hipGetLastError() == hipSuccess ? 0 : 1;
}
