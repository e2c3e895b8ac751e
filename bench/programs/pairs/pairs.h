// The pairs benchmark: four computations written twice, as HIP kernels
// (pairs.hip) and as OpenMP loops over the same data (pairs_openmp.cpp).
// What both sides share: the algorithms' constants and the OpenMP side's
// functions, which pairs.hip times against its kernels.
#pragma once

// 2D stencil: 5-point Jacobi steps of a heat equation on a grid whose edges
// stay fixed, over tiles of TILE x TILE points.
constexpr int TILE = 16;
constexpr float DIFFUSION = 0.2f;

// Reduction: a grid of at most REDUCE_BLOCKS blocks of REDUCE_THREADS
// threads, each thread summing a stride of the array.
constexpr int REDUCE_THREADS = 256;
constexpr int REDUCE_BLOCKS = 1024;

// n-body: tiles of NBODY_TILE bodies in shared memory (GPU Gems 3, ch. 31).
constexpr int NBODY_TILE = 256;
constexpr float SOFTENING_SQUARED = 0.01f;
constexpr float TIME_STEP = 0.001f;

// Scan: each block scans SCAN_ELEMENTS values, two a thread (GPU Gems 3, ch. 39).
constexpr int SCAN_THREADS = 256;
constexpr int SCAN_ELEMENTS = 2 * SCAN_THREADS;

// A body: position and mass (x, y, z, w), or velocity; float4's layout.
struct alignas(16) Body {
  float x, y, z, w;
};

// Sets the OpenMP team's size to `threads` and answers the size a parallel
// region gets.
int openmp_threads(int threads);

// `iterations` Jacobi steps from `a` (`b` holds the same grid): the buffer
// holding the result.
float* stencil_openmp(float* a, float* b, int nx, int ny, int iterations);

float reduce_openmp(const float* in, long n);

// One time step: each body's acceleration from all `n`, then its velocity
// and position.
void nbody_openmp(const Body* position, const Body* velocity, Body* new_position, Body* new_velocity, int n);

// The exclusive prefix sums of `in`, per block of SCAN_ELEMENTS, then the
// blocks' sums added back; `block_sums` holds one int per block.
void scan_openmp(const int* in, int* out, int* block_sums, long n);
