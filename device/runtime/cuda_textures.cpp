// CUDA's arrays, texture objects and surface objects over HIP's (arrays.cpp,
// textures.cpp): each cuda* function calls its hip* twin under the CUDA
// name.  CUDA's descriptions are converted member by member (CUDA's have
// members HIP's lack); the handles are HIP's.  Mipmapped arrays are not
// supported.
#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

namespace {

// As cuda_runtime_api.cpp's: a failed context's error too (unless_failed).
template <typename Call>
cudaError_t as_cuda(const char *name, Call hip_call) {
  ApiCall named(name);
  return static_cast<cudaError_t>(unless_failed(name, hip_call));
}

// CUDA's kinds beyond none (NV12, normalized and block-compressed formats)
// have no HIP kind: as none, which every call refuses.
hipChannelFormatDesc to_hip(const cudaChannelFormatDesc &d) {
  auto kind = d.f <= cudaChannelFormatKindNone ? static_cast<hipChannelFormatKind>(d.f) : hipChannelFormatKindNone;
  return {d.x, d.y, d.z, d.w, kind};
}

cudaChannelFormatDesc to_cuda(const hipChannelFormatDesc &d) {
  return {d.x, d.y, d.z, d.w, static_cast<cudaChannelFormatKind>(d.f)};
}

hipResourceDesc to_hip(const cudaResourceDesc &r) {
  hipResourceDesc out{};
  out.resType = static_cast<hipResourceType>(r.resType);
  switch (r.resType) {
    case cudaResourceTypeArray: out.res.array.array = r.res.array.array; break;
    case cudaResourceTypeMipmappedArray: out.res.mipmap.mipmap = r.res.mipmap.mipmap; break;
    case cudaResourceTypeLinear:
      out.res.linear.devPtr = r.res.linear.devPtr;
      out.res.linear.desc = to_hip(r.res.linear.desc);
      out.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
      break;
    case cudaResourceTypePitch2D:
      out.res.pitch2D.devPtr = r.res.pitch2D.devPtr;
      out.res.pitch2D.desc = to_hip(r.res.pitch2D.desc);
      out.res.pitch2D.width = r.res.pitch2D.width;
      out.res.pitch2D.height = r.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
      break;
  }
  return out;
}

cudaResourceDesc to_cuda(const hipResourceDesc &r) {
  cudaResourceDesc out{};
  out.resType = static_cast<cudaResourceType>(r.resType);
  switch (r.resType) {
    case hipResourceTypeArray: out.res.array.array = r.res.array.array; break;
    case hipResourceTypeMipmappedArray: out.res.mipmap.mipmap = r.res.mipmap.mipmap; break;
    case hipResourceTypeLinear:
      out.res.linear.devPtr = r.res.linear.devPtr;
      out.res.linear.desc = to_cuda(r.res.linear.desc);
      out.res.linear.sizeInBytes = r.res.linear.sizeInBytes;
      break;
    case hipResourceTypePitch2D:
      out.res.pitch2D.devPtr = r.res.pitch2D.devPtr;
      out.res.pitch2D.desc = to_cuda(r.res.pitch2D.desc);
      out.res.pitch2D.width = r.res.pitch2D.width;
      out.res.pitch2D.height = r.res.pitch2D.height;
      out.res.pitch2D.pitchInBytes = r.res.pitch2D.pitchInBytes;
      break;
  }
  return out;
}

hipTextureDesc to_hip(const cudaTextureDesc &d) {
  hipTextureDesc out{};
  for (int i = 0; i < 3; i++) out.addressMode[i] = static_cast<hipTextureAddressMode>(d.addressMode[i]);
  out.filterMode = static_cast<hipTextureFilterMode>(d.filterMode);
  out.readMode = static_cast<hipTextureReadMode>(d.readMode);
  out.sRGB = d.sRGB;
  for (int i = 0; i < 4; i++) out.borderColor[i] = d.borderColor[i];
  out.normalizedCoords = d.normalizedCoords;
  out.maxAnisotropy = d.maxAnisotropy;
  out.mipmapFilterMode = static_cast<hipTextureFilterMode>(d.mipmapFilterMode);
  out.mipmapLevelBias = d.mipmapLevelBias;
  out.minMipmapLevelClamp = d.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = d.maxMipmapLevelClamp;
  return out;
}

cudaTextureDesc to_cuda(const hipTextureDesc &d) {
  cudaTextureDesc out{};
  for (int i = 0; i < 3; i++) out.addressMode[i] = static_cast<cudaTextureAddressMode>(d.addressMode[i]);
  out.filterMode = static_cast<cudaTextureFilterMode>(d.filterMode);
  out.readMode = static_cast<cudaTextureReadMode>(d.readMode);
  out.sRGB = d.sRGB;
  for (int i = 0; i < 4; i++) out.borderColor[i] = d.borderColor[i];
  out.normalizedCoords = d.normalizedCoords;
  out.maxAnisotropy = d.maxAnisotropy;
  out.mipmapFilterMode = static_cast<cudaTextureFilterMode>(d.mipmapFilterMode);
  out.mipmapLevelBias = d.mipmapLevelBias;
  out.minMipmapLevelClamp = d.minMipmapLevelClamp;
  out.maxMipmapLevelClamp = d.maxMipmapLevelClamp;
  return out;
}

hipResourceViewDesc to_hip(const cudaResourceViewDesc &v) {
  return {static_cast<hipResourceViewFormat>(v.format), v.width, v.height, v.depth, v.firstMipmapLevel,
          v.lastMipmapLevel, v.firstLayer, v.lastLayer};
}

cudaResourceViewDesc to_cuda(const hipResourceViewDesc &v) {
  return {static_cast<cudaResourceViewFormat>(v.format), v.width, v.height, v.depth, v.firstMipmapLevel,
          v.lastMipmapLevel, v.firstLayer, v.lastLayer};
}

hipMemcpyKind to_hip(cudaMemcpyKind kind) { return static_cast<hipMemcpyKind>(kind); }

}  // namespace

