// Arrays: the memory of textures and surfaces.  An array is a device
// allocation of dense rows (no padding: its pitch is its width in bytes)
// with its channel format and extent, so that the copies to and from it are
// the ordinary shaped copies, checked and ordered as every other.
#include <memory>

#include "internal.h"

using namespace gpusym;

namespace {

std::mutex &arrays_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::unordered_map<const hipArray *, std::unique_ptr<hipArray>> &arrays() {
  static std::unordered_map<const hipArray *, std::unique_ptr<hipArray>> live;
  return live;
}

// A new array of the extent HIP's calls give: 0 in the dimensions it lacks;
// a layered one keeps its layers in `depth`.
hipError_t make_array(hipArray_t *out, const hipChannelFormatDesc *desc, hipExtent extent, unsigned int flags) {
  if (!out || !desc || extent.width == 0) return hipErrorInvalidValue;
  if (flags & ~(hipArrayLayered | hipArraySurfaceLoadStore | hipArrayCubemap | hipArrayTextureGather))
    return hipErrorInvalidValue;
  if ((flags & hipArrayLayered) && extent.depth == 0) return hipErrorInvalidValue;
  // A cubemap's six square faces are its layers (six a layer of a layered one).
  if ((flags & hipArrayCubemap) && (extent.width != extent.height || extent.depth == 0 || extent.depth % 6 ||
                                    (!(flags & hipArrayLayered) && extent.depth != 6)))
    return hipErrorInvalidValue;
  unsigned channels = 0, channel_bytes = 0;
  if (!texel_format(*desc, channels, channel_bytes)) return hipErrorInvalidChannelDescriptor;
  // The fetches index texels with an int.
  const size_t limit = 1u << 30;
  if (extent.width > limit || extent.height > limit || extent.depth > limit) return hipErrorInvalidValue;
  auto array = std::make_unique<hipArray>();
  array->desc = *desc;
  array->extent = extent;
  array->flags = flags;
  array->element = channels * channel_bytes;
  array->width = extent.width;
  array->height = extent.height ? extent.height : 1;
  array->depth = extent.depth ? extent.depth : 1;
  size_t slice = array->pitch() * array->height;
  if (slice / array->height != array->pitch() || slice > SIZE_MAX / array->depth) return hipErrorOutOfMemory;
  void *data = nullptr;
  if (hipError_t error = allocate(&data, slice * array->depth, false)) return error;
  array->data = static_cast<unsigned char *>(data);
  std::lock_guard<std::mutex> lock(arrays_mutex());
  *out = array.get();
  arrays().emplace(array.get(), std::move(array));
  return hipSuccess;
}

// The rows of `height` x `width` bytes at byte (w_offset, h_offset) of an array.
hipError_t array_rows(hipArray_const_t handle, size_t w_offset, size_t h_offset, size_t width, size_t height,
                      unsigned char **at, size_t *pitch) {
  const hipArray *a = find_array(handle);
  if (!a) return hipErrorInvalidValue;
  if (w_offset > a->pitch() || width > a->pitch() - w_offset) return hipErrorInvalidValue;
  size_t rows = a->height * a->depth;
  if (h_offset > rows || height > rows - h_offset) return hipErrorInvalidValue;
  *at = a->data + h_offset * a->pitch() + w_offset;
  *pitch = a->pitch();
  return hipSuccess;
}

// A 2D copy between an array's rows and `memory` with rows `pitch` bytes
// apart; `to_array` says which way.
hipError_t copy_rows(hipArray_const_t array, size_t w_offset, size_t h_offset, const void *memory, size_t pitch,
                     size_t width, size_t height, hipMemcpyKind kind, bool to_array, bool async, hipStream_t stream) {
  unsigned char *at = nullptr;
  size_t array_pitch = 0;
  if (hipError_t error = array_rows(array, w_offset, h_offset, width, height, &at, &array_pitch)) return error;
  if (!memory && width && height) return hipErrorInvalidValue;
  Transfer t;
  t.dst = to_array ? at : const_cast<void *>(memory);
  t.dst_pitch = to_array ? array_pitch : pitch;
  t.src = to_array ? memory : at;
  t.src_pitch = to_array ? pitch : array_pitch;
  t.width = width;
  t.height = height;
  return copy_shaped(t, kind, async, stream);
}

// hipMemcpyToArray and hipMemcpyFromArray: `count` bytes from byte
// (w_offset, h_offset) on, across rows, which follow each other unpadded;
// `to_array` says which way.
hipError_t copy_linear(void *memory, hipArray_const_t handle, size_t w_offset, size_t h_offset, size_t count,
                       hipMemcpyKind kind, bool to_array) {
  const hipArray *a = find_array(handle);
  if (!a || !memory) return hipErrorInvalidValue;
  size_t size = a->pitch() * a->height * a->depth;
  if (w_offset >= a->pitch() || h_offset >= a->height * a->depth) return hipErrorInvalidValue;
  size_t offset = h_offset * a->pitch() + w_offset;
  if (count > size - offset) return hipErrorInvalidValue;
  Transfer t;
  t.dst = to_array ? a->data + offset : memory;
  t.src = to_array ? memory : a->data + offset;
  t.width = t.dst_pitch = t.src_pitch = count;
  return copy_shaped(t, kind, false, nullptr);
}

}  // namespace

