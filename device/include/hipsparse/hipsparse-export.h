/* hipSPARSE's export and deprecation markers; gpusym's library exports every
 * function, and marks nothing deprecated. */
#ifndef HIPSPARSE_EXPORT_H
#define HIPSPARSE_EXPORT_H
#define HIPSPARSE_EXPORT __attribute__((visibility("default")))
#define HIPSPARSE_NO_EXPORT
#define HIPSPARSE_DEPRECATED
#define HIPSPARSE_DEPRECATED_EXPORT HIPSPARSE_EXPORT
#endif
