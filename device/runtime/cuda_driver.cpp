// CUDA's driver API, the common part: each cu* function calls its hip*
// twin under the driver API's name (a failure is recorded as the program
// called it).  CUresult's numbers are HIP's where HIP has the code.
#include <dlfcn.h>

#include <cstring>
#include <string_view>
#include <vector>

#include "cuda.h"
#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

namespace {

// A failed context's error too (unless_failed): CUDA_ERROR_ASSERT is hipErrorAssert's number.
template <typename Call>
CUresult as_driver(const char *name, Call hip_call) {
  ApiCall named(name);
  return static_cast<CUresult>(unless_failed(name, hip_call));
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

// HIP's memory type of a CUDA one (HIP numbers arrays and unified memory
// differently).
hipMemoryType memory_type(CUmemorytype type) {
  switch (type) {
    case CU_MEMORYTYPE_HOST: return hipMemoryTypeHost;
    case CU_MEMORYTYPE_DEVICE: return hipMemoryTypeDevice;
    case CU_MEMORYTYPE_ARRAY: return hipMemoryTypeArray;
    case CU_MEMORYTYPE_UNIFIED: return hipMemoryTypeUnified;
  }
  return static_cast<hipMemoryType>(-1);
}

hip_Memcpy2D to_hip(const CUDA_MEMCPY2D &c) {
  hip_Memcpy2D h{};
  h.srcXInBytes = c.srcXInBytes;
  h.srcY = c.srcY;
  h.srcMemoryType = memory_type(c.srcMemoryType);
  h.srcHost = c.srcHost;
  h.srcDevice = pointer(c.srcDevice);
  h.srcArray = c.srcArray;
  h.srcPitch = c.srcPitch;
  h.dstXInBytes = c.dstXInBytes;
  h.dstY = c.dstY;
  h.dstMemoryType = memory_type(c.dstMemoryType);
  h.dstHost = c.dstHost;
  h.dstDevice = pointer(c.dstDevice);
  h.dstArray = c.dstArray;
  h.dstPitch = c.dstPitch;
  h.WidthInBytes = c.WidthInBytes;
  h.Height = c.Height;
  return h;
}

HIP_MEMCPY3D to_hip(const CUDA_MEMCPY3D &c) {
  HIP_MEMCPY3D h{};
  h.srcXInBytes = c.srcXInBytes;
  h.srcY = c.srcY;
  h.srcZ = c.srcZ;
  h.srcLOD = c.srcLOD;
  h.srcMemoryType = memory_type(c.srcMemoryType);
  h.srcHost = c.srcHost;
  h.srcDevice = pointer(c.srcDevice);
  h.srcArray = c.srcArray;
  h.srcPitch = c.srcPitch;
  h.srcHeight = c.srcHeight;
  h.dstXInBytes = c.dstXInBytes;
  h.dstY = c.dstY;
  h.dstZ = c.dstZ;
  h.dstLOD = c.dstLOD;
  h.dstMemoryType = memory_type(c.dstMemoryType);
  h.dstHost = c.dstHost;
  h.dstDevice = pointer(c.dstDevice);
  h.dstArray = c.dstArray;
  h.dstPitch = c.dstPitch;
  h.dstHeight = c.dstHeight;
  h.WidthInBytes = c.WidthInBytes;
  h.Height = c.Height;
  h.Depth = c.Depth;
  return h;
}

// The driver's descriptions have HIP's layouts (HIP's have CUDA's numbers).
static_assert(sizeof(CUDA_ARRAY_DESCRIPTOR) == sizeof(HIP_ARRAY_DESCRIPTOR) &&
                  sizeof(CUDA_ARRAY3D_DESCRIPTOR) == sizeof(HIP_ARRAY3D_DESCRIPTOR) &&
                  sizeof(CUDA_RESOURCE_DESC) == sizeof(HIP_RESOURCE_DESC) &&
                  offsetof(CUDA_RESOURCE_DESC, flags) == offsetof(HIP_RESOURCE_DESC, flags) &&
                  sizeof(CUDA_TEXTURE_DESC) == sizeof(HIP_TEXTURE_DESC) &&
                  offsetof(CUDA_TEXTURE_DESC, borderColor) == offsetof(HIP_TEXTURE_DESC, borderColor) &&
                  sizeof(CUDA_RESOURCE_VIEW_DESC) == sizeof(HIP_RESOURCE_VIEW_DESC),
              "CUDA's driver descriptions have HIP's layouts");

// A module image that is PTX text (which the simulated device cannot
// compile), not a code object or bundle.
bool is_ptx_text(const void *image) {
  const char *text = static_cast<const char *>(image);
  static const char kElf[] = "\x7f" "ELF", kBundle[] = "__CLANG_OFFLOAD_BUNDLE__";
  if (!text || std::memcmp(text, kElf, 4) == 0 || std::strncmp(text, kBundle, sizeof kBundle - 1) == 0) return false;
  size_t length = strnlen(text, 1 << 20);
  std::string_view view(text, length);
  return view.find(".version") != view.npos || view.find(".target") != view.npos;
}

// The contexts pushed on this thread, under the one current.
thread_local std::vector<CUcontext> pushed_contexts;

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

// The runtime's attributes, and the driver's own: virtual memory management
// (virtual_memory.cpp), with compression kept as asked for.
CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev) {
  ApiCall named(__func__);
  CUresult error = static_cast<CUresult>(cudaDeviceGetAttribute(pi, static_cast<cudaDeviceAttr>(attrib), dev));
  if (!error && (attrib == CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED ||
                 attrib == CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED))
    *pi = 1;
  return error;
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
  if (is_ptx_text(image)) return fail(__func__, CUDA_ERROR_NOT_SUPPORTED);
  return GPUSYM_AS_DRIVER(hipModuleLoadData(module, image));
}
// The JIT options change nothing: a module is loaded as it is.  PTX text
// cannot be (here and in cuModuleLoadData): CUDA_ERROR_NOT_SUPPORTED.
CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions, CUjit_option *options,
                            void **optionValues) {
  if (is_ptx_text(image)) return fail(__func__, CUDA_ERROR_NOT_SUPPORTED);
  return GPUSYM_AS_DRIVER(hipModuleLoadDataEx(module, image, numOptions, reinterpret_cast<int *>(options),
                                              optionValues));
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
CUresult cuStreamQuery(CUstream hStream) { return GPUSYM_AS_DRIVER(hipStreamQuery(hStream)); }

// ---- contexts and devices ----

CUresult cuCtxPushCurrent(CUcontext ctx) {
  if (!ctx) return fail(__func__, CUDA_ERROR_INVALID_CONTEXT);
  CUcontext current = nullptr;
  if (CUresult error = GPUSYM_AS_DRIVER(hipCtxGetCurrent(&current))) return error;
  if (CUresult error = GPUSYM_AS_DRIVER(hipCtxSetCurrent(ctx))) return error;
  pushed_contexts.push_back(current);
  return CUDA_SUCCESS;
}

// The current context popped: the one under it becomes current again.
CUresult cuCtxPopCurrent(CUcontext *pctx) {
  CUcontext current = nullptr;
  if (CUresult error = GPUSYM_AS_DRIVER(hipCtxGetCurrent(&current))) return error;
  if (!current) return fail(__func__, CUDA_ERROR_INVALID_CONTEXT);
  if (pctx) *pctx = current;
  if (!pushed_contexts.empty()) {
    CUcontext under = pushed_contexts.back();
    pushed_contexts.pop_back();
    if (under) return GPUSYM_AS_DRIVER(hipCtxSetCurrent(under));
  }
  return CUDA_SUCCESS;
}

// Contexts have had the API version 3020 since CUDA 3.2.
CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version) {
  if (!version) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  if (!ctx) {
    if (CUresult error = GPUSYM_AS_DRIVER(hipCtxGetCurrent(&ctx))) return error;
    if (!ctx) return fail(__func__, CUDA_ERROR_INVALID_CONTEXT);
  }
  *version = 3020;
  return CUDA_SUCCESS;
}

}  // extern "C"

