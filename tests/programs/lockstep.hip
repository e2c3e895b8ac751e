// Warp-synchronous code: lanes of a wavefront exchanging values through
// __shared__ memory with no barrier and no warp function, relying on the
// wavefront executing in lockstep.  Each kernel's result is checked against
// the host's; the program prints one line per case and the number wrong.
#include <hip/hip_runtime.h>

#include <cstdio>

constexpr int kBlock = 256;

// The reduction of rocm-examples' Tutorials/reduction v5: shared memory is
// not volatile, the last wavefront's steps have no barrier.
__global__ void max_reduce(const unsigned* in, unsigned* out) {
  extern __shared__ unsigned shared[];
  unsigned tid = threadIdx.x;
  shared[tid] = in[blockIdx.x * blockDim.x + tid];
  __syncthreads();
  for (unsigned i = blockDim.x / 2; i > warpSize; i /= 2) {
    if (tid < i) shared[tid] = max(shared[tid], shared[tid + i]);
    __syncthreads();
  }
  for (unsigned i = warpSize; i > 0; i /= 2)
    if (tid < i) shared[tid] = max(shared[tid], shared[tid + i]);
  if (tid == 0) out[blockIdx.x] = shared[0];
}

// The classic warp-synchronous sum: a volatile pointer, in a function of
// its own.
__device__ __noinline__ void warp_sum(volatile int* s, int tid) {
  for (int offset = warpSize; offset > 0; offset /= 2) s[tid] += s[tid + offset];
}

