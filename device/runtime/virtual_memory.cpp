// Virtual memory management: physical allocations (hipMemCreate), address
// reservations (hipMemAddressReserve) and the mappings of the one at the
// other (hipMemMap).
//
// A physical allocation is a memory file of its size; a reservation, a span
// of the range hipMalloc allocates from (memory.cpp), inaccessible.
// hipMemMap maps the file's pages at addresses of a reservation (shared and
// fixed), so that mappings of one allocation alias: what is written through
// one is read through the others.  A mapping is inaccessible until
// hipMemSetAccess gives devices read or read and write access (every device
// reads the host's memory: the pages allow the most any device is given);
// while accessible it is a live allocation to the runtime, made by hipMemMap
// (cuMemMap in the driver API), which copies, pointer queries and the checks
// know, initcheck counting it written, and mappings that follow each other
// with no gap are used as one range.  hipMemUnmap, once the devices' work is
// done, puts the reservation's inaccessible pages back, and a physical
// allocation goes when it is released and no longer mapped.  Sizes, offsets
// and addresses are multiples of the granularity, 2 MiB as on NVIDIA's GPUs.
// Sharing allocations with other processes answers hipErrorNotSupported
// (unsupported.cpp).
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "internal.h"

using namespace gpusym;

struct ihipMemGenericAllocationHandle {
  int fd;
  size_t size;
  hipMemAllocationProp prop;
  unsigned handles = 1;  // hipMemCreate's and hipMemRetainAllocationHandle's, each ended by hipMemRelease
  unsigned mappings = 0;
};

namespace {

constexpr size_t kGranularity = size_t{2} << 20;

struct Mapping {
  size_t size;
  hipMemGenericAllocationHandle_t handle;
  std::vector<unsigned long long> access;  // hipMemAccessFlags, by device
  bool accessible;                         // a live allocation now
  gpusym_allocation_made_by made_by;
};

struct VirtualMemory {
  std::mutex mutex;
  std::map<uintptr_t, size_t> reservations;                      // start -> size
  std::map<uintptr_t, Mapping> mappings;                         // start -> mapping
  std::unordered_set<hipMemGenericAllocationHandle_t> handles;  // the physical allocations a handle names
};

VirtualMemory &virtual_memory() {
  static auto *instance = new VirtualMemory;  // never destroyed: kernels may use mappings until exit
  return *instance;
}

bool valid_location(const hipMemLocation &location) {
  return location.type == hipMemLocationTypeDevice && valid_device(location.id);
}

hipError_t check_prop(const hipMemAllocationProp *prop) {
  if (!prop || prop->type != hipMemAllocationTypePinned) return hipErrorInvalidValue;
  return valid_location(prop->location) ? hipSuccess : hipErrorInvalidDevice;
}

bool aligned(uintptr_t value) { return value % kGranularity == 0; }

// With the lock held: a physical allocation neither named nor mapped goes.
void drop_if_unused(hipMemGenericAllocationHandle_t handle) {
  if (handle->handles || handle->mappings) return;
  close(handle->fd);
  delete handle;
}

// With the lock held: the mappings that cover [start, start + size) exactly,
// one after the other; empty when they do not.
std::vector<std::map<uintptr_t, Mapping>::iterator> mappings_of(VirtualMemory &v, uintptr_t start, size_t size) {
  std::vector<std::map<uintptr_t, Mapping>::iterator> found;
  uintptr_t at = start;
  for (auto it = v.mappings.find(start); it != v.mappings.end() && it->first == at && at < start + size; ++it) {
    found.push_back(it);
    at += it->second.size;
  }
  if (at != start + size || size == 0) found.clear();
  return found;
}

// With the lock held: the mapping holding `address`, or end().
std::map<uintptr_t, Mapping>::iterator mapping_at(VirtualMemory &v, uintptr_t address) {
  auto it = v.mappings.upper_bound(address);
  if (it == v.mappings.begin()) return v.mappings.end();
  --it;
  return address - it->first < it->second.size ? it : v.mappings.end();
}

// With the lock held: the pages of a mapping allow the most its devices are
// given; accessible, it is a live allocation.
void apply_access(uintptr_t start, Mapping &mapping) {
  unsigned long long most = *std::max_element(mapping.access.begin(), mapping.access.end());
  int protection = most == hipMemAccessFlagsProtReadWrite ? PROT_READ | PROT_WRITE
                   : most == hipMemAccessFlagsProtRead    ? PROT_READ
                                                          : PROT_NONE;
  mprotect(reinterpret_cast<void *>(start), mapping.size, protection);
  if (protection != PROT_NONE && !mapping.accessible)
    place_allocation(start, mapping.size, mapping.handle->prop.location.id, Placement::kMapping, mapping.made_by, true);
  else if (protection == PROT_NONE && mapping.accessible)
    remove_allocation(start);
  mapping.accessible = protection != PROT_NONE;
}

// Made by the driver API's cuMemMap when a cu* function (not cuda*) called.
gpusym_allocation_made_by map_call() {
  const char *called = api_call_name("hip");
  bool driver = strncmp(called, "cu", 2) == 0 && strncmp(called, "cuda", 4) != 0;
  return driver ? GPUSYM_MADE_BY_CU_MEM_MAP : GPUSYM_MADE_BY_HIP_MEM_MAP;
}

}  // namespace

