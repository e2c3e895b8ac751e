// Host memory the device reads: hipHostMalloc (pinned) and hipHostRegister
// (registered) ranges, and hipMemGetInfo.
//
// Every simulated device reads host memory as it is, so pinning and
// registering only record the range: copies and memsets accept it as device
// memory, hipHostGetDevicePointer answers the same address, and
// hipPointerGetAttributes describes it as host memory.
//
// Pinned memory is pages of its own (mmap); hipHostFree makes them
// inaccessible in place, as hipFree does device memory's, so that a kernel
// reading it faults, and the last kFreedRemembered freed ranges are
// remembered (then unmapped): the fault, or memcheck, names them.
#include <sys/mman.h>
#include <unistd.h>

#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>

#include "internal.h"

namespace gpusym {

namespace {

constexpr size_t kFreedRemembered = 1024;

struct HostRange {
  size_t size;
  unsigned flags;    // as given to hipHostMalloc or hipHostRegister
  bool registered;   // by hipHostRegister, else allocated by hipHostMalloc
  const char *made_by = nullptr;  // the API function the program called (pinned)
  const char *freed_by = nullptr;
};

struct HostMemory {
  std::mutex mutex;
  std::map<uintptr_t, HostRange> ranges;  // by start
  std::map<uintptr_t, HostRange> freed;   // pinned, inaccessible, the last kFreedRemembered
  std::deque<uintptr_t> freed_order;      // oldest first
  std::atomic<size_t> freed_count{0};     // freed.size(), read without the lock
};

HostMemory &host_memory() {
  static auto *instance = new HostMemory;  // never destroyed: kernels may run until exit
  return *instance;
}

size_t page_size() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }
size_t pages_of(size_t size) { return (size + page_size() - 1) / page_size() * page_size(); }

// With the mutex held: the range of `ranges` holding `address`, or end().
std::map<uintptr_t, HostRange>::iterator holder(std::map<uintptr_t, HostRange> &ranges, uintptr_t address) {
  auto after = ranges.upper_bound(address);
  if (after == ranges.begin()) return ranges.end();
  auto candidate = std::prev(after);
  return address - candidate->first < candidate->second.size ? candidate : ranges.end();
}
std::map<uintptr_t, HostRange>::iterator holder(HostMemory &h, uintptr_t address) { return holder(h.ranges, address); }

}  // namespace

bool describe_freed_host_memory(uintptr_t address, char *text, size_t size) {
  HostMemory &h = host_memory();
  if (h.freed_count.load(std::memory_order_acquire) == 0 || !h.mutex.try_lock()) return false;
  auto found = holder(h.freed, address);
  if (found != h.freed.end()) {
    uint64_t offset = address - found->first;
    snprintf(text, size, "%" PRIu64 " %s into a freed %zu-byte allocation of pinned host memory at 0x%" PRIxPTR " (%s, then %s)",
             offset, offset == 1 ? "byte" : "bytes", found->second.size, found->first, found->second.made_by,
             found->second.freed_by);
  }
  h.mutex.unlock();
  return found != h.freed.end();
}

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
  if (size > SIZE_MAX - page_size()) return record(hipErrorOutOfMemory);
  void *memory = mmap(nullptr, pages_of(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) return record(hipErrorOutOfMemory);
  HostMemory &h = host_memory();
  std::lock_guard<std::mutex> lock(h.mutex);
  h.ranges[reinterpret_cast<uintptr_t>(memory)] = {size, flags, false, api_call_name("hipHostMalloc")};
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
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  auto found = h.ranges.find(start);
  if (found == h.ranges.end() || found->second.registered) return record(hipErrorInvalidValue);
  // A fresh inaccessible mapping in its place: the pages go back to the system.
  size_t pages = pages_of(found->second.size);
  if (mmap(ptr, pages, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED) {
    h.ranges.erase(found);
    munmap(ptr, pages);
    return hipSuccess;
  }
  found->second.freed_by = api_call_name("hipHostFree");
  h.freed.insert(h.ranges.extract(found));
  h.freed_order.push_back(start);
  if (h.freed_order.size() > kFreedRemembered) {
    auto oldest = h.freed.find(h.freed_order.front());
    munmap(reinterpret_cast<void *>(oldest->first), pages_of(oldest->second.size));
    h.freed.erase(oldest);
    h.freed_order.pop_front();
  }
  h.freed_count.store(h.freed.size(), std::memory_order_release);
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
