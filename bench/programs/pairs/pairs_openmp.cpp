// The OpenMP side of the pairs benchmark: each computation of pairs.hip as a
// CPU programmer writes it, a parallel loop over the outer loop, the same
// algorithm and data.  Compiled as plain C++ (clang-19 -O2 -fopenmp).
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "pairs.h"

int openmp_threads(int threads) {
  omp_set_num_threads(threads);
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  return team;
}

float* stencil_openmp(float* a, float* b, int nx, int ny, int iterations) {
  for (int step = 0; step < iterations; step++) {
#pragma omp parallel for
    for (int y = 1; y < ny - 1; y++) {
      const float* row = a + (long)y * nx;
      float* out = b + (long)y * nx;
      for (int x = 1; x < nx - 1; x++) {
        float c = row[x];
        out[x] = c + DIFFUSION * (row[x - 1] + row[x + 1] + row[x - nx] + row[x + nx] - 4.0f * c);
      }
    }
    std::swap(a, b);
  }
  return a;
}

float reduce_openmp(const float* in, long n) {
  double sum = 0;  // each thread adds half the array: a float would lose digits
#pragma omp parallel for reduction(+ : sum)
  for (long i = 0; i < n; i++) sum += in[i];
  return static_cast<float>(sum);
}

void nbody_openmp(const Body* position, const Body* velocity, Body* new_position, Body* new_velocity, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    Body me = position[i];
    float ax = 0, ay = 0, az = 0;
    for (int j = 0; j < n; j++) {
      Body other = position[j];
      float rx = other.x - me.x, ry = other.y - me.y, rz = other.z - me.z;
      float distance_squared = rx * rx + ry * ry + rz * rz + SOFTENING_SQUARED;
      float distance_sixth = distance_squared * distance_squared * distance_squared;
      float s = other.w * (1.0f / sqrtf(distance_sixth));
      ax += rx * s;
      ay += ry * s;
      az += rz * s;
    }
    Body v = velocity[i];
    v.x += ax * TIME_STEP;
    v.y += ay * TIME_STEP;
    v.z += az * TIME_STEP;
    new_velocity[i] = v;
    new_position[i] = {me.x + v.x * TIME_STEP, me.y + v.y * TIME_STEP, me.z + v.z * TIME_STEP, me.w};
  }
}

void scan_openmp(const int* in, int* out, int* block_sums, long n) {
  long blocks = (n + SCAN_ELEMENTS - 1) / SCAN_ELEMENTS;
#pragma omp parallel for
  for (long block = 0; block < blocks; block++) {
    long end = std::min(n, (block + 1) * SCAN_ELEMENTS);
    int sum = 0;
    for (long i = block * SCAN_ELEMENTS; i < end; i++) {
      out[i] = sum;
      sum += in[i];
    }
    block_sums[block] = sum;
  }
  int carry = 0;
  for (long block = 0; block < blocks; block++) {
    int sum = block_sums[block];
    block_sums[block] = carry;
    carry += sum;
  }
#pragma omp parallel for
  for (long block = 1; block < blocks; block++) {
    long end = std::min(n, (block + 1) * SCAN_ELEMENTS);
    int add = block_sums[block];
    for (long i = block * SCAN_ELEMENTS; i < end; i++) out[i] += add;
  }
}
