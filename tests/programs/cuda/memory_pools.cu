// Stream-ordered allocation and memory pools, graphs' memory nodes, graph
// clones, child graphs and event nodes, and the driver API's virtual memory
// management; one line per check, "NAME: ok" or "NAME: FAIL" with what went
// wrong.  With the argument "fault": a kernel reads memory freed by
// cudaFreeAsync (prints "base 0x..." first) and faults.
#include <cuda.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

static bool check(const char *name, bool condition, const char *what = "") {
  if (condition)
    std::printf("%s: ok\n", name);
  else
    std::printf("%s: FAIL %s (last error %s)\n", name, what, cudaGetErrorName(cudaGetLastError()));
  return condition;
}

constexpr int n = 256;

__global__ void fill(int *data, int value) { data[threadIdx.x + blockIdx.x * blockDim.x] = value + threadIdx.x; }
__global__ void add(int *data, int amount) { data[threadIdx.x + blockIdx.x * blockDim.x] += amount; }
__global__ void copy(const int *from, int *to) { to[threadIdx.x] = from[threadIdx.x]; }

// Whether host[i] == value + i for each of the n elements.
static bool filled(const int *host, int value) {
  for (int i = 0; i < n; i++)
    if (host[i] != value + i) return false;
  return true;
}

static uint64_t attribute(cudaMemPool_t pool, cudaMemPoolAttr attr) {
  uint64_t value = ~uint64_t{0};
  cudaMemPoolGetAttribute(pool, attr, &value);
  return value;
}

static cudaMemPoolProps device_pool_props() {
  cudaMemPoolProps props = {};
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  return props;
}

static void round_trips(cudaStream_t stream) {
  int *data = nullptr, host[n] = {};
  bool made = cudaMallocAsync(&data, n * sizeof(int), stream) == cudaSuccess && data;
  fill<<<1, n, 0, stream>>>(data, 10);
  add<<<1, n, 0, stream>>>(data, 5);
  cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, stream);
  bool freed = cudaFreeAsync(data, stream) == cudaSuccess;
  check("malloc_async", made && freed && cudaStreamSynchronize(stream) == cudaSuccess && filled(host, 15));

  cudaPointerAttributes attributes = {};
  int *other = nullptr;
  cudaMallocAsync(&other, 100, stream);
  bool device = cudaPointerGetAttributes(&attributes, other) == cudaSuccess &&
                attributes.type == cudaMemoryTypeDevice && attributes.device == 0;
  bool aligned = reinterpret_cast<uintptr_t>(other) % 256 == 0;
  check("pointer_attributes", device && aligned && cudaFreeAsync(other, stream) == cudaSuccess);

  // Two streams: an allocation made on one, used and freed on the other after an event.
  cudaStream_t second;
  cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking);
  cudaEvent_t made_event;
  cudaEventCreateWithFlags(&made_event, cudaEventDisableTiming);
  cudaMallocAsync(&data, n * sizeof(int), stream);
  fill<<<1, n, 0, stream>>>(data, 3);
  cudaEventRecord(made_event, stream);
  cudaStreamWaitEvent(second, made_event, 0);
  add<<<1, n, 0, second>>>(data, 4);
  cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, second);
  cudaFreeAsync(data, second);
  check("two_streams", cudaStreamSynchronize(second) == cudaSuccess && filled(host, 7));
  cudaEventDestroy(made_event);
  cudaStreamDestroy(second);

  bool legacy = true;
  for (cudaStream_t each : {cudaStream_t{}, cudaStreamLegacy, cudaStreamPerThread}) {
    std::memset(host, 0, sizeof host);
    legacy = legacy && cudaMallocAsync(&data, n * sizeof(int), each) == cudaSuccess;
    fill<<<1, n, 0, each>>>(data, 8);
    legacy = legacy && cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, each) == cudaSuccess &&
             cudaFreeAsync(data, each) == cudaSuccess && cudaStreamSynchronize(each) == cudaSuccess && filled(host, 8);
  }
  check("legacy_streams", legacy);

  bool zero = cudaMallocAsync(&data, 0, stream) == cudaSuccess && data == nullptr;
  check("zero_bytes", zero && cudaFreeAsync(nullptr, stream) == cudaSuccess);
}

