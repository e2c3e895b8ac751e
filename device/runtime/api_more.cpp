// The wider host API that maps onto what the simulated device already does:
// attribute queries by enumeration, stream memory operations (host functions
// in stream order), user objects, multi-device launches looped over the
// single-device ones, byte-offset copies with arrays, and
// hipExtModuleLaunchKernel over hipModuleLaunchKernel.
#include <dlfcn.h>

#include <atomic>
#include <cstring>
#include <vector>

#include "internal.h"

using gpusym::record;

namespace {

thread_local hipStreamCaptureMode capture_mode = hipStreamCaptureModeGlobal;

// One stream memory operation, run by a host function in stream order.
struct MemoryOp {
  void *pointer;
  uint64_t value;
  uint64_t mask;
  unsigned flags;
  bool wide, write;
};

uint64_t load(const MemoryOp &op) {
  if (op.wide) return __atomic_load_n(static_cast<uint64_t *>(op.pointer), __ATOMIC_ACQUIRE);
  return __atomic_load_n(static_cast<uint32_t *>(op.pointer), __ATOMIC_ACQUIRE);
}

// HIP's (and CUDA's) conditions: a signed difference for Gte, masked bits.
bool satisfied(const MemoryOp &op) {
  uint64_t current = load(op) & op.mask;
  switch (op.flags) {
    case hipStreamWaitValueGte:
      return op.wide ? static_cast<int64_t>(current - op.value) >= 0
                     : static_cast<int32_t>(static_cast<uint32_t>(current - op.value)) >= 0;
    case hipStreamWaitValueEq: return current == op.value;
    case hipStreamWaitValueAnd: return (current & op.value) != 0;
    default: return (~(current | op.value) & op.mask) != 0;  // hipStreamWaitValueNor
  }
}

void run_memory_op(void *data) {
  auto *op = static_cast<MemoryOp *>(data);
  if (op->write && op->wide)
    __atomic_store_n(static_cast<uint64_t *>(op->pointer), op->value, __ATOMIC_RELEASE);
  else if (op->write)
    __atomic_store_n(static_cast<uint32_t *>(op->pointer), static_cast<uint32_t>(op->value), __ATOMIC_RELEASE);
  else
    while (!satisfied(*op)) __builtin_ia32_pause();
  delete op;
}

hipError_t enqueue_memory_op(hipStream_t stream, const MemoryOp &op) {
  if (!op.pointer || (!op.write && op.flags > hipStreamWaitValueNor)) return record(hipErrorInvalidValue);
  auto *copy = new MemoryOp(op);
  hipError_t error = hipLaunchHostFunc(stream, run_memory_op, copy);
  if (error != hipSuccess) delete copy;
  return error;
}

// A user object: the payload's destructor runs when the count reaches zero.
struct UserObject {
  std::atomic<unsigned> references;
  void *payload;
  hipHostFn_t destroy;
};

int function_attribute(const hipFuncAttributes &a, hipFunction_attribute attribute) {
  switch (attribute) {
    case HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK: return a.maxThreadsPerBlock;
    case HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES: return static_cast<int>(a.sharedSizeBytes);
    case HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES: return static_cast<int>(a.constSizeBytes);
    case HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES: return static_cast<int>(a.localSizeBytes);
    case HIP_FUNC_ATTRIBUTE_NUM_REGS: return a.numRegs;
    case HIP_FUNC_ATTRIBUTE_PTX_VERSION: return a.ptxVersion;
    case HIP_FUNC_ATTRIBUTE_BINARY_VERSION: return a.binaryVersion;
    case HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA: return a.cacheModeCA;
    case HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: return a.maxDynamicSharedSizeBytes;
    default: return a.preferredShmemCarveout;
  }
}

// The value of one pointer attribute, written to `data`.
hipError_t pointer_attribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t pointer) {
  hipPointerAttribute_t a;
  if (hipError_t error = hipPointerGetAttributes(&a, pointer)) return error;
  switch (attribute) {
    case HIP_POINTER_ATTRIBUTE_MEMORY_TYPE: *static_cast<unsigned *>(data) = a.type; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_POINTER: *static_cast<void **>(data) = a.devicePointer; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_HOST_POINTER: *static_cast<void **>(data) = a.hostPointer; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_IS_MANAGED: *static_cast<int *>(data) = a.isManaged; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL: *static_cast<int *>(data) = a.device; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_MAPPED: *static_cast<int *>(data) = a.type != hipMemoryTypeUnregistered; return hipSuccess;
    case HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR:
    case HIP_POINTER_ATTRIBUTE_RANGE_SIZE: {
      void *base = nullptr;
      size_t size = 0;
      if (hipError_t error = hipMemGetAddressRange(&base, &size, pointer)) return error;
      if (attribute == HIP_POINTER_ATTRIBUTE_RANGE_SIZE) *static_cast<size_t *>(data) = size;
      else *static_cast<void **>(data) = base;
      return hipSuccess;
    }
    default: return record(hipErrorNotSupported);
  }
}

}  // namespace