extern "C" {

hipError_t hipMemGetAllocationGranularity(size_t *granularity, const hipMemAllocationProp *prop,
                                          hipMemAllocationGranularity_flags option) {
  if (!granularity || (option != hipMemAllocationGranularityMinimum &&
                       option != hipMemAllocationGranularityRecommended))
    return record(hipErrorInvalidValue);
  if (hipError_t error = check_prop(prop)) return record(error);
  *granularity = kGranularity;
  return hipSuccess;
}

// The properties are kept as given, compression too (which changes nothing here).
hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size, const hipMemAllocationProp *prop,
                        unsigned long long flags) {
  if (!handle || flags || size == 0 || !aligned(size)) return record(hipErrorInvalidValue);
  if (hipError_t error = check_prop(prop)) return record(error);
  if (prop->requestedHandleType & ~hipMemHandleTypePosixFileDescriptor) return record(hipErrorInvalidValue);
  int fd = memfd_create("gpusym hipMemCreate", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(size)) != 0) {
    if (fd >= 0) close(fd);
    return record(hipErrorOutOfMemory);
  }
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  *handle = new ihipMemGenericAllocationHandle{fd, size, *prop};
  v.handles.insert(*handle);
  return hipSuccess;
}

// The allocation goes once no mapping of it is left.
hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle) {
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  if (!v.handles.count(handle)) return record(hipErrorInvalidValue);
  if (--handle->handles == 0) v.handles.erase(handle);
  drop_if_unused(handle);
  return hipSuccess;
}

hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp *prop, hipMemGenericAllocationHandle_t handle) {
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  if (!prop || !v.handles.count(handle)) return record(hipErrorInvalidValue);
  *prop = handle->prop;
  return hipSuccess;
}

// A handle of the allocation mapped at `addr`, to be released as hipMemCreate's is.
hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *handle, void *addr) {
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  auto mapping = mapping_at(v, reinterpret_cast<uintptr_t>(addr));
  if (!handle || mapping == v.mappings.end()) return record(hipErrorInvalidValue);
  *handle = mapping->second.handle;
  if ((*handle)->handles++ == 0) v.handles.insert(*handle);
  return hipSuccess;
}

// Any address: the one asked for is a hint, as in HIP and CUDA.
hipError_t hipMemAddressReserve(void **ptr, size_t size, size_t alignment, void *, unsigned long long flags) {
  if (!ptr || flags || size == 0 || !aligned(size) || (alignment & (alignment - 1)))
    return record(hipErrorInvalidValue);
  uintptr_t start = take_span(size, std::max(alignment, kGranularity));
  if (!start) return record(hipErrorOutOfMemory);
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  v.reservations[start] = size;
  *ptr = reinterpret_cast<void *>(start);
  return hipSuccess;
}

