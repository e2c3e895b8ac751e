// What a program asks of a device: its properties and attributes (one source
// for both), versions, names, PCI addresses, and the settings HIP lets a
// program make (flags, limits, cache and shared-memory configuration), plus
// the driver API's device and context handles.
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <string>
#include <thread>

#include "internal.h"

namespace gpusym {

namespace {

// wall_clock64() counts at 100 MHz, as on MI200.
constexpr int kWallClockRateKhz = 100000;
// The compute capability HIP reports for gfx90a.
constexpr int kMajor = 9, kMinor = 0;

struct Settings {
  std::mutex mutex;
  unsigned flags = 0;                         // hipSetDeviceFlags
  hipFuncCache_t cache = hipFuncCachePreferNone;
  hipSharedMemConfig bank = hipSharedMemBankSizeFourByte;
  size_t printf_fifo = 1 << 20, malloc_heap = 8 << 20;
};

Settings &settings(int device) {
  static auto *instance = new std::vector<Settings>(device_count());  // never destroyed
  return (*instance)[device];
}

// One handle per device: its primary context.
char contexts[64];

int context_device(hipCtx_t ctx) {
  auto *address = reinterpret_cast<char *>(ctx);
  return address >= contexts && address < contexts + device_count() ? static_cast<int>(address - contexts) : -1;
}

// ROCm 5's gcnArch of a target id: major * 100 + minor * 10 + stepping, the
// last two digits of the processor's name being hexadecimal (gfx90a 910,
// gfx942 942, gfx1030 1030); 0 for a name of another form (gfx10-3-generic).
int gcn_arch(const std::string &target_id) {
  std::string processor = target_id.substr(0, target_id.find(':'));
  if (processor.size() < 6 || processor.compare(0, 3, "gfx") != 0) return 0;
  std::string major = processor.substr(3, processor.size() - 5);
  if (major.find_first_not_of("0123456789") != std::string::npos) return 0;
  std::string minor = processor.substr(processor.size() - 2, 1), stepping = processor.substr(processor.size() - 1);
  if (!isxdigit(minor[0]) || !isxdigit(stepping[0])) return 0;
  return std::stoi(major) * 100 + std::stoi(minor, nullptr, 16) * 10 + std::stoi(stepping, nullptr, 16);
}

void fill_properties(hipDeviceProp_t &prop, int device) {
  long workers = env_long("GPUSYM_WORKERS", std::thread::hardware_concurrency());
  memset(&prop, 0, sizeof prop);
  snprintf(prop.name, sizeof prop.name, "%s", device_name(device));
  memcpy(prop.uuid.bytes, "gpusym-device-", 14);
  prop.uuid.bytes[15] = static_cast<char>(device);
  snprintf(prop.gcnArchName, sizeof prop.gcnArchName, "%s", device_target_id().c_str());
  prop.gcnArch = gcn_arch(device_target_id());
  // Every device is the host's memory, seen whole.
  prop.totalGlobalMem = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * sysconf(_SC_PAGE_SIZE);
  prop.sharedMemPerBlock = kMaxDynamicShared;
  prop.sharedMemPerBlockOptin = kMaxDynamicShared;
  prop.sharedMemPerMultiprocessor = kMaxDynamicShared;
  prop.maxSharedMemoryPerMultiProcessor = kMaxDynamicShared;
  prop.regsPerBlock = 65536;
  prop.regsPerMultiprocessor = 65536;
  prop.warpSize = static_cast<int>(device_wave_size());
  prop.cooperativeLaunch = 1;  // hipLaunchCooperativeKernel: up to multiProcessorCount blocks
  prop.memPitch = 0x7fffffff;
  prop.maxThreadsPerBlock = 1024;
  prop.maxThreadsDim[0] = prop.maxThreadsDim[1] = prop.maxThreadsDim[2] = 1024;
  prop.maxGridSize[0] = 0x7fffffff;
  prop.maxGridSize[1] = prop.maxGridSize[2] = 65536;
  prop.clockRate = 1000000;
  prop.clockInstructionRate = 1000000;
  prop.memoryClockRate = 1000000;
  prop.memoryBusWidth = 64;
  prop.totalConstMem = 64 * 1024;
  prop.major = kMajor;
  prop.minor = kMinor;
  prop.textureAlignment = 256;
  prop.texturePitchAlignment = 256;
  prop.surfaceAlignment = 256;
  // Textures and surfaces are software (textures.cpp): these are sizes of
  // an AMD GPU's, which programs size their images by.
  prop.maxTexture1D = prop.maxTexture1DMipmap = 16384;
  prop.maxTexture1DLinear = 1 << 27;
  prop.maxTexture2D[0] = prop.maxTexture2D[1] = 16384;
  prop.maxTexture2DLinear[0] = prop.maxTexture2DLinear[1] = 16384;
  prop.maxTexture2DLinear[2] = 1 << 20;
  prop.maxTexture3D[0] = prop.maxTexture3D[1] = prop.maxTexture3D[2] = 16384;
  prop.maxTexture1DLayered[0] = 16384;
  prop.maxTexture1DLayered[1] = 2048;
  prop.maxTexture2DLayered[0] = prop.maxTexture2DLayered[1] = 16384;
  prop.maxTexture2DLayered[2] = 2048;
  prop.maxSurface1D = 16384;
  prop.maxSurface2D[0] = prop.maxSurface2D[1] = 16384;
  prop.maxSurface3D[0] = prop.maxSurface3D[1] = prop.maxSurface3D[2] = 16384;
  // The workers run the blocks of every device: they are its compute units,
  // each running one block at a time.
  prop.multiProcessorCount = static_cast<int>(workers < 1 ? 1 : workers);
  prop.maxThreadsPerMultiProcessor = 1024;
  prop.maxBlocksPerMultiProcessor = 1;
  prop.deviceOverlap = 1;
  prop.asyncEngineCount = 1;
  prop.concurrentKernels = 1;  // kernels of different streams may overlap
  prop.pciBusID = device + 1;
  prop.canMapHostMemory = 1;
  prop.l2CacheSize = 4 * 1024 * 1024;
  prop.isMultiGpuBoard = device_count() > 1;
  prop.unifiedAddressing = 1;
  prop.streamPrioritiesSupported = 1;
  prop.globalL1CacheSupported = 1;
  prop.localL1CacheSupported = 1;
  // Kernels read all host memory, pageable, pinned or managed, where it is.
  prop.managedMemory = 1;
  prop.concurrentManagedAccess = 1;
  prop.directManagedMemAccessFromHost = 1;
  prop.pageableMemoryAccess = 1;
  prop.pageableMemoryAccessUsesHostPageTables = 1;
  prop.canUseHostPointerForRegisteredMem = 1;
  prop.hostRegisterSupported = 1;
  prop.memoryPoolsSupported = 1;  // memory_pools.cpp: no handle types to share pools with
  prop.hostNativeAtomicSupported = 1;
  prop.singleToDoublePrecisionPerfRatio = 2;
  prop.arch = hipDeviceArch_t{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0};
}

// The attribute's value, from the properties; false for no attribute.
bool attribute(const hipDeviceProp_t &p, hipDeviceAttribute_t attr, int &value) {
  auto narrow = [](size_t v) { return static_cast<int>(v > 0x7fffffff ? 0x7fffffff : v); };
  switch (attr) {
    case hipDeviceAttributeEccEnabled: value = p.ECCEnabled; break;
    case hipDeviceAttributeAccessPolicyMaxWindowSize: value = p.accessPolicyMaxWindowSize; break;
    case hipDeviceAttributeAsyncEngineCount: value = p.asyncEngineCount; break;
    case hipDeviceAttributeCanMapHostMemory: value = p.canMapHostMemory; break;
    case hipDeviceAttributeCanUseHostPointerForRegisteredMem: value = p.canUseHostPointerForRegisteredMem; break;
    case hipDeviceAttributeClockRate: value = p.clockRate; break;
    case hipDeviceAttributeComputeMode: value = p.computeMode; break;
    case hipDeviceAttributeComputePreemptionSupported: value = p.computePreemptionSupported; break;
    case hipDeviceAttributeConcurrentKernels: value = p.concurrentKernels; break;
    case hipDeviceAttributeConcurrentManagedAccess: value = p.concurrentManagedAccess; break;
    case hipDeviceAttributeCooperativeLaunch: value = p.cooperativeLaunch; break;
    case hipDeviceAttributeCooperativeMultiDeviceLaunch: value = p.cooperativeMultiDeviceLaunch; break;
    case hipDeviceAttributeDeviceOverlap: value = p.deviceOverlap; break;
    case hipDeviceAttributeDirectManagedMemAccessFromHost: value = p.directManagedMemAccessFromHost; break;
    case hipDeviceAttributeGlobalL1CacheSupported: value = p.globalL1CacheSupported; break;
    case hipDeviceAttributeHostNativeAtomicSupported: value = p.hostNativeAtomicSupported; break;
    case hipDeviceAttributeIntegrated: value = p.integrated; break;
    case hipDeviceAttributeIsMultiGpuBoard: value = p.isMultiGpuBoard; break;
    case hipDeviceAttributeKernelExecTimeout: value = p.kernelExecTimeoutEnabled; break;
    case hipDeviceAttributeL2CacheSize: value = p.l2CacheSize; break;
    case hipDeviceAttributeLocalL1CacheSupported: value = p.localL1CacheSupported; break;
    case hipDeviceAttributeLuid: value = 0; break;
    case hipDeviceAttributeLuidDeviceNodeMask: value = static_cast<int>(p.luidDeviceNodeMask); break;
    case hipDeviceAttributeComputeCapabilityMajor: value = p.major; break;
    case hipDeviceAttributeManagedMemory: value = p.managedMemory; break;
    case hipDeviceAttributeMaxBlocksPerMultiProcessor: value = p.maxBlocksPerMultiProcessor; break;
    case hipDeviceAttributeMaxBlockDimX: value = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxBlockDimY: value = p.maxThreadsDim[1]; break;
    case hipDeviceAttributeMaxBlockDimZ: value = p.maxThreadsDim[2]; break;
    case hipDeviceAttributeMaxGridDimX: value = p.maxGridSize[0]; break;
    case hipDeviceAttributeMaxGridDimY: value = p.maxGridSize[1]; break;
    case hipDeviceAttributeMaxGridDimZ: value = p.maxGridSize[2]; break;
    case hipDeviceAttributeMaxSurface1D: value = p.maxSurface1D; break;
    case hipDeviceAttributeMaxSurface1DLayered: value = p.maxSurface1DLayered[0]; break;
    case hipDeviceAttributeMaxSurface2D: value = p.maxSurface2D[0]; break;
    case hipDeviceAttributeMaxSurface2DLayered: value = p.maxSurface2DLayered[0]; break;
    case hipDeviceAttributeMaxSurface3D: value = p.maxSurface3D[0]; break;
    case hipDeviceAttributeMaxSurfaceCubemap: value = p.maxSurfaceCubemap; break;
    case hipDeviceAttributeMaxSurfaceCubemapLayered: value = p.maxSurfaceCubemapLayered[0]; break;
    case hipDeviceAttributeMaxTexture1DWidth: value = p.maxTexture1D; break;
    case hipDeviceAttributeMaxTexture1DLayered: value = p.maxTexture1DLayered[0]; break;
    case hipDeviceAttributeMaxTexture1DLinear: value = p.maxTexture1DLinear; break;
    case hipDeviceAttributeMaxTexture1DMipmap: value = p.maxTexture1DMipmap; break;
    case hipDeviceAttributeMaxTexture2DWidth: value = p.maxTexture2D[0]; break;
    case hipDeviceAttributeMaxTexture2DHeight: value = p.maxTexture2D[1]; break;
    case hipDeviceAttributeMaxTexture2DGather: value = p.maxTexture2DGather[0]; break;
    case hipDeviceAttributeMaxTexture2DLayered: value = p.maxTexture2DLayered[0]; break;
    case hipDeviceAttributeMaxTexture2DLinear: value = p.maxTexture2DLinear[0]; break;
    case hipDeviceAttributeMaxTexture2DMipmap: value = p.maxTexture2DMipmap[0]; break;
    case hipDeviceAttributeMaxTexture3DWidth: value = p.maxTexture3D[0]; break;
    case hipDeviceAttributeMaxTexture3DHeight: value = p.maxTexture3D[1]; break;
    case hipDeviceAttributeMaxTexture3DDepth: value = p.maxTexture3D[2]; break;
    case hipDeviceAttributeMaxTexture3DAlt: value = p.maxTexture3DAlt[0]; break;
    case hipDeviceAttributeMaxTextureCubemap: value = p.maxTextureCubemap; break;
    case hipDeviceAttributeMaxTextureCubemapLayered: value = p.maxTextureCubemapLayered[0]; break;
    case hipDeviceAttributeMaxThreadsDim: value = p.maxThreadsDim[0]; break;
    case hipDeviceAttributeMaxThreadsPerBlock: value = p.maxThreadsPerBlock; break;
    case hipDeviceAttributeMaxThreadsPerMultiProcessor: value = p.maxThreadsPerMultiProcessor; break;
    case hipDeviceAttributeMaxPitch: value = narrow(p.memPitch); break;
    case hipDeviceAttributeMemoryBusWidth: value = p.memoryBusWidth; break;
    case hipDeviceAttributeMemoryClockRate: value = p.memoryClockRate; break;
    case hipDeviceAttributeComputeCapabilityMinor: value = p.minor; break;
    case hipDeviceAttributeMultiGpuBoardGroupID: value = p.multiGpuBoardGroupID; break;
    case hipDeviceAttributeMultiprocessorCount: value = p.multiProcessorCount; break;
    case hipDeviceAttributePageableMemoryAccess: value = p.pageableMemoryAccess; break;
    case hipDeviceAttributePageableMemoryAccessUsesHostPageTables:
      value = p.pageableMemoryAccessUsesHostPageTables;
      break;
    case hipDeviceAttributePciBusId: value = p.pciBusID; break;
    case hipDeviceAttributePciDeviceId: value = p.pciDeviceID; break;
    case hipDeviceAttributePciDomainID: value = p.pciDomainID; break;
    case hipDeviceAttributePersistingL2CacheMaxSize: value = p.persistingL2CacheMaxSize; break;
    case hipDeviceAttributeMaxRegistersPerBlock: value = p.regsPerBlock; break;
    case hipDeviceAttributeMaxRegistersPerMultiprocessor: value = p.regsPerMultiprocessor; break;
    case hipDeviceAttributeReservedSharedMemPerBlock: value = narrow(p.reservedSharedMemPerBlock); break;
    case hipDeviceAttributeMaxSharedMemoryPerBlock: value = narrow(p.sharedMemPerBlock); break;
    case hipDeviceAttributeSharedMemPerBlockOptin: value = narrow(p.sharedMemPerBlockOptin); break;
    case hipDeviceAttributeSharedMemPerMultiprocessor: value = narrow(p.sharedMemPerMultiprocessor); break;
    case hipDeviceAttributeSingleToDoublePrecisionPerfRatio: value = p.singleToDoublePrecisionPerfRatio; break;
    case hipDeviceAttributeStreamPrioritiesSupported: value = p.streamPrioritiesSupported; break;
    case hipDeviceAttributeSurfaceAlignment: value = narrow(p.surfaceAlignment); break;
    case hipDeviceAttributeTccDriver: value = p.tccDriver; break;
    case hipDeviceAttributeTextureAlignment: value = narrow(p.textureAlignment); break;
    case hipDeviceAttributeTexturePitchAlignment: value = narrow(p.texturePitchAlignment); break;
    case hipDeviceAttributeTotalConstantMemory: value = narrow(p.totalConstMem); break;
    case hipDeviceAttributeTotalGlobalMem: value = narrow(p.totalGlobalMem); break;
    case hipDeviceAttributeUnifiedAddressing: value = p.unifiedAddressing; break;
    case hipDeviceAttributeWarpSize: value = p.warpSize; break;
    case hipDeviceAttributeMemoryPoolsSupported: value = p.memoryPoolsSupported; break;
    case hipDeviceAttributeVirtualMemoryManagementSupported: value = 1; break;  // virtual_memory.cpp
    case hipDeviceAttributeHostRegisterSupported: value = p.hostRegisterSupported; break;
    case hipDeviceAttributeMemoryPoolSupportedHandleTypes:
      value = static_cast<int>(p.memoryPoolSupportedHandleTypes);
      break;
    case hipDeviceAttributeClockInstructionRate: value = p.clockInstructionRate; break;
    case hipDeviceAttributeMaxSharedMemoryPerMultiprocessor: value = narrow(p.maxSharedMemoryPerMultiProcessor); break;
    case hipDeviceAttributeHdpMemFlushCntl:
    case hipDeviceAttributeHdpRegFlushCntl: value = 0; break;  // no such registers
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedFunc: value = p.cooperativeMultiDeviceUnmatchedFunc; break;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedGridDim:
      value = p.cooperativeMultiDeviceUnmatchedGridDim;
      break;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedBlockDim:
      value = p.cooperativeMultiDeviceUnmatchedBlockDim;
      break;
    case hipDeviceAttributeCooperativeMultiDeviceUnmatchedSharedMem:
      value = p.cooperativeMultiDeviceUnmatchedSharedMem;
      break;
    case hipDeviceAttributeIsLargeBar: value = p.isLargeBar; break;
    case hipDeviceAttributeAsicRevision: value = p.asicRevision; break;
    case hipDeviceAttributeCanUseStreamWaitValue: value = 0; break;
    case hipDeviceAttributeImageSupport: value = 1; break;
    case hipDeviceAttributePhysicalMultiProcessorCount: value = p.multiProcessorCount; break;
    case hipDeviceAttributeFineGrainSupport: value = 1; break;
    case hipDeviceAttributeWallClockRate: value = kWallClockRateKhz; break;
    case hipDeviceAttributeUnused1:
    case hipDeviceAttributeUnused2:
    case hipDeviceAttributeUnused3:
    case hipDeviceAttributeUnused4:
    case hipDeviceAttributeUnused5: value = 0; break;
    default: return false;  // the range markers and numbers HIP does not define
  }
  return true;
}

}  // namespace

size_t malloc_heap_size(int device) {
  Settings &s = settings(device);
  std::lock_guard<std::mutex> lock(s.mutex);
  return s.malloc_heap;
}

}  // namespace gpusym

