// Found by the random kernels: kernel23 of a random program
// (fuzz/random_kernels.py, seed 6, the rest of the program cut away).  A
// barrier kernel whose loop the block runs alike holds __syncthreads_or, a
// step whose loop a thread may return from, and a barrier; the loop's trips
// that skip the barrier stay in one stretch.  Its structured fast form did
// not finish for the launch <<<(2,1,3), (5,3,2)>>>: each lane read the loop's
// counter as it was at the stretch's start, after its own increments too.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define COORDINATES unsigned tx, unsigned ty, unsigned tz, unsigned bx, unsigned by, unsigned bz, \
  unsigned nx, unsigned ny, unsigned nz, unsigned gx, unsigned gy, unsigned gz
#define BODY(name) \
  __host__ __device__ __attribute__((always_inline)) inline void name( \
      COORDINATES, const unsigned *in, unsigned *out, unsigned *counters)

// The host reference of a kernel: it computes a block's results.
#define BLOCK bx, by, bz, nx, ny, nz, gx, gy, gz
#define HOST(name) \
  static void name(unsigned bx, unsigned by, unsigned bz, unsigned nx, unsigned ny, unsigned nz, unsigned gx, \
                   unsigned gy, unsigned gz, const unsigned *in, unsigned *out, unsigned *counters)
#define EACH_THREAD \
  for (unsigned tz = 0; tz < nz; tz++) \
    for (unsigned ty = 0; ty < ny; ty++) \
      for (unsigned tx = 0; tx < nx; tx++)

__host__ __device__ inline void atomic_add(unsigned *p, unsigned v) {
#ifdef __HIP_DEVICE_COMPILE__
  atomicAdd(p, v);
#else
  *p += v;
#endif
}

// The thread's slot in the output: blocks in order, threads in order in each.
__host__ __device__ inline unsigned slot(COORDINATES) {
  return ((bz * gy + by) * gx + bx) * (nx * ny * nz) + (tz * ny + ty) * nx + tx;
}

// Kernels with barriers: a thread's state between two barriers, and its
// steps from one to the next (with the loop counters j0 and j1 and the last
// reduction's result r, the same for the whole block, and the block's
// __shared__ array s, whose slot t is the thread's).  The kernel runs a
// step and waits at a barrier; the host reference runs the step for each
// thread of the block that has not returned, then goes on.
struct State {
  unsigned v0, v1, v2, v3, returned;
};
#define STEP(result, name) \
  __host__ __device__ __attribute__((always_inline)) inline result name( \
      State &state, COORDINATES, unsigned j0, unsigned j1, unsigned r, unsigned *s, const unsigned *in, \
      unsigned *out, unsigned *counters)
#define STEP_ARGS state, tx, ty, tz, BLOCK, j0, j1, r, s, in, out, counters
#define STEP_LOCALS \
  [[maybe_unused]] unsigned &v0 = state.v0, &v1 = state.v1, &v2 = state.v2, &v3 = state.v3; \
  [[maybe_unused]] unsigned id = slot(tx, ty, tz, BLOCK), t = (tz * ny + ty) * nx + tx, nt = nx * ny * nz
#define EACH_LIVE_THREAD(...) \
  EACH_THREAD { \
    State &state = states[(tz * ny + ty) * nx + tx]; \
    if (!state.returned) { \
      __VA_ARGS__; \
    } \
  }

