// racecheck: hazards on __shared__ memory between lanes of a block with no
// barrier between them, and their clean twins, one per mode (the first
// argument); two blocks of 64 threads.
//
//   read-after-write    each thread writes tile[t], then reads tile[t + 1]
//   write-after-read    each thread reads tile[t + 1], then writes tile[t]
//   barrier             the first, with __syncthreads between
//   atomics             every thread adds to one __shared__ counter
//   divergent           even threads wait at one __syncthreads, odd ones at another
//   converged           every thread waits at the same one
//   exited-lanes        a __shfl_sync whose full mask names 32 lanes that have returned
//   live-lanes          the same shuffle with the mask of the lanes still running
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>

__global__ void read_after_write(int* out, bool barrier) {
  __shared__ int tile[65];
  int t = threadIdx.x;
  tile[t] = t;  // read_after_write: the write
  if (barrier) __syncthreads();
  out[blockIdx.x * 64 + t] = tile[t + 1];  // read_after_write: the read
}

__global__ void write_after_read(int* out) {
  __shared__ int tile[65];
  int t = threadIdx.x;
  int next = tile[t + 1];  // write_after_read: the read
  tile[t] = t;  // write_after_read: the write
  out[blockIdx.x * 64 + t] = next;
}

__global__ void count(int* out) {
  __shared__ int total;
  if (threadIdx.x == 0) total = 0;
  __syncthreads();
  atomicAdd(&total, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

__global__ void parity(int* out, bool divergent) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  tile[t] = t;
  if (divergent && t % 2) {
    __syncthreads();  // parity: the odd threads' barrier
  } else {
    __syncthreads();  // parity: the even threads' barrier
  }
  out[blockIdx.x * 64 + t] = tile[63 - t];
}

__global__ void half_shuffle(int* out, bool full_mask) {
  int t = threadIdx.x;
  if (t >= 32) return;
  unsigned long long mask = full_mask ? ~0ull : 0xffffffffull;
  out[t] = __shfl_sync(mask, t, (t + 1) % 32);  // half_shuffle: the shuffle
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  int* out;
  hipMalloc(&out, 128 * sizeof(int));
  if (!strcmp(mode, "read-after-write") || !strcmp(mode, "barrier")) {
    read_after_write<<<2, 64>>>(out, !strcmp(mode, "barrier"));
  } else if (!strcmp(mode, "divergent") || !strcmp(mode, "converged")) {
    parity<<<2, 64>>>(out, !strcmp(mode, "divergent"));
  } else if (!strcmp(mode, "exited-lanes") || !strcmp(mode, "live-lanes")) {
    half_shuffle<<<1, 64>>>(out, !strcmp(mode, "exited-lanes"));
  } else if (!strcmp(mode, "write-after-read")) {
    write_after_read<<<2, 64>>>(out);
  } else {
    count<<<2, 64>>>(out);
  }
  hipDeviceSynchronize();
  hipFree(out);
  printf("done\n");
  return 0;
}
