/*
 * HIP's driver-style arrays, copies by descriptor and texture objects,
 * mipmapped and sparse arrays, texture references, external memory and
 * semaphores, and graphics interop, with HIP's names, layouts and
 * signatures.  Included by hip/hip_runtime_api.h; usable from C and C++.
 * Which calls work is said in docs/runtime.md; the others answer
 * hipErrorNotSupported.
 */
#ifndef GPUSYM_DETAIL_RUNTIME_API_ARRAYS_H
#define GPUSYM_DETAIL_RUNTIME_API_ARRAYS_H

#ifdef __cplusplus
extern "C" {
#endif

/* ---- driver-style arrays and copies ---- */

typedef struct HIP_ARRAY_DESCRIPTOR {
  size_t Width;
  size_t Height;
  hipArray_Format Format;
  unsigned int NumChannels;
} HIP_ARRAY_DESCRIPTOR;

typedef struct HIP_ARRAY3D_DESCRIPTOR {
  size_t Width;
  size_t Height;
  size_t Depth;
  hipArray_Format Format;
  unsigned int NumChannels;
  unsigned int Flags;
} HIP_ARRAY3D_DESCRIPTOR;

/* A copy of a rectangle between host memory, device memory and arrays, by
 * byte offsets ("InBytes") and rows. */
typedef struct hip_Memcpy2D {
  size_t srcXInBytes;
  size_t srcY;
  hipMemoryType srcMemoryType;
  const void *srcHost;
  hipDeviceptr_t srcDevice;
  hipArray_t srcArray;
  size_t srcPitch;
  size_t dstXInBytes;
  size_t dstY;
  hipMemoryType dstMemoryType;
  void *dstHost;
  hipDeviceptr_t dstDevice;
  hipArray_t dstArray;
  size_t dstPitch;
  size_t WidthInBytes;
  size_t Height;
} hip_Memcpy2D;

typedef struct HIP_MEMCPY3D {
  size_t srcXInBytes;
  size_t srcY;
  size_t srcZ;
  size_t srcLOD;
  hipMemoryType srcMemoryType;
  const void *srcHost;
  hipDeviceptr_t srcDevice;
  hipArray_t srcArray;
  size_t srcPitch;
  size_t srcHeight;
  size_t dstXInBytes;
  size_t dstY;
  size_t dstZ;
  size_t dstLOD;
  hipMemoryType dstMemoryType;
  void *dstHost;
  hipDeviceptr_t dstDevice;
  hipArray_t dstArray;
  size_t dstPitch;
  size_t dstHeight;
  size_t WidthInBytes;
  size_t Height;
  size_t Depth;
} HIP_MEMCPY3D;

hipError_t hipArrayCreate(hipArray_t *pHandle, const HIP_ARRAY_DESCRIPTOR *pAllocateArray);
hipError_t hipArray3DCreate(hipArray_t *array, const HIP_ARRAY3D_DESCRIPTOR *pAllocateArray);
hipError_t hipArrayDestroy(hipArray_t array);
hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR *pArrayDescriptor, hipArray_t array);
hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR *pArrayDescriptor, hipArray_t array);
hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy);
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy, hipStream_t stream __GPUSYM_DEFAULT(0));
hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D *pCopy);
hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *pCopy);
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *pCopy, hipStream_t stream);
hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t wOffsetDst, size_t hOffsetDst, hipArray_const_t src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                   hipMemcpyKind kind __GPUSYM_DEFAULT(hipMemcpyDeviceToDevice));

/* ---- driver-style texture objects ---- */

#define HIP_TRSA_OVERRIDE_FORMAT 0x01
#define HIP_TRSF_READ_AS_INTEGER 0x01
#define HIP_TRSF_NORMALIZED_COORDINATES 0x02
#define HIP_TRSF_SRGB 0x10

/* The sizes of AMD's image and sampler descriptors, in 32-bit words. */
#define HIP_IMAGE_OBJECT_SIZE_DWORD 12
#define HIP_SAMPLER_OBJECT_SIZE_DWORD 8
#define HIP_SAMPLER_OBJECT_OFFSET_DWORD HIP_IMAGE_OBJECT_SIZE_DWORD
#define HIP_TEXTURE_OBJECT_SIZE_DWORD (HIP_IMAGE_OBJECT_SIZE_DWORD + HIP_SAMPLER_OBJECT_SIZE_DWORD)

