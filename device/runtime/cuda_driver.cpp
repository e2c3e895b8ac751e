// CUDA's driver API, the common part: each cu* function calls its hip*
// twin under the driver API's name (a failure is recorded as the program
// called it).  CUresult's numbers are HIP's where HIP has the code.
#include <cstring>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

namespace {

template <typename Call>
CUresult as_driver(const char *name, Call hip_call) {
  ApiCall named(name);
  return static_cast<CUresult>(hip_call());
}

CUresult fail(const char *name, CUresult error) {
  record(static_cast<hipError_t>(error), name);
  return error;
}

void *pointer(CUdeviceptr address) { return reinterpret_cast<void *>(static_cast<uintptr_t>(address)); }

#define GPUSYM_CU_ERROR(code) {code, #code}
constexpr struct {
  CUresult code;
  const char *name;
} kDriverErrors[] = {
    GPUSYM_CU_ERROR(CUDA_SUCCESS),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_VALUE),
    GPUSYM_CU_ERROR(CUDA_ERROR_OUT_OF_MEMORY),
    GPUSYM_CU_ERROR(CUDA_ERROR_NOT_INITIALIZED),
    GPUSYM_CU_ERROR(CUDA_ERROR_DEINITIALIZED),
    GPUSYM_CU_ERROR(CUDA_ERROR_PROFILER_DISABLED),
    GPUSYM_CU_ERROR(CUDA_ERROR_PROFILER_NOT_INITIALIZED),
    GPUSYM_CU_ERROR(CUDA_ERROR_PROFILER_ALREADY_STARTED),
    GPUSYM_CU_ERROR(CUDA_ERROR_PROFILER_ALREADY_STOPPED),
    GPUSYM_CU_ERROR(CUDA_ERROR_STUB_LIBRARY),
    GPUSYM_CU_ERROR(CUDA_ERROR_DEVICE_UNAVAILABLE),
    GPUSYM_CU_ERROR(CUDA_ERROR_NO_DEVICE),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_DEVICE),
    GPUSYM_CU_ERROR(CUDA_ERROR_DEVICE_NOT_LICENSED),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_IMAGE),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_CONTEXT),
    GPUSYM_CU_ERROR(CUDA_ERROR_CONTEXT_ALREADY_CURRENT),
    GPUSYM_CU_ERROR(CUDA_ERROR_MAP_FAILED),
    GPUSYM_CU_ERROR(CUDA_ERROR_UNMAP_FAILED),
    GPUSYM_CU_ERROR(CUDA_ERROR_ARRAY_IS_MAPPED),
    GPUSYM_CU_ERROR(CUDA_ERROR_ALREADY_MAPPED),
    GPUSYM_CU_ERROR(CUDA_ERROR_NO_BINARY_FOR_GPU),
    GPUSYM_CU_ERROR(CUDA_ERROR_ALREADY_ACQUIRED),
    GPUSYM_CU_ERROR(CUDA_ERROR_NOT_MAPPED),
    GPUSYM_CU_ERROR(CUDA_ERROR_NOT_MAPPED_AS_ARRAY),
    GPUSYM_CU_ERROR(CUDA_ERROR_NOT_MAPPED_AS_POINTER),
    GPUSYM_CU_ERROR(CUDA_ERROR_ECC_UNCORRECTABLE),
    GPUSYM_CU_ERROR(CUDA_ERROR_UNSUPPORTED_LIMIT),
    GPUSYM_CU_ERROR(CUDA_ERROR_CONTEXT_ALREADY_IN_USE),
    GPUSYM_CU_ERROR(CUDA_ERROR_PEER_ACCESS_UNSUPPORTED),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_PTX),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_GRAPHICS_CONTEXT),
    GPUSYM_CU_ERROR(CUDA_ERROR_NVLINK_UNCORRECTABLE),
    GPUSYM_CU_ERROR(CUDA_ERROR_JIT_COMPILER_NOT_FOUND),
    GPUSYM_CU_ERROR(CUDA_ERROR_UNSUPPORTED_PTX_VERSION),
    GPUSYM_CU_ERROR(CUDA_ERROR_JIT_COMPILATION_DISABLED),
    GPUSYM_CU_ERROR(CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY),
    GPUSYM_CU_ERROR(CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_SOURCE),
    GPUSYM_CU_ERROR(CUDA_ERROR_FILE_NOT_FOUND),
    GPUSYM_CU_ERROR(CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND),
    GPUSYM_CU_ERROR(CUDA_ERROR_SHARED_OBJECT_INIT_FAILED),
    GPUSYM_CU_ERROR(CUDA_ERROR_OPERATING_SYSTEM),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_HANDLE),
    GPUSYM_CU_ERROR(CUDA_ERROR_ILLEGAL_STATE),
    GPUSYM_CU_ERROR(CUDA_ERROR_LOSSY_QUERY),
    GPUSYM_CU_ERROR(CUDA_ERROR_NOT_FOUND),
    GPUSYM_CU_ERROR(CUDA_ERROR_NOT_READY),
    GPUSYM_CU_ERROR(CUDA_ERROR_ILLEGAL_ADDRESS),
    GPUSYM_CU_ERROR(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES),
    GPUSYM_CU_ERROR(CUDA_ERROR_LAUNCH_TIMEOUT),
    GPUSYM_CU_ERROR(CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING),
    GPUSYM_CU_ERROR(CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED),
    GPUSYM_CU_ERROR(CUDA_ERROR_PEER_ACCESS_NOT_ENABLED),
    GPUSYM_CU_ERROR(CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE),
    GPUSYM_CU_ERROR(CUDA_ERROR_CONTEXT_IS_DESTROYED),
    GPUSYM_CU_ERROR(CUDA_ERROR_ASSERT),
    GPUSYM_CU_ERROR(CUDA_ERROR_TOO_MANY_PEERS),
    GPUSYM_CU_ERROR(CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED),
    GPUSYM_CU_ERROR(CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED),
    GPUSYM_CU_ERROR(CUDA_ERROR_HARDWARE_STACK_ERROR),
    GPUSYM_CU_ERROR(CUDA_ERROR_ILLEGAL_INSTRUCTION),
    GPUSYM_CU_ERROR(CUDA_ERROR_MISALIGNED_ADDRESS),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_ADDRESS_SPACE),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_PC),
    GPUSYM_CU_ERROR(CUDA_ERROR_LAUNCH_FAILED),
    GPUSYM_CU_ERROR(CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE),
    GPUSYM_CU_ERROR(CUDA_ERROR_NOT_PERMITTED),
    GPUSYM_CU_ERROR(CUDA_ERROR_NOT_SUPPORTED),
    GPUSYM_CU_ERROR(CUDA_ERROR_SYSTEM_NOT_READY),
    GPUSYM_CU_ERROR(CUDA_ERROR_SYSTEM_DRIVER_MISMATCH),
    GPUSYM_CU_ERROR(CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE),
    GPUSYM_CU_ERROR(CUDA_ERROR_MPS_CONNECTION_FAILED),
    GPUSYM_CU_ERROR(CUDA_ERROR_MPS_RPC_FAILURE),
    GPUSYM_CU_ERROR(CUDA_ERROR_MPS_SERVER_NOT_READY),
    GPUSYM_CU_ERROR(CUDA_ERROR_MPS_MAX_CLIENTS_REACHED),
    GPUSYM_CU_ERROR(CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED),
    GPUSYM_CU_ERROR(CUDA_ERROR_MPS_CLIENT_TERMINATED),
    GPUSYM_CU_ERROR(CUDA_ERROR_CDP_NOT_SUPPORTED),
    GPUSYM_CU_ERROR(CUDA_ERROR_CDP_VERSION_MISMATCH),
    GPUSYM_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED),
    GPUSYM_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_INVALIDATED),
    GPUSYM_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_MERGE),
    GPUSYM_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNMATCHED),
    GPUSYM_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_UNJOINED),
    GPUSYM_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_ISOLATION),
    GPUSYM_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_IMPLICIT),
    GPUSYM_CU_ERROR(CUDA_ERROR_CAPTURED_EVENT),
    GPUSYM_CU_ERROR(CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD),
    GPUSYM_CU_ERROR(CUDA_ERROR_TIMEOUT),
    GPUSYM_CU_ERROR(CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE),
    GPUSYM_CU_ERROR(CUDA_ERROR_EXTERNAL_DEVICE),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_CLUSTER_SIZE),
    GPUSYM_CU_ERROR(CUDA_ERROR_FUNCTION_NOT_LOADED),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_RESOURCE_TYPE),
    GPUSYM_CU_ERROR(CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION),
    GPUSYM_CU_ERROR(CUDA_ERROR_UNKNOWN),
};
#undef GPUSYM_CU_ERROR