// The host's warp step: every live thread of the block runs warp function
// `op` at once, with its argument (a source lane, a constant or a
// predicate), writing local `x` from the values of local `y` before the step.
// A wavefront is WAVE consecutive threads of the block (the last one may
// have fewer), its active lanes those that have not returned; a shuffle from
// a lane that is not active reads 0.
#define WAVE 64u
enum { SHFL, SHFL_XOR, SHFL_UP, SHFL_DOWN, BALLOT, ANY, ALL };
static void warp_step(State *states, unsigned nt, int op, const unsigned *arguments, unsigned State::*x,
                      unsigned State::*y) {
  for (unsigned first = 0; first < nt; first += WAVE) {
    unsigned count = nt - first < WAVE ? nt - first : WAVE;
    State *lanes = states + first;
    const unsigned *argument = arguments + first;
    unsigned long long active = 0, voted = 0;
    unsigned values[WAVE], results[WAVE];
    for (unsigned lane = 0; lane < count; lane++) {
      values[lane] = lanes[lane].*y;
      if (lanes[lane].returned) continue;
      active |= 1ull << lane;
      if (argument[lane]) voted |= 1ull << lane;
    }
    for (unsigned lane = 0; lane < count; lane++) {
      if (!(active >> lane & 1)) continue;
      unsigned a = argument[lane], source = lane, before = lanes[lane].*x;
      switch (op) {
        case SHFL: source = a % WAVE; break;
        case SHFL_XOR: source = lane ^ a; break;  // (a <= WAVE / 2: in the wavefront)
        case SHFL_UP: source = lane >= a ? lane - a : lane; break;
        case SHFL_DOWN: source = lane + a < WAVE ? lane + a : lane; break;
      }
      unsigned shuffled = source < count && (active >> source & 1) ? values[source] : 0u;
      switch (op) {
        case BALLOT: results[lane] = before + (unsigned)__builtin_popcountll(voted); break;
        case ANY: results[lane] = before + (voted != 0); break;
        case ALL: results[lane] = before + ((active & ~voted) == 0); break;
        default: results[lane] = shuffled; break;
      }
    }
    for (unsigned lane = 0; lane < count; lane++)
      if (active >> lane & 1) lanes[lane].*x = results[lane];
  }
}
#define INPUT_SIZE 257u
#define COUNTERS 8u
#define MAX_BLOCK 100u

BODY(body0) {
  unsigned id = slot(tx, ty, tz, bx, by, bz, nx, ny, nz, gx, gy, gz);
  unsigned v0 = (((gy == gz) ? in[(ny) % 257u] : (nz | gx)) + (((gy * bz)) >> 2));
  unsigned v1 = in[(in[(ty) % 257u]) % 257u];
  unsigned v2 = (((gx) / (((bx | gz)) | 1u)) | ((gx + gx) & gy));
  unsigned v3 = ((((bx) >> 12) < ((nz > tx) ? gy : bz)) ? in[(in[(tx) % 257u]) % 257u] : gz);
  if (v3 != (((tz ^ gx)) / ((((nx) % 12u)) | 1u))) {
    for (unsigned k1 = 0; k1 < ((((bx > nx) ? gy : ((v3 ^ v3) * v3))) & 7u); k1++) {
      v1 += k1;
      v3 = in[((((nz & v3)) / ((((v1) % 1u)) | 1u))) % 257u];
      v0 = v2;
    }
    if (in[((nx ^ v3)) % 257u] >= v3) {
      v0 = in[((((ty) / ((bx) | 1u)) | v2)) % 257u];
    } else {
      v1 = (((((v2) >> 15) - ((nx) % 8u))) >> 15);
    }
    v3 = ((((gz <= tz) ? ((v1 == ty) ? v3 : ty) : ((ty) % 12u))) >> 24);
  } else {
    v2 = (((by) % 8u) - (gz | ((by < by) ? ny : v2)));
  }
  v1 = in[(ny) % 257u];
  v0 = (in[((v0 ^ v1)) % 257u] & (((gz) % 5u) - ((11u) / ((ty) | 1u))));
  if ((((gz) / ((v1) | 1u)) + ny) != ((v2 * v2) | bz)) {
    v0 = ((((ny) / ((v1) | 1u)) ^ (nz - gy)) | (((gz) >> 22) + tx));
  } else {
    v2 = in[((in[(tz) % 257u] + ((v2 != by) ? bz : v0))) % 257u];
    v3 = ((((((ty == bx) ? bx : v0)) / ((v2) | 1u))) >> 12);
  }
  v3 = v0;
  for (unsigned k0 = 0; k0 < (((in[(gx) % 257u] + in[((bz * v3)) % 257u])) & 7u); k0++) {
    v0 += k0;
    v0 = by;
  }
  out[id] = v0 ^ (v1 * 3u) ^ (v2 * 5u) ^ (v3 * 7u);
}