namespace {

// The device of the context `ctx` (a primary context), found by making it
// current a moment.
CUresult device_of(const char *name, CUcontext ctx, CUdevice &device) {
  ApiCall named(name);
  if (!ctx) return fail(name, CUDA_ERROR_INVALID_CONTEXT);
  CUcontext current = nullptr;
  if (hipError_t error = hipCtxGetCurrent(&current)) return static_cast<CUresult>(error);
  if (hipError_t error = hipCtxSetCurrent(ctx)) return static_cast<CUresult>(error);
  hipError_t error = hipCtxGetDevice(&device);
  if (current) hipCtxSetCurrent(current);
  return static_cast<CUresult>(error);
}

}  // namespace

extern "C" {

CUresult cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags) {
  CUdevice peer = 0;
  if (CUresult error = device_of(__func__, peerContext, peer)) return error;
  return GPUSYM_AS_DRIVER(hipDeviceEnablePeerAccess(peer, Flags));
}

CUresult cuCtxDisablePeerAccess(CUcontext peerContext) {
  CUdevice peer = 0;
  if (CUresult error = device_of(__func__, peerContext, peer)) return error;
  return GPUSYM_AS_DRIVER(hipDeviceDisablePeerAccess(peer));
}

CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev) {
  return GPUSYM_AS_DRIVER(hipDeviceCanAccessPeer(canAccessPeer, dev, peerDev));
}

CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev) {
  static_assert(sizeof(CUuuid) == sizeof(hipUUID));
  return GPUSYM_AS_DRIVER(hipDeviceGetUuid(reinterpret_cast<hipUUID *>(uuid), dev));
}
CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev) {
  return GPUSYM_AS_DRIVER(hipDeviceGetUuid(reinterpret_cast<hipUUID *>(uuid), dev));
}

// ---- events ----

CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags) {
  return GPUSYM_AS_DRIVER(hipEventCreateWithFlags(phEvent, Flags));
}
CUresult cuEventRecord(CUevent hEvent, CUstream hStream) {
  ApiCall named(__func__);
  return static_cast<CUresult>(cudaEventRecord(hEvent, hStream));  // as the runtime's, capture included
}
CUresult cuEventSynchronize(CUevent hEvent) { return GPUSYM_AS_DRIVER(hipEventSynchronize(hEvent)); }
CUresult cuEventQuery(CUevent hEvent) { return GPUSYM_AS_DRIVER(hipEventQuery(hEvent)); }
CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd) {
  return GPUSYM_AS_DRIVER(hipEventElapsedTime(pMilliseconds, hStart, hEnd));
}
CUresult cuEventDestroy(CUevent hEvent) { return GPUSYM_AS_DRIVER(hipEventDestroy(hEvent)); }

// ---- host memory, copies, memsets ----

CUresult cuMemAllocHost(void **pp, size_t bytesize) { return GPUSYM_AS_DRIVER(hipHostMalloc(pp, bytesize, 0)); }
CUresult cuMemFreeHost(void *p) { return GPUSYM_AS_DRIVER(hipHostFree(p)); }
CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags) {
  return GPUSYM_AS_DRIVER(hipHostMalloc(pp, bytesize, Flags));
}
CUresult cuMemHostRegister(void *p, size_t bytesize, unsigned int Flags) {
  return GPUSYM_AS_DRIVER(hipHostRegister(p, bytesize, Flags));
}
CUresult cuMemHostUnregister(void *p) { return GPUSYM_AS_DRIVER(hipHostUnregister(p)); }
CUresult cuMemHostGetDevicePointer(CUdeviceptr *pdptr, void *p, unsigned int Flags) {
  if (!pdptr) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  void *device = nullptr;
  if (CUresult error = GPUSYM_AS_DRIVER(hipHostGetDevicePointer(&device, p, Flags))) return error;
  *pdptr = reinterpret_cast<uintptr_t>(device);
  return CUDA_SUCCESS;
}