extern "C" {

hipError_t hipStreamWaitValue32(hipStream_t stream, void *pointer, uint32_t value, unsigned int flags, uint32_t mask) {
  return enqueue_memory_op(stream, {pointer, value, mask, flags, false, false});
}
hipError_t hipStreamWaitValue64(hipStream_t stream, void *pointer, uint64_t value, unsigned int flags, uint64_t mask) {
  return enqueue_memory_op(stream, {pointer, value, mask, flags, true, false});
}
hipError_t hipStreamWriteValue32(hipStream_t stream, void *pointer, uint32_t value, unsigned int) {
  return enqueue_memory_op(stream, {pointer, value, ~0ull, 0, false, true});
}
hipError_t hipStreamWriteValue64(hipStream_t stream, void *pointer, uint64_t value, unsigned int) {
  return enqueue_memory_op(stream, {pointer, value, ~0ull, 0, true, true});
}

// Each operation in turn on the stream; a stream's work runs in order, so
// that flushes and barriers have nothing to do.
hipError_t hipStreamBatchMemOp(hipStream_t stream, unsigned int count, hipStreamBatchMemOpParams *paramArray,
                               unsigned int flags) {
  if ((count && !paramArray) || flags) return record(hipErrorInvalidValue);
  for (unsigned int i = 0; i < count; i++) {
    const hipStreamBatchMemOpParams &op = paramArray[i];
    const auto &wait = op.waitValue;
    const auto &write = op.writeValue;
    hipError_t error = hipSuccess;
    switch (op.operation) {
      case hipStreamMemOpWaitValue32: error = hipStreamWaitValue32(stream, wait.address, wait.value, wait.flags); break;
      case hipStreamMemOpWaitValue64:
        error = hipStreamWaitValue64(stream, wait.address, wait.value64, wait.flags);
        break;
      case hipStreamMemOpWriteValue32: error = hipStreamWriteValue32(stream, write.address, write.value, 0); break;
      case hipStreamMemOpWriteValue64: error = hipStreamWriteValue64(stream, write.address, write.value64, 0); break;
      case hipStreamMemOpFlushRemoteWrites:
      case hipStreamMemOpBarrier: break;
      default: return record(hipErrorInvalidValue);
    }
    if (error) return error;
  }
  return hipSuccess;
}

// Every allocation is visible to every stream already.
hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *pointer, size_t, unsigned int) {
  if (!pointer) return record(hipErrorInvalidValue);
  return hipStreamQuery(stream) == hipErrorInvalidHandle ? record(hipErrorInvalidHandle) : hipSuccess;
}

hipError_t hipUserObjectCreate(hipUserObject_t *object, void *payload, hipHostFn_t destroy, unsigned int references,
                               unsigned int flags) {
  if (!object || !destroy || !references || flags != hipUserObjectNoDestructorSync) return record(hipErrorInvalidValue);
  *object = reinterpret_cast<hipUserObject_t>(new UserObject{{references}, payload, destroy});
  return hipSuccess;
}
hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count) {
  if (!object || !count) return record(hipErrorInvalidValue);
  reinterpret_cast<UserObject *>(object)->references += count;
  return hipSuccess;
}
hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count) {
  if (!object || !count) return record(hipErrorInvalidValue);
  auto *user = reinterpret_cast<UserObject *>(object);
  if (user->references.fetch_sub(count) == count) {
    user->destroy(user->payload);
    delete user;
  }
  return hipSuccess;
}

hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t pointer) {
  if (!data || !pointer) return record(hipErrorInvalidValue);
  return pointer_attribute(data, attribute, pointer);
}
hipError_t hipDrvPointerGetAttributes(unsigned int count, hipPointer_attribute *attributes, void **data,
                                      hipDeviceptr_t pointer) {
  if (!attributes || !data || !pointer) return record(hipErrorInvalidValue);
  for (unsigned i = 0; i < count; ++i)
    if (hipError_t error = pointer_attribute(data[i], attributes[i], pointer)) return error;
  return hipSuccess;
}

hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attribute, hipFunction_t function) {
  if (!value || attribute < 0 || attribute >= HIP_FUNC_ATTRIBUTE_MAX) return record(hipErrorInvalidValue);
  hipFuncAttributes a;
  if (hipError_t error = hipFuncGetAttributes(&a, reinterpret_cast<const void *>(function))) return error;
  *value = function_attribute(a, attribute);
  return hipSuccess;
}

// A module function's handle is its kernel's, as for hipModuleGetFunction.
hipError_t hipGetFuncBySymbol(hipFunction_t *function, const void *symbol) {
  hipFuncAttributes a;
  if (!function) return record(hipErrorInvalidValue);
  if (hipError_t error = hipFuncGetAttributes(&a, symbol)) return error;
  *function = reinterpret_cast<hipFunction_t>(const_cast<void *>(symbol));
  return hipSuccess;
}

// Peers: the devices of one process, as hipDeviceCanAccessPeer answers.
hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attribute, int source, int destination) {
  if (!value || attribute < hipDevP2PAttrPerformanceRank || attribute > hipDevP2PAttrHipArrayAccessSupported)
    return record(hipErrorInvalidValue);
  if (source == destination || !gpusym::valid_device(source) || !gpusym::valid_device(destination))
    return record(hipErrorInvalidDevice);
  *value = attribute == hipDevP2PAttrPerformanceRank ? 0 : 1;
  return hipSuccess;
}

hipError_t hipSetValidDevices(int *devices, int count) {
  if (count < 0 || (count && !devices)) return record(hipErrorInvalidValue);
  for (int i = 0; i < count; ++i)
    if (!gpusym::valid_device(devices[i])) return record(hipErrorInvalidDevice);
  return hipSuccess;
}

hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode) {
  if (!mode || *mode < hipStreamCaptureModeGlobal || *mode > hipStreamCaptureModeRelaxed)
    return record(hipErrorInvalidValue);
  std::swap(*mode, capture_mode);
  return hipSuccess;
}

hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus *status, unsigned long long *id,
                                      hipGraph_t *graph, const hipGraphNode_t **dependencies,
                                      size_t *dependency_count) {
  if (hipError_t error = hipStreamGetCaptureInfo(stream, status, id)) return error;
  if (graph) *graph = nullptr;
  if (dependencies) *dependencies = nullptr;
  if (dependency_count) *dependency_count = 0;
  return hipSuccess;
}

// Callback ids name no API here: there is no tracer to hand them out.
const char *hipApiName(uint32_t) { return "unknown"; }

hipError_t hipGetProcAddress(const char *symbol, void **function, int, uint64_t,
                             hipDriverProcAddressQueryResult *status) {
  if (!symbol || !function) return record(hipErrorInvalidValue);
  *function = dlsym(RTLD_DEFAULT, symbol);
  if (status) *status = *function ? HIP_GET_PROC_ADDRESS_SUCCESS : HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;
  return *function ? hipSuccess : record(hipErrorNotFound);
}

hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams *launches, int count, unsigned int) {
  if (!launches || count <= 0) return record(hipErrorInvalidValue);
  for (int i = 0; i < count; ++i) {
    const hipLaunchParams &l = launches[i];
    if (hipError_t error = hipLaunchCooperativeKernel(l.func, l.gridDim, l.blockDim, l.args,
                                                      static_cast<unsigned>(l.sharedMem), l.stream))
      return error;
  }
  return hipSuccess;
}
hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *launches, int count, unsigned int) {
  if (!launches || count <= 0) return record(hipErrorInvalidValue);
  for (int i = 0; i < count; ++i) {
    const hipLaunchParams &l = launches[i];
    if (hipError_t error = hipLaunchKernel(l.func, l.gridDim, l.blockDim, l.args, l.sharedMem, l.stream))
      return error;
  }
  return hipSuccess;
}

