// Host code compiled as plain C++, as nvcc compiles a .cpp source.
#include <cuda_runtime.h>

#include <cstdio>
#include <vector>

int scale_on_device(float *host, int n, float factor);

int main() {
#ifdef __CUDACC__
  std::printf("main.cpp was compiled as CUDA\n");
#endif
  std::vector<float> values(1000);
  for (int i = 0; i < 1000; i++) values[i] = float(i);
  int status = scale_on_device(values.data(), 1000, 3.0f);
  int wrong = 0;
  for (int i = 0; i < 1000; i++) wrong += values[i] != 3.0f * i;
  std::printf("status %d, %d wrong\n", status, wrong);
  return wrong != 0 || status != 0;
}
