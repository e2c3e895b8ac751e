/* hipBLAS's export and deprecation markers; gpusym's library exports every
 * function, and marks nothing deprecated. */
#ifndef HIPBLAS_EXPORT_H
#define HIPBLAS_EXPORT_H
#define HIPBLAS_EXPORT __attribute__((visibility("default")))
#define HIPBLAS_NO_EXPORT
#define HIPBLAS_DEPRECATED
#define HIPBLAS_DEPRECATED_EXPORT HIPBLAS_EXPORT
#endif
