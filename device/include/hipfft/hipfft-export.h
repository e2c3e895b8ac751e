/*
 * HIPFFT_EXPORT, the visibility of gpusym's hipFFT functions (default, as
 * the library is built).
 */
#ifndef GPUSYM_HIPFFT_EXPORT_H
#define GPUSYM_HIPFFT_EXPORT_H

#define HIPFFT_EXPORT __attribute__((visibility("default")))

#endif