// starts the thread
STEP(void, kernel23_step0) {
  STEP_LOCALS;
  s[t] = bx;
  v0 = ty;
  v1 = ((((bz - t) + nz)) >> 0);
  v2 = ((((t) >> 11) <= (nx & gx)) ? gx : bz);
  v3 = in[((((by) / ((tx) | 1u)) * ((nx > 23u) ? gz : gy))) % 257u];
  state.returned = 0u;
  s[t] = (nx & s[t]);
}
// a reduction's predicate
STEP(int, kernel23_step1) {
  STEP_LOCALS;
  return (t * 1u + ((gz + ((tz >= v2) ? ((v0 == v0) ? j1 : gx) : ((j0) % 2u))))) % 2u == 0u;
}
// reads and writes the thread's own slot
STEP(void, kernel23_step2) {
  STEP_LOCALS;
  atomic_add(&counters[(in[((j0 - (gy * tx))) % 257u]) % 8u], (((((bz) % 11u)) % 1u)) & 255u);
  v2 = in[(tz) % 257u];
  s[t] ^= ((((j0 < gz) ? gz : j0) != ((v0 <= v3) ? ty : by)) ? ((v2 == gy) ? bx : ((v3) % 2u)) : ((bx + by) - in[(v2) % 257u]));
  for (unsigned k0 = 0; k0 < ((ny) & 7u); k0++) {
    v0 += k0;
    atomic_add(&counters[(nz) % 8u], (((v3) % 9u)) & 255u);
    if ((tx * r) != v3) { out[id] = r; state.returned = 1u; return; }
  }
}
// a reduction's predicate
STEP(int, kernel23_step3) {
  STEP_LOCALS;
  return (t * 23u + (r)) % 3u == 0u;
}
// ends the thread
STEP(void, kernel23_step4) {
  STEP_LOCALS;
  out[id] = v0 ^ (v1 * 3u) ^ (v2 * 5u) ^ (v3 * 7u) ^ v2;
}
__global__ void kernel23(const unsigned *in, unsigned *out, unsigned *counters) {
  __shared__ unsigned s[MAX_BLOCK];
  unsigned tx = threadIdx.x, ty = threadIdx.y, tz = threadIdx.z, bx = blockIdx.x, by = blockIdx.y,
           bz = blockIdx.z, nx = blockDim.x, ny = blockDim.y, nz = blockDim.z, gx = gridDim.x,
           gy = gridDim.y, gz = gridDim.z;
  State state;
  unsigned j0 = 0u, j1 = 0u, r = 0u;
  kernel23_step0(STEP_ARGS);
  if (state.returned) return;
  __syncthreads();
  for (j0 = 0u; j0 < ((ny) & 3u); j0++) {
    if (((bz > bx) ? ((bz) % 2u) : bz) == j0) {
      r = __syncthreads_or(kernel23_step1(STEP_ARGS));
      state.v1 += r;
      kernel23_step2(STEP_ARGS);
      if (state.returned) return;
      __syncthreads();
    } else {
    }
  }
  r = __syncthreads_count(kernel23_step3(STEP_ARGS));
  state.v2 += r;
  kernel23_step4(STEP_ARGS);
}
HOST(host23) {
  unsigned s[MAX_BLOCK];
  State states[MAX_BLOCK] = {};
  unsigned j0 = 0u, j1 = 0u, r = 0u, reduced, arguments[MAX_BLOCK];
  EACH_LIVE_THREAD(kernel23_step0(STEP_ARGS));
  for (j0 = 0u; j0 < ((ny) & 3u); j0++) {
    if (((bz > bx) ? ((bz) % 2u) : bz) == j0) {
      reduced = 0u;
      EACH_LIVE_THREAD(reduced |= (kernel23_step1(STEP_ARGS) != 0));
      r = reduced;
      EACH_LIVE_THREAD(state.v1 += r);
      EACH_LIVE_THREAD(kernel23_step2(STEP_ARGS));
    } else {
    }
  }
  reduced = 0u;
  EACH_LIVE_THREAD(reduced += (kernel23_step3(STEP_ARGS) != 0));
  r = reduced;
  EACH_LIVE_THREAD(state.v2 += r);
  EACH_LIVE_THREAD(kernel23_step4(STEP_ARGS));
}
struct Shape {
  dim3 grid, block;
};

