// Stream capture and CUDA graphs.  While a stream captures, the kernels,
// copies, memsets and host functions queued on it are recorded, in order,
// into its graph instead of run (captured(), which the launch and queueing
// paths call); an instantiated graph's launch queues copies of them, in the
// same order, on the stream it is launched on.  An event recorded in a
// capturing stream and waited for by another stream brings that stream into
// the capture (CUDA's fork and join), its work recorded into the same graph:
// a graph's work is replayed in the order it was captured, which is one
// order its dependencies allow.  Also here: the stream and event calls
// capture changes (cudaStreamSynchronize, cudaEventRecord, cudaStreamWaitEvent).
#include <algorithm>
#include <atomic>
#include <mutex>
#include <unordered_map>
#include <unordered_set>

#include "graphs.h"

using namespace gpusym;

namespace {

struct Capture {
  ihipGraph *graph;
  unsigned long long id;
  cudaStream_t origin;  // the stream that began it (and must end it)
  bool created_graph;   // begun with no graph of the program's (not CaptureToGraph)
  bool invalidated;     // a call refused during the capture ended its use: its end fails
};

struct Captures {
  std::mutex mutex;
  std::unordered_map<hipStream_t, Capture> streams;     // capturing streams, by handle
  std::unordered_map<hipEvent_t, Capture> events;       // events last recorded in a capturing stream
  std::unordered_set<const ihipGraph *> graphs;         // live graphs
  std::unordered_set<const hipGraphExec *> executables;  // live instantiated graphs
  unsigned long long next_id = 1;
};

Captures &captures() {
  static auto *instance = new Captures;  // never destroyed: workers may queue until exit
  return *instance;
}

std::atomic<size_t> capturing_streams{0};  // captures().streams.size(), read without the lock
thread_local cudaStreamCaptureMode capture_mode = cudaStreamCaptureModeGlobal;

bool is_legacy(cudaStream_t stream) { return !stream || stream == cudaStreamLegacy; }

// CUDA's error for a stream handle the runtime does not know, or success.
cudaError_t check_stream(cudaStream_t stream) {
  unsigned flags = 0;
  if (is_legacy(stream) || stream == cudaStreamPerThread) return cudaSuccess;
  return hipStreamGetFlags(stream, &flags) == hipSuccess ? cudaSuccess : cudaErrorInvalidResourceHandle;
}

// The capture `stream` is part of, or null (with the lock held).
const Capture *capture_of(Captures &c, cudaStream_t stream) {
  auto found = c.streams.find(stream);
  return found == c.streams.end() ? nullptr : &found->second;
}

// Begins a capture of `stream`, for the function `name`: into `graph`, or
// a new graph when null.
cudaError_t begin_capture(const char *name, cudaStream_t stream, cudaStreamCaptureMode mode, ihipGraph *graph) {
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed)
    return fail(name, cudaErrorInvalidValue);
  if (is_legacy(stream)) return fail(name, cudaErrorStreamCaptureUnsupported);
  if (cudaError_t error = check_stream(stream)) return fail(name, error);
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (capture_of(c, stream)) return fail(name, cudaErrorIllegalState);
  if (graph && !c.graphs.count(graph)) return fail(name, cudaErrorInvalidValue);
  bool created = !graph;
  if (created) c.graphs.insert(graph = new ihipGraph);
  c.streams[stream] = {graph, c.next_id++, stream, created, false};
  capturing_streams.store(c.streams.size(), std::memory_order_release);
  return cudaSuccess;
}

}  // namespace

hipError_t gpusym::replay(const Op &node, hipStream_t stream) {
  if (node.kind == Op::kRecord) return hipEventRecord(node.event, stream);
  if (node.kind == Op::kWait) return hipStreamWaitEvent(stream, node.event, 0);
  if (is_alloc_node(node) || is_free_node(node)) launch_memory_node(node, stream);
  std::unique_ptr<Op> copy = copy_op(node);
  copy->config.stream = stream;
  copy->handle = stream;
  if (copy->kind == Op::kKernel) return queue_dispatch(std::move(copy));
  return queue_operation(copy.release(), stream);
}

