/* The toolkit's occupancy header.  Programs and libraries (Thrust) include
 * it for the runtime's occupancy functions, which cuda_runtime_api.h
 * declares; the header-only calculator of CUDA's own (cudaOcc*) is not
 * provided. */
#ifndef GPUSYM_CUDA_OCCUPANCY_H
#define GPUSYM_CUDA_OCCUPANCY_H
#include "cuda_runtime_api.h"
#endif
