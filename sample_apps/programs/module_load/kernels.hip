// Kernels for module_load, built with `gpusym build --genco` into a code
// object the program loads at run time (no host code, no registration).
#include <hip/hip_runtime.h>

// extern "C": the program asks hipModuleGetFunction for "saxpy".
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

// Set by the program through hipModuleGetGlobal.
__device__ int offset;

// A C++ kernel is found by its mangled name, as HIP's own module API does.
template <typename T>
__global__ void fill(T* out, T value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value + static_cast<T>(i) + offset;
}
template __global__ void fill<int>(int*, int, int);
