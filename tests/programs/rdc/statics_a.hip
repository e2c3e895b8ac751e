// Static device variables that host code copies to and from, in relocatable
// device code: the kernel using them comes before the host's use, and
// statics_b.hip has variables of the same names.
#include <hip/hip_runtime.h>

static __constant__ int factor;
static __device__ int result[4];

__global__ void scale_a() { result[threadIdx.x] = factor * static_cast<int>(threadIdx.x); }

void run_a(int *out) {
  int value = 3;
  hipMemcpyToSymbol(HIP_SYMBOL(factor), &value, sizeof value);
  scale_a<<<1, 4>>>();
  hipMemcpyFromSymbol(out, HIP_SYMBOL(result), 4 * sizeof(int));
}
