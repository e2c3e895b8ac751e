// The pairs benchmark: four computations as GPU programs write them, each
// timed against the same computation as OpenMP loops (pairs_openmp.cpp) in
// the same run, the two taking turns, and their results compared.
//
//   stencil    5-point Jacobi steps on a 2D grid, tiles with halos in shared memory
//   reduction  a block reduction (a tree in shared memory), then a final pass
//   nbody      one n-body step, tiles of bodies in shared memory (GPU Gems 3, ch. 31)
//   scan       prefix sums: blocks scanned in shared memory, their sums, the sums added back
//
// Usage: pairs [full|small] [time|quick|check] [PAIR...].  `time` (the
// default) prints the device's workers and the OpenMP team, then "time NAME
// HIP_US OPENMP_US HIP_RUNS OPENMP_RUNS" a pair: the medians of each side's
// runs (the kernels, and the reduction's copy of its sum; the OpenMP loops;
// each on data already in place), each side with at least a second of
// runs.  `quick` times 3 runs of each side.  `check` runs each side once and
// times nothing.  All print "check NAME ok" a pair, or "check NAME FAILED:
// ..." and exit with status 1.  PAIRs named (stencil, reduction, nbody,
// scan) run alone.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "pairs.h"

#define HIP_CHECK(call)                                                                          \
  do {                                                                                           \
    hipError_t status_ = (call);                                                                 \
    if (status_ != hipSuccess) {                                                                 \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(status_)); \
      exit(2);                                                                                   \
    }                                                                                            \
  } while (0)

// ---------------------------------------------------------------- kernels

// One Jacobi step: each block loads its tile and a halo of one point around
// it into shared memory, then each thread updates its point.  The grid's
// edges stay as they are.
__global__ void jacobi_step(const float* in, float* out, int nx, int ny) {
  __shared__ float tile[TILE + 2][TILE + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * TILE + tx, y = blockIdx.y * TILE + ty;
  int lx = tx + 1, ly = ty + 1;
  bool inside = x < nx && y < ny;
  if (inside) {
    tile[ly][lx] = in[y * nx + x];
    if (tx == 0 && x > 0) tile[ly][0] = in[y * nx + x - 1];
    if (tx == TILE - 1 && x + 1 < nx) tile[ly][lx + 1] = in[y * nx + x + 1];
    if (ty == 0 && y > 0) tile[0][lx] = in[(y - 1) * nx + x];
    if (ty == TILE - 1 && y + 1 < ny) tile[ly + 1][lx] = in[(y + 1) * nx + x];
  }
  __syncthreads();
  if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1) {
    float c = tile[ly][lx];
    out[y * nx + x] =
        c + DIFFUSION * (tile[ly][lx - 1] + tile[ly][lx + 1] + tile[ly - 1][lx] + tile[ly + 1][lx] - 4.0f * c);
  }
}

