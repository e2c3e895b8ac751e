/*
 * The version of hipFFT whose API gpusym's hipFFT gives: ROCm 6.2's, 1.0.15.
 */
#ifndef GPUSYM_HIPFFT_VERSION_H
#define GPUSYM_HIPFFT_VERSION_H

#define hipfftVersionMajor 1
#define hipfftVersionMinor 0
#define hipfftVersionPatch 15
#define hipfftVersionTweak 0

#endif
