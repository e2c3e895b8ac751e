/* hipBLAS by its older path: the same as <hipblas/hipblas.h>. */
#include "hipblas/hipblas.h"
