// Built as `hipcc --hipstdpar`: the standard parallel algorithms on data a
// kernel wrote, then a kernel on what they computed.
#include <hip/hip_runtime.h>

#include <algorithm>
#include <cstdio>
#include <execution>
#include <numeric>

__global__ void triple(int *values, int count) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) values[i] *= 3;
}

int main() {
  constexpr int kCount = 1000;
  int *values;
  hipMallocManaged(&values, kCount * sizeof(int));
  std::iota(values, values + kCount, 1);
  std::transform(std::execution::par_unseq, values, values + kCount, values, [](int v) { return v * 2; });
  triple<<<(kCount + 255) / 256, 256>>>(values, kCount);
  hipDeviceSynchronize();
  long sum = std::reduce(std::execution::par_unseq, values, values + kCount, 0L);
  printf("sum %ld\n", sum);  // 6 * (1 + ... + 1000)
  hipFree(values);
  return sum == 6L * kCount * (kCount + 1) / 2 ? 0 : 1;
}
