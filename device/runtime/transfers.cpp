// Copies and memsets of every shape: the driver-style 1D copies, typed
// memsets (8, 16 and 32 bits), pitched allocations, and 2D and 3D copies and
// memsets.  Each is one Transfer (internal.h), run at once after the work
// the synchronous calls wait for, or queued on a stream.
#include "internal.h"

using namespace gpusym;

namespace {

constexpr size_t kPitchAlignment = 256;  // of hipMallocPitch and hipMalloc3D rows

// Runs `t` as a synchronous call does, or queues it on `stream`.
hipError_t submit(const Transfer &t, bool async, hipStream_t stream) {
  if (async) return queue_transfer(t, stream);
  synchronize();
  run_transfer(t);
  return hipSuccess;
}

hipError_t copy(void *dst, const void *src, size_t size, hipMemcpyKind kind, bool async, hipStream_t stream) {
  if (size == 0) return hipSuccess;
  if (hipError_t error = check_copy(dst, size, src, size, kind)) return error;
  Transfer t;
  t.dst = dst;
  t.src = src;
  t.width = size;
  return submit(t, async, stream);
}

// A memset of `t`'s shape (src null), of device memory only.
hipError_t set_shaped(const Transfer &t, bool async, hipStream_t stream) {
  if (t.width == 0 || t.height == 0 || t.depth == 0) return hipSuccess;
  if (!t.dst) return hipErrorInvalidValue;
  if (t.width > t.dst_pitch) return hipErrorInvalidPitchValue;
  if (!is_device_range(t.dst, t.dst_span())) return hipErrorInvalidValue;
  return submit(t, async, stream);
}

hipError_t set_elements(void *dst, uint32_t value, uint8_t element, size_t count, bool async, hipStream_t stream) {
  if (count > SIZE_MAX / element) return hipErrorInvalidValue;
  Transfer t;
  t.dst = dst;
  t.width = t.dst_pitch = count * element;
  t.value = value;
  t.element = element;
  return set_shaped(t, async, stream);
}

Transfer rows(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height) {
  Transfer t;
  t.dst = dst;
  t.src = src;
  t.dst_pitch = dpitch;
  t.src_pitch = spitch;
  t.width = width;
  t.height = height;
  return t;
}

char *at(const hipPitchedPtr &p, const hipPos &pos) {
  return static_cast<char *>(p.ptr) + pos.z * p.pitch * p.ysize + pos.y * p.pitch + pos.x;
}

// One side of a 3D copy that is an array: its memory as a pitched pointer,
// and its position in bytes; false when the handle is no live array, or the
// extent (in elements) does not fit in it at the position.
bool array_side(hipArray_const_t handle, hipPos &pos, const hipExtent &extent, hipPitchedPtr &memory,
                size_t &element) {
  const hipArray *a = find_array(handle);
  if (!a || pos.x + extent.width > a->width || pos.y + extent.height > a->height || pos.z + extent.depth > a->depth)
    return false;
  if (element && element != a->element) return false;  // two arrays of different formats
  element = a->element;
  memory = hipPitchedPtr{a->data, a->pitch(), a->pitch(), a->height};
  pos.x *= a->element;
  return true;
}

// Copies between pitched memory and arrays: where an array takes part, the
// extent and its position count elements, not bytes, as in HIP.
hipError_t copy_3d(const hipMemcpy3DParms *p, bool async, hipStream_t stream) {
  if (!p) return hipErrorInvalidValue;
  hipPitchedPtr src = p->srcPtr, dst = p->dstPtr;
  hipPos src_pos = p->srcPos, dst_pos = p->dstPos;
  size_t element = 0;
  if (p->srcArray && !array_side(p->srcArray, src_pos, p->extent, src, element)) return hipErrorInvalidValue;
  if (p->dstArray && !array_side(p->dstArray, dst_pos, p->extent, dst, element)) return hipErrorInvalidValue;
  size_t width = p->extent.width;
  if (element && width > SIZE_MAX / element) return hipErrorInvalidValue;
  if (element) width *= element;
  if (!dst.ptr || !src.ptr) return hipErrorInvalidValue;
  Transfer t = rows(at(dst, dst_pos), dst.pitch, at(src, src_pos), src.pitch, width, p->extent.height);
  t.depth = p->extent.depth;
  t.dst_slice = dst.pitch * dst.ysize;
  t.src_slice = src.pitch * src.ysize;
  return copy_shaped(t, p->kind, async, stream);
}

hipError_t set_3d(hipPitchedPtr p, int value, hipExtent extent, bool async, hipStream_t stream) {
  Transfer t;
  t.dst = p.ptr;
  t.dst_pitch = p.pitch;
  t.dst_slice = p.pitch * p.ysize;
  t.width = extent.width;
  t.height = extent.height;
  t.depth = extent.depth;
  t.value = static_cast<uint8_t>(value);
  if (t.depth > 1 && p.ysize < t.height) return hipErrorInvalidValue;
  return set_shaped(t, async, stream);
}

// Rows of `width` bytes, each starting 256-aligned.
hipError_t malloc_pitch(void **ptr, size_t *pitch, size_t width, size_t rows) {
  if (!ptr || !pitch) return hipErrorInvalidValue;
  if (width > SIZE_MAX - kPitchAlignment) return hipErrorOutOfMemory;
  size_t row = (width + kPitchAlignment - 1) / kPitchAlignment * kPitchAlignment;
  if (rows && row > SIZE_MAX / rows) return hipErrorOutOfMemory;
  *pitch = row;
  return allocate(ptr, row * rows, false);
}

}  // namespace

