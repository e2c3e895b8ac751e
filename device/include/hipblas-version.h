/* hipBLAS's version by its older path. */
#include "hipblas/hipblas-version.h"