bool gpusym::texel_format(const hipChannelFormatDesc &desc, unsigned &channels, unsigned &channel_bytes) {
  const int bits = desc.x;
  if (bits != 8 && bits != 16 && bits != 32) return false;
  if (desc.f == hipChannelFormatKindFloat ? bits == 8
                                          : desc.f != hipChannelFormatKindSigned && desc.f != hipChannelFormatKindUnsigned)
    return false;
  const int rest[3] = {desc.y, desc.z, desc.w};
  channels = 1;
  for (int c = 0; c < 3; ++c) {
    if (rest[c] != 0 && (rest[c] != bits || channels != static_cast<unsigned>(c) + 1)) return false;
    if (rest[c] != 0) ++channels;
  }
  channel_bytes = static_cast<unsigned>(bits) / 8;
  return channels != 3;
}

hipArray *gpusym::find_array(hipArray_const_t handle) {
  std::lock_guard<std::mutex> lock(arrays_mutex());
  auto found = arrays().find(handle);
  return found == arrays().end() ? nullptr : found->second.get();
}

extern "C" {

hipChannelFormatDesc hipCreateChannelDesc(int x, int y, int z, int w, hipChannelFormatKind f) {
  return hipChannelFormatDesc{x, y, z, w, f};
}

hipError_t hipMallocArray(hipArray_t *array, const hipChannelFormatDesc *desc, size_t width, size_t height,
                          unsigned int flags) {
  return record(make_array(array, desc, hipExtent{width, height, 0}, flags));
}

hipError_t hipMalloc3DArray(hipArray_t *array, const hipChannelFormatDesc *desc, hipExtent extent,
                            unsigned int flags) {
  return record(make_array(array, desc, extent, flags));
}

// Waits for the work that may use it, as hipFree does.
hipError_t hipFreeArray(hipArray_t array) {
  std::unique_ptr<hipArray> freed;
  {
    std::lock_guard<std::mutex> lock(arrays_mutex());
    auto found = arrays().find(array);
    if (found == arrays().end()) return record(hipErrorInvalidValue);
    freed = std::move(found->second);
    arrays().erase(found);
  }
  return record(hipFree(freed->data));
}

hipError_t hipArrayGetInfo(hipChannelFormatDesc *desc, hipExtent *extent, unsigned int *flags, hipArray_t array) {
  const hipArray *a = find_array(array);
  if (!a) return record(hipErrorInvalidHandle);
  if (desc) *desc = a->desc;
  if (extent) *extent = a->extent;
  if (flags) *flags = a->flags;
  return hipSuccess;
}

hipError_t hipGetChannelDesc(hipChannelFormatDesc *desc, hipArray_const_t array) {
  const hipArray *a = find_array(array);
  if (!desc) return record(hipErrorInvalidValue);
  if (!a) return record(hipErrorInvalidHandle);
  *desc = a->desc;
  return hipSuccess;
}

hipError_t hipMemcpyToArray(hipArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t count,
                            hipMemcpyKind kind) {
  return record(copy_linear(const_cast<void *>(src), dst, w_offset, h_offset, count, kind, true));
}

hipError_t hipMemcpyFromArray(void *dst, hipArray_const_t src, size_t w_offset, size_t h_offset, size_t count,
                              hipMemcpyKind kind) {
  return record(copy_linear(dst, src, w_offset, h_offset, count, kind, false));
}

hipError_t hipMemcpy2DToArray(hipArray_t dst, size_t w_offset, size_t h_offset, const void *src, size_t spitch,
                              size_t width, size_t height, hipMemcpyKind kind) {
  return record(copy_rows(dst, w_offset, h_offset, src, spitch, width, height, kind, true, false, nullptr));
}

hipError_t hipMemcpy2DToArrayAsync(hipArray_t dst, size_t w_offset, size_t h_offset, const void *src,
                                   size_t spitch, size_t width, size_t height, hipMemcpyKind kind,
                                   hipStream_t stream) {
  return record(copy_rows(dst, w_offset, h_offset, src, spitch, width, height, kind, true, true, stream));
}

hipError_t hipMemcpy2DFromArray(void *dst, size_t dpitch, hipArray_const_t src, size_t w_offset, size_t h_offset,
                                size_t width, size_t height, hipMemcpyKind kind) {
  return record(copy_rows(src, w_offset, h_offset, dst, dpitch, width, height, kind, false, false, nullptr));
}

hipError_t hipMemcpy2DFromArrayAsync(void *dst, size_t dpitch, hipArray_const_t src, size_t w_offset,
                                     size_t h_offset, size_t width, size_t height, hipMemcpyKind kind,
                                     hipStream_t stream) {
  return record(copy_rows(src, w_offset, h_offset, dst, dpitch, width, height, kind, false, true, stream));
}

}  // extern "C"
