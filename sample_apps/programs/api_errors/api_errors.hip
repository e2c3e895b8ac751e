// api_errors: calls that HIP refuses, each checked for the error HIP gives;
// the program itself goes on.  Under gpusym capture (or the gdb extension's
// API-error stops) each failing call is reported with its host stack.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void touch(int* data) { data[threadIdx.x] = 1; }

static int wrong = 0;
static int refused = 0;

static void expect(hipError_t got, hipError_t want, const char* what) {
  refused++;
  if (got != want) {
    wrong++;
    fprintf(stderr, "api_errors: %s gave %s, expected %s\n", what, hipGetErrorName(got), hipGetErrorName(want));
  }
}

int main() {
  int count = 0;
  hipGetDeviceCount(&count);

  // A device that does not exist.
  expect(hipSetDevice(count), hipErrorInvalidDevice, "hipSetDevice(past the last device)");

  // A stream of device 1 used while device 0 is current.
  hipStream_t other = nullptr;
  int* data = nullptr;
  hipSetDevice(count > 1 ? 1 : 0);
  hipStreamCreate(&other);
  hipSetDevice(0);
  hipMalloc(&data, 1024 * sizeof(int));
  hipLaunchKernelGGL(touch, dim3(1), dim3(64), 0, other, data);
  expect(count > 1 ? hipGetLastError() : hipErrorInvalidHandle, hipErrorInvalidHandle,
         "a launch on another device's stream");

  // A block of 2048 threads: more than a block may have.
  touch<<<1, 2048>>>(data);
  expect(hipGetLastError(), hipErrorInvalidConfiguration, "a launch of 2048 threads per block");

  // A function that is not a kernel, and a kernel a module does not have.
  expect(hipLaunchKernel(reinterpret_cast<const void*>(&expect), dim3(1), dim3(1), nullptr, 0, nullptr),
         hipErrorInvalidDeviceFunction, "hipLaunchKernel of a host function");
  hipModule_t module = nullptr;
  expect(hipModuleLoad(&module, "no-such-code-object.co"), hipErrorFileNotFound, "hipModuleLoad of a missing file");
  hipFunction_t function = nullptr;
  expect(hipModuleGetFunction(&function, module, "touch"), hipErrorInvalidResourceHandle,
         "hipModuleGetFunction on a module never loaded");

  // A copy to a host pointer that claims to be device memory.
  int host[4];
  expect(hipMemcpy(host, data, sizeof host, hipMemcpyHostToDevice), hipErrorInvalidValue,
         "hipMemcpy host-to-device into host memory");

  // The runtime still works.
  touch<<<1, 64>>>(data);
  expect(hipDeviceSynchronize(), hipSuccess, "a good launch after the failures");
  refused--;
  hipFree(data);
  hipStreamDestroy(other);
  printf("api_errors: %d calls refused with the HIP error expected, %d wrong\n", refused, wrong);
  return wrong == 0 ? 0 : 1;
}
