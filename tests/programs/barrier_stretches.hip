// Kernels whose barriers every thread reaches in the same order, in the
// shapes the fast form's loop over a block's threads between two barriers
// must get right: a tree whose guard `t < stride` lets in no thread at its
// last level, a guard on a signed bound that goes negative, a value the
// same for every thread changed after each barrier, threads returning
// before a barrier, a whole block returning at once, barriers in a branch
// the same for every thread, 2D and 3D blocks, loops that wait at their
// top, lockstep steps only some threads reach, private arrays.  Each prints `NAME: ok` or
// `NAME: N wrong` against the host, then `barrier stretches: W wrong`.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kMaxThreads = 256;

// Sums of the block's values, a tree over any block size: each level halves
// `width` (rounding up) and lets in the threads below the half.
__global__ void tree_any_size(const int* in, int* out) {
  __shared__ int values[kMaxThreads];
  int t = threadIdx.x, n = blockDim.x;
  values[t] = in[blockIdx.x * n + t];
  __syncthreads();
  for (int width = n; width > 1;) {
    int half = (width + 1) / 2;
    if (t < width - half) values[t] += values[t + half];
    width = half;
    __syncthreads();
  }
  out[blockIdx.x * n + t] = values[0] + t;
}

// A guard on a signed bound that falls below 0: `t < limit` lets in no
// thread once limit is 0 or less, and every thread still goes on.
__global__ void signed_bound(int* out, int start) {
  __shared__ int count[kMaxThreads];
  int t = threadIdx.x;
  count[t] = 0;
  __syncthreads();
  for (int limit = start; limit > -3; limit -= 2) {
    if (t < limit) count[t] += limit;
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = count[t];
}

// Threads past `n` return before the first barrier; the others go on
// through a tree in which the returned ones take no part.
__global__ void early_return(const int* in, int* out, int n) {
  __shared__ int values[kMaxThreads];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  if (i >= n) return;
  values[t] = in[i];
  __syncthreads();
  for (int stride = 1; stride < blockDim.x; stride *= 2) {
    int mine = values[t];
    int other = t >= stride ? values[t - stride] : 0;
    __syncthreads();
    values[t] = mine + other;
    __syncthreads();
  }
  out[i] = values[t];
}

// Every thread of an odd block returns at once, before a barrier; the even
// blocks reverse their values through shared memory.
__global__ void whole_block_returns(const int* in, int* out) {
  __shared__ int values[kMaxThreads];
  int t = threadIdx.x, n = blockDim.x;
  out[blockIdx.x * n + t] = -1;
  if (blockIdx.x % 2) return;
  values[t] = in[blockIdx.x * n + t];
  __syncthreads();
  out[blockIdx.x * n + t] = values[n - 1 - t];
}

// Barriers in one arm of a branch the same for every thread, and a loop
// count read from memory.
__global__ void uniform_branch(const int* in, int* out, const int* rounds) {
  __shared__ int values[kMaxThreads];
  int t = threadIdx.x, n = blockDim.x;
  values[t] = in[blockIdx.x * n + t];
  __syncthreads();
  int total = 0;
  if (blockIdx.x % 3 == 1) {
    for (int r = 0; r < rounds[blockIdx.x]; r++) {
      total += values[(t + r) % n];
      __syncthreads();
      values[t] = total;
      __syncthreads();
    }
  } else {
    total = values[n - 1 - t] * 2;
  }
  out[blockIdx.x * n + t] = total;
}

// 2D and 3D blocks: a tree along x in each row, guarded by threadIdx.x.
__global__ void rows(const int* in, int* out) {
  __shared__ int values[kMaxThreads];
  int x = threadIdx.x, row = threadIdx.z * blockDim.y + threadIdx.y;
  int at = row * blockDim.x + x, flat = (blockIdx.x * blockDim.z * blockDim.y) * blockDim.x + at;
  values[at] = in[flat];
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (x < stride) values[at] += values[at + stride];
    __syncthreads();
  }
  out[flat] = values[row * blockDim.x];
}

// Loops that wait at their top, whose threads branch apart below the
// barrier (`if (t < d)`) and meet again before the loop's test: a Blelloch
// scan (an up-sweep, then a down-sweep), the exclusive scan of each block's
// 64 values, two a thread.
constexpr int kScanned = 64;
__global__ void wait_at_loop_top(const int* in, int* out) {
  __shared__ int values[kScanned];
  int t = threadIdx.x, base = blockIdx.x * kScanned, half = kScanned / 2;
  values[t] = in[base + t];
  values[t + half] = in[base + t + half];
  int offset = 1;
  for (int d = half; d > 0; d /= 2) {
    __syncthreads();
    if (t < d) values[offset * (2 * t + 2) - 1] += values[offset * (2 * t + 1) - 1];
    offset *= 2;
  }
  if (t == 0) values[kScanned - 1] = 0;
  for (int d = 1; d < kScanned; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (t < d) {
      int left = offset * (2 * t + 1) - 1, right = offset * (2 * t + 2) - 1;
      int l = values[left], r = values[right];
      values[left] = r;
      values[right] = r + l;
    }
  }
  __syncthreads();
  out[base + t] = values[t];
  out[base + t + half] = values[t + half];
}

