// Graphs' allocations: allocation and free nodes (added node by node, or
// captured from hipMallocAsync and hipFreeAsync), frees of graph allocations
// outside their graph, and each device's graph memory.
//
// An allocation node has its address from the moment it is added: a span of
// the range hipMalloc allocates from (memory.cpp), held while a graph or an
// instantiated graph has a node of it, or its allocation is live.  An
// allocation node added after a free node of an earlier allocation of its
// graph takes that one's span again when it fits, as CUDA reuses addresses
// within a graph.  The span is device memory for the calls that queue work
// (is_graph_range) from the start; its pages are accessible only while the
// allocation is live, from its allocation node's run to the run of a free
// node, hipFree or hipFreeAsync, so that a use outside its life faults and
// memcheck names it.  A graph launched again while its allocation is still
// live frees it first.
//
// A device's graph memory is what its spans hold, counted as the work is
// launched, as CUDA reserves it: an allocation node's launch makes its span
// hold its bytes, which it keeps once freed, for its next launch, until
// hipDeviceGraphMemTrim, or until an allocation node of the device that
// holds nothing is launched and takes them over: on the stream its free was
// queued on, or once that free has run.  Reserved and used graph memory are
// both what is held.
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <map>
#include <mutex>

#include "graphs.h"

using namespace gpusym;

namespace {

struct Span : std::enable_shared_from_this<Span> {
  uintptr_t start;
  size_t pages;                 // bytes of its pages, before its guard page
  int device;
  bool freed_in_graph = false;  // a free node of its last allocation node is in its graph
  bool live = false;            // allocated by a node's run, not freed yet
  bool outstanding = false;     // its allocation node launched, no free queued since
  hipStream_t freeing = nullptr;  // the stream its free is queued on, until that free runs
  size_t held = 0;              // bytes of its device's graph memory it holds
  Span(uintptr_t start, size_t pages, int device) : start(start), pages(pages), device(device) {}
  ~Span();
};

// What an allocation node allocates each time it runs.
struct GraphAllocation {
  std::shared_ptr<Span> span;
  hipMemAllocNodeParams params;          // as given, with dptr; accessDescs point to `access`
  std::vector<hipMemAccessDesc> access;
  gpusym_allocation_made_by made_by;
  bool claimed = false;                  // by an instantiated graph (under the graphs' lock)
};

struct GraphMemory {
  std::mutex mutex;
  std::map<uintptr_t, Span *> spans;                // every span, by start
  std::map<uintptr_t, std::shared_ptr<Span>> live;  // the spans of live allocations
  std::vector<uint64_t> used, used_high, reserved_high;  // by device
};

GraphMemory &graph_memory() {
  static GraphMemory *instance = [] {
    auto *g = new GraphMemory;  // never destroyed: workers may run nodes until exit
    g->used.assign(device_count(), 0);
    g->used_high = g->reserved_high = g->used;
    return g;
  }();
  return *instance;
}

Span::~Span() {
  GraphMemory &g = graph_memory();
  {
    std::lock_guard<std::mutex> lock(g.mutex);
    g.spans.erase(start);
    g.used[device] -= held;
  }
  give_back_span(start, pages + device_page());
}

size_t round_up(size_t value, size_t to) { return (value + to - 1) / to * to; }

// With the lock held: the live allocation at `span` ends.
void end_live(Span &span) {
  remove_allocation(span.start);
  map_inaccessible_pages(span.start, span.pages);
  span.live = false;
}

// With the lock held: an allocation of `span` launched on `stream` holds
// graph memory of its device: its own, that of an allocation freed before
// it in `stream` or whose free has run, holding enough, or more.
void hold_memory(GraphMemory &g, Span &span, hipStream_t stream) {
  span.outstanding = true;
  if (span.held) return;
  for (auto &[start, other] : g.spans)
    if (other != &span && other->device == span.device && !other->outstanding &&
        (!other->freeing || other->freeing == stream) && other->held >= span.pages) {
      std::swap(span.held, other->held);
      return;
    }
  int device = span.device;
  span.held = span.pages;
  g.used[device] += span.held;
  g.used_high[device] = std::max(g.used_high[device], g.used[device]);
  g.reserved_high[device] = std::max(g.reserved_high[device], g.used[device]);
}

// An allocation node's run (a host operation: `data` is its GraphAllocation).
void run_alloc_node(void *data) {
  auto &allocation = *static_cast<GraphAllocation *>(data);
  Span &span = *allocation.span;
  GraphMemory &g = graph_memory();
  std::lock_guard<std::mutex> lock(g.mutex);
  if (span.live) end_live(span);  // launched again unfreed
  map_fresh_pages(span.start, span.pages);
  place_allocation(span.start, allocation.params.bytesize, span.device, Placement::kGraph, allocation.made_by, false);
  span.live = true;
  g.live[span.start] = allocation.span;
}

// A free node's run, or a free outside the graph (`data` is the Span).
void run_free_node(void *data) {
  auto &span = *static_cast<Span *>(data);
  GraphMemory &g = graph_memory();
  std::shared_ptr<Span> dropped;  // let go after the lock: it may be the last
  std::lock_guard<std::mutex> lock(g.mutex);
  span.freeing = nullptr;
  if (!span.live) return;
  end_live(span);
  auto found = g.live.find(span.start);
  dropped = std::move(found->second);
  g.live.erase(found);
}

GraphAllocation *allocation_of(const Op &op) {
  return is_alloc_node(op) ? static_cast<GraphAllocation *>(op.user_data) : nullptr;
}

bool valid_location(const hipMemLocation &location) {
  return location.type == hipMemLocationTypeDevice && valid_device(location.id);
}

bool valid_access(const hipMemAccessDesc &desc) {
  return valid_location(desc.location) &&
         (desc.flags == hipMemAccessFlagsProtNone || desc.flags == hipMemAccessFlagsProtRead ||
          desc.flags == hipMemAccessFlagsProtReadWrite);
}

// An operation of a graph: its node run by `run` on `data`, kept alive by `keep`.
std::unique_ptr<Op> memory_node(hipHostFn_t run, void *data, std::shared_ptr<void> keep) {
  auto op = std::make_unique<Op>(Op::kHost);
  op->host_fn = run;
  op->user_data = data;
  op->keep = std::move(keep);
  return op;
}

cudaError_t fail(const char *name, hipError_t error) {
  record(error, name);
  return static_cast<cudaError_t>(error);
}

}  // namespace