hipError_t gpusym::copy_shaped(const Transfer &t, hipMemcpyKind kind, bool async, hipStream_t stream) {
  if (t.width == 0 || t.height == 0 || t.depth == 0) return hipSuccess;
  if (t.width > t.dst_pitch || t.width > t.src_pitch) return hipErrorInvalidPitchValue;
  if (t.depth > 1 && (t.dst_slice < t.height * t.dst_pitch || t.src_slice < t.height * t.src_pitch))
    return hipErrorInvalidValue;  // slices overlapping each other
  if (hipError_t error = check_copy(t.dst, t.dst_span(), t.src, t.src_span(), kind)) return error;
  return submit(t, async, stream);
}

extern "C" {

hipError_t hipMemcpyHtoD(hipDeviceptr_t dst, void *src, size_t size) {
  return record(copy(dst, src, size, hipMemcpyHostToDevice, false, nullptr));
}
hipError_t hipMemcpyDtoH(void *dst, hipDeviceptr_t src, size_t size) {
  return record(copy(dst, src, size, hipMemcpyDeviceToHost, false, nullptr));
}
hipError_t hipMemcpyDtoD(hipDeviceptr_t dst, hipDeviceptr_t src, size_t size) {
  return record(copy(dst, src, size, hipMemcpyDeviceToDevice, false, nullptr));
}
hipError_t hipMemcpyHtoDAsync(hipDeviceptr_t dst, void *src, size_t size, hipStream_t stream) {
  return record(copy(dst, src, size, hipMemcpyHostToDevice, true, stream));
}
hipError_t hipMemcpyDtoHAsync(void *dst, hipDeviceptr_t src, size_t size, hipStream_t stream) {
  return record(copy(dst, src, size, hipMemcpyDeviceToHost, true, stream));
}
hipError_t hipMemcpyDtoDAsync(hipDeviceptr_t dst, hipDeviceptr_t src, size_t size, hipStream_t stream) {
  return record(copy(dst, src, size, hipMemcpyDeviceToDevice, true, stream));
}

// In the stream's order, and returns when the copy is done.
hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t size, hipMemcpyKind kind, hipStream_t stream) {
  if (hipError_t error = copy(dst, src, size, kind, true, stream)) return record(error);
  return record(synchronize_stream(stream));
}

hipError_t hipMemsetD8(hipDeviceptr_t dst, unsigned char value, size_t count) {
  return record(set_elements(dst, value, 1, count, false, nullptr));
}
hipError_t hipMemsetD16(hipDeviceptr_t dst, unsigned short value, size_t count) {
  return record(set_elements(dst, value, 2, count, false, nullptr));
}
hipError_t hipMemsetD32(hipDeviceptr_t dst, int value, size_t count) {
  return record(set_elements(dst, static_cast<uint32_t>(value), 4, count, false, nullptr));
}
hipError_t hipMemsetD8Async(hipDeviceptr_t dst, unsigned char value, size_t count, hipStream_t stream) {
  return record(set_elements(dst, value, 1, count, true, stream));
}
hipError_t hipMemsetD16Async(hipDeviceptr_t dst, unsigned short value, size_t count, hipStream_t stream) {
  return record(set_elements(dst, value, 2, count, true, stream));
}
hipError_t hipMemsetD32Async(hipDeviceptr_t dst, int value, size_t count, hipStream_t stream) {
  return record(set_elements(dst, static_cast<uint32_t>(value), 4, count, true, stream));
}

hipError_t hipMallocPitch(void **ptr, size_t *pitch, size_t width, size_t height) {
  return record(malloc_pitch(ptr, pitch, width, height));
}

hipError_t hipMemAllocPitch(hipDeviceptr_t *ptr, size_t *pitch, size_t width, size_t height, unsigned int) {
  return record(malloc_pitch(ptr, pitch, width, height));
}

hipError_t hipMalloc3D(hipPitchedPtr *p, hipExtent extent) {
  if (!p) return record(hipErrorInvalidValue);
  size_t pitch = 0;
  if (extent.depth && extent.height > SIZE_MAX / extent.depth) return record(hipErrorOutOfMemory);
  if (hipError_t error = malloc_pitch(&p->ptr, &pitch, extent.width, extent.height * extent.depth))
    return record(error);
  *p = hipPitchedPtr{p->ptr, pitch, extent.width, extent.height};
  return hipSuccess;
}

hipError_t hipMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                       hipMemcpyKind kind) {
  return record(copy_shaped(rows(dst, dpitch, src, spitch, width, height), kind, false, nullptr));
}

hipError_t hipMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width, size_t height,
                            hipMemcpyKind kind, hipStream_t stream) {
  return record(copy_shaped(rows(dst, dpitch, src, spitch, width, height), kind, true, stream));
}

hipError_t hipMemcpy3D(const hipMemcpy3DParms *p) { return record(copy_3d(p, false, nullptr)); }

hipError_t hipMemcpy3DAsync(const hipMemcpy3DParms *p, hipStream_t stream) {
  return record(copy_3d(p, true, stream));
}

hipError_t hipMemset2D(void *dst, size_t pitch, int value, size_t width, size_t height) {
  return record(set_3d(hipPitchedPtr{dst, pitch, width, height}, value, hipExtent{width, height, 1}, false, nullptr));
}

hipError_t hipMemset2DAsync(void *dst, size_t pitch, int value, size_t width, size_t height, hipStream_t stream) {
  return record(set_3d(hipPitchedPtr{dst, pitch, width, height}, value, hipExtent{width, height, 1}, true, stream));
}

hipError_t hipMemset3D(hipPitchedPtr p, int value, hipExtent extent) {
  return record(set_3d(p, value, extent, false, nullptr));
}

hipError_t hipMemset3DAsync(hipPitchedPtr p, int value, hipExtent extent, hipStream_t stream) {
  return record(set_3d(p, value, extent, true, stream));
}

}  // extern "C"
