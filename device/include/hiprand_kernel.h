/* The header under its older path. */
#include "hiprand/hiprand_kernel.h"
