// __syncthreads in nested places: in loops within loops, in both arms of a
// branch every lane takes alike, in a device function called from a loop,
// and among the lanes left after the others returned early.  Each block size
// given on the command line runs over several blocks; the host computes the
// same values in order and compares every lane's result.
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <vector>

__device__ __attribute__((noinline)) int rotate(int* ring, int t, int n, int value) {
  ring[t] = value;
  __syncthreads();
  int next = ring[(t + 1) % n];
  __syncthreads();
  return next;
}

__global__ void nested(int* out, int rounds) {
  __shared__ int buf[1024];
  int n = blockDim.x * blockDim.y * blockDim.z;
  int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  int acc = t + 1000 * blockIdx.x;
  for (int r = 0; r < rounds; r++) {
    if (r % 2 == 0) {
      // inclusive prefix sum, two barriers per step
      buf[t] = acc;
      __syncthreads();
      for (int s = 1; s < n; s *= 2) {
        int v = t >= s ? buf[t - s] : 0;
        __syncthreads();
        buf[t] += v;
        __syncthreads();
      }
      acc = buf[t] % 100003;
      __syncthreads();
    } else {
      for (int k = 0; k < 3; k++) acc = rotate(buf, t, n, acc + k);
    }
  }
  out[blockIdx.x * n + t] = acc;
}

// The upper half of the lanes return at once; the lower half reduce with
// barriers among themselves.
__global__ void early_exit(int* out) {
  __shared__ int buf[1024];
  int n = blockDim.x, t = threadIdx.x;
  out[blockIdx.x * n + t] = -1;
  int half = (n + 1) / 2;
  if (t >= half) return;
  buf[t] = t + blockIdx.x;
  __syncthreads();
  for (int s = 1; s < half; s *= 2) {
    int v = t + s < half ? buf[t + s] : 0;
    __syncthreads();
    buf[t] += v;
    __syncthreads();
  }
  out[blockIdx.x * n + t] = buf[0];
}

static std::vector<int> expected_nested(int blocks, int n, int rounds) {
  std::vector<int> result(blocks * n);
  for (int b = 0; b < blocks; b++) {
    std::vector<int> acc(n);
    for (int t = 0; t < n; t++) acc[t] = t + 1000 * b;
    for (int r = 0; r < rounds; r++) {
      if (r % 2 == 0) {
        for (int t = 1; t < n; t++) acc[t] += acc[t - 1];
        for (int t = 0; t < n; t++) acc[t] %= 100003;
      } else {
        for (int k = 0; k < 3; k++) {
          std::vector<int> next(n);
          for (int t = 0; t < n; t++) next[t] = acc[(t + 1) % n] + k;
          acc = next;
        }
      }
    }
    for (int t = 0; t < n; t++) result[b * n + t] = acc[t];
  }
  return result;
}

int main(int argc, char** argv) {
  const int blocks = 3, rounds = 4;
  int wrong = 0;
  for (int i = 1; i < argc; i++) {
    int x = 1, y = 1, z = 1;
    sscanf(argv[i], "%dx%dx%d", &x, &y, &z);
    int n = x * y * z;
    int* d;
    hipMalloc(&d, blocks * n * sizeof(int));
    std::vector<int> got(blocks * n);

    nested<<<blocks, dim3(x, y, z)>>>(d, rounds);
    hipMemcpy(got.data(), d, got.size() * sizeof(int), hipMemcpyDeviceToHost);
    std::vector<int> want = expected_nested(blocks, n, rounds);
    for (int k = 0; k < blocks * n; k++) wrong += got[k] != want[k];

    if (y == 1 && z == 1) {
      early_exit<<<blocks, n>>>(d);
      hipMemcpy(got.data(), d, got.size() * sizeof(int), hipMemcpyDeviceToHost);
      int half = (n + 1) / 2;
      for (int b = 0; b < blocks; b++) {
        int sum = 0;
        for (int t = 0; t < half; t++) sum += t + b;
        for (int t = 0; t < n; t++) wrong += got[b * n + t] != (t < half ? sum : -1);
      }
    }
    hipFree(d);
  }
  printf("barriers: %d wrong\n", wrong);
  return wrong == 0 ? 0 : 1;
}