__global__ void classic_sum(const int* in, int* out) {
  __shared__ int s[kBlock];
  int tid = threadIdx.x;
  s[tid] = in[blockIdx.x * kBlock + tid];
  __syncthreads();
  for (int i = kBlock / 2; i > warpSize; i /= 2) {
    if (tid < i) s[tid] += s[tid + i];
    __syncthreads();
  }
  if (tid < warpSize) warp_sum(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

// An inclusive scan of each wavefront (Hillis and Steele): every step
// overwrites what the lane `offset` further reads at the same step.
__global__ void wave_scan(const int* in, int* out) {
  __shared__ int s[kBlock];
  volatile int* v = s;
  int tid = threadIdx.x, lane = tid % warpSize;
  v[tid] = in[blockIdx.x * kBlock + tid];
  for (int offset = 1; offset < warpSize; offset *= 2)
    if (lane >= offset) v[tid] += v[tid - offset];
  out[blockIdx.x * kBlock + tid] = v[tid];
}

// Divergence: half of each wavefront returns first; the other half shifts
// values down by one, warp-synchronously, twice.
__global__ void half_shift(int* out) {
  __shared__ int s[kBlock];
  volatile int* v = s;
  int tid = threadIdx.x, lane = tid % warpSize;
  if (lane >= warpSize / 2) return;
  v[tid] = tid;
  v[tid] = lane + 1 < warpSize / 2 ? v[tid + 1] : -1;
  v[tid] = lane + 1 < warpSize / 2 ? v[tid + 1] : -1;
  out[blockIdx.x * kBlock + tid] = v[tid];
}

// The 8x8 DCT's transposes in NVIDIA's samples: each lane writes a row of
// its group of 8 lanes through one pointer into __shared__ memory and reads
// a column through another, with no barrier and no volatile.
__global__ void row_column(const int* in, int* out) {
  __shared__ int tile[kBlock * 8];
  int tid = threadIdx.x, group = tid / 8, column = tid % 8;
  int* row = &tile[tid * 8];
  for (int k = 0; k < 8; k++) row[k] = in[blockIdx.x * kBlock + (tid + k) % kBlock];
  const int* down = &tile[group * 64 + column];
  int sum = 0;
  for (int k = 0; k < 8; k++) sum += down[k * 8] * (k + 1);
  out[blockIdx.x * kBlock + tid] = sum;
}

// The same through device functions that take the pointers: inlined when
// optimised, called at -O0.
__device__ inline void store_row(int* row, const int* in, int tid) {
  for (int k = 0; k < 8; k++) row[k] = in[(tid + k) % kBlock];
}

__device__ inline int weighted_column(const int* down) {
  int sum = 0;
  for (int k = 0; k < 8; k++) sum += down[k * 8] * (k + 1);
  return sum;
}

__global__ void row_column_calls(const int* in, int* out) {
  __shared__ int tile[kBlock * 8];
  int tid = threadIdx.x;
  store_row(&tile[tid * 8], in + blockIdx.x * kBlock, tid);
  out[blockIdx.x * kBlock + tid] = weighted_column(&tile[tid / 8 * 64 + tid % 8]);
}

// Four stores side by side, which a vectoriser makes one 16-byte store,
// then the neighbour's four read.
__global__ void pair_swap(const int* in, int* out) {
  __shared__ int quads[kBlock * 4];
  int tid = threadIdx.x, base = blockIdx.x * kBlock;
  int* mine = quads + tid * 4;
  mine[0] = in[base + tid];
  mine[1] = in[base + tid] * 2;
  mine[2] = in[base + tid] * 3;
  mine[3] = in[base + tid] * 4;
  const int* other = quads + (tid ^ 1) * 4;
  out[base + tid] = other[0] + other[1] + other[2] + other[3];
}

// Each lane reads the slot its neighbour wrote, at a stride the caller
// gives (not 0, or the first lane's slot would be outside the array).
__global__ void stride_shift(const int* in, int* out, int stride) {
  __shared__ int slots[kBlock * 4 + 4];
  int tid = threadIdx.x, base = blockIdx.x * kBlock;
  slots[stride * (tid + 1) - 1] = in[base + tid];
  out[base + tid] = slots[stride * (tid + 2) - 1];
}

// Blelloch's slots at a stride the caller gives, in blocks of one
// wavefront: each lane stores in its left slot, then reads its right one.
// When the stride is 0 both are one slot (still inside the array), so every
// lane reads back what one of the lanes stored.
__global__ void stride_swap(int* out, int stride) {
  __shared__ int slots[kBlock * 4 + 8];
  int tid = threadIdx.x;
  for (int i = tid; i < kBlock * 4 + 8; i += blockDim.x) slots[i] = 3 * i + 1;
  __syncthreads();
  slots[stride * (2 * tid + 1) + 2] = 100 + tid;
  out[blockIdx.x * blockDim.x + tid] = slots[stride * (2 * tid + 2) + 2];
}

// Blelloch's slots at strides that differ between lanes (read from memory),
// in blocks of one wavefront: one lane's load may meet another's store.
__global__ void lane_strides(const int* strides, int* out) {
  __shared__ int slots[kBlock * 4 + 8];
  int tid = threadIdx.x, stride = strides[tid];
  for (int i = tid; i < kBlock * 4 + 8; i += blockDim.x) slots[i] = 3 * i + 1;
  __syncthreads();
  slots[stride * (2 * tid + 1) - 1] = 100 + tid;
  out[blockIdx.x * blockDim.x + tid] = slots[stride * (2 * tid + 2) - 1];
}

// The same strides, each lane counting its own in a loop with no barrier
// (to the first mark in its row of a table): the lanes leave the loop
// after different trips, so the count is not one for the wavefront.
__global__ void counted_strides(const int* marks, int* out) {
  __shared__ int slots[kBlock * 4 + 8];
  int tid = threadIdx.x, stride = 1;
  for (int i = tid; i < kBlock * 4 + 8; i += blockDim.x) slots[i] = 3 * i + 1;
  __syncthreads();
  while (marks[tid * 4 + stride] == 0) stride++;
  slots[stride * (2 * tid + 1) - 1] = 100 + tid;
  out[blockIdx.x * blockDim.x + tid] = slots[stride * (2 * tid + 2) - 1];
}

// Strides chosen by a branch each lane takes its own way (each way also
// marks a slot of its own, so that it stays a branch): 3 for lane 0, whose
// load meets lane 1's store, 2 for the others.
__global__ void branch_strides(int* out, int* marks) {
  __shared__ int slots[kBlock * 4 + 8];
  int tid = threadIdx.x, stride;
  for (int i = tid; i < kBlock * 4 + 8; i += blockDim.x) slots[i] = 3 * i + 1;
  __syncthreads();
  if (tid == 0) {
    stride = 3;
    marks[tid] = 1;
  } else {
    stride = 2;
    marks[64 + tid] = 2;
  }
  slots[stride * (2 * tid + 1) - 1] = 100 + tid;
  out[blockIdx.x * blockDim.x + tid] = slots[stride * (2 * tid + 2) - 1];
}

// Trips with no barrier, each lane storing at an even multiple of a stride
// and loading at an odd one, the stride doubling from trip to trip (a
// loop, its end given at run time), in blocks of one wavefront: no lane
// reads what another stores in the same trip, but the next trip reads what
// lane 2·tid stored in the one before.
__global__ void stride_trips(int* out, int end) {
  __shared__ int slots[kBlock * 4 + 8];
  int tid = threadIdx.x, sum = 0;
  for (int i = tid; i < kBlock * 4 + 8; i += blockDim.x) slots[i] = 3 * i + 1;
  __syncthreads();
  for (int stride = 1; stride < end; stride *= 2) {
    slots[stride * (2 * tid + 2) - 1] = 100 * stride + tid;
    sum = 1000 * sum + slots[stride * (2 * tid + 1) - 1];
  }
  out[blockIdx.x * blockDim.x + tid] = sum;
}

template <typename T>
static T* managed(size_t count) {
  T* p = nullptr;
  if (hipMallocManaged(&p, count * sizeof(T)) != hipSuccess) {
    std::printf("lockstep: hipMallocManaged failed\n");
    std::exit(2);
  }
  return p;
}

// What each lane of a wavefront reads in the strided-slot kernels, lane t
// at stride strides[t]: every lane's store, then every lane's load, as the
// wavefront does them.
static void strided_reads(const int* strides, int wave, int* reads) {
  static int slots[kBlock * 4 + 8];
  for (int i = 0; i < kBlock * 4 + 8; i++) slots[i] = 3 * i + 1;
  for (int t = 0; t < wave; t++) slots[strides[t] * (2 * t + 1) - 1] = 100 + t;
  for (int t = 0; t < wave; t++) reads[t] = slots[strides[t] * (2 * t + 2) - 1];
}

int main() {
  hipDeviceProp_t prop;
  if (hipGetDeviceProperties(&prop, 0) != hipSuccess) return 2;
  const int blocks = 64, n = blocks * kBlock, wave = prop.warpSize;
  unsigned* uin = managed<unsigned>(n);
  unsigned* uout = managed<unsigned>(blocks);
  int* in = managed<int>(n);
  int* out = managed<int>(n);
  for (int i = 0; i < n; i++) {
    uin[i] = (i * 2654435761u) % 100003;
    in[i] = i % 7 - 3;
  }
  int total = 0, wrong = 0;

  hipLaunchKernelGGL(max_reduce, blocks, kBlock, kBlock * sizeof(unsigned), 0, uin, uout);
  hipDeviceSynchronize();
  for (int b = 0; b < blocks; b++) {
    unsigned expect = 0;
    for (int t = 0; t < kBlock; t++) expect = uin[b * kBlock + t] > expect ? uin[b * kBlock + t] : expect;
    wrong += uout[b] != expect;
  }
  std::printf("lockstep: max_reduce: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  hipLaunchKernelGGL(classic_sum, blocks, kBlock, 0, 0, in, out);
  hipDeviceSynchronize();
  for (int b = 0; b < blocks; b++) {
    int expect = 0;
    for (int t = 0; t < kBlock; t++) expect += in[b * kBlock + t];
    wrong += out[b] != expect;
  }
  std::printf("lockstep: classic_sum: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  hipLaunchKernelGGL(wave_scan, blocks, kBlock, 0, 0, in, out);
  hipDeviceSynchronize();
  for (int i = 0, sum = 0; i < n; i++) {
    sum = i % wave == 0 ? in[i] : sum + in[i];
    wrong += out[i] != sum;
  }
  std::printf("lockstep: wave_scan: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  for (int i = 0; i < n; i++) out[i] = -7;
  hipLaunchKernelGGL(half_shift, blocks, kBlock, 0, 0, out);
  hipDeviceSynchronize();
  for (int i = 0; i < n; i++) {
    int lane = i % kBlock % wave, half = wave / 2;
    int expect = lane >= half ? -7 : lane + 2 < half ? i % kBlock + 2 : -1;
    wrong += out[i] != expect;
  }
  std::printf("lockstep: half_shift: %d wrong\n", wrong);
  total += wrong;

  for (auto kernel : {row_column, row_column_calls}) {
    wrong = 0;
    hipLaunchKernelGGL(kernel, blocks, kBlock, 0, 0, in, out);
    hipDeviceSynchronize();
    for (int i = 0; i < n; i++) {
      int b = i / kBlock, t = i % kBlock, group = t / 8, column = t % 8, expect = 0;
      for (int k = 0; k < 8; k++) expect += in[b * kBlock + (group * 8 + k + column) % kBlock] * (k + 1);
      wrong += out[i] != expect;
    }
    std::printf("lockstep: %s: %d wrong\n", kernel == row_column ? "row_column" : "row_column_calls", wrong);
    total += wrong;
  }

  wrong = 0;
  hipLaunchKernelGGL(pair_swap, blocks, kBlock, 0, 0, in, out);
  hipDeviceSynchronize();
  for (int i = 0; i < n; i++) wrong += out[i] != in[i ^ 1] * 10;
  std::printf("lockstep: pair_swap: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  hipLaunchKernelGGL(stride_shift, blocks, kBlock, 0, 0, in, out, 2);
  hipDeviceSynchronize();
  for (int i = 0; i < n; i++) wrong += i % wave != wave - 1 && out[i] != in[i + 1];
  std::printf("lockstep: stride_shift: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  for (int stride : {0, 1}) {
    hipLaunchKernelGGL(stride_swap, n / wave, wave, 0, 0, out, stride);
    hipDeviceSynchronize();
    // With a stride of 1, slot 2·tid + 4 as it was; with 0, the one value
    // 100 + some lane that all read back.
    for (int i = 0; i < n; i++) {
      int first = out[i - i % wave];
      wrong += stride ? out[i] != 6 * (i % wave) + 13 : out[i] != first || first < 100 || first >= 100 + wave;
    }
  }
  std::printf("lockstep: stride_swap: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  int* strides = managed<int>(wave);
  for (int t = 0; t < wave; t++) strides[t] = t == 0 ? 3 : t == 1 ? 2 : 1;
  int reads[64];
  strided_reads(strides, wave, reads);
  hipLaunchKernelGGL(lane_strides, n / wave, wave, 0, 0, strides, out);
  hipDeviceSynchronize();
  for (int i = 0; i < n; i++) wrong += out[i] != reads[i % wave];
  std::printf("lockstep: lane_strides: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  int* marks = managed<int>(wave * 4);
  for (int i = 0; i < wave * 4; i++) marks[i] = i % 4 == strides[i / 4];
  hipLaunchKernelGGL(counted_strides, n / wave, wave, 0, 0, marks, out);
  hipDeviceSynchronize();
  for (int i = 0; i < n; i++) wrong += out[i] != reads[i % wave];
  std::printf("lockstep: counted_strides: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  int* scratch = managed<int>(2 * 64);
  for (int t = 0; t < wave; t++) strides[t] = t == 0 ? 3 : 2;
  strided_reads(strides, wave, reads);
  hipLaunchKernelGGL(branch_strides, n / wave, wave, 0, 0, out, scratch);
  hipDeviceSynchronize();
  for (int i = 0; i < n; i++) wrong += out[i] != reads[i % wave];
  std::printf("lockstep: branch_strides: %d wrong\n", wrong);
  total += wrong;

  wrong = 0;
  hipLaunchKernelGGL(stride_trips, n / wave, wave, 0, 0, out, 4);
  hipDeviceSynchronize();
  {
    // Each trip's stores, then its loads, as the wavefront does them.
    static int slots[kBlock * 4 + 8];
    int sums[64] = {};
    for (int i = 0; i < kBlock * 4 + 8; i++) slots[i] = 3 * i + 1;
    for (int stride = 1; stride < 4; stride *= 2) {
      for (int t = 0; t < wave; t++) slots[stride * (2 * t + 2) - 1] = 100 * stride + t;
      for (int t = 0; t < wave; t++) sums[t] = 1000 * sums[t] + slots[stride * (2 * t + 1) - 1];
    }
    for (int i = 0; i < n; i++) wrong += out[i] != sums[i % wave];
  }
  std::printf("lockstep: stride_trips: %d wrong\n", wrong);
  total += wrong;

  std::printf("lockstep: %d wrong\n", total);
  return total != 0;
}
