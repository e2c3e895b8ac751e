// CUDA's runtime API: each cuda* function calls its hip* twin under the
// CUDA name (a failure is recorded as the program called it) and returns
// its error as CUDA's code, which has HIP's number.  Errors are in
// cuda_errors.cpp, stream capture and graphs in cuda_graphs.cpp.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <iterator>
#include <type_traits>

#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

// The architecture the program's CUDA sources were compiled for (800 for
// sm_80): the weak definition cuda_runtime_api.h gives each of them.
extern "C" __attribute__((weak)) extern const int __gpusym_cuda_arch;

namespace {

// The hip* call `hip_call` made for the CUDA function `name`: its error,
// recorded under `name` when it fails (a failed context's: unless_failed).
template <typename Call>
cudaError_t as_cuda(const char *name, Call hip_call) {
  ApiCall named(name);
  return static_cast<cudaError_t>(unless_failed(name, hip_call));
}

constexpr int kDefaultArch = 800;  // gpusym-nvcc's sm_80
constexpr int kCudaWarpSize = 32;  // gpusym-nvcc compiles for 32-lane wavefronts

template <typename To, typename From>
void copy_field(To &to, const From &from) {
  if constexpr (std::is_array_v<To>)
    std::copy(std::begin(from), std::end(from), std::begin(to));
  else
    to = static_cast<To>(from);
}

// CUDA's properties of the device: HIP's, with CUDA's compute capability.
void cuda_properties(cudaDeviceProp &out, const hipDeviceProp_t &in) {
  out = cudaDeviceProp{};
#define GPUSYM_FIELD(name) copy_field(out.name, in.name)
  GPUSYM_FIELD(name);
  GPUSYM_FIELD(luid);
  GPUSYM_FIELD(luidDeviceNodeMask);
  GPUSYM_FIELD(totalGlobalMem);
  GPUSYM_FIELD(sharedMemPerBlock);
  GPUSYM_FIELD(regsPerBlock);
  GPUSYM_FIELD(memPitch);
  GPUSYM_FIELD(maxThreadsPerBlock);
  GPUSYM_FIELD(maxThreadsDim);
  GPUSYM_FIELD(maxGridSize);
  GPUSYM_FIELD(clockRate);
  GPUSYM_FIELD(totalConstMem);
  GPUSYM_FIELD(textureAlignment);
  GPUSYM_FIELD(texturePitchAlignment);
  GPUSYM_FIELD(deviceOverlap);
  GPUSYM_FIELD(multiProcessorCount);
  GPUSYM_FIELD(kernelExecTimeoutEnabled);
  GPUSYM_FIELD(integrated);
  GPUSYM_FIELD(canMapHostMemory);
  GPUSYM_FIELD(computeMode);
  GPUSYM_FIELD(maxTexture1D);
  GPUSYM_FIELD(maxTexture1DMipmap);
  GPUSYM_FIELD(maxTexture1DLinear);
  GPUSYM_FIELD(maxTexture2D);
  GPUSYM_FIELD(maxTexture2DMipmap);
  GPUSYM_FIELD(maxTexture2DLinear);
  GPUSYM_FIELD(maxTexture2DGather);
  GPUSYM_FIELD(maxTexture3D);
  GPUSYM_FIELD(maxTexture3DAlt);
  GPUSYM_FIELD(maxTextureCubemap);
  GPUSYM_FIELD(maxTexture1DLayered);
  GPUSYM_FIELD(maxTexture2DLayered);
  GPUSYM_FIELD(maxTextureCubemapLayered);
  GPUSYM_FIELD(maxSurface1D);
  GPUSYM_FIELD(maxSurface2D);
  GPUSYM_FIELD(maxSurface3D);
  GPUSYM_FIELD(maxSurface1DLayered);
  GPUSYM_FIELD(maxSurface2DLayered);
  GPUSYM_FIELD(maxSurfaceCubemap);
  GPUSYM_FIELD(maxSurfaceCubemapLayered);
  GPUSYM_FIELD(surfaceAlignment);
  GPUSYM_FIELD(concurrentKernels);
  GPUSYM_FIELD(ECCEnabled);
  GPUSYM_FIELD(pciBusID);
  GPUSYM_FIELD(pciDeviceID);
  GPUSYM_FIELD(pciDomainID);
  GPUSYM_FIELD(tccDriver);
  GPUSYM_FIELD(asyncEngineCount);
  GPUSYM_FIELD(unifiedAddressing);
  GPUSYM_FIELD(memoryClockRate);
  GPUSYM_FIELD(memoryBusWidth);
  GPUSYM_FIELD(l2CacheSize);
  GPUSYM_FIELD(maxThreadsPerMultiProcessor);
  GPUSYM_FIELD(streamPrioritiesSupported);
  GPUSYM_FIELD(globalL1CacheSupported);
  GPUSYM_FIELD(localL1CacheSupported);
  GPUSYM_FIELD(sharedMemPerMultiprocessor);
  GPUSYM_FIELD(regsPerMultiprocessor);
  GPUSYM_FIELD(managedMemory);
  GPUSYM_FIELD(isMultiGpuBoard);
  GPUSYM_FIELD(multiGpuBoardGroupID);
  GPUSYM_FIELD(hostNativeAtomicSupported);
  GPUSYM_FIELD(singleToDoublePrecisionPerfRatio);
  GPUSYM_FIELD(pageableMemoryAccess);
  GPUSYM_FIELD(concurrentManagedAccess);
  GPUSYM_FIELD(computePreemptionSupported);
  GPUSYM_FIELD(canUseHostPointerForRegisteredMem);
  GPUSYM_FIELD(cooperativeLaunch);
  GPUSYM_FIELD(cooperativeMultiDeviceLaunch);
  GPUSYM_FIELD(sharedMemPerBlockOptin);
  GPUSYM_FIELD(pageableMemoryAccessUsesHostPageTables);
  GPUSYM_FIELD(directManagedMemAccessFromHost);
  GPUSYM_FIELD(maxBlocksPerMultiProcessor);
  GPUSYM_FIELD(reservedSharedMemPerBlock);
  GPUSYM_FIELD(hostRegisterSupported);
  GPUSYM_FIELD(hostRegisterReadOnlySupported);
  GPUSYM_FIELD(timelineSemaphoreInteropSupported);
  GPUSYM_FIELD(memoryPoolsSupported);
  GPUSYM_FIELD(gpuDirectRDMASupported);
  GPUSYM_FIELD(gpuDirectRDMAFlushWritesOptions);
  GPUSYM_FIELD(gpuDirectRDMAWritesOrdering);
  GPUSYM_FIELD(memoryPoolSupportedHandleTypes);
  GPUSYM_FIELD(ipcEventSupported);
  GPUSYM_FIELD(clusterLaunch);
  GPUSYM_FIELD(unifiedFunctionPointers);
#undef GPUSYM_FIELD
  memcpy(&out.uuid, &in.uuid, sizeof out.uuid);
  out.sparseCudaArraySupported = in.sparseHipArraySupported;
  out.deferredMappingCudaArraySupported = in.deferredMappingHipArraySupported;
  out.warpSize = kCudaWarpSize;  // before any code object is loaded too
  // A persisting L2 window (cudaLimitPersistingL2CacheSize, a stream's or
  // kernel node's access policy window) is a hint CUDA accepts on devices
  // that report room for it; the simulated device has nothing to keep, and
  // accepts it as such a device (three quarters of its L2 cache).
  out.persistingL2CacheMaxSize = in.l2CacheSize / 4 * 3;
  out.accessPolicyMaxWindowSize = 128 << 20;
  out.major = cuda_compute_capability() / 10;
  out.minor = cuda_compute_capability() % 10;
}

// cudaDeviceGetAttribute's answer from the device's properties; false for
// an attribute it does not know.
bool device_attribute(const cudaDeviceProp &p, cudaDeviceAttr attr, int &value) {
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: value = p.maxThreadsPerBlock; return true;
    case cudaDevAttrMaxBlockDimX: value = p.maxThreadsDim[0]; return true;
    case cudaDevAttrMaxBlockDimY: value = p.maxThreadsDim[1]; return true;
    case cudaDevAttrMaxBlockDimZ: value = p.maxThreadsDim[2]; return true;
    case cudaDevAttrMaxGridDimX: value = p.maxGridSize[0]; return true;
    case cudaDevAttrMaxGridDimY: value = p.maxGridSize[1]; return true;
    case cudaDevAttrMaxGridDimZ: value = p.maxGridSize[2]; return true;
    case cudaDevAttrMaxSharedMemoryPerBlock: value = static_cast<int>(p.sharedMemPerBlock); return true;
    case cudaDevAttrTotalConstantMemory: value = static_cast<int>(std::min<size_t>(p.totalConstMem, INT32_MAX)); return true;
    case cudaDevAttrWarpSize: value = p.warpSize; return true;
    case cudaDevAttrMaxPitch: value = static_cast<int>(std::min<size_t>(p.memPitch, INT32_MAX)); return true;
    case cudaDevAttrMaxRegistersPerBlock: value = p.regsPerBlock; return true;
    case cudaDevAttrClockRate: value = p.clockRate; return true;
    case cudaDevAttrTextureAlignment: value = static_cast<int>(p.textureAlignment); return true;
    case cudaDevAttrGpuOverlap: value = p.deviceOverlap; return true;
    case cudaDevAttrMultiProcessorCount: value = p.multiProcessorCount; return true;
    case cudaDevAttrKernelExecTimeout: value = p.kernelExecTimeoutEnabled; return true;
    case cudaDevAttrIntegrated: value = p.integrated; return true;
    case cudaDevAttrCanMapHostMemory: value = p.canMapHostMemory; return true;
    case cudaDevAttrComputeMode: value = p.computeMode; return true;
    case cudaDevAttrMaxTexture1DWidth: value = p.maxTexture1D; return true;
    case cudaDevAttrMaxTexture2DWidth: value = p.maxTexture2D[0]; return true;
    case cudaDevAttrMaxTexture2DHeight: value = p.maxTexture2D[1]; return true;
    case cudaDevAttrMaxTexture3DWidth: value = p.maxTexture3D[0]; return true;
    case cudaDevAttrMaxTexture3DHeight: value = p.maxTexture3D[1]; return true;
    case cudaDevAttrMaxTexture3DDepth: value = p.maxTexture3D[2]; return true;
    case cudaDevAttrSurfaceAlignment: value = static_cast<int>(p.surfaceAlignment); return true;
    case cudaDevAttrConcurrentKernels: value = p.concurrentKernels; return true;
    case cudaDevAttrEccEnabled: value = p.ECCEnabled; return true;
    case cudaDevAttrPciBusId: value = p.pciBusID; return true;
    case cudaDevAttrPciDeviceId: value = p.pciDeviceID; return true;
    case cudaDevAttrTccDriver: value = p.tccDriver; return true;
    case cudaDevAttrMemoryClockRate: value = p.memoryClockRate; return true;
    case cudaDevAttrGlobalMemoryBusWidth: value = p.memoryBusWidth; return true;
    case cudaDevAttrL2CacheSize: value = p.l2CacheSize; return true;
    case cudaDevAttrMaxThreadsPerMultiProcessor: value = p.maxThreadsPerMultiProcessor; return true;
    case cudaDevAttrAsyncEngineCount: value = p.asyncEngineCount; return true;
    case cudaDevAttrUnifiedAddressing: value = p.unifiedAddressing; return true;
    case cudaDevAttrPciDomainId: value = p.pciDomainID; return true;
    case cudaDevAttrTexturePitchAlignment: value = static_cast<int>(p.texturePitchAlignment); return true;
    case cudaDevAttrComputeCapabilityMajor: value = p.major; return true;
    case cudaDevAttrComputeCapabilityMinor: value = p.minor; return true;
    case cudaDevAttrStreamPrioritiesSupported: value = p.streamPrioritiesSupported; return true;
    case cudaDevAttrGlobalL1CacheSupported: value = p.globalL1CacheSupported; return true;
    case cudaDevAttrLocalL1CacheSupported: value = p.localL1CacheSupported; return true;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: value = static_cast<int>(p.sharedMemPerMultiprocessor); return true;
    case cudaDevAttrMaxRegistersPerMultiprocessor: value = p.regsPerMultiprocessor; return true;
    case cudaDevAttrManagedMemory: value = p.managedMemory; return true;
    case cudaDevAttrIsMultiGpuBoard: value = p.isMultiGpuBoard; return true;
    case cudaDevAttrMultiGpuBoardGroupID: value = p.multiGpuBoardGroupID; return true;
    case cudaDevAttrHostNativeAtomicSupported: value = p.hostNativeAtomicSupported; return true;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: value = p.singleToDoublePrecisionPerfRatio; return true;
    case cudaDevAttrPageableMemoryAccess: value = p.pageableMemoryAccess; return true;
    case cudaDevAttrConcurrentManagedAccess: value = p.concurrentManagedAccess; return true;
    case cudaDevAttrComputePreemptionSupported: value = p.computePreemptionSupported; return true;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: value = p.canUseHostPointerForRegisteredMem; return true;
    case cudaDevAttrCooperativeLaunch: value = p.cooperativeLaunch; return true;
    case cudaDevAttrCooperativeMultiDeviceLaunch: value = p.cooperativeMultiDeviceLaunch; return true;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: value = static_cast<int>(p.sharedMemPerBlockOptin); return true;
    case cudaDevAttrHostRegisterSupported: value = p.hostRegisterSupported; return true;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: value = p.pageableMemoryAccessUsesHostPageTables; return true;
    case cudaDevAttrDirectManagedMemAccessFromHost: value = p.directManagedMemAccessFromHost; return true;
    case cudaDevAttrMaxBlocksPerMultiprocessor: value = p.maxBlocksPerMultiProcessor; return true;
    case cudaDevAttrMaxPersistingL2CacheSize: value = p.persistingL2CacheMaxSize; return true;
    case cudaDevAttrMaxAccessPolicyWindowSize: value = p.accessPolicyMaxWindowSize; return true;
    case cudaDevAttrReservedSharedMemoryPerBlock: value = static_cast<int>(p.reservedSharedMemPerBlock); return true;
    case cudaDevAttrMemoryPoolsSupported: value = p.memoryPoolsSupported; return true;
    case cudaDevAttrClusterLaunch: value = p.clusterLaunch; return true;
    case cudaDevAttrIpcEventSupport: value = p.ipcEventSupported; return true;
    default:  // what the device lacks
      value = 0;
      return attr > 0 && attr < cudaDevAttrMax;
  }
}

