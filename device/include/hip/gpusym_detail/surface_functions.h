/*
 * surf2Dread and surf2Dwrite on surface objects.  As in CUDA and HIP, x is
 * a byte offset into the row (x = column * sizeof(element)), y a row; T is
 * copied as it is, unconverted.  Out of range, the boundary mode decides:
 * zero (the default: reads give zero, writes are dropped, as HIP's hardware
 * does), clamp to the nearest element, or trap (the kernel aborts).
 */
#ifndef GPUSYM_SURFACE_FUNCTIONS_H
#define GPUSYM_SURFACE_FUNCTIONS_H

/* The address of the sizeof(T) bytes at (x, y), or null to read zero or
 * drop the write. */
template <typename T>
static __device__ __GPUSYM_INLINE unsigned char *__gpusym_surf_address(hipSurfaceObject_t s, int x, int y,
                                                                       int boundaryMode) {
  long long row = static_cast<long long>(s->width) * s->element_bytes;
  long long last_x = row - static_cast<long long>(sizeof(T)), last_y = static_cast<long long>(s->height) - 1;
  if (x < 0 || x > last_x || y < 0 || y > last_y) {
    if (boundaryMode == hipBoundaryModeTrap) abort();
    if (boundaryMode != hipBoundaryModeClamp || last_x < 0) return nullptr;
    x = x < 0 ? 0 : x > last_x ? static_cast<int>(last_x) : x;
    y = y < 0 ? 0 : y > last_y ? static_cast<int>(last_y) : y;
  }
  return s->data + static_cast<size_t>(y) * s->pitch + static_cast<size_t>(x);
}

template <typename T>
static __device__ __GPUSYM_INLINE void surf2Dread(T *data, hipSurfaceObject_t surfObj, int x, int y,
                                                  int boundaryMode = hipBoundaryModeZero) {
  const unsigned char *p = __gpusym_surf_address<T>(surfObj, x, y, boundaryMode);
  if (p)
    __builtin_memcpy(data, p, sizeof(T));
  else
    __builtin_memset(data, 0, sizeof(T));
}
template <typename T>
static __device__ __GPUSYM_INLINE T surf2Dread(hipSurfaceObject_t surfObj, int x, int y,
                                               int boundaryMode = hipBoundaryModeZero) {
  T value;
  surf2Dread(&value, surfObj, x, y, boundaryMode);
  return value;
}
template <typename T>
static __device__ __GPUSYM_INLINE void surf2Dwrite(T data, hipSurfaceObject_t surfObj, int x, int y,
                                                   int boundaryMode = hipBoundaryModeZero) {
  unsigned char *p = __gpusym_surf_address<T>(surfObj, x, y, boundaryMode);
  if (p) __builtin_memcpy(p, &data, sizeof(T));
}

#endif
