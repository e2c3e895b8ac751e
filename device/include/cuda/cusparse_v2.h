/* cuSPARSE's API under its older header name. */
#include "cusparse.h"