// A whole reservation, nothing mapped in it.
hipError_t hipMemAddressFree(void *ptr, size_t size) {
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  auto found = v.reservations.find(start);
  if (found == v.reservations.end() || found->second != size) return record(hipErrorInvalidValue);
  auto mapped = v.mappings.lower_bound(start);
  if (mapped != v.mappings.end() && mapped->first < start + size) return record(hipErrorInvalidValue);
  v.reservations.erase(found);
  give_back_span(start, size);
  return hipSuccess;
}

hipError_t hipMemMap(void *ptr, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
                     unsigned long long flags) {
  uintptr_t start = reinterpret_cast<uintptr_t>(ptr);
  if (flags || size == 0 || !aligned(start) || !aligned(size) || !aligned(offset)) return record(hipErrorInvalidValue);
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  if (!v.handles.count(handle) || offset > handle->size || size > handle->size - offset)
    return record(hipErrorInvalidValue);
  auto reservation = v.reservations.upper_bound(start);
  if (reservation == v.reservations.begin()) return record(hipErrorInvalidValue);
  --reservation;
  if (start - reservation->first > reservation->second || size > reservation->first + reservation->second - start)
    return record(hipErrorInvalidValue);
  auto next = v.mappings.lower_bound(start);
  bool overlaps = (next != v.mappings.end() && next->first < start + size) ||
                  (next != v.mappings.begin() && std::prev(next)->first + std::prev(next)->second.size > start);
  if (overlaps) return record(hipErrorInvalidValue);
  if (mmap(ptr, size, PROT_NONE, MAP_SHARED | MAP_FIXED, handle->fd, static_cast<off_t>(offset)) == MAP_FAILED)
    return record(hipErrorOutOfMemory);
  v.mappings[start] = {size, handle, std::vector<unsigned long long>(device_count(), hipMemAccessFlagsProtNone),
                       false, map_call()};
  handle->mappings++;
  return hipSuccess;
}

// Whole mappings, once the work queued on every device is done.
hipError_t hipMemUnmap(void *ptr, size_t size) {
  synchronize_all();
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  auto mappings = mappings_of(v, reinterpret_cast<uintptr_t>(ptr), size);
  if (mappings.empty()) return record(hipErrorInvalidValue);
  for (auto mapping : mappings) {
    auto [start, unmapped] = *mapping;
    if (unmapped.accessible) remove_allocation(start);
    map_inaccessible_pages(start, unmapped.size);
    v.mappings.erase(mapping);
    unmapped.handle->mappings--;
    drop_if_unused(unmapped.handle);
  }
  return hipSuccess;
}

// For whole mappings: each device named gets the access given.
hipError_t hipMemSetAccess(void *ptr, size_t size, const hipMemAccessDesc *desc, size_t count) {
  if (!desc || count == 0) return record(hipErrorInvalidValue);
  for (size_t i = 0; i < count; i++) {
    if (!valid_location(desc[i].location)) return record(hipErrorInvalidDevice);
    if (desc[i].flags != hipMemAccessFlagsProtNone && desc[i].flags != hipMemAccessFlagsProtRead &&
        desc[i].flags != hipMemAccessFlagsProtReadWrite)
      return record(hipErrorInvalidValue);
  }
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  auto mappings = mappings_of(v, reinterpret_cast<uintptr_t>(ptr), size);
  if (mappings.empty()) return record(hipErrorInvalidValue);
  for (auto mapping : mappings) {
    for (size_t i = 0; i < count; i++) mapping->second.access[desc[i].location.id] = desc[i].flags;
    apply_access(mapping->first, mapping->second);
  }
  return hipSuccess;
}

hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *location, void *ptr) {
  if (!flags || !location) return record(hipErrorInvalidValue);
  if (!valid_location(*location)) return record(hipErrorInvalidDevice);
  VirtualMemory &v = virtual_memory();
  std::lock_guard<std::mutex> lock(v.mutex);
  auto mapping = mapping_at(v, reinterpret_cast<uintptr_t>(ptr));
  if (mapping == v.mappings.end()) return record(hipErrorInvalidValue);
  *flags = mapping->second.access[location->id];
  return hipSuccess;
}

}  // extern "C"
