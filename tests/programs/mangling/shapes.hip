// The kernel shapes compiled as HIP by clang.
#include <hip/hip_runtime.h>

#include "kernel_shapes.h"

void launch_everything(int *i, float *f) { launch_all(i, f); }
