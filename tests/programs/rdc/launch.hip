// Kernels calling device code of another source (counters.hip), one of
// them static (its device name is made unique per source by clang).
#include <hip/hip_runtime.h>

extern __device__ int offset;
__device__ int scaled(int x);

__global__ void apply(int *out) { out[threadIdx.x] = scaled(threadIdx.x); }

static __global__ void mark(int *out) { out[0] = -offset; }

void launch_all(int *out) {
  apply<<<1, 8>>>(out);
  mark<<<1, 1>>>(out);
}
