// __smid() in device code (hip/gpusym_detail/amd_device_functions.h): the
// compute unit running the block.  The workers are the device's compute
// units (multiProcessorCount of them) and a block runs wholly on one: each
// thread that runs lanes is numbered at its first call, modulo that count.
#include <atomic>

#include "internal.h"

namespace {

unsigned compute_units() {
  static const unsigned count = [] {
    int value = 1;
    hipDeviceGetAttribute(&value, hipDeviceAttributeMultiprocessorCount, 0);
    return static_cast<unsigned>(value < 1 ? 1 : value);
  }();
  return count;
}

}  // namespace

extern "C" unsigned int __gpusym_smid() {
  static std::atomic<unsigned> threads{0};
  thread_local const unsigned number = threads.fetch_add(1) % compute_units();
  return number;
}
