/*
 * CUDA's surface objects: boundary and format modes with CUDA's names and
 * values.  A surface object is HIP's (cudaSurfaceObject_t is
 * hipSurfaceObject_t), which surf2Dread, surf2Dwrite, ... read and write.
 */
#ifndef GPUSYM_CUDA_SURFACE_TYPES_H
#define GPUSYM_CUDA_SURFACE_TYPES_H
/* The guard CUDA's own header defines, which programs test. */
#define __SURFACE_TYPES_H__

#include "driver_types.h"

#define cudaSurfaceType1D 0x01
#define cudaSurfaceType2D 0x02
#define cudaSurfaceType3D 0x03
#define cudaSurfaceTypeCubemap 0x0C
#define cudaSurfaceType1DLayered 0xF1
#define cudaSurfaceType2DLayered 0xF2
#define cudaSurfaceTypeCubemapLayered 0xFC

/* What a surface access outside the surface does (HIP numbers these
 * differently: the device functions translate). */
enum cudaSurfaceBoundaryMode {
  cudaBoundaryModeZero = 0,
  cudaBoundaryModeClamp = 1,
  cudaBoundaryModeTrap = 2,
};

enum cudaSurfaceFormatMode {
  cudaFormatModeForced = 0,
  cudaFormatModeAuto = 1,
};

typedef hipSurfaceObject_t cudaSurfaceObject_t;

#endif
