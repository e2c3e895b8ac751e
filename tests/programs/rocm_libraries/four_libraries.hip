// rocPRIM, hipCUB, rocThrust and hipRAND in one program, as a Monte Carlo
// code uses them together: hipRAND's device API draws points, hipCUB counts
// the hits in each block, rocPRIM scans the counts, rocThrust sorts and sums
// the draws; each result checked against the host.
#include <hip/hip_runtime.h>
#include <hipcub/hipcub.hpp>
#include <hiprand/hiprand_kernel.h>
#include <rocprim/rocprim.hpp>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

constexpr unsigned kBlock = 128, kBlocks = 40, kPoints = kBlock * kBlocks;

// Each thread draws one point in the unit square (Philox, its own
// subsequence) and the block counts those inside the quarter circle.
__global__ void draw(unsigned long long seed, float *xs, float *ys, int *hits) {
  using reduce = hipcub::BlockReduce<int, kBlock>;
  __shared__ typename reduce::TempStorage storage;
  unsigned i = blockIdx.x * kBlock + threadIdx.x;
  hiprandStatePhilox4_32_10_t state;
  hiprand_init(seed, i, 0, &state);
  float x = hiprand_uniform(&state), y = hiprand_uniform(&state);
  xs[i] = x;
  ys[i] = y;
  int total = reduce(storage).Sum(x * x + y * y <= 1.0f ? 1 : 0);
  if (threadIdx.x == 0) hits[blockIdx.x] = total;
}

static int failures = 0;
static void report(const char *name, bool ok) {
  printf("%s: %s\n", name, ok ? "ok" : "FAILED");
  failures += !ok;
}

int main() {
  thrust::device_vector<float> xs(kPoints), ys(kPoints);
  thrust::device_vector<int> hits(kBlocks), running(kBlocks);
  draw<<<kBlocks, kBlock>>>(2024, thrust::raw_pointer_cast(xs.data()), thrust::raw_pointer_cast(ys.data()),
                            thrust::raw_pointer_cast(hits.data()));
  thrust::host_vector<float> hx = xs, hy = ys;
  thrust::host_vector<int> block_hits = hits;

  // hipCUB: each block's count, recounted on the host from the same draws.
  bool counts = true;
  for (unsigned b = 0; b < kBlocks; b++) {
    int expected = 0;
    for (unsigned i = b * kBlock; i < (b + 1) * kBlock; i++) expected += hx[i] * hx[i] + hy[i] * hy[i] <= 1.0f;
    counts &= block_hits[b] == expected;
  }
  report("hipcub block counts", counts);
  bool in_range = std::all_of(hx.begin(), hx.end(), [](float v) { return v > 0.0f && v <= 1.0f; });
  report("hiprand uniforms in (0, 1]", in_range);

  // rocPRIM: the running count of hits over the blocks.
  size_t bytes = 0;
  int *in = thrust::raw_pointer_cast(hits.data()), *out = thrust::raw_pointer_cast(running.data());
  rocprim::inclusive_scan(nullptr, bytes, in, out, kBlocks, rocprim::plus<int>());
  thrust::device_vector<char> scratch(bytes);
  rocprim::inclusive_scan(thrust::raw_pointer_cast(scratch.data()), bytes, in, out, kBlocks, rocprim::plus<int>());
  thrust::host_vector<int> scanned = running;
  std::vector<int> expected(kBlocks);
  std::partial_sum(block_hits.begin(), block_hits.end(), expected.begin());
  report("rocprim scan of the counts", std::equal(expected.begin(), expected.end(), scanned.begin()));

  // rocThrust: the draws sorted, and their sum.
  thrust::sort(xs.begin(), xs.end());
  thrust::host_vector<float> sorted = xs;
  std::vector<float> reference(hx.begin(), hx.end());
  std::sort(reference.begin(), reference.end());
  report("rocthrust sort", std::equal(reference.begin(), reference.end(), sorted.begin()));
  double sum = thrust::reduce(xs.begin(), xs.end(), 0.0);
  double host_sum = std::accumulate(reference.begin(), reference.end(), 0.0);
  report("rocthrust reduce", sum > host_sum - 1e-2 && sum < host_sum + 1e-2);

  printf("pi is about %.2f\n", 4.0 * scanned[kBlocks - 1] / kPoints);
  printf("four libraries: %s\n", failures ? "FAILED" : "all match the host");
  return failures != 0;
}
