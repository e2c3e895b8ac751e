/*
 * The rest of HIP's host API that the simulated device answers: memory pools
 * and virtual memory management, user objects, stream memory operations,
 * attribute queries by enumeration, and the enumerations and flags these
 * take, with HIP's names and values (the ABI).  Included by
 * hip/hip_runtime_api.h; usable from C and C++.
 */
#ifndef GPUSYM_DETAIL_RUNTIME_API_MORE_H
#define GPUSYM_DETAIL_RUNTIME_API_MORE_H

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes of the driver-style API, HIP's numbers. */
enum { HIP_SUCCESS = 0, HIP_ERROR_INVALID_VALUE = 1, HIP_ERROR_NOT_INITIALIZED = 2, HIP_ERROR_LAUNCH_OUT_OF_RESOURCES = 3 };

/* The legacy default stream, and flags of calls declared below. */
#define hipStreamLegacy ((hipStream_t)1)
#define hipIpcMemLazyEnablePeerAccess 0x01
#define hipCooperativeLaunchMultiDeviceNoPreSync 0x01
#define hipCooperativeLaunchMultiDeviceNoPostSync 0x02
#define hipExternalMemoryDedicated 0x1
#define hipStreamWaitValueGte 0x0
#define hipStreamWaitValueEq 0x1
#define hipStreamWaitValueAnd 0x2
#define hipStreamWaitValueNor 0x3
#define hipGraphKernelNodePortDefault 0
#define hipGraphKernelNodePortProgrammatic 1
#define hipGraphKernelNodePortLaunchCompletion 2

typedef enum hipDriverProcAddressQueryResult {
  HIP_GET_PROC_ADDRESS_SUCCESS = 0,
  HIP_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
  HIP_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2,
} hipDriverProcAddressQueryResult;

typedef enum hipFlushGPUDirectRDMAWritesOptions {
  hipFlushGPUDirectRDMAWritesOptionHost = 1,
  hipFlushGPUDirectRDMAWritesOptionMemOps = 2,
} hipFlushGPUDirectRDMAWritesOptions;

typedef enum hipGPUDirectRDMAWritesOrdering {
  hipGPUDirectRDMAWritesOrderingNone = 0,
  hipGPUDirectRDMAWritesOrderingOwner = 100,
  hipGPUDirectRDMAWritesOrderingAllDevices = 200,
} hipGPUDirectRDMAWritesOrdering;

typedef enum hipDeviceP2PAttr {
  hipDevP2PAttrPerformanceRank = 0,
  hipDevP2PAttrAccessSupported = 1,
  hipDevP2PAttrNativeAtomicSupported = 2,
  hipDevP2PAttrHipArrayAccessSupported = 3,
} hipDeviceP2PAttr;

typedef enum hipStreamBatchMemOpType {
  hipStreamMemOpWaitValue32 = 1,
  hipStreamMemOpWriteValue32 = 2,
  hipStreamMemOpFlushRemoteWrites = 3,
  hipStreamMemOpWaitValue64 = 4,
  hipStreamMemOpWriteValue64 = 5,
  hipStreamMemOpBarrier = 6,
} hipStreamBatchMemOpType;

typedef enum hipMemRangeCoherencyMode {
  hipMemRangeCoherencyModeFineGrain = 0,
  hipMemRangeCoherencyModeCoarseGrain = 1,
  hipMemRangeCoherencyModeIndeterminate = 2,
} hipMemRangeCoherencyMode;

typedef enum hipMemRangeAttribute {
  hipMemRangeAttributeReadMostly = 1,
  hipMemRangeAttributePreferredLocation = 2,
  hipMemRangeAttributeAccessedBy = 3,
  hipMemRangeAttributeLastPrefetchLocation = 4,
  hipMemRangeAttributeCoherencyMode = 100,
} hipMemRangeAttribute;

