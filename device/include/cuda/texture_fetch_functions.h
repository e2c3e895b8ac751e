/*
 * CUDA's texture fetches from texture objects: HIP's tex1Dfetch, tex1D,
 * tex2D, tex3D, tex1DLayered, tex2DLayered, texCubemap and
 * texCubemapLayered (hip/gpusym_detail/texture_fetch.h), which take
 * cudaTextureObject_t (it is hipTextureObject_t), and the level-of-detail
 * and gradient forms: without mipmaps, every level is level 0 and gradients
 * change nothing.
 */
#ifndef GPUSYM_CUDA_TEXTURE_FETCH_FUNCTIONS_H
#define GPUSYM_CUDA_TEXTURE_FETCH_FUNCTIONS_H
/* The guard CUDA's own header defines, which programs test. */
#define __TEXTURE_FETCH_FUNCTIONS_H__

#include "cuda_runtime.h"

#if defined(__cplusplus) && defined(__HIP__)

template <typename T> static __device__ __GPUSYM_INLINE T tex1DLod(cudaTextureObject_t t, float x, float) {
  return tex1D<T>(t, x);
}
template <typename T> static __device__ __GPUSYM_INLINE T tex2DLod(cudaTextureObject_t t, float x, float y, float) {
  return tex2D<T>(t, x, y);
}
template <typename T>
static __device__ __GPUSYM_INLINE T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float) {
  return tex3D<T>(t, x, y, z);
}
template <typename T>
static __device__ __GPUSYM_INLINE T tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float) {
  return tex1DLayered<T>(t, x, layer);
}
template <typename T>
static __device__ __GPUSYM_INLINE T tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float) {
  return tex2DLayered<T>(t, x, y, layer);
}
template <typename T>
static __device__ __GPUSYM_INLINE T texCubemapLod(cudaTextureObject_t t, float x, float y, float z, float) {
  return texCubemap<T>(t, x, y, z);
}
template <typename T>
static __device__ __GPUSYM_INLINE T texCubemapLayeredLod(cudaTextureObject_t t, float x, float y, float z, int layer,
                                                         float) {
  return texCubemapLayered<T>(t, x, y, z, layer);
}
template <typename T>
static __device__ __GPUSYM_INLINE T tex1DGrad(cudaTextureObject_t t, float x, float, float) {
  return tex1D<T>(t, x);
}
template <typename T>
static __device__ __GPUSYM_INLINE T tex2DGrad(cudaTextureObject_t t, float x, float y, float2, float2) {
  return tex2D<T>(t, x, y);
}
template <typename T>
static __device__ __GPUSYM_INLINE T tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4, float4) {
  return tex3D<T>(t, x, y, z);
}

template <typename T> static __device__ __GPUSYM_INLINE void tex1DLod(T *out, cudaTextureObject_t t, float x, float) {
  *out = tex1D<T>(t, x);
}
template <typename T>
static __device__ __GPUSYM_INLINE void tex2DLod(T *out, cudaTextureObject_t t, float x, float y, float) {
  *out = tex2D<T>(t, x, y);
}
template <typename T>
static __device__ __GPUSYM_INLINE void tex3DLod(T *out, cudaTextureObject_t t, float x, float y, float z, float) {
  *out = tex3D<T>(t, x, y, z);
}

#endif

#endif
