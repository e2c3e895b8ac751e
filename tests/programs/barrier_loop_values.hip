// Values of a loop whose trips wait at barriers, read after the loop: the
// last trip's, in both of a kernel's forms.  (A fast form that kept a
// loop's value by storing it at the end of the latch gave the value meant
// for a next trip that never ran.)
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
  return wrong != 0;
}