bool gpusym::is_alloc_node(const Op &op) { return op.kind == Op::kHost && op.host_fn == run_alloc_node; }
bool gpusym::is_free_node(const Op &op) { return op.kind == Op::kHost && op.host_fn == run_free_node; }

hipError_t gpusym::add_alloc_node(ihipGraph *graph, hipMemAllocNodeParams &params, Op **node) {
  const hipMemPoolProps &props = params.poolProps;
  if (!params.bytesize || props.allocType != hipMemAllocationTypePinned || !valid_location(props.location) ||
      props.handleTypes != hipMemHandleTypeNone || (params.accessDescCount && !params.accessDescs) ||
      params.accessDescCount > static_cast<size_t>(device_count()))
    return hipErrorInvalidValue;
  for (size_t i = 0; i < params.accessDescCount; i++)
    if (!valid_access(params.accessDescs[i])) return hipErrorInvalidValue;
  size_t page = device_page(), pages = round_up(params.bytesize, page);
  int device = props.location.id;
  GraphMemory &g = graph_memory();
  std::shared_ptr<Span> span;
  {
    std::lock_guard<std::mutex> lock(g.mutex);
    // The smallest span of an allocation the graph frees before this node.
    for (const auto &each : graph->nodes)
      if (GraphAllocation *earlier = allocation_of(*each)) {
        const Span &other = *earlier->span;
        if (other.freed_in_graph && other.device == device && other.pages >= pages &&
            (!span || other.pages < span->pages))
          span = earlier->span;
      }
    if (!span) {
      uintptr_t start = take_span(pages + page, page);
      if (!start) return hipErrorOutOfMemory;
      span = std::make_shared<Span>(start, pages, device);
      g.spans[start] = span.get();
    }
    span->freed_in_graph = false;
  }
  auto allocation = std::make_shared<GraphAllocation>();
  allocation->span = span;
  allocation->access.assign(params.accessDescs, params.accessDescs + params.accessDescCount);
  params.dptr = reinterpret_cast<void *>(span->start);
  allocation->params = params;
  allocation->params.accessDescs = allocation->access.data();
  allocation->made_by = in_cuda_call() ? GPUSYM_MADE_BY_CUDA_MALLOC_ASYNC : GPUSYM_MADE_BY_HIP_MALLOC_ASYNC;
  graph->nodes.push_back(memory_node(run_alloc_node, allocation.get(), allocation));
  if (node) *node = graph->nodes.back().get();
  return hipSuccess;
}