typedef enum hipMemPoolAttr {
  hipMemPoolReuseFollowEventDependencies = 1,
  hipMemPoolReuseAllowOpportunistic = 2,
  hipMemPoolReuseAllowInternalDependencies = 3,
  hipMemPoolAttrReleaseThreshold = 4,
  hipMemPoolAttrReservedMemCurrent = 5,
  hipMemPoolAttrReservedMemHigh = 6,
  hipMemPoolAttrUsedMemCurrent = 7,
  hipMemPoolAttrUsedMemHigh = 8,
} hipMemPoolAttr;

typedef enum hipMemLocationType { hipMemLocationTypeInvalid = 0, hipMemLocationTypeDevice = 1 } hipMemLocationType;

typedef enum hipMemAccessFlags {
  hipMemAccessFlagsProtNone = 0,
  hipMemAccessFlagsProtRead = 1,
  hipMemAccessFlagsProtReadWrite = 3,
} hipMemAccessFlags;

typedef enum hipMemAllocationType {
  hipMemAllocationTypeInvalid = 0,
  hipMemAllocationTypePinned = 1,
  hipMemAllocationTypeMax = 0x7FFFFFFF,
} hipMemAllocationType;

typedef enum hipMemAllocationHandleType {
  hipMemHandleTypeNone = 0,
  hipMemHandleTypePosixFileDescriptor = 1,
  hipMemHandleTypeWin32 = 2,
  hipMemHandleTypeWin32Kmt = 4,
} hipMemAllocationHandleType;

typedef enum hipMemAllocationGranularity_flags {
  hipMemAllocationGranularityMinimum = 0,
  hipMemAllocationGranularityRecommended = 1,
} hipMemAllocationGranularity_flags;

typedef enum hipMemHandleType { hipMemHandleTypeGeneric = 0 } hipMemHandleType;
typedef enum hipMemOperationType { hipMemOperationTypeMap = 1, hipMemOperationTypeUnmap = 2 } hipMemOperationType;

typedef enum hipArraySparseSubresourceType {
  hipArraySparseSubresourceTypeSparseLevel = 0,
  hipArraySparseSubresourceTypeMiptail = 1,
} hipArraySparseSubresourceType;

typedef enum hipJitOption {
  hipJitOptionMaxRegisters = 0,
  hipJitOptionThreadsPerBlock,
  hipJitOptionWallTime,
  hipJitOptionInfoLogBuffer,
  hipJitOptionInfoLogBufferSizeBytes,
  hipJitOptionErrorLogBuffer,
  hipJitOptionErrorLogBufferSizeBytes,
  hipJitOptionOptimizationLevel,
  hipJitOptionTargetFromContext,
  hipJitOptionTarget,
  hipJitOptionFallbackStrategy,
  hipJitOptionGenerateDebugInfo,
  hipJitOptionLogVerbose,
  hipJitOptionGenerateLineInfo,
  hipJitOptionCacheMode,
  hipJitOptionSm3xOpt,
  hipJitOptionFastCompile,
  hipJitOptionNumOptions, /* 17 */
} hipJitOption;

typedef enum hipExternalMemoryHandleType_enum {
  hipExternalMemoryHandleTypeOpaqueFd = 1,
  hipExternalMemoryHandleTypeOpaqueWin32,
  hipExternalMemoryHandleTypeOpaqueWin32Kmt,
  hipExternalMemoryHandleTypeD3D12Heap,
  hipExternalMemoryHandleTypeD3D12Resource,
  hipExternalMemoryHandleTypeD3D11Resource,
  hipExternalMemoryHandleTypeD3D11ResourceKmt,
  hipExternalMemoryHandleTypeNvSciBuf, /* 8 */
} hipExternalMemoryHandleType;

