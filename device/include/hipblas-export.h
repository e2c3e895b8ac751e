/* hipBLAS's export markers by their older path. */
#include "hipblas/hipblas-export.h"
