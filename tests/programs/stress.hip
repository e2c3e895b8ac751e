// stress: workloads for long debugging sessions.
//   threads N LAUNCHES  N host threads, thread i on device i % devices, each
//                       launching work<<<2, 64>>> LAUNCHES times, then
//                       synchronizing; prints "threads: N x LAUNCHES, 0 wrong"
//   spin SECONDS        launches tick<<<1, 32>>> every 10 ms until gdb sets
//                       stop_requested (or SECONDS pass); prints its pid first
#include <hip/hip_runtime.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

__global__ void work(unsigned* counter) {
  if (threadIdx.x == 0) atomicAdd(counter, 1u);
}

__global__ void tick(int* out, int round) { out[threadIdx.x] = round; }

volatile int stop_requested = 0;

static int threads(int count, int launches) {
  int devices = 1;
  hipGetDeviceCount(&devices);
  std::vector<unsigned> totals(count);
  std::vector<std::thread> pool;
  for (int i = 0; i < count; i++) {
    pool.emplace_back([&totals, i, launches, devices] {
      hipSetDevice(i % devices);
      unsigned* counter;
      hipMalloc(&counter, sizeof(unsigned));
      hipMemset(counter, 0, sizeof(unsigned));
      for (int n = 0; n < launches; n++) work<<<2, 64>>>(counter);
      hipMemcpy(&totals[i], counter, sizeof(unsigned), hipMemcpyDeviceToHost);
      hipFree(counter);
    });
  }
  for (std::thread& thread : pool) thread.join();
  int wrong = 0;
  for (unsigned total : totals) wrong += total != 2u * launches;
  printf("threads: %d x %d, %d wrong\n", count, launches, wrong);
  return wrong == 0 ? 0 : 1;
}

static int spin(int seconds) {
  printf("pid %d\n", static_cast<int>(getpid()));
  fflush(stdout);
  int* out;
  hipMalloc(&out, 32 * sizeof(int));
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
  int round = 0;
  while (!stop_requested && std::chrono::steady_clock::now() < end) {
    tick<<<1, 32>>>(out, round++);
    hipDeviceSynchronize();
    usleep(10000);
  }
  hipFree(out);
  printf("spin: %s after %d rounds\n", stop_requested ? "stopped" : "timed out", round);
  return stop_requested ? 0 : 1;
}

int main(int argc, char** argv) {
  if (argc == 4 && !strcmp(argv[1], "threads")) return threads(atoi(argv[2]), atoi(argv[3]));
  if (argc == 3 && !strcmp(argv[1], "spin")) return spin(atoi(argv[2]));
  fprintf(stderr, "usage: stress threads N LAUNCHES | stress spin SECONDS\n");
  return 2;
}
