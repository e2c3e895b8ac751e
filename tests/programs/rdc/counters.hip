// Device code shared across sources (-fgpu-rdc): a __device__ variable and
// a __device__ function defined here, used by kernels of launch.hip.
#include <hip/hip_runtime.h>

__device__ int offset = 5;

__device__ int scaled(int x) { return 3 * x + offset; }