#define hipTextureType1D 0x01
#define hipTextureType2D 0x02
#define hipTextureType3D 0x03
#define hipTextureTypeCubemap 0x0C
#define hipTextureType1DLayered 0xF1
#define hipTextureType2DLayered 0xF2
#define hipTextureTypeCubemapLayered 0xFC

typedef struct HIP_RESOURCE_DESC_st {
  HIPresourcetype resType;
  union {
    struct {
      hipArray_t hArray;
    } array;
    struct {
      hipMipmappedArray_t hMipmappedArray;
    } mipmap;
    struct {
      hipDeviceptr_t devPtr;
      hipArray_Format format;
      unsigned int numChannels;
      size_t sizeInBytes;
    } linear;
    struct {
      hipDeviceptr_t devPtr;
      hipArray_Format format;
      unsigned int numChannels;
      size_t width;
      size_t height;
      size_t pitchInBytes;
    } pitch2D;
    struct {
      int reserved[32];
    } reserved;
  } res;
  unsigned int flags;
} HIP_RESOURCE_DESC;

typedef struct HIP_TEXTURE_DESC_st {
  HIPaddress_mode addressMode[3];
  HIPfilter_mode filterMode;
  unsigned int flags; /* HIP_TRSF_* */
  unsigned int maxAnisotropy;
  HIPfilter_mode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  float borderColor[4];
  int reserved[12];
} HIP_TEXTURE_DESC;

typedef struct HIP_RESOURCE_VIEW_DESC_st {
  HIPresourceViewFormat format;
  size_t width;
  size_t height;
  size_t depth;
  unsigned int firstMipmapLevel;
  unsigned int lastMipmapLevel;
  unsigned int firstLayer;
  unsigned int lastLayer;
  unsigned int reserved[16];
} HIP_RESOURCE_VIEW_DESC;

hipError_t hipTexObjectCreate(hipTextureObject_t *pTexObject, const HIP_RESOURCE_DESC *pResDesc,
                              const HIP_TEXTURE_DESC *pTexDesc, const HIP_RESOURCE_VIEW_DESC *pResViewDesc);
hipError_t hipTexObjectDestroy(hipTextureObject_t texObject);
hipError_t hipTexObjectGetResourceDesc(HIP_RESOURCE_DESC *pResDesc, hipTextureObject_t texObject);
hipError_t hipTexObjectGetResourceViewDesc(HIP_RESOURCE_VIEW_DESC *pResViewDesc, hipTextureObject_t texObject);
hipError_t hipTexObjectGetTextureDesc(HIP_TEXTURE_DESC *pTexDesc, hipTextureObject_t texObject);
hipError_t hipGetTextureObjectResourceViewDesc(struct hipResourceViewDesc *pResViewDesc,
                                               hipTextureObject_t textureObject);

/* ---- mipmapped and sparse arrays ---- */

typedef const struct hipMipmappedArray *hipMipmappedArray_const_t;
typedef hipMipmappedArray_t hipmipmappedArray;

typedef struct hipArrayMapInfo {
  hipResourceType resourceType;
  union {
    hipMipmappedArray_t mipmap;
    hipArray_t array;
  } resource;
  hipArraySparseSubresourceType subresourceType;
  union {
    struct {
      unsigned int level;
      unsigned int layer;
      unsigned int offsetX;
      unsigned int offsetY;
      unsigned int offsetZ;
      unsigned int extentWidth;
      unsigned int extentHeight;
      unsigned int extentDepth;
    } sparseLevel;
    struct {
      unsigned int layer;
      unsigned long long offset;
      unsigned long long size;
    } miptail;
  } subresource;
  hipMemOperationType memOperationType;
  hipMemHandleType memHandleType;
  union {
    hipMemGenericAllocationHandle_t memHandle;
  } memHandle;
  unsigned long long offset;
  unsigned int deviceBitMask;
  unsigned int flags;
  unsigned int reserved[2];
} hipArrayMapInfo;

hipError_t hipMallocMipmappedArray(hipMipmappedArray_t *mipmappedArray, const struct hipChannelFormatDesc *desc,
                                   struct hipExtent extent, unsigned int numLevels,
                                   unsigned int flags __GPUSYM_DEFAULT(0));