static void pool_attributes(cudaStream_t stream) {
  cudaMemPool_t pool = nullptr;
  cudaDeviceGetDefaultMemPool(&pool, 0);
  uint64_t keep = UINT64_MAX;
  check("release_threshold", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) == cudaSuccess &&
                                 attribute(pool, cudaMemPoolAttrReleaseThreshold) == UINT64_MAX);

  void *first = nullptr, *second = nullptr;
  cudaMallocAsync(&first, 1000, stream);
  uint64_t used = attribute(pool, cudaMemPoolAttrUsedMemCurrent);
  uint64_t reserved = attribute(pool, cudaMemPoolAttrReservedMemCurrent);
  check("used_and_reserved", used == 1000 && reserved >= 1000);
  cudaFreeAsync(first, stream);
  cudaStreamSynchronize(stream);
  check("kept_below_threshold", attribute(pool, cudaMemPoolAttrUsedMemCurrent) == 0 &&
                                    attribute(pool, cudaMemPoolAttrReservedMemCurrent) == reserved &&
                                    attribute(pool, cudaMemPoolAttrUsedMemHigh) >= 1000);
  cudaMallocAsync(&second, 900, stream);
  check("reuse", second == first && attribute(pool, cudaMemPoolAttrReservedMemCurrent) == reserved);
  cudaFreeAsync(second, stream);
  cudaStreamSynchronize(stream);

  uint64_t zero = 0, one = 1;
  check("reset_high", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero) == cudaSuccess &&
                          attribute(pool, cudaMemPoolAttrUsedMemHigh) == 0 &&
                          cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReservedMemHigh, &zero) == cudaSuccess &&
                          attribute(pool, cudaMemPoolAttrReservedMemHigh) == reserved &&
                          cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &one) == cudaErrorInvalidValue &&
                          cudaGetLastError() == cudaErrorInvalidValue);
  check("trim", cudaMemPoolTrimTo(pool, 0) == cudaSuccess && attribute(pool, cudaMemPoolAttrReservedMemCurrent) == 0);

  check("released_at_sync", cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &zero) == cudaSuccess &&
                                cudaMallocAsync(&first, 5000, stream) == cudaSuccess &&
                                cudaFreeAsync(first, stream) == cudaSuccess &&
                                cudaStreamSynchronize(stream) == cudaSuccess &&
                                attribute(pool, cudaMemPoolAttrReservedMemCurrent) == 0);
  int opportunistic = -1;
  check("reuse_flags", cudaMemPoolGetAttribute(pool, cudaMemPoolReuseAllowOpportunistic, &opportunistic) ==
                               cudaSuccess &&
                           opportunistic == 1);
}

