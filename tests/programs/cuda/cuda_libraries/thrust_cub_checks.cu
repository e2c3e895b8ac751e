// NVIDIA's Thrust and CUB as the toolkit ships them, on the simulated
// device: CUB's block, warp and device algorithms (their inline PTX
// translated) and Thrust's CUDA backend (built on CUB), each against a
// result computed on the host.  Prints "NAME: ok" or "NAME: FAILED ...".
#include <cub/cub.cuh>
#include <thrust/copy.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/extrema.h>
#include <thrust/functional.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/iterator/zip_iterator.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

static int failures = 0;

static void report(const char *name, bool ok) {
  printf("%s: %s\n", name, ok ? "ok" : "FAILED");
  if (!ok) failures++;
}

constexpr int BLOCK = 128;
constexpr int BLOCKS = 8;
constexpr int N = BLOCK * BLOCKS;

// Each block: its sum (BlockReduce), the inclusive prefix sums of its
// values (BlockScan), and each warp's sum (WarpReduce) and maximum.
__global__ void block_and_warp(const int *in, int *block_sums, int *prefix, int *warp_sums, int *warp_max) {
  using Reduce = cub::BlockReduce<int, BLOCK>;
  using Scan = cub::BlockScan<int, BLOCK>;
  using Warp = cub::WarpReduce<int>;
  __shared__ typename Reduce::TempStorage reduce_storage;
  __shared__ typename Scan::TempStorage scan_storage;
  __shared__ typename Warp::TempStorage warp_storage[BLOCK / 32];
  int i = blockIdx.x * BLOCK + threadIdx.x;
  int value = in[i];
  int sum = Reduce(reduce_storage).Sum(value);
  if (threadIdx.x == 0) block_sums[blockIdx.x] = sum;
  int inclusive;
  Scan(scan_storage).InclusiveSum(value, inclusive);
  prefix[i] = inclusive;
  int warp = threadIdx.x / 32;
  int warp_sum = Warp(warp_storage[warp]).Sum(value);
  __syncwarp();
  int largest = Warp(warp_storage[warp]).Reduce(value, cub::Max());
  if (threadIdx.x % 32 == 0) {
    warp_sums[i / 32] = warp_sum;
    warp_max[i / 32] = largest;
  }
}

struct Square {
  __host__ __device__ int operator()(int x) const { return x * x; }
};

struct IsOdd {
  __host__ __device__ bool operator()(int x) const { return x % 2 != 0; }
};

static void block_and_warp_checks(const std::vector<int> &values) {
  int *in, *block_sums, *prefix, *warp_sums, *warp_max;
  cudaMallocManaged(&in, N * sizeof(int));
  cudaMallocManaged(&block_sums, BLOCKS * sizeof(int));
  cudaMallocManaged(&prefix, N * sizeof(int));
  cudaMallocManaged(&warp_sums, N / 32 * sizeof(int));
  cudaMallocManaged(&warp_max, N / 32 * sizeof(int));
  std::copy(values.begin(), values.end(), in);
  block_and_warp<<<BLOCKS, BLOCK>>>(in, block_sums, prefix, warp_sums, warp_max);
  bool launched = cudaDeviceSynchronize() == cudaSuccess;
  bool sums = launched, scans = launched, warps = launched;
  for (int b = 0; b < BLOCKS; b++) {
    int running = 0;
    for (int t = 0; t < BLOCK; t++) {
      running += values[b * BLOCK + t];
      scans &= prefix[b * BLOCK + t] == running;
    }
    sums &= block_sums[b] == running;
  }
  for (int w = 0; w < N / 32; w++) {
    auto first = values.begin() + w * 32;
    warps &= warp_sums[w] == std::accumulate(first, first + 32, 0);
    warps &= warp_max[w] == *std::max_element(first, first + 32);
  }
  report("cub BlockReduce Sum", sums);
  report("cub BlockScan InclusiveSum", scans);
  report("cub WarpReduce Sum and Max", warps);
  cudaFree(in);
  cudaFree(block_sums);
  cudaFree(prefix);
  cudaFree(warp_sums);
  cudaFree(warp_max);
}