typedef enum hipExternalSemaphoreHandleType_enum {
  hipExternalSemaphoreHandleTypeOpaqueFd = 1,
  hipExternalSemaphoreHandleTypeOpaqueWin32,
  hipExternalSemaphoreHandleTypeOpaqueWin32Kmt,
  hipExternalSemaphoreHandleTypeD3D12Fence,
  hipExternalSemaphoreHandleTypeD3D11Fence,
  hipExternalSemaphoreHandleTypeNvSciSync,
  hipExternalSemaphoreHandleTypeKeyedMutex,
  hipExternalSemaphoreHandleTypeKeyedMutexKmt,
  hipExternalSemaphoreHandleTypeTimelineSemaphoreFd,
  hipExternalSemaphoreHandleTypeTimelineSemaphoreWin32, /* 10 */
} hipExternalSemaphoreHandleType;

typedef enum hipGraphicsRegisterFlags {
  hipGraphicsRegisterFlagsNone = 0,
  hipGraphicsRegisterFlagsReadOnly = 1,
  hipGraphicsRegisterFlagsWriteDiscard = 2,
  hipGraphicsRegisterFlagsSurfaceLoadStore = 4,
  hipGraphicsRegisterFlagsTextureGather = 8,
} hipGraphicsRegisterFlags;

typedef enum hipGraphNodeType {
  hipGraphNodeTypeKernel = 0,
  hipGraphNodeTypeMemcpy,
  hipGraphNodeTypeMemset,
  hipGraphNodeTypeHost,
  hipGraphNodeTypeGraph,
  hipGraphNodeTypeEmpty,
  hipGraphNodeTypeWaitEvent,
  hipGraphNodeTypeEventRecord,
  hipGraphNodeTypeExtSemaphoreSignal,
  hipGraphNodeTypeExtSemaphoreWait,
  hipGraphNodeTypeMemAlloc,
  hipGraphNodeTypeMemFree,
  hipGraphNodeTypeMemcpyFromSymbol,
  hipGraphNodeTypeMemcpyToSymbol,
  hipGraphNodeTypeCount, /* 14 */
} hipGraphNodeType;

typedef enum hipAccessProperty {
  hipAccessPropertyNormal = 0,
  hipAccessPropertyStreaming = 1,
  hipAccessPropertyPersisting = 2,
} hipAccessProperty;

typedef enum hipLaunchAttributeID {
  hipLaunchAttributeAccessPolicyWindow = 1,
  hipLaunchAttributeCooperative = 2,
  hipLaunchAttributePriority = 8,
} hipLaunchAttributeID;
#define hipKernelNodeAttrID hipLaunchAttributeID
#define hipKernelNodeAttributeAccessPolicyWindow hipLaunchAttributeAccessPolicyWindow
#define hipKernelNodeAttributeCooperative hipLaunchAttributeCooperative
#define hipKernelNodeAttributePriority hipLaunchAttributePriority

typedef enum hipGraphExecUpdateResult {
  hipGraphExecUpdateSuccess = 0,
  hipGraphExecUpdateError,
  hipGraphExecUpdateErrorTopologyChanged,
  hipGraphExecUpdateErrorNodeTypeChanged,
  hipGraphExecUpdateErrorFunctionChanged,
  hipGraphExecUpdateErrorParametersChanged,
  hipGraphExecUpdateErrorNotSupported,
  hipGraphExecUpdateErrorUnsupportedFunctionChange, /* 7 */
} hipGraphExecUpdateResult;

typedef enum hipStreamUpdateCaptureDependenciesFlags {
  hipStreamAddCaptureDependencies = 0,
  hipStreamSetCaptureDependencies = 1,
} hipStreamUpdateCaptureDependenciesFlags;

typedef enum hipGraphMemAttributeType {
  hipGraphMemAttrUsedMemCurrent = 0,
  hipGraphMemAttrUsedMemHigh,
  hipGraphMemAttrReservedMemCurrent,
  hipGraphMemAttrReservedMemHigh,
} hipGraphMemAttributeType;

typedef enum hipUserObjectFlags { hipUserObjectNoDestructorSync = 1 } hipUserObjectFlags;
typedef enum hipUserObjectRetainFlags { hipGraphUserObjectMove = 1 } hipUserObjectRetainFlags;

