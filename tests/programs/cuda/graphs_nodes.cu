// A graph built node by node: a memset, a copy in, a kernel, a host
// function and a copy out, instantiated and launched twice, then a kernel
// node's parameters changed in the instantiated graph and the graph updated;
// one line per check, "NAME: ok" or what failed.
#include <cstdio>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

__global__ void add(int *data, int amount) { data[threadIdx.x] += amount; }
__global__ void scale(int *data, int factor) { data[threadIdx.x] *= factor; }

const int n = 32;
int trace[8];
int traced = 0;
int *host_view = nullptr;
void CUDART_CB note(void *) { trace[traced++] = host_view[n - 1]; }

int main() {
  int *data = nullptr, *host = nullptr, source[n];
  cudaMalloc(&data, n * sizeof(int));
  cudaMallocHost(&host, n * sizeof(int));
  host_view = host;
  for (int i = 0; i < n; i++) source[i] = i;
  cudaStream_t stream;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);

  cudaGraph_t graph = nullptr;
  CHECK("create", cudaGraphCreate(&graph, 0) == cudaSuccess && graph);

  cudaGraphNode_t clear = nullptr, copy_in = nullptr, kernel = nullptr, copy_out = nullptr, host_node = nullptr;
  cudaGraphNode_t empty = nullptr, doubled = nullptr;
  cudaMemsetParams memset_params = {};
  memset_params.dst = data;
  memset_params.value = 0x7f;
  memset_params.elementSize = 4;
  memset_params.width = n;
  memset_params.height = 1;
  CHECK("memset_node", cudaGraphAddMemsetNode(&clear, graph, nullptr, 0, &memset_params) == cudaSuccess && clear);

  cudaMemcpy3DParms copy_params = {};
  copy_params.srcPtr = make_cudaPitchedPtr(source, n * sizeof(int), n, 1);
  copy_params.dstPtr = make_cudaPitchedPtr(data, n * sizeof(int), n, 1);
  copy_params.extent = make_cudaExtent(n * sizeof(int), 1, 1);
  copy_params.kind = cudaMemcpyHostToDevice;
  CHECK("memcpy_node", cudaGraphAddMemcpyNode(&copy_in, graph, &clear, 1, &copy_params) == cudaSuccess);

  int amount = 100;
  void *add_args[] = {&data, &amount};
  cudaKernelNodeParams kernel_params = {};
  kernel_params.func = reinterpret_cast<void *>(add);
  kernel_params.gridDim = dim3(1);
  kernel_params.blockDim = dim3(n);
  kernel_params.kernelParams = add_args;
  CHECK("kernel_node", cudaGraphAddKernelNode(&kernel, graph, &copy_in, 1, &kernel_params) == cudaSuccess);
  amount = 5;  // the node keeps the value the arguments had when it was added

  // A scale by 2 through cudaGraphAddNode.
  int factor = 2;
  void *scale_args[] = {&data, &factor};
  cudaGraphNodeParams generic = {};
  generic.type = cudaGraphNodeTypeKernel;
  generic.kernel.func = reinterpret_cast<void *>(scale);
  generic.kernel.gridDim = dim3(1);
  generic.kernel.blockDim = dim3(n);
  generic.kernel.kernelParams = scale_args;
  CHECK("add_node", cudaGraphAddNode(&doubled, graph, &kernel, 1, &generic) == cudaSuccess && doubled);
  CHECK("empty_node", cudaGraphAddEmptyNode(&empty, graph, &doubled, 1) == cudaSuccess && empty);

  CHECK("memcpy_node_1d", cudaGraphAddMemcpyNode1D(&copy_out, graph, &empty, 1, host, data, n * sizeof(int),
                                                   cudaMemcpyDeviceToHost) == cudaSuccess);
  cudaHostNodeParams host_params = {note, nullptr};
  CHECK("host_node", cudaGraphAddHostNode(&host_node, graph, &copy_out, 1, &host_params) == cudaSuccess);
  CHECK("dependencies", cudaGraphAddDependencies(graph, &clear, &kernel, 1) == cudaSuccess);

  size_t count = 0;
  CHECK("nodes", cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess && count == 7);
  cudaGraphNodeType types[7];
  cudaGraphNode_t all[7] = {clear, copy_in, kernel, doubled, empty, copy_out, host_node};
  bool typed = true;
  for (int i = 0; i < 7; i++) typed = typed && cudaGraphNodeGetType(all[i], &types[i]) == cudaSuccess;
  CHECK("node_types", typed && types[0] == cudaGraphNodeTypeMemset && types[1] == cudaGraphNodeTypeMemcpy &&
                          types[2] == cudaGraphNodeTypeKernel && types[3] == cudaGraphNodeTypeKernel &&
                          types[4] == cudaGraphNodeTypeEmpty && types[5] == cudaGraphNodeTypeMemcpy &&
                          types[6] == cudaGraphNodeTypeHost);

  cudaGraphExec_t exec = nullptr;
  CHECK("instantiate", cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess && exec);
  CHECK("launch", cudaGraphLaunch(exec, stream) == cudaSuccess && cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK("results_in_order", traced == 1 && trace[0] == (n - 1 + 100) * 2 && host[0] == 200);
  host[0] = -1;
  CHECK("launch_again", cudaGraphLaunch(exec, stream) == cudaSuccess &&
                            cudaStreamSynchronize(stream) == cudaSuccess && traced == 2 &&
                            trace[1] == trace[0] && host[0] == 200);

  // The instantiated kernel node adds 7 now; the graph itself is unchanged.
  amount = 7;
  CHECK("exec_kernel_set_params", cudaGraphExecKernelNodeSetParams(exec, kernel, &kernel_params) == cudaSuccess);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  CHECK("set_params_used", traced == 3 && trace[2] == (n - 1 + 7) * 2 && host[0] == 14);

  cudaGraphExecUpdateResultInfo info = {};
  CHECK("exec_update", cudaGraphExecUpdate(exec, graph, &info) == cudaSuccess &&
                           info.result == cudaGraphExecUpdateSuccess);
  cudaGraphLaunch(exec, stream);
  cudaStreamSynchronize(stream);
  CHECK("updated_from_graph", traced == 4 && host[0] == 200);

  cudaGraph_t other = nullptr;
  cudaGraphCreate(&other, 0);
  cudaGraphNode_t lone = nullptr;
  cudaGraphAddEmptyNode(&lone, other, nullptr, 0);
  CHECK("update_refused", cudaGraphExecUpdate(exec, other, &info) == cudaErrorGraphExecUpdateFailure &&
                              info.result == cudaGraphExecUpdateErrorTopologyChanged &&
                              cudaGetLastError() == cudaErrorGraphExecUpdateFailure);
  cudaGraphExecUpdateResult result = cudaGraphExecUpdateSuccess;  // CUDA 11's form
  CHECK("update_refused_cuda11", cudaGraphExecUpdate(exec, other, nullptr, &result) == cudaErrorGraphExecUpdateFailure &&
                                     result == cudaGraphExecUpdateErrorTopologyChanged &&
                                     cudaGetLastError() == cudaErrorGraphExecUpdateFailure);

  cudaGraphNodeParams semaphore = {};
  semaphore.type = cudaGraphNodeTypeExtSemaphoreSignal;
  cudaGraphNode_t refused = nullptr;
  CHECK("unsupported_nodes", cudaGraphAddNode(&refused, graph, nullptr, 0, &semaphore) == cudaErrorNotSupported &&
                                 cudaGetLastError() == cudaErrorNotSupported);

  CHECK("destroy", cudaGraphExecDestroy(exec) == cudaSuccess && cudaGraphDestroy(graph) == cudaSuccess &&
                       cudaGraphDestroy(other) == cudaSuccess);
  CHECK("no_error", cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess);
  return 0;
}
