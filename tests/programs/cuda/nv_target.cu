// <nv/target>: the code of the target each compile pass is for, on the
// device and on the host; prints "device: WHERE PICK EXACT host: PICK EXACT".
#include <nv/target>

#include <cstdio>

__device__ int where() { NV_IF_TARGET(NV_IS_DEVICE, (return 1;), (return 2;)) }

__host__ __device__ int pick() {
  NV_DISPATCH_TARGET(NV_PROVIDES_SM_90, (return 90;), NV_PROVIDES_SM_80, (return 80;), NV_PROVIDES_SM_70,
                     (return 70;), NV_IS_HOST, (return -1;))
}

__host__ __device__ int exact() {
  int r = 0;
  NV_IF_TARGET(NV_IS_EXACTLY_SM_80, (r = 80;))
  NV_IF_TARGET(NV_NO_TARGET, (r = -100;))
  NV_IF_ELSE_TARGET(NV_IS_HOST, (r += 1000;), (r += 7;))
  return r;
}

__global__ void kernel(int *out) {
  out[0] = where();
  out[1] = pick();
  out[2] = exact();
}

int main() {
  int *out;
  cudaMallocManaged(&out, 3 * sizeof(int));
  kernel<<<1, 1>>>(out);
  cudaDeviceSynchronize();
  std::printf("device: %d %d %d host: %d %d\n", out[0], out[1], out[2], pick(), exact());
  return 0;
}