typedef enum hipGraphInstantiateFlags {
  hipGraphInstantiateFlagAutoFreeOnLaunch = 1,
  hipGraphInstantiateFlagUpload = 2,
  hipGraphInstantiateFlagDeviceLaunch = 4,
  hipGraphInstantiateFlagUseNodePriority = 8,
} hipGraphInstantiateFlags;

enum hipGraphDebugDotFlags {
  hipGraphDebugDotFlagsVerbose = 1 << 0,
  hipGraphDebugDotFlagsKernelNodeParams = 1 << 2,
  hipGraphDebugDotFlagsMemcpyNodeParams = 1 << 3,
  hipGraphDebugDotFlagsMemsetNodeParams = 1 << 4,
  hipGraphDebugDotFlagsHostNodeParams = 1 << 5,
  hipGraphDebugDotFlagsEventNodeParams = 1 << 6,
  hipGraphDebugDotFlagsExtSemasSignalNodeParams = 1 << 7,
  hipGraphDebugDotFlagsExtSemasWaitNodeParams = 1 << 8,
  hipGraphDebugDotFlagsKernelNodeAttributes = 1 << 9,
  hipGraphDebugDotFlagsHandles = 1 << 10,
};

typedef enum hipGraphInstantiateResult {
  hipGraphInstantiateSuccess = 0,
  hipGraphInstantiateError,
  hipGraphInstantiateInvalidStructure,
  hipGraphInstantiateNodeOperationNotSupported,
  hipGraphInstantiateMultipleDevicesNotSupported,
} hipGraphInstantiateResult;

typedef enum hipGraphDependencyType {
  hipGraphDependencyTypeDefault = 0,
  hipGraphDependencyTypeProgrammatic = 1,
} hipGraphDependencyType;

/* Driver-style enumerations (HIP's driver_types.h). */
typedef enum hipArray_Format {
  HIP_AD_FORMAT_UNSIGNED_INT8 = 0x01,
  HIP_AD_FORMAT_UNSIGNED_INT16 = 0x02,
  HIP_AD_FORMAT_UNSIGNED_INT32 = 0x03,
  HIP_AD_FORMAT_SIGNED_INT8 = 0x08,
  HIP_AD_FORMAT_SIGNED_INT16 = 0x09,
  HIP_AD_FORMAT_SIGNED_INT32 = 0x0a,
  HIP_AD_FORMAT_HALF = 0x10,
  HIP_AD_FORMAT_FLOAT = 0x20,
} hipArray_Format;

typedef enum HIPresourcetype_enum {
  HIP_RESOURCE_TYPE_ARRAY = 0,
  HIP_RESOURCE_TYPE_MIPMAPPED_ARRAY = 1,
  HIP_RESOURCE_TYPE_LINEAR = 2,
  HIP_RESOURCE_TYPE_PITCH2D = 3,
} HIPresourcetype, hipResourcetype;

typedef enum HIPaddress_mode_enum {
  HIP_TR_ADDRESS_MODE_WRAP = 0,
  HIP_TR_ADDRESS_MODE_CLAMP = 1,
  HIP_TR_ADDRESS_MODE_MIRROR = 2,
  HIP_TR_ADDRESS_MODE_BORDER = 3,
} HIPaddress_mode;

typedef enum HIPfilter_mode_enum { HIP_TR_FILTER_MODE_POINT = 0, HIP_TR_FILTER_MODE_LINEAR = 1 } HIPfilter_mode;

/* Views of a resource: formats 1 to 24 are {UINT, SINT} x {8, 16, 32} bits
 * x {1, 2, 4} channels, then FLOAT x {16, 32} x {1, 2, 4}, then the block
 * compressed ones. */
