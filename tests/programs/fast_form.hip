// Kernels with and without a fast form (a block's threads as one loop), each
// checked against the host: 1D, 2D and 3D blocks, a guard and early
// returns, a loop per thread, atomics, a lane's wavefront index, a grid
// stride, barriers in straight code and in a loop, guards worked out again
// after a barrier, a warp function, and one kernel calling a function not
// inlined (no fast form).  Prints one line a kernel, "NAME: ok" or "NAME:
// N wrong", then "fast form: N wrong".
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  y[i] = a * x[i] + y[i];
}

// A 3D block over a 3D grid: each thread writes its global coordinates.
__global__ void coordinates(int *out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  out[(z * height + y) * width + x] = x + 100 * y + 10000 * z;
}

// Odd threads return early; the rest sum a row of their own.
__global__ void rows(const int *matrix, int *sums, int columns) {
  int row = blockIdx.x * blockDim.x + threadIdx.x;
  if (row % 2) {
    sums[row] = -1;
    return;
  }
  int total = 0;
  for (int c = 0; c < columns; c++) total += matrix[row * columns + c];
  sums[row] = total;
}

// Every thread counts itself into its block's bin.
__global__ void histogram(unsigned *bins) { atomicAdd(&bins[blockIdx.x % 4], 1u + threadIdx.x % 3); }

__global__ void wavefronts(int *out) {
  int flat = threadIdx.x + blockDim.x * threadIdx.y;
  out[blockIdx.x * blockDim.x * blockDim.y + flat] = __lane_id() + 1000 * (flat / warpSize);
}

__global__ void grid_stride(double *data, long n) {
  for (long i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += (long)blockDim.x * gridDim.x)
    data[i] = data[i] * 2 + 1;
}

// A barrier: the block runs in rounds, a loop over its threads up to the
// barrier, then another after it.
__global__ void reverse_in_block(const int *in, int *out) {
  __shared__ int tile[128];
  tile[threadIdx.x] = in[blockIdx.x * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = tile[127 - threadIdx.x];
}

// Barriers in a loop, in a 2D block: each block's inclusive scan
// (Hillis-Steele), the values in two buffers taking turns.
__global__ void scan_in_block(const int *in, int *out) {
  __shared__ int values[2][96];
  int t = threadIdx.y * blockDim.x + threadIdx.x, n = blockDim.x * blockDim.y, base = blockIdx.x * n;
  int current = 0;
  values[0][t] = in[base + t];
  __syncthreads();
  for (int offset = 1; offset < n; offset *= 2) {
    values[1 - current][t] = values[current][t] + (t >= offset ? values[current][t - offset] : 0);
    current = 1 - current;
    __syncthreads();
  }
  out[base + t] = values[current][t];
}

// Two values a thread, each guarded by its 64-bit place against n, around
// a barrier: after it the guards are worked out again from the thread's
// coordinates, not kept a thread.
__global__ void swap_halves(const int *in, int *out, long n) {
  __shared__ int tile[128];
  int t = threadIdx.x;
  long a = blockIdx.x * 128L + t, b = a + 64;
  tile[t] = a < n ? in[a] : -1;
  tile[t + 64] = b < n ? in[b] : -1;
  __syncthreads();
  if (a < n) out[a] = tile[t + 64];
  if (b < n) out[b] = tile[t];
}

// A warp function: each wavefront's threads run up to it, then meet.
__global__ void rotate_in_wavefront(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = __shfl(in[i], (__lane_id() + 1) % warpSize);
}

// A call of a function not inlined that computes from its arguments alone,
// around a barrier: the call stays in the fast form.
__device__ __attribute__((noinline)) int twice(int value) { return 2 * value; }
__global__ void call_twice(const int *in, int *out) {
  __shared__ int doubled[64];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  doubled[t] = twice(in[i]);
  __syncthreads();
  out[i] = twice(doubled[63 - t]);
}

// A call of a function not inlined that reads its thread: the debuggable
// form only.
__device__ __attribute__((noinline)) int plus_thread(int value) { return value + threadIdx.x; }
__global__ void call_plus_thread(const int *in, int *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = plus_thread(in[i]);
}

template <typename T>
static T *to_device(const std::vector<T> &host) {
  T *device;
  hipMalloc(&device, host.size() * sizeof(T));
  hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice);
  return device;
}

template <typename T>
static std::vector<T> to_host(const T *device, size_t count) {
  std::vector<T> host(count);
  hipMemcpy(host.data(), device, count * sizeof(T), hipMemcpyDeviceToHost);
  return host;
}

static int total_wrong = 0;

template <typename T>
static void report(const char *name, const std::vector<T> &got, const std::vector<T> &expected) {
  int wrong = 0;
  for (size_t i = 0; i < expected.size(); i++) wrong += got[i] != expected[i];
  if (wrong)
    printf("%s: %d wrong\n", name, wrong);
  else
    printf("%s: ok\n", name);
  total_wrong += wrong;
}

