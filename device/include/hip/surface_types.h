/*
 * Surface objects, with HIP's names and enum values (HIP's surface_types.h).
 * Usable from plain C as well as C++ and HIP.
 */
#ifndef GPUSYM_HIP_SURFACE_TYPES_H
#define GPUSYM_HIP_SURFACE_TYPES_H

#include <stddef.h>

/* What surf2Dread and surf2Dwrite do at an x or y outside the surface. */
typedef enum hipSurfaceBoundaryMode {
  hipBoundaryModeZero = 0,   /* reads give zero, writes are dropped */
  hipBoundaryModeTrap = 1,   /* the kernel aborts */
  hipBoundaryModeClamp = 2,  /* to the nearest element inside */
} hipSurfaceBoundaryMode;

/* What a hipSurfaceObject_t points to: an array's elements, which kernels
 * read and write in place (gpusym_detail/surface_functions.h). */
struct __hip_surface {
  unsigned char *data;
  size_t pitch;               /* bytes from a row to the next */
  size_t slice;               /* bytes from a slice (or layer) to the next */
  unsigned int width, height, depth;  /* elements, rows, slices: 1 where the array has none */
  unsigned int element_bytes;
};
typedef struct __hip_surface *hipSurfaceObject_t;

#endif