typedef enum HIPresourceViewFormat_enum {
  HIP_RES_VIEW_FORMAT_NONE = 0x00,
  HIP_RES_VIEW_FORMAT_UINT_1X8, HIP_RES_VIEW_FORMAT_UINT_2X8, HIP_RES_VIEW_FORMAT_UINT_4X8,
  HIP_RES_VIEW_FORMAT_SINT_1X8, HIP_RES_VIEW_FORMAT_SINT_2X8, HIP_RES_VIEW_FORMAT_SINT_4X8,
  HIP_RES_VIEW_FORMAT_UINT_1X16, HIP_RES_VIEW_FORMAT_UINT_2X16, HIP_RES_VIEW_FORMAT_UINT_4X16,
  HIP_RES_VIEW_FORMAT_SINT_1X16, HIP_RES_VIEW_FORMAT_SINT_2X16, HIP_RES_VIEW_FORMAT_SINT_4X16,
  HIP_RES_VIEW_FORMAT_UINT_1X32, HIP_RES_VIEW_FORMAT_UINT_2X32, HIP_RES_VIEW_FORMAT_UINT_4X32,
  HIP_RES_VIEW_FORMAT_SINT_1X32, HIP_RES_VIEW_FORMAT_SINT_2X32, HIP_RES_VIEW_FORMAT_SINT_4X32,
  HIP_RES_VIEW_FORMAT_FLOAT_1X16, HIP_RES_VIEW_FORMAT_FLOAT_2X16, HIP_RES_VIEW_FORMAT_FLOAT_4X16,
  HIP_RES_VIEW_FORMAT_FLOAT_1X32, HIP_RES_VIEW_FORMAT_FLOAT_2X32, HIP_RES_VIEW_FORMAT_FLOAT_4X32,
  HIP_RES_VIEW_FORMAT_UNSIGNED_BC1, HIP_RES_VIEW_FORMAT_UNSIGNED_BC2, HIP_RES_VIEW_FORMAT_UNSIGNED_BC3,
  HIP_RES_VIEW_FORMAT_UNSIGNED_BC4, HIP_RES_VIEW_FORMAT_SIGNED_BC4, HIP_RES_VIEW_FORMAT_UNSIGNED_BC5,
  HIP_RES_VIEW_FORMAT_SIGNED_BC5, HIP_RES_VIEW_FORMAT_UNSIGNED_BC6H, HIP_RES_VIEW_FORMAT_SIGNED_BC6H,
  HIP_RES_VIEW_FORMAT_UNSIGNED_BC7, /* 0x22 */
} HIPresourceViewFormat;

typedef enum hipFunction_attribute {
  HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
  HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES,
  HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES,
  HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES,
  HIP_FUNC_ATTRIBUTE_NUM_REGS,
  HIP_FUNC_ATTRIBUTE_PTX_VERSION,
  HIP_FUNC_ATTRIBUTE_BINARY_VERSION,
  HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA,
  HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
  HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
  HIP_FUNC_ATTRIBUTE_MAX, /* 10 */
} hipFunction_attribute;

typedef enum hipPointer_attribute {
  HIP_POINTER_ATTRIBUTE_CONTEXT = 1,
  HIP_POINTER_ATTRIBUTE_MEMORY_TYPE,
  HIP_POINTER_ATTRIBUTE_DEVICE_POINTER,
  HIP_POINTER_ATTRIBUTE_HOST_POINTER,
  HIP_POINTER_ATTRIBUTE_P2P_TOKENS,
  HIP_POINTER_ATTRIBUTE_SYNC_MEMOPS,
  HIP_POINTER_ATTRIBUTE_BUFFER_ID,
  HIP_POINTER_ATTRIBUTE_IS_MANAGED,
  HIP_POINTER_ATTRIBUTE_DEVICE_ORDINAL,
  HIP_POINTER_ATTRIBUTE_IS_LEGACY_HIP_IPC_CAPABLE,
  HIP_POINTER_ATTRIBUTE_RANGE_START_ADDR,
  HIP_POINTER_ATTRIBUTE_RANGE_SIZE,
  HIP_POINTER_ATTRIBUTE_MAPPED,
  HIP_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES,
  HIP_POINTER_ATTRIBUTE_IS_GPU_DIRECT_RDMA_CAPABLE,
  HIP_POINTER_ATTRIBUTE_ACCESS_FLAGS,
  HIP_POINTER_ATTRIBUTE_MEMPOOL_HANDLE, /* 17 */
} hipPointer_attribute;

