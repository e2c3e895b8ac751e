// HIP's stream capture and graphs: the capture machinery of cuda_graphs.cpp,
// whose handles and enumerations HIP shares (hipGraph_t is cudaGraph_t,
// hipStreamCaptureMode cudaStreamCaptureMode), under HIP's names: a
// failure is recorded as the HIP function the program called.
#include <vector>

#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

namespace {

hipError_t as_hip(cudaError_t error) { return static_cast<hipError_t>(error); }

}  // namespace

extern "C" {

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  ApiCall named(__func__);
  return as_hip(cudaStreamBeginCapture(stream, static_cast<cudaStreamCaptureMode>(mode)));
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph) {
  ApiCall named(__func__);
  return as_hip(cudaStreamEndCapture(stream, pGraph));
}

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus) {
  ApiCall named(__func__);
  return as_hip(cudaStreamIsCapturing(stream, reinterpret_cast<cudaStreamCaptureStatus *>(pCaptureStatus)));
}

hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
                                   unsigned long long *pId) {
  ApiCall named(__func__);
  auto *status = reinterpret_cast<cudaStreamCaptureStatus *>(pCaptureStatus);
  return as_hip(cudaStreamGetCaptureInfo(stream, status, pId, nullptr, nullptr, nullptr));
}

hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags) {
  ApiCall named(__func__);
  return as_hip(cudaGraphCreate(pGraph, flags));
}

hipError_t hipGraphDestroy(hipGraph_t graph) {
  ApiCall named(__func__);
  return as_hip(cudaGraphDestroy(graph));
}

// The error node and log are never written: instantiating cannot fail on a
// graph made by capture.
hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec, hipGraph_t graph, hipGraphNode_t *, char *, size_t) {
  ApiCall named(__func__);
  return as_hip(cudaGraphInstantiate(pGraphExec, graph, 0ull));
}

hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream) {
  ApiCall named(__func__);
  return as_hip(cudaGraphLaunch(graphExec, stream));
}

hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec) {
  ApiCall named(__func__);
  return as_hip(cudaGraphExecDestroy(graphExec));
}

}  // extern "C"

static_assert(int(hipStreamCaptureModeRelaxed) == int(cudaStreamCaptureModeRelaxed) &&
                  int(hipStreamCaptureStatusInvalidated) == int(cudaStreamCaptureStatusInvalidated),
              "HIP's capture enumerations have CUDA's values");

// ---- graphs built node by node ----
//
// A node is added by capturing, into the graph, a stream of the call's own
// on which the node's work is queued as the program would queue it (the
// launch and copy paths check it and build its operation).  A graph's work
// is replayed in the order it was added, and a node's dependencies must be
// in the graph before it is added: that order respects every dependency, so
// the dependencies given are not kept.

namespace {

// The nodes of `graph`, in the order added.
hipError_t nodes_of(hipGraph_t graph, std::vector<hipGraphNode_t> &nodes) {
  size_t count = 0;
  if (hipError_t error = hipGraphGetNodes(graph, nullptr, &count)) return error;
  nodes.resize(count);
  return hipGraphGetNodes(graph, nodes.data(), &count);
}

// Adds to `graph` the one operation that `queue` queues on the stream it
// is given, and sets *node to it.  Work that queues nothing (an empty copy)
// makes no node: hipErrorNotSupported.
template <typename Queue>
hipError_t add_node(hipGraphNode_t *node, hipGraph_t graph, Queue queue) {
  std::vector<hipGraphNode_t> before, after;
  if (!node) return record(hipErrorInvalidValue);
  if (hipError_t error = nodes_of(graph, before)) return error;
  hipStream_t stream = nullptr;
  if (hipError_t error = hipStreamCreateWithFlags(&stream, hipStreamNonBlocking)) return error;
  hipError_t error = hipStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 0, hipStreamCaptureModeRelaxed);
  hipError_t queued = error ? error : queue(stream);
  hipGraph_t captured = nullptr;
  if (!error) error = hipStreamEndCapture(stream, &captured);
  hipStreamDestroy(stream);
  if (queued || error) return queued ? queued : error;
  if ((error = nodes_of(graph, after))) return error;
  if (after.size() != before.size() + 1) return record(hipErrorNotSupported);
  *node = after.back();
  return hipSuccess;
}

