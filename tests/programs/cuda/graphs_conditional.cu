// CUDA graphs' conditional nodes: if, if/else, while and switch nodes whose
// handle a kernel sets, handles with a default each launch assigns, bodies
// captured into, and what is refused; one line per check, "NAME: ok" or
// what failed.
#include <cuda_runtime.h>

#include <cstdio>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

__global__ void set_from(const int *value, cudaGraphConditionalHandle handle) {
  cudaGraphSetConditional(handle, static_cast<unsigned>(*value));
}
__global__ void add(int *counter, int amount) { *counter += amount; }
// One trip of a loop: counts down, and keeps the loop going while above 0.
__global__ void count_down(int *counter, cudaGraphConditionalHandle handle) {
  *counter -= 1;
  cudaGraphSetConditional(handle, *counter > 0);
}

// A kernel node of `function` with `args` at the end of `graph`.
template <typename... Args>
cudaGraphNode_t kernel_node(cudaGraph_t graph, void (*function)(Args...), void **args) {
  cudaGraphNodeParams params = {cudaGraphNodeTypeKernel};
  params.kernel.func = reinterpret_cast<void *>(function);
  params.kernel.gridDim = dim3(1);
  params.kernel.blockDim = dim3(1);
  params.kernel.kernelParams = args;
  cudaGraphNode_t node = nullptr;
  cudaGraphAddNode(&node, graph, nullptr, 0, &params);
  return node;
}

// A conditional node of `type` with `size` bodies at the end of `graph`; its bodies in `bodies`.
cudaError_t conditional_node(cudaGraph_t graph, cudaGraphConditionalHandle handle, cudaGraphConditionalNodeType type,
                             unsigned size, cudaGraph_t *bodies, cudaGraphNode_t *node = nullptr) {
  cudaGraphNodeParams params = {cudaGraphNodeTypeConditional};
  params.conditional.handle = handle;
  params.conditional.type = type;
  params.conditional.size = size;
  cudaGraphNode_t made = nullptr;
  cudaError_t error = cudaGraphAddNode(&made, graph, nullptr, nullptr, 0, &params);
  for (unsigned i = 0; error == cudaSuccess && i < size; i++) bodies[i] = params.conditional.phGraph_out[i];
  if (node) *node = made;
  return error;
}

// Runs `exec` once with *value set to `set`; the counter after it.
int run_with(cudaGraphExec_t exec, int *value, int *counter, int set, int start = 0) {
  cudaMemcpy(value, &set, sizeof set, cudaMemcpyHostToDevice);
  cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice);
  cudaGraphLaunch(exec, 0);
  int result = -1;
  cudaMemcpy(&result, counter, sizeof result, cudaMemcpyDeviceToHost);
  return result;
}

