// The occupancy calls.  A worker thread is a multiprocessor and runs one
// block at a time (hipDeviceProp_t.maxBlocksPerMultiProcessor is 1), so a
// block that can launch at all occupies one per multiprocessor.
#include <algorithm>

#include "internal.h"

using namespace gpusym;

namespace {

constexpr int kMaxBlockThreads = 1024;

hipError_t active_blocks(int *blocks, const void *kernel, int block_size, size_t shared, unsigned flags) {
  if (!blocks || block_size <= 0 || flags > hipOccupancyDisableCachingOverride) return hipErrorInvalidValue;
  if (!kernel || !find_kernel(kernel)) return hipErrorInvalidDeviceFunction;
  *blocks = block_size <= kMaxBlockThreads && shared <= kMaxDynamicShared ? 1 : 0;
  return hipSuccess;
}

// The largest block (up to `limit`, when given) and enough blocks to fill every multiprocessor.
hipError_t potential_block_size(int *grid_size, int *block_size, const void *kernel, size_t shared, int limit,
                                unsigned flags) {
  if (!grid_size || !block_size || limit < 0 || flags > hipOccupancyDisableCachingOverride)
    return hipErrorInvalidValue;
  if (!kernel || !find_kernel(kernel)) return hipErrorInvalidDeviceFunction;
  if (shared > kMaxDynamicShared) return hipErrorInvalidValue;
  int multiprocessors = 1;
  if (hipError_t error = hipDeviceGetAttribute(&multiprocessors, hipDeviceAttributeMultiprocessorCount,
                                               current_device()))
    return error;
  *block_size = limit ? std::min(limit, kMaxBlockThreads) : kMaxBlockThreads;
  *grid_size = multiprocessors;
  return hipSuccess;
}

}  // namespace

extern "C" {

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, const void *f, int block_size, size_t shared) {
  return record(active_blocks(blocks, f, block_size, shared, hipOccupancyDefault));
}

hipError_t hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, const void *f, int block_size,
                                                                 size_t shared, unsigned int flags) {
  return record(active_blocks(blocks, f, block_size, shared, flags));
}

hipError_t hipOccupancyMaxPotentialBlockSize(int *grid_size, int *block_size, const void *f, size_t shared,
                                             int limit) {
  return record(potential_block_size(grid_size, block_size, f, shared, limit, hipOccupancyDefault));
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(int *blocks, hipFunction_t f, int block_size,
                                                              size_t shared) {
  return record(active_blocks(blocks, f, block_size, shared, hipOccupancyDefault));
}

hipError_t hipModuleOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *blocks, hipFunction_t f, int block_size,
                                                                       size_t shared, unsigned int flags) {
  return record(active_blocks(blocks, f, block_size, shared, flags));
}

hipError_t hipModuleOccupancyMaxPotentialBlockSize(int *grid_size, int *block_size, hipFunction_t f, size_t shared,
                                                   int limit) {
  return record(potential_block_size(grid_size, block_size, f, shared, limit, hipOccupancyDefault));
}

hipError_t hipModuleOccupancyMaxPotentialBlockSizeWithFlags(int *grid_size, int *block_size, hipFunction_t f,
                                                            size_t shared, int limit, unsigned int flags) {
  return record(potential_block_size(grid_size, block_size, f, shared, limit, flags));
}

}  // extern "C"
