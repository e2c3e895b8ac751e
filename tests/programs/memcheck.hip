// memcheck: accesses that the page guards of hipMalloc cannot catch, and
// their clean twins, one per mode (the first argument).  A 4000-byte buffer
// (1000 floats) is not a multiple of the 256 bytes allocations are rounded
// to, so reading at byte 4000 stays in the allocation's pages.
//
//   past-end        thread 232 of block 3 reads element 1000 (byte 4000)
//   in-bounds       the same grid, with the bounds check right
//   misaligned      a 4-byte store at byte 2
//   aligned         the same store at byte 4
//   after-free      a read of an allocation already freed
//   leak            an allocation never freed (the kernels run clean)
//   freed           the same allocation, freed
//   unwritten       a read of an allocation nothing has written (no memset)
//   written         its bytes written by a kernel first
//   shared-past-end thread 63 writes tile[64] of a 64-int __shared__ tile
//   shared-in-bounds thread 63 writes tile[0]
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void scale(float* data, float factor, int last) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i <= last) data[i] *= factor;  // scale: the access
}

__global__ void fill(float* data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = 1.0f;
}

__global__ void rotate(float* data, bool wrap) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  tile[wrap ? (t + 1) % 64 : t + 1] = t;  // rotate: the store
  __syncthreads();
  data[t] = tile[t];
}

__global__ void store_at(char* bytes, int offset) {
  *reinterpret_cast<int*>(bytes + offset) = 1;  // store_at: the access
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  const int n = 1000;
  float* data;
  hipMalloc(&data, n * sizeof(float));
  bool unwritten = !strcmp(mode, "unwritten") || !strcmp(mode, "written");
  if (!unwritten) hipMemset(data, 0, n * sizeof(float));
  printf("base %p\n", static_cast<void*>(data));
  fflush(stdout);
  if (!strcmp(mode, "past-end") || !strcmp(mode, "in-bounds")) {
    scale<<<4, 256>>>(data, 2.0f, !strcmp(mode, "past-end") ? n : n - 1);
  } else if (!strcmp(mode, "misaligned") || !strcmp(mode, "aligned")) {
    store_at<<<1, 1>>>(reinterpret_cast<char*>(data), !strcmp(mode, "misaligned") ? 2 : 4);
  } else if (!strcmp(mode, "shared-past-end") || !strcmp(mode, "shared-in-bounds")) {
    rotate<<<1, 64>>>(data, !strcmp(mode, "shared-in-bounds"));
  } else if (unwritten) {
    if (!strcmp(mode, "written")) fill<<<4, 256>>>(data, n);
    scale<<<4, 256>>>(data, 2.0f, n - 1);
  } else if (!strcmp(mode, "after-free")) {
    hipFree(data);
    scale<<<1, 1>>>(data, 2.0f, 0);
  } else {
    scale<<<4, 256>>>(data, 2.0f, n - 1);
  }
  hipDeviceSynchronize();
  if (strcmp(mode, "leak") && strcmp(mode, "after-free")) hipFree(data);
  printf("done\n");
  return 0;
}