void gpusym::instantiate_into(const ihipGraph &graph, hipGraphExec &exec) {
  exec.handles.insert(exec.handles.end(), graph.handles.begin(), graph.handles.end());
  for (const auto &node : graph.nodes) {
    if (const ihipGraph *child = child_graph(*node)) {
      instantiate_into(*child, exec);
      continue;
    }
    exec.nodes.push_back(is_conditional_node(*node) ? instantiate_conditional(*node) : copy_op(*node));
    exec.origins.push_back(node.get());
  }
}

std::unique_ptr<Op> gpusym::copy_op(const Op &op) {
  auto copy = std::make_unique<Op>(op.kind);
  copy->kernel = op.kernel;
  copy->config = op.config;
  copy->call = op.call;
  copy->total_blocks = op.total_blocks;
  copy->transfer = op.transfer;
  copy->host_fn = op.host_fn;
  copy->callback = op.callback;
  copy->user_data = op.user_data;
  copy->handle = op.handle;
  copy->keep = op.keep;
  copy->event = op.event;
  return copy;
}

std::mutex &gpusym::graphs_mutex() { return captures().mutex; }
bool gpusym::is_graph(const ihipGraph *graph) { return captures().graphs.count(graph); }
void gpusym::add_graph(ihipGraph *graph) { captures().graphs.insert(graph); }
void gpusym::forget_graph(const ihipGraph *graph) { captures().graphs.erase(graph); }

ihipGraph *gpusym::capture_graph(hipStream_t stream) {
  if (capturing_streams.load(std::memory_order_acquire) == 0) return nullptr;
  const Capture *capture = capture_of(captures(), stream);
  return capture ? capture->graph : nullptr;
}

Op *gpusym::find_node(cudaGraphNode_t node) {
  for (const ihipGraph *graph : captures().graphs)
    for (const auto &each : graph->nodes)
      if (reinterpret_cast<cudaGraphNode_t>(each.get()) == node) return each.get();
  return nullptr;
}

bool gpusym::captured(Op *op, hipStream_t handle) {
  if (capturing_streams.load(std::memory_order_acquire) == 0) return false;
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  const Capture *capture = capture_of(c, handle);
  if (!capture) return false;
  capture->graph->nodes.emplace_back(op);
  return true;
}

extern "C" {

// ---- capture ----

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  return begin_capture(__func__, stream, mode, nullptr);
}

// Ends the capture `stream` began: every stream that joined it stops capturing.
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph) {
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  const Capture *capture = capture_of(c, stream);
  if (!capture) return fail(__func__, cudaErrorIllegalState);
  // A capture into the program's graph may leave pGraph out.
  if (!pGraph && capture->created_graph) return fail(__func__, cudaErrorInvalidValue);
  if (capture->origin != stream) return fail(__func__, cudaErrorStreamCaptureUnmatched);
  ihipGraph *graph = capture->graph;
  bool invalidated = capture->invalidated, created = capture->created_graph;
  unsigned long long id = capture->id;  // other captures may add to the same graph
  std::erase_if(c.streams, [id](const auto &entry) { return entry.second.id == id; });
  std::erase_if(c.events, [id](const auto &entry) { return entry.second.id == id; });
  capturing_streams.store(c.streams.size(), std::memory_order_release);
  if (invalidated) {  // as CUDA: no graph, and the graph begun is gone
    if (pGraph) *pGraph = nullptr;
    if (created && c.graphs.erase(graph)) delete graph;
    return fail(__func__, cudaErrorStreamCaptureInvalidated);
  }
  if (pGraph) *pGraph = graph;
  return cudaSuccess;
}

// A capture that adds to an existing graph.  The dependencies it is given
// change nothing: a graph's work is replayed in the order it was added.
hipError_t hipStreamBeginCaptureToGraph(hipStream_t stream, hipGraph_t graph, const hipGraphNode_t *,
                                        const hipGraphEdgeData *, size_t, hipStreamCaptureMode mode) {
  if (!graph) return record(hipErrorInvalidValue);
  return static_cast<hipError_t>(begin_capture(__func__, stream, static_cast<cudaStreamCaptureMode>(mode), graph));
}

cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph, const cudaGraphNode_t *,
                                          const cudaGraphEdgeData *, size_t, cudaStreamCaptureMode mode) {
  if (!graph) return fail(__func__, cudaErrorInvalidValue);
  return begin_capture(__func__, stream, mode, graph);
}

