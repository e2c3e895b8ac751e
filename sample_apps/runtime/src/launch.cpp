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
  gpusym_launch_state = {function_address, {grid.x, grid.y, grid.z}, {block.x, block.y, block.z}, shared_mem,
                         stream, gpusym_launch_state.dispatch_id};
  if (hipError_t error = check_configuration(grid, block, shared_mem)) return record(error);
  Kernel *kernel = find_kernel(function_address);
  if (!kernel) return record(hipErrorInvalidDeviceFunction);
  if (!kernel->entry) return record(hipErrorNoBinaryForGpu);
  return record(launch(*kernel, {grid, block, shared_mem, stream}, args));
}

}  // extern "C"
