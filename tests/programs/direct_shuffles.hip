// Shuffles whose operation and width are constants, in the shapes the fast
// form's meeting of a wavefront in device code must get right: up and down
// by a constant within segments of a power of two, a delta as large as the
// width or larger, a width that is no power of two, a block whose last
// wavefront is partial, the same shuffle met again in a loop, a source lane
// that returned, 64-bit values, and a source lane each thread computes.
// The host computes what each lane gets as HIP defines it for AMD hardware
// (a lane out of range for up, down or xor reads its own value; a source
// lane that does not exist or has returned gives 0).  Each case prints
// `NAME: ok` or `NAME: N wrong`, then `direct shuffles: W wrong`.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

enum Op { kIndex, kUp, kDown, kXor };

// Each thread's value: distinct, so that a lane read from the wrong place shows.
__device__ __host__ inline int value_of(int block, int t) { return 1000 * block + 7 * t + 3; }

// Each thread gets one shuffle of its value, spelled as a program would.
template <int Case>
__global__ void shuffle_once(int *out, int rounds) {
  int t = threadIdx.x, v = value_of(blockIdx.x, t), i = blockIdx.x * blockDim.x + t;
  switch (Case) {
    case 0: out[i] = __shfl_down(v, 1); break;
    case 1: out[i] = __shfl_down(v, 5, 8); break;
    case 2: out[i] = __shfl_up(v, 3, 16); break;
    case 3: out[i] = __shfl_down(v, 40, 32); break;  // past the width: every lane its own
    case 4: out[i] = __shfl_up(v, 0); break;
    case 5: out[i] = __shfl_down(v, 2, 12); break;   // a width of no power of two
    case 6: out[i] = __shfl_xor(v, 3, 16); break;
    case 7: out[i] = __shfl(v, (t * 5 + 1) % warpSize); break;
    case 8: {  // the same shuffle met `rounds` times
      for (int r = 0; r < rounds; r++) v = __shfl_down(v, 1) + 2 * v;
      out[i] = v;
      break;
    }
  }
}

// Threads from `keep` on return before the shuffle: reading one of them gives 0.
__global__ void after_returns(int *out, int keep) {
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  out[i] = -1;
  if (t >= keep) return;
  out[i] = __shfl_down(value_of(blockIdx.x, t), 4);
}

// 64-bit values down by 16: both halves travel.
__global__ void wide_values(long long *out) {
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + t;
  long long v = (static_cast<long long>(value_of(blockIdx.x, t)) << 32) | static_cast<unsigned>(t);
  out[i] = __shfl_down(v, 16);
}