int main() {
  {
    const int n = 1000;  // not a multiple of the block
    std::vector<float> x(n), y(n), expected(n);
    for (int i = 0; i < n; i++) x[i] = i, y[i] = 2 * i, expected[i] = 3.0f * i + 2 * i;
    float *dx = to_device(x), *dy = to_device(y);
    saxpy<<<(n + 127) / 128, 128>>>(3.0f, dx, dy, n);
    report("saxpy", to_host(dy, n), expected);
  }
  {
    const int width = 12, height = 6, depth = 4;
    std::vector<int> expected(width * height * depth);
    for (int z = 0; z < depth; z++)
      for (int y = 0; y < height; y++)
        for (int x = 0; x < width; x++) expected[(z * height + y) * width + x] = x + 100 * y + 10000 * z;
    int *out = to_device(std::vector<int>(expected.size(), -7));
    coordinates<<<dim3(3, 2, 2), dim3(4, 3, 2)>>>(out, width, height);
    report("coordinates", to_host(out, expected.size()), expected);
  }
  {
    const int count = 256, columns = 9;
    std::vector<int> matrix(count * columns), expected(count);
    for (int i = 0; i < count * columns; i++) matrix[i] = i % 17;
    for (int r = 0; r < count; r++) {
      int total = 0;
      for (int c = 0; c < columns; c++) total += matrix[r * columns + c];
      expected[r] = r % 2 ? -1 : total;
    }
    int *dm = to_device(matrix), *sums = to_device(std::vector<int>(count));
    rows<<<count / 64, 64>>>(dm, sums, columns);
    report("rows", to_host(sums, count), expected);
  }
  {
    std::vector<unsigned> expected(4, 0);
    for (int b = 0; b < 10; b++)
      for (int t = 0; t < 96; t++) expected[b % 4] += 1 + t % 3;
    unsigned *bins = to_device(std::vector<unsigned>(4, 0));
    histogram<<<10, 96>>>(bins);
    report("histogram", to_host(bins, 4), expected);
  }
  {
    const int blocks = 2, threads = 16 * 8;
    std::vector<int> expected(blocks * threads);
    for (int b = 0; b < blocks; b++)
      for (int flat = 0; flat < threads; flat++)
        expected[b * threads + flat] = flat % warpSize + 1000 * (flat / warpSize);
    int *out = to_device(std::vector<int>(expected.size()));
    wavefronts<<<blocks, dim3(16, 8)>>>(out);
    report("wavefronts", to_host(out, expected.size()), expected);
  }
  {
    const long n = 5000;
    std::vector<double> data(n), expected(n);
    for (long i = 0; i < n; i++) data[i] = i * 0.5, expected[i] = i * 0.5 * 2 + 1;
    double *dd = to_device(data);
    grid_stride<<<7, 64>>>(dd, n);
    report("grid_stride", to_host(dd, n), expected);
  }
  {
    const int blocks = 3;
    std::vector<int> in(blocks * 128), expected(blocks * 128);
    for (int i = 0; i < blocks * 128; i++) in[i] = i * 7;
    for (int b = 0; b < blocks; b++)
      for (int t = 0; t < 128; t++) expected[b * 128 + t] = in[b * 128 + 127 - t];
    int *din = to_device(in), *dout = to_device(std::vector<int>(blocks * 128));
    reverse_in_block<<<blocks, 128>>>(din, dout);
    report("reverse_in_block", to_host(dout, expected.size()), expected);
  }
  {
    const int blocks = 3, threads = 96;
    std::vector<int> in(blocks * threads), expected(blocks * threads);
    for (int i = 0; i < blocks * threads; i++) in[i] = i % 13 - 5;
    for (int b = 0; b < blocks; b++)
      for (int t = 0, sum = 0; t < threads; t++) expected[b * threads + t] = sum += in[b * threads + t];
    int *din = to_device(in), *dout = to_device(std::vector<int>(blocks * threads));
    scan_in_block<<<blocks, dim3(16, 6)>>>(din, dout);
    report("scan_in_block", to_host(dout, expected.size()), expected);
  }
  {
    const long n = 300;  // the last block's second half partly past it
    std::vector<int> in(n), expected(n);
    for (long i = 0; i < n; i++) in[i] = static_cast<int>(i * 5 - 7);
    for (long i = 0; i < n; i++) {
      long partner = i % 128 < 64 ? i + 64 : i - 64;
      expected[i] = partner < n ? in[partner] : -1;
    }
    int *din = to_device(in), *dout = to_device(std::vector<int>(n));
    swap_halves<<<3, 64>>>(din, dout, n);
    report("swap_halves", to_host(dout, n), expected);
  }
  {
    const int blocks = 2, threads = 128;
    std::vector<int> in(blocks * threads), expected(blocks * threads);
    for (int i = 0; i < blocks * threads; i++) in[i] = i * 3;
    for (int i = 0; i < blocks * threads; i++)
      expected[i] = in[i / warpSize * warpSize + (i % warpSize + 1) % warpSize];
    int *din = to_device(in), *dout = to_device(std::vector<int>(blocks * threads));
    rotate_in_wavefront<<<blocks, threads>>>(din, dout);
    report("rotate_in_wavefront", to_host(dout, expected.size()), expected);
  }
  {
    const int n = 192;
    std::vector<int> in(n), expected(n);
    for (int i = 0; i < n; i++) in[i] = i - 50, expected[i] = 4 * (i / 64 * 64 + 63 - i % 64 - 50);
    int *din = to_device(in), *dout = to_device(std::vector<int>(n));
    call_twice<<<3, 64>>>(din, dout);
    report("call_twice", to_host(dout, n), expected);
    for (int i = 0; i < n; i++) expected[i] = i - 50 + i % 64;
    call_plus_thread<<<3, 64>>>(din, dout);
    report("call_plus_thread", to_host(dout, n), expected);
  }
  printf("fast form: %d wrong\n", total_wrong);
  return total_wrong != 0;
}
