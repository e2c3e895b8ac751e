// Values of loops whose trips wait at barriers, in both of a kernel's forms.
// - last_trip: read after the loop, the last trip's.  (A fast form that kept
//   a loop's value by storing it at the end of the latch gave the value meant
//   for a next trip that never ran.)
// - some_trips_wait: the counter of a loop whose trips wait only on some,
//   the same for the whole block.  (A fast form that ran the trips without a
//   wait in one loop over the threads gave each thread the counter of the
//   trip that loop started at, and never ended.)
// - tile_sums: a sum each thread adds to in a loop without barriers, over
//   tiles of `__shared__` values between two barriers (a tiled matrix
//   product's shape).  The sum leaves the inner loop once, after it.
#include <hip/hip_runtime.h>

#include <cstdio>

constexpr int kThreads = 64, kTrips = 3;

__global__ void last_trip(const int *in, int *out, int trips) {
  __shared__ int seen[kThreads];
  int t = threadIdx.x;
  int value = in[t], previous = 0, before = 0;
  for (int trip = 0; trip < trips; trip++) {
    before = previous;
    previous = value;
    seen[t] = value;
    __syncthreads();
    value = seen[(t + 1) % blockDim.x] + trip;
    __syncthreads();
  }
  out[t] = before * 1000000 + previous * 1000 + value;
}

__global__ void some_trips_wait(int *out, int trips) {
  __shared__ int seen[kThreads];
  int t = threadIdx.x, sum = t;
  for (int trip = 0; trip < trips; trip++) {
    if (trip % 3 == 1) {
      seen[t] = sum;
      __syncthreads();
      sum = seen[(t + 1) % blockDim.x] + trip;
      __syncthreads();
    } else {
      sum += trip;
    }
  }
  out[t] = sum;
}

__global__ void tile_sums(const int *in, int *out, int tiles) {
  __shared__ int tile[kThreads];
  int t = threadIdx.x, sum = t;
  for (int i = 0; i < tiles; i++) {
    tile[t] = in[(i * kThreads + t) % kThreads] + i;
    __syncthreads();
    for (int k = 0; k < kThreads; k++) sum += tile[k] * (t + k);
    __syncthreads();
  }
  out[t] = sum;
}

static int check_tile_sums(const int *in, const int *in_device, int *out_device) {
  constexpr int tiles = 5;
  int out[kThreads];
  tile_sums<<<1, kThreads>>>(in_device, out_device, tiles);
  hipMemcpy(out, out_device, sizeof out, hipMemcpyDeviceToHost);
  int wrong = 0;
  for (int t = 0; t < kThreads; t++) {
    int sum = t;
    for (int i = 0; i < tiles; i++)
      for (int k = 0; k < kThreads; k++) sum += (in[(i * kThreads + k) % kThreads] + i) * (t + k);
    wrong += out[t] != sum;
  }
  printf("tile_sums: %d wrong\n", wrong);
  return wrong;
}

static int check_some_trips_wait(int *out_device) {
  constexpr int trips = 8;
  int out[kThreads], sum[kThreads], seen[kThreads];
  some_trips_wait<<<1, kThreads>>>(out_device, trips);
  hipMemcpy(out, out_device, sizeof out, hipMemcpyDeviceToHost);
  for (int t = 0; t < kThreads; t++) sum[t] = t;
  for (int trip = 0; trip < trips; trip++) {
    if (trip % 3 == 1) {
      for (int t = 0; t < kThreads; t++) seen[t] = sum[t];
      for (int t = 0; t < kThreads; t++) sum[t] = seen[(t + 1) % kThreads] + trip;
    } else {
      for (int t = 0; t < kThreads; t++) sum[t] += trip;
    }
  }
  int wrong = 0;
  for (int t = 0; t < kThreads; t++) wrong += out[t] != sum[t];
  printf("some_trips_wait: %d wrong\n", wrong);
  return wrong;
}

int main() {
  int in[kThreads], out[kThreads], *in_device, *out_device;
  for (int t = 0; t < kThreads; t++) in[t] = t;
  hipMalloc(&in_device, sizeof in);
  hipMalloc(&out_device, sizeof out);
  hipMemcpy(in_device, in, sizeof in, hipMemcpyHostToDevice);
  last_trip<<<1, kThreads>>>(in_device, out_device, kTrips);
  hipMemcpy(out, out_device, sizeof out, hipMemcpyDeviceToHost);

  // The host's model: the block's threads trip by trip.
  int value[kThreads], previous[kThreads] = {}, before[kThreads] = {}, seen[kThreads];
  for (int t = 0; t < kThreads; t++) value[t] = in[t];
  for (int trip = 0; trip < kTrips; trip++) {
    for (int t = 0; t < kThreads; t++) {
      before[t] = previous[t];
      previous[t] = value[t];
      seen[t] = value[t];
    }
    for (int t = 0; t < kThreads; t++) value[t] = seen[(t + 1) % kThreads] + trip;
  }
  int wrong = 0;
  for (int t = 0; t < kThreads; t++) wrong += out[t] != before[t] * 1000000 + previous[t] * 1000 + value[t];
  printf("last_trip: %d wrong\n", wrong);
  wrong += check_some_trips_wait(out_device);
  wrong += check_tile_sums(in, in_device, out_device);
  return wrong != 0;
}
