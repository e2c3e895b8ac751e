// rocPRIM's device-wide algorithms, each result checked against the same
// computation on the host: reduce, inclusive and exclusive scan (the
// decoupled look-back scan, whose blocks wait for the blocks before them),
// radix sort of keys and of pairs, and an even histogram.
#include <hip/hip_runtime.h>
#include <rocprim/rocprim.hpp>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

constexpr unsigned kSize = 100000;  // the scans take many blocks of 256 x 16 items

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

// rocPRIM's two calls: the first sizes the temporary storage, the second runs.
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

  hipError_t error = with_storage([&](void *storage, size_t &bytes) {
    return rocprim::reduce(storage, bytes, in, sum, kSize, rocprim::plus<int>());
  });
  check("reduce", error, host_copy(sum, 1)[0] == std::accumulate(values.begin(), values.end(), 0));

  std::vector<int> want(kSize);
  std::partial_sum(values.begin(), values.end(), want.begin());
  error = with_storage([&](void *storage, size_t &bytes) {
    return rocprim::inclusive_scan(storage, bytes, in, out, kSize, rocprim::plus<int>(), hipStreamPerThread);
  });
  check("inclusive_scan", error, host_copy(out, kSize) == want);

  for (unsigned i = 0; i < kSize; ++i) want[i] = i ? want[i - 1] + values[i - 1] : 5;
  error = with_storage([&](void *storage, size_t &bytes) {
    return rocprim::exclusive_scan(storage, bytes, in, out, 5, kSize, rocprim::plus<int>());
  });
  check("exclusive_scan", error, host_copy(out, kSize) == want);

  std::vector<unsigned> keys(kSize), payload(kSize);
  for (unsigned i = 0; i < kSize; ++i) keys[i] = i * 2654435761u, payload[i] = i;
  unsigned *keys_in = device_copy(keys), *keys_out, *payload_in = device_copy(payload), *payload_out;
  hipMalloc(&keys_out, kSize * sizeof(unsigned));
  hipMalloc(&payload_out, kSize * sizeof(unsigned));
  std::vector<unsigned> order(kSize);  // the keys are distinct: one order sorts them
  std::iota(order.begin(), order.end(), 0u);
  std::sort(order.begin(), order.end(), [&](unsigned a, unsigned b) { return keys[a] < keys[b]; });
  std::vector<unsigned> sorted_keys(kSize);
  for (unsigned i = 0; i < kSize; ++i) sorted_keys[i] = keys[order[i]];
  error = with_storage([&](void *storage, size_t &bytes) {
    return rocprim::radix_sort_keys(storage, bytes, keys_in, keys_out, kSize);
  });
  check("radix_sort_keys", error, host_copy(keys_out, kSize) == sorted_keys);
  error = with_storage([&](void *storage, size_t &bytes) {
    return rocprim::radix_sort_pairs(storage, bytes, keys_in, keys_out, payload_in, payload_out, kSize);
  });
  check("radix_sort_pairs", error, host_copy(keys_out, kSize) == sorted_keys && host_copy(payload_out, kSize) == order);

  // 10 bins of width 100 over [-500, 500).
  std::vector<unsigned> bins(10);
  for (int value : values) ++bins[(value + 500) / 100];
  unsigned *histogram;
  hipMalloc(&histogram, bins.size() * sizeof(unsigned));
  error = with_storage([&](void *storage, size_t &bytes) {
    return rocprim::histogram_even(storage, bytes, in, kSize, histogram, 11, -500, 500);
  });
  check("histogram_even", error, host_copy(histogram, bins.size()) == bins);

  // rocPRIM 5.3 reads gcnArch (ROCm 5's) beside gcnArchName.
  hipDeviceProp_t properties;
  hipGetDeviceProperties(&properties, 0);
  printf("device %s gcnArch %d\n", properties.gcnArchName, properties.gcnArch);
  printf("rocprim device algorithms: %s\n", failures ? "FAILED" : "all match the host");
  return failures != 0;
}
