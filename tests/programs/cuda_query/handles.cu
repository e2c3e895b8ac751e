// Kernels whose host functions nvcc names in three ways: g(float*, int) is a
// host function of the kernel's own name, the static s(int*) an internal one
// (_ZL1sPi), the template a::t<int> one with internal linkage inside its
// namespace.  g is launched through its handle and with <<<>>>, s with <<<>>>
// and through its handle by cudaLaunchKernelExC, each launch with a
// configuration of its own.  Without a GPU every launch fails; main prints
// what the runtime says.
#include <cstdio>

namespace a {
template <typename T>
__global__ void t(T* out, T value) { out[threadIdx.x] = value; }
}  // namespace a

static __global__ void s(int* p) { p[threadIdx.x] += 1; }

__global__ void g(float* x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = 2 * x[i];
}

int main() {
  float* x = nullptr;
  int n = 32;
  void* args[] = {&x, &n};
  cudaError_t through_handle = cudaLaunchKernel((const void*)g, dim3(1), dim3(32), args, 0, nullptr);
  g<<<2, 64>>>(x, n);
  s<<<dim3(3, 2), 32, 128>>>(nullptr);
  a::t<int><<<4, dim3(8, 4), 0, cudaStreamPerThread>>>(nullptr, 1);
  int* p = nullptr;
  void* s_args[] = {&p};
  cudaLaunchConfig_t config = {dim3(5), dim3(16), 256, nullptr, nullptr, 0};
  cudaError_t extended = cudaLaunchKernelExC(&config, (const void*)s, s_args);
  std::printf("%s\n%s\n%s\n", cudaGetErrorString(through_handle), cudaGetErrorString(extended),
              cudaGetErrorString(cudaGetLastError()));
  return 0;
}