int main() {
  int *value, *counter;
  cudaMalloc(&value, sizeof(int));
  cudaMalloc(&counter, sizeof(int));

  // if, then if/else: a kernel sets the handle, the bodies add 1 and 100.
  for (unsigned size = 1; size <= 2; size++) {
    cudaGraph_t graph, bodies[2];
    cudaGraphCreate(&graph, 0);
    cudaGraphConditionalHandle handle;
    cudaGraphConditionalHandleCreate(&handle, graph);
    void *set_args[] = {&value, &handle};
    kernel_node(graph, set_from, set_args);
    cudaGraphNode_t node = nullptr;
    bool added = conditional_node(graph, handle, cudaGraphCondTypeIf, size, bodies, &node) == cudaSuccess;
    int one = 1, hundred = 100;
    void *then_args[] = {&counter, &one}, *else_args[] = {&counter, &hundred};
    kernel_node(bodies[0], add, then_args);
    if (size == 2) kernel_node(bodies[1], add, else_args);
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    cudaGraphExec_t exec;
    added = added && cudaGraphNodeGetType(node, &type) == cudaSuccess && type == cudaGraphNodeTypeConditional &&
            cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
    kernel_node(bodies[0], add, then_args);  // after instantiating: the instantiated graph is as it was
    bool ran = added && run_with(exec, value, counter, 1) == 1 && run_with(exec, value, counter, 0) == (size == 2 ? 100 : 0) &&
               run_with(exec, value, counter, 7) == 1;
    CHECK(size == 1 ? "if" : "if_else", ran);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }

  // while, its handle set to 1 at each launch: the body runs until the counter reaches 0.
  {
    cudaGraph_t graph, body;
    cudaGraphCreate(&graph, 0);
    cudaGraphConditionalHandle handle;
    bool made = cudaGraphConditionalHandleCreate(&handle, graph, 1, cudaGraphCondAssignDefault) == cudaSuccess &&
                conditional_node(graph, handle, cudaGraphCondTypeWhile, 1, &body) == cudaSuccess;
    void *args[] = {&counter, &handle};
    kernel_node(body, count_down, args);
    cudaGraphExec_t exec;
    made = made && cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
    int trips = 0, start = 5;
    cudaMemcpy(counter, &start, sizeof start, cudaMemcpyHostToDevice);
    cudaGraphLaunch(exec, 0);
    cudaMemcpy(&trips, counter, sizeof trips, cudaMemcpyDeviceToHost);
    bool again = run_with(exec, value, counter, 0, 3) == 0;  // the default set the handle to 1 again
    CHECK("while_default", made && trips == 0 && again);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }

  // switch of three cases: body i adds 10^i; a value past the cases runs none.
  {
    cudaGraph_t graph, bodies[3];
    cudaGraphCreate(&graph, 0);
    cudaGraphConditionalHandle handle;
    cudaGraphConditionalHandleCreate(&handle, graph);
    void *set_args[] = {&value, &handle};
    kernel_node(graph, set_from, set_args);
    bool made = conditional_node(graph, handle, cudaGraphCondTypeSwitch, 3, bodies) == cudaSuccess;
    int amounts[3] = {1, 10, 100};
    void *args[3][2] = {{&counter, &amounts[0]}, {&counter, &amounts[1]}, {&counter, &amounts[2]}};
    for (int i = 0; i < 3; i++) kernel_node(bodies[i], add, args[i]);
    cudaGraphExec_t exec;
    made = made && cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
    CHECK("switch", made && run_with(exec, value, counter, 0) == 1 && run_with(exec, value, counter, 1) == 10 &&
                        run_with(exec, value, counter, 2) == 100 && run_with(exec, value, counter, 3) == 0);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
  }

  // A while loop built by capture (CUDA 13's calls with edge data), its body captured into.
  {
    cudaStream_t stream, body_stream;
    cudaStreamCreate(&stream);
    cudaStreamCreate(&body_stream);
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    cudaStreamCaptureStatus status;
    cudaGraph_t graph = nullptr, body;
    const cudaGraphNode_t *dependencies = nullptr;
    size_t count = 0;
    bool made = cudaStreamGetCaptureInfo(stream, &status, nullptr, &graph, &dependencies, nullptr, &count) ==
                    cudaSuccess &&
                status == cudaStreamCaptureStatusActive && graph;
    cudaGraphConditionalHandle handle;
    cudaGraphConditionalHandleCreate(&handle, graph);
    set_from<<<1, 1, 0, stream>>>(value, handle);
    cudaGraphNode_t node = nullptr;
    made = made && conditional_node(graph, handle, cudaGraphCondTypeWhile, 1, &body, &node) == cudaSuccess &&
           cudaStreamUpdateCaptureDependencies(stream, &node, nullptr, 1, cudaStreamSetCaptureDependencies) ==
               cudaSuccess;
    int thousand = 1000;
    add<<<1, 1, 0, stream>>>(counter, thousand);
    made = made && cudaStreamEndCapture(stream, &graph) == cudaSuccess &&
           cudaStreamBeginCaptureToGraph(body_stream, body, nullptr, nullptr, 0, cudaStreamCaptureModeGlobal) ==
               cudaSuccess;
    count_down<<<1, 1, 0, body_stream>>>(counter, handle);
    cudaGraphExec_t exec;
    made = made && cudaStreamEndCapture(body_stream, nullptr) == cudaSuccess &&
           cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess;
    CHECK("captured_while", made && run_with(exec, value, counter, 1, 4) == 1000 &&
                                run_with(exec, value, counter, 0, 4) == 1004);
    // Launched into a capture, it is refused: its handle is read when the launch reaches it.
    cudaGraph_t outer = nullptr;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    cudaError_t launched = cudaGraphLaunch(exec, stream);
    CHECK("launch_in_capture_refused", launched == cudaErrorStreamCaptureUnsupported &&
                                           cudaStreamEndCapture(stream, &outer) == cudaSuccess);
    cudaGraphDestroy(outer);
    cudaGraphExecDestroy(exec);
    cudaGraphDestroy(graph);
    cudaStreamDestroy(stream);
    cudaStreamDestroy(body_stream);
  }

  // Refused: a while node of two bodies, a handle no graph made, cloning.
  {
    cudaGraph_t graph, bodies[2], clone = nullptr;
    cudaGraphCreate(&graph, 0);
    cudaGraphConditionalHandle handle;
    cudaGraphConditionalHandleCreate(&handle, graph);
    bool refused = conditional_node(graph, handle, cudaGraphCondTypeWhile, 2, bodies) == cudaErrorInvalidValue &&
                   conditional_node(graph, handle + 8, cudaGraphCondTypeIf, 1, bodies) == cudaErrorInvalidValue &&
                   cudaGraphConditionalHandleCreate(&handle, graph, 0, 2) == cudaErrorInvalidValue &&
                   conditional_node(graph, handle, cudaGraphCondTypeIf, 1, bodies) == cudaSuccess &&
                   cudaGraphClone(&clone, graph) == cudaErrorNotSupported &&
                   cudaGraphDestroy(bodies[0]) == cudaErrorInvalidValue;  // the node's
    CHECK("refused", refused && cudaGetLastError() == cudaErrorInvalidValue);
    cudaGraphDestroy(graph);
  }
  CHECK("no_error", cudaDeviceSynchronize() == cudaSuccess && cudaGetLastError() == cudaSuccess);
  return 0;
}
