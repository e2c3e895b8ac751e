// Kernels whose 64-bit division and warp shuffles ptxas implements with
// subroutines (__cuda_sm20_div_u64, __cuda_sm70_shflsync_*), kept as
// functions of their own in relocatable device code (-rdc=true).
__global__ void divide(unsigned long long* out, unsigned long long by) {
  out[threadIdx.x] = out[threadIdx.x] / by;
}

__global__ void shuffle(float* x, unsigned mask, int delta) {
  float down = __shfl_down_sync(mask, x[threadIdx.x], delta);
  x[threadIdx.x] = down + __shfl_sync(mask, x[threadIdx.x], delta);
}
