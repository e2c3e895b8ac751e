/*
 * HIP's graph API beyond capture and launch: graphs built node by node,
 * their nodes' parameters, edges and instantiation parameters, and batched
 * stream memory operations, with HIP's names, layouts and signatures.
 * Included by hip/hip_runtime_api.h; usable from C and C++.  Which calls
 * work is said in docs/runtime.md (graphs); the others answer
 * hipErrorNotSupported.
 */
#ifndef GPUSYM_DETAIL_RUNTIME_API_GRAPHS_H
#define GPUSYM_DETAIL_RUNTIME_API_GRAPHS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- external semaphores' parameters (graph nodes take them too) ---- */

typedef struct hipExternalSemaphoreSignalParams_st {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
    } keyedMutex;
    unsigned int reserved[12];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreSignalParams;

typedef struct hipExternalSemaphoreWaitParams_st {
  struct {
    struct {
      unsigned long long value;
    } fence;
    union {
      void *fence;
      unsigned long long reserved;
    } nvSciSync;
    struct {
      unsigned long long key;
      unsigned int timeoutMs;
    } keyedMutex;
    unsigned int reserved[10];
  } params;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreWaitParams;

/* ---- batched stream memory operations ---- */

typedef union hipStreamBatchMemOpParams_union {
  hipStreamBatchMemOpType operation;
  struct hipStreamMemOpWaitValueParams_t {
    hipStreamBatchMemOpType operation;
    hipDeviceptr_t address;
    union {
      uint32_t value;
      uint64_t value64;
    };
    unsigned int flags;
    hipDeviceptr_t alias;
  } waitValue;
  struct hipStreamMemOpWriteValueParams_t {
    hipStreamBatchMemOpType operation;
    hipDeviceptr_t address;
    union {
      uint32_t value;
      uint64_t value64;
    };
    unsigned int flags;
    hipDeviceptr_t alias;
  } writeValue;
  struct hipStreamMemOpFlushRemoteWritesParams_t {
    hipStreamBatchMemOpType operation;
    unsigned int flags;
  } flushRemoteWrites;
  struct hipStreamMemOpMemoryBarrierParams_t {
    hipStreamBatchMemOpType operation;
    unsigned int flags;
  } memoryBarrier;
  uint64_t pad[6];
} hipStreamBatchMemOpParams;

/* ---- node parameters ---- */

typedef struct hipKernelNodeParams {
  dim3 blockDim;
  void **extra;
  void *func;
  dim3 gridDim;
  void **kernelParams;
  unsigned int sharedMemBytes;
} hipKernelNodeParams;

typedef struct hipMemsetParams {
  void *dst;
  unsigned int elementSize;
  size_t height;
  size_t pitch;
  unsigned int value;
  size_t width;
} hipMemsetParams;

typedef struct HIP_MEMSET_NODE_PARAMS {
  hipDeviceptr_t dst;
  size_t pitch;
  unsigned int value;
  unsigned int elementSize;
  size_t width;
  size_t height;
} HIP_MEMSET_NODE_PARAMS;

typedef struct hipHostNodeParams {
  hipHostFn_t fn;
  void *userData;
} hipHostNodeParams;

typedef struct hipMemcpyNodeParams {
  int flags;
  int reserved[3];
  hipMemcpy3DParms copyParams;
} hipMemcpyNodeParams;

typedef struct hipChildGraphNodeParams {
  hipGraph_t graph;
} hipChildGraphNodeParams;

typedef struct hipEventWaitNodeParams {
  hipEvent_t event;
} hipEventWaitNodeParams;

typedef struct hipEventRecordNodeParams {
  hipEvent_t event;
} hipEventRecordNodeParams;

typedef struct hipMemAllocNodeParams {
  hipMemPoolProps poolProps;
  const hipMemAccessDesc *accessDescs;
  size_t accessDescCount;
  size_t bytesize;
  void *dptr;
} hipMemAllocNodeParams;

typedef struct hipMemFreeNodeParams {
  void *dptr;
} hipMemFreeNodeParams;

typedef struct hipExternalSemaphoreSignalNodeParams {
  hipExternalSemaphore_t *extSemArray;
  const hipExternalSemaphoreSignalParams *paramsArray;
  unsigned int numExtSems;
} hipExternalSemaphoreSignalNodeParams;

typedef struct hipExternalSemaphoreWaitNodeParams {
  hipExternalSemaphore_t *extSemArray;
  const hipExternalSemaphoreWaitParams *paramsArray;
  unsigned int numExtSems;
} hipExternalSemaphoreWaitNodeParams;

typedef struct hipBatchMemOpNodeParams {
  hipCtx_t ctx;
  unsigned int count;
  hipStreamBatchMemOpParams *paramArray;
  unsigned int flags;
} hipBatchMemOpNodeParams;

/* Any node's parameters, by its type (hipGraphAddNode). */
typedef struct hipGraphNodeParams {
  hipGraphNodeType type;
  int reserved0[3];
  union {
    long long reserved1[29];
    hipKernelNodeParams kernel;
    hipMemcpyNodeParams memcpy;
    hipMemsetParams memset;
    hipHostNodeParams host;
    hipChildGraphNodeParams graph;
    hipEventWaitNodeParams eventWait;
    hipEventRecordNodeParams eventRecord;
    hipExternalSemaphoreSignalNodeParams extSemSignal;
    hipExternalSemaphoreWaitNodeParams extSemWait;
    hipMemAllocNodeParams alloc;
    hipMemFreeNodeParams free;
  };
  long long reserved2;
} hipGraphNodeParams;

typedef struct hipGraphEdgeData {
  unsigned char from_port;
  unsigned char reserved[5];
  unsigned char to_port;
  unsigned char type; /* hipGraphDependencyType */
} hipGraphEdgeData;

typedef struct hipGraphInstantiateParams {
  hipGraphNode_t errNode_out;
  unsigned long long flags;
  hipGraphInstantiateResult result_out;
  hipStream_t uploadStream;
} hipGraphInstantiateParams;

typedef union hipLaunchAttributeValue {
  hipAccessPolicyWindow accessPolicyWindow;
  int cooperative;
  int priority;
} hipLaunchAttributeValue;
#define hipKernelNodeAttrValue hipLaunchAttributeValue

/* ---- building graphs ---- */

hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph, const hipGraphNode_t *dependencies,
                                        const hipGraphEdgeData *dependencyData, size_t numDependencies,
                                        hipStreamCaptureMode mode);
hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                 size_t numDependencies, const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                 size_t numDependencies, const hipMemcpy3DParms *pCopyParams);
hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                   size_t numDependencies, void *dst, const void *src, size_t count,
                                   hipMemcpyKind kind);
hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                         const hipGraphNode_t *pDependencies, size_t numDependencies,
                                         const void *symbol, const void *src, size_t count, size_t offset,
                                         hipMemcpyKind kind);
hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                           const hipGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                           const void *symbol, size_t count, size_t offset, hipMemcpyKind kind);
hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                 size_t numDependencies, const hipMemsetParams *pMemsetParams);
hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                               size_t numDependencies, const hipHostNodeParams *pNodeParams);
hipError_t hipGraphAddNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                           size_t numDependencies, hipGraphNodeParams *nodeParams);
hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                size_t numDependencies);
hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                     const hipGraphNode_t *pDependencies, size_t numDependencies,
                                     hipGraph_t childGraph);
hipError_t hipGraphAddEventRecordNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                      const hipGraphNode_t *pDependencies, size_t numDependencies, hipEvent_t event);
hipError_t hipGraphAddEventWaitNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                    size_t numDependencies, hipEvent_t event);
hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                   size_t numDependencies, hipMemAllocNodeParams *pNodeParams);
hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                  size_t numDependencies, void *dev_ptr);
hipError_t hipGraphAddExternalSemaphoresSignalNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                   const hipGraphNode_t *pDependencies, size_t numDependencies,
                                                   const hipExternalSemaphoreSignalNodeParams *nodeParams);
hipError_t hipGraphAddExternalSemaphoresWaitNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                                 const hipGraphNode_t *pDependencies, size_t numDependencies,
                                                 const hipExternalSemaphoreWaitNodeParams *nodeParams);
hipError_t hipGraphAddBatchMemOpNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                     const hipGraphNode_t *dependencies, size_t numDependencies,
                                     const hipBatchMemOpNodeParams *nodeParams);
hipError_t hipDrvGraphAddMemcpyNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                    const hipGraphNode_t *dependencies, size_t numDependencies,
                                    const HIP_MEMCPY3D *copyParams, hipCtx_t ctx);
hipError_t hipDrvGraphAddMemsetNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                    const hipGraphNode_t *dependencies, size_t numDependencies,
                                    const HIP_MEMSET_NODE_PARAMS *memsetParams, hipCtx_t ctx);
hipError_t hipDrvGraphAddMemFreeNode(hipGraphNode_t *phGraphNode, hipGraph_t hGraph,
                                     const hipGraphNode_t *dependencies, size_t numDependencies,
                                     hipDeviceptr_t dptr);