/* Handles. */
typedef struct hipUserObject *hipUserObject_t;
typedef struct ihipMemGenericAllocationHandle *hipMemGenericAllocationHandle_t;
typedef struct _hipGraphicsResource hipGraphicsResource;
typedef hipGraphicsResource *hipGraphicsResource_t;
typedef void *hipExternalMemory_t;
typedef void *hipExternalSemaphore_t;

/* Memory pools and virtual memory: where memory lies and who may use it. */
typedef struct hipMemLocation {
  hipMemLocationType type;
  int id;
} hipMemLocation;

typedef struct hipMemAccessDesc {
  hipMemLocation location;
  hipMemAccessFlags flags;
} hipMemAccessDesc;

typedef struct hipMemPoolProps {
  hipMemAllocationType allocType;
  hipMemAllocationHandleType handleTypes;
  hipMemLocation location;
  void *win32SecurityAttributes;
  size_t maxSize;
  unsigned char reserved[56];
} hipMemPoolProps;

typedef struct hipMemPoolPtrExportData {
  unsigned char reserved[64];
} hipMemPoolPtrExportData;

typedef struct hipMemAllocationProp {
  hipMemAllocationType type;
  hipMemAllocationHandleType requestedHandleType;
  hipMemLocation location;
  void *win32HandleMetaData;
  struct {
    unsigned char compressionType;
    unsigned char gpuDirectRDMACapable;
    unsigned short usage;
  } allocFlags;
} hipMemAllocationProp;

typedef struct hipAccessPolicyWindow {
  void *base_ptr;
  hipAccessProperty hitProp;
  float hitRatio;
  hipAccessProperty missProp;
  size_t num_bytes;
} hipAccessPolicyWindow;

/* One launch of a cooperative launch over several devices. */
typedef struct hipLaunchParams_t {
  void *func;
  dim3 gridDim;
  dim3 blockDim;
  void **args;
  size_t sharedMem;
  hipStream_t stream;
} hipLaunchParams;

typedef struct hipFunctionLaunchParams_t {
  hipFunction_t function;
  unsigned int gridDimX, gridDimY, gridDimZ;
  unsigned int blockDimX, blockDimY, blockDimZ;
  unsigned int sharedMemBytes;
  hipStream_t hStream;
  void **kernelParams;
} hipFunctionLaunchParams;

/* Memory pools (stream-ordered allocation). */
hipError_t hipMemPoolCreate(hipMemPool_t *pool, const hipMemPoolProps *props);
hipError_t hipMemPoolDestroy(hipMemPool_t pool);
hipError_t hipMemPoolSetAttribute(hipMemPool_t pool, hipMemPoolAttr attribute, void *value);
hipError_t hipMemPoolGetAttribute(hipMemPool_t pool, hipMemPoolAttr attribute, void *value);
hipError_t hipMemPoolSetAccess(hipMemPool_t pool, const hipMemAccessDesc *descriptions, size_t count);
hipError_t hipMemPoolGetAccess(hipMemAccessFlags *flags, hipMemPool_t pool, hipMemLocation *location);
hipError_t hipMemPoolTrimTo(hipMemPool_t pool, size_t keep_bytes);
hipError_t hipMemPoolExportPointer(hipMemPoolPtrExportData *data, void *pointer);
hipError_t hipMemPoolImportPointer(void **pointer, hipMemPool_t pool, hipMemPoolPtrExportData *data);
hipError_t hipMemPoolExportToShareableHandle(void *handle, hipMemPool_t pool, hipMemAllocationHandleType type,
                                             unsigned int flags);
hipError_t hipMemPoolImportFromShareableHandle(hipMemPool_t *pool, void *handle, hipMemAllocationHandleType type,
                                               unsigned int flags);
