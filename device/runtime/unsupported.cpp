// Calls with no meaning for devices that are threads of this one process:
// interprocess handles (memory pools' and virtual memory's shareable handles
// too), graphs and stream capture beyond what works, managed-memory range
// attributes, link topology, cooperative launches of module functions,
// mipmapped and sparse arrays, texture references, external memory and
// semaphores, graphics interop.  Each answers hipErrorNotSupported, as HIP does for a feature
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

// Sharing pools and allocations with other processes.
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
hipError_t hipMemExportToShareableHandle(void *, hipMemGenericAllocationHandle_t, hipMemAllocationHandleType,
                                         unsigned long long) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *, void *, hipMemAllocationHandleType) {
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

// Driver-style texture objects read back, resource views.
hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC *, hipTextureObject_t) { return record(hipErrorNotSupported); }
hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC *, hipTextureObject_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC *, hipTextureObject_t) { return record(hipErrorNotSupported); }
hipError_t hipGetTextureObjectResourceViewDesc(hipResourceViewDesc *, hipTextureObject_t) {
  return record(hipErrorNotSupported);
}

// Mipmapped and sparse arrays.
hipError_t hipMallocMipmappedArray(hipMipmappedArray_t *, const hipChannelFormatDesc *, hipExtent, unsigned int,
                                   unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t) { return record(hipErrorNotSupported); }
hipError_t hipGetMipmappedArrayLevel(hipArray_t *, hipMipmappedArray_const_t, unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t *, HIP_ARRAY3D_DESCRIPTOR *, unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t) { return record(hipErrorNotSupported); }
hipError_t hipMipmappedArrayGetLevel(hipArray_t *, hipMipmappedArray_t, unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipMemMapArrayAsync(hipArrayMapInfo *, unsigned int, hipStream_t) { return record(hipErrorNotSupported); }

// Texture references (texture objects only).
hipError_t hipModuleGetTexRef(textureReference **, hipModule_t, const char *) { return record(hipErrorNotSupported); }

// External memory and semaphores: no other API shares memory with the devices.
hipError_t hipImportExternalMemory(hipExternalMemory_t *, const hipExternalMemoryHandleDesc *) {
  return record(hipErrorNotSupported);
}
hipError_t hipExternalMemoryGetMappedBuffer(void **, hipExternalMemory_t, const hipExternalMemoryBufferDesc *) {
  return record(hipErrorNotSupported);
}
hipError_t hipExternalMemoryGetMappedMipmappedArray(hipMipmappedArray_t *, hipExternalMemory_t,
                                                    const hipExternalMemoryMipmappedArrayDesc *) {
  return record(hipErrorNotSupported);
}
hipError_t hipDestroyExternalMemory(hipExternalMemory_t) { return record(hipErrorNotSupported); }
hipError_t hipImportExternalSemaphore(hipExternalSemaphore_t *, const hipExternalSemaphoreHandleDesc *) {
  return record(hipErrorNotSupported);
}
hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t) { return record(hipErrorNotSupported); }

