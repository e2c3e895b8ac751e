/* <hipfft.h>: the older path of <hipfft/hipfft.h>, which ROCm also installs. */
#include "hipfft/hipfft.h"
