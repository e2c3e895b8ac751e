// A second translation unit for kernels.hip: linking both concatenates their
// .hip_fatbin sections, one offload bundle each.
#include <hip/hip_runtime.h>

__global__ void other(int* out) { out[threadIdx.x] = 42; }
