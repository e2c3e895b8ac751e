// Tests of a thread's coordinate for equality inside code every thread
// runs, in both of a kernel's forms: a tile's halo (`if (tx == 0)`, `if
// (tx == TILE - 1)`).  The fast form cuts its loop over the threads into
// pieces at those threads, the tests constants in each piece; these cover
// constant points in and out of the block and out of order, a point the
// same for the block but not known, a coordinate going down or offset by
// the block's place, points twice, `!=`, 64-bit coordinates that must not
// be cut at their low bits, conditions the same for every thread (on
// which the pieces get versions), tests behind a guard and a point whose
// thread alone branches further (on a division that cannot run for every
// thread), each in a kernel without barriers and in one whose code sits between two barriers.
// The host computes each result a thread at a time.  Prints "CASE: N
// wrong" a case, then "lane points: C cases, W wrong".
#include <hip/hip_runtime.h>

#include <climits>
#include <cstdio>
#include <vector>

// A thread's place: its coordinates in the block and the grid, the block's
// size, and its flat index in the grid.
struct Place {
  int tx, ty, bx, dx, dy, global;
};

// Each case: a first and a second test of a thread's place against a and
// b.  Where each output starts at -1, a thread adds its value plus 1 (to
// give its value), adds its value plus 10 where the first test holds and
// xors its value plus 100 where the second does (two ways, so that LLVM
// does not merge the two writes): a thread run twice would show.
#define CASES(X)                                                                              \
  X(halo, p.tx == 0, p.tx == 15)                                                              \
  X(out_of_order, p.tx == 40, p.tx == 2)                                                      \
  X(not_known, p.tx == a, p.tx == a && b > 3)                                                 \
  X(last_lane, p.tx == p.dx - 1, b > 3)                                                       \
  X(going_down, 15 - p.tx == 3, p.tx == 1)                                                    \
  X(grid_place, p.bx * p.dx + p.tx == a, b > 3)                                               \
  X(twice, p.tx == 4, p.tx == 4)                                                              \
  X(not_equal, p.tx != 7, p.tx == 7)                                                          \
  X(negative, p.tx == -1, p.tx == INT_MIN)                                                    \
  X(high_bits, (long long)p.tx + ((long long)a << 32) == (long long)b, b > 100)               \
  X(unsigned_point, (unsigned)p.tx == (unsigned)a, b > 3)                                     \
  X(rows, p.ty == 0 && p.tx == 1, p.ty == p.dy - 1)                                           \
  X(uniform, a > 3 && p.tx == 0, b > 3)                                                       \
  X(guarded, p.tx < a && p.tx == 3, p.tx < b && p.tx == 9)                                    \
  X(many, p.tx == 1 || p.tx == 6, p.tx == 9 || p.tx == 12)                                   \
  X(nested, p.tx == 3 && a != 0 && p.global / a > b, p.tx == 9)

#define DEFINE_TESTS(name, first, second)                                                      \
  __host__ __device__ inline bool name##_first(const Place &p, int a, int b) { return first; }  \
  __host__ __device__ inline bool name##_second(const Place &p, int a, int b) { return second; }
CASES(DEFINE_TESTS)

