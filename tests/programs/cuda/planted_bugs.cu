// Planted bugs for the four checks, each next to its clean twin, one per
// mode (the first argument).  The same source builds with nvcc for a GPU
// and with gpusym-nvcc for the simulated device, so the reports of both
// can be set side by side.  Blocks of 256 threads (8 warps) unless said.
//
// synccheck
//   barrier-skipped      threads 128-255 skip the __syncthreads that 0-127 wait at
//   barrier-all          every thread waits at it
//   barrier-returned     threads 128-255 return before the barrier
//   barrier-not-returned no thread returns before it
//   loop-trips           thread t waits at the loop's barrier 1 + t / 64 times
//   loop-uniform         every thread waits at it 4 times
//   mask-other-function  lanes 0-15 call __shfl_sync, lanes 16-31 __ballot_sync, full masks
//   mask-same-function   all 32 lanes call __shfl_sync
// memcheck
//   dynamic-shared-past-end  thread 255 reads element 256 of a 256-float extern __shared__ array
//   dynamic-shared-in-bounds thread 255 reads element 0
//   heap-past-end        a block writes element 16 of a 16-int device malloc
//   heap-in-bounds       it writes element 15
//   heap-double-free     a block frees its device malloc twice
//   heap-free-once       it frees it once
//   heap-free-foreign    a block frees a cudaMalloc'd pointer with device free
//   pinned-after-free    a kernel reads pinned host memory after cudaFreeHost
//   pinned-live          it reads it before
// racecheck
//   warp-race            lane 1 of each warp reads what lane 0 wrote, no __syncwarp
//   warp-synced          the same with __syncwarp between
//   block-race           thread 0 reads what thread 255 wrote, no __syncthreads
//   block-synced         the same with __syncthreads between
// initcheck
//   shared-unwritten     each thread reads a __shared__ element no thread wrote
//   shared-written       each thread writes its element first
//   global-unwritten     a kernel reads cudaMalloc'd memory nothing wrote
//   global-written       cudaMemset writes it first
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

constexpr int kBlock = 256;

__global__ void barrier_skipped(int* out, bool skip) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = threadIdx.x;
  if (!skip || threadIdx.x < 128) __syncthreads();  // barrier_skipped: the barrier
  out[threadIdx.x] = s[kBlock - 1 - threadIdx.x];
}

__global__ void barrier_returned(int* out, bool early_return) {
  __shared__ int s[kBlock];
  s[threadIdx.x] = threadIdx.x;
  if (early_return && threadIdx.x >= 128) return;
  __syncthreads();  // barrier_returned: the barrier
  out[threadIdx.x] = s[127 - threadIdx.x % 128];
}

__global__ void loop_trips(int* out, bool uneven) {
  __shared__ int s[kBlock];
  int trips = uneven ? 1 + threadIdx.x / 64 : 4;
  int total = 0;
  for (int i = 0; i < trips; ++i) {
    s[threadIdx.x] = i + threadIdx.x;
    __syncthreads();  // loop_trips: the barrier
    total += s[(threadIdx.x + 1) % kBlock];
    __syncthreads();
  }
  out[threadIdx.x] = total;
}

__global__ void mask_functions(int* out, bool mixed) {
  int lane = threadIdx.x % 32;
  int value;
  if (mixed && lane >= 16)
    value = __ballot_sync(0xffffffffu, lane % 2);  // mask_functions: the ballot
  else
    value = __shfl_sync(0xffffffffu, lane, (lane + 1) % 32);  // mask_functions: the shuffle
  out[threadIdx.x] = value;
}

__global__ void dynamic_shared(float* out, int index_of_255) {
  extern __shared__ float dynamic[];
  dynamic[threadIdx.x] = threadIdx.x;
  __syncthreads();
  int i = threadIdx.x == kBlock - 1 ? index_of_255 : threadIdx.x;
  out[threadIdx.x] = dynamic[i];  // dynamic_shared: the read
}

__global__ void heap_blocks(int* out, int mode) {
  if (threadIdx.x != 0) return;
  int* block = static_cast<int*>(malloc(16 * sizeof(int)));
  if (!block) return;
  block[mode == 0 ? 16 : 15] = 1;  // heap_blocks: the write
  out[blockIdx.x] = block[15];
  free(block);
  if (mode == 2) free(block);  // heap_blocks: the second free
}

__global__ void free_foreign(int* global) {
  if (threadIdx.x == 0) free(global);  // free_foreign: the free
}

__global__ void read_pinned(const int* pinned, int* out) {
  out[threadIdx.x] = pinned[threadIdx.x];  // read_pinned: the read
}