static void device_checks(const std::vector<int> &values) {
  int n = int(values.size());
  int *keys, *items, *out, *sorted_keys, *sorted_items;
  cudaMalloc(&keys, n * sizeof(int));
  cudaMalloc(&items, n * sizeof(int));
  cudaMalloc(&out, n * sizeof(int));
  cudaMalloc(&sorted_keys, n * sizeof(int));
  cudaMalloc(&sorted_items, n * sizeof(int));
  std::vector<int> positions(n);
  std::iota(positions.begin(), positions.end(), 0);
  cudaMemcpy(keys, values.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpy(items, positions.data(), n * sizeof(int), cudaMemcpyHostToDevice);

  void *storage = nullptr;
  size_t bytes = 0, most = 0;
  cub::DeviceReduce::Sum(storage, bytes, keys, out, n);
  most = std::max(most, bytes);
  cub::DeviceScan::ExclusiveSum(storage, bytes, keys, out, n);
  most = std::max(most, bytes);
  cub::DeviceRadixSort::SortPairs(storage, bytes, keys, sorted_keys, items, sorted_items, n);
  most = std::max(most, bytes);
  cudaMalloc(&storage, most);

  bytes = most;
  cub::DeviceReduce::Sum(storage, bytes, keys, out, n);
  int sum = 0;
  cudaMemcpy(&sum, out, sizeof(int), cudaMemcpyDeviceToHost);
  report("cub DeviceReduce Sum", sum == std::accumulate(values.begin(), values.end(), 0));

  bytes = most;
  cub::DeviceScan::ExclusiveSum(storage, bytes, keys, out, n);
  std::vector<int> scanned(n), expected(n);
  cudaMemcpy(scanned.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::exclusive_scan(values.begin(), values.end(), expected.begin(), 0);
  report("cub DeviceScan ExclusiveSum", scanned == expected);

  bytes = most;
  cub::DeviceRadixSort::SortPairs(storage, bytes, keys, sorted_keys, items, sorted_items, n);
  std::vector<int> got_keys(n), got_items(n);
  cudaMemcpy(got_keys.data(), sorted_keys, n * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(got_items.data(), sorted_items, n * sizeof(int), cudaMemcpyDeviceToHost);
  std::vector<int> order(positions);
  // Radix sort is stable: equal keys keep their order.
  std::sort(order.begin(), order.end(),
            [&](int a, int b) { return values[a] < values[b] || (values[a] == values[b] && a < b); });
  bool pairs = true;
  for (int i = 0; i < n; i++) pairs &= got_items[i] == order[i] && got_keys[i] == values[order[i]];
  report("cub DeviceRadixSort SortPairs", pairs);
  for (int *p : {keys, items, out, sorted_keys, sorted_items}) cudaFree(p);
  cudaFree(storage);
}

static void thrust_checks(const std::vector<int> &values) {
  thrust::device_vector<int> device(values.begin(), values.end());
  long sum = thrust::reduce(device.begin(), device.end(), 0L);
  report("thrust reduce", sum == std::accumulate(values.begin(), values.end(), 0L));

  thrust::device_vector<int> squares(device.size());
  thrust::transform(device.begin(), device.end(), squares.begin(), Square());
  thrust::inclusive_scan(squares.begin(), squares.end(), squares.begin());
  thrust::host_vector<int> got = squares;
  std::vector<int> expected(values.size());
  std::transform(values.begin(), values.end(), expected.begin(), [](int x) { return x * x; });
  std::inclusive_scan(expected.begin(), expected.end(), expected.begin());
  report("thrust transform, inclusive_scan", std::equal(expected.begin(), expected.end(), got.begin()));

  thrust::sort(device.begin(), device.end(), thrust::greater<int>());
  thrust::host_vector<int> sorted = device;
  std::vector<int> reference(values);
  std::sort(reference.begin(), reference.end(), std::greater<int>());
  report("thrust sort greater", std::equal(reference.begin(), reference.end(), sorted.begin()));

  thrust::device_vector<int> odd(values.size());
  auto end = thrust::copy_if(device.begin(), device.end(), odd.begin(), IsOdd());
  long kept = end - odd.begin();
  report("thrust copy_if", kept == std::count_if(values.begin(), values.end(), [](int x) { return x % 2 != 0; }));
}

// A point compared by its distance from the origin, as a program's own
// comparator over its own type.
struct Point {
  float x, y;
};
struct Nearer {
  __host__ __device__ bool operator()(const Point &a, const Point &b) const {
    return a.x * a.x + a.y * a.y < b.x * b.x + b.y * b.y;
  }
};
// (value, index) pairs, the smaller value winning, then the smaller index.
typedef thrust::tuple<float, long> Ranked;
struct Lowest {
  __host__ __device__ Ranked operator()(const Ranked &a, const Ranked &b) const {
    if (thrust::get<0>(a) != thrust::get<0>(b)) return thrust::get<0>(a) < thrust::get<0>(b) ? a : b;
    return thrust::get<1>(a) < thrust::get<1>(b) ? a : b;
  }
};

// thrust's extrema: a reduction of (value, index) pairs whose result only
// the block's first thread stores, over one partial tile (10 and 1,000
// points) or several tiles (5,000).  Distinct values: the first extreme is
// the only one.
static void extrema_checks() {
  bool elements = true, pairs = true;
  for (int n : {10, 1000, 5000}) {
    std::vector<Point> points(n);
    for (int i = 0; i < n; i++) points[i] = Point{float((i * 7919L + 3) % n), 0.5f};
    thrust::device_vector<Point> device(points.begin(), points.end());
    long lowest = std::min_element(points.begin(), points.end(), Nearer()) - points.begin();
    long highest = std::max_element(points.begin(), points.end(), Nearer()) - points.begin();
    auto both = thrust::minmax_element(thrust::device, device.begin(), device.end(), Nearer());
    elements &= thrust::min_element(thrust::device, device.begin(), device.end(), Nearer()) - device.begin() == lowest &&
                thrust::max_element(thrust::device, device.begin(), device.end(), Nearer()) - device.begin() == highest &&
                both.first - device.begin() == lowest && both.second - device.begin() == highest;
    thrust::device_vector<float> xs(n);
    for (int i = 0; i < n; i++) xs[i] = points[i].x;
    auto ranked = thrust::make_zip_iterator(thrust::make_tuple(xs.begin(), thrust::counting_iterator<long>(0)));
    Ranked found = thrust::reduce(thrust::device, ranked, ranked + n, Ranked(1e30f, -1), Lowest());
    pairs &= thrust::get<1>(found) == lowest && thrust::get<0>(found) == points[lowest].x;
  }
  report("thrust min_element, max_element, minmax_element", elements);
  report("thrust reduce of (value, index) pairs", pairs);
}

int main() {
  std::vector<int> values(N);
  for (int i = 0; i < N; i++) values[i] = (i * 7919 + 13) % 1000 - 300;
  block_and_warp_checks(values);
  std::vector<int> many(50000);
  for (size_t i = 0; i < many.size(); i++) many[i] = int((i * 2654435761u) % 100003) - 50000;
  device_checks(many);
  thrust_checks(many);
  extrema_checks();
  printf("thrust and cub: %d failed\n", failures);
  return failures != 0;
}
