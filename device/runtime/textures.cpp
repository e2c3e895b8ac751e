// Texture and surface objects.  Each handle points to a descriptor of its
// memory and sampling state (texture_types.h, surface_types.h), which the
// device's fetch functions read directly: kernels are threads of this
// process.  The runtime keeps the descriptors it made, to refuse a handle
// that names none.
#include <climits>
#include <memory>
#include <vector>

#include "internal.h"

using namespace gpusym;

namespace {

struct TextureObject {
  __hip_texture texture;
  hipResourceDesc resource;  // as given, for hipGetTextureObjectResourceDesc
};

std::mutex &objects_mutex() {
  static std::mutex mutex;
  return mutex;
}
std::unordered_map<const __hip_texture *, std::unique_ptr<TextureObject>> &textures() {
  static std::unordered_map<const __hip_texture *, std::unique_ptr<TextureObject>> live;
  return live;
}
std::unordered_map<const __hip_surface *, std::unique_ptr<__hip_surface>> &surfaces() {
  static std::unordered_map<const __hip_surface *, std::unique_ptr<__hip_surface>> live;
  return live;
}

// Destroyed objects, kept for the kernels launched before their
// destruction, which may not have run yet: programs destroy an object right
// after launching the kernel that reads it on a stream (NVIDIA's
// NV12toBGRandResize and convolutionFFT2D), as CUDA allows.
struct Retired {
  std::vector<std::unique_ptr<TextureObject>> textures;
  std::vector<std::unique_ptr<__hip_surface>> surfaces;
  size_t size() const { return textures.size() + surfaces.size(); }
};
Retired &retired() {
  static Retired objects;
  return objects;
}
// Retired objects are freed, once every device's work is done, when this
// many have gathered.
constexpr size_t kRetiredKept = 1024;

// Destroys the object `handle` of `live`: it is kept in `into` until the
// work queued before now is done.
template <typename Handle, typename T>
hipError_t destroy(std::unordered_map<const Handle *, std::unique_ptr<T>> &live, const Handle *handle,
                   std::vector<std::unique_ptr<T>> Retired::*into) {
  if (!handle) return hipSuccess;  // as in HIP
  std::unique_lock<std::mutex> lock(objects_mutex());
  auto found = live.find(handle);
  if (found == live.end()) return record(hipErrorInvalidValue);
  (retired().*into).push_back(std::move(found->second));
  live.erase(found);
  if (retired().size() < kRetiredKept) return hipSuccess;
  Retired done = std::move(retired());
  retired() = Retired();
  lock.unlock();
  synchronize_all();  // `done` is freed on return
  return hipSuccess;
}

// The memory a resource describes, as a texture sees it; `t.desc` is left alone.
hipError_t describe_memory(const hipResourceDesc &r, __hip_texture &t) {
  hipChannelFormatDesc format{};
  t.width = t.height = t.depth = 1;
  t.layered = 0;
  switch (r.resType) {
    case hipResourceTypeArray: {
      const hipArray *a = find_array(r.res.array.array);
      if (!a) return hipErrorInvalidValue;
      format = a->desc;
      t.data = a->data;
      t.pitch = a->pitch();
      t.slice = a->pitch() * a->height;
      t.width = static_cast<unsigned>(a->width);
      t.height = static_cast<unsigned>(a->height);
      t.depth = static_cast<unsigned>(a->depth);
      t.layered = (a->flags & (hipArrayLayered | hipArrayCubemap)) != 0;
      break;
    }
    case hipResourceTypeLinear:
      format = r.res.linear.desc;
      t.data = static_cast<const unsigned char *>(r.res.linear.devPtr);
      t.pitch = t.slice = r.res.linear.sizeInBytes;
      break;
    case hipResourceTypePitch2D:
      format = r.res.pitch2D.desc;
      t.data = static_cast<const unsigned char *>(r.res.pitch2D.devPtr);
      t.pitch = r.res.pitch2D.pitchInBytes;
      if (r.res.pitch2D.width == 0 || r.res.pitch2D.height == 0 || r.res.pitch2D.height > INT_MAX)
        return hipErrorInvalidValue;
      t.height = static_cast<unsigned>(r.res.pitch2D.height);
      t.slice = t.pitch * t.height;
      break;
    case hipResourceTypeMipmappedArray:
      return hipErrorNotSupported;
    default:
      return hipErrorInvalidValue;
  }
  if (!texel_format(format, t.channels, t.channel_bytes)) return hipErrorInvalidChannelDescriptor;
  t.kind = format.f;
  const size_t element = t.channels * t.channel_bytes;
  if (r.resType == hipResourceTypeArray) return hipSuccess;
  if (!t.data) return hipErrorInvalidValue;
  size_t width = r.resType == hipResourceTypeLinear ? t.pitch / element : r.res.pitch2D.width;
  if (width == 0 || width > INT_MAX) return hipErrorInvalidValue;
  if (r.resType == hipResourceTypePitch2D && width * element > t.pitch) return hipErrorInvalidPitchValue;
  t.width = static_cast<unsigned>(width);
  // The texels must lie in device memory (or memory the device reads).
  if (!is_device_range(t.data, (t.height - 1) * t.pitch + width * element)) return hipErrorInvalidValue;
  return hipSuccess;
}

hipError_t check_sampling(const hipTextureDesc &d, const __hip_texture &t) {
  for (hipTextureAddressMode mode : d.addressMode)
    if (mode < hipAddressModeWrap || mode > hipAddressModeBorder) return hipErrorInvalidValue;
  if (d.filterMode != hipFilterModePoint && d.filterMode != hipFilterModeLinear) return hipErrorInvalidValue;
  if (d.readMode != hipReadModeElementType && d.readMode != hipReadModeNormalizedFloat) return hipErrorInvalidValue;
  // Normalized floats are of 8- and 16-bit integer channels only.
  if (d.readMode == hipReadModeNormalizedFloat && t.kind != hipChannelFormatKindFloat && t.channel_bytes == 4)
    return hipErrorInvalidValue;
  return hipSuccess;
}

hipError_t create_texture(hipTextureObject_t *out, const hipResourceDesc *resource, const hipTextureDesc *desc,
                          const hipResourceViewDesc *view) {
  if (!out || !resource || !desc) return hipErrorInvalidValue;
  if (view) return hipErrorNotSupported;  // no views of a resource in another format
  auto object = std::make_unique<TextureObject>();
  object->resource = *resource;
  if (hipError_t error = describe_memory(*resource, object->texture)) return error;
  if (hipError_t error = check_sampling(*desc, object->texture)) return error;
  object->texture.desc = *desc;
  std::lock_guard<std::mutex> lock(objects_mutex());
  *out = &object->texture;
  textures().emplace(&object->texture, std::move(object));
  return hipSuccess;
}

const TextureObject *find_texture(hipTextureObject_t handle) {
  std::lock_guard<std::mutex> lock(objects_mutex());
  auto found = textures().find(handle);
  return found == textures().end() ? nullptr : found->second.get();
}

// A surface is an array's elements: they are written in place.
hipError_t create_surface(hipSurfaceObject_t *out, const hipResourceDesc *resource) {
  if (!out || !resource || resource->resType != hipResourceTypeArray) return hipErrorInvalidValue;
  hipArray *a = find_array(resource->res.array.array);
  if (!a) return hipErrorInvalidValue;
  auto surface = std::make_unique<__hip_surface>();
  surface->data = a->data;
  surface->pitch = a->pitch();
  surface->slice = a->pitch() * a->height;
  surface->width = static_cast<unsigned>(a->width);
  surface->height = static_cast<unsigned>(a->height);
  surface->depth = static_cast<unsigned>(a->depth);
  surface->element_bytes = static_cast<unsigned>(a->element);
  std::lock_guard<std::mutex> lock(objects_mutex());
  *out = surface.get();
  surfaces().emplace(surface.get(), std::move(surface));
  return hipSuccess;
}

}  // namespace