// A memset of `height` rows of `width` elements of 1, 2 or 4 bytes.
hipError_t queue_memset(const hipMemsetParams &p, hipStream_t stream) {
  if (p.elementSize == 1) return hipMemset2DAsync(p.dst, p.pitch, static_cast<int>(p.value), p.width, p.height, stream);
  if (p.height > 1 || (p.elementSize != 2 && p.elementSize != 4)) return record(hipErrorInvalidValue);
  if (p.elementSize == 2) return hipMemsetD16Async(p.dst, static_cast<unsigned short>(p.value), p.width, stream);
  return hipMemsetD32Async(p.dst, static_cast<int>(p.value), p.width, stream);
}

}  // namespace

extern "C" {

hipError_t hipGraphAddKernelNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *, size_t,
                                 const hipKernelNodeParams *p) {
  ApiCall named(__func__);
  if (!p) return record(hipErrorInvalidValue);
  return add_node(pGraphNode, graph, [p](hipStream_t stream) {
    return hipModuleLaunchKernel(static_cast<hipFunction_t>(p->func), p->gridDim.x, p->gridDim.y, p->gridDim.z,
                                 p->blockDim.x, p->blockDim.y, p->blockDim.z, p->sharedMemBytes, stream,
                                 p->kernelParams, p->extra);
  });
}

hipError_t hipGraphAddMemcpyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *, size_t,
                                 const hipMemcpy3DParms *p) {
  ApiCall named(__func__);
  return add_node(pGraphNode, graph, [p](hipStream_t stream) { return hipMemcpy3DAsync(p, stream); });
}

hipError_t hipGraphAddMemcpyNode1D(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *, size_t,
                                   void *dst, const void *src, size_t count, hipMemcpyKind kind) {
  ApiCall named(__func__);
  return add_node(pGraphNode, graph,
                  [=](hipStream_t stream) { return hipMemcpyAsync(dst, src, count, kind, stream); });
}

hipError_t hipGraphAddMemcpyNodeToSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *,
                                         size_t, const void *symbol, const void *src, size_t count, size_t offset,
                                         hipMemcpyKind kind) {
  ApiCall named(__func__);
  return add_node(pGraphNode, graph, [=](hipStream_t stream) {
    return hipMemcpyToSymbolAsync(symbol, src, count, offset, kind, stream);
  });
}

hipError_t hipGraphAddMemcpyNodeFromSymbol(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *,
                                           size_t, void *dst, const void *symbol, size_t count, size_t offset,
                                           hipMemcpyKind kind) {
  ApiCall named(__func__);
  return add_node(pGraphNode, graph, [=](hipStream_t stream) {
    return hipMemcpyFromSymbolAsync(dst, symbol, count, offset, kind, stream);
  });
}

// Rows of 2- and 4-byte elements: one row only.
hipError_t hipGraphAddMemsetNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *, size_t,
                                 const hipMemsetParams *p) {
  ApiCall named(__func__);
  if (!p) return record(hipErrorInvalidValue);
  return add_node(pGraphNode, graph, [p](hipStream_t stream) { return queue_memset(*p, stream); });
}

hipError_t hipGraphAddHostNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *, size_t,
                               const hipHostNodeParams *p) {
  ApiCall named(__func__);
  if (!p) return record(hipErrorInvalidValue);
  return add_node(pGraphNode, graph, [p](hipStream_t stream) { return hipLaunchHostFunc(stream, p->fn, p->userData); });
}

