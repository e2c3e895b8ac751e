// CUDA graphs' conditional nodes: a handle, whose value kernels set with
// cudaGraphSetConditional, picks whether (if, if/else), how many times
// (while) or which (switch) of a node's body graphs run.
//
// A graph's work is queued on the stream at its launch, and a handle's value
// is known only once the kernels before the node have run: a launch waits
// for the stream at each conditional node, reads the value, and queues the
// body it picks (a while node's again, after waiting, while the value is
// set).  A node of a graph owns its body graphs; an instantiated one owns
// their instantiations, so a graph changed after instantiating it leaves
// the instantiated one as it was, as in CUDA.
#include <mutex>

#include "graphs.h"

using namespace gpusym;

namespace {

// A node of a graph: its handle, kind and bodies, which it owns.
struct ConditionalNode {
  std::shared_ptr<Conditional> handle;
  cudaGraphConditionalNodeType type = cudaGraphCondTypeIf;
  std::vector<ihipGraph *> bodies;
};

// A node instantiated: its handle, kind and bodies' instantiations.
struct InstantiatedNode {
  std::shared_ptr<Conditional> handle;
  cudaGraphConditionalNodeType type = cudaGraphCondTypeIf;
  std::vector<std::unique_ptr<hipGraphExec>> bodies;
};

// What a conditional node's host operation is known by; it never runs.
void conditional_node(void *) {}
void instantiated_node(void *) {}

constexpr size_t kNoBody = SIZE_MAX;

// The body the value picks, or kNoBody.
size_t picked(cudaGraphConditionalNodeType type, unsigned value, size_t bodies) {
  switch (type) {
    case cudaGraphCondTypeIf: return value ? 0 : bodies == 2 ? 1 : kNoBody;
    case cudaGraphCondTypeWhile: return value ? 0 : kNoBody;
    case cudaGraphCondTypeSwitch: return value < bodies ? value : kNoBody;
  }
  return kNoBody;
}

// With the graphs' lock held: the handles made, by address (a graph keeps
// its own; its nodes and their instantiations share them).
std::unordered_map<const Conditional *, std::weak_ptr<Conditional>> &live_handles() {
  static auto *handles = new std::unordered_map<const Conditional *, std::weak_ptr<Conditional>>;
  return *handles;
}

}  // namespace

bool gpusym::is_conditional_node(const Op &op) {
  return op.kind == Op::kHost && (op.host_fn == conditional_node || op.host_fn == instantiated_node);
}

bool gpusym::has_conditional_nodes(const ihipGraph &graph) {
  for (const auto &node : graph.nodes) {
    if (is_conditional_node(*node)) return true;
    if (const ihipGraph *child = child_graph(*node); child && has_conditional_nodes(*child)) return true;
  }
  return false;
}

hipError_t gpusym::add_conditional_node(ihipGraph *graph, cudaConditionalNodeParams &params, Op **node) {
  bool sized = params.type == cudaGraphCondTypeSwitch ? params.size >= 1
               : params.type == cudaGraphCondTypeIf   ? params.size == 1 || params.size == 2
                                                      : params.type == cudaGraphCondTypeWhile && params.size == 1;
  auto found = live_handles().find(reinterpret_cast<const Conditional *>(params.handle));
  std::shared_ptr<Conditional> handle = found == live_handles().end() ? nullptr : found->second.lock();
  if (!sized || !handle) return hipErrorInvalidValue;
  auto *conditional = new ConditionalNode{handle, params.type, {}};
  for (unsigned i = 0; i < params.size; i++) {
    conditional->bodies.push_back(new ihipGraph);
    conditional->bodies.back()->node_owned = true;
    add_graph(conditional->bodies.back());
  }
  auto op = std::make_unique<Op>(Op::kHost);
  op->host_fn = conditional_node;
  op->user_data = conditional;
  op->keep = std::shared_ptr<ConditionalNode>(conditional, [](ConditionalNode *gone) {
    for (ihipGraph *body : gone->bodies) {  // under the graphs' lock, as graphs are destroyed
      forget_graph(body);
      delete body;
    }
    delete gone;
  });
  params.phGraph_out = conditional->bodies.data();
  *node = op.get();
  graph->nodes.push_back(std::move(op));
  return hipSuccess;
}

std::unique_ptr<Op> gpusym::instantiate_conditional(const Op &node) {
  const auto &conditional = *static_cast<const ConditionalNode *>(node.user_data);
  auto instantiated = std::make_shared<InstantiatedNode>();
  instantiated->handle = conditional.handle;
  instantiated->type = conditional.type;
  for (const ihipGraph *body : conditional.bodies) {
    instantiated->bodies.push_back(std::make_unique<hipGraphExec>());
    instantiate_into(*body, *instantiated->bodies.back());
  }
  auto op = std::make_unique<Op>(Op::kHost);
  op->host_fn = instantiated_node;
  op->user_data = instantiated.get();
  op->keep = std::move(instantiated);
  return op;
}

hipError_t gpusym::launch_conditional(const Op &op, hipStream_t stream) {
  const auto &node = *static_cast<const InstantiatedNode *>(op.user_data);
  for (;;) {
    if (hipError_t error = hipStreamSynchronize(stream)) return error;
    unsigned value = __atomic_load_n(&node.handle->value, __ATOMIC_ACQUIRE);
    size_t body = picked(node.type, value, node.bodies.size());
    if (body == kNoBody) return hipSuccess;
    if (hipError_t error = launch_exec(*node.bodies[body], stream)) return error;
    if (node.type != cudaGraphCondTypeWhile) return hipSuccess;
  }
}

hipError_t gpusym::launch_exec(const hipGraphExec &exec, hipStream_t stream) {
  bool defaults = false;
  for (const auto &handle : exec.handles) defaults |= handle->assign_default;
  if (defaults) {  // in stream order: after the work before the launch, which may read the value
    if (hipError_t error = hipStreamSynchronize(stream)) return error;
    for (const auto &handle : exec.handles)
      if (handle->assign_default) __atomic_store_n(&handle->value, handle->default_value, __ATOMIC_RELEASE);
  }
  for (const auto &node : exec.nodes) {
    hipError_t error = node->host_fn == instantiated_node ? launch_conditional(*node, stream) : replay(*node, stream);
    if (error) return error;
  }
  return hipSuccess;
}

extern "C" {

cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out, cudaGraph_t graph,
                                             unsigned int defaultLaunchValue, unsigned int flags) {
  if (!pHandle_out || (flags & ~unsigned{cudaGraphCondAssignDefault})) return fail(__func__, cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  if (!is_graph(graph)) return fail(__func__, cudaErrorInvalidValue);
  auto handle = std::make_shared<Conditional>();
  handle->assign_default = flags & cudaGraphCondAssignDefault;
  handle->default_value = handle->value = defaultLaunchValue;
  live_handles()[handle.get()] = handle;
  graph->handles.push_back(handle);
  *pHandle_out = reinterpret_cast<cudaGraphConditionalHandle>(handle.get());
  return cudaSuccess;
}

}  // extern "C"
