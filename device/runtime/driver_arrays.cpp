// The driver-style arrays, copies by descriptor and texture objects, over
// the runtime-style ones (arrays.cpp, transfers.cpp, textures.cpp): a
// descriptor's format and channel count are a channel format, and an array's
// elements are dense rows of one device allocation, so that a copy by
// descriptor, arrays included, is a hipMemcpy3D between linear memory, by
// bytes.
#include <algorithm>

#include "internal.h"

using namespace gpusym;

namespace {

struct Format {
  hipArray_Format format;
  int bits;
  hipChannelFormatKind kind;
};
constexpr Format kFormats[] = {
    {HIP_AD_FORMAT_UNSIGNED_INT8, 8, hipChannelFormatKindUnsigned},
    {HIP_AD_FORMAT_UNSIGNED_INT16, 16, hipChannelFormatKindUnsigned},
    {HIP_AD_FORMAT_UNSIGNED_INT32, 32, hipChannelFormatKindUnsigned},
    {HIP_AD_FORMAT_SIGNED_INT8, 8, hipChannelFormatKindSigned},
    {HIP_AD_FORMAT_SIGNED_INT16, 16, hipChannelFormatKindSigned},
    {HIP_AD_FORMAT_SIGNED_INT32, 32, hipChannelFormatKindSigned},
    {HIP_AD_FORMAT_HALF, 16, hipChannelFormatKindFloat},
    {HIP_AD_FORMAT_FLOAT, 32, hipChannelFormatKindFloat},
};

// The channel format of `channels` (1, 2 or 4) channels of `format`.
hipError_t channel_desc(hipArray_Format format, unsigned channels, hipChannelFormatDesc &desc) {
  if (channels != 1 && channels != 2 && channels != 4) return hipErrorInvalidValue;
  for (const Format &f : kFormats) {
    if (f.format != format) continue;
    desc = hipCreateChannelDesc(f.bits, channels > 1 ? f.bits : 0, channels > 2 ? f.bits : 0,
                                channels > 2 ? f.bits : 0, f.kind);
    return hipSuccess;
  }
  return hipErrorInvalidValue;
}

// The format and channel count of an array's channel format.
hipError_t array_format(const hipChannelFormatDesc &desc, hipArray_Format &format, unsigned &channels) {
  channels = (desc.x > 0) + (desc.y > 0) + (desc.z > 0) + (desc.w > 0);
  for (const Format &f : kFormats) {
    if (f.bits != desc.x || f.kind != desc.f) continue;
    format = f.format;
    return hipSuccess;
  }
  return hipErrorInvalidValue;
}

hipError_t array_info(hipArray_t array, hipArray_Format &format, unsigned &channels, hipExtent &extent,
                      unsigned &flags) {
  hipChannelFormatDesc desc{};
  if (hipError_t error = hipArrayGetInfo(&desc, &extent, &flags, array)) return error;
  return array_format(desc, format, channels);
}

// One side of a copy by descriptor as linear memory: host or device memory
// as given, or the allocation holding an array's elements.
hipError_t side(hipMemoryType type, const void *host, hipDeviceptr_t device, hipArray_const_t array, size_t pitch,
                size_t height, hipPitchedPtr &out) {
  switch (type) {
    case hipMemoryTypeHost: out = make_hipPitchedPtr(const_cast<void *>(host), pitch, pitch, height); return hipSuccess;
    case hipMemoryTypeDevice:
    case hipMemoryTypeUnified: out = make_hipPitchedPtr(device, pitch, pitch, height); return hipSuccess;
    case hipMemoryTypeArray: {
      const hipArray *a = find_array(array);
      if (!a) return hipErrorInvalidValue;
      out = make_hipPitchedPtr(a->data, a->pitch(), a->pitch(), a->height);
      return hipSuccess;
    }
    default: return hipErrorInvalidValue;
  }
}

// A 3D copy by descriptor, as hipMemcpy3D(Async) parameters.  A side's
// height (rows to a slice) matters only to copies of several slices.
hipError_t linear_copy(const HIP_MEMCPY3D &c, hipMemcpy3DParms &p) {
  p = {};
  size_t src_height = std::max(c.srcHeight, c.srcY + c.Height), dst_height = std::max(c.dstHeight, c.dstY + c.Height);
  if (hipError_t error = side(c.srcMemoryType, c.srcHost, c.srcDevice, c.srcArray, c.srcPitch, src_height, p.srcPtr))
    return error;
  if (hipError_t error = side(c.dstMemoryType, c.dstHost, c.dstDevice, c.dstArray, c.dstPitch, dst_height, p.dstPtr))
    return error;
  p.srcPos = make_hipPos(c.srcXInBytes, c.srcY, c.srcZ);
  p.dstPos = make_hipPos(c.dstXInBytes, c.dstY, c.dstZ);
  p.extent = make_hipExtent(c.WidthInBytes, c.Height, c.Depth);
  p.kind = hipMemcpyDefault;
  return hipSuccess;
}

// A 2D copy by descriptor as a 3D one of one slice.
HIP_MEMCPY3D as_3d(const hip_Memcpy2D &c) {
  HIP_MEMCPY3D copy{};
  copy.srcXInBytes = c.srcXInBytes;
  copy.srcY = c.srcY;
  copy.srcMemoryType = c.srcMemoryType;
  copy.srcHost = c.srcHost;
  copy.srcDevice = c.srcDevice;
  copy.srcArray = c.srcArray;
  copy.srcPitch = c.srcPitch;
  copy.dstXInBytes = c.dstXInBytes;
  copy.dstY = c.dstY;
  copy.dstMemoryType = c.dstMemoryType;
  copy.dstHost = c.dstHost;
  copy.dstDevice = c.dstDevice;
  copy.dstArray = c.dstArray;
  copy.dstPitch = c.dstPitch;
  copy.WidthInBytes = c.WidthInBytes;
  copy.Height = c.Height;
  copy.Depth = 1;
  return copy;
}

hipError_t copy_3d(const HIP_MEMCPY3D *copy, bool async, hipStream_t stream) {
  if (!copy) return record(hipErrorInvalidValue);
  hipMemcpy3DParms p;
  if (hipError_t error = linear_copy(*copy, p)) return record(error);
  return async ? hipMemcpy3DAsync(&p, stream) : hipMemcpy3D(&p);
}

hipError_t copy_2d(const hip_Memcpy2D *copy, bool async, hipStream_t stream) {
  if (!copy) return record(hipErrorInvalidValue);
  HIP_MEMCPY3D whole = as_3d(*copy);
  return copy_3d(&whole, async, stream);
}

// A texture object's resource and sampling, from the driver's descriptors.
hipError_t resource_desc(const HIP_RESOURCE_DESC &d, hipResourceDesc &r) {
  r = {};
  switch (d.resType) {
    case HIP_RESOURCE_TYPE_ARRAY:
      r.resType = hipResourceTypeArray;
      r.res.array.array = d.res.array.hArray;
      return hipSuccess;
    case HIP_RESOURCE_TYPE_LINEAR:
      r.resType = hipResourceTypeLinear;
      r.res.linear.devPtr = d.res.linear.devPtr;
      r.res.linear.sizeInBytes = d.res.linear.sizeInBytes;
      return channel_desc(d.res.linear.format, d.res.linear.numChannels, r.res.linear.desc);
    case HIP_RESOURCE_TYPE_PITCH2D:
      r.resType = hipResourceTypePitch2D;
      r.res.pitch2D.devPtr = d.res.pitch2D.devPtr;
      r.res.pitch2D.width = d.res.pitch2D.width;
      r.res.pitch2D.height = d.res.pitch2D.height;
      r.res.pitch2D.pitchInBytes = d.res.pitch2D.pitchInBytes;
      return channel_desc(d.res.pitch2D.format, d.res.pitch2D.numChannels, r.res.pitch2D.desc);
    default: return hipErrorNotSupported;  // mipmapped arrays
  }
}

hipTextureDesc texture_desc(const HIP_TEXTURE_DESC &d) {
  hipTextureDesc t{};
  for (int i = 0; i < 3; i++) t.addressMode[i] = static_cast<hipTextureAddressMode>(d.addressMode[i]);
  t.filterMode = static_cast<hipTextureFilterMode>(d.filterMode);
  t.readMode = d.flags & HIP_TRSF_READ_AS_INTEGER ? hipReadModeElementType : hipReadModeNormalizedFloat;
  t.sRGB = (d.flags & HIP_TRSF_SRGB) != 0;
  t.normalizedCoords = (d.flags & HIP_TRSF_NORMALIZED_COORDINATES) != 0;
  t.maxAnisotropy = d.maxAnisotropy;
  t.mipmapFilterMode = static_cast<hipTextureFilterMode>(d.mipmapFilterMode);
  t.mipmapLevelBias = d.mipmapLevelBias;
  t.minMipmapLevelClamp = d.minMipmapLevelClamp;
  t.maxMipmapLevelClamp = d.maxMipmapLevelClamp;
  for (int i = 0; i < 4; i++) t.borderColor[i] = d.borderColor[i];
  return t;
}

}  // namespace

