// Graphs built node by node (kernel, memset, 1D copy, host function, and
// hipGraphAddNode), instantiated with flags and with parameters, uploaded
// and launched twice, then added to by a capture (hipStreamBeginCaptureToGraph);
// and the driver-style calls over the runtime's: arrays by descriptor,
// copies by descriptor, a texture object by the driver's descriptors,
// hipExtModuleLaunchKernel, hipStreamBatchMemOp and the occupancy templates.
// Prints one line per check that failed, then "ok" when none did.
#include <hip/hip_ext.h>
#include <hip/hip_runtime.h>

#include <cstdio>

static int failures = 0;
#define CHECK(cond)                                             \
  do {                                                          \
    if (!(cond)) printf("failed: %s (line %d)\n", #cond, __LINE__), failures++; \
  } while (0)

__global__ void add(int* data, int amount) { data[threadIdx.x] += amount; }
__global__ void fetch(hipTextureObject_t texture, float* out) { out[threadIdx.x] = tex1Dfetch<float>(texture, threadIdx.x); }

static void count_call(void* calls) { ++*static_cast<int*>(calls); }

static void graph_nodes() {
  constexpr int n = 64;
  int *data = nullptr, *copy = nullptr, host[n], calls = 0;
  CHECK(hipMalloc(&data, n * sizeof(int)) == hipSuccess && hipMalloc(&copy, n * sizeof(int)) == hipSuccess);
  hipGraph_t graph;
  CHECK(hipGraphCreate(&graph, 0) == hipSuccess);
  hipGraphNode_t memset, kernel, host_node, memcpy_node, extra;
  hipMemsetParams set = {};
  set.dst = data, set.elementSize = 4, set.width = n, set.height = 1, set.value = 5;
  CHECK(hipGraphAddMemsetNode(&memset, graph, nullptr, 0, &set) == hipSuccess);
  int amount = 10;
  void* args[] = {&data, &amount};
  hipKernelNodeParams launch = {};
  launch.func = reinterpret_cast<void*>(add), launch.gridDim = dim3(1), launch.blockDim = dim3(n);
  launch.kernelParams = args;
  CHECK(hipGraphAddKernelNode(&kernel, graph, &memset, 1, &launch) == hipSuccess);
  hipHostNodeParams call = {count_call, &calls};
  CHECK(hipGraphAddHostNode(&host_node, graph, &kernel, 1, &call) == hipSuccess);
  CHECK(hipGraphAddMemcpyNode1D(&memcpy_node, graph, &kernel, 1, copy, data, n * sizeof(int),
                                hipMemcpyDeviceToDevice) == hipSuccess);
  hipGraphNodeParams any = {};
  any.type = hipGraphNodeTypeKernel, any.kernel = launch;
  CHECK(hipGraphAddNode(&extra, graph, &memcpy_node, 1, &any) == hipSuccess);  // data: 5 + 20, copy: 15
  size_t count = 0;
  hipGraphNode_t nodes[5];
  CHECK(hipGraphGetNodes(graph, nullptr, &count) == hipSuccess && count == 5);
  CHECK(hipGraphGetNodes(graph, nodes, &count) == hipSuccess && nodes[0] == memset && nodes[4] == extra);
  CHECK(hipGraphAddKernelNode(&extra, graph, nullptr, 0, nullptr) == hipErrorInvalidValue);
  hipGraphExec_t exec, exec2;
  CHECK(hipGraphInstantiateWithFlags(&exec, graph, 0) == hipSuccess);
  CHECK(hipGraphUpload(exec, nullptr) == hipSuccess);
  for (int round = 0; round < 2; round++) {
    CHECK(hipGraphLaunch(exec, nullptr) == hipSuccess && hipDeviceSynchronize() == hipSuccess);
    CHECK(hipMemcpy(host, data, sizeof host, hipMemcpyDeviceToHost) == hipSuccess && host[7] == 25);
    CHECK(hipMemcpy(host, copy, sizeof host, hipMemcpyDeviceToHost) == hipSuccess && host[n - 1] == 15);
  }
  CHECK(calls == 2);
  // A capture adds to the same graph, after its nodes.
  hipStream_t stream;
  CHECK(hipStreamCreate(&stream) == hipSuccess);
  CHECK(hipStreamBeginCaptureToGraph(stream, graph, nullptr, nullptr, 0, hipStreamCaptureModeGlobal) == hipSuccess);
  add<<<1, n, 0, stream>>>(data, 100);
  hipGraph_t captured = nullptr;
  CHECK(hipStreamEndCapture(stream, &captured) == hipSuccess && captured == graph);
  hipGraphInstantiateParams params = {};
  CHECK(hipGraphInstantiateWithParams(&exec2, graph, &params) == hipSuccess);
  CHECK(params.result_out == hipGraphInstantiateSuccess);
  CHECK(hipGraphLaunch(exec2, stream) == hipSuccess && hipStreamSynchronize(stream) == hipSuccess);
  CHECK(hipMemcpy(host, data, sizeof host, hipMemcpyDeviceToHost) == hipSuccess && host[0] == 125);
  CHECK(hipGraphGetNodes(graph, nullptr, &count) == hipSuccess && count == 6);
  CHECK(hipGraphAddEmptyNode(&extra, graph, nullptr, 0) == hipSuccess);
  CHECK(hipGraphGetNodes(graph, nullptr, &count) == hipSuccess && count == 7);
  hipGraphExecDestroy(exec);
  hipGraphExecDestroy(exec2);
  hipGraphDestroy(graph);
  hipStreamDestroy(stream);
  hipFree(data);
  hipFree(copy);
}

static void driver_arrays() {
  HIP_ARRAY_DESCRIPTOR described = {16, 4, HIP_AD_FORMAT_FLOAT, 1}, back = {};
  hipArray_t array;
  CHECK(hipArrayCreate(&array, &described) == hipSuccess);
  CHECK(hipArrayGetDescriptor(&back, array) == hipSuccess);
  CHECK(back.Width == 16 && back.Height == 4 && back.Format == HIP_AD_FORMAT_FLOAT && back.NumChannels == 1);
  float in[4][16], out[4][16] = {};
  for (int y = 0; y < 4; y++)
    for (int x = 0; x < 16; x++) in[y][x] = y * 100.0f + x;
  hip_Memcpy2D copy = {};
  copy.srcMemoryType = hipMemoryTypeHost, copy.srcHost = in, copy.srcPitch = sizeof in[0];
  copy.dstMemoryType = hipMemoryTypeArray, copy.dstArray = array;
  copy.WidthInBytes = sizeof in[0], copy.Height = 4;
  CHECK(hipMemcpyParam2D(&copy) == hipSuccess);
  HIP_MEMCPY3D back_copy = {};  // rows 1-2, columns 2-5
  back_copy.srcMemoryType = hipMemoryTypeArray, back_copy.srcArray = array;
  back_copy.srcXInBytes = 2 * sizeof(float), back_copy.srcY = 1;
  back_copy.dstMemoryType = hipMemoryTypeHost, back_copy.dstHost = out, back_copy.dstPitch = sizeof out[0];
  back_copy.WidthInBytes = 4 * sizeof(float), back_copy.Height = 2, back_copy.Depth = 1;
  CHECK(hipDrvMemcpy3D(&back_copy) == hipSuccess);
  CHECK(out[0][0] == 102.0f && out[1][3] == 205.0f && out[0][4] == 0.0f);
  CHECK(hipArrayDestroy(array) == hipSuccess);

  float *linear = nullptr, *fetched = nullptr, got[16];
  CHECK(hipMalloc(&linear, sizeof in[0]) == hipSuccess && hipMalloc(&fetched, sizeof got) == hipSuccess);
  CHECK(hipMemcpy(linear, in[3], sizeof in[3], hipMemcpyHostToDevice) == hipSuccess);
  HIP_RESOURCE_DESC resource = {};
  resource.resType = HIP_RESOURCE_TYPE_LINEAR, resource.res.linear.devPtr = linear;
  resource.res.linear.format = HIP_AD_FORMAT_FLOAT, resource.res.linear.numChannels = 1;
  resource.res.linear.sizeInBytes = sizeof in[3];
  HIP_TEXTURE_DESC sampling = {};
  sampling.flags = HIP_TRSF_READ_AS_INTEGER;
  hipTextureObject_t texture;
  CHECK(hipTexObjectCreate(&texture, &resource, &sampling, nullptr) == hipSuccess);
  fetch<<<1, 16>>>(texture, fetched);
  CHECK(hipMemcpy(got, fetched, sizeof got, hipMemcpyDeviceToHost) == hipSuccess && got[9] == 309.0f);
  CHECK(hipTexObjectDestroy(texture) == hipSuccess);
  hipFree(linear);
  hipFree(fetched);
}

static void launches_and_memory_operations() {
  int *data = nullptr, host[8] = {};
  CHECK(hipMalloc(&data, sizeof host) == hipSuccess && hipMemset(data, 0, sizeof host) == hipSuccess);
  int amount = 3;
  void* args[] = {&data, &amount};
  hipFunction_t function = reinterpret_cast<hipFunction_t>(add);
  CHECK(hipExtModuleLaunchKernel(function, 8, 1, 1, 8, 1, 1, 0, nullptr, args, nullptr) == hipSuccess);
  CHECK(hipExtModuleLaunchKernel(function, 12, 1, 1, 8, 1, 1, 0, nullptr, args, nullptr) == hipErrorInvalidValue);
  hipStreamBatchMemOpParams ops[2] = {};
  ops[0].writeValue.operation = hipStreamMemOpWriteValue32, ops[0].writeValue.address = data + 1;
  ops[0].writeValue.value = 42;
  ops[1].operation = hipStreamMemOpBarrier;
  CHECK(hipStreamBatchMemOp(nullptr, 2, ops, 0) == hipSuccess);
  CHECK(hipMemcpy(host, data, sizeof host, hipMemcpyDeviceToHost) == hipSuccess && host[0] == 3 && host[1] == 42);
  int grid = 0, block = 0;
  CHECK(hipOccupancyMaxPotentialBlockSizeVariableSMem(&grid, &block, add, [](int size) { return size * 4; }) ==
        hipSuccess);
  CHECK(block == 1024 && grid >= 1);
  CHECK(hipOccupancyMaxPotentialBlockSizeWithFlags(&grid, &block, add, 0, 100) == hipSuccess && block == 100);
  hipFree(data);
}

int main() {
  graph_nodes();
  driver_arrays();
  launches_and_memory_operations();
  if (!failures) printf("ok\n");
  return failures ? 1 : 0;
}
