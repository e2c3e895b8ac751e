// Kernels named as real programs name them: a tiled matrix multiply template
// with __shared__ tiles, a template in a nested namespace with a value
// argument, an anonymous-namespace kernel, overloads, a _Float16 kernel.
#include <hip/hip_runtime.h>

#include <cstdio>

namespace la {
struct Dims {
  int m, n, k;
};

constexpr int TILE = 4;

template <typename T>
__global__ void matmul_tiled(const T* a, const T* b, T* c, Dims d) {
  __shared__ T ta[TILE][TILE];
  __shared__ T tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  T sum = 0;
  for (int t = 0; t < d.k; t += TILE) {
    ta[threadIdx.y][threadIdx.x] = a[row * d.k + t + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t + threadIdx.y) * d.n + col];
    __syncthreads();
    for (int i = 0; i < TILE; i++) sum += ta[threadIdx.y][i] * tb[i][threadIdx.x];
    __syncthreads();
  }
  c[row * d.n + col] = sum;
}
}  // namespace la

namespace zoo::inner {
template <typename T, int N>
__global__ void fill(T* out) {
  out[threadIdx.x] = N;
}
}  // namespace zoo::inner

namespace {
__global__ void hidden_scale(float* data, float factor) { data[threadIdx.x] *= factor; }
}  // namespace

__global__ void twice(int* data) { data[threadIdx.x] *= 2; }
__global__ void twice(float* data) { data[threadIdx.x] *= 2.0f; }

__global__ void halve(_Float16* data) { data[threadIdx.x] = data[threadIdx.x] / static_cast<_Float16>(2); }

template <typename T>
static int multiply() {
  const int size = 8;
  T *a, *b, *c;
  hipMalloc(&a, size * size * sizeof(T));
  hipMalloc(&b, size * size * sizeof(T));
  hipMalloc(&c, size * size * sizeof(T));
  T ha[size * size], hb[size * size], hc[size * size];
  for (int i = 0; i < size * size; i++) ha[i] = i % size == i / size, hb[i] = i;
  hipMemcpy(a, ha, sizeof ha, hipMemcpyHostToDevice);
  hipMemcpy(b, hb, sizeof hb, hipMemcpyHostToDevice);
  la::matmul_tiled<T><<<dim3(size / la::TILE, size / la::TILE), dim3(la::TILE, la::TILE)>>>(a, b, c, {size, size, size});
  hipMemcpy(hc, c, sizeof hc, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int i = 0; i < size * size; i++) wrong += hc[i] != hb[i];
  hipFree(a), hipFree(b), hipFree(c);
  return wrong;
}

int main() {
  int wrong = multiply<float>() + multiply<double>();
  int* ints;
  float* floats;
  _Float16* halves;
  hipMalloc(&ints, 32 * sizeof(int));
  hipMalloc(&floats, 32 * sizeof(float));
  hipMalloc(&halves, 32 * sizeof(_Float16));
  hipMemset(ints, 0, 32 * sizeof(int));
  hipMemset(floats, 0, 32 * sizeof(float));
  hipMemset(halves, 0, 32 * sizeof(_Float16));
  zoo::inner::fill<int, 200><<<1, 32>>>(ints);
  twice<<<1, 32>>>(ints);
  hidden_scale<<<1, 32>>>(floats, 3.0f);
  twice<<<1, 32>>>(floats);
  halve<<<1, 32>>>(halves);
  int host[32];
  hipMemcpy(host, ints, sizeof host, hipMemcpyDeviceToHost);
  for (int value : host) wrong += value != 400;
  hipFree(ints), hipFree(floats), hipFree(halves);
  printf("names: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