// The address must be an allocation node's, not freed yet in the graph:
// one of the graph's own, or of another graph.
hipError_t gpusym::add_free_node(ihipGraph *graph, void *pointer, Op **node) {
  GraphMemory &g = graph_memory();
  std::shared_ptr<Span> span;
  std::unique_lock<std::mutex> lock(g.mutex);
  auto found = g.spans.find(reinterpret_cast<uintptr_t>(pointer));
  if (found != g.spans.end()) span = found->second->weak_from_this().lock();
  if (!span) return hipErrorInvalidValue;
  bool allocated_here = false, freed_here = false;
  for (const auto &each : graph->nodes) {
    if (GraphAllocation *allocation = allocation_of(*each)) allocated_here |= allocation->span == span;
    freed_here |= is_free_node(*each) && each->user_data == span.get();
  }
  if (allocated_here ? span->freed_in_graph : freed_here) return hipErrorInvalidValue;
  span->freed_in_graph = allocated_here;
  lock.unlock();
  graph->nodes.push_back(memory_node(run_free_node, span.get(), span));
  if (node) *node = graph->nodes.back().get();
  return hipSuccess;
}

void gpusym::launch_memory_node(const Op &op, hipStream_t stream) {
  GraphMemory &g = graph_memory();
  std::lock_guard<std::mutex> lock(g.mutex);
  if (GraphAllocation *allocation = allocation_of(op)) return hold_memory(g, *allocation->span, stream);
  auto &span = *static_cast<Span *>(op.user_data);
  span.outstanding = false;
  span.freeing = stream;
}

bool gpusym::claim_allocations(const hipGraphExec &exec) {
  for (const auto &node : exec.nodes)
    if (GraphAllocation *allocation = allocation_of(*node); allocation && allocation->claimed) return false;
  for (const auto &node : exec.nodes)
    if (GraphAllocation *allocation = allocation_of(*node)) allocation->claimed = true;
  return true;
}

void gpusym::release_allocations(const hipGraphExec &exec) {
  for (const auto &node : exec.nodes)
    if (GraphAllocation *allocation = allocation_of(*node)) allocation->claimed = false;
}

// In a stream, the allocation may be one whose node is yet to run there:
// any allocation node's address is taken.
hipError_t gpusym::free_graph_allocation(void *pointer, hipStream_t stream, bool async) {
  GraphMemory &g = graph_memory();
  std::shared_ptr<Span> span;
  {
    std::lock_guard<std::mutex> lock(g.mutex);
    uintptr_t start = reinterpret_cast<uintptr_t>(pointer);
    if (auto live = g.live.find(start); live != g.live.end())
      span = live->second;
    else if (auto found = g.spans.find(start); async && found != g.spans.end())
      span = found->second->weak_from_this().lock();
    if (!span) return hipErrorInvalidValue;
    span->outstanding = false;
    span->freeing = async ? stream : nullptr;
  }
  if (!async) {
    run_free_node(span.get());
    return hipSuccess;
  }
  return queue_operation(memory_node(run_free_node, span.get(), span).release(), stream);
}

bool gpusym::is_graph_range(const void *pointer, size_t size) {
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  GraphMemory &g = graph_memory();
  std::lock_guard<std::mutex> lock(g.mutex);
  auto after = g.spans.upper_bound(address);
  if (after == g.spans.begin()) return false;
  const Span &span = *std::prev(after)->second;
  return address - span.start < span.pages && size <= span.start + span.pages - address;
}

bool gpusym::capture_allocation(void **pointer, size_t size, const hipMemPoolProps &props, hipStream_t stream,
                                hipError_t &error) {
  std::lock_guard<std::mutex> lock(graphs_mutex());
  ihipGraph *graph = capture_graph(stream);
  if (!graph) return false;
  hipMemAllocNodeParams params{};
  params.poolProps = props;
  params.poolProps.handleTypes = hipMemHandleTypeNone;
  params.bytesize = size;
  error = add_alloc_node(graph, params, nullptr);
  if (!error) *pointer = params.dptr;
  return true;
}

bool gpusym::capture_free(void *pointer, hipStream_t stream, hipError_t &error) {
  std::lock_guard<std::mutex> lock(graphs_mutex());
  ihipGraph *graph = capture_graph(stream);
  if (!graph) return false;
  error = add_free_node(graph, pointer, nullptr);
  return true;
}

