/* The header under its older path. */
#include "rocrand/rocrand.h"
