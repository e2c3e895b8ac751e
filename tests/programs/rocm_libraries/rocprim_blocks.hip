// rocPRIM's block- and warp-level primitives in kernels of 256 threads, each
// result checked against the same computation on the host.
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <cstdio>
#include <vector>

constexpr unsigned kBlock = 256, kBlocks = 8, kItems = 4, kWarp = 64;
constexpr unsigned kThreads = kBlock * kBlocks;

// Per block: the sum of its values (block_reduce), and per thread the
// inclusive and exclusive prefix sums of the block (block_scan).
__global__ void block_level(const int *in, int *sums, int *inclusive, int *exclusive) {
  using reduce = rocprim::block_reduce<int, kBlock>;
  using scan = rocprim::block_scan<int, kBlock>;
  __shared__ union {
    reduce::storage_type reduce;
    scan::storage_type scan;
  } storage;
  unsigned i = blockIdx.x * kBlock + threadIdx.x;
  int sum;
  reduce().reduce(in[i], sum, storage.reduce);
  if (threadIdx.x == 0) sums[blockIdx.x] = sum;
  __syncthreads();
  scan().inclusive_scan(in[i], inclusive[i], storage.scan);
  __syncthreads();
  scan().exclusive_scan(in[i], exclusive[i], 10, storage.scan, rocprim::plus<int>());
}

// Per wavefront of 64 lanes: the maximum (warp_reduce) and inclusive sums (warp_scan).
__global__ void warp_level(const int *in, int *maxima, int *inclusive) {
  using reduce = rocprim::warp_reduce<int, kWarp>;
  using scan = rocprim::warp_scan<int, kWarp>;
  __shared__ reduce::storage_type reduce_storage[kBlock / kWarp];
  __shared__ scan::storage_type scan_storage[kBlock / kWarp];
  unsigned i = blockIdx.x * kBlock + threadIdx.x, warp = threadIdx.x / kWarp;
  int maximum;
  reduce().reduce(in[i], maximum, reduce_storage[warp], rocprim::maximum<int>());
  if (threadIdx.x % kWarp == 0) maxima[i / kWarp] = maximum;
  scan().inclusive_scan(in[i], inclusive[i], scan_storage[warp]);
}

// Each block sorts its kBlock * kItems keys (block_radix_sort).
__global__ void block_sort(unsigned *keys) {
  using sort = rocprim::block_radix_sort<unsigned, kBlock, kItems>;
  __shared__ sort::storage_type storage;
  unsigned *tile = keys + blockIdx.x * kBlock * kItems, mine[kItems];
  for (unsigned k = 0; k < kItems; ++k) mine[k] = tile[threadIdx.x * kItems + k];
  sort().sort(mine, storage);
  for (unsigned k = 0; k < kItems; ++k) tile[threadIdx.x * kItems + k] = mine[k];
}

template <typename T>
static std::vector<T> to_host(const T *device, size_t n) {
  std::vector<T> host(n);
  hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost);
  return host;
}

template <typename T>
static T *to_device(const std::vector<T> &host) {
  T *device;
  hipMalloc(&device, host.size() * sizeof(T));
  hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice);
  return device;
}

static int failures = 0;

static void check(const char *what, bool ok) {
  printf("%s: %s\n", what, ok ? "ok" : "MISMATCH");
  failures += !ok;
}

int main() {
  std::vector<int> values(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) values[i] = static_cast<int>((i * 7919u) % 1000u) - 500;
  int *in = to_device(values), *sums, *inclusive, *exclusive, *maxima, *warp_inclusive;
  hipMalloc(&sums, kBlocks * sizeof(int));
  hipMalloc(&inclusive, kThreads * sizeof(int));
  hipMalloc(&exclusive, kThreads * sizeof(int));
  hipMalloc(&maxima, kThreads / kWarp * sizeof(int));
  hipMalloc(&warp_inclusive, kThreads * sizeof(int));
  block_level<<<kBlocks, kBlock>>>(in, sums, inclusive, exclusive);
  warp_level<<<kBlocks, kBlock>>>(in, maxima, warp_inclusive);

  std::vector<int> want_sums(kBlocks), want_inclusive(kThreads), want_exclusive(kThreads);
  std::vector<int> want_maxima(kThreads / kWarp, -1000), want_warp(kThreads);
  for (unsigned i = 0; i < kThreads; ++i) {
    bool block_start = i % kBlock == 0, warp_start = i % kWarp == 0;
    want_sums[i / kBlock] += values[i];
    want_exclusive[i] = block_start ? 10 : want_exclusive[i - 1] + values[i - 1];
    want_inclusive[i] = (block_start ? 0 : want_inclusive[i - 1]) + values[i];
    want_warp[i] = (warp_start ? 0 : want_warp[i - 1]) + values[i];
    want_maxima[i / kWarp] = std::max(want_maxima[i / kWarp], values[i]);
  }
  check("block_reduce", to_host(sums, kBlocks) == want_sums);
  check("block_scan inclusive", to_host(inclusive, kThreads) == want_inclusive);
  check("block_scan exclusive", to_host(exclusive, kThreads) == want_exclusive);
  check("warp_reduce", to_host(maxima, kThreads / kWarp) == want_maxima);
  check("warp_scan", to_host(warp_inclusive, kThreads) == want_warp);

  std::vector<unsigned> keys(kThreads * kItems);
  for (unsigned i = 0; i < keys.size(); ++i) keys[i] = i * 2654435761u;
  unsigned *device_keys = to_device(keys);
  block_sort<<<kBlocks, kBlock>>>(device_keys);
  for (auto tile = keys.begin(); tile != keys.end(); tile += kBlock * kItems) std::sort(tile, tile + kBlock * kItems);
  check("block_radix_sort", to_host(device_keys, keys.size()) == keys);

  printf("rocprim block primitives: %s\n", failures ? "FAILED" : "all match the host");
  return failures != 0;
}
