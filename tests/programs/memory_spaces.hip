// A grid smoothed through __shared__ memory: each thread copies its point
// of the kernel's argument into a tile with a halo of one point, scaled by
// a __device__ variable, the block meets, and each thread writes the mean
// of its point and its four neighbours (the grid's edges stay 0).  In the fast form each of the two
// stretches is a loop over the threads that reads one memory and writes
// another: device memory to the tile, the tile to device memory.  The host
// computes the same.  Prints "memory spaces: N points, W wrong".
#include <hip/hip_runtime.h>

#include <cmath>
#include <cstdio>
#include <vector>

constexpr int kTile = 16;
__device__ float scale = 0.5f;

__global__ void smooth(const float *in, float *out, int nx, int ny) {
  __shared__ float tile[kTile + 2][kTile + 2];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * kTile + tx, y = blockIdx.y * kTile + ty;
  if (x < nx && y < ny) {
    tile[ty + 1][tx + 1] = in[y * nx + x] * scale;
    if (tx == 0 && x > 0) tile[ty + 1][0] = in[y * nx + x - 1] * scale;
    if (tx == kTile - 1 && x + 1 < nx) tile[ty + 1][kTile + 1] = in[y * nx + x + 1] * scale;
    if (ty == 0 && y > 0) tile[0][tx + 1] = in[(y - 1) * nx + x] * scale;
    if (ty == kTile - 1 && y + 1 < ny) tile[kTile + 1][tx + 1] = in[(y + 1) * nx + x] * scale;
  }
  __syncthreads();
  if (x > 0 && y > 0 && x < nx - 1 && y < ny - 1)
    out[y * nx + x] = (tile[ty + 1][tx + 1] + tile[ty + 1][tx] + tile[ty + 1][tx + 2] + tile[ty][tx + 1] +
                       tile[ty + 2][tx + 1]) /
                      5.0f;
}

int main() {
  const int nx = 80, ny = 48;  // whole tiles
  std::vector<float> in(nx * ny), out(nx * ny), expected(nx * ny);
  for (int i = 0; i < nx * ny; i++) in[i] = static_cast<float>((i * 37) % 101) / 7.0f;
  auto at = [&](int x, int y) { return in[y * nx + x] * 0.5f; };
  for (int y = 1; y < ny - 1; y++)
    for (int x = 1; x < nx - 1; x++)
      expected[y * nx + x] = (at(x, y) + at(x - 1, y) + at(x + 1, y) + at(x, y - 1) + at(x, y + 1)) / 5.0f;
  float *d_in, *d_out;
  size_t bytes = in.size() * sizeof(float);
  if (hipMalloc(&d_in, bytes) != hipSuccess || hipMalloc(&d_out, bytes) != hipSuccess) return 2;
  hipMemcpy(d_in, in.data(), bytes, hipMemcpyHostToDevice);
  hipMemset(d_out, 0, bytes);
  smooth<<<dim3(nx / kTile, ny / kTile), dim3(kTile, kTile)>>>(d_in, d_out, nx, ny);
  hipMemcpy(out.data(), d_out, bytes, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (size_t i = 0; i < out.size(); i++) wrong += std::fabs(out[i] - expected[i]) > 1e-5f;
  printf("memory spaces: %zu points, %d wrong\n", out.size(), wrong);
  hipFree(d_in);
  hipFree(d_out);
  return wrong != 0;
}