static void pools(cudaStream_t stream) {
  cudaMemPool_t default_pool = nullptr, current = nullptr, pool = nullptr;
  check("default_pool", cudaDeviceGetDefaultMemPool(&default_pool, 0) == cudaSuccess && default_pool &&
                            cudaDeviceGetMemPool(&current, 0) == cudaSuccess && current == default_pool);
  int supported = 0;
  check("pools_supported", cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0) == cudaSuccess &&
                               supported == 1);
  cudaMemPoolProps props = device_pool_props();
  props.maxSize = 4 << 20;
  check("pool_create", cudaMemPoolCreate(&pool, &props) == cudaSuccess && pool && pool != default_pool);

  int *data = nullptr, host[n] = {};
  bool made = cudaMallocFromPoolAsync(&data, n * sizeof(int), pool, stream) == cudaSuccess;
  fill<<<1, n, 0, stream>>>(data, 100);
  cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, stream);
  check("malloc_from_pool", made && cudaStreamSynchronize(stream) == cudaSuccess && filled(host, 100) &&
                                attribute(pool, cudaMemPoolAttrUsedMemCurrent) == n * sizeof(int) &&
                                attribute(default_pool, cudaMemPoolAttrUsedMemCurrent) == 0);
  cudaFreeAsync(data, stream);
  cudaStreamSynchronize(stream);

  void *too_big = nullptr;
  check("max_size", cudaMallocFromPoolAsync(&too_big, 8 << 20, pool, stream) == cudaErrorMemoryAllocation &&
                        cudaGetLastError() == cudaErrorMemoryAllocation);

  check("set_mem_pool", cudaDeviceSetMemPool(0, pool) == cudaSuccess &&
                            cudaDeviceGetMemPool(&current, 0) == cudaSuccess && current == pool &&
                            cudaMallocAsync(&data, 64, stream) == cudaSuccess &&
                            attribute(pool, cudaMemPoolAttrUsedMemCurrent) == 64 &&
                            cudaFreeAsync(data, stream) == cudaSuccess);

  cudaMemAccessDesc desc = {};
  desc.location.type = cudaMemLocationTypeDevice;
  desc.location.id = 0;
  desc.flags = cudaMemAccessFlagsProtReadWrite;
  cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
  cudaMemLocation location = desc.location;
  check("pool_access", cudaMemPoolSetAccess(pool, &desc, 1) == cudaSuccess &&
                           cudaMemPoolGetAccess(&flags, pool, &location) == cudaSuccess &&
                           flags == cudaMemAccessFlagsProtReadWrite);
  desc.flags = cudaMemAccessFlagsProtNone;  // a pool's own device keeps its access
  check("own_access_kept", cudaMemPoolSetAccess(pool, &desc, 1) == cudaErrorInvalidDevice &&
                               cudaGetLastError() == cudaErrorInvalidDevice);

  // An allocation outlives its destroyed pool; the device goes back to its default pool.
  cudaMallocFromPoolAsync(&data, n * sizeof(int), pool, stream);
  fill<<<1, n, 0, stream>>>(data, 7);
  cudaStreamSynchronize(stream);
  check("pool_destroy", cudaMemPoolDestroy(pool) == cudaSuccess && cudaDeviceGetMemPool(&current, 0) == cudaSuccess &&
                            current == default_pool);
  cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, stream);
  check("outlives_pool", cudaFreeAsync(data, stream) == cudaSuccess && cudaStreamSynchronize(stream) == cudaSuccess &&
                             filled(host, 7));
}

static void misuse(cudaStream_t stream) {
  void *data = nullptr;
  cudaMallocAsync(&data, 64, stream);
  cudaFreeAsync(data, stream);
  check("free_twice", cudaFreeAsync(data, stream) == cudaErrorInvalidValue &&
                          cudaGetLastError() == cudaErrorInvalidValue);
  cudaStreamSynchronize(stream);
  check("free_freed", cudaFreeAsync(data, stream) == cudaErrorInvalidValue && cudaFree(data) == cudaErrorInvalidValue);
  cudaGetLastError();

  cudaMemPool_t pool = nullptr, default_pool = nullptr;
  cudaMemPoolProps props = device_pool_props();
  cudaMemPoolCreate(&pool, &props);
  cudaMemPoolDestroy(pool);
  check("destroyed_pool", cudaMallocFromPoolAsync(&data, 64, pool, stream) == cudaErrorInvalidValue &&
                              cudaDeviceSetMemPool(0, pool) == cudaErrorInvalidValue &&
                              cudaMemPoolDestroy(pool) == cudaErrorInvalidValue);
  cudaDeviceGetDefaultMemPool(&default_pool, 0);
  check("default_pool_stays", cudaMemPoolDestroy(default_pool) == cudaErrorInvalidValue);
  props.location.id = 99;
  check("bad_props", cudaMemPoolCreate(&pool, &props) == cudaErrorInvalidValue &&
                         cudaDeviceGetDefaultMemPool(&pool, 99) == cudaErrorInvalidDevice);
  cudaMemPoolPtrExportData exported = {};
  cudaMallocAsync(&data, 64, stream);
  check("export_not_supported", cudaMemPoolExportPointer(&exported, data) == cudaErrorNotSupported &&
                                    cudaGetLastError() == cudaErrorNotSupported);
  void *plain = nullptr;
  cudaMalloc(&plain, 64);
  check("free_async_of_malloc", cudaFreeAsync(plain, stream) == cudaSuccess && cudaFree(data) == cudaSuccess &&
                                    cudaGetLastError() == cudaSuccess);
}

