// HIP's stream capture and graphs: the capture machinery of cuda_graphs.cpp,
// whose handles and enumerations HIP shares (hipGraph_t is cudaGraph_t,
// hipStreamCaptureMode cudaStreamCaptureMode), under HIP's names: a
// failure is recorded as the HIP function the program called.
#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

namespace {

hipError_t as_hip(cudaError_t error) { return static_cast<hipError_t>(error); }

}  // namespace

extern "C" {

hipError_t hipStreamBeginCapture(hipStream_t stream, hipStreamCaptureMode mode) {
  ApiCall named(__func__);
  return as_hip(cudaStreamBeginCapture(stream, static_cast<cudaStreamCaptureMode>(mode)));
}

hipError_t hipStreamEndCapture(hipStream_t stream, hipGraph_t *pGraph) {
  ApiCall named(__func__);
  return as_hip(cudaStreamEndCapture(stream, pGraph));
}

hipError_t hipStreamIsCapturing(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus) {
  ApiCall named(__func__);
  return as_hip(cudaStreamIsCapturing(stream, reinterpret_cast<cudaStreamCaptureStatus *>(pCaptureStatus)));
}

hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus *pCaptureStatus,
                                   unsigned long long *pId) {
  ApiCall named(__func__);
  auto *status = reinterpret_cast<cudaStreamCaptureStatus *>(pCaptureStatus);
  return as_hip(cudaStreamGetCaptureInfo(stream, status, pId, nullptr, nullptr, nullptr));
}

hipError_t hipGraphCreate(hipGraph_t *pGraph, unsigned int flags) {
  ApiCall named(__func__);
  return as_hip(cudaGraphCreate(pGraph, flags));
}

hipError_t hipGraphDestroy(hipGraph_t graph) {
  ApiCall named(__func__);
  return as_hip(cudaGraphDestroy(graph));
}

// The error node and log are never written: instantiating cannot fail on a
// graph made by capture.
hipError_t hipGraphInstantiate(hipGraphExec_t *pGraphExec, hipGraph_t graph, hipGraphNode_t *, char *, size_t) {
  ApiCall named(__func__);
  return as_hip(cudaGraphInstantiate(pGraphExec, graph, 0ull));
}

hipError_t hipGraphLaunch(hipGraphExec_t graphExec, hipStream_t stream) {
  ApiCall named(__func__);
  return as_hip(cudaGraphLaunch(graphExec, stream));
}

hipError_t hipGraphExecDestroy(hipGraphExec_t graphExec) {
  ApiCall named(__func__);
  return as_hip(cudaGraphExecDestroy(graphExec));
}

}  // extern "C"

static_assert(int(hipStreamCaptureModeRelaxed) == int(cudaStreamCaptureModeRelaxed) &&
                  int(hipStreamCaptureStatusInvalidated) == int(cudaStreamCaptureStatusInvalidated),
              "HIP's capture enumerations have CUDA's values");