// Unified addressing: either side may be host or device memory.
CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount) {
  return GPUSYM_AS_DRIVER(hipMemcpy(pointer(dst), pointer(src), ByteCount, hipMemcpyDefault));
}
CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream) {
  return GPUSYM_AS_DRIVER(hipMemcpyAsync(pointer(dst), pointer(src), ByteCount, hipMemcpyDefault, hStream));
}
CUresult cuMemcpy2D(const CUDA_MEMCPY2D *pCopy) {
  if (!pCopy) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  hip_Memcpy2D copy = to_hip(*pCopy);
  return GPUSYM_AS_DRIVER(hipMemcpyParam2D(&copy));
}
CUresult cuMemcpy2DAsync(const CUDA_MEMCPY2D *pCopy, CUstream hStream) {
  if (!pCopy) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  hip_Memcpy2D copy = to_hip(*pCopy);
  return GPUSYM_AS_DRIVER(hipMemcpyParam2DAsync(&copy, hStream));
}
CUresult cuMemcpy3D(const CUDA_MEMCPY3D *pCopy) {
  if (!pCopy) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  HIP_MEMCPY3D copy = to_hip(*pCopy);
  return GPUSYM_AS_DRIVER(hipDrvMemcpy3D(&copy));
}
CUresult cuMemcpy3DAsync(const CUDA_MEMCPY3D *pCopy, CUstream hStream) {
  if (!pCopy) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  HIP_MEMCPY3D copy = to_hip(*pCopy);
  return GPUSYM_AS_DRIVER(hipDrvMemcpy3DAsync(&copy, hStream));
}
CUresult cuMemsetD16(CUdeviceptr dstDevice, unsigned short us, size_t N) {
  return GPUSYM_AS_DRIVER(hipMemsetD16(pointer(dstDevice), us, N));
}
CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream) {
  return GPUSYM_AS_DRIVER(hipMemsetD8Async(pointer(dstDevice), uc, N, hStream));
}
CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream) {
  return GPUSYM_AS_DRIVER(hipMemsetD16Async(pointer(dstDevice), us, N, hStream));
}
CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream) {
  return GPUSYM_AS_DRIVER(hipMemsetD32Async(pointer(dstDevice), static_cast<int>(ui), N, hStream));
}

// ---- arrays and texture objects ----

CUresult cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR *pAllocateArray) {
  return GPUSYM_AS_DRIVER(hipArrayCreate(pHandle, reinterpret_cast<const HIP_ARRAY_DESCRIPTOR *>(pAllocateArray)));
}
CUresult cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR *pAllocateArray) {
  return GPUSYM_AS_DRIVER(
      hipArray3DCreate(pHandle, reinterpret_cast<const HIP_ARRAY3D_DESCRIPTOR *>(pAllocateArray)));
}
CUresult cuArrayDestroy(CUarray hArray) { return GPUSYM_AS_DRIVER(hipArrayDestroy(hArray)); }
CUresult cuTexObjectCreate(CUtexObject *pTexObject, const CUDA_RESOURCE_DESC *pResDesc,
                           const CUDA_TEXTURE_DESC *pTexDesc, const CUDA_RESOURCE_VIEW_DESC *pResViewDesc) {
  return GPUSYM_AS_DRIVER(hipTexObjectCreate(pTexObject, reinterpret_cast<const HIP_RESOURCE_DESC *>(pResDesc),
                                             reinterpret_cast<const HIP_TEXTURE_DESC *>(pTexDesc),
                                             reinterpret_cast<const HIP_RESOURCE_VIEW_DESC *>(pResViewDesc)));
}
CUresult cuTexObjectDestroy(CUtexObject texObject) { return GPUSYM_AS_DRIVER(hipTexObjectDestroy(texObject)); }

// ---- functions: attributes, occupancy, cooperative launches ----

CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc) {
  if (attrib >= CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET && attrib < CU_FUNC_ATTRIBUTE_MAX) {
    if (!pi) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
    *pi = 0;  // no clusters
    return CUDA_SUCCESS;
  }
  return GPUSYM_AS_DRIVER(hipFuncGetAttribute(pi, static_cast<hipFunction_attribute>(attrib), hfunc));
}

CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value) {
  ApiCall named(__func__);
  return static_cast<CUresult>(
      cudaFuncSetAttribute(reinterpret_cast<const void *>(hfunc), static_cast<cudaFuncAttribute>(attrib), value));
}

CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func, int blockSize,
                                                     size_t dynamicSMemSize) {
  return GPUSYM_AS_DRIVER(hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(numBlocks, func, blockSize,
                                                                             dynamicSMemSize));
}