hipError_t hipGraphAddDependencies(hipGraph_t graph, const hipGraphNode_t *from, const hipGraphNode_t *to,
                                   size_t numDependencies);
hipError_t hipGraphRemoveDependencies(hipGraph_t graph, const hipGraphNode_t *from, const hipGraphNode_t *to,
                                      size_t numDependencies);
hipError_t hipGraphDestroyNode(hipGraphNode_t node);
hipError_t hipGraphClone(hipGraph_t *pGraphClone, hipGraph_t originalGraph);
hipError_t hipGraphNodeFindInClone(hipGraphNode_t *pNode, hipGraphNode_t originalNode, hipGraph_t clonedGraph);
hipError_t hipGraphRetainUserObject(hipGraph_t graph, hipUserObject_t object, unsigned int count __GPUSYM_DEFAULT(1),
                                    unsigned int flags __GPUSYM_DEFAULT(0));
hipError_t hipGraphReleaseUserObject(hipGraph_t graph, hipUserObject_t object,
                                     unsigned int count __GPUSYM_DEFAULT(1));
hipError_t hipGraphDebugDotPrint(hipGraph_t graph, const char *path, unsigned int flags);

/* ---- inspecting graphs and nodes ---- */

hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t *nodes, size_t *numNodes);
hipError_t hipGraphGetRootNodes(hipGraph_t graph, hipGraphNode_t *pRootNodes, size_t *pNumRootNodes);
hipError_t hipGraphGetEdges(hipGraph_t graph, hipGraphNode_t *from, hipGraphNode_t *to, size_t *numEdges);
hipError_t hipGraphNodeGetDependencies(hipGraphNode_t node, hipGraphNode_t *pDependencies, size_t *pNumDependencies);
hipError_t hipGraphNodeGetDependentNodes(hipGraphNode_t node, hipGraphNode_t *pDependentNodes,
                                         size_t *pNumDependentNodes);
hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType *pType);
hipError_t hipGraphNodeGetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int *isEnabled);
hipError_t hipGraphNodeSetEnabled(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, unsigned int isEnabled);
hipError_t hipGraphNodeSetParams(hipGraphNode_t node, hipGraphNodeParams *nodeParams);
hipError_t hipGraphKernelNodeGetParams(hipGraphNode_t node, hipKernelNodeParams *pNodeParams);
hipError_t hipGraphKernelNodeSetParams(hipGraphNode_t node, const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphKernelNodeGetAttribute(hipGraphNode_t hNode, hipLaunchAttributeID attr,
                                          hipLaunchAttributeValue *value);
hipError_t hipGraphKernelNodeSetAttribute(hipGraphNode_t hNode, hipLaunchAttributeID attr,
                                          const hipLaunchAttributeValue *value);
hipError_t hipGraphKernelNodeCopyAttributes(hipGraphNode_t hSrc, hipGraphNode_t hDst);
hipError_t hipGraphMemcpyNodeGetParams(hipGraphNode_t node, hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphMemcpyNodeSetParams(hipGraphNode_t node, const hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphMemcpyNodeSetParams1D(hipGraphNode_t node, void *dst, const void *src, size_t count,
                                         hipMemcpyKind kind);
hipError_t hipGraphMemcpyNodeSetParamsToSymbol(hipGraphNode_t node, const void *symbol, const void *src, size_t count,
                                               size_t offset, hipMemcpyKind kind);
hipError_t hipGraphMemcpyNodeSetParamsFromSymbol(hipGraphNode_t node, void *dst, const void *symbol, size_t count,
                                                 size_t offset, hipMemcpyKind kind);
hipError_t hipDrvGraphMemcpyNodeGetParams(hipGraphNode_t hNode, HIP_MEMCPY3D *nodeParams);
hipError_t hipDrvGraphMemcpyNodeSetParams(hipGraphNode_t hNode, const HIP_MEMCPY3D *nodeParams);
hipError_t hipGraphMemsetNodeGetParams(hipGraphNode_t node, hipMemsetParams *pNodeParams);
hipError_t hipGraphMemsetNodeSetParams(hipGraphNode_t node, const hipMemsetParams *pNodeParams);
hipError_t hipGraphHostNodeGetParams(hipGraphNode_t node, hipHostNodeParams *pNodeParams);
hipError_t hipGraphHostNodeSetParams(hipGraphNode_t node, const hipHostNodeParams *pNodeParams);
hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t *pGraph);
hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out);
hipError_t hipGraphEventRecordNodeSetEvent(hipGraphNode_t node, hipEvent_t event);
hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out);
hipError_t hipGraphEventWaitNodeSetEvent(hipGraphNode_t node, hipEvent_t event);
hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node, hipMemAllocNodeParams *pNodeParams);
hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void *dev_ptr);
hipError_t hipGraphExternalSemaphoresSignalNodeGetParams(hipGraphNode_t hNode,
                                                         hipExternalSemaphoreSignalNodeParams *params_out);
