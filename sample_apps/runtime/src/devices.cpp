// The simulated device and its properties.
#include <unistd.h>

#include <cstring>

#include "internal.h"

namespace {

thread_local int current_device = 0;
constexpr int kDeviceCount = 1;

}  // namespace

using namespace gpusym;

extern "C" {

hipError_t hipGetDeviceCount(int *count) {
  if (!count) return record(hipErrorInvalidValue);
  *count = kDeviceCount;
  return hipSuccess;
}

hipError_t hipGetDevice(int *device) {
  if (!device) return record(hipErrorInvalidValue);
  *device = current_device;
  return hipSuccess;
}

hipError_t hipSetDevice(int device) {
  if (device < 0 || device >= kDeviceCount) return record(hipErrorInvalidDevice);
  current_device = device;
  return hipSuccess;
}

hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device) {
  if (!prop) return record(hipErrorInvalidValue);
  if (device < 0 || device >= kDeviceCount) return record(hipErrorInvalidDevice);
  memset(prop, 0, sizeof *prop);
  snprintf(prop->name, sizeof prop->name, "gpusym simulated device %d", device);
  snprintf(prop->gcnArchName, sizeof prop->gcnArchName, "gpusym");
  prop->totalGlobalMem = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  prop->sharedMemPerBlock = kMaxDynamicShared;
  prop->warpSize = 64;
  prop->maxThreadsPerBlock = 1024;
  prop->maxThreadsDim[0] = prop->maxThreadsDim[1] = prop->maxThreadsDim[2] = 1024;
  prop->maxGridSize[0] = 0x7fffffff;
  prop->maxGridSize[1] = prop->maxGridSize[2] = 65536;
  prop->clockRate = 1000000;
  prop->totalConstMem = 64 * 1024;
  prop->multiProcessorCount = static_cast<int>(sysconf(_SC_NPROCESSORS_ONLN));
  prop->maxThreadsPerMultiProcessor = 1024;
  prop->concurrentKernels = 0;
  prop->canMapHostMemory = 1;
  return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) {
  synchronize();
  return hipSuccess;
}

}  // extern "C"
