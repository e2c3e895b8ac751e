/*
 * cudaCreateChannelDesc<T>() and the half-float channel formats: declared
 * with the runtime API (cuda_runtime_api.h), over HIP's
 * hipCreateChannelDesc<T>().
 */
#ifndef GPUSYM_CUDA_CHANNEL_DESCRIPTOR_H
#define GPUSYM_CUDA_CHANNEL_DESCRIPTOR_H
/* The guard CUDA's own header defines, which programs test. */
#define __CHANNEL_DESCRIPTOR_H__

#include "cuda_runtime_api.h"

#endif