// The limits HIP has not (cudaLimitDevRuntimeSyncDepth and after): kept, as
// set; nothing on the simulated device reads them.
size_t other_limits[cudaLimitPersistingL2CacheSize + 1];

}  // namespace

namespace gpusym {

int cuda_compute_capability() { return (&__gpusym_cuda_arch ? __gpusym_cuda_arch : kDefaultArch) / 10; }

}  // namespace gpusym

#define GPUSYM_AS_CUDA(expression) as_cuda(__func__, [&] { return expression; })

extern "C" {

// ---- devices ----

cudaError_t cudaGetDeviceCount(int *count) { return GPUSYM_AS_CUDA(hipGetDeviceCount(count)); }
cudaError_t cudaGetDevice(int *device) { return GPUSYM_AS_CUDA(hipGetDevice(device)); }
cudaError_t cudaSetDevice(int device) { return GPUSYM_AS_CUDA(hipSetDevice(device)); }
cudaError_t cudaSetDeviceFlags(unsigned int flags) { return GPUSYM_AS_CUDA(hipSetDeviceFlags(flags)); }
cudaError_t cudaGetDeviceFlags(unsigned int *flags) { return GPUSYM_AS_CUDA(hipGetDeviceFlags(flags)); }

// The devices are alike: any matches as well as another.
cudaError_t cudaChooseDevice(int *device, const cudaDeviceProp *prop) {
  if (!device || !prop) return fail(__func__, cudaErrorInvalidValue);
  return GPUSYM_AS_CUDA(hipGetDevice(device));
}

cudaError_t cudaGetDeviceProperties(cudaDeviceProp *prop, int device) {
  if (!prop) return fail(__func__, cudaErrorInvalidValue);
  hipDeviceProp_t hip;
  if (cudaError_t error = GPUSYM_AS_CUDA(hipGetDeviceProperties(&hip, device))) return error;
  cuda_properties(*prop, hip);
  return cudaSuccess;
}

cudaError_t cudaGetDeviceProperties_v2(cudaDeviceProp *prop, int device) {
  ApiCall named(__func__);
  return cudaGetDeviceProperties(prop, device);
}

cudaError_t cudaDeviceGetAttribute(int *value, cudaDeviceAttr attr, int device) {
  if (!value) return fail(__func__, cudaErrorInvalidValue);
  if (!valid_device(device)) return fail(__func__, cudaErrorInvalidDevice);
  cudaDeviceProp prop;
  if (cudaError_t error = cudaGetDeviceProperties(&prop, device)) return error;
  return device_attribute(prop, attr, *value) ? cudaSuccess : fail(__func__, cudaErrorInvalidValue);
}

cudaError_t cudaDeviceSynchronize(void) { return GPUSYM_AS_CUDA(hipDeviceSynchronize()); }
cudaError_t cudaThreadSynchronize(void) { return GPUSYM_AS_CUDA(hipDeviceSynchronize()); }
cudaError_t cudaDeviceReset(void) { return GPUSYM_AS_CUDA(hipDeviceReset()); }

cudaError_t cudaDeviceSetLimit(cudaLimit limit, size_t value) {
  if (limit <= cudaLimitMallocHeapSize) return GPUSYM_AS_CUDA(hipDeviceSetLimit(static_cast<hipLimit_t>(limit), value));
  if (limit > cudaLimitPersistingL2CacheSize) return fail(__func__, cudaErrorUnsupportedLimit);
  other_limits[limit] = value;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetLimit(size_t *value, cudaLimit limit) {
  if (limit <= cudaLimitMallocHeapSize) return GPUSYM_AS_CUDA(hipDeviceGetLimit(value, static_cast<hipLimit_t>(limit)));
  if (limit > cudaLimitPersistingL2CacheSize) return fail(__func__, cudaErrorUnsupportedLimit);
  if (!value) return fail(__func__, cudaErrorInvalidValue);
  *value = other_limits[limit];
  return cudaSuccess;
}

cudaError_t cudaDeviceSetCacheConfig(cudaFuncCache config) {
  return GPUSYM_AS_CUDA(hipDeviceSetCacheConfig(static_cast<hipFuncCache_t>(config)));
}
cudaError_t cudaDeviceGetCacheConfig(cudaFuncCache *config) {
  return GPUSYM_AS_CUDA(hipDeviceGetCacheConfig(reinterpret_cast<hipFuncCache_t *>(config)));
}
cudaError_t cudaDeviceSetSharedMemConfig(cudaSharedMemConfig config) {
  return GPUSYM_AS_CUDA(hipDeviceSetSharedMemConfig(static_cast<hipSharedMemConfig>(config)));
}
cudaError_t cudaDeviceGetSharedMemConfig(cudaSharedMemConfig *config) {
  return GPUSYM_AS_CUDA(hipDeviceGetSharedMemConfig(reinterpret_cast<hipSharedMemConfig *>(config)));
}
cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority) {
  return GPUSYM_AS_CUDA(hipDeviceGetStreamPriorityRange(leastPriority, greatestPriority));
}
cudaError_t cudaCtxResetPersistingL2Cache(void) { return cudaSuccess; }

cudaError_t cudaDeviceGetP2PAttribute(int *value, cudaDeviceP2PAttr attr, int srcDevice, int dstDevice) {
  // CUDA numbers the attributes from 1, HIP from 0.
  auto attribute = static_cast<hipDeviceP2PAttr>(static_cast<int>(attr) - 1);
  return GPUSYM_AS_CUDA(hipDeviceGetP2PAttribute(value, attribute, srcDevice, dstDevice));
}

cudaError_t cudaIpcGetMemHandle(cudaIpcMemHandle_t *, void *) { return fail(__func__, cudaErrorNotSupported); }
cudaError_t cudaIpcOpenMemHandle(void **, cudaIpcMemHandle_t, unsigned int) {
  return fail(__func__, cudaErrorNotSupported);
}
cudaError_t cudaIpcCloseMemHandle(void *) { return fail(__func__, cudaErrorNotSupported); }
cudaError_t cudaIpcGetEventHandle(cudaIpcEventHandle_t *, cudaEvent_t) { return fail(__func__, cudaErrorNotSupported); }
cudaError_t cudaIpcOpenEventHandle(cudaEvent_t *, cudaIpcEventHandle_t) {
  return fail(__func__, cudaErrorNotSupported);
}

cudaError_t cudaStreamSetAttribute(cudaStream_t stream, cudaStreamAttrID, const cudaStreamAttrValue *value) {
  if (!value) return fail(__func__, cudaErrorInvalidValue);
  unsigned int flags = 0;
  return GPUSYM_AS_CUDA(stream ? hipStreamGetFlags(stream, &flags) : hipSuccess);
}

cudaError_t cudaStreamGetAttribute(cudaStream_t stream, cudaStreamAttrID, cudaStreamAttrValue *value_out) {
  if (!value_out) return fail(__func__, cudaErrorInvalidValue);
  *value_out = {};
  unsigned int flags = 0;
  return GPUSYM_AS_CUDA(stream ? hipStreamGetFlags(stream, &flags) : hipSuccess);
}

cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice) {
  return GPUSYM_AS_CUDA(hipDeviceCanAccessPeer(canAccessPeer, device, peerDevice));
}
cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipDeviceEnablePeerAccess(peerDevice, flags));
}
cudaError_t cudaDeviceDisablePeerAccess(int peerDevice) { return GPUSYM_AS_CUDA(hipDeviceDisablePeerAccess(peerDevice)); }
cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device) {
  return GPUSYM_AS_CUDA(hipDeviceGetPCIBusId(pciBusId, len, device));
}
cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId) {
  return GPUSYM_AS_CUDA(hipDeviceGetByPCIBusId(device, pciBusId));
}

