// Graphs' records, shared by the files that build and run them: capture and
// graphs (cuda_graphs.cpp), nodes of other kinds and clones
// (graph_nodes.cpp), allocation and free nodes (graph_memory.cpp).
#pragma once

#include <memory>
#include <unordered_map>
#include <vector>

#include "cuda_runtime_api.h"
#include "internal.h"

namespace gpusym {
// A conditional node's handle (cudaGraphConditionalHandle is its address):
// the value kernels set with cudaGraphSetConditional, which writes the first
// word, and the one a launch of its graph starts with if assign_default.
struct Conditional {
  unsigned value = 0;
  unsigned default_value = 0;
  bool assign_default = false;
};
}  // namespace gpusym

// A graph: its operations, in the order added (which respects every
// dependency, as a node's dependencies are in the graph before it), and the
// conditional handles created for it.
struct ihipGraph {
  std::vector<std::unique_ptr<gpusym::Op>> nodes;
  std::unordered_map<const gpusym::Op *, gpusym::Op *> clones;  // a clone's: each node it was copied from -> its copy
  std::vector<std::shared_ptr<gpusym::Conditional>> handles;
  bool node_owned = false;  // a child graph node's or a conditional node's body: the node destroys it
};

// An instantiated graph: its own copy of the operations, child graphs'
// inlined, the graph's node each was copied from, and its graphs' handles.
struct hipGraphExec {
  std::vector<std::unique_ptr<gpusym::Op>> nodes;
  std::vector<const gpusym::Op *> origins;
  std::vector<std::shared_ptr<gpusym::Conditional>> handles;
};

namespace gpusym {

// Guards every graph, instantiated graph and capture.  Graph memory's lock
// (graph_memory.cpp) may be taken while it is held, never the reverse.
std::mutex &graphs_mutex();
// With it held: whether `graph` is one the program may name (created,
// captured, cloned, or a child graph node's); adds or forgets one.
bool is_graph(const ihipGraph *graph);
void add_graph(ihipGraph *graph);
void forget_graph(const ihipGraph *graph);
// With it held: the graph the capture `stream` is part of records into, or null.
ihipGraph *capture_graph(hipStream_t stream);
// With it held: the node `node` names in a graph the program may name, or null.
Op *find_node(cudaGraphNode_t node);
// A copy of a node's operation, to be queued or put in another graph.
std::unique_ptr<Op> copy_op(const Op &op);
// Queues a copy of `node` on `stream`: an event node records or waits for
// its event there; a memory node's launch counts its graph memory.
hipError_t replay(const Op &node, hipStream_t stream);
// The operations `graph` runs, child graphs' inlined, copied into `exec`,
// and its handles; conditional nodes' bodies instantiated in theirs.
void instantiate_into(const ihipGraph &graph, hipGraphExec &exec);
// Queues `exec`'s operations on `stream`, in order: a conditional node
// waits for the work before it to read its handle.
hipError_t launch_exec(const hipGraphExec &exec, hipStream_t stream);

// Conditional nodes (graph_conditionals.cpp).  With the graphs' lock held:
// a node at the end of `graph`, whose bodies it makes (`params` gets them).
hipError_t add_conditional_node(ihipGraph *graph, cudaConditionalNodeParams &params, Op **node);
bool is_conditional_node(const Op &op);  // a graph's or an instantiated graph's
// With the graphs' lock held: whether `graph`, a child or a body has one.
bool has_conditional_nodes(const ihipGraph &graph);
// A conditional node of a graph, instantiated: its bodies too.
std::unique_ptr<Op> instantiate_conditional(const Op &node);
// Runs an instantiated conditional node on `stream`: waits for the stream,
// then launches the bodies its handle's value picks (again while it is set,
// for a while node).
hipError_t launch_conditional(const Op &op, hipStream_t stream);

// The kind of node an operation is (graph_nodes.cpp).
cudaGraphNodeType node_type(const Op &op);
// A child graph node's graph, or null for another kind (graph_nodes.cpp).
ihipGraph *child_graph(const Op &op);

// Allocation and free nodes (graph_memory.cpp).
bool is_alloc_node(const Op &op);
bool is_free_node(const Op &op);
// With the graphs' lock held: an allocation node for `params` (whose dptr
// it sets) at the end of `graph`, or a free node of `pointer`; `node` set.
hipError_t add_alloc_node(ihipGraph *graph, hipMemAllocNodeParams &params, Op **node);
hipError_t add_free_node(ihipGraph *graph, void *pointer, Op **node);
// A launch on `stream` of an allocation node (which holds its graph memory
// then) or of a free node (which frees in launch order).
void launch_memory_node(const Op &op, hipStream_t stream);
// With the graphs' lock held: an instantiation of a graph with allocation
// nodes is its allocations' only one while it lives (as CUDA's): claims them
// for `exec`, false when another instantiation has one; and gives them back.
bool claim_allocations(const hipGraphExec &exec);
void release_allocations(const hipGraphExec &exec);

}  // namespace gpusym
