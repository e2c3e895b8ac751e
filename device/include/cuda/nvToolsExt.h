/* NVTX at its older path (the toolkit's include directory): nvtx3's. */
#include "nvtx3/nvToolsExt.h"
