// Stream capture and graphs: a kernel, copies, a memset and host functions
// captured (one stream forking into another and joining back), the graph
// replayed twice; a capture a synchronisation invalidates; one line per
// check, "NAME: ok" or what failed.
#include <cstdio>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

__global__ void increment(int *data) { data[threadIdx.x] += 1; }
__global__ void twice(int *data) { data[threadIdx.x] *= 2; }

int trace[16];
int traced = 0;
int *host_view = nullptr;
void CUDART_CB note(void *) { trace[traced++] = host_view[0]; }

int main() {
  int *data = nullptr, *host = nullptr;
  cudaMalloc(&data, 32 * sizeof(int));
  cudaMallocHost(&host, 32 * sizeof(int));
  host_view = host;
  cudaStream_t stream, side;
  cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&side, cudaStreamNonBlocking);
  cudaEvent_t fork, join;
  cudaEventCreate(&fork);
  cudaEventCreate(&join);

  cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
  CHECK("not_capturing", cudaStreamIsCapturing(stream, &status) == cudaSuccess &&
                             status == cudaStreamCaptureStatusNone);
  CHECK("begin", cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
  CHECK("capturing", cudaStreamIsCapturing(stream, &status) == cudaSuccess && status == cudaStreamCaptureStatusActive);
  cudaMemsetAsync(data, 0, 32 * sizeof(int), stream);
  increment<<<1, 32, 0, stream>>>(data);
  cudaEventRecord(fork, stream);
  cudaStreamWaitEvent(side, fork, 0);
  twice<<<1, 32, 0, side>>>(data);
  cudaEventRecord(join, side);
  cudaStreamWaitEvent(stream, join, 0);
  increment<<<1, 32, 0, stream>>>(data);
  cudaMemcpyAsync(host, data, 32 * sizeof(int), cudaMemcpyDeviceToHost, stream);
  cudaLaunchHostFunc(stream, note, nullptr);
  cudaGraph_t graph = nullptr;
  CHECK("end", cudaStreamEndCapture(stream, &graph) == cudaSuccess && graph);
  CHECK("nothing_ran", cudaDeviceSynchronize() == cudaSuccess && traced == 0);
  size_t nodes = 0;
  CHECK("nodes", cudaGraphGetNodes(graph, nullptr, &nodes) == cudaSuccess && nodes == 6);

  cudaGraphExec_t exec = nullptr, exec_flags = nullptr;
  CHECK("instantiate", cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess &&
                           cudaGraphInstantiateWithFlags(&exec_flags, graph, 0) == cudaSuccess);
  CHECK("launch", cudaGraphLaunch(exec, stream) == cudaSuccess && cudaGraphLaunch(exec_flags, stream) == cudaSuccess &&
                      cudaStreamSynchronize(stream) == cudaSuccess);
  CHECK("replayed_in_order", traced == 2 && trace[0] == 3 && trace[1] == 3 && host[31] == 3);
  host[0] = 0;
  CHECK("replay_again", cudaGraphLaunch(exec, 0) == cudaSuccess && cudaDeviceSynchronize() == cudaSuccess &&
                            traced == 3 && trace[2] == 3);
  // Waiting for a capturing stream is refused and invalidates the capture:
  // its end gives no graph, and what it captured never runs.
  CHECK("begin_again", cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal) == cudaSuccess);
  increment<<<1, 32, 0, stream>>>(data);
  CHECK("sync_refused", cudaStreamSynchronize(stream) == cudaErrorStreamCaptureUnsupported &&
                            cudaGetLastError() == cudaErrorStreamCaptureUnsupported);
  CHECK("invalidated", cudaStreamIsCapturing(stream, &status) == cudaSuccess &&
                           status == cudaStreamCaptureStatusInvalidated);
  cudaGraph_t invalid = nullptr;
  CHECK("end_invalidated", cudaStreamEndCapture(stream, &invalid) == cudaErrorStreamCaptureInvalidated && !invalid);
  cudaGetLastError();
  CHECK("not_run", cudaMemcpy(host, data, sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess && host[0] == 3 &&
                       cudaStreamIsCapturing(stream, &status) == cudaSuccess && status == cudaStreamCaptureStatusNone);
  CHECK("legacy_refused", cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal) == cudaErrorStreamCaptureUnsupported);
  cudaGetLastError();
  CHECK("destroy", cudaGraphExecDestroy(exec) == cudaSuccess && cudaGraphExecDestroy(exec_flags) == cudaSuccess &&
                       cudaGraphDestroy(graph) == cudaSuccess);
  CHECK("destroy_twice", cudaGraphDestroy(graph) == cudaErrorInvalidValue);
  cudaGetLastError();
  cudaFree(data);
  cudaFreeHost(host);
  return 0;
}
