// Kernel launches: the <<<>>> call-configuration ABI, hipLaunchKernel and
// its variants, and the launch API before it (hipConfigureCall,
// hipSetupArgument, hipLaunchByPtr).
#include <cstring>

#include "internal.h"

namespace {

// A configuration pushed by <<<>>> (and popped by the kernel's stub) or by
// hipConfigureCall, with the argument buffer hipSetupArgument fills.
struct Pushed {
  gpusym::LaunchConfig config;
  std::vector<uint8_t> arguments;
};
// Per thread, the last pushed at the back.
thread_local std::vector<Pushed> pushed_configurations;

constexpr uint32_t kMaxBlockThreads = 1024;

hipError_t check_configuration(dim3 grid, dim3 block, size_t shared_mem) {
  if (!grid.x || !grid.y || !grid.z || !block.x || !block.y || !block.z)
    return hipErrorInvalidConfiguration;
  if (block.x > kMaxBlockThreads || block.y > kMaxBlockThreads || block.z > kMaxBlockThreads ||
      uint64_t{block.x} * block.y * block.z > kMaxBlockThreads)
    return hipErrorInvalidConfiguration;
  if (grid.y > 65536 || grid.z > 65536 || grid.x > 0x7fffffffu) return hipErrorInvalidConfiguration;
  if (shared_mem > gpusym::kMaxDynamicShared) return hipErrorInvalidValue;
  return hipSuccess;
}

}  // namespace

namespace gpusym {

hipError_t checked_launch(const void *handle, const LaunchConfig &config, void **args) {
  gpusym_launch_state = {handle, {config.grid.x, config.grid.y, config.grid.z},
                         {config.block.x, config.block.y, config.block.z}, config.shared_mem, config.stream,
                         gpusym_launch_state.dispatch_id};
  // A CUDA program's device whose context has failed runs nothing more.
  if (hipError_t failure = device_failure(current_device())) return failure;
  if (hipError_t error = check_configuration(config.grid, config.block, config.shared_mem)) return error;
  Kernel *kernel = find_kernel(handle);
  if (!kernel) return hipErrorInvalidDeviceFunction;
  if (!kernel->entry) {
    kernel_signature(*kernel);  // says once which kernel and why
    return hipErrorNoBinaryForGpu;
  }
  return launch(*kernel, config, args);
}

hipError_t checked_launch_from_device(const void *entry, const LaunchConfig &config, void **args) {
  Kernel *kernel = find_kernel_by_entry(entry);
  if (!kernel) return hipErrorInvalidDeviceFunction;
  if (hipError_t error = check_configuration(config.grid, config.block, config.shared_mem)) return error;
  return launch_child(*kernel, config, args);
}

}  // namespace gpusym

using namespace gpusym;

extern "C" {

__thread struct gpusym_launch_state gpusym_launch_state;

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared_mem, hipStream_t stream) {
  pushed_configurations.push_back({{grid, block, shared_mem, stream}, {}});
  gpusym_launch_state = {nullptr, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared_mem, stream,
                         gpusym_launch_state.dispatch_id};
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared_mem,
                                     hipStream_t *stream) {
  if (pushed_configurations.empty()) return record(hipErrorMissingConfiguration);
  const LaunchConfig &config = pushed_configurations.back().config;
  *grid = config.grid;
  *block = config.block;
  *shared_mem = config.shared_mem;
  *stream = config.stream;
  pushed_configurations.pop_back();
  return hipSuccess;
}

hipError_t hipLaunchKernel(const void *function_address, dim3 grid, dim3 block, void **args,
                           size_t shared_mem, hipStream_t stream) {
  return record(checked_launch(function_address, {grid, block, shared_mem, stream}, args));
}

// Every block at once, on a worker each, so that grid_group::sync() can
// wait for all of them; a grid larger than the workers is refused.
hipError_t hipLaunchCooperativeKernel(const void *function_address, dim3 grid, dim3 block, void **args,
                                      unsigned int shared_mem, hipStream_t stream) {
  return record(checked_launch(function_address, {grid, block, shared_mem, stream, true}, args));
}

// hipLaunchKernel between two event records on its stream (either may be
// null).  hipExtAnyOrderLaunch changes nothing: a stream's work runs in order.
hipError_t hipExtLaunchKernel(const void *function_address, dim3 grid, dim3 block, void **args, size_t shared_mem,
                              hipStream_t stream, hipEvent_t start, hipEvent_t stop, int) {
  if (start)
    if (hipError_t error = hipEventRecord(start, stream)) return error;  // recorded by hipEventRecord
  if (hipError_t error = checked_launch(function_address, {grid, block, shared_mem, stream}, args))
    return record(error);
  return stop ? hipEventRecord(stop, stream) : hipSuccess;
}

// The launch API before <<<>>> pushed its configuration: hipConfigureCall
// pushes one, hipSetupArgument copies each argument into its buffer at the
// offset the caller chose (each at its alignment, as a kernel's argument
// segment), and hipLaunchByPtr launches with the last pushed, as
// hipModuleLaunchKernel launches with a buffer.
hipError_t hipConfigureCall(dim3 grid, dim3 block, size_t shared_mem, hipStream_t stream) {
  return __hipPushCallConfiguration(grid, block, shared_mem, stream);
}

hipError_t hipSetupArgument(const void *arg, size_t size, size_t offset) {
  if (pushed_configurations.empty()) return record(hipErrorMissingConfiguration);
  if (!arg && size) return record(hipErrorInvalidValue);
  std::vector<uint8_t> &buffer = pushed_configurations.back().arguments;
  if (buffer.size() < offset + size) buffer.resize(offset + size);
  if (size) memcpy(buffer.data() + offset, arg, size);
  return hipSuccess;
}

hipError_t hipLaunchByPtr(const void *function_address) {
  if (pushed_configurations.empty()) return record(hipErrorMissingConfiguration);
  Pushed call = std::move(pushed_configurations.back());
  pushed_configurations.pop_back();
  size_t size = call.arguments.size();
  void *extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, call.arguments.data(), HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   HIP_LAUNCH_PARAM_END};
  return record(checked_launch_from_buffer(function_address, call.config, extra));
}

}  // extern "C"