typedef void (*Host)(unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                     const unsigned *, unsigned *, unsigned *);
typedef void (*Device)(const unsigned *, unsigned *, unsigned *);

static int cases = 0, wrong_cases = 0;

static void check(const char *name, Device kernel, Host host, const Shape &shape, const unsigned *in_host,
                  const unsigned *in_device) {
  unsigned lanes = shape.grid.x * shape.grid.y * shape.grid.z * shape.block.x * shape.block.y * shape.block.z;
  std::vector<unsigned> out(lanes, 0xdeadbeefu), counters(COUNTERS, 0), expected(lanes, 0xdeadbeefu),
      expected_counters(COUNTERS, 0);
  unsigned *out_device, *counters_device;
  hipMalloc(&out_device, lanes * sizeof(unsigned));
  hipMalloc(&counters_device, COUNTERS * sizeof(unsigned));
  hipMemcpy(out_device, out.data(), lanes * sizeof(unsigned), hipMemcpyHostToDevice);
  hipMemcpy(counters_device, counters.data(), COUNTERS * sizeof(unsigned), hipMemcpyHostToDevice);
  hipLaunchKernelGGL(kernel, shape.grid, shape.block, 0, 0, in_device, out_device, counters_device);
  hipMemcpy(out.data(), out_device, lanes * sizeof(unsigned), hipMemcpyDeviceToHost);
  hipMemcpy(counters.data(), counters_device, COUNTERS * sizeof(unsigned), hipMemcpyDeviceToHost);
  hipFree(out_device);
  hipFree(counters_device);
  const dim3 &g = shape.grid, &n = shape.block;
  for (unsigned bz = 0; bz < g.z; bz++)
    for (unsigned by = 0; by < g.y; by++)
      for (unsigned bx = 0; bx < g.x; bx++)
        host(bx, by, bz, n.x, n.y, n.z, g.x, g.y, g.z, in_host, expected.data(), expected_counters.data());
  int wrong = 0;
  for (unsigned i = 0; i < lanes; i++) wrong += out[i] != expected[i];
  for (unsigned i = 0; i < COUNTERS; i++) wrong += counters[i] != expected_counters[i];
  printf("%s <<<(%u,%u,%u), (%u,%u,%u)>>>: ", name, g.x, g.y, g.z, n.x, n.y, n.z);
  if (wrong)
    printf("%d wrong\n", wrong);
  else
    printf("ok\n");
  cases++;
  wrong_cases += wrong != 0;
}

int main() {
  hipDeviceProp_t properties;
  hipGetDeviceProperties(&properties, 0);
  if (properties.warpSize != (int)WAVE) {
    printf("random kernels: the device's wavefronts have %d lanes, not %u\n", properties.warpSize, WAVE);
    return 1;
  }
  std::vector<unsigned> in(INPUT_SIZE);
  for (unsigned i = 0; i < INPUT_SIZE; i++) in[i] = i * 2654435761u;
  unsigned *in_device;
  hipMalloc(&in_device, INPUT_SIZE * sizeof(unsigned));
  hipMemcpy(in_device, in.data(), INPUT_SIZE * sizeof(unsigned), hipMemcpyHostToDevice);
  const Shape shapes[] = {{dim3(3, 1, 1), dim3(64, 1, 1)}, {dim3(2, 1, 1), dim3(100, 1, 1)}, {dim3(1, 1, 1), dim3(1, 1, 1)}, {dim3(2, 2, 1), dim3(8, 4, 2)}, {dim3(2, 1, 3), dim3(5, 3, 2)}, {dim3(1, 2, 2), dim3(32, 2, 1)}, {dim3(4, 1, 1), dim3(96, 1, 1)}, {dim3(1, 1, 2), dim3(7, 1, 9)}};
  for (const Shape &shape : shapes) {
    check("kernel23", kernel23, host23, shape, in.data(), in_device);
  }
  printf("random kernels: %d cases, %d wrong\n", cases, wrong_cases);
  return wrong_cases != 0;
}