// Each thread sums a stride of `in`, then the block adds its threads' sums
// in a tree in shared memory; thread 0 writes the block's sum.  Launched
// twice: over the array, then one block over the blocks' sums.
__global__ void reduce_sum(const float* in, float* out, long n) {
  __shared__ float sums[REDUCE_THREADS];
  int t = threadIdx.x;
  float sum = 0;
  for (long i = blockIdx.x * (long)blockDim.x + t; i < n; i += (long)blockDim.x * gridDim.x) sum += in[i];
  sums[t] = sum;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (t < stride) sums[t] += sums[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = sums[0];
}

// One n-body step (GPU Gems 3, ch. 31): each thread owns a body; the block
// loads the bodies a tile at a time into shared memory and each thread adds
// their pull on its body.
__device__ float3 body_body_interaction(float4 me, float4 other, float3 acceleration) {
  float3 r;
  r.x = other.x - me.x;
  r.y = other.y - me.y;
  r.z = other.z - me.z;
  float distance_squared = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING_SQUARED;
  float distance_sixth = distance_squared * distance_squared * distance_squared;
  float s = other.w * (1.0f / sqrtf(distance_sixth));
  acceleration.x += r.x * s;
  acceleration.y += r.y * s;
  acceleration.z += r.z * s;
  return acceleration;
}

__global__ void nbody_step(const float4* position, const float4* velocity, float4* new_position,
                           float4* new_velocity, int n) {
  __shared__ float4 bodies[NBODY_TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float4 me = i < n ? position[i] : make_float4(0, 0, 0, 0);
  float3 acceleration = make_float3(0, 0, 0);
  for (int start = 0; start < n; start += NBODY_TILE) {
    int j = start + threadIdx.x;
    bodies[threadIdx.x] = j < n ? position[j] : make_float4(0, 0, 0, 0);  // a body of no mass past the end
    __syncthreads();
    for (int k = 0; k < NBODY_TILE; k++) acceleration = body_body_interaction(me, bodies[k], acceleration);
    __syncthreads();
  }
  if (i < n) {
    float4 v = velocity[i];
    v.x += acceleration.x * TIME_STEP;
    v.y += acceleration.y * TIME_STEP;
    v.z += acceleration.z * TIME_STEP;
    new_velocity[i] = v;
    new_position[i] = make_float4(me.x + v.x * TIME_STEP, me.y + v.y * TIME_STEP, me.z + v.z * TIME_STEP, me.w);
  }
}

// The exclusive scan of a block's SCAN_ELEMENTS values in `temp`, in place
// (Blelloch's, as in GPU Gems 3, ch. 39: an up-sweep, then a down-sweep);
// returns their sum.
__device__ int block_exclusive_scan(int* temp) {
  int t = threadIdx.x;
  int offset = 1;
  for (int d = SCAN_ELEMENTS / 2; d > 0; d /= 2) {
    __syncthreads();
    if (t < d) temp[offset * (2 * t + 2) - 1] += temp[offset * (2 * t + 1) - 1];
    offset *= 2;
  }
  __syncthreads();
  int total = temp[SCAN_ELEMENTS - 1];
  __syncthreads();
  if (t == 0) temp[SCAN_ELEMENTS - 1] = 0;
  for (int d = 1; d < SCAN_ELEMENTS; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (t < d) {
      int left = offset * (2 * t + 1) - 1, right = offset * (2 * t + 2) - 1;
      int value = temp[left];
      temp[left] = temp[right];
      temp[right] += value;
    }
  }
  __syncthreads();
  return total;
}

// Kernel 1: each block's exclusive scan, and the block's sum.
__global__ void scan_blocks(const int* in, int* out, int* block_sums, long n) {
  __shared__ int temp[SCAN_ELEMENTS];
  int t = threadIdx.x;
  long base = blockIdx.x * (long)SCAN_ELEMENTS;
  long a = base + t, b = base + t + SCAN_THREADS;
  temp[t] = a < n ? in[a] : 0;
  temp[t + SCAN_THREADS] = b < n ? in[b] : 0;
  int total = block_exclusive_scan(temp);
  if (a < n) out[a] = temp[t];
  if (b < n) out[b] = temp[t + SCAN_THREADS];
  if (t == 0) block_sums[blockIdx.x] = total;
}

// Kernel 2, one block: the exclusive scan of the blocks' sums, a chunk of
// SCAN_ELEMENTS at a time, each chunk starting from the sum of those before.
__global__ void scan_block_sums(int* sums, int count) {
  __shared__ int temp[SCAN_ELEMENTS];
  int t = threadIdx.x;
  int carry = 0;
  for (int base = 0; base < count; base += SCAN_ELEMENTS) {
    int a = base + t, b = base + t + SCAN_THREADS;
    temp[t] = a < count ? sums[a] : 0;
    temp[t + SCAN_THREADS] = b < count ? sums[b] : 0;
    int total = block_exclusive_scan(temp);
    if (a < count) sums[a] = temp[t] + carry;
    if (b < count) sums[b] = temp[t + SCAN_THREADS] + carry;
    carry += total;
  }
}

// Kernel 3: each block's values get the sum of the blocks before it.
__global__ void add_block_sums(int* out, const int* sums, long n) {
  int add = sums[blockIdx.x];
  long a = blockIdx.x * (long)SCAN_ELEMENTS + threadIdx.x, b = a + SCAN_THREADS;
  if (a < n) out[a] += add;
  if (b < n) out[b] += add;
}

// ---------------------------------------------------------------- measuring

using Clock = std::chrono::steady_clock;

static double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

static double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  size_t middle = samples.size() / 2;
  return samples.size() % 2 ? samples[middle] : (samples[middle - 1] + samples[middle]) / 2;
}

// Each side's work at least this long in all, over at least this many runs
// (`quick`: at least this many runs alone).
constexpr double MIN_SECONDS = 1.0;
constexpr int MIN_RUNS = 5;
constexpr int QUICK_RUNS = 3;

static bool timing = true;
static bool quick = false;
static bool failed = false;

// `hip()` and `openmp()` each run their side once and answer the seconds
// of its timed part.  Each runs once as a warm-up, then `check()` compares
// their results.  When timing, they take turns, the side with less time so
// far running next (one HIP run of a second, say, between ten OpenMP runs
// of a tenth), until each has had MIN_RUNS runs and MIN_SECONDS in all;
// then the medians are printed.
template <typename Hip, typename OpenMP, typename Check>
static void measure(const char* name, Hip hip, OpenMP openmp, Check check) {
  hip();
  openmp();
  std::string problem = check();
  if (!problem.empty()) {
    printf("check %s FAILED: %s\n", name, problem.c_str());
    failed = true;
    return;
  }
  printf("check %s ok\n", name);
  fflush(stdout);
  if (!timing) return;
  std::vector<double> hip_times, openmp_times;
  double hip_total = 0, openmp_total = 0;
  int min_runs = quick ? QUICK_RUNS : MIN_RUNS;
  double min_seconds = quick ? 0 : MIN_SECONDS;
  auto more = [&](const std::vector<double>& times, double total) {
    return (int)times.size() < min_runs || total < min_seconds;
  };
  while (more(hip_times, hip_total) || more(openmp_times, openmp_total)) {
    bool hip_next = more(hip_times, hip_total) && (!more(openmp_times, openmp_total) || hip_total <= openmp_total);
    if (hip_next) {
      hip_times.push_back(hip());
      hip_total += hip_times.back();
    } else {
      openmp_times.push_back(openmp());
      openmp_total += openmp_times.back();
    }
  }
  // The last runs' results again, so that a run that went wrong while timed is seen.
  problem = check();
  if (!problem.empty()) {
    printf("check %s FAILED after timing: %s\n", name, problem.c_str());
    failed = true;
    return;
  }
  printf("time %s %.1f %.1f %zu %zu\n", name, median(hip_times) * 1e6, median(openmp_times) * 1e6, hip_times.size(),
         openmp_times.size());
  fflush(stdout);
}

// Largest |a - b| over `count` floats, each relative to max(1, |b|).
static double largest_difference(const float* a, const float* b, size_t count) {
  double largest = 0;
  for (size_t i = 0; i < count; i++) {
    double difference = std::fabs((double)a[i] - b[i]) / std::max(1.0, std::fabs((double)b[i]));
    if (!(difference <= largest)) largest = difference;  // a NaN is the largest
  }
  return largest;
}

static std::string compare_floats(const float* hip, const float* openmp, size_t count, double tolerance) {
  double difference = largest_difference(hip, openmp, count);
  if (difference <= tolerance) return "";
  char text[160];
  snprintf(text, sizeof text, "largest relative difference %.3g, over the tolerance %.3g", difference, tolerance);
  return text;
}

// Deterministic values in [0, 1).
struct Random {
  unsigned long state;
  float next() {
    state = state * 6364136223846793005ul + 1442695040888963407ul;
    return (state >> 40) / float(1 << 24);
  }
};

template <typename T>
static T* device_copy(const std::vector<T>& host) {
  T* device = nullptr;
  HIP_CHECK(hipMalloc(&device, host.size() * sizeof(T)));
  HIP_CHECK(hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
  return device;
}

template <typename T>
static std::vector<T> host_copy(const T* device, size_t count) {
  std::vector<T> host(count);
  HIP_CHECK(hipMemcpy(host.data(), device, count * sizeof(T), hipMemcpyDeviceToHost));
  return host;
}

// ---------------------------------------------------------------- the pairs

struct Sizes {
  int nx, ny, iterations;  // stencil
  long reduce_n;
  int bodies;
  long scan_n;
};

static void stencil_pair(const Sizes& sizes) {
  int nx = sizes.nx, ny = sizes.ny, iterations = sizes.iterations;
  size_t points = (size_t)nx * ny;
  std::vector<float> initial(points);
  Random random{1};
  for (float& value : initial) value = random.next();
  float* d_a = device_copy(initial);
  float* d_b = device_copy(initial);
  float* d_result = nullptr;
  std::vector<float> a(initial), b(initial);
  float* openmp_result = nullptr;
  dim3 block(TILE, TILE), grid((nx + TILE - 1) / TILE, (ny + TILE - 1) / TILE);
  auto hip = [&] {
    HIP_CHECK(hipMemcpy(d_a, initial.data(), points * sizeof(float), hipMemcpyHostToDevice));
    HIP_CHECK(hipMemcpy(d_b, initial.data(), points * sizeof(float), hipMemcpyHostToDevice));
    float *in = d_a, *out = d_b;
    auto start = Clock::now();
    for (int step = 0; step < iterations; step++) {
      jacobi_step<<<grid, block>>>(in, out, nx, ny);
      std::swap(in, out);
    }
    HIP_CHECK(hipDeviceSynchronize());
    double seconds = seconds_since(start);
    HIP_CHECK(hipGetLastError());
    d_result = in;
    return seconds;
  };
  auto openmp = [&] {
    std::copy(initial.begin(), initial.end(), a.begin());
    std::copy(initial.begin(), initial.end(), b.begin());
    auto start = Clock::now();
    openmp_result = stencil_openmp(a.data(), b.data(), nx, ny, iterations);
    return seconds_since(start);
  };
  auto check = [&] { return compare_floats(host_copy(d_result, points).data(), openmp_result, points, 1e-5); };
  measure("stencil", hip, openmp, check);
  HIP_CHECK(hipFree(d_a));
  HIP_CHECK(hipFree(d_b));
}

static void reduction_pair(const Sizes& sizes) {
  long n = sizes.reduce_n;
  std::vector<float> values(n);
  Random random{2};
  for (float& value : values) value = random.next();
  float* d_values = device_copy(values);
  int blocks = (int)std::min<long>(REDUCE_BLOCKS, (n + REDUCE_THREADS - 1) / REDUCE_THREADS);
  float *d_partial = nullptr, *d_sum = nullptr;
  HIP_CHECK(hipMalloc(&d_partial, blocks * sizeof(float)));
  HIP_CHECK(hipMalloc(&d_sum, sizeof(float)));
  float hip_sum = 0, openmp_sum = 0;
  auto hip = [&] {
    auto start = Clock::now();
    reduce_sum<<<blocks, REDUCE_THREADS>>>(d_values, d_partial, n);
    reduce_sum<<<1, REDUCE_THREADS>>>(d_partial, d_sum, blocks);
    HIP_CHECK(hipMemcpy(&hip_sum, d_sum, sizeof(float), hipMemcpyDeviceToHost));
    double seconds = seconds_since(start);
    HIP_CHECK(hipGetLastError());
    return seconds;
  };
  auto openmp = [&] {
    auto start = Clock::now();
    openmp_sum = reduce_openmp(values.data(), n);
    return seconds_since(start);
  };
  auto check = [&] { return compare_floats(&hip_sum, &openmp_sum, 1, 1e-5); };
  measure("reduction", hip, openmp, check);
  HIP_CHECK(hipFree(d_values));
  HIP_CHECK(hipFree(d_partial));
  HIP_CHECK(hipFree(d_sum));
}

static void nbody_pair(const Sizes& sizes) {
  int n = sizes.bodies;
  std::vector<Body> position(n), velocity(n);
  Random random{3};
  for (Body& body : position)
    body = {random.next() * 2 - 1, random.next() * 2 - 1, random.next() * 2 - 1, random.next()};  // mass in w
  for (Body& body : velocity) body = {random.next() - 0.5f, random.next() - 0.5f, random.next() - 0.5f, 0};
  Body* d_position = device_copy(position);
  Body* d_velocity = device_copy(velocity);
  Body *d_new_position = nullptr, *d_new_velocity = nullptr;
  HIP_CHECK(hipMalloc(&d_new_position, n * sizeof(Body)));
  HIP_CHECK(hipMalloc(&d_new_velocity, n * sizeof(Body)));
  std::vector<Body> new_position(n), new_velocity(n);
  int blocks = (n + NBODY_TILE - 1) / NBODY_TILE;
  auto hip = [&] {
    auto start = Clock::now();
    nbody_step<<<blocks, NBODY_TILE>>>(reinterpret_cast<const float4*>(d_position),
                                       reinterpret_cast<const float4*>(d_velocity),
                                       reinterpret_cast<float4*>(d_new_position),
                                       reinterpret_cast<float4*>(d_new_velocity), n);
    HIP_CHECK(hipDeviceSynchronize());
    double seconds = seconds_since(start);
    HIP_CHECK(hipGetLastError());
    return seconds;
  };
  auto openmp = [&] {
    auto start = Clock::now();
    nbody_openmp(position.data(), velocity.data(), new_position.data(), new_velocity.data(), n);
    return seconds_since(start);
  };
  auto check = [&] {
    std::vector<Body> hip_position = host_copy(d_new_position, n), hip_velocity = host_copy(d_new_velocity, n);
    std::string problem = compare_floats(&hip_position[0].x, &new_position[0].x, 4 * (size_t)n, 1e-4);
    if (problem.empty()) problem = compare_floats(&hip_velocity[0].x, &new_velocity[0].x, 4 * (size_t)n, 1e-4);
    return problem;
  };
  measure("nbody", hip, openmp, check);
  for (Body* pointer : {d_position, d_velocity, d_new_position, d_new_velocity}) HIP_CHECK(hipFree(pointer));
}

static void scan_pair(const Sizes& sizes) {
  long n = sizes.scan_n;
  long blocks = (n + SCAN_ELEMENTS - 1) / SCAN_ELEMENTS;
  std::vector<int> values(n);
  Random random{4};
  for (int& value : values) value = (int)(random.next() * 10);  // counts 0-9, as a stream compaction scans
  int* d_values = device_copy(values);
  int *d_out = nullptr, *d_sums = nullptr;
  HIP_CHECK(hipMalloc(&d_out, n * sizeof(int)));
  HIP_CHECK(hipMalloc(&d_sums, blocks * sizeof(int)));
  std::vector<int> out(n), block_sums(blocks);
  auto hip = [&] {
    auto start = Clock::now();
    scan_blocks<<<blocks, SCAN_THREADS>>>(d_values, d_out, d_sums, n);
    scan_block_sums<<<1, SCAN_THREADS>>>(d_sums, (int)blocks);
    add_block_sums<<<blocks, SCAN_THREADS>>>(d_out, d_sums, n);
    HIP_CHECK(hipDeviceSynchronize());
    double seconds = seconds_since(start);
    HIP_CHECK(hipGetLastError());
    return seconds;
  };
  auto openmp = [&] {
    auto start = Clock::now();
    scan_openmp(values.data(), out.data(), block_sums.data(), n);
    return seconds_since(start);
  };
  auto check = [&]() -> std::string {
    std::vector<int> hip_out = host_copy(d_out, n);
    long sum = 0;
    for (long i = 0; i < n; i++) {
      if (hip_out[i] != out[i] || out[i] != sum) {
        char text[160];
        snprintf(text, sizeof text, "element %ld: HIP %d, OpenMP %d, serial %ld", i, hip_out[i], out[i], sum);
        return text;
      }
      sum += values[i];
    }
    return "";
  };
  measure("scan", hip, openmp, check);
  for (int* pointer : {d_values, d_out, d_sums}) HIP_CHECK(hipFree(pointer));
}

int main(int argc, char** argv) {
  bool small = false;
  std::vector<std::string> only;  // the pairs named, all if none
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "small")) small = true;
    else if (!strcmp(argv[i], "stencil") || !strcmp(argv[i], "reduction") || !strcmp(argv[i], "nbody") ||
             !strcmp(argv[i], "scan"))
      only.push_back(argv[i]);
    else if (!strcmp(argv[i], "check")) timing = false;
    else if (!strcmp(argv[i], "quick")) quick = true;
    else if (strcmp(argv[i], "full") && strcmp(argv[i], "time")) {
      fprintf(stderr, "usage: %s [full|small] [time|quick|check] [stencil|reduction|nbody|scan]...\n", argv[0]);
      return 2;
    }
  }
  // Sizes not multiples of the blocks' in the small runs, so that the
  // kernels' bounds are checked too.
  Sizes sizes = small ? Sizes{70, 45, 5, 100003, 1000, 1000003} : Sizes{2048, 2048, 100, 1L << 25, 16384, 1L << 25};

  // OpenMP's threads sleep as soon as a parallel loop ends (the device's
  // workers spin 100 us at most): left spinning for libomp's default 200 ms,
  // they would take the processors from the kernels that run next.
  setenv("KMP_BLOCKTIME", "0", 0);
  // The OpenMP team is as large as the device's workers, its compute units.
  hipDeviceProp_t properties;
  HIP_CHECK(hipGetDeviceProperties(&properties, 0));
  int workers = properties.multiProcessorCount;
  int team = openmp_threads(workers);
  printf("workers %d\nopenmp_threads %d\n", workers, team);
  fflush(stdout);

  struct Pair {
    const char* name;
    void (*run)(const Sizes&);
  };
  for (Pair pair : {Pair{"stencil", stencil_pair}, Pair{"reduction", reduction_pair}, Pair{"nbody", nbody_pair},
                    Pair{"scan", scan_pair}})
    if (only.empty() || std::find(only.begin(), only.end(), pair.name) != only.end()) pair.run(sizes);
  return failed ? 1 : 0;
}