cudaError_t cudaDriverGetVersion(int *driverVersion) {
  if (!driverVersion) return fail(__func__, cudaErrorInvalidValue);
  *driverVersion = CUDART_VERSION;
  return cudaSuccess;
}

cudaError_t cudaRuntimeGetVersion(int *runtimeVersion) {
  if (!runtimeVersion) return fail(__func__, cudaErrorInvalidValue);
  *runtimeVersion = CUDART_VERSION;
  return cudaSuccess;
}

// ---- memory ----

cudaError_t cudaMalloc(void **devPtr, size_t size) { return GPUSYM_AS_CUDA(hipMalloc(devPtr, size)); }
cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipMallocManaged(devPtr, size, flags));
}
cudaError_t cudaMallocHost(void **ptr, size_t size) { return GPUSYM_AS_CUDA(hipHostMalloc(ptr, size, 0)); }
cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipHostMalloc(pHost, size, flags));
}
cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height) {
  return GPUSYM_AS_CUDA(hipMallocPitch(devPtr, pitch, width, height));
}
cudaError_t cudaMalloc3D(cudaPitchedPtr *pitchedDevPtr, cudaExtent extent) {
  return GPUSYM_AS_CUDA(hipMalloc3D(pitchedDevPtr, extent));
}
cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMallocAsync(devPtr, size, stream));
}
cudaError_t cudaFree(void *devPtr) { return GPUSYM_AS_CUDA(hipFree(devPtr)); }
cudaError_t cudaFreeHost(void *ptr) { return GPUSYM_AS_CUDA(hipHostFree(ptr)); }
cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream) { return GPUSYM_AS_CUDA(hipFreeAsync(devPtr, stream)); }
cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipHostRegister(ptr, size, flags));
}
cudaError_t cudaHostUnregister(void *ptr) { return GPUSYM_AS_CUDA(hipHostUnregister(ptr)); }
cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipHostGetDevicePointer(pDevice, pHost, flags));
}
cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost) { return GPUSYM_AS_CUDA(hipHostGetFlags(pFlags, pHost)); }
cudaError_t cudaMemGetInfo(size_t *free, size_t *total) { return GPUSYM_AS_CUDA(hipMemGetInfo(free, total)); }
cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count, int dstDevice, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMemPrefetchAsync(devPtr, count, dstDevice, stream));
}
cudaError_t cudaMemAdvise(const void *devPtr, size_t count, cudaMemoryAdvise advice, int device) {
  return GPUSYM_AS_CUDA(hipMemAdvise(devPtr, count, static_cast<hipMemoryAdvise>(advice), device));
}