// Captured: an allocation, kernels on it, a copy out and its free; launched twice.
static void capture(cudaStream_t stream) {
  int *data = nullptr, host[n] = {};
  cudaGraph_t graph = nullptr;
  cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
  bool captured = cudaMallocAsync(&data, n * sizeof(int), stream) == cudaSuccess && data;
  fill<<<1, n, 0, stream>>>(data, 40);
  add<<<1, n, 0, stream>>>(data, 2);
  cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, stream);
  captured = captured && cudaFreeAsync(data, stream) == cudaSuccess;
  check("capture_alloc", cudaStreamEndCapture(stream, &graph) == cudaSuccess && captured && host[0] == 0);

  size_t count = 0;
  cudaGraphGetNodes(graph, nullptr, &count);
  cudaGraphNode_t nodes[8] = {};
  cudaGraphGetNodes(graph, nodes, &count);
  cudaGraphNodeType first = cudaGraphNodeTypeEmpty, last = cudaGraphNodeTypeEmpty;
  cudaGraphNodeGetType(nodes[0], &first);
  cudaGraphNodeGetType(nodes[count - 1], &last);
  check("captured_nodes", count == 5 && first == cudaGraphNodeTypeMemAlloc && last == cudaGraphNodeTypeMemFree);

  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiate(&exec, graph, 0);
  bool ok = true;
  for (int launch = 0; launch < 2; launch++) {
    std::memset(host, 0, sizeof host);
    ok = ok && cudaGraphLaunch(exec, stream) == cudaSuccess && cudaStreamSynchronize(stream) == cudaSuccess &&
         filled(host, 42);
  }
  check("capture_launched_twice", ok);
  uint64_t used = 1;
  check("graph_mem_freed", cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &used) == cudaSuccess &&
                               used >= n * sizeof(int));
  cudaGraph_t copy = nullptr;
  check("clone_refused", cudaGraphClone(&copy, graph) == cudaErrorNotSupported && cudaGetLastError());
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}

// Allocation and free nodes added node by node; the allocation outlives
// its graph's launch until cudaFree.
static void memory_nodes(cudaStream_t stream) {
  cudaGraph_t graph = nullptr;
  cudaGraphCreate(&graph, 0);
  cudaMemAllocNodeParams params = {};
  params.poolProps = device_pool_props();
  params.bytesize = n * sizeof(int);
  cudaGraphNode_t alloc = nullptr, kernel = nullptr, free_node = nullptr;
  check("alloc_node",
        cudaGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &params) == cudaSuccess && alloc && params.dptr);
  int *data = static_cast<int *>(params.dptr);
  int value = 60;
  void *args[] = {&data, &value};
  cudaKernelNodeParams kernel_params = {};
  kernel_params.func = reinterpret_cast<void *>(fill);
  kernel_params.gridDim = dim3(1);
  kernel_params.blockDim = dim3(n);
  kernel_params.kernelParams = args;
  cudaGraphAddKernelNode(&kernel, graph, &alloc, 1, &kernel_params);
  cudaMemAllocNodeParams got = {};
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  check("alloc_node_params", cudaGraphMemAllocNodeGetParams(alloc, &got) == cudaSuccess && got.dptr == data &&
                                 got.bytesize == n * sizeof(int) && cudaGraphNodeGetType(alloc, &type) == cudaSuccess &&
                                 type == cudaGraphNodeTypeMemAlloc);

  cudaGraphExec_t exec = nullptr;
  int host[n] = {};
  check("alloc_outlives_launch", cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess &&
                                     cudaGraphLaunch(exec, stream) == cudaSuccess &&
                                     cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, stream) ==
                                         cudaSuccess &&
                                     cudaStreamSynchronize(stream) == cudaSuccess && filled(host, 60) &&
                                     cudaFreeAsync(data, stream) == cudaSuccess);
  cudaGraphExec_t second = nullptr;
  check("one_instantiation", cudaGraphInstantiate(&second, graph, 0) == cudaErrorNotSupported && cudaGetLastError());

  // A graph of its own frees the allocation: launched after the first.
  cudaGraph_t freeing = nullptr;
  cudaGraphCreate(&freeing, 0);
  void *freed = nullptr;
  check("free_node", cudaGraphAddMemFreeNode(&free_node, freeing, nullptr, 0, data) == cudaSuccess &&
                         cudaGraphMemFreeNodeGetParams(free_node, &freed) == cudaSuccess && freed == data);
  cudaGraphExec_t freeing_exec = nullptr;
  cudaGraphInstantiate(&freeing_exec, freeing, 0);
  uint64_t used = 0;
  bool launched = cudaGraphLaunch(exec, stream) == cudaSuccess &&
                  cudaGraphLaunch(freeing_exec, stream) == cudaSuccess && cudaStreamSynchronize(stream) == cudaSuccess;
  check("graph_mem_attribute", launched &&
                                   cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &used) ==
                                       cudaSuccess &&
                                   used >= n * sizeof(int));
  check("graph_mem_trim", cudaDeviceGraphMemTrim(0) == cudaSuccess &&
                              cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &used) ==
                                  cudaSuccess &&
                              used == 0);
  // Freed in stream order right after the launch, its allocation node perhaps yet to run.
  check("free_async_after_launch", cudaGraphLaunch(exec, stream) == cudaSuccess &&
                                       cudaFreeAsync(data, stream) == cudaSuccess &&
                                       cudaStreamSynchronize(stream) == cudaSuccess &&
                                       cudaFree(data) == cudaErrorInvalidValue && cudaGetLastError());
  // Graph memory is reserved at the launch, kept once freed, and trimmed.
  cudaGraph_t reserving = nullptr;
  cudaGraphExec_t reserving_exec = nullptr;
  cudaGraphNode_t reserve = nullptr, release = nullptr;
  cudaGraphCreate(&reserving, 0);
  params.bytesize = 1 << 20;
  cudaGraphAddMemAllocNode(&reserve, reserving, nullptr, 0, &params);
  cudaGraphAddMemFreeNode(&release, reserving, &reserve, 1, params.dptr);
  cudaGraphInstantiate(&reserving_exec, reserving, 0);
  uint64_t at_launch = 0, after = 0, trimmed = 1;
  cudaDeviceGraphMemTrim(0);
  cudaGraphLaunch(reserving_exec, stream);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &at_launch);
  cudaStreamSynchronize(stream);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &after);
  cudaDeviceGraphMemTrim(0);
  cudaDeviceGetGraphMemAttribute(0, cudaGraphMemAttrReservedMemCurrent, &trimmed);
  check("reserved_at_launch", at_launch >= 1 << 20 && after == at_launch && trimmed == 0);
  cudaGraphExecDestroy(reserving_exec);
  cudaGraphDestroy(reserving);

  cudaGraph_t bad = nullptr;
  cudaGraphNode_t refused = nullptr;
  cudaGraphCreate(&bad, 0);
  int local = 0;
  check("free_node_refused", cudaGraphAddMemFreeNode(&refused, bad, nullptr, 0, &local) == cudaErrorInvalidValue &&
                                 cudaGetLastError() == cudaErrorInvalidValue);
  cudaGraphExecDestroy(freeing_exec);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(freeing);
  cudaGraphDestroy(graph);
  cudaGraphDestroy(bad);
}