// Lockstep steps only some threads reach: wait_at_loop_top's scan with the
// down-sweep as GPU Gems writes it (a read of __shared__ memory after a write, in a
// branch: a step before the read), and one thread adding up counts in a
// loop (a step before each trip's read).  Each block's exclusive scan of
// its 64 values, then each value plus the sum of those below 16 in its block.
__global__ void steps_in_branches(const int* in, int* out) {
  __shared__ int values[kScanned];
  __shared__ int small[kScanned];
  int t = threadIdx.x, base = blockIdx.x * kScanned, half = kScanned / 2;
  values[t] = in[base + t];
  values[t + half] = in[base + t + half];
  small[t] = in[base + t] & 15;
  small[t + half] = in[base + t + half] & 15;
  int offset = 1;
  for (int d = half; d > 0; d /= 2) {
    __syncthreads();
    if (t < d) values[offset * (2 * t + 2) - 1] += values[offset * (2 * t + 1) - 1];
    offset *= 2;
  }
  __syncthreads();
  if (t == 0) {
    values[kScanned - 1] = 0;
    for (int i = 1; i < kScanned; i++) small[0] += small[i];
  }
  for (int d = 1; d < kScanned; d *= 2) {
    offset /= 2;
    __syncthreads();
    if (t < d) {
      int left = offset * (2 * t + 1) - 1, right = offset * (2 * t + 2) - 1;
      int value = values[left];
      values[left] = values[right];
      values[right] += value;
    }
  }
  __syncthreads();
  out[base + t] = values[t] + small[0];
  out[base + t + half] = values[t + half] + small[0];
}

// A private array indexed by a loop counter the same for every thread,
// written after a barrier: each thread's elements are its own.  (A fast
// form that took the element's address for the same in every thread wrote
// one thread's array for all.)
__global__ void private_array(const int* in, int* out) {
  __shared__ int shifted[kMaxThreads];
  int t = threadIdx.x, n = blockDim.x;
  int mine[8];
  for (int d = 0; d < 8; d++) mine[d] = in[blockIdx.x * n + t] + d;
  for (int d = 0; d < 8; d++) {
    shifted[t] = mine[d];
    __syncthreads();
    mine[d] = shifted[(t + 1) % n];
    __syncthreads();
  }
  int sum = 0;
  for (int d = 0; d < 8; d++) sum += mine[d] * (d + 1);
  out[blockIdx.x * n + t] = sum;
}

static int wrong_cases = 0;

static void report(const char* name, const std::vector<int>& got, const std::vector<int>& expected) {
  int wrong = 0;
  for (size_t i = 0; i < got.size(); i++) wrong += got[i] != expected[i];
  if (wrong)
    printf("%s: %d wrong\n", name, wrong);
  else
    printf("%s: ok\n", name);
  wrong_cases += wrong != 0;
}

template <typename Launch>
static std::vector<int> on_device(size_t count, Launch launch) {
  int* out;
  hipMalloc(&out, count * sizeof(int));
  hipMemset(out, 0x7f, count * sizeof(int));
  launch(out);
  std::vector<int> result(count);
  hipMemcpy(result.data(), out, count * sizeof(int), hipMemcpyDeviceToHost);
  hipFree(out);
  return result;
}

