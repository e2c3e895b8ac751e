// The device library beyond arithmetic: malloc, free, memcpy and memset in
// kernels (and the heap's limit), the reducing barriers __syncthreads_count,
// _and and _or (thread 0 returned too), __nanosleep, and the packed 16-bit float atomic adds.  Prints
// `name: value` lines for tests/device/test_hip_headers.py; with an argument, frees
// in a kernel what device malloc did not allocate.
#include <hip/hip_runtime.h>
#include <hip/hip_bf16.h>
#include <hip/hip_fp16.h>

#include <cstdio>

// Each thread: a block of n ints from the heap, cleared with memset, its
// index written at slot i, copied out with memcpy.
__global__ void heap_roundtrip(int *out, int n) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int *mine = static_cast<int *>(malloc(n * sizeof(int)));
  if (!mine) {
    out[t * n] = -1;
    return;
  }
  memset(mine, 0, n * sizeof(int));
  mine[t % n] = t + 1;
  memcpy(out + t * n, mine, n * sizeof(int));
  free(mine);
}

// An allocation outlives its kernel: one kernel allocates, a later one frees.
__device__ char *kept;
__global__ void allocate(size_t size, int *got) {
  kept = static_cast<char *>(malloc(size));
  *got = kept != nullptr;
  if (kept) kept[size - 1] = 42;
}
__global__ void release(int *seen) {
  *seen = kept[0] == 0 ? -1 : kept[0];
  free(kept);
}
__global__ void write_first(size_t size) { kept[0] = static_cast<char>(size); }

// Reduces predicates over the block, several times over, so that each call
// sees its own count: out[round] for rounds 0..4, then and/or checks.
__global__ void reduce_predicates(int *out) {
  int x = threadIdx.x;
  int *mine = out + blockIdx.x * 10;
  for (int round = 0; round < 5; round++) {
    int count = __syncthreads_count(x < round * 10 + blockIdx.x);
    if (x == 0) mine[round] = count;
  }
  int all_below_100 = __syncthreads_and(x < 100);
  int all_below_99 = __syncthreads_and(x < 99);
  int any_is_57 = __syncthreads_or(x == 57);
  int any_negative = __syncthreads_or(x < 0);
  int thirds = __syncthreads_count(x % 3 == 0);
  if (x == 99) {
    mine[5] = all_below_100;
    mine[6] = all_below_99;
    mine[7] = any_is_57;
    mine[8] = any_negative;
    mine[9] = thirds;
  }
}

// The same with thread 0 returned first: the others count without it.
__global__ void reduce_without_first(int *out) {
  if (threadIdx.x == 0) return;
  int all = __syncthreads_count(1);
  int odd = __syncthreads_count(threadIdx.x & 1);
  if (threadIdx.x == 1) out[0] = all, out[1] = odd;
}

// What free() is given that device malloc did not return is reported and ignored.
__global__ void free_foreign(int *pointer) { free(pointer); }

__global__ void sleep_for(unsigned int nanoseconds, long long *elapsed) {
  long long start = clock64();
  __nanosleep(nanoseconds);
  *elapsed = clock64() - start;
}

__global__ void add_pairs(__half2 *halves, __hip_bfloat162 *bfloats, float *maximum) {
  unsafeAtomicAdd(halves, __halves2half2(__float2half(1.0f), __float2half(0.5f)));
  unsafeAtomicAdd(bfloats, __hip_bfloat162(__hip_bfloat16(1.0f), __hip_bfloat16(2.0f)));
  unsafeAtomicMax(maximum, static_cast<float>(threadIdx.x % 37));
}

int main(int argc, char **argv) {
  if (argc > 1) {  // free-foreign
    int *device;
    hipMalloc(&device, sizeof(int));
    hipLaunchKernelGGL(free_foreign, dim3(1), dim3(1), 0, 0, device);
    printf("%s\n", hipGetErrorName(hipDeviceSynchronize()));
    return 0;
  }
  const int threads = 64, blocks = 4, n = 5;
  int *out;
  hipMallocManaged(&out, threads * blocks * n * sizeof(int));
  hipLaunchKernelGGL(heap_roundtrip, dim3(blocks), dim3(threads), 0, 0, out, n);
  hipDeviceSynchronize();
  int wrong = 0;
  for (int t = 0; t < threads * blocks; t++)
    for (int i = 0; i < n; i++) wrong += out[t * n + i] != (i == t % n ? t + 1 : 0);
  printf("heap roundtrip wrong: %d\n", wrong);

  size_t heap = 0;
  hipDeviceGetLimit(&heap, hipLimitMallocHeapSize);
  printf("heap size: %zu\n", heap);
  hipDeviceSetLimit(hipLimitMallocHeapSize, 4096);
  int *got;
  hipMallocManaged(&got, 4 * sizeof(int));
  hipLaunchKernelGGL(allocate, dim3(1), dim3(1), 0, 0, size_t(3000), got);
  hipLaunchKernelGGL(write_first, dim3(1), dim3(1), 0, 0, size_t(7));
  hipLaunchKernelGGL(release, dim3(1), dim3(1), 0, 0, got + 1);
  hipLaunchKernelGGL(allocate, dim3(1), dim3(1), 0, 0, size_t(3000), got + 2);
  hipLaunchKernelGGL(allocate, dim3(1), dim3(1), 0, 0, size_t(2000), got + 3);  // 5000 > 4096
  hipDeviceSynchronize();
  printf("heap limit: allocated %d, kept %d, again %d, over the limit %d\n", got[0], got[1], got[2], got[3]);

  int *reduced;
  hipMallocManaged(&reduced, 2 * 10 * sizeof(int));
  hipLaunchKernelGGL(reduce_predicates, dim3(2), dim3(100), 0, 0, reduced);
  hipDeviceSynchronize();
  for (int b = 0; b < 2; b++) {
    printf("block %d:", b);
    for (int i = 0; i < 10; i++) printf(" %d", reduced[b * 10 + i]);
    printf("\n");
  }

  for (int launch = 0; launch < 2; launch++) {  // nothing of the first launch stays
    hipLaunchKernelGGL(reduce_without_first, dim3(1), dim3(100), 0, 0, reduced);
    hipDeviceSynchronize();
    printf("without thread 0: %d %d\n", reduced[0], reduced[1]);
  }

  long long *elapsed;
  hipMallocManaged(&elapsed, sizeof(long long));
  hipLaunchKernelGGL(sleep_for, dim3(1), dim3(1), 0, 0, 300000u, elapsed);
  hipDeviceSynchronize();
  printf("slept at least 300 us: %d\n", *elapsed >= 300000);

  __half2 *halves;
  __hip_bfloat162 *bfloats;
  float *maximum;
  hipMallocManaged(&halves, sizeof(__half2));
  hipMallocManaged(&bfloats, sizeof(__hip_bfloat162));
  hipMallocManaged(&maximum, sizeof(float));
  *halves = __halves2half2(__float2half(0.0f), __float2half(0.0f));
  *bfloats = __hip_bfloat162(__hip_bfloat16(0.0f), __hip_bfloat16(0.0f));
  *maximum = -1.0f;
  hipLaunchKernelGGL(add_pairs, dim3(2), dim3(100), 0, 0, halves, bfloats, maximum);
  hipDeviceSynchronize();
  printf("half2 sum: %g %g\n", __low2float(*halves), __high2float(*halves));
  printf("bfloat162 sum: %g %g\n", float(bfloats->x), float(bfloats->y));
  printf("float max: %g\n", *maximum);
  printf("%s\n", hipGetErrorName(hipGetLastError()));
  return 0;
}