#define GPUSYM_AS_CUDA(expression) as_cuda(__func__, [&] { return expression; })

extern "C" {

// ---- arrays ----

cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, cudaChannelFormatKind f) {
  return {x, y, z, w, f};
}

cudaError_t cudaMallocArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, size_t width, size_t height,
                            unsigned int flags) {
  if (!desc) return fail(__func__, cudaErrorInvalidValue);
  hipChannelFormatDesc hip = to_hip(*desc);
  return GPUSYM_AS_CUDA(hipMallocArray(array, &hip, width, height, flags));
}

cudaError_t cudaMalloc3DArray(cudaArray_t *array, const cudaChannelFormatDesc *desc, cudaExtent extent,
                              unsigned int flags) {
  if (!desc) return fail(__func__, cudaErrorInvalidValue);
  hipChannelFormatDesc hip = to_hip(*desc);
  return GPUSYM_AS_CUDA(hipMalloc3DArray(array, &hip, extent, flags));
}

cudaError_t cudaFreeArray(cudaArray_t array) { return GPUSYM_AS_CUDA(hipFreeArray(array)); }

cudaError_t cudaArrayGetInfo(cudaChannelFormatDesc *desc, cudaExtent *extent, unsigned int *flags,
                             cudaArray_t array) {
  hipChannelFormatDesc hip{};
  if (cudaError_t error = GPUSYM_AS_CUDA(hipArrayGetInfo(desc ? &hip : nullptr, extent, flags, array)))
    return error;
  if (desc) *desc = to_cuda(hip);
  return cudaSuccess;
}

cudaError_t cudaGetChannelDesc(cudaChannelFormatDesc *desc, cudaArray_const_t array) {
  if (!desc) return fail(__func__, cudaErrorInvalidValue);
  hipChannelFormatDesc hip{};
  if (cudaError_t error = GPUSYM_AS_CUDA(hipGetChannelDesc(&hip, array))) return error;
  *desc = to_cuda(hip);
  return cudaSuccess;
}

cudaError_t cudaMallocMipmappedArray(cudaMipmappedArray_t *, const cudaChannelFormatDesc *, cudaExtent,
                                     unsigned int, unsigned int) {
  return fail(__func__, cudaErrorNotSupported);
}
cudaError_t cudaFreeMipmappedArray(cudaMipmappedArray_t) { return fail(__func__, cudaErrorNotSupported); }
cudaError_t cudaGetMipmappedArrayLevel(cudaArray_t *, cudaMipmappedArray_const_t, unsigned int) {
  return fail(__func__, cudaErrorNotSupported);
}

cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t count,
                              cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpyToArray(dst, wOffset, hOffset, src, count, to_hip(kind)));
}
cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_const_t src, size_t wOffset, size_t hOffset, size_t count,
                                cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpyFromArray(dst, src, wOffset, hOffset, count, to_hip(kind)));
}
cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src, size_t spitch,
                                size_t width, size_t height, cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, to_hip(kind)));
}
cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset, const void *src,
                                     size_t spitch, size_t width, size_t height, cudaMemcpyKind kind,
                                     cudaStream_t stream) {
  return GPUSYM_AS_CUDA(
      hipMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, to_hip(kind), stream));
}
cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset, size_t hOffset,
                                  size_t width, size_t height, cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, to_hip(kind)));
}
cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_const_t src, size_t wOffset,
                                       size_t hOffset, size_t width, size_t height, cudaMemcpyKind kind,
                                       cudaStream_t stream) {
  return GPUSYM_AS_CUDA(
      hipMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, to_hip(kind), stream));
}
cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst, size_t hOffsetDst, cudaArray_const_t src,
                                     size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                     cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width,
                                                height, to_hip(kind)));
}

// ---- texture objects ----

cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject, const cudaResourceDesc *pResDesc,
                                    const cudaTextureDesc *pTexDesc, const cudaResourceViewDesc *pResViewDesc) {
  if (!pResDesc || !pTexDesc) return fail(__func__, cudaErrorInvalidValue);
  if (pResDesc->resType == cudaResourceTypeMipmappedArray) return fail(__func__, cudaErrorNotSupported);
  hipResourceDesc resource = to_hip(*pResDesc);
  if (resource.resType == hipResourceTypeLinear && resource.res.linear.devPtr &&
      !is_device_range(resource.res.linear.devPtr, resource.res.linear.sizeInBytes)) {
    // CUDA does not hold a linear texture's size to its memory's (NVIDIA's
    // convolutionFFT2D describes a row more than it allocated), as HIP
    // does: the texture ends where the memory does, and a fetch past it
    // reads 0, as past any texture's end.
    size_t fits = 0;
    for (size_t step = size_t{1} << 62; step; step >>= 1)
      if (fits + step < resource.res.linear.sizeInBytes && is_device_range(resource.res.linear.devPtr, fits + step))
        fits += step;
    resource.res.linear.sizeInBytes = fits;
  }
  hipTextureDesc texture = to_hip(*pTexDesc);
  hipResourceViewDesc view{};
  if (pResViewDesc) view = to_hip(*pResViewDesc);
  return GPUSYM_AS_CUDA(hipCreateTextureObject(pTexObject, &resource, &texture, pResViewDesc ? &view : nullptr));
}

cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject) {
  return GPUSYM_AS_CUDA(hipDestroyTextureObject(texObject));
}

cudaError_t cudaGetTextureObjectResourceDesc(cudaResourceDesc *pResDesc, cudaTextureObject_t texObject) {
  if (!pResDesc) return fail(__func__, cudaErrorInvalidValue);
  hipResourceDesc hip{};
  if (cudaError_t error = GPUSYM_AS_CUDA(hipGetTextureObjectResourceDesc(&hip, texObject))) return error;
  *pResDesc = to_cuda(hip);
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectTextureDesc(cudaTextureDesc *pTexDesc, cudaTextureObject_t texObject) {
  if (!pTexDesc) return fail(__func__, cudaErrorInvalidValue);
  hipTextureDesc hip{};
  if (cudaError_t error = GPUSYM_AS_CUDA(hipGetTextureObjectTextureDesc(&hip, texObject))) return error;
  *pTexDesc = to_cuda(hip);
  return cudaSuccess;
}

cudaError_t cudaGetTextureObjectResourceViewDesc(cudaResourceViewDesc *pResViewDesc, cudaTextureObject_t texObject) {
  if (!pResViewDesc) return fail(__func__, cudaErrorInvalidValue);
  hipResourceViewDesc hip{};
  if (cudaError_t error = GPUSYM_AS_CUDA(hipGetTextureObjectResourceViewDesc(&hip, texObject))) return error;
  *pResViewDesc = to_cuda(hip);
  return cudaSuccess;
}

// ---- surface objects ----

cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject, const cudaResourceDesc *pResDesc) {
  if (!pResDesc) return fail(__func__, cudaErrorInvalidValue);
  hipResourceDesc resource = to_hip(*pResDesc);
  return GPUSYM_AS_CUDA(hipCreateSurfaceObject(pSurfObject, &resource));
}

cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject) {
  return GPUSYM_AS_CUDA(hipDestroySurfaceObject(surfObject));
}

// The runtime keeps no surface's resource description.
cudaError_t cudaGetSurfaceObjectResourceDesc(cudaResourceDesc *pResDesc, cudaSurfaceObject_t surfObject) {
  if (!pResDesc || !surfObject) return fail(__func__, cudaErrorInvalidValue);
  return fail(__func__, cudaErrorNotSupported);
}

}  // extern "C"
