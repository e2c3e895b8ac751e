/* hipSPARSE's export markers by their older path. */
#include "hipsparse/hipsparse-export.h"
