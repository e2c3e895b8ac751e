// HIP's stream capture: a kernel, a copy and a host function captured on a
// stream, instantiated, and the graph launched twice; nothing runs while
// capturing, and each launch replays the work in order.
#include <hip/hip_runtime.h>

#include <cstdio>

__global__ void add_one(int *values) { values[threadIdx.x] += 1; }

static void count_launch(void *launches) { ++*static_cast<int *>(launches); }

int main() {
  int *values, host[64] = {}, launches = 0;
  hipStream_t stream;
  hipStreamCreate(&stream);
  hipMalloc(&values, sizeof host);
  hipMemset(values, 0, sizeof host);
  hipGraph_t graph;
  hipGraphExec_t exec;
  hipStreamCaptureStatus status = hipStreamCaptureStatusNone;
  printf("begin: %s\n", hipGetErrorName(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal)));
  add_one<<<1, 64, 0, stream>>>(values);
  hipMemcpyAsync(host, values, sizeof host, hipMemcpyDeviceToHost, stream);
  hipLaunchHostFunc(stream, count_launch, &launches);
  hipStreamIsCapturing(stream, &status);
  printf("capturing: %d\n", status == hipStreamCaptureStatusActive);
  printf("end: %s\n", hipGetErrorName(hipStreamEndCapture(stream, &graph)));
  hipStreamSynchronize(stream);
  printf("while captured: %d launches, value %d\n", launches, host[5]);
  printf("instantiate: %s\n", hipGetErrorName(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0)));
  for (int i = 0; i < 2; i++) hipGraphLaunch(exec, stream);
  hipStreamSynchronize(stream);
  printf("after two launches: %d launches, value %d\n", launches, host[63]);
  printf("legacy stream: %s\n", hipGetErrorName(hipStreamBeginCapture(nullptr, hipStreamCaptureModeGlobal)));
  hipGraphExecDestroy(exec);
  hipGraphDestroy(graph);
  hipFree(values);
  hipStreamDestroy(stream);
  return 0;
}