// Every kind but external semaphores' (hipErrorNotSupported).
hipError_t hipGraphAddNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *dependencies,
                           size_t count, hipGraphNodeParams *p) {
  if (!p) return record(hipErrorInvalidValue);
  switch (p->type) {
    case hipGraphNodeTypeKernel: return hipGraphAddKernelNode(pGraphNode, graph, dependencies, count, &p->kernel);
    case hipGraphNodeTypeMemcpy:
      return hipGraphAddMemcpyNode(pGraphNode, graph, dependencies, count, &p->memcpy.copyParams);
    case hipGraphNodeTypeMemset: return hipGraphAddMemsetNode(pGraphNode, graph, dependencies, count, &p->memset);
    case hipGraphNodeTypeHost: return hipGraphAddHostNode(pGraphNode, graph, dependencies, count, &p->host);
    case hipGraphNodeTypeEmpty: return hipGraphAddEmptyNode(pGraphNode, graph, dependencies, count);
    case hipGraphNodeTypeGraph:
      return hipGraphAddChildGraphNode(pGraphNode, graph, dependencies, count, p->graph.graph);
    case hipGraphNodeTypeEventRecord:
      return hipGraphAddEventRecordNode(pGraphNode, graph, dependencies, count, p->eventRecord.event);
    case hipGraphNodeTypeWaitEvent:
      return hipGraphAddEventWaitNode(pGraphNode, graph, dependencies, count, p->eventWait.event);
    case hipGraphNodeTypeMemAlloc: return hipGraphAddMemAllocNode(pGraphNode, graph, dependencies, count, &p->alloc);
    case hipGraphNodeTypeMemFree: return hipGraphAddMemFreeNode(pGraphNode, graph, dependencies, count, p->free.dptr);
    default: return record(hipErrorNotSupported);
  }
}

hipError_t hipGraphGetNodes(hipGraph_t graph, hipGraphNode_t *nodes, size_t *numNodes) {
  ApiCall named(__func__);
  return as_hip(cudaGraphGetNodes(graph, reinterpret_cast<cudaGraphNode_t *>(nodes), numNodes));
}

hipError_t hipGraphInstantiateWithFlags(hipGraphExec_t *pGraphExec, hipGraph_t graph, unsigned long long flags) {
  ApiCall named(__func__);
  return as_hip(cudaGraphInstantiate(pGraphExec, graph, flags));
}

// The result is written; the upload stream has nothing to do (see hipGraphUpload).
hipError_t hipGraphInstantiateWithParams(hipGraphExec_t *pGraphExec, hipGraph_t graph,
                                         hipGraphInstantiateParams *params) {
  ApiCall named(__func__);
  if (!params) return record(hipErrorInvalidValue);
  hipError_t error = as_hip(cudaGraphInstantiate(pGraphExec, graph, params->flags));
  params->errNode_out = nullptr;
  params->result_out = error ? hipGraphInstantiateError : hipGraphInstantiateSuccess;
  return error;
}

// The device's memory is the host's: nothing to upload.
hipError_t hipGraphUpload(hipGraphExec_t graphExec, hipStream_t stream) {
  ApiCall named(__func__);
  return as_hip(cudaGraphUpload(graphExec, stream));
}

}  // extern "C"

// ---- nodes of other kinds, clones and graph memory: cuda_graphs.cpp's,
// graph_nodes.cpp's and graph_memory.cpp's ----

static_assert(int(hipGraphNodeTypeMemFree) == int(cudaGraphNodeTypeMemFree) &&
                  int(hipGraphMemAttrReservedMemHigh) == int(cudaGraphMemAttrReservedMemHigh),
              "HIP's node types and graph memory attributes have CUDA's values");

namespace {

cudaGraphNode_t *as_cuda(hipGraphNode_t *node) { return reinterpret_cast<cudaGraphNode_t *>(node); }
const cudaGraphNode_t *as_cuda(const hipGraphNode_t *node) { return reinterpret_cast<const cudaGraphNode_t *>(node); }
cudaGraphNode_t as_cuda(hipGraphNode_t node) { return reinterpret_cast<cudaGraphNode_t>(node); }

}  // namespace

extern "C" {

hipError_t hipGraphAddEmptyNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                size_t numDependencies) {
  ApiCall named(__func__);
  return as_hip(cudaGraphAddEmptyNode(as_cuda(pGraphNode), graph, as_cuda(pDependencies), numDependencies));
}

hipError_t hipGraphAddChildGraphNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                     size_t numDependencies, hipGraph_t childGraph) {
  ApiCall named(__func__);
  return as_hip(
      cudaGraphAddChildGraphNode(as_cuda(pGraphNode), graph, as_cuda(pDependencies), numDependencies, childGraph));
}

