// shared_kernels: HIP kernels built into a shared library (gpusym build -shared).
#include <hip/hip_runtime.h>

__global__ void square(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * data[i];
}

__global__ void add_one(int* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] += 1;
}

// Launches `square` with <<<>>> from inside the library.
extern "C" hipError_t library_square(int* data, int n) {
  square<<<(n + 63) / 64, 64>>>(data, n);
  return hipGetLastError();
}