const char *driver_error_name(CUresult error) {
  for (const auto &entry : kDriverErrors)
    if (entry.code == error) return entry.name;
  return nullptr;
}

}  // namespace

#define GPUSYM_AS_DRIVER(expression) as_driver(__func__, [&] { return expression; })

extern "C" {

CUresult cuGetErrorName(CUresult error, const char **pStr) {
  if (!pStr) return CUDA_ERROR_INVALID_VALUE;
  *pStr = driver_error_name(error);
  return *pStr ? CUDA_SUCCESS : CUDA_ERROR_INVALID_VALUE;
}

// The runtime API's text of the code with the same number.
CUresult cuGetErrorString(CUresult error, const char **pStr) {
  if (!pStr) return CUDA_ERROR_INVALID_VALUE;
  if (!driver_error_name(error)) {
    *pStr = nullptr;
    return CUDA_ERROR_INVALID_VALUE;
  }
  *pStr = error == CUDA_ERROR_CONTEXT_ALREADY_CURRENT ? "context already current"
                                                      : cudaGetErrorString(static_cast<cudaError_t>(error));
  return CUDA_SUCCESS;
}

CUresult cuInit(unsigned int Flags) { return GPUSYM_AS_DRIVER(hipInit(Flags)); }

CUresult cuDriverGetVersion(int *driverVersion) {
  if (!driverVersion) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  *driverVersion = CUDA_VERSION;
  return CUDA_SUCCESS;
}

CUresult cuDeviceGet(CUdevice *device, int ordinal) { return GPUSYM_AS_DRIVER(hipDeviceGet(device, ordinal)); }
CUresult cuDeviceGetCount(int *count) { return GPUSYM_AS_DRIVER(hipGetDeviceCount(count)); }
CUresult cuDeviceGetName(char *name, int len, CUdevice dev) {
  return GPUSYM_AS_DRIVER(hipDeviceGetName(name, len, dev));
}

CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
  ApiCall named(__func__);
  return static_cast<CUresult>(cudaDeviceGetAttribute(pi, static_cast<cudaDeviceAttr>(attrib), dev));
}

CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev) {
  if (!major || !minor) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  if (!valid_device(dev)) return fail(__func__, CUDA_ERROR_INVALID_DEVICE);
  *major = cuda_compute_capability() / 10;
  *minor = cuda_compute_capability() % 10;
  return CUDA_SUCCESS;
}

CUresult cuDeviceTotalMem(size_t *bytes, CUdevice dev) { return GPUSYM_AS_DRIVER(hipDeviceTotalMem(bytes, dev)); }
CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev) {
  return GPUSYM_AS_DRIVER(hipDevicePrimaryCtxRetain(pctx, dev));
}
CUresult cuDevicePrimaryCtxRelease(CUdevice dev) { return GPUSYM_AS_DRIVER(hipDevicePrimaryCtxRelease(dev)); }

// A device has one context here, its primary one: cuCtxCreate makes it
// current, cuCtxDestroy leaves it be.
CUresult cuCtxCreate(CUcontext *pctx, unsigned int, CUdevice dev) {
  if (CUresult error = GPUSYM_AS_DRIVER(hipDevicePrimaryCtxRetain(pctx, dev))) return error;
  return GPUSYM_AS_DRIVER(hipCtxSetCurrent(*pctx));
}

CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *, unsigned int flags, CUdevice dev) {
  ApiCall named(__func__);
  return cuCtxCreate(pctx, flags, dev);
}

CUresult cuCtxDestroy(CUcontext ctx) {
  if (!ctx) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  return GPUSYM_AS_DRIVER(hipCtxSynchronize());
}

CUresult cuCtxGetCurrent(CUcontext *pctx) { return GPUSYM_AS_DRIVER(hipCtxGetCurrent(pctx)); }
CUresult cuCtxSetCurrent(CUcontext ctx) { return GPUSYM_AS_DRIVER(hipCtxSetCurrent(ctx)); }
CUresult cuCtxGetDevice(CUdevice *device) { return GPUSYM_AS_DRIVER(hipCtxGetDevice(device)); }
CUresult cuCtxSynchronize(void) { return GPUSYM_AS_DRIVER(hipCtxSynchronize()); }