// With blockSizeToDynamicSMemSize, each block size (warp by warp) is tried
// with the dynamic shared memory it gives.
CUresult cuOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, CUfunction func,
                                          CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize,
                                          int blockSizeLimit) {
  if (!blockSizeToDynamicSMemSize)
    return GPUSYM_AS_DRIVER(
        hipModuleOccupancyMaxPotentialBlockSize(minGridSize, blockSize, func, dynamicSMemSize, blockSizeLimit));
  if (!minGridSize || !blockSize || !func) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  ApiCall named(__func__);
  int device = 0;
  hipDeviceProp_t prop;
  if (hipError_t error = hipGetDevice(&device)) return static_cast<CUresult>(error);
  if (hipError_t error = hipGetDeviceProperties(&prop, device)) return static_cast<CUresult>(error);
  int max_threads = 0;
  if (hipError_t error = hipFuncGetAttribute(&max_threads, HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, func))
    return static_cast<CUresult>(error);
  int limit = max_threads > 0 && max_threads < prop.maxThreadsPerBlock ? max_threads : prop.maxThreadsPerBlock;
  if (blockSizeLimit > 0 && blockSizeLimit < limit) limit = blockSizeLimit;
  constexpr int kWarp = 32;
  int best_blocks = 0, best_size = 0;
  for (int size = (limit + kWarp - 1) / kWarp * kWarp; size > 0; size -= kWarp) {
    int tried = size > limit ? limit : size;
    int blocks = 0;
    if (hipError_t error = hipModuleOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, func, tried,
                                                                            blockSizeToDynamicSMemSize(tried)))
      return static_cast<CUresult>(error);
    if (blocks * tried > best_blocks * best_size) {
      best_blocks = blocks;
      best_size = tried;
    }
  }
  *minGridSize = best_blocks * prop.multiProcessorCount;
  *blockSize = best_size;
  return CUDA_SUCCESS;
}

CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY, unsigned int gridDimZ,
                                   unsigned int blockDimX, unsigned int blockDimY, unsigned int blockDimZ,
                                   unsigned int sharedMemBytes, CUstream hStream, void **kernelParams) {
  return GPUSYM_AS_DRIVER(hipLaunchCooperativeKernel(reinterpret_cast<const void *>(f),
                                                     dim3(gridDimX, gridDimY, gridDimZ),
                                                     dim3(blockDimX, blockDimY, blockDimZ), kernelParams,
                                                     sharedMemBytes, hStream));
}

// ---- the profiler: nothing to do ----

CUresult cuProfilerInitialize(const char *, const char *, int) { return CUDA_SUCCESS; }
CUresult cuProfilerStart(void) { return CUDA_SUCCESS; }
CUresult cuProfilerStop(void) { return CUDA_SUCCESS; }

// ---- not supported: linking ----

CUresult cuLinkCreate(unsigned int, CUjit_option *, void **, CUlinkState *) {
  return fail(__func__, CUDA_ERROR_NOT_SUPPORTED);
}
CUresult cuLinkAddData(CUlinkState, CUjitInputType, void *, size_t, const char *, unsigned int, CUjit_option *,
                       void **) {
  return fail(__func__, CUDA_ERROR_NOT_SUPPORTED);
}
CUresult cuLinkAddFile(CUlinkState, CUjitInputType, const char *, unsigned int, CUjit_option *, void **) {
  return fail(__func__, CUDA_ERROR_NOT_SUPPORTED);
}
CUresult cuLinkComplete(CUlinkState, void **, size_t *) { return fail(__func__, CUDA_ERROR_NOT_SUPPORTED); }
CUresult cuLinkDestroy(CUlinkState) { return fail(__func__, CUDA_ERROR_NOT_SUPPORTED); }

}  // extern "C"

// ---- virtual memory management, over HIP's (virtual_memory.cpp) ----

namespace {

hipMemGenericAllocationHandle_t hip_handle(CUmemGenericAllocationHandle handle) {
  return reinterpret_cast<hipMemGenericAllocationHandle_t>(static_cast<uintptr_t>(handle));
}

const hipMemAllocationProp *hip_prop(const CUmemAllocationProp *prop) {
  return reinterpret_cast<const hipMemAllocationProp *>(prop);
}

}  // namespace

static_assert(sizeof(CUmemAllocationProp) == sizeof(hipMemAllocationProp) &&
                  offsetof(CUmemAllocationProp, allocFlags) == offsetof(hipMemAllocationProp, allocFlags) &&
                  sizeof(CUmemAccessDesc) == sizeof(hipMemAccessDesc) &&
                  sizeof(CUmemLocation) == sizeof(hipMemLocation),
              "CUDA's virtual memory records have HIP's layouts");

