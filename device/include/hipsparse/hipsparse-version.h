/* The hipSPARSE version gpusym's library implements: ROCm 6.2's, 3.1.1. */
#ifndef HIPSPARSE_VERSION_H
#define HIPSPARSE_VERSION_H
#define hipsparseVersionMajor 3
#define hipsparseVersionMinor 1
#define hipsparseVersionPatch 1
#define hipsparseVersionTweak 0
#endif
