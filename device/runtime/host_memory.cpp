// Host memory the device reads: hipHostMalloc (pinned) and hipHostRegister
// (registered) ranges, and hipMemGetInfo.
//
// Every simulated device reads host memory as it is, so pinning and
// registering only record the range: copies and memsets accept it as device
// memory, hipHostGetDevicePointer answers the same address, and
// hipPointerGetAttributes describes it as host memory.
#include <unistd.h>

#include <cstdlib>
#include <map>

#include "internal.h"

namespace gpusym {

namespace {

struct HostRange {
  size_t size;
  unsigned flags;    // as given to hipHostMalloc or hipHostRegister
  bool registered;   // by hipHostRegister, else allocated by hipHostMalloc
};

struct HostMemory {
  std::mutex mutex;
  std::map<uintptr_t, HostRange> ranges;  // by start
};

HostMemory &host_memory() {
  static auto *instance = new HostMemory;  // never destroyed: kernels may run until exit
  return *instance;
}

size_t page_size() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }

// With the mutex held: the range holding `address`, or end().
std::map<uintptr_t, HostRange>::iterator holder(HostMemory &h, uintptr_t address) {
  auto after = h.ranges.upper_bound(address);
  if (after == h.ranges.begin()) return h.ranges.end();
  auto candidate = std::prev(after);
  return address - candidate->first < candidate->second.size ? candidate : h.ranges.end();
}

}  // namespace

bool is_host_mapped_range(const void *pointer, size_t size) {
  HostMemory &h = host_memory();
  uintptr_t start = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard<std::mutex> lock(h.mutex);
  auto found = holder(h, start);
  return found != h.ranges.end() && start - found->first + size <= found->second.size;
}

bool find_host_mapped(const void *pointer, void **start, unsigned *flags, bool *registered) {
  HostMemory &h = host_memory();
  std::lock_guard<std::mutex> lock(h.mutex);
  auto found = holder(h, reinterpret_cast<uintptr_t>(pointer));
  if (found == h.ranges.end()) return false;
  *start = reinterpret_cast<void *>(found->first);
  *flags = found->second.flags;
  *registered = found->second.registered;
  return true;
}

}  // namespace gpusym

using namespace gpusym;

extern "C" {

hipError_t hipHostMalloc(void **ptr, size_t size, unsigned int flags) {
  constexpr unsigned kKnown = hipHostMallocPortable | hipHostMallocMapped | hipHostMallocWriteCombined |
                              hipHostMallocNumaUser | hipHostMallocCoherent | hipHostMallocNonCoherent;
  if (!ptr) return record(hipErrorInvalidValue);
  *ptr = nullptr;
  if ((flags & ~kKnown) || ((flags & hipHostMallocCoherent) && (flags & hipHostMallocNonCoherent)))
    return record(hipErrorInvalidValue);
  if (size == 0) return hipSuccess;
  size_t page = page_size();
  if (size > SIZE_MAX - page) return record(hipErrorOutOfMemory);
  void *memory = aligned_alloc(page, (size + page - 1) / page * page);
  if (!memory) return record(hipErrorOutOfMemory);
  HostMemory &h = host_memory();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.ranges[reinterpret_cast<uintptr_t>(memory)] = {size, flags, false};
  *ptr = memory;
  return hipSuccess;
}

hipError_t hipHostAlloc(void **ptr, size_t size, unsigned int flags) { return hipHostMalloc(ptr, size, flags); }
hipError_t hipExtHostAlloc(void **ptr, size_t size, unsigned int flags) { return hipHostMalloc(ptr, size, flags); }
hipError_t hipMallocHost(void **ptr, size_t size) { return hipHostMalloc(ptr, size, hipHostMallocDefault); }
hipError_t hipMemAllocHost(void **ptr, size_t size) { return hipHostMalloc(ptr, size, hipHostMallocDefault); }

// As on a GPU, freeing waits for the work that may still use the memory.
hipError_t hipHostFree(void *ptr) {
  if (!ptr) return hipSuccess;
  synchronize_all();
  HostMemory &h = host_memory();
  std::lock_guard<std::mutex> lock(h.mutex);
  auto found = h.ranges.find(reinterpret_cast<uintptr_t>(ptr));
  if (found == h.ranges.end() || found->second.registered) return record(hipErrorInvalidValue);
  h.ranges.erase(found);
  free(ptr);
  return hipSuccess;
}

hipError_t hipFreeHost(void *ptr) { return hipHostFree(ptr); }

hipError_t hipHostRegister(void *ptr, size_t size, unsigned int flags) {
  constexpr unsigned kKnown = hipHostRegisterPortable | hipHostRegisterMapped | hipHostRegisterIoMemory |
                              hipHostRegisterReadOnly;
  if (!ptr || size == 0 || (flags & ~kKnown)) return record(hipErrorInvalidValue);
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  if (size > UINTPTR_MAX - start) return record(hipErrorInvalidValue);
  HostMemory &h = host_memory();
  std::lock_guard<std::mutex> lock(h.mutex);
  auto next = h.ranges.lower_bound(start);
  bool overlaps = (next != h.ranges.end() && next->first < start + size) || holder(h, start) != h.ranges.end();
  if (overlaps) return record(hipErrorHostMemoryAlreadyRegistered);
  h.ranges[start] = {size, flags, true};
  return hipSuccess;
}

hipError_t hipHostUnregister(void *ptr) {
  if (!ptr) return record(hipErrorInvalidValue);
  synchronize_all();
  HostMemory &h = host_memory();
  std::lock_guard<std::mutex> lock(h.mutex);
  auto found = h.ranges.find(reinterpret_cast<uintptr_t>(ptr));
  if (found == h.ranges.end() || !found->second.registered) return record(hipErrorHostMemoryNotRegistered);
  h.ranges.erase(found);
  return hipSuccess;
}

// The device sees host memory at its own address.
hipError_t hipHostGetDevicePointer(void **device_ptr, void *host_ptr, unsigned int flags) {
  if (!device_ptr || !host_ptr || flags != 0) return record(hipErrorInvalidValue);
  if (!is_host_mapped_range(host_ptr, 1)) return record(hipErrorInvalidValue);
  *device_ptr = host_ptr;
  return hipSuccess;
}

hipError_t hipHostGetFlags(unsigned int *flags, void *host_ptr) {
  if (!flags || !host_ptr) return record(hipErrorInvalidValue);
  void *start;
  bool registered;
  if (!find_host_mapped(host_ptr, &start, flags, &registered)) return record(hipErrorInvalidValue);
  return hipSuccess;
}

// Every device is the host's memory: its size, and what the system has free.
hipError_t hipMemGetInfo(size_t *free_bytes, size_t *total_bytes) {
  if (!free_bytes || !total_bytes) return record(hipErrorInvalidValue);
  size_t page = page_size();
  *total_bytes = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * page;
  *free_bytes = static_cast<size_t>(sysconf(_SC_AVPHYS_PAGES)) * page;
  return hipSuccess;
}

}  // extern "C"
