// The simulated devices: how many, each host thread's current device, peer
// access, and which device owns each allocation.
#include <map>

#include "internal.h"

extern "C" {
// Per host thread, as in HIP; exported for debuggers (gpusym/debug_interface.h).
// Initial-exec, as __gpusym_lane: read at every launch, written at every block.
__thread __attribute__((tls_model("initial-exec"))) int gpusym_current_device = 0;
}

namespace gpusym {

namespace {

constexpr int kMaxDevices = 64;

struct Device {
  std::string name;
  uint64_t peers_enabled = 0;   // bit p: hipDeviceEnablePeerAccess(p) made while this device was current
};

struct Devices {
  std::mutex mutex;             // peer access and allocations
  std::vector<Device> devices;
  std::vector<gpusym_debug_device> records;
  std::map<uintptr_t, std::pair<size_t, int>> allocations;  // start -> (size, device)
};

Devices &devices() {
  static Devices *instance = [] {
    auto *d = new Devices;   // never destroyed: used until exit
    long count = env_long("GPUSYM_DEVICES", 2);
    if (count < 1 || count > kMaxDevices) {
      warn("ignoring GPUSYM_DEVICES=%ld: not between 1 and %d", count, kMaxDevices);
      count = 2;
    }
    d->devices.resize(count);
    d->records.resize(count);
    for (int i = 0; i < count; i++) {
      d->devices[i].name = "gpusym simulated device " + std::to_string(i);
      d->records[i] = gpusym_debug_device{static_cast<uint32_t>(i), 0, d->devices[i].name.c_str(), 0, 0};
    }
    std::lock_guard<std::mutex> lock(registry_mutex());
    gpusym_debug.devices = d->records.data();
    gpusym_debug.device_count = static_cast<uint32_t>(count);
    return d;
  }();
  return *instance;
}

// The devices are published in the debugger interface when the runtime loads.
[[maybe_unused]] const bool published = (devices(), true);

}  // namespace

int device_count() {
  static const int count = static_cast<int>(devices().devices.size());
  return count;
}

const char *device_name(int device) { return devices().devices[device].name.c_str(); }

int current_device() { return gpusym_current_device; }

void set_current_device(int device) { gpusym_current_device = device; }

void own_allocation(const void *pointer, size_t size) { own_allocation(pointer, size, current_device()); }

void own_allocation(const void *pointer, size_t size, int device) {
  Devices &d = devices();
  std::lock_guard<std::mutex> lock(d.mutex);
  d.allocations[reinterpret_cast<uintptr_t>(pointer)] = {size, device};
  d.records[device].allocation_count++;
  d.records[device].allocated_bytes += size;
}

void disown_allocation(const void *pointer) {
  Devices &d = devices();
  std::lock_guard<std::mutex> lock(d.mutex);
  auto found = d.allocations.find(reinterpret_cast<uintptr_t>(pointer));
  if (found == d.allocations.end()) return;
  auto [size, device] = found->second;
  d.records[device].allocation_count--;
  d.records[device].allocated_bytes -= size;
  d.allocations.erase(found);
}

int allocation_device(const void *pointer) {
  Devices &d = devices();
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  std::lock_guard<std::mutex> lock(d.mutex);
  auto after = d.allocations.upper_bound(address);
  if (after == d.allocations.begin()) return -1;
  auto containing = std::prev(after);
  return address - containing->first < containing->second.first ? containing->second.second : -1;
}

void synchronize_owner(const void *pointer) {
  int device = allocation_device(pointer);
  if (device >= 0) synchronize_device(device);
}

}  // namespace gpusym

using namespace gpusym;

extern "C" {

hipError_t hipGetDeviceCount(int *count) {
  if (!count) return record(hipErrorInvalidValue);
  *count = device_count();
  return hipSuccess;
}

hipError_t hipGetDevice(int *device) {
  if (!device) return record(hipErrorInvalidValue);
  *device = current_device();
  return hipSuccess;
}

hipError_t hipSetDevice(int device) {
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  set_current_device(device);
  return hipSuccess;
}

hipError_t hipDeviceSynchronize(void) {
  synchronize_device(current_device());
  release_pool_memory();
  return hipSuccess;
}

// The current device back to a fresh state, as HIP documents it: its streams
// and events destroyed (no new work can be queued on them), its work done,
// its allocations freed and its peer access disabled.  Registered kernels,
// loaded modules and other devices are left as they are.
hipError_t hipDeviceReset(void) {
  int device = current_device();
  destroy_device_streams(device);
  synchronize_device(device);
  reset_device_pools(device);
  free_device_allocations(device);
  Devices &d = devices();
  std::lock_guard<std::mutex> lock(d.mutex);
  d.devices[device].peers_enabled = 0;
  return hipSuccess;
}

// Peer access.  Every simulated device reads every other's memory (it is all
// the host's), so enabling it changes nothing but what HIP's calls answer.
hipError_t hipDeviceCanAccessPeer(int *can_access, int device, int peer) {
  if (!can_access) return record(hipErrorInvalidValue);
  if (device == peer) {  // HIP answers 0 for a device and itself, whatever the ordinal
    *can_access = 0;
    return hipSuccess;
  }
  if (!valid_device(device) || !valid_device(peer)) return record(hipErrorInvalidDevice);
  *can_access = 1;
  return hipSuccess;
}

hipError_t hipDeviceEnablePeerAccess(int peer, unsigned int flags) {
  if (flags != 0) return record(hipErrorInvalidValue);
  int device = current_device();
  if (peer == device || !valid_device(peer)) return record(hipErrorInvalidDevice);
  Devices &d = devices();
  std::lock_guard<std::mutex> lock(d.mutex);
  uint64_t bit = uint64_t{1} << peer;
  if (d.devices[device].peers_enabled & bit) return record(hipErrorPeerAccessAlreadyEnabled);
  d.devices[device].peers_enabled |= bit;
  return hipSuccess;
}

hipError_t hipDeviceDisablePeerAccess(int peer) {
  int device = current_device();
  if (peer == device || !valid_device(peer)) return record(hipErrorInvalidDevice);
  Devices &d = devices();
  std::lock_guard<std::mutex> lock(d.mutex);
  uint64_t bit = uint64_t{1} << peer;
  if (!(d.devices[device].peers_enabled & bit)) return record(hipErrorPeerAccessNotEnabled);
  d.devices[device].peers_enabled &= ~bit;
  return hipSuccess;
}

hipError_t hipPointerGetAttributes(hipPointerAttribute_t *attributes, const void *ptr) {
  if (!attributes || !ptr) return record(hipErrorInvalidValue);
  void *pointer = const_cast<void *>(ptr), *start;
  unsigned flags;
  bool registered;
  if (find_host_mapped(ptr, &start, &flags, &registered)) {  // host memory the device reads
    *attributes = hipPointerAttribute_t{hipMemoryTypeHost, current_device(), pointer, pointer, 0, flags};
    return hipSuccess;
  }
  int device = allocation_device(ptr);
  if (device < 0) return record(hipErrorInvalidValue);  // no live allocation holds it
  if (is_managed(ptr))
    *attributes = hipPointerAttribute_t{hipMemoryTypeManaged, device, pointer, pointer, 1, hipMemAttachGlobal};
  else
    *attributes = hipPointerAttribute_t{hipMemoryTypeDevice, device, pointer, nullptr, 0, 0};
  return hipSuccess;
}

}  // extern "C"