// Every compute unit is a CPU thread of the same pool: a mask selects nothing.
hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream, uint32_t mask_words, const uint32_t *mask) {
  if (!mask_words || !mask) return record(hipErrorInvalidValue);
  return hipStreamCreate(stream);
}
hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t mask_words, uint32_t *mask) {
  if (!mask_words || !mask) return record(hipErrorInvalidValue);
  if (hipStreamQuery(stream) == hipErrorInvalidHandle) return record(hipErrorInvalidHandle);
  memset(mask, 0xFF, mask_words * sizeof *mask);
  return hipSuccess;
}

hipError_t hipMemcpyAtoH(void *dst, hipArray_t src, size_t src_offset, size_t count) {
  return hipMemcpyFromArray(dst, src, src_offset, 0, count, hipMemcpyDeviceToHost);
}
hipError_t hipMemcpyHtoA(hipArray_t dst, size_t dst_offset, const void *src, size_t count) {
  return hipMemcpyToArray(dst, dst_offset, 0, src, count, hipMemcpyHostToDevice);
}
hipError_t hipMemcpyAtoD(hipDeviceptr_t dst, hipArray_t src, size_t src_offset, size_t count) {
  return hipMemcpyFromArray(dst, src, src_offset, 0, count, hipMemcpyDeviceToDevice);
}
hipError_t hipMemcpyDtoA(hipArray_t dst, size_t dst_offset, hipDeviceptr_t src, size_t count) {
  return hipMemcpyToArray(dst, dst_offset, 0, src, count, hipMemcpyDeviceToDevice);
}
hipError_t hipMemcpyAtoHAsync(void *dst, hipArray_t src, size_t src_offset, size_t count, hipStream_t stream) {
  return hipMemcpy2DFromArrayAsync(dst, count, src, src_offset, 0, count, 1, hipMemcpyDeviceToHost, stream);
}
hipError_t hipMemcpyHtoAAsync(hipArray_t dst, size_t dst_offset, const void *src, size_t count, hipStream_t stream) {
  return hipMemcpy2DToArrayAsync(dst, dst_offset, 0, src, count, count, 1, hipMemcpyHostToDevice, stream);
}
hipError_t hipMemcpyAtoA(hipArray_t dst, size_t dst_offset, hipArray_t src, size_t src_offset, size_t count) {
  std::vector<unsigned char> staging(count);
  if (hipError_t error = hipMemcpyAtoH(staging.data(), src, src_offset, count)) return error;
  return hipMemcpyHtoA(dst, dst_offset, staging.data(), count);
}

// A grid of globalWorkSize / localWorkSize blocks, between the event records.
hipError_t hipExtModuleLaunchKernel(hipFunction_t f, uint32_t globalWorkSizeX, uint32_t globalWorkSizeY,
                                    uint32_t globalWorkSizeZ, uint32_t localWorkSizeX, uint32_t localWorkSizeY,
                                    uint32_t localWorkSizeZ, size_t sharedMemBytes, hipStream_t hStream,
                                    void **kernelParams, void **extra, hipEvent_t startEvent, hipEvent_t stopEvent,
                                    uint32_t) {
  if (!localWorkSizeX || !localWorkSizeY || !localWorkSizeZ || globalWorkSizeX % localWorkSizeX ||
      globalWorkSizeY % localWorkSizeY || globalWorkSizeZ % localWorkSizeZ)
    return record(hipErrorInvalidValue);
  if (startEvent)
    if (hipError_t error = hipEventRecord(startEvent, hStream)) return error;
  hipError_t error = hipModuleLaunchKernel(f, globalWorkSizeX / localWorkSizeX, globalWorkSizeY / localWorkSizeY,
                                           globalWorkSizeZ / localWorkSizeZ, localWorkSizeX, localWorkSizeY,
                                           localWorkSizeZ, static_cast<unsigned>(sharedMemBytes), hStream,
                                           kernelParams, extra);
  if (error) return error;
  return stopEvent ? hipEventRecord(stopEvent, hStream) : hipSuccess;
}

}  // extern "C"
