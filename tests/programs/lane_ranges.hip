// Guards on a thread's coordinates, in both of a kernel's forms.  The fast
// form runs only the threads a guard such as `if (t < n)` or `if (t == 0)`
// lets in, the range worked out before its loop over the threads; the
// guards here cover each kind of test (signed and unsigned, <, <=, >, >=, ==,
// a coordinate going down, conjunctions with other terms), bounds outside
// the block, empty ranges, and coordinates that wrap in 32 and 64 bits,
// each in a kernel without barriers, in one whose guarded code sits
// between two barriers, and in one that tests midway through a thread's
// work (the fast form's loop then has a copy without the test, for when
// every thread passes it).  The host computes each result from the same
// guard, a thread at a time.  Prints "GUARD: N wrong" a guard, then
// "lane ranges: C cases, W wrong".
#include <hip/hip_runtime.h>

#include <climits>
#include <cstdio>
#include <vector>

// A thread's place: its coordinates in the block and the grid, the block's
// size, and its flat index in the grid.
struct Place {
  int tx, ty, bx, dx, dy, global;
};

__host__ __device__ inline int flat_x(const Place &p) { return p.bx * p.dx + p.tx; }

// The guards, each a test of a thread's place against a and b (and, for
// `residual`, the input).  Unsigned and 64-bit arithmetic where a
// coordinate may wrap: no undefined behaviour for an optimiser to use.
#define GUARDS(X)                                                                                      \
  X(below, p.tx < a)                                                                                   \
  X(below_or_at, p.tx <= a)                                                                            \
  X(above, p.tx > a)                                                                                   \
  X(at_or_above, p.tx >= a)                                                                            \
  X(equal, p.tx == a)                                                                                  \
  X(first_lane, p.tx == 0)                                                                             \
  X(between, p.tx > a && p.tx <= b)                                                                    \
  X(unsigned_below, (unsigned)p.tx < (unsigned)a)                                                      \
  X(grid_window, flat_x(p) >= a && flat_x(p) < b)                                                      \
  X(rows, p.ty < a && p.tx < b)                                                                        \
  X(going_down, p.dx - 1 - p.tx < a)                                                                   \
  X(not_at_or_above, !(p.tx >= a || p.tx < b))                                                         \
  X(residual, p.tx < a && in[p.tx] % 3 != 0)                                                           \
  X(some_blocks, p.bx > 0 && p.tx < a)                                                                 \
  X(not_equal, p.tx != a)                                                                              \
  X(every_other, 2 * p.tx < a)                                                                         \
  X(wraps_32, (unsigned)flat_x(p) + (unsigned)a < (unsigned)b)                                        \
  X(wraps_32_above, (unsigned)flat_x(p) + (unsigned)a >= (unsigned)b)                                  \
  X(far_64, (long long)flat_x(p) + (long long)a * (1 << 20) < (long long)a * (1 << 20) + b)                  \
  X(wraps_64, (unsigned long long)flat_x(p) + (unsigned long long)(long long)a < (unsigned long long)b)   \
  X(wraps_64_above, (unsigned long long)flat_x(p) + (unsigned long long)(long long)a >= (unsigned long long)b)

#define DEFINE_GUARD(name, test) \
  __host__ __device__ inline bool name(const Place &p, int a, int b, const int *in) { return test; }
GUARDS(DEFINE_GUARD)

__device__ Place place() {
  Place p;
  p.tx = threadIdx.x, p.ty = threadIdx.y, p.bx = blockIdx.x, p.dx = blockDim.x, p.dy = blockDim.y;
  p.global = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return p;
}

// A guarded thread writes its value; the others leave the output as it was.
#define DEFINE_PLAIN(name, test)                                                 \
  __global__ void plain_##name(const int *in, int *out, int a, int b) {         \
    Place p = place();                                                           \
    if (name(p, a, b, in)) out[p.global] = p.global * 7 + 1;                     \
  }
GUARDS(DEFINE_PLAIN)

// Between two barriers: a guarded thread writes its slot; every thread then
// sets the block's `uniform`, and after the barrier reads its neighbour's slot.
constexpr int kMaxBlock = 256;
#define DEFINE_BARRIER(name, test)                                               \
  __global__ void barrier_##name(const int *in, int *out, int a, int b) {       \
    __shared__ int slots[kMaxBlock];                                             \
    Place p = place();                                                           \
    int t = p.ty * p.dx + p.tx, threads = p.dx * p.dy;                           \
    slots[t] = -1;                                                               \
    __syncthreads();                                                             \
    int uniform = a;                                                             \
    if (name(p, a, b, in)) slots[t] = p.global * 7 + 1;                          \
    uniform += b;                                                                \
    __syncthreads();                                                             \
    out[p.global] = slots[(t + 1) % threads] + uniform;                          \
  }
