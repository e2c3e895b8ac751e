/* hipSPARSE's version by its older path. */
#include "hipsparse/hipsparse-version.h"
