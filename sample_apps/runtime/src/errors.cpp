// Error names and strings, the per-thread last error, diagnostics.
#include <cstdarg>
#include <cstdio>
#include <cstdlib>

#include "internal.h"

namespace gpusym {

namespace {
thread_local hipError_t last_error = hipSuccess;

struct ErrorText {
  hipError_t code;
  const char *name;
  const char *text;
};

constexpr ErrorText kErrors[] = {
    {hipSuccess, "hipSuccess", "no error"},
    {hipErrorInvalidValue, "hipErrorInvalidValue", "invalid argument"},
    {hipErrorOutOfMemory, "hipErrorOutOfMemory", "out of memory"},
    {hipErrorNotInitialized, "hipErrorNotInitialized", "initialization error"},
    {hipErrorDeinitialized, "hipErrorDeinitialized", "driver shutting down"},
    {hipErrorInvalidConfiguration, "hipErrorInvalidConfiguration", "invalid configuration argument"},
    {hipErrorInvalidSymbol, "hipErrorInvalidSymbol", "invalid device symbol"},
    {hipErrorInvalidDevicePointer, "hipErrorInvalidDevicePointer", "invalid device pointer"},
    {hipErrorInvalidMemcpyDirection, "hipErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"},
    {hipErrorMissingConfiguration, "hipErrorMissingConfiguration", "__global__ function call is not configured"},
    {hipErrorInvalidDeviceFunction, "hipErrorInvalidDeviceFunction", "invalid device function"},
    {hipErrorNoDevice, "hipErrorNoDevice", "no ROCm-capable device is detected"},
    {hipErrorInvalidDevice, "hipErrorInvalidDevice", "invalid device ordinal"},
    {hipErrorInvalidImage, "hipErrorInvalidImage", "device kernel image is invalid"},
    {hipErrorNoBinaryForGpu, "hipErrorNoBinaryForGpu", "no kernel image is available for execution on the device"},
    {hipErrorInvalidKernelFile, "hipErrorInvalidKernelFile", "invalid kernel file"},
    {hipErrorFileNotFound, "hipErrorFileNotFound", "file not found"},
    {hipErrorSharedObjectInitFailed, "hipErrorSharedObjectInitFailed", "shared object initialization failed"},
    {hipErrorInvalidHandle, "hipErrorInvalidHandle", "invalid resource handle"},
    {hipErrorNotFound, "hipErrorNotFound", "named symbol not found"},
    {hipErrorNotReady, "hipErrorNotReady", "device not ready"},
    {hipErrorIllegalAddress, "hipErrorIllegalAddress", "an illegal memory access was encountered"},
    {hipErrorLaunchOutOfResources, "hipErrorLaunchOutOfResources", "too many resources requested for launch"},
    {hipErrorPeerAccessAlreadyEnabled, "hipErrorPeerAccessAlreadyEnabled", "peer access is already enabled"},
    {hipErrorPeerAccessNotEnabled, "hipErrorPeerAccessNotEnabled", "peer access has not been enabled"},
    {hipErrorLaunchFailure, "hipErrorLaunchFailure", "unspecified launch failure"},
    {hipErrorNotSupported, "hipErrorNotSupported", "operation not supported"},
    {hipErrorUnknown, "hipErrorUnknown", "unknown error"},
};

const ErrorText *lookup(hipError_t code) {
  for (const ErrorText &entry : kErrors)
    if (entry.code == code) return &entry;
  return nullptr;
}
}  // namespace

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

}  // extern "C"