// A graph cloned, a node found in its clone, a child graph node and event nodes.
static void graph_nodes(cudaStream_t stream) {
  int *data = nullptr, host[n] = {};
  cudaMalloc(&data, n * sizeof(int));
  cudaGraph_t child = nullptr, graph = nullptr, clone = nullptr;
  cudaGraphCreate(&child, 0);
  int value = 20, amount = 1;
  void *fill_args[] = {&data, &value}, *add_args[] = {&data, &amount};
  cudaKernelNodeParams p = {};
  p.gridDim = dim3(1);
  p.blockDim = dim3(n);
  p.func = reinterpret_cast<void *>(fill);
  p.kernelParams = fill_args;
  cudaGraphNode_t filling = nullptr, adding = nullptr, child_node = nullptr, record = nullptr, wait = nullptr;
  cudaGraphAddKernelNode(&filling, child, nullptr, 0, &p);

  cudaGraphCreate(&graph, 0);
  cudaGraph_t inner = nullptr;
  check("child_graph_node", cudaGraphAddChildGraphNode(&child_node, graph, nullptr, 0, child) == cudaSuccess &&
                                cudaGraphChildGraphNodeGetGraph(child_node, &inner) == cudaSuccess && inner &&
                                inner != child);
  p.func = reinterpret_cast<void *>(add);
  p.kernelParams = add_args;
  cudaGraphAddKernelNode(&adding, graph, &child_node, 1, &p);
  cudaEvent_t done = nullptr;
  cudaEventCreate(&done);
  cudaEvent_t got = nullptr;
  cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
  check("event_record_node", cudaGraphAddEventRecordNode(&record, graph, &adding, 1, done) == cudaSuccess &&
                                 cudaGraphEventRecordNodeGetEvent(record, &got) == cudaSuccess && got == done &&
                                 cudaGraphNodeGetType(record, &type) == cudaSuccess &&
                                 type == cudaGraphNodeTypeEventRecord);
  check("event_wait_node", cudaGraphAddEventWaitNode(&wait, graph, &record, 1, done) == cudaSuccess &&
                               cudaGraphEventWaitNodeGetEvent(wait, &got) == cudaSuccess && got == done &&
                               cudaGraphNodeGetType(child_node, &type) == cudaSuccess &&
                               type == cudaGraphNodeTypeGraph);

  cudaGraphExec_t exec = nullptr;
  cudaGraphInstantiate(&exec, graph, 0);
  cudaGraphLaunch(exec, stream);
  cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, stream);
  check("child_and_events_run", cudaEventSynchronize(done) == cudaSuccess &&
                                    cudaStreamSynchronize(stream) == cudaSuccess && filled(host, 21) &&
                                    cudaEventQuery(done) == cudaSuccess);

  cudaGraphNode_t found = nullptr, found_child = nullptr;
  check("clone", cudaGraphClone(&clone, graph) == cudaSuccess && clone && clone != graph);
  check("find_in_clone", cudaGraphNodeFindInClone(&found, adding, clone) == cudaSuccess && found && found != adding &&
                             cudaGraphNodeGetType(found, &type) == cudaSuccess && type == cudaGraphNodeTypeKernel &&
                             cudaGraphNodeFindInClone(&found_child, child_node, clone) == cudaSuccess &&
                             cudaGraphNodeFindInClone(&found, adding, graph) == cudaErrorInvalidValue &&
                             cudaGetLastError() == cudaErrorInvalidValue);
  cudaGraphDestroy(graph);  // the clone is a graph of its own
  cudaGraphExec_t clone_exec = nullptr;
  cudaMemset(data, 0, n * sizeof(int));
  check("clone_runs", cudaGraphInstantiate(&clone_exec, clone, 0) == cudaSuccess &&
                          cudaGraphLaunch(clone_exec, stream) == cudaSuccess &&
                          cudaMemcpyAsync(host, data, sizeof host, cudaMemcpyDeviceToHost, stream) == cudaSuccess &&
                          cudaStreamSynchronize(stream) == cudaSuccess && filled(host, 21));
  cudaGraphNodeParams params = {};
  params.type = cudaGraphNodeTypeGraph;
  params.graph.graph = child;
  cudaGraphNode_t added = nullptr;
  check("add_node_kinds", cudaGraphAddNode(&added, clone, nullptr, 0, &params) == cudaSuccess &&
                              cudaGraphNodeGetType(added, &type) == cudaSuccess && type == cudaGraphNodeTypeGraph);
  cudaGraphExecDestroy(clone_exec);
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(clone);
  cudaGraphDestroy(child);
  cudaEventDestroy(done);
  cudaFree(data);
}

