/*
 * CUDA runtime header of gpusym: what nvcc gives every CUDA source.  The
 * simulated device runs CUDA programs as it runs HIP ones; these headers
 * give CUDA's names and semantics over gpusym's HIP headers and runtime:
 * the host API (cuda_runtime_api.h) and the device language (threadIdx,
 * __syncthreads, the warp functions with 32-lane masks, atomics, math).
 */
#ifndef GPUSYM_CUDA_RUNTIME_H
#define GPUSYM_CUDA_RUNTIME_H
/* The guard CUDA's own header defines, which programs test. */
#define __CUDA_RUNTIME_H__

#include "cuda_runtime_api.h"

/* HIP's lane masks are 64-bit, CUDA's 32-bit: HIP's functions returning
 * one keep other names, and CUDA's own (gpusym_cuda_detail/warp.h) call them. */
#define __ballot __gpusym_hip_ballot
#define __ballot_sync __gpusym_hip_ballot_sync
#define __activemask __gpusym_hip_activemask
#define GPUSYM_CUDA_HEADERS 1 /* a CUDA source: HIP's headers leave out what CUDA has not */
#include "hip/hip_runtime.h"
#undef __ballot
#undef __ballot_sync
#undef __activemask

#include "device_launch_parameters.h"
#include "crt/host_defines.h"
#include "vector_types.h"
#include "vector_functions.h"

#if defined(__cplusplus) && defined(__HIP__)
#include "gpusym_cuda_detail/warp.h"
#include "gpusym_cuda_detail/memory.h"
#include "gpusym_cuda_detail/intrinsics.h"
#include "gpusym_cuda_detail/atomics.h"
#include "gpusym_cuda_detail/host_math.h"
#include "gpusym_cuda_detail/ptx.h"
/* A conditional node's value, for the launches of its graph that follow
 * this kernel (the handle is where the runtime keeps it). */
static __device__ __GPUSYM_INLINE void cudaGraphSetConditional(cudaGraphConditionalHandle handle, unsigned int value) {
  __atomic_store_n(reinterpret_cast<unsigned int *>(handle), value, __ATOMIC_RELEASE);
}
#endif
#include "texture_fetch_functions.h"
#include "surface_functions.h"

#endif
