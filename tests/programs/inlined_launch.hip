// A kernel launched from host functions the optimiser inlines into main:
// at -O2 their frames are inlined ones at the launch's return address.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void scale(float *data, float factor) { data[threadIdx.x] *= factor; }

static inline __attribute__((always_inline)) void launch_scale(float *data, float factor) {
  scale<<<1, 64>>>(data, factor);
}

template <typename T>
static inline __attribute__((always_inline)) void scale_twice(T *data) {
  launch_scale(data, 2.0f);
  launch_scale(data, 0.5f);
}

int main() {
  float *data = nullptr;
  hipMallocManaged(&data, 64 * sizeof(float));
  for (int i = 0; i < 64; i++) data[i] = static_cast<float>(i);
  scale_twice(data);
  hipDeviceSynchronize();
  int wrong = 0;
  for (int i = 0; i < 64; i++) wrong += data[i] != static_cast<float>(i);
  std::printf("inlined_launch: %d wrong\n", wrong);
  hipFree(data);
  return wrong != 0;
}