// The driver API's virtual memory: one physical allocation mapped at two
// reserved addresses, written by a kernel through one and read through the other.
static void virtual_memory(cudaStream_t stream) {
  cuInit(0);
  CUdevice device = 0;
  cuDeviceGet(&device, 0);
  int supported = 0;
  check("vmm_supported", cuDeviceGetAttribute(&supported, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED,
                                              device) == CUDA_SUCCESS &&
                             supported == 1);
  CUmemAllocationProp prop = {};
  prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  prop.location.id = device;
  size_t granularity = 0;
  check("granularity", cuMemGetAllocationGranularity(&granularity, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM) ==
                               CUDA_SUCCESS &&
                           granularity > 0);
  size_t size = granularity;
  CUmemGenericAllocationHandle handle = 0;
  check("mem_create", cuMemCreate(&handle, size, &prop, 0) == CUDA_SUCCESS && handle);
  CUdeviceptr first = 0, second = 0;
  check("address_reserve", cuMemAddressReserve(&first, 2 * size, 0, 0, 0) == CUDA_SUCCESS && first &&
                               cuMemAddressReserve(&second, size, 0, 0, 0) == CUDA_SUCCESS && second &&
                               first % granularity == 0);
  check("mem_map", cuMemMap(first, size, 0, handle, 0) == CUDA_SUCCESS &&
                       cuMemMap(first + size, size, 0, handle, 0) == CUDA_SUCCESS &&
                       cuMemMap(second, size, 0, handle, 0) == CUDA_SUCCESS);
  CUmemAccessDesc access = {};
  access.location = prop.location;
  access.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  unsigned long long flags = 0;
  check("set_access", cuMemSetAccess(first, 2 * size, &access, 1) == CUDA_SUCCESS &&
                          cuMemSetAccess(second, size, &access, 1) == CUDA_SUCCESS &&
                          cuMemGetAccess(&flags, &prop.location, first) == CUDA_SUCCESS &&
                          flags == CU_MEM_ACCESS_FLAGS_PROT_READWRITE);
  CUmemGenericAllocationHandle retained = 0;
  CUmemAllocationProp got = {};
  check("retain_handle", cuMemRetainAllocationHandle(&retained, reinterpret_cast<void *>(second)) == CUDA_SUCCESS &&
                             retained == handle && cuMemRelease(retained) == CUDA_SUCCESS &&
                             cuMemGetAllocationPropertiesFromHandle(&got, handle) == CUDA_SUCCESS &&
                             got.location.id == device);

  int *written = reinterpret_cast<int *>(first), *read = reinterpret_cast<int *>(second), host[n] = {};
  fill<<<1, n, 0, stream>>>(written, 500);
  int *across = reinterpret_cast<int *>(first + size - n / 2 * sizeof(int));  // spans both mappings
  add<<<1, n, 0, stream>>>(across, 0);
  cudaMemcpyAsync(host, read, sizeof host, cudaMemcpyDeviceToHost, stream);
  check("kernel_writes_mapping", cudaStreamSynchronize(stream) == cudaSuccess && filled(host, 500));
  cudaPointerAttributes attributes = {};
  check("mapping_is_device_memory", cudaPointerGetAttributes(&attributes, read) == cudaSuccess &&
                                        attributes.type == cudaMemoryTypeDevice &&
                                        cudaMemset(across, 0, n * sizeof(int)) == cudaSuccess);

  int shareable = -1;
  check("vmm_export_not_supported",
        cuMemExportToShareableHandle(&shareable, handle, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0) ==
            CUDA_ERROR_NOT_SUPPORTED);
  check("misuse", cuMemMap(first, size, 0, handle, 0) == CUDA_ERROR_INVALID_VALUE &&
                      cuMemAddressFree(second, size) == CUDA_ERROR_INVALID_VALUE &&
                      cuMemUnmap(first, size / 2) == CUDA_ERROR_INVALID_VALUE &&
                      cudaFree(read) == cudaErrorInvalidValue &&
                      cuMemCreate(&retained, 1000, &prop, 0) == CUDA_ERROR_INVALID_VALUE);
  cudaGetLastError();
  check("unmap_release", cuMemUnmap(first, 2 * size) == CUDA_SUCCESS && cuMemUnmap(second, size) == CUDA_SUCCESS &&
                             cuMemRelease(handle) == CUDA_SUCCESS &&
                             cuMemAddressFree(first, 2 * size) == CUDA_SUCCESS &&
                             cuMemAddressFree(second, size) == CUDA_SUCCESS &&
                             cuMemRelease(handle) == CUDA_ERROR_INVALID_VALUE);
  cudaGetLastError();
}

// A kernel reads memory cudaFreeAsync freed: a fault naming the allocation.
static int read_after_free(cudaStream_t stream) {
  int *data = nullptr, *out = nullptr;
  cudaMalloc(&out, n * sizeof(int));
  cudaMallocAsync(&data, n * sizeof(int), stream);
  fill<<<1, n, 0, stream>>>(data, 1);
  cudaFreeAsync(data, stream);
  cudaStreamSynchronize(stream);
  std::printf("base %p\n", static_cast<void *>(data));
  std::fflush(stdout);
  copy<<<1, n, 0, stream>>>(data, out);
  cudaStreamSynchronize(stream);
  return 0;
}

int main(int argc, char **argv) {
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  if (argc > 1 && std::strcmp(argv[1], "fault") == 0) return read_after_free(stream);
  round_trips(stream);
  pool_attributes(stream);
  pools(stream);
  misuse(stream);
  capture(stream);
  memory_nodes(stream);
  graph_nodes(stream);
  virtual_memory(stream);
  check("no_error", cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess);
  cudaStreamDestroy(stream);
  return 0;
}
