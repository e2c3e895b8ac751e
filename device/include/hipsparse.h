/* hipSPARSE by its older path: the same as <hipsparse/hipsparse.h>. */
#include "hipsparse/hipsparse.h"