__device__ Place place() {
  Place p;
  p.tx = threadIdx.x, p.ty = threadIdx.y, p.bx = blockIdx.x, p.dx = blockDim.x, p.dy = blockDim.y;
  p.global = (blockIdx.x * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
  return p;
}

// Where a kernel writes: each thread's value, then the values where the
// first test holds, then those where the second does (a test's thread
// writes where no other store goes, as a tile's halo does).
constexpr int kMost = 3 * 256;

#define DEFINE_PLAIN(name, first, second)                                          \
  __global__ void plain_##name(int *out, int a, int b) {                           \
    Place p = place();                                                             \
    int v = p.global * 3;                                                          \
    out[p.global] += v + 1;                                                        \
    if (name##_first(p, a, b)) out[kMost + p.global] += v + 10;                    \
    if (name##_second(p, a, b)) out[2 * kMost + p.global] ^= v + 100;              \
  }
CASES(DEFINE_PLAIN)

// Between two barriers, the same into slots in shared memory (read before
// any is written: a read after a write would need a lockstep step); after
// the barrier, each thread writes its neighbour's slots.
constexpr int kMaxBlock = 256;
#define DEFINE_BARRIER(name, first, second)                                        \
  __global__ void barrier_##name(int *out, int a, int b) {                         \
    __shared__ int slots[3][kMaxBlock];                                            \
    Place p = place();                                                             \
    int t = p.ty * p.dx + p.tx, threads = p.dx * p.dy;                             \
    slots[0][t] = slots[1][t] = slots[2][t] = -1;                                  \
    __syncthreads();                                                               \
    int v = p.global * 3, was[3] = {slots[0][t], slots[1][t], slots[2][t]};        \
    slots[0][t] = was[0] + v + 1;                                                  \
    if (name##_first(p, a, b)) slots[1][t] = was[1] + v + 10;                      \
    if (name##_second(p, a, b)) slots[2][t] = was[2] ^ (v + 100);                  \
    __syncthreads();                                                               \
    int next = (t + 1) % threads;                                                  \
    for (int i = 0; i < 3; i++) out[i * kMost + p.global] = slots[i][next];        \
  }
CASES(DEFINE_BARRIER)

struct Shape {
  int blocks, x, y;
};

using Kernel = void (*)(int *, int, int);
using Test = bool (*)(const Place &, int, int);

int main() {
  const Shape shapes[] = {{3, 16, 1}, {2, 16, 4}, {2, 33, 3}, {1, 256, 1}, {2, 1, 8}};
  const int bounds[][2] = {{0, 0}, {5, 40}, {-3, 7}, {15, 15}, {1, 5}, {4, 2}, {INT_MAX, INT_MIN}, {20, 300}};
  std::vector<int> out(3 * kMost);
  int *out_device;
  hipMalloc(&out_device, 3 * kMost * sizeof(int));

  int cases = 0, all_wrong = 0;
  auto check = [&](const char *name, Kernel plain, Kernel barrier, Test first, Test second) {
    int wrong = 0;
    for (const Shape &shape : shapes)
      for (const auto &bound : bounds) {
        int a = bound[0], b = bound[1], threads = shape.x * shape.y, total = shape.blocks * threads;
        for (int with_barriers = 0; with_barriers < 2; with_barriers++) {
          hipMemset(out_device, 0xff, 3 * kMost * sizeof(int));
          (with_barriers ? barrier : plain)<<<shape.blocks, dim3(shape.x, shape.y)>>>(out_device, a, b);
          hipMemcpy(out.data(), out_device, 3 * kMost * sizeof(int), hipMemcpyDeviceToHost);
          std::vector<int> slots(3 * kMost, -1);
          for (int bx = 0; bx < shape.blocks; bx++)
            for (int ty = 0; ty < shape.y; ty++)
              for (int tx = 0; tx < shape.x; tx++) {
                Place p{tx, ty, bx, shape.x, shape.y, (bx * shape.y + ty) * shape.x + tx};
                int v = p.global * 3;
                slots[p.global] = v;
                if (first(p, a, b)) slots[kMost + p.global] += v + 10;
                if (second(p, a, b)) slots[2 * kMost + p.global] ^= v + 100;
              }
          for (int i = 0; i < 3; i++)
            for (int g = 0; g < total; g++) {
              int block = g / threads, t = g % threads;
              int from = with_barriers ? block * threads + (t + 1) % threads : g;
              wrong += out[i * kMost + g] != slots[i * kMost + from];
            }
          cases++;
        }
      }
    printf("%s: %d wrong\n", name, wrong);
    all_wrong += wrong;
  };
#define CHECK(name, first, second) check(#name, plain_##name, barrier_##name, name##_first, name##_second);
  CASES(CHECK)
  printf("lane points: %d cases, %d wrong\n", cases, all_wrong);
  return all_wrong != 0;
}
