// Calls with no meaning for devices that are threads of this one process:
// interprocess handles, graphs and stream capture,
// memory pools, virtual memory management, managed-memory range attributes,
// link topology, cooperative launches of module functions.  Each answers hipErrorNotSupported, as HIP does for a feature
// a device lacks, so that a program can link, ask, and take another path.
#include "internal.h"

using gpusym::record;

extern "C" {

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *, void *) { return record(hipErrorNotSupported); }
hipError_t hipIpcOpenMemHandle(void **, hipIpcMemHandle_t, unsigned int) { return record(hipErrorNotSupported); }
hipError_t hipIpcCloseMemHandle(void *) { return record(hipErrorNotSupported); }
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *, hipEvent_t) { return record(hipErrorNotSupported); }
hipError_t hipIpcOpenEventHandle(hipEvent_t *, hipIpcEventHandle_t) { return record(hipErrorNotSupported); }

hipError_t hipStreamUpdateCaptureDependencies(hipStream_t, hipGraphNode_t *, size_t, unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipDeviceGetGraphMemAttribute(int, hipGraphMemAttributeType, void *) { return record(hipErrorNotSupported); }
hipError_t hipDeviceSetGraphMemAttribute(int, hipGraphMemAttributeType, void *) { return record(hipErrorNotSupported); }
hipError_t hipDeviceGraphMemTrim(int) { return record(hipErrorNotSupported); }

hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *, int) { return record(hipErrorNotSupported); }
hipError_t hipDeviceGetMemPool(hipMemPool_t *, int) { return record(hipErrorNotSupported); }
hipError_t hipDeviceSetMemPool(int, hipMemPool_t) { return record(hipErrorNotSupported); }
hipError_t hipMemPoolCreate(hipMemPool_t *, const hipMemPoolProps *) { return record(hipErrorNotSupported); }
hipError_t hipMemPoolDestroy(hipMemPool_t) { return record(hipErrorNotSupported); }
hipError_t hipMemPoolSetAttribute(hipMemPool_t, hipMemPoolAttr, void *) { return record(hipErrorNotSupported); }
hipError_t hipMemPoolGetAttribute(hipMemPool_t, hipMemPoolAttr, void *) { return record(hipErrorNotSupported); }
hipError_t hipMemPoolSetAccess(hipMemPool_t, const hipMemAccessDesc *, size_t) { return record(hipErrorNotSupported); }
hipError_t hipMemPoolGetAccess(hipMemAccessFlags *, hipMemPool_t, hipMemLocation *) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemPoolTrimTo(hipMemPool_t, size_t) { return record(hipErrorNotSupported); }
hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData *, void *) { return record(hipErrorNotSupported); }
hipError_t hipMemPoolImportPointer(void **, hipMemPool_t, hipMemPoolPtrExportData *) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemPoolExportToShareableHandle(void *, hipMemPool_t, hipMemAllocationHandleType, unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t *, void *, hipMemAllocationHandleType, unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipMallocFromPoolAsync(void **, size_t, hipMemPool_t, hipStream_t) { return record(hipErrorNotSupported); }

hipError_t hipMemAddressReserve(void **, size_t, size_t, void *, unsigned long long) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemAddressFree(void *, size_t) { return record(hipErrorNotSupported); }
hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *, size_t, const hipMemAllocationProp *, unsigned long long) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemRelease(hipMemGenericAllocationHandle_t) { return record(hipErrorNotSupported); }
hipError_t hipMemMap(void *, size_t, size_t, hipMemGenericAllocationHandle_t, unsigned long long) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemUnmap(void *, size_t) { return record(hipErrorNotSupported); }
hipError_t hipMemSetAccess(void *, size_t, const hipMemAccessDesc *, size_t) { return record(hipErrorNotSupported); }
hipError_t hipMemGetAccess(unsigned long long *, const hipMemLocation *, void *) { return record(hipErrorNotSupported); }
hipError_t hipMemGetAllocationGranularity(size_t *, const hipMemAllocationProp *, hipMemAllocationGranularity_flags) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp *, hipMemGenericAllocationHandle_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemExportToShareableHandle(void *, hipMemGenericAllocationHandle_t, hipMemAllocationHandleType,
                                         unsigned long long) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *, void *, hipMemAllocationHandleType) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *, void *) {
  return record(hipErrorNotSupported);
}

hipError_t hipPointerSetAttribute(const void *, hipPointer_attribute, hipDeviceptr_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemRangeGetAttribute(void *, size_t, hipMemRangeAttribute, const void *, size_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemRangeGetAttributes(void **, size_t *, hipMemRangeAttribute *, size_t, const void *, size_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipExtGetLinkTypeAndHopCount(int, int, uint32_t *, uint32_t *) { return record(hipErrorNotSupported); }
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t, unsigned int, unsigned int, unsigned int, unsigned int,
                                            unsigned int, unsigned int, unsigned int, hipStream_t, void **) {
  return record(hipErrorNotSupported);
}
hipError_t hipModuleLaunchCooperativeKernelMultiDevice(hipFunctionLaunchParams *, unsigned int, unsigned int) {
  return record(hipErrorNotSupported);
}

hipError_t hipProfilerStart(void) { return record(hipErrorNotSupported); }
hipError_t hipProfilerStop(void) { return record(hipErrorNotSupported); }


}  // extern "C"