hipError_t hipFreeMipmappedArray(hipMipmappedArray_t mipmappedArray);
hipError_t hipGetMipmappedArrayLevel(hipArray_t *levelArray, hipMipmappedArray_const_t mipmappedArray,
                                     unsigned int level);
hipError_t hipMipmappedArrayCreate(hipMipmappedArray_t *pHandle, HIP_ARRAY3D_DESCRIPTOR *pMipmappedArrayDesc,
                                   unsigned int numMipmapLevels);
hipError_t hipMipmappedArrayDestroy(hipMipmappedArray_t hMipmappedArray);
hipError_t hipMipmappedArrayGetLevel(hipArray_t *pLevelArray, hipMipmappedArray_t hMipMappedArray,
                                     unsigned int level);
hipError_t hipMemMapArrayAsync(hipArrayMapInfo *mapInfoList, unsigned int count, hipStream_t stream);

/* ---- texture references (gpusym has texture objects only) ---- */

typedef struct textureReference {
  int normalized;
  enum hipTextureReadMode readMode;
  enum hipTextureFilterMode filterMode;
  enum hipTextureAddressMode addressMode[3];
  struct hipChannelFormatDesc channelDesc;
  int sRGB;
  unsigned int maxAnisotropy;
  enum hipTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  hipTextureObject_t textureObject;
  int numChannels;
  enum hipArray_Format format;
} textureReference;
typedef textureReference *hipTexRef;

typedef struct surfaceReference {
  hipSurfaceObject_t surfaceObject;
} surfaceReference;

hipError_t hipModuleGetTexRef(textureReference **texRef, hipModule_t hmod, const char *name);

/* ---- external memory and semaphores ---- */

typedef struct hipExternalMemoryHandleDesc_st {
  hipExternalMemoryHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *nvSciBufObject;
  } handle;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalMemoryHandleDesc;

typedef struct hipExternalMemoryBufferDesc_st {
  unsigned long long offset;
  unsigned long long size;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalMemoryBufferDesc;

typedef struct hipExternalMemoryMipmappedArrayDesc_st {
  unsigned long long offset;
  hipChannelFormatDesc formatDesc;
  hipExtent extent;
  unsigned int flags;
  unsigned int numLevels;
} hipExternalMemoryMipmappedArrayDesc;

typedef struct hipExternalSemaphoreHandleDesc_st {
  hipExternalSemaphoreHandleType type;
  union {
    int fd;
    struct {
      void *handle;
      const void *name;
    } win32;
    const void *NvSciSyncObj;
  } handle;
  unsigned int flags;
  unsigned int reserved[16];
} hipExternalSemaphoreHandleDesc;

hipError_t hipImportExternalMemory(hipExternalMemory_t *extMem_out, const hipExternalMemoryHandleDesc *memHandleDesc);
hipError_t hipExternalMemoryGetMappedBuffer(void **devPtr, hipExternalMemory_t extMem,
                                            const hipExternalMemoryBufferDesc *bufferDesc);
hipError_t hipExternalMemoryGetMappedMipmappedArray(hipMipmappedArray_t *mipmap, hipExternalMemory_t extMem,
                                                    const hipExternalMemoryMipmappedArrayDesc *mipmapDesc);
hipError_t hipDestroyExternalMemory(hipExternalMemory_t extMem);
hipError_t hipImportExternalSemaphore(hipExternalSemaphore_t *extSem_out,
                                      const hipExternalSemaphoreHandleDesc *semHandleDesc);
hipError_t hipDestroyExternalSemaphore(hipExternalSemaphore_t extSem);

/* ---- graphics interop ---- */

hipError_t hipGraphicsMapResources(int count, hipGraphicsResource_t *resources, hipStream_t stream __GPUSYM_DEFAULT(0));
hipError_t hipGraphicsUnmapResources(int count, hipGraphicsResource_t *resources,
                                     hipStream_t stream __GPUSYM_DEFAULT(0));
hipError_t hipGraphicsResourceGetMappedPointer(void **devPtr, size_t *size, hipGraphicsResource_t resource);
hipError_t hipGraphicsSubResourceGetMappedArray(hipArray_t *array, hipGraphicsResource_t resource,
                                                unsigned int arrayIndex, unsigned int mipLevel);
hipError_t hipGraphicsUnregisterResource(hipGraphicsResource_t resource);

#ifdef __cplusplus
}  // extern "C"
#endif

#endif
