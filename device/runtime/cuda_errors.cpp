// CUDA's errors: the name and text of every code of CUDA 12, the last
// error, and the failure of a device's context (a CUDA program's failed
// device assert), after which its CUDA calls fail.
#include <algorithm>
#include <atomic>
#include <cstring>
#include <iterator>

#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

// Defined (weak) by cuda_runtime_api.h in each source gpusym-nvcc builds.
extern "C" __attribute__((weak)) const int __gpusym_cuda_arch;

namespace {

struct CudaErrorText {
  cudaError_t code;
  const char *name;
  const char *text;
};

#define GPUSYM_CUDA_ERROR(code, text) {code, #code, text}
constexpr CudaErrorText kCudaErrors[] = {
    GPUSYM_CUDA_ERROR(cudaSuccess, "no error"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidValue, "invalid argument"),
    GPUSYM_CUDA_ERROR(cudaErrorMemoryAllocation, "out of memory"),
    GPUSYM_CUDA_ERROR(cudaErrorInitializationError, "initialization error"),
    GPUSYM_CUDA_ERROR(cudaErrorCudartUnloading, "driver shutting down"),
    GPUSYM_CUDA_ERROR(cudaErrorProfilerDisabled, "profiler disabled while using external profiling tool"),
    GPUSYM_CUDA_ERROR(cudaErrorProfilerNotInitialized, "profiler not initialized"),
    GPUSYM_CUDA_ERROR(cudaErrorProfilerAlreadyStarted, "profiler already started"),
    GPUSYM_CUDA_ERROR(cudaErrorProfilerAlreadyStopped, "profiler already stopped"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidConfiguration, "invalid configuration argument"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidPitchValue, "invalid pitch argument"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidSymbol, "invalid device symbol"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidHostPointer, "invalid host pointer"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidDevicePointer, "invalid device pointer"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidTexture, "invalid texture reference"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidTextureBinding, "texture is not bound to a pointer"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidChannelDescriptor, "invalid channel descriptor"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidMemcpyDirection, "invalid copy direction for memcpy"),
    GPUSYM_CUDA_ERROR(cudaErrorAddressOfConstant, "invalid address of constant"),
    GPUSYM_CUDA_ERROR(cudaErrorTextureFetchFailed, "fetch from texture failed"),
    GPUSYM_CUDA_ERROR(cudaErrorTextureNotBound, "cannot fetch from a texture that is not bound"),
    GPUSYM_CUDA_ERROR(cudaErrorSynchronizationError, "incorrect use of __syncthreads()"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidFilterSetting, "linear filtering not supported for non-float type"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidNormSetting, "read as normalized float not supported for 32-bit non-float type"),
    GPUSYM_CUDA_ERROR(cudaErrorMixedDeviceExecution, "device emulation mode and device execution mode cannot be mixed"),
    GPUSYM_CUDA_ERROR(cudaErrorNotYetImplemented, "feature not yet implemented"),
    GPUSYM_CUDA_ERROR(cudaErrorMemoryValueTooLarge, "memory size or pointer value too large to fit in 32 bit"),
    GPUSYM_CUDA_ERROR(cudaErrorStubLibrary, "CUDA driver is a stub library"),
    GPUSYM_CUDA_ERROR(cudaErrorInsufficientDriver, "CUDA driver version is insufficient for CUDA runtime version"),
    GPUSYM_CUDA_ERROR(cudaErrorCallRequiresNewerDriver, "API call is not supported in the installed CUDA driver"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidSurface, "invalid surface reference"),
    GPUSYM_CUDA_ERROR(cudaErrorDuplicateVariableName, "duplicate global variable looked up by string name"),
    GPUSYM_CUDA_ERROR(cudaErrorDuplicateTextureName, "duplicate texture looked up by string name"),
    GPUSYM_CUDA_ERROR(cudaErrorDuplicateSurfaceName, "duplicate surface looked up by string name"),
    GPUSYM_CUDA_ERROR(cudaErrorDevicesUnavailable, "all CUDA-capable devices are busy or unavailable"),
    GPUSYM_CUDA_ERROR(cudaErrorIncompatibleDriverContext, "incompatible driver context"),
    GPUSYM_CUDA_ERROR(cudaErrorMissingConfiguration, "__global__ function call is not configured"),
    GPUSYM_CUDA_ERROR(cudaErrorPriorLaunchFailure, "unspecified launch failure in prior launch"),
    GPUSYM_CUDA_ERROR(cudaErrorLaunchMaxDepthExceeded, "launch would exceed maximum depth of nested launches"),
    GPUSYM_CUDA_ERROR(cudaErrorLaunchFileScopedTex, "launch failed because kernel uses unsupported, file-scoped textures"),
    GPUSYM_CUDA_ERROR(cudaErrorLaunchFileScopedSurf, "launch failed because kernel uses unsupported, file-scoped surfaces"),
    GPUSYM_CUDA_ERROR(cudaErrorSyncDepthExceeded, "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth"),
    GPUSYM_CUDA_ERROR(cudaErrorLaunchPendingCountExceeded, "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidDeviceFunction, "invalid device function"),
    GPUSYM_CUDA_ERROR(cudaErrorNoDevice, "no CUDA-capable device is detected"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidDevice, "invalid device ordinal"),
    GPUSYM_CUDA_ERROR(cudaErrorDeviceNotLicensed, "device doesn't have valid Grid license"),
    GPUSYM_CUDA_ERROR(cudaErrorSoftwareValidityNotEstablished, "integrity checks failed"),
    GPUSYM_CUDA_ERROR(cudaErrorStartupFailure, "startup failure in cuda runtime"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidKernelImage, "device kernel image is invalid"),
    GPUSYM_CUDA_ERROR(cudaErrorDeviceUninitialized, "invalid device context"),
    GPUSYM_CUDA_ERROR(cudaErrorMapBufferObjectFailed, "mapping of buffer object failed"),
    GPUSYM_CUDA_ERROR(cudaErrorUnmapBufferObjectFailed, "unmapping of buffer object failed"),
    GPUSYM_CUDA_ERROR(cudaErrorArrayIsMapped, "array is mapped"),
    GPUSYM_CUDA_ERROR(cudaErrorAlreadyMapped, "resource already mapped"),
    GPUSYM_CUDA_ERROR(cudaErrorNoKernelImageForDevice, "no kernel image is available for execution on the device"),
    GPUSYM_CUDA_ERROR(cudaErrorAlreadyAcquired, "resource already acquired"),
    GPUSYM_CUDA_ERROR(cudaErrorNotMapped, "resource not mapped"),
    GPUSYM_CUDA_ERROR(cudaErrorNotMappedAsArray, "resource not mapped as array"),
    GPUSYM_CUDA_ERROR(cudaErrorNotMappedAsPointer, "resource not mapped as pointer"),
    GPUSYM_CUDA_ERROR(cudaErrorECCUncorrectable, "uncorrectable ECC error encountered"),
    GPUSYM_CUDA_ERROR(cudaErrorUnsupportedLimit, "limit is not supported on this architecture"),
    GPUSYM_CUDA_ERROR(cudaErrorDeviceAlreadyInUse, "exclusive-thread device already in use by a different thread"),
    GPUSYM_CUDA_ERROR(cudaErrorPeerAccessUnsupported, "peer access is not supported between these two devices"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidPtx, "a PTX JIT compilation failed"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidGraphicsContext, "invalid OpenGL or DirectX context"),
    GPUSYM_CUDA_ERROR(cudaErrorNvlinkUncorrectable, "uncorrectable NVLink error detected during the execution"),
    GPUSYM_CUDA_ERROR(cudaErrorJitCompilerNotFound, "PTX JIT compiler library not found"),
    GPUSYM_CUDA_ERROR(cudaErrorUnsupportedPtxVersion, "the provided PTX was compiled with an unsupported toolchain"),
    GPUSYM_CUDA_ERROR(cudaErrorJitCompilationDisabled, "PTX JIT compilation was disabled"),
    GPUSYM_CUDA_ERROR(cudaErrorUnsupportedExecAffinity, "the provided execution affinity is not supported by the device"),
    GPUSYM_CUDA_ERROR(cudaErrorUnsupportedDevSideSync, "the provided kernel uses device-side synchronization, which is not supported"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidSource, "device kernel image is invalid"),
    GPUSYM_CUDA_ERROR(cudaErrorFileNotFound, "file not found"),
    GPUSYM_CUDA_ERROR(cudaErrorSharedObjectSymbolNotFound, "shared object symbol not found"),
    GPUSYM_CUDA_ERROR(cudaErrorSharedObjectInitFailed, "shared object initialization failed"),
    GPUSYM_CUDA_ERROR(cudaErrorOperatingSystem, "OS call failed or operation not supported on this OS"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidResourceHandle, "invalid resource handle"),
    GPUSYM_CUDA_ERROR(cudaErrorIllegalState, "the operation cannot be performed in the present state"),
    GPUSYM_CUDA_ERROR(cudaErrorLossyQuery, "attempted introspection would be semantically lossy"),
    GPUSYM_CUDA_ERROR(cudaErrorSymbolNotFound, "named symbol not found"),
    GPUSYM_CUDA_ERROR(cudaErrorNotReady, "device not ready"),
    GPUSYM_CUDA_ERROR(cudaErrorIllegalAddress, "an illegal memory access was encountered"),
    GPUSYM_CUDA_ERROR(cudaErrorLaunchOutOfResources, "too many resources requested for launch"),
    GPUSYM_CUDA_ERROR(cudaErrorLaunchTimeout, "the launch timed out and was terminated"),
    GPUSYM_CUDA_ERROR(cudaErrorLaunchIncompatibleTexturing, "launch uses incompatible texturing mode"),
    GPUSYM_CUDA_ERROR(cudaErrorPeerAccessAlreadyEnabled, "peer access is already enabled"),
    GPUSYM_CUDA_ERROR(cudaErrorPeerAccessNotEnabled, "peer access has not been enabled"),
    GPUSYM_CUDA_ERROR(cudaErrorSetOnActiveProcess, "cannot set while device is active in this process"),
    GPUSYM_CUDA_ERROR(cudaErrorContextIsDestroyed, "context is destroyed"),
    GPUSYM_CUDA_ERROR(cudaErrorAssert, "device-side assert triggered"),
    GPUSYM_CUDA_ERROR(cudaErrorTooManyPeers, "peer mapping resources exhausted"),
    GPUSYM_CUDA_ERROR(cudaErrorHostMemoryAlreadyRegistered, "part or all of the requested memory range is already mapped"),
    GPUSYM_CUDA_ERROR(cudaErrorHostMemoryNotRegistered, "pointer does not correspond to a registered memory region"),
    GPUSYM_CUDA_ERROR(cudaErrorHardwareStackError, "hardware stack error"),
    GPUSYM_CUDA_ERROR(cudaErrorIllegalInstruction, "an illegal instruction was encountered"),
    GPUSYM_CUDA_ERROR(cudaErrorMisalignedAddress, "misaligned address"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidAddressSpace, "operation not supported on global/shared address space"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidPc, "invalid program counter"),
    GPUSYM_CUDA_ERROR(cudaErrorLaunchFailure, "unspecified launch failure"),
    GPUSYM_CUDA_ERROR(cudaErrorCooperativeLaunchTooLarge, "too many blocks in cooperative launch"),
    GPUSYM_CUDA_ERROR(cudaErrorNotPermitted, "operation not permitted"),
    GPUSYM_CUDA_ERROR(cudaErrorNotSupported, "operation not supported"),
    GPUSYM_CUDA_ERROR(cudaErrorSystemNotReady, "system not yet initialized"),
    GPUSYM_CUDA_ERROR(cudaErrorSystemDriverMismatch, "system has unsupported display driver / cuda driver combination"),
    GPUSYM_CUDA_ERROR(cudaErrorCompatNotSupportedOnDevice, "forward compatibility was attempted on non supported HW"),
    GPUSYM_CUDA_ERROR(cudaErrorMpsConnectionFailed, "MPS client failed to connect to the MPS control daemon or the MPS server"),
    GPUSYM_CUDA_ERROR(cudaErrorMpsRpcFailure, "the remote procedural call between the MPS server and the MPS client failed"),
    GPUSYM_CUDA_ERROR(cudaErrorMpsServerNotReady, "MPS server is not ready to accept new MPS client requests"),
    GPUSYM_CUDA_ERROR(cudaErrorMpsMaxClientsReached, "the hardware resources required to create MPS client have been exhausted"),
    GPUSYM_CUDA_ERROR(cudaErrorMpsMaxConnectionsReached, "the hardware resources required to support device connections have been exhausted"),
    GPUSYM_CUDA_ERROR(cudaErrorMpsClientTerminated, "the MPS client has been terminated by the server"),
    GPUSYM_CUDA_ERROR(cudaErrorCdpNotSupported, "the module is using CUDA Dynamic Parallelism, which is not supported"),
    GPUSYM_CUDA_ERROR(cudaErrorCdpVersionMismatch, "a module uses a CUDA Dynamic Parallelism version other than the driver's"),
    GPUSYM_CUDA_ERROR(cudaErrorStreamCaptureUnsupported, "operation not permitted when stream is capturing"),
    GPUSYM_CUDA_ERROR(cudaErrorStreamCaptureInvalidated, "operation failed due to a previous error during capture"),
    GPUSYM_CUDA_ERROR(cudaErrorStreamCaptureMerge, "operation would result in a merge of separate capture sequences"),
    GPUSYM_CUDA_ERROR(cudaErrorStreamCaptureUnmatched, "capture was not ended in the same stream as it began"),
    GPUSYM_CUDA_ERROR(cudaErrorStreamCaptureUnjoined, "capturing stream has unjoined work"),
    GPUSYM_CUDA_ERROR(cudaErrorStreamCaptureIsolation, "dependency created on uncaptured work in another stream"),
    GPUSYM_CUDA_ERROR(cudaErrorStreamCaptureImplicit, "operation would make the legacy stream depend on a capturing blocking stream"),
    GPUSYM_CUDA_ERROR(cudaErrorCapturedEvent, "operation not permitted on an event last recorded in a capturing stream"),
    GPUSYM_CUDA_ERROR(cudaErrorStreamCaptureWrongThread, "attempt to terminate a thread-local capture sequence from another thread"),
    GPUSYM_CUDA_ERROR(cudaErrorTimeout, "wait operation timed out"),
    GPUSYM_CUDA_ERROR(cudaErrorGraphExecUpdateFailure, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update"),
    GPUSYM_CUDA_ERROR(cudaErrorExternalDevice, "an async error has occurred in an external entity outside of CUDA"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidClusterSize, "a kernel launch error has occurred due to cluster misconfiguration"),
    GPUSYM_CUDA_ERROR(cudaErrorFunctionNotLoaded, "the function handle is not loaded"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidResourceType, "one or more resources passed in are not valid resource types for the operation"),
    GPUSYM_CUDA_ERROR(cudaErrorInvalidResourceConfiguration, "one or more resources are insufficient or non-applicable for the operation"),
    GPUSYM_CUDA_ERROR(cudaErrorUnknown, "unknown error"),
    GPUSYM_CUDA_ERROR(cudaErrorApiFailureBase, "api failure base"),
};
#undef GPUSYM_CUDA_ERROR

const CudaErrorText *lookup(cudaError_t code) {
  for (const CudaErrorText &entry : kCudaErrors)
    if (entry.code == code) return &entry;
  return nullptr;
}

constexpr int kMaxDevices = 64;
std::atomic<bool> any_failure{false};
std::atomic<int> failures[kMaxDevices];  // hipError_t, per device

// The calls a failed context still answers, as on an H100 with CUDA 13
// (the driver API's by analogy), sorted.
constexpr const char *kUnaffected[] = {
    "cuDeviceComputeCapability", "cuDeviceGet",           "cuDeviceGetAttribute",   "cuDeviceGetCount",
    "cuDeviceGetName",           "cuDeviceGetUuid",       "cuDeviceGetUuid_v2",     "cuDeviceTotalMem",
    "cuDriverGetVersion",        "cuInit",                "cudaDeviceGetAttribute", "cudaDeviceReset",
    "cudaDriverGetVersion",      "cudaGetDevice",         "cudaGetDeviceCount",     "cudaGetDeviceProperties",
    "cudaGetDeviceProperties_v2", "cudaRuntimeGetVersion", "cudaSetDevice",
};

bool unaffected(const char *call) {
  return std::binary_search(std::begin(kUnaffected), std::end(kUnaffected), call,
                            [](const char *a, const char *b) { return strcmp(a, b) < 0; });
}

// Whether the program has called CUDA's API (errors.cpp tells).
std::atomic<bool> cuda_called{false};

}  // namespace

// HIP's codes that CUDA has not (1052, 1053) are CUDA's unknown error.
const char *gpusym::cuda_error_name(hipError_t error) {
  const CudaErrorText *entry = lookup(static_cast<cudaError_t>(error));
  return entry ? entry->name : "cudaErrorUnknown";
}

void gpusym::note_cuda_call() {
  if (!cuda_called.load(std::memory_order_relaxed)) cuda_called.store(true, std::memory_order_relaxed);
}

bool gpusym::speaks_cuda() { return &__gpusym_cuda_arch || cuda_called.load(std::memory_order_relaxed); }

hipError_t gpusym::device_failure(int device) {
  if (!any_failure.load(std::memory_order_acquire) || device < 0) return hipSuccess;
  return static_cast<hipError_t>(failures[std::min(device, kMaxDevices - 1)].load(std::memory_order_acquire));
}

void gpusym::fail_device(int device, hipError_t error) {
  int expected = hipSuccess;
  failures[std::min(device, kMaxDevices - 1)].compare_exchange_strong(expected, error, std::memory_order_acq_rel);
  any_failure.store(true, std::memory_order_release);
}

hipError_t gpusym::context_failure(const char *call) {
  if (!any_failure.load(std::memory_order_acquire)) return hipSuccess;
  hipError_t failure = device_failure(current_device());
  return failure && !unaffected(call) ? failure : hipSuccess;
}

extern "C" {

// It returns the thread's last error and clears it, a failed context's too
// (as CUDA 13 does on an H100): the calls after it fail again.
cudaError_t cudaGetLastError(void) { return static_cast<cudaError_t>(hipGetLastError()); }

cudaError_t cudaPeekAtLastError(void) { return static_cast<cudaError_t>(hipPeekAtLastError()); }

const char *cudaGetErrorName(cudaError_t error) {
  const CudaErrorText *entry = lookup(error);
  return entry ? entry->name : "unrecognized error code";
}

const char *cudaGetErrorString(cudaError_t error) {
  const CudaErrorText *entry = lookup(error);
  return entry ? entry->text : "unrecognized error code";
}

}  // extern "C"
