/* The header under its older path. */
#include "rocrand/rocrand_kernel.h"
