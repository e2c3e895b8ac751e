// CUDA graphs' nodes beyond kernels, copies, memsets and host functions:
// empty nodes, child graphs, event records and waits; what kind a node is,
// cudaGraphAddNode of every kind, and clones.  An empty node and a child
// graph node are host operations known by their function: an empty node's
// does nothing, and a child graph node's never runs, as instantiating a
// graph inlines its child graphs' operations.  An event node is an
// operation that records or waits for its event where the graph is launched.
#include <mutex>

#include "graphs.h"

using namespace gpusym;

namespace {

void empty_node(void *) {}
void child_graph_node(void *) {}

// With the graphs' lock held: whether `graph`, or a child graph of it, has
// an allocation or free node.
bool has_memory_nodes(const ihipGraph &graph) {
  for (const auto &node : graph.nodes) {
    if (is_alloc_node(*node) || is_free_node(*node)) return true;
    if (const ihipGraph *child = child_graph(*node); child && has_memory_nodes(*child)) return true;
  }
  return false;
}

// A child graph node of `child`, which it owns: forgotten and deleted with
// the node (under the graphs' lock, as graphs are destroyed).
std::unique_ptr<Op> child_node(ihipGraph *child) {
  auto op = std::make_unique<Op>(Op::kHost);
  op->host_fn = child_graph_node;
  op->user_data = child;
  child->node_owned = true;
  op->keep = std::shared_ptr<ihipGraph>(child, [](ihipGraph *graph) {
    forget_graph(graph);
    delete graph;
  });
  return op;
}

// With the graphs' lock held: a copy of `graph`, child graphs copied too,
// which the program may name; its `clones` maps the original's nodes to it.
ihipGraph *clone_graph(const ihipGraph &graph) {
  auto *copy = new ihipGraph;
  add_graph(copy);
  for (const auto &node : graph.nodes) {
    const ihipGraph *child = child_graph(*node);
    copy->nodes.push_back(child ? child_node(clone_graph(*child)) : copy_op(*node));
    copy->clones[node.get()] = copy->nodes.back().get();
  }
  return copy;
}

// Adds an event record (kRecord) or wait (kWait) node for `event`.
cudaError_t add_event_node(const char *name, cudaGraphNode_t *node, cudaGraph_t graph, cudaEvent_t event,
                           Op::Kind kind) {
  if (!node || !event) return fail(name, cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  if (!is_graph(graph)) return fail(name, cudaErrorInvalidValue);
  auto op = std::make_unique<Op>(kind);
  op->event = event;
  *node = reinterpret_cast<cudaGraphNode_t>(op.get());
  graph->nodes.push_back(std::move(op));
  return cudaSuccess;
}

// The event of an event node of `kind`.
cudaError_t node_event(const char *name, cudaGraphNode_t node, cudaEvent_t *event, Op::Kind kind) {
  if (!event) return fail(name, cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  const Op *op = find_node(node);
  if (!op || op->kind != kind) return fail(name, cudaErrorInvalidValue);
  *event = op->event;
  return cudaSuccess;
}

}  // namespace

cudaGraphNodeType gpusym::node_type(const Op &op) {
  switch (op.kind) {
    case Op::kKernel: return cudaGraphNodeTypeKernel;
    case Op::kTransfer: return op.transfer.src ? cudaGraphNodeTypeMemcpy : cudaGraphNodeTypeMemset;
    case Op::kRecord: return cudaGraphNodeTypeEventRecord;
    case Op::kWait: return cudaGraphNodeTypeWaitEvent;
    case Op::kHost: break;
  }
  if (op.host_fn == empty_node) return cudaGraphNodeTypeEmpty;
  if (is_conditional_node(op)) return cudaGraphNodeTypeConditional;
  if (op.host_fn == child_graph_node) return cudaGraphNodeTypeGraph;
  if (is_alloc_node(op)) return cudaGraphNodeTypeMemAlloc;
  if (is_free_node(op)) return cudaGraphNodeTypeMemFree;
  return cudaGraphNodeTypeHost;
}

ihipGraph *gpusym::child_graph(const Op &op) {
  return op.kind == Op::kHost && op.host_fn == child_graph_node ? static_cast<ihipGraph *>(op.user_data) : nullptr;
}

extern "C" {

cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                  size_t numDependencies) {
  hipHostNodeParams p{empty_node, nullptr};
  ApiCall named(__func__);
  return static_cast<cudaError_t>(hipGraphAddHostNode(reinterpret_cast<hipGraphNode_t *>(pGraphNode), graph,
                                                      reinterpret_cast<const hipGraphNode_t *>(pDependencies),
                                                      numDependencies, &p));
}

// A copy of `childGraph` becomes the node's own graph, which later changes
// to childGraph leave as it is.  A graph with allocation or free nodes
// cannot be a child graph, as in CUDA, nor one with conditional nodes here.
cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *,
                                       size_t, cudaGraph_t childGraph) {
  if (!pGraphNode) return fail(__func__, cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  if (!is_graph(graph) || !is_graph(childGraph) || graph == childGraph) return fail(__func__, cudaErrorInvalidValue);
  if (has_memory_nodes(*childGraph) || has_conditional_nodes(*childGraph)) return fail(__func__, cudaErrorNotSupported);
  graph->nodes.push_back(child_node(clone_graph(*childGraph)));
  *pGraphNode = reinterpret_cast<cudaGraphNode_t>(graph->nodes.back().get());
  return cudaSuccess;
}

// The node's own graph, not a copy: what is added to it is in the node.
cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t node, cudaGraph_t *pGraph) {
  if (!pGraph) return fail(__func__, cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  const Op *op = find_node(node);
  ihipGraph *child = op ? child_graph(*op) : nullptr;
  if (!child) return fail(__func__, cudaErrorInvalidValue);
  *pGraph = child;
  return cudaSuccess;
}

cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *,
                                        size_t, cudaEvent_t event) {
  return add_event_node(__func__, pGraphNode, graph, event, Op::kRecord);
}

cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *,
                                      size_t, cudaEvent_t event) {
  return add_event_node(__func__, pGraphNode, graph, event, Op::kWait);
}

