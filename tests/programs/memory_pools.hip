// HIP's stream-ordered allocation, graph memory nodes and virtual memory
// management under their own names; one line per check, "NAME: ok" or
// "NAME: FAIL".  With an argument, a kernel reads memory given back and
// faults (after printing "base 0x..."): "freed" after hipFreeAsync, "reset"
// after hipDeviceReset, "unmapped" after hipMemUnmap.
#include <hip/hip_runtime.h>

#include <cstdint>
#include <cstdio>
#include <cstring>

static void check(const char *name, bool condition) {
  std::printf("%s: %s\n", name, condition ? "ok" : "FAIL");
}

constexpr int n = 64;

__global__ void fill(int *data, int value) { data[threadIdx.x] = value + threadIdx.x; }
__global__ void copy(const int *from, int *to) { to[threadIdx.x] = from[threadIdx.x]; }

static bool filled(const int *host, int value) {
  for (int i = 0; i < n; i++)
    if (host[i] != value + i) return false;
  return true;
}

static void stream_ordered(hipStream_t stream) {
  int *data = nullptr, host[n] = {};
  bool made = hipMallocAsync(reinterpret_cast<void **>(&data), sizeof host, stream) == hipSuccess;
  fill<<<1, n, 0, stream>>>(data, 9);
  hipMemcpyAsync(host, data, sizeof host, hipMemcpyDeviceToHost, stream);
  check("malloc_async", made && hipFreeAsync(data, stream) == hipSuccess &&
                            hipStreamSynchronize(stream) == hipSuccess && filled(host, 9));
  hipMemPool_t pool = nullptr;
  hipMemPoolProps props = {};
  props.allocType = hipMemAllocationTypePinned;
  props.location = {hipMemLocationTypeDevice, 0};
  uint64_t used = 1;
  bool created = hipMemPoolCreate(&pool, &props) == hipSuccess &&
                 hipMallocFromPoolAsync(reinterpret_cast<void **>(&data), 100, pool, stream) == hipSuccess &&
                 hipMemPoolGetAttribute(pool, hipMemPoolAttrUsedMemCurrent, &used) == hipSuccess && used == 100;
  check("pool", created && hipFreeAsync(data, stream) == hipSuccess && hipStreamSynchronize(stream) == hipSuccess &&
                    hipMemPoolDestroy(pool) == hipSuccess);
  check("free_twice", hipFreeAsync(data, stream) == hipErrorInvalidValue &&
                          hipGetLastError() == hipErrorInvalidValue);
}

static void graph_memory(hipStream_t stream) {
  hipGraph_t graph = nullptr, copy_graph = nullptr;
  hipGraphCreate(&graph, 0);
  hipMemAllocNodeParams params = {};
  params.poolProps.allocType = hipMemAllocationTypePinned;
  params.poolProps.location = {hipMemLocationTypeDevice, 0};
  params.bytesize = n * sizeof(int);
  hipGraphNode_t alloc = nullptr, freeing = nullptr;
  check("alloc_node", hipGraphAddMemAllocNode(&alloc, graph, nullptr, 0, &params) == hipSuccess && params.dptr);
  check("free_node", hipGraphAddMemFreeNode(&freeing, graph, &alloc, 1, params.dptr) == hipSuccess);
  hipGraphNodeType type = hipGraphNodeTypeEmpty;
  check("node_type", hipGraphNodeGetType(freeing, &type) == hipSuccess && type == hipGraphNodeTypeMemFree);
  hipGraphExec_t exec = nullptr;
  check("launch", hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0) == hipSuccess &&
                      hipGraphLaunch(exec, stream) == hipSuccess && hipStreamSynchronize(stream) == hipSuccess);
  check("clone_refused", hipGraphClone(&copy_graph, graph) == hipErrorNotSupported);
  uint64_t high = 0;
  check("graph_mem", hipDeviceGetGraphMemAttribute(0, hipGraphMemAttrUsedMemHigh, &high) == hipSuccess &&
                         high >= n * sizeof(int) && hipDeviceGraphMemTrim(0) == hipSuccess);
  hipGraphExecDestroy(exec);
  hipGraphDestroy(graph);
  hipGetLastError();
}