// The dependencies of the work captured next change nothing either.
cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                size_t numDependencies, unsigned int flags) {
  if ((numDependencies && !dependencies) || flags > cudaStreamSetCaptureDependencies)
    return fail(__func__, cudaErrorInvalidValue);
  if (cudaError_t error = check_stream(stream)) return fail(__func__, error);
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  return capture_of(c, stream) ? cudaSuccess : fail(__func__, cudaErrorIllegalState);
}

cudaError_t cudaStreamUpdateCaptureDependencies_v2(cudaStream_t stream, cudaGraphNode_t *dependencies,
                                                   const cudaGraphEdgeData *, size_t numDependencies,
                                                   unsigned int flags) {
  ApiCall named(__func__);
  return cudaStreamUpdateCaptureDependencies(stream, dependencies, numDependencies, flags);
}

cudaError_t cudaStreamGetCaptureInfo_v3(cudaStream_t stream, cudaStreamCaptureStatus *captureStatus_out,
                                        unsigned long long *id_out, cudaGraph_t *graph_out,
                                        const cudaGraphNode_t **dependencies_out,
                                        const cudaGraphEdgeData **edgeData_out, size_t *numDependencies_out) {
  if (edgeData_out) *edgeData_out = nullptr;
  ApiCall named(__func__);
  return cudaStreamGetCaptureInfo(stream, captureStatus_out, id_out, graph_out, dependencies_out,
                                  numDependencies_out);
}

cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus *pCaptureStatus) {
  ApiCall named(__func__);
  return cudaStreamGetCaptureInfo(stream, pCaptureStatus);
}

cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, cudaStreamCaptureStatus *captureStatus_out,
                                     unsigned long long *id_out, cudaGraph_t *graph_out,
                                     const cudaGraphNode_t **dependencies_out, size_t *numDependencies_out) {
  if (!captureStatus_out) return fail(__func__, cudaErrorInvalidValue);
  if (cudaError_t error = check_stream(stream)) return fail(__func__, error);
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  const Capture *capture = capture_of(c, stream);
  *captureStatus_out = !capture                ? cudaStreamCaptureStatusNone
                       : capture->invalidated ? cudaStreamCaptureStatusInvalidated
                                              : cudaStreamCaptureStatusActive;
  if (id_out) *id_out = capture ? capture->id : 0;
  if (graph_out) *graph_out = capture ? capture->graph : nullptr;
  if (dependencies_out) *dependencies_out = nullptr;
  if (numDependencies_out) *numDependencies_out = 0;
  return cudaSuccess;
}

cudaError_t cudaThreadExchangeStreamCaptureMode(cudaStreamCaptureMode *mode) {
  if (!mode || *mode < cudaStreamCaptureModeGlobal || *mode > cudaStreamCaptureModeRelaxed)
    return fail(__func__, cudaErrorInvalidValue);
  std::swap(*mode, capture_mode);
  return cudaSuccess;
}

// ---- the stream and event calls capture changes ----

// Waiting for a capturing stream's work is refused (it has none), and, as
// in CUDA, the capture is invalidated: its end then fails.
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (capturing_streams.load(std::memory_order_acquire)) {
    Captures &c = captures();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (const Capture *capture = capture_of(c, stream)) {
      for (auto &[handle, joined] : c.streams) joined.invalidated |= joined.id == capture->id;
      return fail(__func__, cudaErrorStreamCaptureUnsupported);
    }
  }
  ApiCall named(__func__);
  return static_cast<cudaError_t>(unless_failed(__func__, [&] { return hipStreamSynchronize(stream); }));
}

// In a capturing stream, a record marks the point other streams may join
// the capture from.
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  if (capturing_streams.load(std::memory_order_acquire)) {
    Captures &c = captures();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (const Capture *capture = capture_of(c, stream)) {
      if (!event) return fail(__func__, cudaErrorInvalidResourceHandle);
      c.events[event] = *capture;
      return cudaSuccess;
    }
    c.events.erase(event);
  }
  ApiCall named(__func__);
  return static_cast<cudaError_t>(unless_failed(__func__, [&] { return hipEventRecord(event, stream); }));
}

cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream, unsigned int flags) {
  if (flags & ~cudaEventRecordExternal) return fail(__func__, cudaErrorInvalidValue);
  ApiCall named(__func__);
  return cudaEventRecord(event, stream);
}

// Waiting for an event recorded in a capturing stream: the stream joins
// that capture (it is already ordered after what the event marks).
cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event, unsigned int flags) {
  if (flags & ~cudaEventWaitExternal) return fail(__func__, cudaErrorInvalidValue);
  if (capturing_streams.load(std::memory_order_acquire)) {
    Captures &c = captures();
    std::lock_guard<std::mutex> lock(c.mutex);
    auto found = c.events.find(event);
    if (found != c.events.end()) {
      if (is_legacy(stream)) return fail(__func__, cudaErrorStreamCaptureImplicit);
      const Capture *joined = capture_of(c, stream);
      if (joined && joined->graph != found->second.graph) return fail(__func__, cudaErrorStreamCaptureMerge);
      c.streams[stream] = found->second;
      capturing_streams.store(c.streams.size(), std::memory_order_release);
      return cudaSuccess;
    }
    if (capture_of(c, stream)) return cudaSuccess;  // captured work waits for what came before it anyway
  }
  ApiCall named(__func__);
  return static_cast<cudaError_t>(unless_failed(__func__, [&] { return hipStreamWaitEvent(stream, event, 0); }));
}

// ---- graphs ----

cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags) {
  if (!pGraph || flags) return fail(__func__, cudaErrorInvalidValue);
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  *pGraph = new ihipGraph;
  c.graphs.insert(*pGraph);
  return cudaSuccess;
}

cudaError_t cudaGraphGetNodes(cudaGraph_t graph, cudaGraphNode_t *nodes, size_t *numNodes) {
  if (!numNodes) return fail(__func__, cudaErrorInvalidValue);
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.graphs.count(graph)) return fail(__func__, cudaErrorInvalidValue);
  if (nodes) {
    size_t count = std::min(*numNodes, graph->nodes.size());
    for (size_t i = 0; i < count; i++) nodes[i] = reinterpret_cast<cudaGraphNode_t>(graph->nodes[i].get());
  }
  *numNodes = graph->nodes.size();
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  if (!pGraphExec) return fail(__func__, cudaErrorInvalidValue);
  constexpr unsigned long long kFlags = cudaGraphInstantiateFlagAutoFreeOnLaunch | cudaGraphInstantiateFlagUpload |
                                        cudaGraphInstantiateFlagUseNodePriority;
  if (flags & cudaGraphInstantiateFlagDeviceLaunch) return fail(__func__, cudaErrorNotSupported);
  if (flags & ~kFlags) return fail(__func__, cudaErrorInvalidValue);
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.graphs.count(graph)) return fail(__func__, cudaErrorInvalidValue);
  auto exec = std::make_unique<hipGraphExec>();
  instantiate_into(*graph, *exec);
  if (!claim_allocations(*exec)) return fail(__func__, cudaErrorNotSupported);
  c.executables.insert(exec.get());
  *pGraphExec = exec.release();
  return cudaSuccess;
}

cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec, cudaGraph_t graph, unsigned long long flags) {
  ApiCall named(__func__);
  return cudaGraphInstantiate(pGraphExec, graph, flags);
}

// The graph's operations queued on `stream`, in the order captured.
cudaError_t cudaGraphLaunch(cudaGraphExec_t graphExec, cudaStream_t stream) {
  {
    Captures &c = captures();
    std::lock_guard<std::mutex> lock(c.mutex);
    if (!c.executables.count(graphExec)) return fail(__func__, cudaErrorInvalidValue);
    // A conditional node reads its handle when the launch reaches it, which
    // a capture cannot record.
    bool conditional = std::any_of(graphExec->nodes.begin(), graphExec->nodes.end(),
                                   [](const auto &node) { return is_conditional_node(*node); });
    if (conditional && capture_graph(stream)) return fail(__func__, cudaErrorStreamCaptureUnsupported);
  }
  ApiCall named(__func__);
  return static_cast<cudaError_t>(unless_failed(__func__, [&] {
    hipError_t error = launch_exec(*graphExec, stream);
    return error ? record(error, __func__) : hipSuccess;
  }));
}

