// What a kernel and the host see of the wavefront's size: warpSize,
// __AMDGCN_WAVEFRONT_SIZE, __lane_id(), a full wavefront's shuffle sum and
// ballot, hipDeviceProp_t::warpSize and hipDeviceAttributeWarpSize.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void wave_facts(int* out) {
  int t = threadIdx.x;
  int sum = t;
  for (int offset = warpSize / 2; offset > 0; offset /= 2) sum += __shfl_down(sum, offset);
  unsigned long long ballot = __ballot(1);
  if (t == 40) {
    out[0] = warpSize;
    out[1] = __AMDGCN_WAVEFRONT_SIZE;
    out[2] = __lane_id();
  }
  if (t == 0) {
    out[3] = sum;  // the sum of the first wavefront's thread indices
    out[4] = __popcll(ballot);
  }
}

int main() {
  int* out = nullptr;
  if (hipMallocManaged(&out, 5 * sizeof(int)) != hipSuccess) return 2;
  hipLaunchKernelGGL(wave_facts, 1, 128, 0, 0, out);
  if (hipDeviceSynchronize() != hipSuccess) return 2;
  hipDeviceProp_t prop;
  int attribute = 0;
  hipGetDeviceProperties(&prop, 0);
  hipDeviceGetAttribute(&attribute, hipDeviceAttributeWarpSize, 0);
  std::printf("warpSize %d __AMDGCN_WAVEFRONT_SIZE %d lane of thread 40 %d first wavefront's sum %d ballot lanes %d "
              "prop %d attribute %d\n", out[0], out[1], out[2], out[3], out[4], prop.warpSize, attribute);
  return 0;
}
