/* <hipfftXt.h>: the older path of <hipfft/hipfftXt.h>. */
#include "hipfft/hipfftXt.h"