using namespace gpusym;

extern "C" {

hipError_t hipGetDeviceProperties(hipDeviceProp_t *prop, int device) {
  if (!prop) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  fill_properties(*prop, device);
  return hipSuccess;
}

hipError_t hipGetDevicePropertiesR0600(hipDeviceProp_t *prop, int device) {
  return hipGetDeviceProperties(prop, device);
}

hipError_t hipDeviceGetAttribute(int *value, hipDeviceAttribute_t attr, int device) {
  if (!value) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  hipDeviceProp_t prop;
  fill_properties(prop, device);
  if (!attribute(prop, attr, *value)) return record(hipErrorInvalidValue);
  return hipSuccess;
}

hipError_t hipInit(unsigned int flags) { return flags ? record(hipErrorInvalidValue) : hipSuccess; }

hipError_t hipDriverGetVersion(int *version) {
  if (!version) return record(hipErrorInvalidValue);
  *version = HIP_VERSION;
  return hipSuccess;
}

hipError_t hipRuntimeGetVersion(int *version) {
  if (!version) return record(hipErrorInvalidValue);
  *version = HIP_VERSION;
  return hipSuccess;
}

hipError_t hipDeviceGet(hipDevice_t *device, int ordinal) {
  if (!device) return record(hipErrorInvalidValue);
  if (!valid_device(ordinal)) return record(hipErrorInvalidDevice);
  *device = ordinal;
  return hipSuccess;
}

hipError_t hipDeviceGetName(char *name, int len, hipDevice_t device) {
  if (!name || len <= 0) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  snprintf(name, static_cast<size_t>(len), "%s", device_name(device));
  return hipSuccess;
}

hipError_t hipDeviceGetUuid(hipUUID *uuid, hipDevice_t device) {
  if (!uuid) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  hipDeviceProp_t prop;
  fill_properties(prop, device);
  *uuid = prop.uuid;
  return hipSuccess;
}

// domain:bus:device.function, from the properties: "0000:01:00.0" for device 0.
hipError_t hipDeviceGetPCIBusId(char *bus_id, int len, int device) {
  if (!bus_id || len <= 0) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  hipDeviceProp_t prop;
  fill_properties(prop, device);
  int written = snprintf(bus_id, static_cast<size_t>(len), "%04x:%02x:%02x.0", prop.pciDomainID, prop.pciBusID,
                         prop.pciDeviceID);
  return written < len ? hipSuccess : record(hipErrorInvalidValue);
}

hipError_t hipDeviceGetByPCIBusId(int *device, const char *bus_id) {
  if (!device || !bus_id) return record(hipErrorInvalidValue);
  unsigned domain = 0, bus = 0, slot = 0;
  if (sscanf(bus_id, "%x:%x:%x", &domain, &bus, &slot) != 3) return record(hipErrorInvalidValue);
  for (int d = 0; d < device_count(); d++) {
    hipDeviceProp_t prop;
    fill_properties(prop, d);
    if (domain == unsigned(prop.pciDomainID) && bus == unsigned(prop.pciBusID) && slot == unsigned(prop.pciDeviceID)) {
      *device = d;
      return hipSuccess;
    }
  }
  return record(hipErrorInvalidDevice);
}

hipError_t hipDeviceTotalMem(size_t *bytes, hipDevice_t device) {
  if (!bytes) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  hipDeviceProp_t prop;
  fill_properties(prop, device);
  *bytes = prop.totalGlobalMem;
  return hipSuccess;
}

hipError_t hipDeviceComputeCapability(int *major, int *minor, hipDevice_t device) {
  if (!major || !minor) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  *major = kMajor;
  *minor = kMinor;
  return hipSuccess;
}

// All devices are alike: the current one matches any wish as well as another.
hipError_t hipChooseDevice(int *device, const hipDeviceProp_t *prop) {
  if (!device || !prop) return record(hipErrorInvalidValue);
  *device = current_device();
  return hipSuccess;
}

// The settings below are kept and answered back; none changes how work runs.
hipError_t hipGetDeviceFlags(unsigned int *flags) {
  if (!flags) return record(hipErrorInvalidValue);
  Settings &s = settings(current_device());
  std::lock_guard<std::mutex> lock(s.mutex);
  *flags = s.flags;
  return hipSuccess;
}

hipError_t hipSetDeviceFlags(unsigned int flags) {
  if (flags & ~(hipDeviceScheduleMask | hipDeviceMapHost | hipDeviceLmemResizeToMax))
    return record(hipErrorInvalidValue);
  Settings &s = settings(current_device());
  std::lock_guard<std::mutex> lock(s.mutex);
  s.flags = flags;
  return hipSuccess;
}

// The stack limit is each lane's stack (GPUSYM_STACK_SIZE), fixed: asking
// for no more than it is granted, more is hipErrorUnsupportedLimit.
hipError_t hipDeviceGetLimit(size_t *value, enum hipLimit_t limit) {
  if (!value) return record(hipErrorInvalidValue);
  Settings &s = settings(current_device());
  std::lock_guard<std::mutex> lock(s.mutex);
  switch (limit) {
    case hipLimitStackSize: *value = lane_stack_size(); return hipSuccess;
    case hipLimitPrintfFifoSize: *value = s.printf_fifo; return hipSuccess;
    case hipLimitMallocHeapSize: *value = s.malloc_heap; return hipSuccess;
    default: return record(hipErrorUnsupportedLimit);
  }
}

hipError_t hipDeviceSetLimit(enum hipLimit_t limit, size_t value) {
  Settings &s = settings(current_device());
  std::lock_guard<std::mutex> lock(s.mutex);
  switch (limit) {
    case hipLimitStackSize:
      return value <= lane_stack_size() ? hipSuccess : record(hipErrorUnsupportedLimit);
    case hipLimitPrintfFifoSize: s.printf_fifo = value; return hipSuccess;
    case hipLimitMallocHeapSize: s.malloc_heap = value; return hipSuccess;
    default: return record(hipErrorUnsupportedLimit);
  }
}

hipError_t hipDeviceGetCacheConfig(hipFuncCache_t *config) {
  if (!config) return record(hipErrorInvalidValue);
  Settings &s = settings(current_device());
  std::lock_guard<std::mutex> lock(s.mutex);
  *config = s.cache;
  return hipSuccess;
}

hipError_t hipDeviceSetCacheConfig(hipFuncCache_t config) {
  if (config < hipFuncCachePreferNone || config > hipFuncCachePreferEqual) return record(hipErrorInvalidValue);
  Settings &s = settings(current_device());
  std::lock_guard<std::mutex> lock(s.mutex);
  s.cache = config;
  return hipSuccess;
}

hipError_t hipDeviceGetSharedMemConfig(hipSharedMemConfig *config) {
  if (!config) return record(hipErrorInvalidValue);
  Settings &s = settings(current_device());
  std::lock_guard<std::mutex> lock(s.mutex);
  *config = s.bank;
  return hipSuccess;
}

hipError_t hipDeviceSetSharedMemConfig(hipSharedMemConfig config) {
  if (config < hipSharedMemBankSizeDefault || config > hipSharedMemBankSizeEightByte)
    return record(hipErrorInvalidValue);
  Settings &s = settings(current_device());
  std::lock_guard<std::mutex> lock(s.mutex);
  s.bank = config == hipSharedMemBankSizeDefault ? hipSharedMemBankSizeFourByte : config;
  return hipSuccess;
}

// Contexts: each device has one, its primary context; making it current
// makes its device current.
hipError_t hipCtxGetCurrent(hipCtx_t *ctx) {
  if (!ctx) return record(hipErrorInvalidValue);
  *ctx = reinterpret_cast<hipCtx_t>(&contexts[current_device()]);
  return hipSuccess;
}

hipError_t hipCtxSetCurrent(hipCtx_t ctx) {
  int device = context_device(ctx);
  if (device < 0) return record(hipErrorInvalidContext);
  set_current_device(device);
  return hipSuccess;
}

hipError_t hipCtxGetDevice(hipDevice_t *device) {
  if (!device) return record(hipErrorInvalidValue);
  *device = current_device();
  return hipSuccess;
}

hipError_t hipCtxSynchronize(void) { return hipDeviceSynchronize(); }

hipError_t hipDevicePrimaryCtxRetain(hipCtx_t *ctx, hipDevice_t device) {
  if (!ctx) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  *ctx = reinterpret_cast<hipCtx_t>(&contexts[device]);
  return hipSuccess;
}

hipError_t hipDevicePrimaryCtxRelease(hipDevice_t device) {
  return valid_device(device) ? hipSuccess : record(hipErrorInvalidDevice);
}

}  // extern "C"