int main() {
  const int blocks = 6, total = blocks * kMaxThreads;
  std::vector<int> input(total);
  for (int i = 0; i < total; i++) input[i] = (i * 7919) % 1000 - 300;
  int *in, *rounds;
  hipMalloc(&in, total * sizeof(int));
  hipMemcpy(in, input.data(), total * sizeof(int), hipMemcpyHostToDevice);
  std::vector<int> round_counts = {0, 3, 0, 0, 1, 2};
  hipMalloc(&rounds, blocks * sizeof(int));
  hipMemcpy(rounds, round_counts.data(), blocks * sizeof(int), hipMemcpyHostToDevice);

  for (int n : {1, 2, 37, 100, 256}) {
    std::vector<int> expected(blocks * n);
    for (int b = 0; b < blocks; b++) {
      int sum = 0;
      for (int t = 0; t < n; t++) sum += input[b * n + t];
      for (int t = 0; t < n; t++) expected[b * n + t] = sum + t;
    }
    char name[64];
    snprintf(name, sizeof name, "tree_any_size %d", n);
    report(name, on_device(blocks * n, [&](int* out) { tree_any_size<<<blocks, n>>>(in, out); }), expected);
  }

  for (int start : {-1, 0, 1, 6, 9}) {
    const int n = 10;
    std::vector<int> expected(blocks * n);
    for (int i = 0; i < blocks * n; i++) {
      int t = i % n, count = 0;
      for (int limit = start; limit > -3; limit -= 2)
        if (t < limit) count += limit;
      expected[i] = count;
    }
    char name[64];
    snprintf(name, sizeof name, "signed_bound %d", start);
    report(name, on_device(blocks * n, [&](int* out) { signed_bound<<<blocks, n>>>(out, start); }), expected);
  }

  for (int n : {1, 300, 512, 700}) {
    const int threads = 128, grid = 6;
    std::vector<int> expected(grid * threads, 0x7f7f7f7f);
    for (int b = 0; b < grid; b++) {
      int sum = 0;
      for (int t = 0; t < threads && b * threads + t < n; t++) {
        sum += input[b * threads + t];
        expected[b * threads + t] = sum;
      }
    }
    char name[64];
    snprintf(name, sizeof name, "early_return %d", n);
    report(name, on_device(grid * threads, [&](int* out) { early_return<<<grid, threads>>>(in, out, n); }), expected);
  }

  {
    const int n = 48;
    std::vector<int> expected(blocks * n);
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < n; t++) expected[b * n + t] = b % 2 ? -1 : input[b * n + n - 1 - t];
    report("whole_block_returns", on_device(blocks * n, [&](int* out) { whole_block_returns<<<blocks, n>>>(in, out); }),
           expected);
  }

  {
    const int n = 40;
    std::vector<int> expected(blocks * n);
    for (int b = 0; b < blocks; b++) {
      std::vector<int> values(input.begin() + b * n, input.begin() + (b + 1) * n), totals(n, 0);
      if (b % 3 == 1) {
        for (int r = 0; r < round_counts[b]; r++) {
          for (int t = 0; t < n; t++) totals[t] += values[(t + r) % n];
          values = totals;
        }
      } else {
        for (int t = 0; t < n; t++) totals[t] = values[n - 1 - t] * 2;
      }
      for (int t = 0; t < n; t++) expected[b * n + t] = totals[t];
    }
    report("uniform_branch", on_device(blocks * n, [&](int* out) { uniform_branch<<<blocks, n>>>(in, out, rounds); }),
           expected);
  }

  for (dim3 shape : {dim3(16, 4, 1), dim3(8, 3, 2), dim3(1, 5, 3)}) {
    int per_block = shape.x * shape.y * shape.z;
    std::vector<int> expected(blocks * per_block);
    for (int b = 0; b < blocks; b++)
      for (int row = 0; row < int(shape.y * shape.z); row++) {
        int base = b * per_block + row * shape.x;
        std::vector<int> values(input.begin() + base, input.begin() + base + shape.x);
        for (unsigned stride = shape.x / 2; stride > 0; stride /= 2)
          for (unsigned x = 0; x < stride; x++) values[x] += values[x + stride];
        for (unsigned x = 0; x < shape.x; x++) expected[base + x] = values[0];
      }
    char name[64];
    snprintf(name, sizeof name, "rows (%u,%u,%u)", shape.x, shape.y, shape.z);
    report(name, on_device(blocks * per_block, [&](int* out) { rows<<<blocks, shape>>>(in, out); }), expected);
  }

  {
    std::vector<int> expected(blocks * kScanned);
    for (int b = 0; b < blocks; b++)
      for (int i = 0, sum = 0; i < kScanned; sum += input[b * kScanned + i], i++) expected[b * kScanned + i] = sum;
    report("wait_at_loop_top", on_device(blocks * kScanned, [&](int* out) {
             wait_at_loop_top<<<blocks, kScanned / 2>>>(in, out);
           }),
           expected);
  }

  {
    std::vector<int> expected(blocks * kScanned);
    for (int b = 0; b < blocks; b++) {
      int small = 0;
      for (int i = 0; i < kScanned; i++) small += input[b * kScanned + i] & 15;
      for (int i = 0, sum = 0; i < kScanned; sum += input[b * kScanned + i], i++)
        expected[b * kScanned + i] = sum + small;
    }
    report("steps_in_branches", on_device(blocks * kScanned, [&](int* out) {
             steps_in_branches<<<blocks, kScanned / 2>>>(in, out);
           }),
           expected);
  }

  {
    const int n = 64;
    std::vector<int> expected(blocks * n);
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < n; t++) {
        int sum = 0;
        for (int d = 0; d < 8; d++) sum += (input[b * n + (t + 1) % n] + d) * (d + 1);
        expected[b * n + t] = sum;
      }
    report("private_array", on_device(blocks * n, [&](int* out) { private_array<<<blocks, n>>>(in, out); }), expected);
  }

  hipFree(in);
  hipFree(rounds);
  printf("barrier stretches: %d wrong\n", wrong_cases);
  return wrong_cases != 0;
}