// A location's device ordinal: the host's is cudaCpuDeviceId.
static bool location_device(const cudaMemLocation &location, int &device) {
  if (location.type == cudaMemLocationTypeDevice) {
    device = location.id;
    return true;
  }
  device = cudaCpuDeviceId;
  return location.type == cudaMemLocationTypeHost || location.type == cudaMemLocationTypeHostNuma ||
         location.type == cudaMemLocationTypeHostNumaCurrent;
}

cudaError_t cudaMemPrefetchAsync_v2(const void *devPtr, size_t count, cudaMemLocation location, unsigned int flags,
                                    cudaStream_t stream) {
  int device;
  if (!location_device(location, device) || flags) return fail(__func__, cudaErrorInvalidValue);
  return GPUSYM_AS_CUDA(hipMemPrefetchAsync(devPtr, count, device, stream));
}
cudaError_t cudaMemAdvise_v2(const void *devPtr, size_t count, cudaMemoryAdvise advice, cudaMemLocation location) {
  int device;
  if (!location_device(location, device)) return fail(__func__, cudaErrorInvalidValue);
  return GPUSYM_AS_CUDA(hipMemAdvise(devPtr, count, static_cast<hipMemoryAdvise>(advice), device));
}

// As CUDA 11 and later: memory the runtime does not know is unregistered
// host memory, not an error.
cudaError_t cudaPointerGetAttributes(cudaPointerAttributes *attributes, const void *ptr) {
  if (!attributes) return fail(__func__, cudaErrorInvalidValue);
  hipPointerAttribute_t hip{};
  if (!ptr || !is_device_range(ptr, 1)) {
    *attributes = {cudaMemoryTypeUnregistered, cudaInvalidDeviceId, nullptr, const_cast<void *>(ptr)};
    return cudaSuccess;
  }
  if (cudaError_t error = GPUSYM_AS_CUDA(hipPointerGetAttributes(&hip, ptr))) return error;
  attributes->type = hip.isManaged ? cudaMemoryTypeManaged : static_cast<cudaMemoryType>(hip.type);
  attributes->device = hip.device;
  attributes->devicePointer = hip.devicePointer;
  attributes->hostPointer = hip.hostPointer;
  return cudaSuccess;
}

cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpy(dst, src, count, static_cast<hipMemcpyKind>(kind)));
}
cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, cudaMemcpyKind kind, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMemcpyAsync(dst, src, count, static_cast<hipMemcpyKind>(kind), stream));
}
cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                         cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpy2D(dst, dpitch, src, spitch, width, height, static_cast<hipMemcpyKind>(kind)));
}
cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                              cudaMemcpyKind kind, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(
      hipMemcpy2DAsync(dst, dpitch, src, spitch, width, height, static_cast<hipMemcpyKind>(kind), stream));
}
static_assert(sizeof(cudaMemcpy3DParms) == sizeof(hipMemcpy3DParms) &&
                  offsetof(cudaMemcpy3DParms, kind) == offsetof(hipMemcpy3DParms, kind),
              "cudaMemcpy3DParms is hipMemcpy3DParms with CUDA's kind");
cudaError_t cudaMemcpy3D(const cudaMemcpy3DParms *p) {
  return GPUSYM_AS_CUDA(hipMemcpy3D(reinterpret_cast<const hipMemcpy3DParms *>(p)));
}
cudaError_t cudaMemcpy3DAsync(const cudaMemcpy3DParms *p, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMemcpy3DAsync(reinterpret_cast<const hipMemcpy3DParms *>(p), stream));
}
cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice, size_t count) {
  return GPUSYM_AS_CUDA(hipMemcpyPeer(dst, dstDevice, src, srcDevice, count));
}
cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src, int srcDevice, size_t count,
                                cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMemcpyPeerAsync(dst, dstDevice, src, srcDevice, count, stream));
}
cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count, size_t offset, cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpyToSymbol(symbol, src, count, offset, static_cast<hipMemcpyKind>(kind)));
}
cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count, size_t offset, cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpyFromSymbol(dst, symbol, count, offset, static_cast<hipMemcpyKind>(kind)));
}
cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count, size_t offset,
                                    cudaMemcpyKind kind, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(
      hipMemcpyToSymbolAsync(symbol, src, count, offset, static_cast<hipMemcpyKind>(kind), stream));
}
cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count, size_t offset,
                                      cudaMemcpyKind kind, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(
      hipMemcpyFromSymbolAsync(dst, symbol, count, offset, static_cast<hipMemcpyKind>(kind), stream));
}
cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol) {
  return GPUSYM_AS_CUDA(hipGetSymbolAddress(devPtr, symbol));
}
cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol) { return GPUSYM_AS_CUDA(hipGetSymbolSize(size, symbol)); }
cudaError_t cudaMemset(void *devPtr, int value, size_t count) { return GPUSYM_AS_CUDA(hipMemset(devPtr, value, count)); }
cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMemsetAsync(devPtr, value, count, stream));
}
cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width, size_t height) {
  return GPUSYM_AS_CUDA(hipMemset2D(devPtr, pitch, value, width, height));
}
cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width, size_t height,
                              cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMemset2DAsync(devPtr, pitch, value, width, height, stream));
}
cudaError_t cudaMemset3D(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent) {
  return GPUSYM_AS_CUDA(hipMemset3D(pitchedDevPtr, value, extent));
}
cudaError_t cudaMemset3DAsync(cudaPitchedPtr pitchedDevPtr, int value, cudaExtent extent, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMemset3DAsync(pitchedDevPtr, value, extent, stream));
}