extern "C" {

hipError_t hipCreateTextureObject(hipTextureObject_t *pTexObject, const hipResourceDesc *pResDesc,
                                  const hipTextureDesc *pTexDesc, const hipResourceViewDesc *pResViewDesc) {
  return record(create_texture(pTexObject, pResDesc, pTexDesc, pResViewDesc));
}

// Destroying the null object does nothing, as in HIP.
hipError_t hipDestroyTextureObject(hipTextureObject_t textureObject) {
  return destroy(textures(), textureObject, &Retired::textures);
}

hipError_t hipGetTextureObjectResourceDesc(hipResourceDesc *pResDesc, hipTextureObject_t textureObject) {
  const TextureObject *object = find_texture(textureObject);
  if (!pResDesc || !object) return record(hipErrorInvalidValue);
  *pResDesc = object->resource;
  return hipSuccess;
}

hipError_t hipGetTextureObjectTextureDesc(hipTextureDesc *pTexDesc, hipTextureObject_t textureObject) {
  const TextureObject *object = find_texture(textureObject);
  if (!pTexDesc || !object) return record(hipErrorInvalidValue);
  *pTexDesc = object->texture.desc;
  return hipSuccess;
}

hipError_t hipCreateSurfaceObject(hipSurfaceObject_t *pSurfObject, const hipResourceDesc *pResDesc) {
  return record(create_surface(pSurfObject, pResDesc));
}

hipError_t hipDestroySurfaceObject(hipSurfaceObject_t surfaceObject) {
  return destroy(surfaces(), surfaceObject, &Retired::surfaces);
}

}  // extern "C"
