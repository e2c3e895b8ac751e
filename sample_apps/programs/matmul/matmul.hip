// matmul: a tiled matrix multiply, as GPU code is written: a template kernel
// in a namespace, a struct of sizes by value, __shared__ tiles filled by
// every thread of a 2D block between two __syncthreads.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

namespace la {

struct Dims {
  int m, n, k;  // c (m x n) = a (m x k) * b (k x n), row-major
};

constexpr int kTile = 16;

template <typename T>
__global__ void matmul_tiled(const T* a, const T* b, T* c, Dims dims) {
  __shared__ T tile_a[kTile][kTile];
  __shared__ T tile_b[kTile][kTile];
  int row = blockIdx.y * kTile + threadIdx.y;
  int col = blockIdx.x * kTile + threadIdx.x;
  T sum = 0;
  for (int base = 0; base < dims.k; base += kTile) {
    int ak = base + threadIdx.x, bk = base + threadIdx.y;
    tile_a[threadIdx.y][threadIdx.x] = row < dims.m && ak < dims.k ? a[row * dims.k + ak] : T(0);
    tile_b[threadIdx.y][threadIdx.x] = bk < dims.k && col < dims.n ? b[bk * dims.n + col] : T(0);
    __syncthreads();
    for (int i = 0; i < kTile; i++) sum += tile_a[threadIdx.y][i] * tile_b[i][threadIdx.x];
    __syncthreads();
  }
  if (row < dims.m && col < dims.n) c[row * dims.n + col] = sum;
}

}  // namespace la

template <typename T>
static int check(la::Dims dims) {
  std::vector<T> a(dims.m * dims.k), b(dims.k * dims.n), c(dims.m * dims.n);
  for (size_t i = 0; i < a.size(); i++) a[i] = static_cast<T>(i % 7) - 3;
  for (size_t i = 0; i < b.size(); i++) b[i] = static_cast<T>(i % 5) - 2;
  T *da, *db, *dc;
  hipMalloc(&da, a.size() * sizeof(T));
  hipMalloc(&db, b.size() * sizeof(T));
  hipMalloc(&dc, c.size() * sizeof(T));
  hipMemcpy(da, a.data(), a.size() * sizeof(T), hipMemcpyHostToDevice);
  hipMemcpy(db, b.data(), b.size() * sizeof(T), hipMemcpyHostToDevice);
  dim3 block(la::kTile, la::kTile);
  dim3 grid((dims.n + la::kTile - 1) / la::kTile, (dims.m + la::kTile - 1) / la::kTile);
  la::matmul_tiled<T><<<grid, block>>>(da, db, dc, dims);
  hipMemcpy(c.data(), dc, c.size() * sizeof(T), hipMemcpyDeviceToHost);
  hipFree(da);
  hipFree(db);
  hipFree(dc);
  int wrong = 0;
  for (int row = 0; row < dims.m; row++) {
    for (int col = 0; col < dims.n; col++) {
      T sum = 0;
      for (int i = 0; i < dims.k; i++) sum += a[row * dims.k + i] * b[i * dims.n + col];
      wrong += c[row * dims.n + col] != sum;
    }
  }
  return wrong;
}

int main() {
  la::Dims dims{40, 56, 36};  // none a multiple of the tile: the edges are partial
  int wrong = check<float>(dims) + check<double>(dims);
  printf("matmul: %dx%d times %dx%d in float and double, %d wrong\n", dims.m, dims.k, dims.k, dims.n, wrong);
  return wrong != 0;
}