// ---- streams and events ----

cudaError_t cudaStreamCreate(cudaStream_t *pStream) { return GPUSYM_AS_CUDA(hipStreamCreate(pStream)); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipStreamCreateWithFlags(pStream, flags));
}
cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags, int priority) {
  return GPUSYM_AS_CUDA(hipStreamCreateWithPriority(pStream, flags, priority));
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) { return GPUSYM_AS_CUDA(hipStreamDestroy(stream)); }
cudaError_t cudaStreamQuery(cudaStream_t stream) { return GPUSYM_AS_CUDA(hipStreamQuery(stream)); }
cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback, void *userData,
                                  unsigned int flags) {
  return GPUSYM_AS_CUDA(
      hipStreamAddCallback(stream, reinterpret_cast<hipStreamCallback_t>(callback), userData, flags));
}
cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData) {
  return GPUSYM_AS_CUDA(hipLaunchHostFunc(stream, fn, userData));
}
cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags) {
  return GPUSYM_AS_CUDA(hipStreamGetFlags(stream, flags));
}
cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority) {
  return GPUSYM_AS_CUDA(hipStreamGetPriority(stream, priority));
}
cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipStreamAttachMemAsync(stream, devPtr, length, flags));
}

cudaError_t cudaEventCreate(cudaEvent_t *event) { return GPUSYM_AS_CUDA(hipEventCreate(event)); }
cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipEventCreateWithFlags(event, flags));
}
cudaError_t cudaEventQuery(cudaEvent_t event) { return GPUSYM_AS_CUDA(hipEventQuery(event)); }
cudaError_t cudaEventSynchronize(cudaEvent_t event) { return GPUSYM_AS_CUDA(hipEventSynchronize(event)); }
cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end) {
  return GPUSYM_AS_CUDA(hipEventElapsedTime(ms, start, end));
}
cudaError_t cudaEventDestroy(cudaEvent_t event) { return GPUSYM_AS_CUDA(hipEventDestroy(event)); }