static_assert(sizeof(cudaMemAllocNodeParams) == sizeof(hipMemAllocNodeParams) &&
                  offsetof(cudaMemAllocNodeParams, dptr) == offsetof(hipMemAllocNodeParams, dptr) &&
                  int(cudaGraphMemAttrReservedMemHigh) == int(hipGraphMemAttrReservedMemHigh),
              "CUDA's graph memory records are HIP's");

extern "C" {

cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *, size_t,
                                     cudaMemAllocNodeParams *nodeParams) {
  if (!pGraphNode || !nodeParams) return fail(__func__, hipErrorInvalidValue);
  ApiCall named(__func__);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  if (!is_graph(graph)) return fail(__func__, hipErrorInvalidValue);
  Op *node = nullptr;
  if (hipError_t error = add_alloc_node(graph, *reinterpret_cast<hipMemAllocNodeParams *>(nodeParams), &node))
    return fail(__func__, error);
  *pGraphNode = reinterpret_cast<cudaGraphNode_t>(node);
  return cudaSuccess;
}

cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph, const cudaGraphNode_t *, size_t,
                                    void *dptr) {
  if (!pGraphNode) return fail(__func__, hipErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  if (!is_graph(graph)) return fail(__func__, hipErrorInvalidValue);
  Op *node = nullptr;
  if (hipError_t error = add_free_node(graph, dptr, &node)) return fail(__func__, error);
  *pGraphNode = reinterpret_cast<cudaGraphNode_t>(node);
  return cudaSuccess;
}

cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t node, cudaMemAllocNodeParams *params_out) {
  if (!params_out) return fail(__func__, hipErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  const Op *op = find_node(node);
  const GraphAllocation *allocation = op ? allocation_of(*op) : nullptr;
  if (!allocation) return fail(__func__, hipErrorInvalidValue);
  memcpy(params_out, &allocation->params, sizeof *params_out);
  return cudaSuccess;
}

// The address the node frees, written to *dptr_out (a void *).
cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t node, void *dptr_out) {
  if (!dptr_out) return fail(__func__, hipErrorInvalidValue);
  std::lock_guard<std::mutex> lock(graphs_mutex());
  const Op *op = find_node(node);
  if (!op || !is_free_node(*op)) return fail(__func__, hipErrorInvalidValue);
  *static_cast<void **>(dptr_out) = reinterpret_cast<void *>(static_cast<const Span *>(op->user_data)->start);
  return cudaSuccess;
}

// The device's allocations freed (their frees run) give their memory back.
cudaError_t cudaDeviceGraphMemTrim(int device) {
  if (!valid_device(device)) return fail(__func__, hipErrorInvalidDevice);
  GraphMemory &g = graph_memory();
  std::lock_guard<std::mutex> lock(g.mutex);
  for (auto &[start, span] : g.spans)
    if (span->device == device && !span->live && !span->outstanding && !span->freeing) {
      g.used[device] -= span->held;
      span->held = 0;
    }
  return cudaSuccess;
}

cudaError_t cudaDeviceGetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value) {
  if (!valid_device(device)) return fail(__func__, hipErrorInvalidDevice);
  if (!value) return fail(__func__, hipErrorInvalidValue);
  GraphMemory &g = graph_memory();
  std::lock_guard<std::mutex> lock(g.mutex);
  uint64_t &out = *static_cast<uint64_t *>(value);
  switch (attr) {
    case cudaGraphMemAttrUsedMemCurrent:
    case cudaGraphMemAttrReservedMemCurrent: out = g.used[device]; return cudaSuccess;
    case cudaGraphMemAttrUsedMemHigh: out = g.used_high[device]; return cudaSuccess;
    case cudaGraphMemAttrReservedMemHigh: out = g.reserved_high[device]; return cudaSuccess;
  }
  return fail(__func__, hipErrorInvalidValue);
}

// Only the high watermarks, reset by 0 to what is used now.
cudaError_t cudaDeviceSetGraphMemAttribute(int device, cudaGraphMemAttributeType attr, void *value) {
  if (!valid_device(device)) return fail(__func__, hipErrorInvalidDevice);
  if (!value || *static_cast<uint64_t *>(value) != 0) return fail(__func__, hipErrorInvalidValue);
  GraphMemory &g = graph_memory();
  std::lock_guard<std::mutex> lock(g.mutex);
  if (attr == cudaGraphMemAttrUsedMemHigh)
    g.used_high[device] = g.used[device];
  else if (attr == cudaGraphMemAttrReservedMemHigh)
    g.reserved_high[device] = g.used[device];
  else
    return fail(__func__, hipErrorInvalidValue);
  return cudaSuccess;
}

}  // extern "C"
