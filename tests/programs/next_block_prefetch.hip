// Loads whose next block's address the fast form prefetches, and loads it
// leaves alone.  halo_step's thread at a tile row's end reads the right
// halo, one new cache line a row and block, which the next block reads as
// its tile: that load is worth a prefetch.  add streams along its loop
// over threads, column's first thread of a row reads within that loop,
// gather's addresses come from memory.  The host computes the same; prints
// "next block prefetch: N values, W wrong".
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kTile = 16;

__global__ void halo_step(const float *in, float *out, int nx, int ny) {
  __shared__ float tile[kTile][kTile + 1];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * kTile + tx, y = blockIdx.y * kTile + ty;
  if (x < nx && y < ny) {
    tile[ty][tx] = in[y * nx + x];
    if (tx == kTile - 1) tile[ty][kTile] = x + 1 < nx ? in[y * nx + x + 1] : 0.0f;
  }
  __syncthreads();
  if (x < nx && y < ny) out[y * nx + x] = tile[ty][tx + 1] - tile[ty][tx];
}

__global__ void add(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * 256 + threadIdx.x;  // launched with 256 threads a block
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void column(const float *in, float *out, int n) {
  int tx = threadIdx.x, ty = threadIdx.y, bx = blockIdx.x;
  float value = in[ty * n + tx];
  if (tx == 0) value += in[ty * n + bx];
  out[(bx * blockDim.y + ty) * blockDim.x + tx] = value;
}

__global__ void gather(const float *in, const int *index, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = in[index[i]];
}

int main() {
  const int nx = 96, ny = 64, n = nx * ny;
  std::vector<float> in(n), got(n), expected(n);
  std::vector<int> index(n);
  for (int i = 0; i < n; i++) {
    in[i] = static_cast<float>((i * 37) % 101) / 8.0f;
    index[i] = (i * 7919) % n;
  }
  float *d_in, *d_out, *d_sum;
  int *d_index;
  size_t bytes = n * sizeof(float);
  if (hipMalloc(&d_in, bytes) != hipSuccess || hipMalloc(&d_out, bytes) != hipSuccess ||
      hipMalloc(&d_sum, bytes) != hipSuccess || hipMalloc(&d_index, n * sizeof(int)) != hipSuccess)
    return 2;
  hipMemcpy(d_in, in.data(), bytes, hipMemcpyHostToDevice);
  hipMemcpy(d_index, index.data(), n * sizeof(int), hipMemcpyHostToDevice);
  int wrong = 0, values = 0;
  auto compare = [&](float *device, int count) {
    hipMemcpy(got.data(), device, count * sizeof(float), hipMemcpyDeviceToHost);
    for (int i = 0; i < count; i++) wrong += got[i] != expected[i];
    values += count;
  };

  halo_step<<<dim3(nx / kTile, ny / kTile), dim3(kTile, kTile)>>>(d_in, d_out, nx, ny);
  for (int y = 0; y < ny; y++)
    for (int x = 0; x < nx; x++) expected[y * nx + x] = (x + 1 < nx ? in[y * nx + x + 1] : 0.0f) - in[y * nx + x];
  compare(d_out, n);

  add<<<n / 256, 256>>>(d_in, d_out, d_sum, n);
  for (int i = 0; i < n; i++) expected[i] = in[i] + got[i];
  compare(d_sum, n);

  const int rows = 8, columns = 4;
  column<<<nx, dim3(columns, rows)>>>(d_in, d_out, nx);
  for (int bx = 0; bx < nx; bx++)
    for (int ty = 0; ty < rows; ty++)
      for (int tx = 0; tx < columns; tx++)
        expected[(bx * rows + ty) * columns + tx] = in[ty * nx + tx] + (tx == 0 ? in[ty * nx + bx] : 0.0f);
  compare(d_out, nx * rows * columns);

  gather<<<n / 128, 128>>>(d_in, d_index, d_out, n);
  for (int i = 0; i < n; i++) expected[i] = in[index[i]];
  compare(d_out, n);

  printf("next block prefetch: %d values, %d wrong\n", values, wrong);
  hipFree(d_in);
  hipFree(d_out);
  hipFree(d_sum);
  hipFree(d_index);
  return wrong != 0;
}
