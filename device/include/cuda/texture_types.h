/*
 * CUDA's texture objects: the address, filter and read modes and the
 * sampling description, with CUDA's names and values.  A texture object
 * is HIP's (cudaTextureObject_t is hipTextureObject_t), which the device's
 * fetch functions (tex1D, tex2D, ...) read.
 */
#ifndef GPUSYM_CUDA_TEXTURE_TYPES_H
#define GPUSYM_CUDA_TEXTURE_TYPES_H
/* The guard CUDA's own header defines, which programs test. */
#define __TEXTURE_TYPES_H__

#include "driver_types.h"

#define cudaTextureType1D 0x01
#define cudaTextureType2D 0x02
#define cudaTextureType3D 0x03
#define cudaTextureTypeCubemap 0x0C
#define cudaTextureType1DLayered 0xF1
#define cudaTextureType2DLayered 0xF2
#define cudaTextureTypeCubemapLayered 0xFC

enum cudaTextureAddressMode {
  cudaAddressModeWrap = 0,
  cudaAddressModeClamp = 1,
  cudaAddressModeMirror = 2,
  cudaAddressModeBorder = 3,
};

enum cudaTextureFilterMode {
  cudaFilterModePoint = 0,
  cudaFilterModeLinear = 1,
};

enum cudaTextureReadMode {
  cudaReadModeElementType = 0,
  cudaReadModeNormalizedFloat = 1,
};

/* How a texture object samples its memory (mipmap levels, anisotropy, sRGB
 * and cubemap seams have nothing to act on here). */
struct cudaTextureDesc {
  enum cudaTextureAddressMode addressMode[3];
  enum cudaTextureFilterMode filterMode;
  enum cudaTextureReadMode readMode;
  int sRGB;
  float borderColor[4];
  int normalizedCoords;
  unsigned int maxAnisotropy;
  enum cudaTextureFilterMode mipmapFilterMode;
  float mipmapLevelBias;
  float minMipmapLevelClamp;
  float maxMipmapLevelClamp;
  int disableTrilinearOptimization;
  int seamlessCubemap;
};

typedef hipTextureObject_t cudaTextureObject_t;

#ifndef __cplusplus
typedef struct cudaTextureDesc cudaTextureDesc;
#endif

#endif