__global__ void warp_exchange(int* out, bool synced) {
  __shared__ int s[kBlock];
  int lane = threadIdx.x % 32;
  int warp_base = threadIdx.x - lane;
  if (lane == 0) s[warp_base] = blockIdx.x + threadIdx.x;  // warp_exchange: the write
  if (synced) __syncwarp();
  if (lane == 1) out[threadIdx.x] = s[warp_base] - blockIdx.x;  // warp_exchange: the read
}

__global__ void block_exchange(int* out, bool synced) {
  __shared__ int s[kBlock];
  if (threadIdx.x == kBlock - 1) s[0] = 7;  // block_exchange: the write
  if (synced) __syncthreads();
  if (threadIdx.x == 0) out[0] = s[0];  // block_exchange: the read
}

__global__ void shared_reads(int* out, bool written) {
  __shared__ int s[kBlock];
  if (written) s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x];  // shared_reads: the read
}

__global__ void global_reads(const int* in, int* out) {
  out[threadIdx.x] = in[threadIdx.x] + 1;  // global_reads: the read
}

static bool is(const char* mode, const char* name) { return !strcmp(mode, name); }

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  int* out;
  cudaMalloc(&out, kBlock * sizeof(int));
  cudaMemset(out, 0, kBlock * sizeof(int));
  if (is(mode, "barrier-skipped") || is(mode, "barrier-all")) {
    barrier_skipped<<<1, kBlock>>>(out, is(mode, "barrier-skipped"));
  } else if (is(mode, "barrier-returned") || is(mode, "barrier-not-returned")) {
    barrier_returned<<<1, kBlock>>>(out, is(mode, "barrier-returned"));
  } else if (is(mode, "loop-trips") || is(mode, "loop-uniform")) {
    loop_trips<<<1, kBlock>>>(out, is(mode, "loop-trips"));
  } else if (is(mode, "mask-other-function") || is(mode, "mask-same-function")) {
    mask_functions<<<1, 32>>>(out, is(mode, "mask-other-function"));
  } else if (is(mode, "dynamic-shared-past-end") || is(mode, "dynamic-shared-in-bounds")) {
    float* values;
    cudaMalloc(&values, kBlock * sizeof(float));
    dynamic_shared<<<1, kBlock, kBlock * sizeof(float)>>>(values, is(mode, "dynamic-shared-past-end") ? kBlock : 0);
    cudaDeviceSynchronize();
    cudaFree(values);
  } else if (is(mode, "heap-past-end") || is(mode, "heap-in-bounds") || is(mode, "heap-double-free") ||
             is(mode, "heap-free-once")) {
    heap_blocks<<<2, 32>>>(out, is(mode, "heap-past-end") ? 0 : is(mode, "heap-double-free") ? 2 : 1);
  } else if (is(mode, "heap-free-foreign")) {
    free_foreign<<<1, 32>>>(out);
  } else if (is(mode, "pinned-after-free") || is(mode, "pinned-live")) {
    int* pinned;
    cudaMallocHost(&pinned, kBlock * sizeof(int));
    for (int i = 0; i < kBlock; ++i) pinned[i] = i;
    if (is(mode, "pinned-after-free")) cudaFreeHost(pinned);
    read_pinned<<<1, kBlock>>>(pinned, out);
    cudaDeviceSynchronize();
    if (is(mode, "pinned-live")) cudaFreeHost(pinned);
  } else if (is(mode, "warp-race") || is(mode, "warp-synced")) {
    warp_exchange<<<2, kBlock>>>(out, is(mode, "warp-synced"));
  } else if (is(mode, "block-race") || is(mode, "block-synced")) {
    block_exchange<<<1, kBlock>>>(out, is(mode, "block-synced"));
  } else if (is(mode, "shared-unwritten") || is(mode, "shared-written")) {
    shared_reads<<<1, kBlock>>>(out, is(mode, "shared-written"));
  } else if (is(mode, "global-unwritten") || is(mode, "global-written")) {
    int* in;
    cudaMalloc(&in, kBlock * sizeof(int));
    if (is(mode, "global-written")) cudaMemset(in, 0, kBlock * sizeof(int));
    global_reads<<<1, kBlock>>>(in, out);
    cudaDeviceSynchronize();
    cudaFree(in);
  } else {
    fprintf(stderr, "planted_bugs: unknown mode '%s'\n", mode);
    return 2;
  }
  cudaError_t status = cudaDeviceSynchronize();
  int host[kBlock];
  cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost);
  cudaFree(out);
  printf("%s: %s, out[0] %d out[1] %d out[255] %d\n", mode, cudaGetErrorName(status), host[0], host[1], host[255]);
  return 0;
}
