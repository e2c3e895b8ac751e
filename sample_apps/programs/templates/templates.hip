// templates: template kernels in a namespace, overloads, a struct by value,
// 2D and 3D grids.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

namespace ns {
template <typename T>
__global__ void fill(T* out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + static_cast<T>(i);
}
}  // namespace ns

// Two overloads of one kernel name.
__global__ void twice(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2.0f;
}
__global__ void twice(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] *= 2;
}

struct Params {
  int count;
  float factor;
  double offset;
};

__global__ void apply(Params params, double* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < params.count) out[i] = i * params.factor + params.offset;
}

__global__ void grid2d(int* out, int width, int height) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < width && y < height) out[y * width + x] = x + 1000 * y;
}

__global__ void grid3d(int* out, dim3 size) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  unsigned z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < size.x && y < size.y && z < size.z) out[(z * size.y + y) * size.x + x] = x + 100 * y + 10000 * z;
}

template <typename T>
static int check_fill(T value, int n) {
  T* d;
  std::vector<T> h(n);
  hipMalloc(&d, n * sizeof(T));
  ns::fill<T><<<(n + 63) / 64, 64>>>(d, value, n);
  hipMemcpy(h.data(), d, n * sizeof(T), hipMemcpyDeviceToHost);
  hipFree(d);
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += h[i] != value + static_cast<T>(i);
  return wrong;
}

int main() {
  int wrong = check_fill<float>(0.5f, 1000) + check_fill<int>(7, 1000) + check_fill<double>(0.25, 1000);

  const int n = 500;
  float* df;
  int* di;
  std::vector<float> hf(n, 1.5f);
  std::vector<int> hi(n, 3);
  hipMalloc(&df, n * sizeof(float));
  hipMalloc(&di, n * sizeof(int));
  hipMemcpy(df, hf.data(), n * sizeof(float), hipMemcpyHostToDevice);
  hipMemcpy(di, hi.data(), n * sizeof(int), hipMemcpyHostToDevice);
  twice<<<(n + 127) / 128, 128>>>(df, n);
  twice<<<(n + 127) / 128, 128>>>(di, n);
  hipMemcpy(hf.data(), df, n * sizeof(float), hipMemcpyDeviceToHost);
  hipMemcpy(hi.data(), di, n * sizeof(int), hipMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) wrong += (hf[i] != 3.0f) + (hi[i] != 6);

  Params params{300, 0.5f, 10.25};
  double* dd;
  std::vector<double> hd(params.count);
  hipMalloc(&dd, params.count * sizeof(double));
  apply<<<3, 128>>>(params, dd);
  hipMemcpy(hd.data(), dd, params.count * sizeof(double), hipMemcpyDeviceToHost);
  for (int i = 0; i < params.count; i++) wrong += hd[i] != i * 0.5f + 10.25;

  const int width = 70, height = 40;
  int* d2;
  std::vector<int> h2(width * height);
  hipMalloc(&d2, h2.size() * sizeof(int));
  grid2d<<<dim3((width + 15) / 16, (height + 15) / 16), dim3(16, 16)>>>(d2, width, height);
  hipMemcpy(h2.data(), d2, h2.size() * sizeof(int), hipMemcpyDeviceToHost);
  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++) wrong += h2[y * width + x] != x + 1000 * y;

  dim3 size(9, 7, 5);
  int* d3;
  std::vector<int> h3(size.x * size.y * size.z);
  hipMalloc(&d3, h3.size() * sizeof(int));
  grid3d<<<dim3(3, 2, 3), dim3(4, 4, 2)>>>(d3, size);
  hipMemcpy(h3.data(), d3, h3.size() * sizeof(int), hipMemcpyDeviceToHost);
  for (unsigned z = 0; z < size.z; z++)
    for (unsigned y = 0; y < size.y; y++)
      for (unsigned x = 0; x < size.x; x++)
        wrong += h3[(z * size.y + y) * size.x + x] != static_cast<int>(x + 100 * y + 10000 * z);

  hipFree(df);
  hipFree(di);
  hipFree(dd);
  hipFree(d2);
  hipFree(d3);
  if (hipGetLastError() != hipSuccess) wrong++;
  printf("templates: fill<float,int,double>, twice(float*), twice(int*), apply(Params), grid2d, grid3d: %d wrong\n",
         wrong);
  return wrong == 0 ? 0 : 1;
}