hipError_t hipMallocFromPoolAsync(void **pointer, size_t size, hipMemPool_t pool, hipStream_t stream);
hipError_t hipDeviceGetMemPool(hipMemPool_t *pool, int device);
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t pool);

/* Virtual memory management. */
hipError_t hipMemAddressReserve(void **pointer, size_t size, size_t alignment, void *address,
                                unsigned long long flags);
hipError_t hipMemAddressFree(void *pointer, size_t size);
hipError_t hipMemCreate(hipMemGenericAllocationHandle_t *handle, size_t size, const hipMemAllocationProp *prop,
                        unsigned long long flags);
hipError_t hipMemRelease(hipMemGenericAllocationHandle_t handle);
hipError_t hipMemMap(void *pointer, size_t size, size_t offset, hipMemGenericAllocationHandle_t handle,
                     unsigned long long flags);
hipError_t hipMemUnmap(void *pointer, size_t size);
hipError_t hipMemSetAccess(void *pointer, size_t size, const hipMemAccessDesc *descriptions, size_t count);
hipError_t hipMemGetAccess(unsigned long long *flags, const hipMemLocation *location, void *pointer);
hipError_t hipMemGetAllocationGranularity(size_t *granularity, const hipMemAllocationProp *prop,
                                          hipMemAllocationGranularity_flags option);
hipError_t hipMemGetAllocationPropertiesFromHandle(hipMemAllocationProp *prop, hipMemGenericAllocationHandle_t handle);
hipError_t hipMemExportToShareableHandle(void *shareable, hipMemGenericAllocationHandle_t handle,
                                         hipMemAllocationHandleType type, unsigned long long flags);
hipError_t hipMemImportFromShareableHandle(hipMemGenericAllocationHandle_t *handle, void *os_handle,
                                           hipMemAllocationHandleType type);
hipError_t hipMemRetainAllocationHandle(hipMemGenericAllocationHandle_t *handle, void *address);

/* User objects: a payload destroyed when its last reference goes. */
hipError_t hipUserObjectCreate(hipUserObject_t *object, void *payload, hipHostFn_t destroy, unsigned int references,
                               unsigned int flags);
hipError_t hipUserObjectRetain(hipUserObject_t object, unsigned int count __GPUSYM_DEFAULT(1));
hipError_t hipUserObjectRelease(hipUserObject_t object, unsigned int count __GPUSYM_DEFAULT(1));

/* Stream memory operations: waits on and writes of a word, in stream order. */
hipError_t hipStreamWaitValue32(hipStream_t stream, void *pointer, uint32_t value, unsigned int flags,
                                uint32_t mask __GPUSYM_DEFAULT(0xFFFFFFFFu));
hipError_t hipStreamWaitValue64(hipStream_t stream, void *pointer, uint64_t value, unsigned int flags,
                                uint64_t mask __GPUSYM_DEFAULT(0xFFFFFFFFFFFFFFFFull));
hipError_t hipStreamWriteValue32(hipStream_t stream, void *pointer, uint32_t value, unsigned int flags);
hipError_t hipStreamWriteValue64(hipStream_t stream, void *pointer, uint64_t value, unsigned int flags);
hipError_t hipStreamAttachMemAsync(hipStream_t stream, void *pointer, size_t length __GPUSYM_DEFAULT(0),
                                   unsigned int flags __GPUSYM_DEFAULT(hipMemAttachSingle));

/* Attributes by enumeration. */
hipError_t hipPointerGetAttribute(void *data, hipPointer_attribute attribute, hipDeviceptr_t pointer);
hipError_t hipPointerSetAttribute(const void *value, hipPointer_attribute attribute, hipDeviceptr_t pointer);
hipError_t hipDrvPointerGetAttributes(unsigned int count, hipPointer_attribute *attributes, void **data,
                                      hipDeviceptr_t pointer);
