// Threads that each handle elements a block's width apart (coalesced GPU
// code), whose loops over the threads the fast form splits into one loop
// per stream of memory, and one it must not split.  Each result is
// checked against the host.  Prints "NAME: N wrong" a kernel, then "lane
// streams: W wrong".
#include <hip/hip_runtime.h>

#include <cstdio>
#include <vector>

constexpr int kThreads = 256;

// Two elements a thread, each guarded: an add-back of a scan's sums.
__global__ void add_two(int *out, const int *sums, long n) {
  int add = sums[blockIdx.x];
  long a = blockIdx.x * 2L * kThreads + threadIdx.x, b = a + kThreads;
  if (a < n) out[a] += add;
  if (b < n) out[b] += add;
}

// Three elements a thread, from one array to another.
__global__ void copy_three(const int *in, int *out) {
  long a = blockIdx.x * 3L * kThreads + threadIdx.x;
  out[a] = in[a] + 1;
  out[a + kThreads] = in[a + kThreads] + 2;
  out[a + 2 * kThreads] = in[a + 2 * kThreads] + 3;
}

// Two elements a thread into shared memory and back out, reversed in the
// block, across a barrier.
__global__ void reverse_two(const int *in, int *out) {
  __shared__ int tile[2 * kThreads];
  int t = threadIdx.x;
  long a = blockIdx.x * 2L * kThreads + t;
  tile[t] = in[a];
  tile[t + kThreads] = in[a + kThreads];
  __syncthreads();
  out[a] = tile[2 * kThreads - 1 - t];
  out[a + kThreads] = tile[kThreads - 1 - t];
}

// A thread's last store, to another array (of the first stream, as far
// as the compiler can tell), reads back what its own store to the second
// stream wrote, at a place it cannot tell (`back` is kThreads, `order[t]`
// is t, which LLVM cannot vectorise): split, the read would come before
// the write.
__global__ void read_back(int *slots, int *copies, const int *order, int back) {
  int t = threadIdx.x;
  long base = blockIdx.x * 2L * kThreads;
  copies[blockIdx.x * kThreads + t] = 0;
  __syncthreads();
  slots[base + t] = t;
  slots[base + kThreads + t] = 3 * t;
  copies[blockIdx.x * kThreads + t] = slots[base + back + order[t]] + 1;
}

static int all_wrong = 0;

static void report(const char *name, const std::vector<int> &got, const std::vector<int> &expected) {
  int wrong = 0;
  for (size_t i = 0; i < expected.size(); i++) wrong += got[i] != expected[i];
  printf("%s: %d wrong\n", name, wrong);
  all_wrong += wrong;
}

template <typename T>
static T *to_device(const std::vector<T> &host) {
  T *device;
  hipMalloc(&device, host.size() * sizeof(T));
  hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice);
  return device;
}

static std::vector<int> to_host(const int *device, size_t count) {
  std::vector<int> host(count);
  hipMemcpy(host.data(), device, count * sizeof(int), hipMemcpyDeviceToHost);
  return host;
}

int main() {
  {
    const long n = 5 * 2 * kThreads - 100;  // the last block partly past the end
    const int blocks = 5;
    std::vector<int> out(n), sums(blocks), expected(n);
    for (long i = 0; i < n; i++) out[i] = static_cast<int>(i % 97);
    for (int b = 0; b < blocks; b++) sums[b] = 1000 * (b + 1);
    for (long i = 0; i < n; i++) expected[i] = out[i] + sums[i / (2 * kThreads)];
    int *d_out = to_device(out), *d_sums = to_device(sums);
    add_two<<<blocks, kThreads>>>(d_out, d_sums, n);
    report("add_two", to_host(d_out, n), expected);
  }
  {
    const int blocks = 4, n = blocks * 3 * kThreads;
    std::vector<int> in(n), expected(n);
    for (int i = 0; i < n; i++) in[i] = i * 5, expected[i] = i * 5 + 1 + i % (3 * kThreads) / kThreads;
    int *d_in = to_device(in), *d_out = to_device(std::vector<int>(n));
    copy_three<<<blocks, kThreads>>>(d_in, d_out);
    report("copy_three", to_host(d_out, n), expected);
  }
  {
    const int blocks = 3, n = blocks * 2 * kThreads;
    std::vector<int> in(n), expected(n);
    for (int i = 0; i < n; i++) in[i] = i * 7 - 3;
    for (int i = 0; i < n; i++) {
      int block = i / (2 * kThreads) * 2 * kThreads;
      expected[i] = in[block + 2 * kThreads - 1 - (i - block)];
    }
    int *d_in = to_device(in), *d_out = to_device(std::vector<int>(n));
    reverse_two<<<blocks, kThreads>>>(d_in, d_out);
    report("reverse_two", to_host(d_out, n), expected);
  }
  {
    const int blocks = 2;
    std::vector<int> expected(blocks * kThreads);
    for (int i = 0; i < blocks * kThreads; i++) expected[i] = 3 * (i % kThreads) + 1;
    int *d_slots = to_device(std::vector<int>(blocks * 2 * kThreads, -1));
    int *d_copies = to_device(std::vector<int>(blocks * kThreads, -1));
    std::vector<int> order(kThreads);
    for (int t = 0; t < kThreads; t++) order[t] = t;
    read_back<<<blocks, kThreads>>>(d_slots, d_copies, to_device(order), kThreads);
    report("read_back", to_host(d_copies, blocks * kThreads), expected);
  }
  printf("lane streams: %d wrong\n", all_wrong);
  return all_wrong != 0;
}
