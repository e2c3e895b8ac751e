// vector_host: plain C++ (no HIP compile) using float4 and make_float4 from
// hip/hip_runtime.h, passing them to a function of a HIP translation unit.
#include <hip/hip_runtime.h>

static_assert(sizeof(float4) == 16 && alignof(float4) == 16, "float4 as in HIP translation units");

hipError_t scale_on_device(float4* host, int n, float4 factor);

int main() {
  const int n = 100;
  float4 data[n];
  for (int i = 0; i < n; i++) data[i] = make_float4(i, -i, 0.5f * i, 2);
  hipError_t error = scale_on_device(data, n, make_float4(2, 3, 4, 5));
  int wrong = 0;
  for (int i = 0; i < n; i++) wrong += !(data[i] == make_float4(2.0f * i + 1, -3.0f * i + 1, 2.0f * i + 1, 11));
  printf("vector_host: %s, %d wrong\n", hipGetErrorName(error), wrong);
  return wrong != 0;
}
