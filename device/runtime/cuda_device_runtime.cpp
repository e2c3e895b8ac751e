// CUDA's device runtime (dynamic parallelism): the launch a kernel's thread
// makes (gpusym-nvcc turns a <<<>>> in device code into
// __gpusym_cdp::configure, cuda_device_runtime_api.h, which calls
// __gpusym_device_launch), and the runtime API calls of device code that
// need the runtime.  A device launch's failure is its thread's last error,
// which cudaGetLastError in device code reads: one a worker, as the fast
// form runs a block's threads on one.
#include <cstdint>

#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

namespace {

thread_local cudaError_t device_last_error = cudaSuccess;

}  // namespace

extern "C" {

// A launch of `kernel`, its arguments' addresses in `args`: in device code
// the kernel's debuggable form; in host code (the host side of a __host__
// __device__ function) its host stub, launched as the host launches.
int __gpusym_device_launch(const void *kernel, uint32_t grid_x, uint32_t grid_y, uint32_t grid_z, uint32_t block_x,
                           uint32_t block_y, uint32_t block_z, size_t shared_mem, void *stream, void **args) {
  LaunchConfig config{dim3(grid_x, grid_y, grid_z), dim3(block_x, block_y, block_z), shared_mem,
                      static_cast<hipStream_t>(stream)};
  if (!in_device_code()) return record(checked_launch(kernel, config, args), "cudaLaunchKernel");
  hipError_t error = checked_launch_from_device(kernel, config, args);
  if (error != hipSuccess) device_last_error = static_cast<cudaError_t>(error);
  return error;
}

// Device code's cudaMemcpyAsync and cudaMemsetAsync: after the thread's
// launches before them.
int __gpusym_device_copy(void *dst, const void *src, size_t count, void *stream) {
  if (!in_device_code())
    return record(hipMemcpyAsync(dst, src, count, hipMemcpyDefault, static_cast<hipStream_t>(stream)),
                  "cudaMemcpyAsync");
  if (count) transfer_child(Transfer{.dst = dst, .src = src, .width = count});
  return cudaSuccess;
}

int __gpusym_device_set(void *dst, int value, size_t count, void *stream) {
  if (!in_device_code())
    return record(hipMemsetAsync(dst, value, count, static_cast<hipStream_t>(stream)), "cudaMemsetAsync");
  if (count) transfer_child(Transfer{.dst = dst, .width = count, .value = static_cast<uint8_t>(value)});
  return cudaSuccess;
}

// Device code's cudaGetLastError (`clear`) and cudaPeekAtLastError.
int __gpusym_device_last_error(int clear) {
  cudaError_t error = device_last_error;
  if (clear) device_last_error = cudaSuccess;
  return error;
}

const char *__gpusym_device_error_string(int error) { return cudaGetErrorString(static_cast<cudaError_t>(error)); }

const char *__gpusym_device_error_name(int error) { return cudaGetErrorName(static_cast<cudaError_t>(error)); }

}  // extern "C"
