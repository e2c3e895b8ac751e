// Two failing CUDA runtime calls, for the gdb extension's failing-call stop.
#include <cstdio>

int main() {
  void *pointer = nullptr;
  cudaError_t allocation = cudaMalloc(&pointer, ~size_t{0} >> 1);
  cudaError_t release = cudaFree(reinterpret_cast<void *>(16));
  std::printf("%s %s\n", cudaGetErrorName(allocation), cudaGetErrorName(release));
  return 0;
}