hipError_t hipGraphExternalSemaphoresSignalNodeSetParams(hipGraphNode_t hNode,
                                                         const hipExternalSemaphoreSignalNodeParams *nodeParams);
hipError_t hipGraphExternalSemaphoresWaitNodeGetParams(hipGraphNode_t hNode,
                                                       hipExternalSemaphoreWaitNodeParams *params_out);
hipError_t hipGraphExternalSemaphoresWaitNodeSetParams(hipGraphNode_t hNode,
                                                       const hipExternalSemaphoreWaitNodeParams *nodeParams);
hipError_t hipGraphBatchMemOpNodeGetParams(hipGraphNode_t hNode, hipBatchMemOpNodeParams *nodeParams_out);
hipError_t hipGraphBatchMemOpNodeSetParams(hipGraphNode_t hNode, hipBatchMemOpNodeParams *nodeParams);

/* ---- instantiated graphs ---- */

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pGraphExec, hipGraph_t graph, unsigned long long flags);
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                         hipGraphInstantiateParams *instantiateParams);
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream);
hipError_t hipGraphExecGetFlags(hipGraphExec_t graphExec, unsigned long long *flags);
hipError_t hipGraphExecUpdate(hipGraphExec_t hGraphExec, hipGraph_t hGraph, hipGraphNode_t *hErrorNode_out,
                              hipGraphExecUpdateResult *updateResult_out);
hipError_t hipGraphExecNodeSetParams(hipGraphExec_t graphExec, hipGraphNode_t node, hipGraphNodeParams *nodeParams);
hipError_t hipGraphExecKernelNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipKernelNodeParams *pNodeParams);
hipError_t hipGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           hipMemcpy3DParms *pNodeParams);
hipError_t hipGraphExecMemcpyNodeSetParams1D(hipGraphExec_t hGraphExec, hipGraphNode_t node, void *dst,
                                             const void *src, size_t count, hipMemcpyKind kind);
hipError_t hipGraphExecMemcpyNodeSetParamsToSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                                   const void *symbol, const void *src, size_t count, size_t offset,
                                                   hipMemcpyKind kind);
hipError_t hipGraphExecMemcpyNodeSetParamsFromSymbol(hipGraphExec_t hGraphExec, hipGraphNode_t node, void *dst,
                                                     const void *symbol, size_t count, size_t offset,
                                                     hipMemcpyKind kind);
hipError_t hipDrvGraphExecMemcpyNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const HIP_MEMCPY3D *copyParams, hipCtx_t ctx);
hipError_t hipGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                           const hipMemsetParams *pNodeParams);
hipError_t hipDrvGraphExecMemsetNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                              const HIP_MEMSET_NODE_PARAMS *memsetParams, hipCtx_t ctx);
hipError_t hipGraphExecHostNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node,
                                         const hipHostNodeParams *pNodeParams);
hipError_t hipGraphExecChildGraphNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t node, hipGraph_t childGraph);
hipError_t hipGraphExecEventRecordNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event);
hipError_t hipGraphExecEventWaitNodeSetEvent(hipGraphExec_t hGraphExec, hipGraphNode_t hNode, hipEvent_t event);
hipError_t hipGraphExecExternalSemaphoresSignalNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                                             const hipExternalSemaphoreSignalNodeParams *nodeParams);
hipError_t hipGraphExecExternalSemaphoresWaitNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                                           const hipExternalSemaphoreWaitNodeParams *nodeParams);
hipError_t hipGraphExecBatchMemOpNodeSetParams(hipGraphExec_t hGraphExec, hipGraphNode_t hNode,
                                               const hipBatchMemOpNodeParams *nodeParams);

/* ---- stream operations: batched memory operations, external semaphores ---- */

hipError_t hipSignalExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                            const hipExternalSemaphoreSignalParams *paramsArray,
                                            unsigned int numExtSems, hipStream_t stream);
hipError_t hipWaitExternalSemaphoresAsync(const hipExternalSemaphore_t *extSemArray,
                                          const hipExternalSemaphoreWaitParams *paramsArray, unsigned int numExtSems,
                                          hipStream_t stream);
hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count, hipStreamBatchMemOpParams *paramArray,
                               unsigned int flags);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
