// Kernel launches: the <<<>>> call-configuration ABI and hipLaunchKernel.
#include "internal.h"

namespace {

// Configurations pushed by <<<>>> and popped by the kernel's stub, per thread.
thread_local std::vector<gpusym::LaunchConfig> pushed_configurations;

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
  if (hipError_t error = check_configuration(config.grid, config.block, config.shared_mem)) return error;
  Kernel *kernel = find_kernel(handle);
  if (!kernel) return hipErrorInvalidDeviceFunction;
  if (!kernel->entry) {
    kernel_signature(*kernel);  // says once which kernel and why
    return hipErrorNoBinaryForGpu;
  }
  return launch(*kernel, config, args);
}

}  // namespace gpusym

using namespace gpusym;

extern "C" {

__thread struct gpusym_launch_state gpusym_launch_state;

hipError_t __hipPushCallConfiguration(dim3 grid, dim3 block, size_t shared_mem, hipStream_t stream) {
  pushed_configurations.push_back({grid, block, shared_mem, stream});
  gpusym_launch_state = {nullptr, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared_mem, stream,
                         gpusym_launch_state.dispatch_id};
  return hipSuccess;
}

hipError_t __hipPopCallConfiguration(dim3 *grid, dim3 *block, size_t *shared_mem,
                                     hipStream_t *stream) {
  if (pushed_configurations.empty()) return record(hipErrorMissingConfiguration);
  const LaunchConfig &config = pushed_configurations.back();
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

}  // extern "C"
