// hipCUB over rocPRIM: a block reduction in a kernel of 128 threads, and the
// device-wide sum, exclusive sum and radix sort of pairs, each result checked
// against the same computation on the host.
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

constexpr unsigned kBlock = 128, kSize = 50000;

struct __align__(16) Tally {
  int count, total;
};

__global__ void block_totals(const int *in, Tally *out, unsigned n) {
  using reduce = hipcub::BlockReduce<int, kBlock>;
  __shared__ typename reduce::TempStorage storage;
  unsigned i = blockIdx.x * kBlock + threadIdx.x;
  int total = reduce(storage).Sum(i < n ? in[i] : 0);
  if (threadIdx.x == 0) out[blockIdx.x] = Tally{static_cast<int>(std::min(kBlock, n - blockIdx.x * kBlock)), total};
}

template <typename T>
static T *device_copy(const std::vector<T> &host) {
  T *device;
  hipMalloc(&device, host.size() * sizeof(T));
  hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice);
  return device;
}

template <typename T>
static std::vector<T> host_copy(const T *device, size_t n) {
  std::vector<T> host(n);
  hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost);
  return host;
}

// hipCUB's two calls: the first sizes the temporary storage, the second runs.
template <typename Call>
static hipError_t with_storage(Call call) {
  size_t bytes = 0;
  if (hipError_t error = call(nullptr, bytes)) return error;
  void *storage;
  hipMalloc(&storage, bytes);
  hipError_t error = call(storage, bytes);
  hipDeviceSynchronize();
  hipFree(storage);
  return error;
}

static int failures = 0;

static void check(const char *what, hipError_t error, bool ok) {
  ok = ok && error == hipSuccess;
  printf("%s: %s\n", what, ok ? "ok" : "MISMATCH");
  failures += !ok;
}

int main() {
  std::vector<int> values(kSize);
  for (unsigned i = 0; i < kSize; ++i) values[i] = static_cast<int>((i * 7919u) % 1000u) - 500;
  int *in = device_copy(values), *out, *sum;
  hipMalloc(&out, kSize * sizeof(int));
  hipMalloc(&sum, sizeof(int));

  unsigned blocks = (kSize + kBlock - 1) / kBlock;
  Tally *tallies;
  hipMalloc(&tallies, blocks * sizeof(Tally));
  block_totals<<<blocks, kBlock>>>(in, tallies, kSize);
  bool ok = true;
  std::vector<Tally> got = host_copy(tallies, blocks);
  for (unsigned b = 0; b < blocks; ++b) {
    unsigned first = b * kBlock, last = std::min(first + kBlock, kSize);
    ok &= got[b].count == static_cast<int>(last - first) &&
          got[b].total == std::accumulate(values.begin() + first, values.begin() + last, 0);
  }
  check("BlockReduce", hipGetLastError(), ok);

  hipError_t error = with_storage([&](void *storage, size_t &bytes) {
    return hipcub::DeviceReduce::Sum(storage, bytes, in, sum, kSize);
  });
  check("DeviceReduce::Sum", error, host_copy(sum, 1)[0] == std::accumulate(values.begin(), values.end(), 0));

  std::vector<int> want(kSize);
  for (unsigned i = 0; i < kSize; ++i) want[i] = i ? want[i - 1] + values[i - 1] : 0;
  error = with_storage([&](void *storage, size_t &bytes) {
    return hipcub::DeviceScan::ExclusiveSum(storage, bytes, in, out, kSize);
  });
  check("DeviceScan::ExclusiveSum", error, host_copy(out, kSize) == want);

  std::vector<unsigned> keys(kSize), payload(kSize), order(kSize);
  for (unsigned i = 0; i < kSize; ++i) keys[i] = i * 2654435761u, payload[i] = i;
  std::iota(order.begin(), order.end(), 0u);  // the keys are distinct: one order sorts them
  std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
  std::vector<unsigned> sorted_keys(kSize);
  for (unsigned i = 0; i < kSize; ++i) sorted_keys[i] = keys[order[i]];
  unsigned *keys_in = device_copy(keys), *keys_out, *payload_in = device_copy(payload), *payload_out;
  hipMalloc(&keys_out, kSize * sizeof(unsigned));
  hipMalloc(&payload_out, kSize * sizeof(unsigned));
  error = with_storage([&](void *storage, size_t &bytes) {
    return hipcub::DeviceRadixSort::SortPairs(storage, bytes, keys_in, keys_out, payload_in, payload_out, kSize);
  });
  check("DeviceRadixSort::SortPairs", error,
        host_copy(keys_out, kSize) == sorted_keys && host_copy(payload_out, kSize) == order);

  printf("hipcub: %s\n", failures ? "FAILED" : "all match the host");
  return failures != 0;
}
