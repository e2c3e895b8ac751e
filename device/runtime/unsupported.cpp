// Calls with no meaning for devices that are threads of this one process:
// interprocess handles, graphs and stream capture,
// memory pools.  Each answers hipErrorNotSupported, as HIP does for a feature
// a device lacks, so that a program can link, ask, and take another path.
#include "internal.h"

using gpusym::record;

extern "C" {

hipError_t hipIpcGetMemHandle(hipIpcMemHandle_t *, void *) { return record(hipErrorNotSupported); }
hipError_t hipIpcOpenMemHandle(void **, hipIpcMemHandle_t, unsigned int) { return record(hipErrorNotSupported); }
hipError_t hipIpcCloseMemHandle(void *) { return record(hipErrorNotSupported); }
hipError_t hipIpcGetEventHandle(hipIpcEventHandle_t *, hipEvent_t) { return record(hipErrorNotSupported); }
hipError_t hipIpcOpenEventHandle(hipEvent_t *, hipIpcEventHandle_t) { return record(hipErrorNotSupported); }

hipError_t hipStreamBeginCapture(hipStream_t, hipStreamCaptureMode) { return record(hipErrorNotSupported); }
hipError_t hipStreamEndCapture(hipStream_t, hipGraph_t *) { return record(hipErrorNotSupported); }
hipError_t hipGraphCreate(hipGraph_t *, unsigned int) { return record(hipErrorNotSupported); }
hipError_t hipGraphDestroy(hipGraph_t) { return record(hipErrorNotSupported); }
hipError_t hipGraphInstantiate(hipGraphExec_t *, hipGraph_t, void **, char *, size_t) {
  return record(hipErrorNotSupported);
}
hipError_t hipGraphLaunch(hipGraphExec_t, hipStream_t) { return record(hipErrorNotSupported); }
hipError_t hipGraphExecDestroy(hipGraphExec_t) { return record(hipErrorNotSupported); }

hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *, int) { return record(hipErrorNotSupported); }

hipError_t hipProfilerStart(void) { return record(hipErrorNotSupported); }
hipError_t hipProfilerStop(void) { return record(hipErrorNotSupported); }

// Since no capture can begin, no stream is ever capturing.
hipError_t hipStreamIsCapturing(hipStream_t, hipStreamCaptureStatus *status) {
  if (!status) return record(hipErrorInvalidValue);
  *status = hipStreamCaptureStatusNone;
  return hipSuccess;
}
hipError_t hipStreamGetCaptureInfo(hipStream_t stream, hipStreamCaptureStatus *status, unsigned long long *id) {
  if (hipError_t error = hipStreamIsCapturing(stream, status)) return error;
  if (id) *id = 0;
  return hipSuccess;
}

}  // extern "C"