// ---- launches and kernels ----

cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                             cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipLaunchKernel(func, gridDim, blockDim, args, sharedMem, stream));
}

cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args, size_t sharedMem,
                                        cudaStream_t stream) {
  return GPUSYM_AS_CUDA(
      hipLaunchCooperativeKernel(func, gridDim, blockDim, args, static_cast<unsigned>(sharedMem), stream));
}

// The launch the configuration describes: cooperative when an attribute
// says so; clusters of more than one block the simulated device has not.
cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func, void **args) {
  if (!config || (config->numAttrs && !config->attrs)) return fail(__func__, cudaErrorInvalidValue);
  bool cooperative = false;
  for (unsigned i = 0; i < config->numAttrs; i++) {
    const cudaLaunchAttribute &attr = config->attrs[i];
    if (attr.id == cudaLaunchAttributeCooperative) cooperative = attr.val.cooperative != 0;
    if (attr.id == cudaLaunchAttributeClusterDimension &&
        uint64_t{attr.val.clusterDim.x} * attr.val.clusterDim.y * attr.val.clusterDim.z > 1)
      return fail(__func__, cudaErrorNotSupported);
  }
  if (cooperative)
    return GPUSYM_AS_CUDA(hipLaunchCooperativeKernel(func, config->gridDim, config->blockDim, args,
                                                     static_cast<unsigned>(config->dynamicSmemBytes),
                                                     config->stream));
  return GPUSYM_AS_CUDA(
      hipLaunchKernel(func, config->gridDim, config->blockDim, args, config->dynamicSmemBytes, config->stream));
}