CUresult cuModuleLoad(CUmodule *module, const char *fname) { return GPUSYM_AS_DRIVER(hipModuleLoad(module, fname)); }
CUresult cuModuleLoadData(CUmodule *module, const void *image) {
  return GPUSYM_AS_DRIVER(hipModuleLoadData(module, image));
}
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, int *options,
                            void **optionValues) {
  return GPUSYM_AS_DRIVER(hipModuleLoadDataEx(module, image, numOptions, options, optionValues));
}
CUresult cuModuleUnload(CUmodule hmod) { return GPUSYM_AS_DRIVER(hipModuleUnload(hmod)); }
CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name) {
  return GPUSYM_AS_DRIVER(hipModuleGetFunction(hfunc, hmod, name));
}

CUresult cuModuleGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod, const char *name) {
  hipDeviceptr_t address = nullptr;
  if (CUresult error = GPUSYM_AS_DRIVER(hipModuleGetGlobal(&address, bytes, hmod, name))) return error;
  if (dptr) *dptr = reinterpret_cast<uintptr_t>(address);
  return CUDA_SUCCESS;
}

CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                        unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                        unsigned int sharedMemBytes, CUstream hStream, void **kernelParams, void **extra) {
  return GPUSYM_AS_DRIVER(hipModuleLaunchKernel(f, gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ,
                                                sharedMemBytes, hStream, kernelParams, extra));
}

CUresult cuMemAlloc(CUdeviceptr *dptr, size_t bytesize) {
  if (!dptr) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  void *address = nullptr;
  if (CUresult error = GPUSYM_AS_DRIVER(hipMalloc(&address, bytesize))) return error;
  *dptr = reinterpret_cast<uintptr_t>(address);
  return CUDA_SUCCESS;
}

CUresult cuMemFree(CUdeviceptr dptr) { return GPUSYM_AS_DRIVER(hipFree(pointer(dptr))); }
CUresult cuMemGetInfo(size_t *free, size_t *total) { return GPUSYM_AS_DRIVER(hipMemGetInfo(free, total)); }
CUresult cuMemcpyHtoD(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount) {
  return GPUSYM_AS_DRIVER(hipMemcpyHtoD(pointer(dstDevice), const_cast<void *>(srcHost), ByteCount));
}
CUresult cuMemcpyDtoH(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount) {
  return GPUSYM_AS_DRIVER(hipMemcpyDtoH(dstHost, pointer(srcDevice), ByteCount));
}
CUresult cuMemcpyDtoD(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount) {
  return GPUSYM_AS_DRIVER(hipMemcpyDtoD(pointer(dstDevice), pointer(srcDevice), ByteCount));
}
CUresult cuMemcpyHtoDAsync(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount, CUstream hStream) {
  return GPUSYM_AS_DRIVER(hipMemcpyHtoDAsync(pointer(dstDevice), const_cast<void *>(srcHost), ByteCount, hStream));
}
CUresult cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
  return GPUSYM_AS_DRIVER(hipMemcpyDtoHAsync(dstHost, pointer(srcDevice), ByteCount, hStream));
}
CUresult cuMemcpyDtoDAsync(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream) {
  return GPUSYM_AS_DRIVER(hipMemcpyDtoDAsync(pointer(dstDevice), pointer(srcDevice), ByteCount, hStream));
}
CUresult cuMemsetD8(CUdeviceptr dstDevice, unsigned char uc, size_t N) {
  return GPUSYM_AS_DRIVER(hipMemsetD8(pointer(dstDevice), uc, N));
}
CUresult cuMemsetD32(CUdeviceptr dstDevice, unsigned int ui, size_t N) {
  return GPUSYM_AS_DRIVER(hipMemsetD32(pointer(dstDevice), static_cast<int>(ui), N));
}

CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags) {
  return GPUSYM_AS_DRIVER(hipStreamCreateWithFlags(phStream, Flags));
}
CUresult cuStreamSynchronize(CUstream hStream) { return GPUSYM_AS_DRIVER(hipStreamSynchronize(hStream)); }
CUresult cuStreamDestroy(CUstream hStream) { return GPUSYM_AS_DRIVER(hipStreamDestroy(hStream)); }

}  // extern "C"
