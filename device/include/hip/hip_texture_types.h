/*
 * <hip/hip_texture_types.h>: the texture types (texture objects,
 * descriptors, channel formats) and, in C++, hipCreateChannelDesc<T>().
 * Texture references (the texture<T, dim, mode> template), which HIP has
 * deprecated, are not provided: gpusym has texture objects only.
 */
#ifndef GPUSYM_HIP_HIP_TEXTURE_TYPES_H
#define GPUSYM_HIP_HIP_TEXTURE_TYPES_H

#include "hip/texture_types.h"
#ifdef __cplusplus
#include "hip/channel_descriptor.h"
#endif

#endif
