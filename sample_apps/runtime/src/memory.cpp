// Device memory: allocations, copies, memset, device-variable copies.
//
// Device memory is host memory the runtime tracks, so that a copy or a free
// of something that is not a live allocation gets HIP's error code.
#include <cstdlib>
#include <cstring>
#include <map>

#include "internal.h"

namespace gpusym {

namespace {

constexpr size_t kAlignment = 256;  // as hipMalloc guarantees

std::mutex &allocations_mutex() {
  static std::mutex *mutex = new std::mutex;
  return *mutex;
}

// start address -> size of every live allocation
std::map<uintptr_t, size_t> &allocations() {
  static auto *table = new std::map<uintptr_t, size_t>;
  return *table;
}

}  // namespace

bool is_device_range(const void *pointer, size_t size) {
  uintptr_t start = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard<std::mutex> lock(allocations_mutex());
  auto after = allocations().upper_bound(start);
  if (after == allocations().begin()) return false;
  auto containing = std::prev(after);
  return start - containing->first + size <= containing->second;
}

}  // namespace gpusym

using namespace gpusym;

namespace {

// Whether a copy of `size` bytes of `kind` between dst and src is valid.
hipError_t check_copy(void *dst, const void *src, size_t size, hipMemcpyKind kind) {
  if (size == 0) return hipSuccess;
  if (!dst || !src) return hipErrorInvalidValue;
  bool dst_device = is_device_range(dst, size);
  bool src_device = is_device_range(src, size);
  switch (kind) {
    case hipMemcpyHostToHost: return hipSuccess;
    case hipMemcpyHostToDevice: return dst_device ? hipSuccess : hipErrorInvalidValue;
    case hipMemcpyDeviceToHost: return src_device ? hipSuccess : hipErrorInvalidValue;
    case hipMemcpyDeviceToDevice:
      return dst_device && src_device ? hipSuccess : hipErrorInvalidValue;
    case hipMemcpyDefault: return hipSuccess;  // unified addressing: any valid pair
  }
  return hipErrorInvalidMemcpyDirection;
}

}  // namespace

extern "C" {

hipError_t hipMalloc(void **ptr, size_t size) {
  if (!ptr) return record(hipErrorInvalidValue);
  *ptr = nullptr;
  if (size == 0) return hipSuccess;
  void *memory = aligned_alloc(kAlignment, (size + kAlignment - 1) / kAlignment * kAlignment);
  if (!memory) return record(hipErrorOutOfMemory);
  std::lock_guard<std::mutex> lock(allocations_mutex());
  allocations()[reinterpret_cast<uintptr_t>(memory)] = size;
  own_allocation(memory, size);  // by the current device
  *ptr = memory;
  return hipSuccess;
}

hipError_t hipFree(void *ptr) {
  if (!ptr) return hipSuccess;
  synchronize_owner(ptr);  // as on a GPU, freeing waits for the work that may use it
  {
    std::lock_guard<std::mutex> lock(allocations_mutex());
    if (!allocations().erase(reinterpret_cast<uintptr_t>(ptr))) return record(hipErrorInvalidValue);
  }
  disown_allocation(ptr);
  free(ptr);
  return hipSuccess;
}

hipError_t hipMemcpy(void *dst, const void *src, size_t size, hipMemcpyKind kind) {
  if (hipError_t error = check_copy(dst, src, size, kind)) return record(error);
  synchronize();
  if (size) memmove(dst, src, size);
  return hipSuccess;
}

hipError_t hipMemset(void *dst, int value, size_t size) {
  if (size && !is_device_range(dst, size)) return record(hipErrorInvalidValue);
  synchronize();
  memset(dst, value, size);
  return hipSuccess;
}

hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t size, size_t offset,
                             hipMemcpyKind kind) {
  Variable *variable = find_variable(symbol);
  if (!variable || !variable->device_address) return record(hipErrorInvalidSymbol);
  if (offset + size > variable->size || !src) return record(hipErrorInvalidValue);
  if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return record(hipErrorInvalidMemcpyDirection);
  synchronize();
  memcpy(static_cast<char *>(variable->device_address) + offset, src, size);
  return hipSuccess;
}

hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t size, size_t offset,
                               hipMemcpyKind kind) {
  Variable *variable = find_variable(symbol);
  if (!variable || !variable->device_address) return record(hipErrorInvalidSymbol);
  if (offset + size > variable->size || !dst) return record(hipErrorInvalidValue);
  if (kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return record(hipErrorInvalidMemcpyDirection);
  synchronize();
  memcpy(dst, static_cast<const char *>(variable->device_address) + offset, size);
  return hipSuccess;
}

}  // extern "C"