cudaError_t cudaGraphUpload(cudaGraphExec_t graphExec, cudaStream_t) {
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.executables.count(graphExec) ? cudaSuccess : fail(__func__, cudaErrorInvalidValue);
}

cudaError_t cudaGraphExecDestroy(cudaGraphExec_t graphExec) {
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.executables.erase(graphExec)) return fail(__func__, cudaErrorInvalidValue);
  release_allocations(*graphExec);
  delete graphExec;  // its launches queued copies of its operations
  return cudaSuccess;
}

// ---- graphs built node by node ----
//
// Over HIP's (hip_graphs.cpp), which add each node by capturing, into the
// graph, the work queued on a stream of their own.  A graph's work is
// replayed in the order its nodes were added, which respects every
// dependency (a node's dependencies are in the graph before it is added):
// the dependencies given are accepted and not kept.

cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const cudaKernelNodeParams *pNodeParams) {
  if (!pNodeParams) return fail(__func__, cudaErrorInvalidValue);
  hipKernelNodeParams p{};
  p.func = pNodeParams->func;
  p.gridDim = pNodeParams->gridDim;
  p.blockDim = pNodeParams->blockDim;
  p.sharedMemBytes = pNodeParams->sharedMemBytes;
  p.kernelParams = pNodeParams->kernelParams;
  p.extra = pNodeParams->extra;
  ApiCall named(__func__);
  return static_cast<cudaError_t>(hipGraphAddKernelNode(reinterpret_cast<hipGraphNode_t *>(pGraphNode), graph,
                                                        reinterpret_cast<const hipGraphNode_t *>(pDependencies),
                                                        numDependencies, &p));
}

cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const cudaMemcpy3DParms *pCopyParams) {
  if (!pCopyParams) return fail(__func__, cudaErrorInvalidValue);
  ApiCall named(__func__);
  return static_cast<cudaError_t>(hipGraphAddMemcpyNode(
      reinterpret_cast<hipGraphNode_t *>(pGraphNode), graph, reinterpret_cast<const hipGraphNode_t *>(pDependencies),
      numDependencies, reinterpret_cast<const hipMemcpy3DParms *>(pCopyParams)));
}

cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                     const cudaGraphNode_t *pDependencies, size_t numDependencies, void *dst,
                                     const void *src, size_t count, cudaMemcpyKind kind) {
  ApiCall named(__func__);
  return static_cast<cudaError_t>(hipGraphAddMemcpyNode1D(
      reinterpret_cast<hipGraphNode_t *>(pGraphNode), graph, reinterpret_cast<const hipGraphNode_t *>(pDependencies),
      numDependencies, dst, src, count, static_cast<hipMemcpyKind>(kind)));
}

cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph,
                                   const cudaGraphNode_t *pDependencies, size_t numDependencies,
                                   const cudaMemsetParams *pMemsetParams) {
  if (!pMemsetParams) return fail(__func__, cudaErrorInvalidValue);
  hipMemsetParams p{};
  p.dst = pMemsetParams->dst;
  p.elementSize = pMemsetParams->elementSize;
  p.height = pMemsetParams->height;
  p.pitch = pMemsetParams->pitch;
  p.value = pMemsetParams->value;
  p.width = pMemsetParams->width;
  ApiCall named(__func__);
  return static_cast<cudaError_t>(hipGraphAddMemsetNode(reinterpret_cast<hipGraphNode_t *>(pGraphNode), graph,
                                                        reinterpret_cast<const hipGraphNode_t *>(pDependencies),
                                                        numDependencies, &p));
}

cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                 size_t numDependencies, const cudaHostNodeParams *pNodeParams) {
  if (!pNodeParams || !pNodeParams->fn) return fail(__func__, cudaErrorInvalidValue);
  hipHostNodeParams p{pNodeParams->fn, pNodeParams->userData};
  ApiCall named(__func__);
  return static_cast<cudaError_t>(hipGraphAddHostNode(reinterpret_cast<hipGraphNode_t *>(pGraphNode), graph,
                                                      reinterpret_cast<const hipGraphNode_t *>(pDependencies),
                                                      numDependencies, &p));
}