// Graphics interop: no graphics.
hipError_t hipGraphicsMapResources(int, hipGraphicsResource_t *, hipStream_t) { return record(hipErrorNotSupported); }
hipError_t hipGraphicsUnmapResources(int, hipGraphicsResource_t *, hipStream_t) { return record(hipErrorNotSupported); }
hipError_t hipGraphicsResourceGetMappedPointer(void **, size_t *, hipGraphicsResource_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphicsSubResourceGetMappedArray(hipArray_t *, hipGraphicsResource_t, unsigned int, unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphicsUnregisterResource(hipGraphicsResource_t) { return record(hipErrorNotSupported); }

// Graphs: external semaphore, batch memory operation and driver-style nodes,
// edges, node removal, user objects, dot output.
hipError_t hipGraphAddExternalSemaphoresSignalNode(hipGraphNode_t *, hipGraph_t, const hipGraphNode_t *, size_t,
                                                   const hipExternalSemaphoreSignalNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphAddExternalSemaphoresWaitNode(hipGraphNode_t *, hipGraph_t, const hipGraphNode_t *, size_t,
                                                 const hipExternalSemaphoreWaitNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphAddBatchMemOpNode(hipGraphNode_t *, hipGraph_t, const hipGraphNode_t *, size_t,
                                     const hipBatchMemOpNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t *, hipGraph_t, const hipGraphNode_t *, size_t, const HIP_MEMCPY3D *,
                                    hipCtx_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipDrvGraphAddMemsetNode(hipGraphNode_t *, hipGraph_t, const hipGraphNode_t *, size_t,
                                    const HIP_MEMSET_NODE_PARAMS *, hipCtx_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t *, hipGraph_t, const hipGraphNode_t *, size_t, hipDeviceptr_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphAddDependencies(hipGraph_t, const hipGraphNode_t *, const hipGraphNode_t *, size_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphRemoveDependencies(hipGraph_t, const hipGraphNode_t *, const hipGraphNode_t *, size_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphDestroyNode(hipGraphNode_t) { return record(hipErrorNotSupported); }
hipError_t hipGraphRetainUserObject(hipGraph_t, hipUserObject_t, unsigned int, unsigned int) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphReleaseUserObject(hipGraph_t, hipUserObject_t, unsigned int) { return record(hipErrorNotSupported); }
hipError_t hipGraphDebugDotPrint(hipGraph_t, const char *, unsigned int) { return record(hipErrorNotSupported); }

// Inspecting and changing nodes.
hipError_t hipGraphGetRootNodes(hipGraph_t, hipGraphNode_t *, size_t *) { return record(hipErrorNotSupported); }
hipError_t hipGraphGetEdges(hipGraph_t, hipGraphNode_t *, hipGraphNode_t *, size_t *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphNodeGetDependencies(hipGraphNode_t, hipGraphNode_t *, size_t *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t, hipGraphNode_t *, size_t *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t, hipGraphNode_t, unsigned int *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t, hipGraphNode_t, unsigned int) { return record(hipErrorNotSupported); }
hipError_t hipGraphNodeSetParams(hipGraphNode_t, hipGraphNodeParams *) { return record(hipErrorNotSupported); }
hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t, hipKernelNodeParams *) { return record(hipErrorNotSupported); }
hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t, const hipKernelNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphKernelNodeGetAttribute(hipGraphNode_t, hipLaunchAttributeID, hipLaunchAttributeValue *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphKernelNodeSetAttribute(hipGraphNode_t, hipLaunchAttributeID, const hipLaunchAttributeValue *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphKernelNodeCopyAttributes(hipGraphNode_t, hipGraphNode_t) { return record(hipErrorNotSupported); }
hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t, hipMemcpy3DParms *) { return record(hipErrorNotSupported); }
hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t, const hipMemcpy3DParms *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t, void *, const void *, size_t, hipMemcpyKind) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t, const void *, const void *, size_t, size_t,
                                               hipMemcpyKind) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t, void *, const void *, size_t, size_t, hipMemcpyKind) {
  return record(hipErrorNotSupported);
}
hipError_t hipDrvGraphMemcpyNodeGetParams(hipGraphNode_t, HIP_MEMCPY3D *) { return record(hipErrorNotSupported); }
hipError_t hipDrvGraphMemcpyNodeSetParams(hipGraphNode_t, const HIP_MEMCPY3D *) { return record(hipErrorNotSupported); }
hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t, hipMemsetParams *) { return record(hipErrorNotSupported); }
hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t, const hipMemsetParams *) { return record(hipErrorNotSupported); }
hipError_t hipGraphHostNodeGetParams(hipGraphNode_t, hipHostNodeParams *) { return record(hipErrorNotSupported); }
hipError_t hipGraphHostNodeSetParams(hipGraphNode_t, const hipHostNodeParams *) { return record(hipErrorNotSupported); }
hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t, hipEvent_t) { return record(hipErrorNotSupported); }
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t, hipEvent_t) { return record(hipErrorNotSupported); }
hipError_t hipGraphExternalSemaphoresSignalNodeGetParams(hipGraphNode_t, hipExternalSemaphoreSignalNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExternalSemaphoresSignalNodeSetParams(hipGraphNode_t, const hipExternalSemaphoreSignalNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExternalSemaphoresWaitNodeGetParams(hipGraphNode_t, hipExternalSemaphoreWaitNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExternalSemaphoresWaitNodeSetParams(hipGraphNode_t, const hipExternalSemaphoreWaitNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphBatchMemOpNodeGetParams(hipGraphNode_t, hipBatchMemOpNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphBatchMemOpNodeSetParams(hipGraphNode_t, hipBatchMemOpNodeParams *) {
  return record(hipErrorNotSupported);
}

// Changing instantiated graphs.
hipError_t hipGraphExecGetFlags(hipGraphExec_t, unsigned long long *) { return record(hipErrorNotSupported); }
hipError_t hipGraphExecUpdate(hipGraphExec_t, hipGraph_t, hipGraphNode_t *, hipGraphExecUpdateResult *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecNodeSetParams(hipGraphExec_t, hipGraphNode_t, hipGraphNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t, hipGraphNode_t, const hipKernelNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t, hipGraphNode_t, hipMemcpy3DParms *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t, hipGraphNode_t, void *, const void *, size_t,
                                             hipMemcpyKind) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t, hipGraphNode_t, const void *, const void *, size_t,
                                                   size_t, hipMemcpyKind) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t, hipGraphNode_t, void *, const void *, size_t,
                                                     size_t, hipMemcpyKind) {
  return record(hipErrorNotSupported);
}
hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t, hipGraphNode_t, const HIP_MEMCPY3D *, hipCtx_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t, hipGraphNode_t, const hipMemsetParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t, hipGraphNode_t, const HIP_MEMSET_NODE_PARAMS *,
                                              hipCtx_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t, hipGraphNode_t, const hipHostNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t, hipGraphNode_t, hipGraph_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t, hipGraphNode_t, hipEvent_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t, hipGraphNode_t, hipEvent_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecExternalSemaphoresSignalNodeSetParams(hipGraphExec_t, hipGraphNode_t,
                                                             const hipExternalSemaphoreSignalNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecExternalSemaphoresWaitNodeSetParams(hipGraphExec_t, hipGraphNode_t,
                                                           const hipExternalSemaphoreWaitNodeParams *) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphExecBatchMemOpNodeSetParams(hipGraphExec_t, hipGraphNode_t, const hipBatchMemOpNodeParams *) {
  return record(hipErrorNotSupported);
}

// External semaphores in streams.
hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t *, const hipExternalSemaphoreSignalParams *,
                                            unsigned int, hipStream_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t *, const hipExternalSemaphoreWaitParams *,
                                          unsigned int, hipStream_t) {
  return record(hipErrorNotSupported);
}

}  // extern "C"