hipError_t hipFuncGetAttribute(int *value, hipFunction_attribute attribute, hipFunction_t function);
hipError_t hipDeviceGetP2PAttribute(int *value, hipDeviceP2PAttr attribute, int source, int destination);
hipError_t hipExtGetLinkTypeAndHopCount(int device1, int device2, uint32_t *link_type, uint32_t *hop_count);
hipError_t hipMemRangeGetAttribute(void *data, size_t data_size, hipMemRangeAttribute attribute, const void *pointer,
                                   size_t count);
hipError_t hipMemRangeGetAttributes(void **data, size_t *data_sizes, hipMemRangeAttribute *attributes,
                                    size_t attribute_count, const void *pointer, size_t count);

/* Devices, functions, capture. */
hipError_t hipSetValidDevices(int *devices, int count);
hipError_t hipGetFuncBySymbol(hipFunction_t *function, const void *symbol);
hipError_t hipThreadExchangeStreamCaptureMode(hipStreamCaptureMode *mode);
hipError_t hipStreamGetCaptureInfo_v2(hipStream_t stream, hipStreamCaptureStatus *status,
                                      unsigned long long *id __GPUSYM_DEFAULT(0),
                                      hipGraph_t *graph __GPUSYM_DEFAULT(0),
                                      const hipGraphNode_t **dependencies __GPUSYM_DEFAULT(0),
                                      size_t *dependency_count __GPUSYM_DEFAULT(0));
hipError_t hipStreamUpdateCaptureDependencies(hipStream_t stream, hipGraphNode_t *dependencies, size_t count,
                                              unsigned int flags __GPUSYM_DEFAULT(0));
hipError_t hipDeviceGetGraphMemAttribute(int device, hipGraphMemAttributeType attribute, void *value);
hipError_t hipDeviceSetGraphMemAttribute(int device, hipGraphMemAttributeType attribute, void *value);
hipError_t hipDeviceGraphMemTrim(int device);
const char *hipApiName(uint32_t id);
hipError_t hipGetProcAddress(const char *symbol, void **function, int hip_version, uint64_t flags,
                             hipDriverProcAddressQueryResult *status);

/* Launches over several devices, and with a module function cooperatively. */
hipError_t hipLaunchCooperativeKernelMultiDevice(hipLaunchParams *launches, int count, unsigned int flags);
hipError_t hipExtLaunchMultiKernelMultiDevice(hipLaunchParams *launches, int count, unsigned int flags);
hipError_t hipModuleLaunchCooperativeKernel(hipFunction_t function, unsigned int grid_x, unsigned int grid_y,
                                            unsigned int grid_z, unsigned int block_x, unsigned int block_y,
                                            unsigned int block_z, unsigned int shared_bytes, hipStream_t stream,
                                            void **arguments);
hipError_t hipModuleLaunchCooperativeKernelMultiDevice(hipFunctionLaunchParams *launches, unsigned int count,
                                                       unsigned int flags);
hipError_t hipExtStreamCreateWithCUMask(hipStream_t *stream, uint32_t mask_words, const uint32_t *mask);
hipError_t hipExtStreamGetCUMask(hipStream_t stream, uint32_t mask_words, uint32_t *mask);

/* Copies between arrays and linear memory by byte offset. */
hipError_t hipMemcpyAtoH(void *dst, hipArray_t src, size_t src_offset, size_t count);
hipError_t hipMemcpyHtoA(hipArray_t dst, size_t dst_offset, const void *src, size_t count);
hipError_t hipMemcpyAtoHAsync(void *dst, hipArray_t src, size_t src_offset, size_t count, hipStream_t stream);
hipError_t hipMemcpyHtoAAsync(hipArray_t dst, size_t dst_offset, const void *src, size_t count, hipStream_t stream);
hipError_t hipMemcpyAtoD(hipDeviceptr_t dst, hipArray_t src, size_t src_offset, size_t count);
hipError_t hipMemcpyDtoA(hipArray_t dst, size_t dst_offset, hipDeviceptr_t src, size_t count);
hipError_t hipMemcpyAtoA(hipArray_t dst, size_t dst_offset, hipArray_t src, size_t src_offset, size_t count);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
