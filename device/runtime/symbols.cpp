// Device variables and kernels named by their host handles: the symbol
// copies, addresses and sizes, and kernel attributes.
#include <cstring>
#include <map>

#include "internal.h"

using namespace gpusym;

namespace {

// What hipFuncSetAttribute set on a kernel.
struct KernelSettings {
  int max_dynamic_shared = static_cast<int>(kMaxDynamicShared);
  int carveout = -1;  // no preference
};

std::mutex settings_mutex;
std::map<const Kernel *, KernelSettings> kernel_settings;

// The device address of `size` bytes at `offset` in the variable `symbol`.
hipError_t symbol_range(const void *symbol, size_t size, size_t offset, char **address) {
  Variable *variable = find_variable(symbol);
  if (!variable || !variable->device_address) return hipErrorInvalidSymbol;
  if (offset > variable->size || size > variable->size - offset) return hipErrorInvalidValue;
  *address = static_cast<char *>(variable->device_address) + offset;
  return hipSuccess;
}

// A copy to or from a symbol: queued in `stream`, or done once the device's
// work before it has.
hipError_t copy(void *dst, const void *src, size_t size, bool async, hipStream_t stream) {
  Transfer t;
  t.dst = dst;
  t.src = src;
  t.width = size;
  if (async) return size ? queue_transfer(t, stream) : hipSuccess;
  synchronize();
  run_transfer(t);
  return hipSuccess;
}

hipError_t to_symbol(const void *symbol, const void *src, size_t size, size_t offset, hipMemcpyKind kind,
                     bool async, hipStream_t stream) {
  char *address;
  if (hipError_t error = symbol_range(symbol, size, offset, &address)) return error;
  if (!src) return hipErrorInvalidValue;
  if (kind != hipMemcpyHostToDevice && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return hipErrorInvalidMemcpyDirection;
  return copy(address, src, size, async, stream);
}

hipError_t from_symbol(void *dst, const void *symbol, size_t size, size_t offset, hipMemcpyKind kind, bool async,
                       hipStream_t stream) {
  char *address;
  if (hipError_t error = symbol_range(symbol, size, offset, &address)) return error;
  if (!dst) return hipErrorInvalidValue;
  if (kind != hipMemcpyDeviceToHost && kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault)
    return hipErrorInvalidMemcpyDirection;
  return copy(dst, address, size, async, stream);
}

// The kernel `func` names, or null.
Kernel *kernel_of(const void *func) { return func ? find_kernel(func) : nullptr; }

}  // namespace

extern "C" {

hipError_t hipMemcpyToSymbol(const void *symbol, const void *src, size_t size, size_t offset, hipMemcpyKind kind) {
  return record(to_symbol(symbol, src, size, offset, kind, false, nullptr));
}

hipError_t hipMemcpyFromSymbol(void *dst, const void *symbol, size_t size, size_t offset, hipMemcpyKind kind) {
  return record(from_symbol(dst, symbol, size, offset, kind, false, nullptr));
}

hipError_t hipMemcpyToSymbolAsync(const void *symbol, const void *src, size_t size, size_t offset,
                                  hipMemcpyKind kind, hipStream_t stream) {
  return record(to_symbol(symbol, src, size, offset, kind, true, stream));
}

hipError_t hipMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t size, size_t offset, hipMemcpyKind kind,
                                    hipStream_t stream) {
  return record(from_symbol(dst, symbol, size, offset, kind, true, stream));
}

hipError_t hipGetSymbolAddress(void **address, const void *symbol) {
  if (!address) return record(hipErrorInvalidValue);
  char *start;
  if (hipError_t error = symbol_range(symbol, 0, 0, &start)) return record(error);
  *address = start;
  return hipSuccess;
}

hipError_t hipGetSymbolSize(size_t *size, const void *symbol) {
  if (!size) return record(hipErrorInvalidValue);
  Variable *variable = find_variable(symbol);
  if (!variable || !variable->device_address) return record(hipErrorInvalidSymbol);
  *size = variable->size;
  return hipSuccess;
}

// Registers, and the static __shared__ size, are not known: the simulated
// code object compiles a kernel as ordinary x86-64 code and __shared__
// variables as thread-local storage.  They are answered as 0.
hipError_t hipFuncGetAttributes(hipFuncAttributes *attr, const void *func) {
  if (!attr) return record(hipErrorInvalidValue);
  Kernel *kernel = kernel_of(func);
  if (!kernel) return record(hipErrorInvalidDeviceFunction);
  std::lock_guard<std::mutex> lock(settings_mutex);
  const KernelSettings &settings = kernel_settings[kernel];
  memset(attr, 0, sizeof *attr);
  attr->maxThreadsPerBlock = 1024;
  attr->maxDynamicSharedSizeBytes = settings.max_dynamic_shared;
  attr->preferredShmemCarveout = settings.carveout;
  attr->binaryVersion = attr->ptxVersion = 90;  // gfx90a's 9.0
  return hipSuccess;
}

hipError_t hipFuncSetAttribute(const void *func, hipFuncAttribute attr, int value) {
  Kernel *kernel = kernel_of(func);
  if (!kernel) return record(hipErrorInvalidDeviceFunction);
  std::lock_guard<std::mutex> lock(settings_mutex);
  KernelSettings &settings = kernel_settings[kernel];
  if (attr == hipFuncAttributeMaxDynamicSharedMemorySize && value >= 0 &&
      static_cast<size_t>(value) <= kMaxDynamicShared)
    settings.max_dynamic_shared = value;
  else if (attr == hipFuncAttributePreferredSharedMemoryCarveout && value >= -1 && value <= 100)
    settings.carveout = value;
  else
    return record(hipErrorInvalidValue);
  return hipSuccess;
}

// Preferences a CPU has no use for: checked, then ignored.
hipError_t hipFuncSetCacheConfig(const void *func, hipFuncCache_t config) {
  if (!kernel_of(func)) return record(hipErrorInvalidDeviceFunction);
  if (config < hipFuncCachePreferNone || config > hipFuncCachePreferEqual) return record(hipErrorInvalidValue);
  return hipSuccess;
}

hipError_t hipFuncSetSharedMemConfig(const void *func, hipSharedMemConfig config) {
  if (!kernel_of(func)) return record(hipErrorInvalidDeviceFunction);
  if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte)
    return record(hipErrorInvalidValue);
  return hipSuccess;
}

}  // extern "C"