extern "C" {

hipError_t hipArrayCreate(hipArray_t *pHandle, const HIP_ARRAY_DESCRIPTOR *pAllocateArray) {
  hipChannelFormatDesc desc{};
  if (!pAllocateArray) return record(hipErrorInvalidValue);
  if (hipError_t error = channel_desc(pAllocateArray->Format, pAllocateArray->NumChannels, desc)) return record(error);
  return hipMallocArray(pHandle, &desc, pAllocateArray->Width, pAllocateArray->Height, 0);
}

hipError_t hipArray3DCreate(hipArray_t *array, const HIP_ARRAY3D_DESCRIPTOR *pAllocateArray) {
  hipChannelFormatDesc desc{};
  if (!pAllocateArray) return record(hipErrorInvalidValue);
  if (hipError_t error = channel_desc(pAllocateArray->Format, pAllocateArray->NumChannels, desc)) return record(error);
  hipExtent extent = make_hipExtent(pAllocateArray->Width, pAllocateArray->Height, pAllocateArray->Depth);
  return hipMalloc3DArray(array, &desc, extent, pAllocateArray->Flags);
}

hipError_t hipArrayDestroy(hipArray_t array) { return hipFreeArray(array); }

hipError_t hipArrayGetDescriptor(HIP_ARRAY_DESCRIPTOR *pArrayDescriptor, hipArray_t array) {
  if (!pArrayDescriptor) return record(hipErrorInvalidValue);
  hipExtent extent{};
  unsigned flags = 0;
  HIP_ARRAY_DESCRIPTOR &d = *pArrayDescriptor;
  if (hipError_t error = array_info(array, d.Format, d.NumChannels, extent, flags)) return record(error);
  d.Width = extent.width;
  d.Height = extent.height;
  return hipSuccess;
}

hipError_t hipArray3DGetDescriptor(HIP_ARRAY3D_DESCRIPTOR *pArrayDescriptor, hipArray_t array) {
  if (!pArrayDescriptor) return record(hipErrorInvalidValue);
  hipExtent extent{};
  HIP_ARRAY3D_DESCRIPTOR &d = *pArrayDescriptor;
  if (hipError_t error = array_info(array, d.Format, d.NumChannels, extent, d.Flags)) return record(error);
  d.Width = extent.width;
  d.Height = extent.height;
  d.Depth = extent.depth;
  return hipSuccess;
}

hipError_t hipMemcpyParam2D(const hip_Memcpy2D *pCopy) { return copy_2d(pCopy, false, nullptr); }
hipError_t hipMemcpyParam2DAsync(const hip_Memcpy2D *pCopy, hipStream_t stream) { return copy_2d(pCopy, true, stream); }
hipError_t hipDrvMemcpy2DUnaligned(const hip_Memcpy2D *pCopy) { return copy_2d(pCopy, false, nullptr); }
hipError_t hipDrvMemcpy3D(const HIP_MEMCPY3D *pCopy) { return copy_3d(pCopy, false, nullptr); }
hipError_t hipDrvMemcpy3DAsync(const HIP_MEMCPY3D *pCopy, hipStream_t stream) { return copy_3d(pCopy, true, stream); }

// Offsets and width in bytes, as the driver's copies between arrays.
hipError_t hipMemcpy2DArrayToArray(hipArray_t dst, size_t wOffsetDst, size_t hOffsetDst, hipArray_const_t src,
                                   size_t wOffsetSrc, size_t hOffsetSrc, size_t width, size_t height,
                                   hipMemcpyKind kind) {
  if (kind != hipMemcpyDeviceToDevice && kind != hipMemcpyDefault) return record(hipErrorInvalidMemcpyDirection);
  HIP_MEMCPY3D copy{};
  copy.srcMemoryType = copy.dstMemoryType = hipMemoryTypeArray;
  copy.srcArray = const_cast<hipArray_t>(src);
  copy.dstArray = dst;
  copy.srcXInBytes = wOffsetSrc;
  copy.srcY = hOffsetSrc;
  copy.dstXInBytes = wOffsetDst;
  copy.dstY = hOffsetDst;
  copy.WidthInBytes = width;
  copy.Height = height;
  copy.Depth = 1;
  return copy_3d(&copy, false, nullptr);
}

// Resource views (pResViewDesc) are not supported, as by hipCreateTextureObject.
hipError_t hipTexObjectCreate(hipTextureObject_t *pTexObject, const HIP_RESOURCE_DESC *pResDesc,
                              const HIP_TEXTURE_DESC *pTexDesc, const HIP_RESOURCE_VIEW_DESC *pResViewDesc) {
  if (!pTexObject || !pResDesc || !pTexDesc) return record(hipErrorInvalidValue);
  if (pResViewDesc) return record(hipErrorNotSupported);
  hipResourceDesc resource;
  if (hipError_t error = resource_desc(*pResDesc, resource)) return record(error);
  hipTextureDesc texture = texture_desc(*pTexDesc);
  return hipCreateTextureObject(pTexObject, &resource, &texture, nullptr);
}

hipError_t hipTexObjectDestroy(hipTextureObject_t texObject) { return hipDestroyTextureObject(texObject); }

}  // extern "C"
