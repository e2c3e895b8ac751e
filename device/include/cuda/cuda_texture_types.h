/*
 * CUDA's C++ texture header.  Texture references (texture<T, dim, mode>)
 * are gone since CUDA 12: texture objects (texture_types.h) remain.
 */
#ifndef GPUSYM_CUDA_CUDA_TEXTURE_TYPES_H
#define GPUSYM_CUDA_CUDA_TEXTURE_TYPES_H
/* The guard CUDA's own header defines, which programs test. */
#define __CUDA_TEXTURE_TYPES_H__

#include "channel_descriptor.h"
#include "texture_types.h"

#endif