GUARDS(DEFINE_BARRIER)

// Midway through a thread's work: it stores, then the guard picks what it
// stores over that.
#define DEFINE_MIDWAY(name, test)                                                \
  __global__ void midway_##name(const int *in, int *out, int a, int b) {        \
    Place p = place();                                                           \
    out[p.global] = -2;                                                          \
    if (name(p, a, b, in)) out[p.global] = p.global * 7 + 1;                     \
  }
GUARDS(DEFINE_MIDWAY)

// Threads the guard lets in swap values with a neighbour in their
// wavefront (a warp function only they reach) and return; the others go on
// past the next barrier.  A range that left the others out would also leave
// out their arrival there.
__global__ void swap_then_return(int *out, int a) {
  __shared__ int slots[kMaxBlock];
  int t = threadIdx.x, global = blockIdx.x * blockDim.x + t;
  slots[t] = t;
  __syncthreads();
  if (t < a) {
    out[global] = __shfl_xor(slots[t], 1) * 2;
    return;
  }
  __syncthreads();
  out[global] = slots[t] + 1000;
}

struct Shape {
  int blocks, x, y;
};

using Kernel = void (*)(const int *, int *, int, int);
using Guard = bool (*)(const Place &, int, int, const int *);

int main() {
  const Shape shapes[] = {{3, 64, 1}, {2, 16, 4}, {2, 33, 3}, {1, 256, 1}};
  const int bounds[][2] = {{0, 0},   {5, 40},   {-3, 7},  {17, 17},       {63, 1000},
                           {1000, -1}, {-5, 90}, {31, 2}, {INT_MAX, INT_MIN}, {INT_MIN, INT_MAX}};
  constexpr int kMost = 3 * 256;
  std::vector<int> in(kMaxBlock), out(kMost), expected(kMost);
  for (int i = 0; i < kMaxBlock; i++) in[i] = i * 5 + 2;
  int *in_device, *out_device;
  hipMalloc(&in_device, kMaxBlock * sizeof(int));
  hipMalloc(&out_device, kMost * sizeof(int));
  hipMemcpy(in_device, in.data(), kMaxBlock * sizeof(int), hipMemcpyHostToDevice);

  int cases = 0, all_wrong = 0;
  auto check = [&](const char *name, Kernel plain, Kernel barrier, Kernel midway, Guard guard) {
    int wrong = 0;
    for (const Shape &shape : shapes)
      for (const auto &bound : bounds) {
        int a = bound[0], b = bound[1], threads = shape.x * shape.y, total = shape.blocks * threads;
        for (Kernel kernel : {plain, barrier, midway}) {
          bool with_barriers = kernel == barrier;
          hipMemset(out_device, 0xff, kMost * sizeof(int));
          kernel<<<shape.blocks, dim3(shape.x, shape.y)>>>(in_device, out_device, a, b);
          hipMemcpy(out.data(), out_device, kMost * sizeof(int), hipMemcpyDeviceToHost);
          std::vector<int> slots(kMost, -1);
          for (int bx = 0; bx < shape.blocks; bx++)
            for (int ty = 0; ty < shape.y; ty++)
              for (int tx = 0; tx < shape.x; tx++) {
                Place p{tx, ty, bx, shape.x, shape.y, (bx * shape.y + ty) * shape.x + tx};
                bool in_guard = guard(p, a, b, in.data());
                expected[p.global] = in_guard ? p.global * 7 + 1 : kernel == midway ? -2 : -1;
                slots[p.global] = expected[p.global];
              }
          if (with_barriers)
            for (int i = 0; i < total; i++) {
              int block = i / threads, t = i % threads;
              expected[i] = slots[block * threads + (t + 1) % threads] + (int)((unsigned)a + (unsigned)b);
            }
          for (int i = 0; i < total; i++) wrong += out[i] != expected[i];
          cases++;
        }
      }
    printf("%s: %d wrong\n", name, wrong);
    all_wrong += wrong;
  };
#define CHECK(name, test) check(#name, plain_##name, barrier_##name, midway_##name, name);
  GUARDS(CHECK)
  int wrong = 0;
  for (int a : {0, 2, 6, 64, 100}) {
    swap_then_return<<<3, 64>>>(out_device, a);
    hipMemcpy(out.data(), out_device, 3 * 64 * sizeof(int), hipMemcpyDeviceToHost);
    for (int i = 0; i < 3 * 64; i++) wrong += out[i] != (i % 64 < a ? (i % 64 ^ 1) * 2 : i % 64 + 1000);
    cases++;
  }
  printf("swap_then_return: %d wrong\n", wrong);
  all_wrong += wrong;
  printf("lane ranges: %d cases, %d wrong\n", cases, all_wrong);
  return all_wrong != 0;
}
