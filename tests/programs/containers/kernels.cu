// CUDA twin of kernels.hip for the fatbin tests: pointer, scalar and struct
// arguments and a template instantiated twice.  main launches nothing.
struct Params {
  float scale;
  int offset;
  double bias;
};

__global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}

__global__ void apply(Params p, float* out) {
  __shared__ float tile[64];
  tile[threadIdx.x % 64] = p.scale * threadIdx.x + p.offset;
  __syncthreads();
  out[threadIdx.x] = tile[(threadIdx.x + 1) % 64] + static_cast<float>(p.bias);
}

template <typename T>
__global__ void fill(T* out, T value, unsigned count) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) out[i] = value;
}

template __global__ void fill<int>(int*, int, unsigned);
template __global__ void fill<double>(double*, double, unsigned);

__device__ int device_counter;

int main() { return 0; }
