// The kernel shapes compiled as CUDA by nvcc, or by clang with cuda_shim.h.
#if defined(__clang__) && !defined(__NVCC__)
#include "cuda_shim.h"
#endif

#include "kernel_shapes.h"

void launch_everything(int *i, float *f) { launch_all(i, f); }
