// Grid- and block-stride loops, which a kernel's fast form runs a trip of
// the block's threads at a time (device/passes/stride_loops.cpp), in the
// shapes it must get right: 64- and 32-bit indices, signed and unsigned,
// the program's adds wrapping or not, an index LLVM widened, values carried from trip to trip and
// left after the loop, threads returning before it, trip counts differing
// between threads and blocks (none at all in some), a loop in a loop the
// block runs alike with a barrier, a block-stride loop filling __shared__
// memory, 2D blocks, an unsigned index that wraps past its end (which the
// block must run as written), and a loop in a branch on the thread's own
// value (which keeps its lanes' loops).  Each prints `NAME: ok` or `NAME: N
// wrong` against the host, then `stride loops: W wrong`.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

// 64-bit grid-stride sums, each thread's own, and the index it stopped at.
__global__ void grid_sum_long(const int* in, long long* sums, long long* stops, long n) {
  long long sum = 0;
  long i = blockIdx.x * (long)blockDim.x + threadIdx.x;
  for (; i < n; i += (long)blockDim.x * gridDim.x) sum += in[i] * (i % 5 + 1);
  long t = blockIdx.x * (long)blockDim.x + threadIdx.x;
  sums[t] = sum;
  stops[t] = i;
}

// The most common form: an int index made of unsigned arithmetic, whose
// adds may wrap.
__global__ void grid_saxpy(const int* x, int* y, int a, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}

// Int arithmetic throughout: LLVM widens the index to 64 bits for the
// address, past the guard that tests it at 32.
__global__ void signed_widened(const int* in, int* out, int n, int stride) {
  int t = threadIdx.x, base = (int)blockIdx.x * 7, sum = 0;
  for (int i = base + t; i < n; i += stride) sum += in[i] * 3;
  out[blockIdx.x * blockDim.x + t] = sum;
}

// An unsigned index, two values carried, the count of trips left after.
__global__ void unsigned_counts(const int* in, unsigned* out, unsigned n, unsigned limit) {
  unsigned t = blockIdx.x * blockDim.x + threadIdx.x, big = 0, odd = 0;
  for (unsigned i = t; i < n; i += blockDim.x * gridDim.x) {
    big += in[i] > (int)limit;
    odd += in[i] & 1;
  }
  out[t] = big * 1000 + odd;
}

