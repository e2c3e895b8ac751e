/*
 * CUDA's C++ surface header.  Surface references are gone since CUDA 12:
 * surface objects (surface_types.h) remain.
 */
#ifndef GPUSYM_CUDA_CUDA_SURFACE_TYPES_H
#define GPUSYM_CUDA_CUDA_SURFACE_TYPES_H
/* The guard CUDA's own header defines, which programs test. */
#define __CUDA_SURFACE_TYPES_H__

#include "channel_descriptor.h"
#include "surface_types.h"

#endif