cudaError_t cudaFuncGetAttributes(cudaFuncAttributes *attr, const void *func) {
  if (!attr) return fail(__func__, cudaErrorInvalidValue);
  hipFuncAttributes hip;
  if (cudaError_t error = GPUSYM_AS_CUDA(hipFuncGetAttributes(&hip, func))) return error;
  *attr = cudaFuncAttributes{};
  attr->sharedSizeBytes = hip.sharedSizeBytes;
  attr->constSizeBytes = hip.constSizeBytes;
  attr->localSizeBytes = hip.localSizeBytes;
  attr->maxThreadsPerBlock = hip.maxThreadsPerBlock;
  attr->numRegs = hip.numRegs;
  attr->ptxVersion = cuda_compute_capability();
  attr->binaryVersion = cuda_compute_capability();
  attr->cacheModeCA = hip.cacheModeCA;
  attr->maxDynamicSharedSizeBytes = hip.maxDynamicSharedSizeBytes;
  attr->preferredShmemCarveout = hip.preferredShmemCarveout;
  return cudaSuccess;
}

cudaError_t cudaFuncSetAttribute(const void *func, cudaFuncAttribute attr, int value) {
  if (attr > cudaFuncAttributePreferredSharedMemoryCarveout) return fail(__func__, cudaErrorNotSupported);
  return GPUSYM_AS_CUDA(hipFuncSetAttribute(func, static_cast<hipFuncAttribute>(attr), value));
}
cudaError_t cudaFuncSetCacheConfig(const void *func, cudaFuncCache cacheConfig) {
  return GPUSYM_AS_CUDA(hipFuncSetCacheConfig(func, static_cast<hipFuncCache_t>(cacheConfig)));
}
cudaError_t cudaFuncSetSharedMemConfig(const void *func, cudaSharedMemConfig config) {
  return GPUSYM_AS_CUDA(hipFuncSetSharedMemConfig(func, static_cast<hipSharedMemConfig>(config)));
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, const void *func, int blockSize,
                                                          size_t dynamicSMemSize) {
  return GPUSYM_AS_CUDA(hipOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize, dynamicSMemSize));
}
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks, const void *func, int blockSize,
                                                                   size_t dynamicSMemSize, unsigned int flags) {
  return GPUSYM_AS_CUDA(
      hipOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, func, blockSize, dynamicSMemSize, flags));
}

// ---- profiler: nothing to start on the simulated device ----

cudaError_t cudaProfilerStart(void) { return cudaSuccess; }
cudaError_t cudaProfilerStop(void) { return cudaSuccess; }

}  // extern "C"