// Threads whose x is a multiple of 3 return first.
__global__ void early_return(const int* in, int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = -1;
  if (threadIdx.x % 3 == 0) return;
  int sum = 0;
  for (int i = t; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  out[t] = sum;
}

// A stride loop in a loop every thread runs alike, a barrier after each.
__global__ void rounds(const int* in, int* out, int n) {
  __shared__ int partial[256];
  int t = threadIdx.x, total = 0;
  for (int round = 1; round <= 3; round++) {
    int sum = 0;
    for (int i = t; i < n; i += blockDim.x) sum += in[i] * round;
    partial[t] = sum;
    __syncthreads();
    total += partial[(t + round) % blockDim.x];
    __syncthreads();
  }
  out[blockIdx.x * blockDim.x + t] = total;
}

// A block-stride loop filling __shared__ memory, then every thread reading
// what others wrote.
__global__ void fill_shared(const int* in, int* out, int count) {
  __shared__ int tile[1000];
  for (int k = threadIdx.x; k < count; k += blockDim.x) tile[k] = in[blockIdx.x * count + k] + k;
  __syncthreads();
  int sum = 0;
  for (int k = 0; k < count; k++) sum += tile[(k + threadIdx.x) % count] * (k % 3);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// 2D blocks: each row of threads strides along its own row.
__global__ void rows(const int* in, int* out, int width) {
  int row = blockIdx.x * blockDim.y + threadIdx.y, sum = 0;
  for (int i = threadIdx.x; i < width; i += blockDim.x) sum += in[row * width + i] ^ i;
  out[row * blockDim.x + threadIdx.x] = sum;
}

// An unsigned index that passes its type's end and goes on below the bound,
// as unsigned arithmetic does.
__global__ void unsigned_wraps(unsigned* out, unsigned n, unsigned stride) {
  unsigned trips = 0, mix = 0;
  for (unsigned i = threadIdx.x; i < n; i += stride) {
    trips++;
    mix = mix * 31 + (i >> 20);
  }
  out[blockIdx.x * blockDim.x + threadIdx.x] = trips * 100000 + mix % 100000;
}

// A stride loop only some threads reach: their loops stay their own.
__global__ void in_a_branch(const int* in, int* out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x, sum = 7;
  if (threadIdx.x % 4 == 1)
    for (int i = t; i < n; i += blockDim.x * gridDim.x) sum += in[i];
  out[t] = sum;
}

static int wrong_cases = 0;

template <typename T>
static void report(const char* name, const std::vector<T>& got, const std::vector<T>& expected) {
  int wrong = 0;
  for (size_t i = 0; i < got.size(); i++) wrong += got[i] != expected[i];
  if (wrong)
    printf("%s: %d wrong\n", name, wrong);
  else
    printf("%s: ok\n", name);
  wrong_cases += wrong != 0;
}

template <typename T>
static T* device_copy(const std::vector<T>& values) {
  T* pointer;
  hipMalloc(&pointer, values.size() * sizeof(T));
  hipMemcpy(pointer, values.data(), values.size() * sizeof(T), hipMemcpyHostToDevice);
  return pointer;
}

template <typename T>
static std::vector<T> host_copy(T* pointer, size_t count) {
  std::vector<T> values(count);
  hipMemcpy(values.data(), pointer, count * sizeof(T), hipMemcpyDeviceToHost);
  hipFree(pointer);
  return values;
}

int main() {
  const int size = 100003;
  std::vector<int> input(size);
  for (int i = 0; i < size; i++) input[i] = (i * 7919) % 1000 - 300;
  int* in = device_copy(input);
  char name[64];

  // n past the grid, below it (threads and whole blocks with no trip), 0.
  for (long n : {100003L, 1000L, 70L, 0L}) {
    const int blocks = 5, threads = 96, total = blocks * threads;
    std::vector<long long> sums(total, 0), stops(total);
    for (long t = 0; t < total; t++) {
      long i = t;
      for (; i < n; i += total) sums[t] += input[i] * (i % 5 + 1);
      stops[t] = i;
    }
    long long *d_sums = device_copy(std::vector<long long>(total, -1)), *d_stops = device_copy(std::vector<long long>(total, -1));
    grid_sum_long<<<blocks, threads>>>(in, d_sums, d_stops, n);
    snprintf(name, sizeof name, "grid_sum_long %ld", n);
    report(name, host_copy(d_sums, total), sums);
    snprintf(name, sizeof name, "grid_sum_long %ld stops", n);
    report(name, host_copy(d_stops, total), stops);
  }

  for (int n : {100003, 1000, 0}) {
    std::vector<int> y(size);
    for (int i = 0; i < size; i++) y[i] = i % 11;
    int* d_y = device_copy(y);
    grid_saxpy<<<7, 64>>>(in, d_y, 3, n);
    for (int i = 0; i < n; i++) y[i] += 3 * input[i];
    snprintf(name, sizeof name, "grid_saxpy %d", n);
    report(name, host_copy(d_y, size), y);
  }

  for (int stride : {1, 13, 1000}) {
    const int blocks = 9, threads = 32, n = 20000;
    std::vector<int> expected(blocks * threads);
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < threads; t++) {
        int sum = 0;
        for (int i = b * 7 + t; i < n; i += stride) sum += input[i] * 3;
        expected[b * threads + t] = sum;
      }
    int* out;
    hipMalloc(&out, expected.size() * sizeof(int));
    signed_widened<<<blocks, threads>>>(in, out, n, stride);
    snprintf(name, sizeof name, "signed_widened %d", stride);
    report(name, host_copy(out, expected.size()), expected);
  }

  {
    const int blocks = 3, threads = 128, total = blocks * threads;
    const unsigned n = 50000, limit = 400;
    std::vector<unsigned> expected(total);
    for (unsigned t = 0; t < total; t++) {
      unsigned big = 0, odd = 0;
      for (unsigned i = t; i < n; i += total) {
        big += input[i] > (int)limit;
        odd += input[i] & 1;
      }
      expected[t] = big * 1000 + odd;
    }
    unsigned* out;
    hipMalloc(&out, total * sizeof(unsigned));
    unsigned_counts<<<blocks, threads>>>(in, out, n, limit);
    report("unsigned_counts", host_copy(out, total), expected);
  }

  {
    const int blocks = 4, threads = 100, total = blocks * threads, n = 33333;
    std::vector<int> expected(total, -1);
    for (int t = 0; t < total; t++) {
      if (t % threads % 3 == 0) continue;
      int sum = 0;
      for (int i = t; i < n; i += total) sum += input[i];
      expected[t] = sum;
    }
    int* out;
    hipMalloc(&out, total * sizeof(int));
    early_return<<<blocks, threads>>>(in, out, n);
    report("early_return", host_copy(out, total), expected);
  }

  for (int n : {5000, 100, 3}) {
    const int blocks = 2, threads = 256;
    std::vector<int> expected(blocks * threads);
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < threads; t++) {
        int total = 0;
        for (int round = 1; round <= 3; round++) {
          int other = (t + round) % threads, sum = 0;
          for (int i = other; i < n; i += threads) sum += input[i] * round;
          total += sum;
        }
        expected[b * threads + t] = total;
      }
    int* out;
    hipMalloc(&out, blocks * threads * sizeof(int));
    rounds<<<blocks, threads>>>(in, out, n);
    snprintf(name, sizeof name, "rounds %d", n);
    report(name, host_copy(out, blocks * threads), expected);
  }

  for (int count : {1000, 77}) {
    const int blocks = 3, threads = 64;
    std::vector<int> expected(blocks * threads);
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < threads; t++) {
        int sum = 0;
        for (int k = 0; k < count; k++) {
          int at = (k + t) % count;
          sum += (input[b * count + at] + at) * (k % 3);
        }
        expected[b * threads + t] = sum;
      }
    int* out;
    hipMalloc(&out, blocks * threads * sizeof(int));
    fill_shared<<<blocks, threads>>>(in, out, count);
    snprintf(name, sizeof name, "fill_shared %d", count);
    report(name, host_copy(out, blocks * threads), expected);
  }

  {
    const int blocks = 3, width = 333;
    const dim3 threads(16, 4);
    const int rows_count = blocks * threads.y;
    std::vector<int> expected(rows_count * threads.x);
    for (int row = 0; row < rows_count; row++)
      for (unsigned x = 0; x < threads.x; x++) {
        int sum = 0;
        for (int i = x; i < width; i += threads.x) sum += input[row * width + i] ^ i;
        expected[row * threads.x + x] = sum;
      }
    int* out;
    hipMalloc(&out, expected.size() * sizeof(int));
    rows<<<blocks, threads>>>(in, out, width);
    report("rows", host_copy(out, expected.size()), expected);
  }

  // From 0, 0xA0000000 and 0x40000000 (past the end) are below the bound;
  // 0xE0000000 is not.  A stride that cannot wrap before the bound, too.
  for (unsigned stride : {0xA0000000u, 0x10000000u}) {
    const int blocks = 2, threads = 64;
    const unsigned n = 0xC0000000u;
    std::vector<unsigned> expected(blocks * threads);
    for (int t = 0; t < blocks * threads; t++) {
      unsigned trips = 0, mix = 0;
      for (unsigned i = t % threads; i < n; i += stride) {
        trips++;
        mix = mix * 31 + (i >> 20);
      }
      expected[t] = trips * 100000 + mix % 100000;
    }
    unsigned* out;
    hipMalloc(&out, expected.size() * sizeof(unsigned));
    unsigned_wraps<<<blocks, threads>>>(out, n, stride);
    snprintf(name, sizeof name, "unsigned_wraps %#x", stride);
    report(name, host_copy(out, expected.size()), expected);
  }

  {
    const int blocks = 3, threads = 64, total = blocks * threads, n = 20000;
    std::vector<int> expected(total);
    for (int t = 0; t < total; t++) {
      int sum = 7;
      if (t % threads % 4 == 1)
        for (int i = t; i < n; i += total) sum += input[i];
      expected[t] = sum;
    }
    int* out;
    hipMalloc(&out, total * sizeof(int));
    in_a_branch<<<blocks, threads>>>(in, out, n);
    report("in_a_branch", host_copy(out, total), expected);
  }

  hipError_t status = hipDeviceSynchronize();
  if (status != hipSuccess) printf("error: %s\n", hipGetErrorString(status));
  printf("stride loops: %d wrong\n", wrong_cases + (status != hipSuccess));
  return wrong_cases != 0 || status != hipSuccess;
}
