// rocThrust over rocPRIM: device_vector, transform, reduce and sort, each
// result checked against the same computation on the host.
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

#include <algorithm>
#include <cstdio>
#include <vector>

struct square {
  __host__ __device__ long operator()(int x) const { return static_cast<long>(x) * x; }
};

static int failures = 0;

static void check(const char *what, bool ok) {
  printf("%s: %s\n", what, ok ? "ok" : "MISMATCH");
  failures += !ok;
}

int main() {
  constexpr int kSize = 50000;
  thrust::host_vector<int> values(kSize);
  for (int i = 0; i < kSize; ++i) values[i] = (i * 7919) % 1000 - 500;
  thrust::device_vector<int> device = values;

  thrust::device_vector<long> squares(kSize);
  thrust::transform(device.begin(), device.end(), squares.begin(), square());
  long want = 0;
  for (int value : values) want += static_cast<long>(value) * value;
  thrust::host_vector<long> got = squares;
  check("transform", got[kSize - 1] == square()(values[kSize - 1]));
  check("reduce", thrust::reduce(squares.begin(), squares.end(), 0L) == want);

  thrust::sort(device.begin(), device.end(), thrust::greater<int>());
  std::vector<int> sorted(values.begin(), values.end());
  std::sort(sorted.begin(), sorted.end(), [](int a, int b) { return a > b; });
  thrust::host_vector<int> result = device;
  check("sort", std::equal(sorted.begin(), sorted.end(), result.begin()));

  printf("rocthrust: %s\n", failures ? "FAILED" : "all match the host");
  return failures != 0;
}
