// The module the driver API test loads (built with gpusym-nvcc --genco).
extern "C" __global__ void fill(int *out, int base) { out[blockIdx.x * blockDim.x + threadIdx.x] = base + threadIdx.x; }

__device__ int module_counter = 41;