hipError_t hipGraphChildGraphNodeGetGraph(hipGraphNode_t node, hipGraph_t *pGraph) {
  ApiCall named(__func__);
  return as_hip(cudaGraphChildGraphNodeGetGraph(as_cuda(node), pGraph));
}

hipError_t hipGraphAddEventRecordNode(hipGraphNode_t *pGraphNode, hipGraph_t graph,
                                      const hipGraphNode_t *pDependencies, size_t numDependencies, hipEvent_t event) {
  ApiCall named(__func__);
  return as_hip(
      cudaGraphAddEventRecordNode(as_cuda(pGraphNode), graph, as_cuda(pDependencies), numDependencies, event));
}

hipError_t hipGraphAddEventWaitNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                    size_t numDependencies, hipEvent_t event) {
  ApiCall named(__func__);
  return as_hip(cudaGraphAddEventWaitNode(as_cuda(pGraphNode), graph, as_cuda(pDependencies), numDependencies, event));
}

hipError_t hipGraphEventRecordNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out) {
  ApiCall named(__func__);
  return as_hip(cudaGraphEventRecordNodeGetEvent(as_cuda(node), event_out));
}

hipError_t hipGraphEventWaitNodeGetEvent(hipGraphNode_t node, hipEvent_t *event_out) {
  ApiCall named(__func__);
  return as_hip(cudaGraphEventWaitNodeGetEvent(as_cuda(node), event_out));
}

hipError_t hipGraphNodeGetType(hipGraphNode_t node, hipGraphNodeType *pType) {
  ApiCall named(__func__);
  return as_hip(cudaGraphNodeGetType(as_cuda(node), reinterpret_cast<cudaGraphNodeType *>(pType)));
}

hipError_t hipGraphClone(hipGraph_t *pGraphClone, hipGraph_t originalGraph) {
  ApiCall named(__func__);
  return as_hip(cudaGraphClone(pGraphClone, originalGraph));
}

hipError_t hipGraphNodeFindInClone(hipGraphNode_t *pNode, hipGraphNode_t originalNode, hipGraph_t clonedGraph) {
  ApiCall named(__func__);
  return as_hip(cudaGraphNodeFindInClone(as_cuda(pNode), as_cuda(originalNode), clonedGraph));
}

hipError_t hipGraphAddMemAllocNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                   size_t numDependencies, hipMemAllocNodeParams *pNodeParams) {
  ApiCall named(__func__);
  return as_hip(cudaGraphAddMemAllocNode(as_cuda(pGraphNode), graph, as_cuda(pDependencies), numDependencies,
                                         reinterpret_cast<cudaMemAllocNodeParams *>(pNodeParams)));
}

hipError_t hipGraphAddMemFreeNode(hipGraphNode_t *pGraphNode, hipGraph_t graph, const hipGraphNode_t *pDependencies,
                                  size_t numDependencies, void *dev_ptr) {
  ApiCall named(__func__);
  return as_hip(cudaGraphAddMemFreeNode(as_cuda(pGraphNode), graph, as_cuda(pDependencies), numDependencies, dev_ptr));
}

hipError_t hipGraphMemAllocNodeGetParams(hipGraphNode_t node, hipMemAllocNodeParams *pNodeParams) {
  ApiCall named(__func__);
  return as_hip(cudaGraphMemAllocNodeGetParams(as_cuda(node), reinterpret_cast<cudaMemAllocNodeParams *>(pNodeParams)));
}

hipError_t hipGraphMemFreeNodeGetParams(hipGraphNode_t node, void *dev_ptr) {
  ApiCall named(__func__);
  return as_hip(cudaGraphMemFreeNodeGetParams(as_cuda(node), dev_ptr));
}

hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void *value) {
  ApiCall named(__func__);
  return as_hip(cudaDeviceGetGraphMemAttribute(device, static_cast<cudaGraphMemAttributeType>(attr), value));
}

hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attr, void *value) {
  ApiCall named(__func__);
  return as_hip(cudaDeviceSetGraphMemAttribute(device, static_cast<cudaGraphMemAttributeType>(attr), value));
}

hipError_t hipDeviceGraphMemTrim(int device) {
  ApiCall named(__func__);
  return as_hip(cudaDeviceGraphMemTrim(device));
}

}  // extern "C"