// Accepted: the graph replays its nodes in the order they were added.
cudaError_t cudaGraphAddDependencies(cudaGraph_t graph, const cudaGraphNode_t *from, const cudaGraphNode_t *to,
                                     size_t numDependencies) {
  if (numDependencies && (!from || !to)) return fail(__func__, cudaErrorInvalidValue);
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  return c.graphs.count(graph) ? cudaSuccess : fail(__func__, cudaErrorInvalidValue);
}

// The kernel node copied from `node` gets the parameters given: a kernel
// node made of them (in a graph of its own) takes its place.
cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hGraphExec, cudaGraphNode_t node,
                                             const cudaKernelNodeParams *pNodeParams) {
  if (!pNodeParams) return fail(__func__, cudaErrorInvalidValue);
  ApiCall named(__func__);
  cudaGraph_t scratch = nullptr;
  if (cudaError_t error = cudaGraphCreate(&scratch, 0)) return error;
  cudaGraphNode_t made = nullptr;
  cudaError_t error = cudaGraphAddKernelNode(&made, scratch, nullptr, 0, pNodeParams);
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!error && !c.executables.count(hGraphExec)) error = fail(__func__, cudaErrorInvalidValue);
  if (!error) {
    const Op *origin = reinterpret_cast<const Op *>(node);
    auto found = std::find(hGraphExec->origins.begin(), hGraphExec->origins.end(), origin);
    size_t index = found - hGraphExec->origins.begin();
    if (found == hGraphExec->origins.end() || hGraphExec->nodes[index]->kind != Op::kKernel)
      error = fail(__func__, cudaErrorInvalidValue);
    else
      hGraphExec->nodes[index] = std::move(scratch->nodes.back());
  }
  c.graphs.erase(scratch);
  delete scratch;
  return error;
}

// The graph's nodes, in place of the instantiated ones, when they are as
// many and of the same kinds (kernels of the same functions, no allocation,
// free or conditional nodes); else cudaErrorGraphExecUpdateFailure, with why in resultInfo.
cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hGraphExec, cudaGraph_t hGraph,
                                cudaGraphExecUpdateResultInfo *resultInfo) {
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.executables.count(hGraphExec) || !c.graphs.count(hGraph)) return fail(__func__, cudaErrorInvalidValue);
  hipGraphExec fresh;
  instantiate_into(*hGraph, fresh);
  cudaGraphExecUpdateResultInfo info{cudaGraphExecUpdateSuccess, nullptr, nullptr};
  if (fresh.nodes.size() != hGraphExec->nodes.size()) info.result = cudaGraphExecUpdateErrorTopologyChanged;
  for (size_t i = 0; i < fresh.nodes.size() && !info.result; i++) {
    const Op &now = *fresh.nodes[i], &before = *hGraphExec->nodes[i];
    if (node_type(now) != node_type(before))
      info.result = cudaGraphExecUpdateErrorNodeTypeChanged;
    else if (is_alloc_node(now) || is_free_node(now) || is_conditional_node(now))
      info.result = cudaGraphExecUpdateErrorNotSupported;
    else if (now.kind == Op::kKernel && now.kernel != before.kernel)
      info.result = cudaGraphExecUpdateErrorFunctionChanged;
    if (info.result) info.errorNode = reinterpret_cast<cudaGraphNode_t>(const_cast<Op *>(fresh.origins[i]));
  }
  if (resultInfo) *resultInfo = info;
  if (info.result) return fail(__func__, cudaErrorGraphExecUpdateFailure);
  hGraphExec->nodes = std::move(fresh.nodes);
  hGraphExec->origins = std::move(fresh.origins);
  hGraphExec->handles = std::move(fresh.handles);
  return cudaSuccess;
}

// A node's own graph (a child graph's, a conditional node's body) goes with
// the node: destroying it is refused, where CUDA leaves it undefined.
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  Captures &c = captures();
  std::lock_guard<std::mutex> lock(c.mutex);
  if (!c.graphs.count(graph) || graph->node_owned) return fail(__func__, cudaErrorInvalidValue);
  c.graphs.erase(graph);
  delete graph;
  return cudaSuccess;
}

}  // extern "C"
