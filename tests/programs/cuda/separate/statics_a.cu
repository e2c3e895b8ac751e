// Static device variables that host code copies to and from, in relocatable
// device code: the kernel using them comes before the host's use, and
// statics_b.cu has variables of the same names.

static __constant__ int factor;
static __device__ int result[4];

__global__ void scale_a() { result[threadIdx.x] = factor * static_cast<int>(threadIdx.x); }

void run_a(int *out) {
  int value = 3;
  cudaMemcpyToSymbol(factor, &value, sizeof value);
  scale_a<<<1, 4>>>();
  cudaMemcpyFromSymbol(out, result, 4 * sizeof(int));
}