extern "C" {

CUresult cuMemGetAllocationGranularity(size_t *granularity, const CUmemAllocationProp *prop,
                                       CUmemAllocationGranularity_flags option) {
  return GPUSYM_AS_DRIVER(hipMemGetAllocationGranularity(granularity, hip_prop(prop),
                                                         static_cast<hipMemAllocationGranularity_flags>(option)));
}

CUresult cuMemCreate(CUmemGenericAllocationHandle *handle, size_t size, const CUmemAllocationProp *prop,
                     unsigned long long flags) {
  if (!handle) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  hipMemGenericAllocationHandle_t created = nullptr;
  CUresult error = GPUSYM_AS_DRIVER(hipMemCreate(&created, size, hip_prop(prop), flags));
  if (!error) *handle = reinterpret_cast<uintptr_t>(created);
  return error;
}

CUresult cuMemRelease(CUmemGenericAllocationHandle handle) {
  return GPUSYM_AS_DRIVER(hipMemRelease(hip_handle(handle)));
}

CUresult cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp *prop, CUmemGenericAllocationHandle handle) {
  return GPUSYM_AS_DRIVER(hipMemGetAllocationPropertiesFromHandle(reinterpret_cast<hipMemAllocationProp *>(prop),
                                                                  hip_handle(handle)));
}

CUresult cuMemRetainAllocationHandle(CUmemGenericAllocationHandle *handle, void *addr) {
  if (!handle) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  hipMemGenericAllocationHandle_t retained = nullptr;
  CUresult error = GPUSYM_AS_DRIVER(hipMemRetainAllocationHandle(&retained, addr));
  if (!error) *handle = reinterpret_cast<uintptr_t>(retained);
  return error;
}

CUresult cuMemAddressReserve(CUdeviceptr *ptr, size_t size, size_t alignment, CUdeviceptr addr,
                             unsigned long long flags) {
  if (!ptr) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  void *reserved = nullptr;
  CUresult error = GPUSYM_AS_DRIVER(hipMemAddressReserve(&reserved, size, alignment, pointer(addr), flags));
  if (!error) *ptr = reinterpret_cast<uintptr_t>(reserved);
  return error;
}

CUresult cuMemAddressFree(CUdeviceptr ptr, size_t size) {
  return GPUSYM_AS_DRIVER(hipMemAddressFree(pointer(ptr), size));
}

CUresult cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle,
                  unsigned long long flags) {
  return GPUSYM_AS_DRIVER(hipMemMap(pointer(ptr), size, offset, hip_handle(handle), flags));
}

CUresult cuMemUnmap(CUdeviceptr ptr, size_t size) { return GPUSYM_AS_DRIVER(hipMemUnmap(pointer(ptr), size)); }

CUresult cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc *desc, size_t count) {
  return GPUSYM_AS_DRIVER(
      hipMemSetAccess(pointer(ptr), size, reinterpret_cast<const hipMemAccessDesc *>(desc), count));
}

CUresult cuMemGetAccess(unsigned long long *flags, const CUmemLocation *location, CUdeviceptr ptr) {
  return GPUSYM_AS_DRIVER(hipMemGetAccess(flags, reinterpret_cast<const hipMemLocation *>(location), pointer(ptr)));
}

// One process's devices: no handle to share with another (CUDA_ERROR_NOT_SUPPORTED).
CUresult cuMemExportToShareableHandle(void *shareableHandle, CUmemGenericAllocationHandle handle,
                                      CUmemAllocationHandleType handleType, unsigned long long flags) {
  return GPUSYM_AS_DRIVER(hipMemExportToShareableHandle(shareableHandle, hip_handle(handle),
                                                        static_cast<hipMemAllocationHandleType>(handleType), flags));
}

CUresult cuMemImportFromShareableHandle(CUmemGenericAllocationHandle *handle, void *osHandle,
                                        CUmemAllocationHandleType shHandleType) {
  if (!handle) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  hipMemGenericAllocationHandle_t imported = nullptr;
  CUresult error = GPUSYM_AS_DRIVER(
      hipMemImportFromShareableHandle(&imported, osHandle, static_cast<hipMemAllocationHandleType>(shHandleType)));
  if (!error) *handle = reinterpret_cast<uintptr_t>(imported);
  return error;
}

// The function of that name in this process: the driver API's are all here.
CUresult cuGetProcAddress(const char *symbol, void **pfn, int, unsigned long long,
                          CUdriverProcAddressQueryResult *symbolStatus) {
  if (!symbol || !pfn) return fail(__func__, CUDA_ERROR_INVALID_VALUE);
  *pfn = dlsym(RTLD_DEFAULT, symbol);
  if (symbolStatus) *symbolStatus = *pfn ? CU_GET_PROC_ADDRESS_SUCCESS : CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *pfn ? CUDA_SUCCESS : fail(__func__, CUDA_ERROR_NOT_FOUND);
}

}  // extern "C"
