// Speed of the simulated runtime, each figure next to a baseline measured in
// the same run: launch latency against a condition-variable round trip
// between two threads, a launch through <<<>>> against hipLaunchKernel on
// the kernel's handle, hipMalloc+hipFree against malloc+free, kernels
// against the same work as a serial host loop.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <thread>
#include <vector>

using Clock = std::chrono::steady_clock;

__global__ void empty() {}

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void block_sum(const float* in, float* partial, int n) {
  __shared__ float tile[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  tile[t] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) tile[t] += tile[t + stride];
    __syncthreads();
  }
  if (t == 0) partial[blockIdx.x] = tile[0];
}

// The same sums, each wavefront reducing with shuffles and one barrier
// joining the block's 4 wavefronts.
__global__ void shuffle_sum(const float* in, float* partial, int n) {
  __shared__ float waves[4];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x + t;
  float sum = i < n ? in[i] : 0.0f;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
  if (__lane_id() == 0) waves[t / warpSize] = sum;
  __syncthreads();
  if (t == 0) partial[blockIdx.x] = waves[0] + waves[1] + waves[2] + waves[3];
}

// What block_sum's 9 barriers cost alone: every lane suspended and resumed
// at each.  The same with one barrier: the difference is 8 switches a lane.
__global__ void barriers_only() {
  for (int barrier = 0; barrier < 9; barrier++) __syncthreads();
}

__global__ void one_barrier() { __syncthreads(); }

double stack_switch_ns(int contexts, uint64_t rounds);  // stack_switch.cpp

static double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

template <typename F>
static double median_us(int repeats, F body) {
  std::vector<double> samples;
  for (int r = 0; r < repeats; r++) {
    auto start = Clock::now();
    body();
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count());
  }
  return median(samples);
}

static double condvar_round_trip_us(int repeats) {
  std::mutex mutex;
  std::condition_variable cv;
  int turn = 0;
  bool stop = false;
  std::thread partner([&] {
    std::unique_lock<std::mutex> lock(mutex);
    for (;;) {
      cv.wait(lock, [&] { return turn == 1 || stop; });
      if (stop) return;
      turn = 0;
      cv.notify_all();
    }
  });
  double result = median_us(repeats, [&] {
    std::unique_lock<std::mutex> lock(mutex);
    turn = 1;
    cv.notify_all();
    cv.wait(lock, [&] { return turn == 0; });
  });
  {
    std::lock_guard<std::mutex> lock(mutex);
    stop = true;
  }
  cv.notify_all();
  partner.join();
  return result;
}

int main() {
  const int repeats = 2000;
  empty<<<1, 1>>>();
  hipDeviceSynchronize();
  double launch = median_us(repeats, [] {
    empty<<<1, 1>>>();
    hipDeviceSynchronize();
  });
  double round_trip = condvar_round_trip_us(repeats);
  printf("launch_latency_us %.2f\n", launch);
  printf("condvar_round_trip_us %.2f\n", round_trip);

  // The host's cost of one launch: batches queued without synchronizing
  // each launch, the two ways taking turns.
  const int batch = 256;
  std::vector<double> chevron, handle;
  for (int r = 0; r < 200; r++) {
    auto start = Clock::now();
    for (int i = 0; i < batch; i++) empty<<<1, 1>>>();
    chevron.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() / batch);
    hipDeviceSynchronize();
    start = Clock::now();
    for (int i = 0; i < batch; i++) hipLaunchKernel(reinterpret_cast<const void*>(&empty), dim3(1), dim3(1), nullptr, 0, 0);
    handle.push_back(std::chrono::duration<double, std::micro>(Clock::now() - start).count() / batch);
    hipDeviceSynchronize();
  }
  printf("launch_chevron_us %.3f\n", median(chevron));
  printf("launch_handle_us %.3f\n", median(handle));

  // Guarded device memory maps and unmaps pages: a system call each way.
  double device_alloc = median_us(repeats, [] {
    void* memory;
    hipMalloc(&memory, 256);
    hipFree(memory);
  });
  double host_alloc = median_us(repeats, [] {
    void* memory = malloc(256);
    __asm__ volatile("" : : "r"(memory) : "memory");
    free(memory);
  });
  printf("alloc_free_us %.3f\n", device_alloc);
  printf("host_alloc_free_us %.3f\n", host_alloc);

  const int n = 1 << 24;
  std::vector<float> a(n, 1.0f), b(n, 2.0f), c(n);
  float *da, *db, *dc, *dp;
  hipMalloc(&da, n * sizeof(float));
  hipMalloc(&db, n * sizeof(float));
  hipMalloc(&dc, n * sizeof(float));
  hipMalloc(&dp, n / 256 * sizeof(float));
  hipMemcpy(da, a.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(db, b.data(), n * sizeof(float), hipMemcpyHostToDevice);
  double kernel = median_us(5, [&] {
    vector_add<<<n / 256, 256>>>(da, db, dc, n);
    hipDeviceSynchronize();
  });
  double loop = median_us(5, [&] {
    for (int i = 0; i < n; i++) c[i] = a[i] + b[i];
    __asm__ volatile("" : : "r"(c.data()) : "memory");
  });
  printf("vector_add_us %.0f\n", kernel);
  printf("vector_add_loop_us %.0f\n", loop);

  double reduce = median_us(5, [&] {
    block_sum<<<n / 256, 256>>>(da, dp, n);
    hipDeviceSynchronize();
  });
  std::vector<float> partial(n / 256);
  double reduce_loop = median_us(5, [&] {
    for (int block = 0; block < n / 256; block++) {
      float sum = 0;
      for (int i = 0; i < 256; i++) sum += a[block * 256 + i];
      partial[block] = sum;
    }
    __asm__ volatile("" : : "r"(partial.data()) : "memory");
  });
  printf("block_sum_us %.0f\n", reduce);
  printf("block_sum_loop_us %.0f\n", reduce_loop);

  double shuffles = median_us(5, [&] {
    shuffle_sum<<<n / 256, 256>>>(da, dp, n);
    hipDeviceSynchronize();
  });
  printf("shuffle_sum_us %.0f\n", shuffles);

  double barriers = median_us(5, [&] {
    barriers_only<<<n / 256, 256>>>();
    hipDeviceSynchronize();
  });
  printf("barriers_us %.0f\n", barriers);

  // One barrier switch, in a worker's time, next to the cheapest switch
  // between stacks on this machine (stack_switch.cpp), 256 contexts as a
  // block has 256 lanes.
  double one = median_us(5, [&] {
    one_barrier<<<n / 256, 256>>>();
    hipDeviceSynchronize();
  });
  hipDeviceProp_t properties;
  hipGetDeviceProperties(&properties, 0);  // a worker is a multiprocessor
  printf("barrier_switch_ns %.2f\n", (barriers - one) * 1000 * properties.multiProcessorCount / (8.0 * n));
  std::vector<double> bare;
  for (int r = 0; r < 5; r++) bare.push_back(stack_switch_ns(256, 20000));
  printf("stack_switch_ns %.2f\n", median(bare));
  return 0;
}