static void virtual_memory(hipStream_t stream) {
  hipMemAllocationProp prop = {};
  prop.type = hipMemAllocationTypePinned;
  prop.location = {hipMemLocationTypeDevice, 0};
  size_t granularity = 0;
  hipMemGetAllocationGranularity(&granularity, &prop, hipMemAllocationGranularityRecommended);
  hipMemGenericAllocationHandle_t handle = nullptr;
  void *address = nullptr;
  hipMemAccessDesc access = {prop.location, hipMemAccessFlagsProtReadWrite};
  bool mapped = hipMemCreate(&handle, granularity, &prop, 0) == hipSuccess &&
                hipMemAddressReserve(&address, granularity, 0, nullptr, 0) == hipSuccess &&
                hipMemMap(address, granularity, 0, handle, 0) == hipSuccess &&
                hipMemSetAccess(address, granularity, &access, 1) == hipSuccess;
  int *data = static_cast<int *>(address), host[n] = {};
  fill<<<1, n, 0, stream>>>(data, 70);
  hipMemcpyAsync(host, data, sizeof host, hipMemcpyDeviceToHost, stream);
  check("mem_map", mapped && hipStreamSynchronize(stream) == hipSuccess && filled(host, 70));
  check("unmap", hipMemUnmap(address, granularity) == hipSuccess && hipMemRelease(handle) == hipSuccess &&
                     hipMemAddressFree(address, granularity) == hipSuccess);
}

// A kernel reads memory given back by hipFreeAsync, hipDeviceReset or hipMemUnmap.
static int fault(const char *mode, hipStream_t stream) {
  int *data = nullptr, *out = nullptr;
  if (std::strcmp(mode, "freed") == 0 || std::strcmp(mode, "reset") == 0) {
    hipMallocAsync(reinterpret_cast<void **>(&data), n * sizeof(int), stream);
    if (std::strcmp(mode, "freed") == 0) hipFreeAsync(data, stream);
    hipStreamSynchronize(stream);
    if (std::strcmp(mode, "reset") == 0) hipDeviceReset();  // the stream goes too
    stream = nullptr;
  } else {
    hipMemAllocationProp prop = {};
    prop.type = hipMemAllocationTypePinned;
    prop.location = {hipMemLocationTypeDevice, 0};
    size_t granularity = 0;
    hipMemGetAllocationGranularity(&granularity, &prop, hipMemAllocationGranularityMinimum);
    hipMemGenericAllocationHandle_t handle = nullptr;
    hipMemAccessDesc access = {prop.location, hipMemAccessFlagsProtReadWrite};
    hipMemCreate(&handle, granularity, &prop, 0);
    hipMemAddressReserve(reinterpret_cast<void **>(&data), granularity, 0, nullptr, 0);
    hipMemMap(data, granularity, 0, handle, 0);
    hipMemSetAccess(data, granularity, &access, 1);
    hipMemUnmap(data, granularity);
  }
  hipMalloc(reinterpret_cast<void **>(&out), n * sizeof(int));
  std::printf("base %p\n", static_cast<void *>(data));
  std::fflush(stdout);
  copy<<<1, n, 0, stream>>>(data + 4, out);
  hipStreamSynchronize(stream);
  return 0;
}

int main(int argc, char **argv) {
  hipStream_t stream;
  hipStreamCreate(&stream);
  if (argc > 1) return fault(argv[1], stream);
  stream_ordered(stream);
  graph_memory(stream);
  virtual_memory(stream);
  check("no_error", hipDeviceSynchronize() == hipSuccess && hipGetLastError() == hipSuccess);
  return 0;
}
