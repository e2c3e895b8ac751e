/* The hipBLAS version gpusym's library implements: ROCm 6.2's, 2.2.0. */
#ifndef HIPBLAS_VERSION_H
#define HIPBLAS_VERSION_H
#define hipblasVersionMajor 2
#define hipblaseVersionMinor 2
#define hipblasVersionMinor 2
#define hipblasVersionPatch 0
#define hipblasVersionTweak 0
#endif
