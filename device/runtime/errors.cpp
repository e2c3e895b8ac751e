// Error names and strings, the per-thread last error, diagnostics.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "internal.h"

namespace gpusym {

namespace {
thread_local hipError_t last_error = hipSuccess;
thread_local const char *api_call = nullptr;  // the API function the program called (ApiCall), if any

struct ErrorText {
  hipError_t code;
  const char *name;
  const char *text;
};

// Every code HIP defines, under its first name (2, 3, 205 and 400 have two).
#define GPUSYM_ERROR(code, text) {code, #code, text}
constexpr ErrorText kErrors[] = {
    GPUSYM_ERROR(hipSuccess, "no error"),
    GPUSYM_ERROR(hipErrorInvalidValue, "invalid argument"),
    GPUSYM_ERROR(hipErrorOutOfMemory, "out of memory"),
    GPUSYM_ERROR(hipErrorNotInitialized, "initialization error"),
    GPUSYM_ERROR(hipErrorDeinitialized, "driver shutting down"),
    GPUSYM_ERROR(hipErrorProfilerDisabled, "profiler disabled while using external profiling tool"),
    GPUSYM_ERROR(hipErrorProfilerNotInitialized, "profiler is not initialized"),
    GPUSYM_ERROR(hipErrorProfilerAlreadyStarted, "profiler already started"),
    GPUSYM_ERROR(hipErrorProfilerAlreadyStopped, "profiler already stopped"),
    GPUSYM_ERROR(hipErrorInvalidConfiguration, "invalid configuration argument"),
    GPUSYM_ERROR(hipErrorInvalidPitchValue, "invalid pitch argument"),
    GPUSYM_ERROR(hipErrorInvalidSymbol, "invalid device symbol"),
    GPUSYM_ERROR(hipErrorInvalidDevicePointer, "invalid device pointer"),
    GPUSYM_ERROR(hipErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
    GPUSYM_ERROR(hipErrorInsufficientDriver, "driver version is insufficient for runtime version"),
    GPUSYM_ERROR(hipErrorMissingConfiguration, "__global__ function call is not configured"),
    GPUSYM_ERROR(hipErrorPriorLaunchFailure, "unspecified launch failure in prior launch"),
    GPUSYM_ERROR(hipErrorInvalidDeviceFunction, "invalid device function"),
    GPUSYM_ERROR(hipErrorNoDevice, "no ROCm-capable device is detected"),
    GPUSYM_ERROR(hipErrorInvalidDevice, "invalid device ordinal"),
    GPUSYM_ERROR(hipErrorInvalidImage, "device kernel image is invalid"),
    GPUSYM_ERROR(hipErrorInvalidContext, "invalid device context"),
    GPUSYM_ERROR(hipErrorContextAlreadyCurrent, "context is already current context"),
    GPUSYM_ERROR(hipErrorMapFailed, "mapping of buffer object failed"),
    GPUSYM_ERROR(hipErrorUnmapFailed, "unmapping of buffer object failed"),
    GPUSYM_ERROR(hipErrorArrayIsMapped, "array is mapped"),
    GPUSYM_ERROR(hipErrorAlreadyMapped, "resource already mapped"),
    GPUSYM_ERROR(hipErrorNoBinaryForGpu, "no kernel image is available for execution on the device"),
    GPUSYM_ERROR(hipErrorAlreadyAcquired, "resource already acquired"),
    GPUSYM_ERROR(hipErrorNotMapped, "resource not mapped"),
    GPUSYM_ERROR(hipErrorNotMappedAsArray, "resource not mapped as array"),
    GPUSYM_ERROR(hipErrorNotMappedAsPointer, "resource not mapped as pointer"),
    GPUSYM_ERROR(hipErrorECCNotCorrectable, "uncorrectable ECC error encountered"),
    GPUSYM_ERROR(hipErrorUnsupportedLimit, "limit is not supported on this architecture"),
    GPUSYM_ERROR(hipErrorContextAlreadyInUse, "exclusive-thread device already in use by a different thread"),
    GPUSYM_ERROR(hipErrorPeerAccessUnsupported, "peer access is not supported between these two devices"),
    GPUSYM_ERROR(hipErrorInvalidKernelFile, "invalid kernel file"),
    GPUSYM_ERROR(hipErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context"),
    GPUSYM_ERROR(hipErrorInvalidSource, "device kernel image is invalid"),
    GPUSYM_ERROR(hipErrorFileNotFound, "file not found"),
    GPUSYM_ERROR(hipErrorSharedObjectSymbolNotFound, "shared object symbol not found"),
    GPUSYM_ERROR(hipErrorSharedObjectInitFailed, "shared object initialization failed"),
    GPUSYM_ERROR(hipErrorOperatingSystem, "OS call failed or operation not supported on this OS"),
    GPUSYM_ERROR(hipErrorInvalidHandle, "invalid resource handle"),
    GPUSYM_ERROR(hipErrorIllegalState, "the operation cannot be performed in the present state"),
    GPUSYM_ERROR(hipErrorNotFound, "named symbol not found"),
    GPUSYM_ERROR(hipErrorNotReady, "device not ready"),
    GPUSYM_ERROR(hipErrorIllegalAddress, "an illegal memory access was encountered"),
    GPUSYM_ERROR(hipErrorLaunchOutOfResources, "too many resources requested for launch"),
    GPUSYM_ERROR(hipErrorLaunchTimeOut, "the launch timed out and was terminated"),
    GPUSYM_ERROR(hipErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
    GPUSYM_ERROR(hipErrorPeerAccessNotEnabled, "peer access has not been enabled"),
    GPUSYM_ERROR(hipErrorSetOnActiveProcess, "cannot set while device is active in this process"),
    GPUSYM_ERROR(hipErrorContextIsDestroyed, "context is destroyed"),
    GPUSYM_ERROR(hipErrorAssert, "device-side assert triggered"),
    GPUSYM_ERROR(hipErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped"),
    GPUSYM_ERROR(hipErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region"),
    GPUSYM_ERROR(hipErrorLaunchFailure, "unspecified launch failure"),
    GPUSYM_ERROR(hipErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
    GPUSYM_ERROR(hipErrorNotSupported, "operation not supported"),
    GPUSYM_ERROR(hipErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"),
    GPUSYM_ERROR(hipErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture"),
    GPUSYM_ERROR(hipErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences"),
    GPUSYM_ERROR(hipErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began"),
    GPUSYM_ERROR(hipErrorStreamCaptureUnjoined, "capturing stream has unjoined work"),
    GPUSYM_ERROR(hipErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream"),
    GPUSYM_ERROR(hipErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream"),
    GPUSYM_ERROR(hipErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream"),
    GPUSYM_ERROR(hipErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture sequence from another thread"),
    GPUSYM_ERROR(hipErrorGraphExecUpdateFailure, "the graph update was not performed: it broke a rule of instantiated graph updates"),
    GPUSYM_ERROR(hipErrorInvalidChannelDescriptor, "invalid channel descriptor"),
    GPUSYM_ERROR(hipErrorInvalidTexture, "invalid texture"),
    GPUSYM_ERROR(hipErrorUnknown, "unknown error"),
    GPUSYM_ERROR(hipErrorRuntimeMemory, "runtime memory call returned error"),
    GPUSYM_ERROR(hipErrorRuntimeOther, "runtime call other than memory returned error"),
};
#undef GPUSYM_ERROR

const ErrorText *lookup(hipError_t code) {
  for (const ErrorText &entry : kErrors)
    if (entry.code == code) return &entry;
  return nullptr;
}
}  // namespace

ApiCall::ApiCall(const char *name) : outer_(api_call) {
  api_call = outer_ ? outer_ : name;
  if (name[0] == 'c' && name[1] == 'u') note_cuda_call();
}
ApiCall::~ApiCall() { api_call = outer_; }

const char *api_call_name(const char *call) { return api_call ? api_call : call; }

bool in_cuda_call() { return api_call && strncmp(api_call, "cuda", 4) == 0; }

void api_call_failed(hipError_t error, const char *call) {
  last_error = error;
  __asm__ volatile("" : : "r"(call));  // kept for a debugger reading it here
}

void warn(const char *format, ...) {
  char line[1024];
  va_list args;
  va_start(args, format);
  vsnprintf(line, sizeof line, format, args);
  va_end(args);
  fprintf(stderr, "gpusym: %s\n", line);
}

long env_long(const char *name, long fallback) {
  const char *text = getenv(name);
  if (!text || !*text) return fallback;
  char *end = nullptr;
  long value = strtol(text, &end, 0);
  if (*end != '\0') {
    warn("ignoring %s=%s: not an integer", name, text);
    return fallback;
  }
  return value;
}

}  // namespace gpusym

using namespace gpusym;

extern "C" {

hipError_t hipGetLastError(void) {
  hipError_t error = last_error;
  last_error = hipSuccess;
  return error;
}

hipError_t hipPeekAtLastError(void) { return last_error; }

const char *hipGetErrorName(hipError_t error) {
  const ErrorText *entry = lookup(error);
  return entry ? entry->name : "hipErrorUnknown";
}

const char *hipGetErrorString(hipError_t error) {
  const ErrorText *entry = lookup(error);
  return entry ? entry->text : "unknown error";
}

// The driver API's forms: the same texts, and hipErrorInvalidValue for a
// code HIP does not define (the text then says so, as HIP's does).
hipError_t hipDrvGetErrorName(hipError_t error, const char **name) {
  if (!name) return hipErrorInvalidValue;
  *name = hipGetErrorName(error);
  return lookup(error) ? hipSuccess : hipErrorInvalidValue;
}

hipError_t hipDrvGetErrorString(hipError_t error, const char **text) {
  if (!text) return hipErrorInvalidValue;
  *text = hipGetErrorString(error);
  return lookup(error) ? hipSuccess : hipErrorInvalidValue;
}

// HIP's own name of hipGetLastError: returns the last error and clears it.
hipError_t hipExtGetLastError(void) { return hipGetLastError(); }

}  // extern "C"