cudaError_t cudaGraphEventRecordNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
  return node_event(__func__, node, event_out, Op::kRecord);
}

cudaError_t cudaGraphEventWaitNodeGetEvent(cudaGraphNode_t node, cudaEvent_t *event_out) {
  return node_event(__func__, node, event_out, Op::kWait);
}

cudaError_t cudaGraphNodeGetType(cudaGraphNode_t node, cudaGraphNodeType *pType) {
  if (!node || !pType) return fail(__func__, cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  const Op *op = find_node(node);
  if (!op) return fail(__func__, cudaErrorInvalidValue);
  *pType = node_type(*op);
  return cudaSuccess;
}

// Every kind but external semaphores'.
cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                             size_t numDependencies, cudaGraphNodeParams *nodeParams) {
  if (!nodeParams) return fail(__func__, cudaErrorInvalidValue);
  ApiCall named(__func__);
  switch (nodeParams->type) {
    case cudaGraphNodeTypeKernel: {
      const cudaKernelNodeParamsV2 &k = nodeParams->kernel;
      cudaKernelNodeParams p{k.func, k.gridDim, k.blockDim, k.sharedMemBytes, k.kernelParams, k.extra};
      return cudaGraphAddKernelNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeMemcpy:
      return cudaGraphAddMemcpyNode(pGraphNode, graph, pDependencies, numDependencies,
                                    &nodeParams->memcpy.copyParams);
    case cudaGraphNodeTypeMemset: {
      const cudaMemsetParamsV2 &m = nodeParams->memset;
      cudaMemsetParams p{m.dst, m.pitch, m.value, m.elementSize, m.width, m.height};
      return cudaGraphAddMemsetNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeHost: {
      cudaHostNodeParams p{nodeParams->host.fn, nodeParams->host.userData};
      return cudaGraphAddHostNode(pGraphNode, graph, pDependencies, numDependencies, &p);
    }
    case cudaGraphNodeTypeEmpty: return cudaGraphAddEmptyNode(pGraphNode, graph, pDependencies, numDependencies);
    case cudaGraphNodeTypeGraph:
      return cudaGraphAddChildGraphNode(pGraphNode, graph, pDependencies, numDependencies, nodeParams->graph.graph);
    case cudaGraphNodeTypeEventRecord:
      return cudaGraphAddEventRecordNode(pGraphNode, graph, pDependencies, numDependencies,
                                         nodeParams->eventRecord.event);
    case cudaGraphNodeTypeWaitEvent:
      return cudaGraphAddEventWaitNode(pGraphNode, graph, pDependencies, numDependencies,
                                       nodeParams->eventWait.event);
    case cudaGraphNodeTypeMemAlloc:
      return cudaGraphAddMemAllocNode(pGraphNode, graph, pDependencies, numDependencies,
                                      reinterpret_cast<cudaMemAllocNodeParams *>(&nodeParams->alloc));
    case cudaGraphNodeTypeMemFree:
      return cudaGraphAddMemFreeNode(pGraphNode, graph, pDependencies, numDependencies, nodeParams->free.dptr);
    case cudaGraphNodeTypeConditional: {
      std::lock_guard<std::mutex> lock(graphs_mutex());
      if (!pGraphNode || !is_graph(graph)) return fail(__func__, cudaErrorInvalidValue);
      Op *node = nullptr;
      if (hipError_t error = add_conditional_node(graph, nodeParams->conditional, &node))
        return fail(__func__, static_cast<cudaError_t>(error));
      *pGraphNode = reinterpret_cast<cudaGraphNode_t>(node);
      return cudaSuccess;
    }
    default: return fail(__func__, cudaErrorNotSupported);  // external semaphores
  }
}

cudaError_t cudaGraphAddNode_v2(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *pDependencies,
                                const cudaGraphEdgeData *, size_t numDependencies, cudaGraphNodeParams *nodeParams) {
  ApiCall named(__func__);
  return cudaGraphAddNode(pGraphNode, graph, pDependencies, numDependencies, nodeParams);
}

// A graph with allocation or free nodes cannot be cloned, as in CUDA, nor
// one with conditional nodes here.
cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph) {
  if (!pGraphClone) return fail(__func__, cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  if (!is_graph(originalGraph)) return fail(__func__, cudaErrorInvalidValue);
  if (has_memory_nodes(*originalGraph) || has_conditional_nodes(*originalGraph))
    return fail(__func__, cudaErrorNotSupported);
  *pGraphClone = clone_graph(*originalGraph);
  return cudaSuccess;
}

cudaError_t cudaGraphNodeFindInClone(cudaGraphNode_t *pNode, cudaGraphNode_t originalNode, cudaGraph_t clonedGraph) {
  if (!pNode) return fail(__func__, cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  if (!is_graph(clonedGraph)) return fail(__func__, cudaErrorInvalidValue);
  auto found = clonedGraph->clones.find(reinterpret_cast<const Op *>(originalNode));
  if (found == clonedGraph->clones.end()) return fail(__func__, cudaErrorInvalidValue);
  *pNode = reinterpret_cast<cudaGraphNode_t>(found->second);
  return cudaSuccess;
}

}  // extern "C"
