/*
 * CUDA's surface functions on surface objects: HIP's surf2Dread and
 * surf2Dwrite (hip/gpusym_detail/surface_functions.h), which take CUDA's
 * boundary modes here, and surf1D, surf3D and surf2DLayered reads and
 * writes.  x is a byte offset into the row, as in CUDA.  The boundary mode
 * CUDA defaults to is cudaBoundaryModeTrap; surf2Dread and surf2Dwrite
 * called without one use HIP's default, zero (reads give zero, writes are
 * dropped).
 */
#ifndef GPUSYM_CUDA_SURFACE_FUNCTIONS_H
#define GPUSYM_CUDA_SURFACE_FUNCTIONS_H
/* The guard CUDA's own header defines, which programs test. */
#define __SURFACE_FUNCTIONS_H__

#include "cuda_runtime.h"

#if defined(__cplusplus) && defined(__HIP__)

/* HIP's number of CUDA's boundary mode. */
static __device__ __GPUSYM_INLINE int __gpusym_cuda_boundary(cudaSurfaceBoundaryMode mode) {
  return mode == cudaBoundaryModeClamp ? hipBoundaryModeClamp
         : mode == cudaBoundaryModeTrap ? hipBoundaryModeTrap
                                        : hipBoundaryModeZero;
}

/* The address of the sizeof(T) bytes at (x, y, z) of `s`, or null to read
 * zero or drop the write. */
template <typename T>
static __device__ __GPUSYM_INLINE unsigned char *__gpusym_cuda_surf_address(cudaSurfaceObject_t s, int x, int y,
                                                                            int z, cudaSurfaceBoundaryMode mode) {
  long long last_x = static_cast<long long>(s->width) * s->element_bytes - static_cast<long long>(sizeof(T));
  long long last_y = static_cast<long long>(s->height) - 1, last_z = static_cast<long long>(s->depth) - 1;
  if (x < 0 || x > last_x || y < 0 || y > last_y || z < 0 || z > last_z) {
    if (mode == cudaBoundaryModeTrap) abort();
    if (mode != cudaBoundaryModeClamp || last_x < 0) return nullptr;
    x = x < 0 ? 0 : x > last_x ? static_cast<int>(last_x) : x;
    y = y < 0 ? 0 : y > last_y ? static_cast<int>(last_y) : y;
    z = z < 0 ? 0 : z > last_z ? static_cast<int>(last_z) : z;
  }
  return s->data + static_cast<size_t>(z) * s->slice + static_cast<size_t>(y) * s->pitch + static_cast<size_t>(x);
}

template <typename T>
static __device__ __GPUSYM_INLINE void __gpusym_cuda_surf_read(T *data, cudaSurfaceObject_t s, int x, int y, int z,
                                                               cudaSurfaceBoundaryMode mode) {
  const unsigned char *p = __gpusym_cuda_surf_address<T>(s, x, y, z, mode);
  if (p)
    __builtin_memcpy(data, p, sizeof(T));
  else
    __builtin_memset(data, 0, sizeof(T));
}

template <typename T>
static __device__ __GPUSYM_INLINE void __gpusym_cuda_surf_write(const T &data, cudaSurfaceObject_t s, int x, int y,
                                                                int z, cudaSurfaceBoundaryMode mode) {
  unsigned char *p = __gpusym_cuda_surf_address<T>(s, x, y, z, mode);
  if (p) __builtin_memcpy(p, &data, sizeof(T));
}

/* surf2Dread and surf2Dwrite with a CUDA boundary mode. */
template <typename T>
static __device__ __GPUSYM_INLINE void surf2Dread(T *data, cudaSurfaceObject_t s, int x, int y,
                                                  cudaSurfaceBoundaryMode mode) {
  surf2Dread(data, s, x, y, __gpusym_cuda_boundary(mode));
}
template <typename T>
static __device__ __GPUSYM_INLINE T surf2Dread(cudaSurfaceObject_t s, int x, int y, cudaSurfaceBoundaryMode mode) {
  return surf2Dread<T>(s, x, y, __gpusym_cuda_boundary(mode));
}
template <typename T>
static __device__ __GPUSYM_INLINE void surf2Dwrite(T data, cudaSurfaceObject_t s, int x, int y,
                                                   cudaSurfaceBoundaryMode mode) {
  surf2Dwrite(data, s, x, y, __gpusym_cuda_boundary(mode));
}

template <typename T>
static __device__ __GPUSYM_INLINE void surf1Dread(T *data, cudaSurfaceObject_t s, int x,
                                                  cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __gpusym_cuda_surf_read(data, s, x, 0, 0, mode);
}
template <typename T>
static __device__ __GPUSYM_INLINE T surf1Dread(cudaSurfaceObject_t s, int x,
                                               cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value;
  __gpusym_cuda_surf_read(&value, s, x, 0, 0, mode);
  return value;
}
template <typename T>
static __device__ __GPUSYM_INLINE void surf1Dwrite(T data, cudaSurfaceObject_t s, int x,
                                                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __gpusym_cuda_surf_write(data, s, x, 0, 0, mode);
}

template <typename T>
static __device__ __GPUSYM_INLINE void surf3Dread(T *data, cudaSurfaceObject_t s, int x, int y, int z,
                                                  cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __gpusym_cuda_surf_read(data, s, x, y, z, mode);
}
template <typename T>
static __device__ __GPUSYM_INLINE T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z,
                                               cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value;
  __gpusym_cuda_surf_read(&value, s, x, y, z, mode);
  return value;
}
template <typename T>
static __device__ __GPUSYM_INLINE void surf3Dwrite(T data, cudaSurfaceObject_t s, int x, int y, int z,
                                                   cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __gpusym_cuda_surf_write(data, s, x, y, z, mode);
}

/* A layered surface's layers are its slices. */
template <typename T>
static __device__ __GPUSYM_INLINE void surf2DLayeredread(T *data, cudaSurfaceObject_t s, int x, int y, int layer,
                                                         cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __gpusym_cuda_surf_read(data, s, x, y, layer, mode);
}
template <typename T>
static __device__ __GPUSYM_INLINE T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer,
                                                      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value;
  __gpusym_cuda_surf_read(&value, s, x, y, layer, mode);
  return value;
}
template <typename T>
static __device__ __GPUSYM_INLINE void surf2DLayeredwrite(T data, cudaSurfaceObject_t s, int x, int y, int layer,
                                                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __gpusym_cuda_surf_write(data, s, x, y, layer, mode);
}
template <typename T>
static __device__ __GPUSYM_INLINE void surf1DLayeredread(T *data, cudaSurfaceObject_t s, int x, int layer,
                                                         cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __gpusym_cuda_surf_read(data, s, x, 0, layer, mode);
}
template <typename T>
static __device__ __GPUSYM_INLINE T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer,
                                                      cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  T value;
  __gpusym_cuda_surf_read(&value, s, x, 0, layer, mode);
  return value;
}
template <typename T>
static __device__ __GPUSYM_INLINE void surf1DLayeredwrite(T data, cudaSurfaceObject_t s, int x, int layer,
                                                          cudaSurfaceBoundaryMode mode = cudaBoundaryModeTrap) {
  __gpusym_cuda_surf_write(data, s, x, 0, layer, mode);
}

#endif

#endif