// A block reduction as programs write it: down by 32, 16, ... 1 (by half the
// wavefront, whatever its size).
__global__ void reduce(int *out) {
  int sum = value_of(blockIdx.x, threadIdx.x);
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
  out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

// What lane `self` of a wavefront of `count` lanes (`returned`: its lanes
// that returned) reads, as HIP defines each shuffle.
static long long shuffled(Op op, long long arg, int width, int self, int count, int wave,
                          const std::vector<long long> &values, const std::vector<bool> &returned) {
  if (width <= 0 || width > wave) width = wave;
  long long base = self & ~(width - 1), index = self;
  switch (op) {
    case kIndex: index = arg + base; break;
    case kUp: index = self - arg < base ? self : self - arg; break;
    case kDown: index = (self & (width - 1)) + arg >= width ? self : self + arg; break;
    case kXor: index = (self ^ arg) >= ((self + width) & ~(width - 1)) ? self : self ^ arg; break;
  }
  int source = static_cast<int>(static_cast<unsigned>(index) & (wave - 1));
  return source < count && !returned[source] ? values[source] : 0;
}

struct Case {
  Op op;
  long long arg;
  int width;
};

static int wrong_total = 0;

template <typename T>
static void report(const char *name, const std::vector<T> &got, const std::vector<T> &want) {
  int wrong = 0;
  for (size_t i = 0; i < got.size(); i++) wrong += got[i] != want[i];
  if (wrong)
    printf("%s: %d wrong\n", name, wrong);
  else
    printf("%s: ok\n", name);
  wrong_total += wrong;
}

// Each lane's result over a grid: `step` gives the values of one wavefront's
// lanes (by block and lane) and what each reads.
template <typename T, typename Step>
static std::vector<T> expected(int blocks, int threads, int wave, Step step) {
  std::vector<T> result(static_cast<size_t>(blocks) * threads);
  for (int b = 0; b < blocks; b++)
    for (int first = 0; first < threads; first += wave) {
      int count = threads - first < wave ? threads - first : wave;
      for (int self = 0; self < count; self++) result[b * threads + first + self] = step(b, first, count, self);
    }
  return result;
}

template <typename T>
static std::vector<T> to_host(T *device, size_t count) {
  std::vector<T> host(count);
  hipMemcpy(host.data(), device, count * sizeof(T), hipMemcpyDeviceToHost);
  return host;
}

template <int Index>
static void launch_case(int *out, int blocks, int threads) {
  shuffle_once<Index><<<blocks, threads>>>(out, 3);
}

int main() {
  int wave = 0;
  hipDeviceGetAttribute(&wave, hipDeviceAttributeWarpSize, 0);
  const int blocks = 3, threads = 100;  // a last wavefront of 36 (64 lanes) or 4 (32 lanes)
  int *out;
  long long *wide;
  hipMalloc(&out, blocks * 256 * sizeof(int));  // the reduction's blocks are of 256
  hipMalloc(&wide, blocks * threads * sizeof(long long));
  auto wave_values = [&](int b, int first, int count) {
    std::vector<long long> values(count);
    for (int self = 0; self < count; self++) values[self] = value_of(b, first + self);
    return values;
  };
  const std::vector<bool> none(64, false);

  const Case cases[] = {{kDown, 1, 0},  {kDown, 5, 8}, {kUp, 3, 16}, {kDown, 40, 32},
                        {kUp, 0, 0},    {kDown, 2, 12}, {kXor, 3, 16}};
  const char *names[] = {"down by 1",        "down by 5 in 8 lanes", "up by 3 in 16 lanes", "down by 40 in 32 lanes",
                         "up by 0",          "down by 2 in 12 lanes", "xor 3 in 16 lanes"};
  void (*launches[])(int *, int, int) = {launch_case<0>, launch_case<1>, launch_case<2>, launch_case<3>,
                                         launch_case<4>, launch_case<5>, launch_case<6>};
  for (int c = 0; c < 7; c++) {
    launches[c](out, blocks, threads);
    report(names[c], to_host(out, blocks * threads), expected<int>(blocks, threads, wave, [&](int b, int first, int count, int self) {
             return static_cast<int>(
                 shuffled(cases[c].op, cases[c].arg, cases[c].width, self, count, wave, wave_values(b, first, count), none));
           }));
  }

  shuffle_once<7><<<blocks, threads>>>(out, 0);
  report("from a lane each thread computes", to_host(out, blocks * threads),
         expected<int>(blocks, threads, wave, [&](int b, int first, int count, int self) {
           return static_cast<int>(shuffled(kIndex, ((first + self) * 5 + 1) % wave, 0, self, count, wave,
                                            wave_values(b, first, count), none));
         }));

  shuffle_once<8><<<blocks, threads>>>(out, 3);
  report("the same shuffle met three times", to_host(out, blocks * threads),
         expected<int>(blocks, threads, wave, [&](int b, int first, int count, int self) {
           std::vector<long long> values = wave_values(b, first, count);
           for (int r = 0; r < 3; r++) {
             std::vector<long long> next(count);
             for (int self = 0; self < count; self++)
               next[self] = static_cast<int>(shuffled(kDown, 1, 0, self, count, wave, values, none) + 2 * values[self]);
             values = next;
           }
           return static_cast<int>(values[self]);
         }));

  const int keep = 70;
  after_returns<<<blocks, threads>>>(out, keep);
  report("down by 4 from lanes that returned", to_host(out, blocks * threads),
         expected<int>(blocks, threads, wave, [&](int b, int first, int count, int self) {
           std::vector<bool> returned(64, false);
           for (int lane = 0; lane < count; lane++) returned[lane] = first + lane >= keep;
           if (returned[self]) return -1;
           return static_cast<int>(shuffled(kDown, 4, 0, self, count, wave, wave_values(b, first, count), returned));
         }));

  wide_values<<<blocks, threads>>>(wide);
  report("64-bit values down by 16", to_host(wide, blocks * threads),
         expected<long long>(blocks, threads, wave, [&](int b, int first, int count, int self) {
           std::vector<long long> values(count);
           for (int lane = 0; lane < count; lane++)
             values[lane] = (static_cast<long long>(value_of(b, first + lane)) << 32) | static_cast<unsigned>(first + lane);
           return shuffled(kDown, 16, 0, self, count, wave, values, none);
         }));

  reduce<<<blocks, 256>>>(out);
  report("a reduction down by half the wavefront", to_host(out, blocks * 256),
         expected<int>(blocks, 256, wave, [&](int b, int first, int count, int self) {
           std::vector<long long> values = wave_values(b, first, count);
           for (int offset = wave / 2; offset > 0; offset /= 2) {
             std::vector<long long> next(count);
             for (int lane = 0; lane < count; lane++)
               next[lane] = static_cast<int>(values[lane] + shuffled(kDown, offset, 0, lane, count, wave, values, none));
             values = next;
           }
           return static_cast<int>(values[self]);
         }));

  printf("direct shuffles: %d wrong\n", wrong_total);
  hipFree(out);
  hipFree(wide);
  return wrong_total != 0;
}
