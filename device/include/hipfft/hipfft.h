/*
 * <hipfft/hipfft.h>: gpusym's hipFFT, the API of ROCm 6.2's hipFFT (1.0.15)
 * computed on the CPU by FFTW (device/libraries/hipfft).  C and C++.
 *
 * Transforms are unnormalised: a forward transform and then an inverse one
 * give the input times the number of points.  Layouts are row-major, the
 * last dimension the fastest; the complex side of a real transform holds
 * n/2+1 elements along the last dimension.
 */
#ifndef HIPFFT_H_
#define HIPFFT_H_

#include <stddef.h>

/* Diagnostic pragmas as macros (ROCm's hipfft.h defines these names too). */
#define DO_PRAGMA(x) _Pragma(#x)
#define DISABLE_WARNING(name) DO_PRAGMA(GCC diagnostic ignored #name)
#define DISABLE_WARNING_PUSH _Pragma("GCC diagnostic push")
#define DISABLE_WARNING_POP _Pragma("GCC diagnostic pop")
#define DISABLE_WARNING_DEPRECATED_DECLARATIONS _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"")
#define DISABLE_WARNING_RETURN_TYPE _Pragma("GCC diagnostic ignored \"-Wreturn-type\"")

#include "hip/hip_complex.h"
#include "hip/hip_runtime_api.h"
#include "hip/library_types.h"
#include "hipfft/hipfft-export.h"
#include "hipfft/hipfft-version.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hipfftResult_t {
  HIPFFT_SUCCESS = 0,
  HIPFFT_INVALID_PLAN = 1,
  HIPFFT_ALLOC_FAILED = 2,
  HIPFFT_INVALID_TYPE = 3,
  HIPFFT_INVALID_VALUE = 4,
  HIPFFT_INTERNAL_ERROR = 5,
  HIPFFT_EXEC_FAILED = 6,
  HIPFFT_SETUP_FAILED = 7,
  HIPFFT_INVALID_SIZE = 8,
  HIPFFT_UNALIGNED_DATA = 9,
  HIPFFT_INCOMPLETE_PARAMETER_LIST = 10,
  HIPFFT_INVALID_DEVICE = 11,
  HIPFFT_PARSE_ERROR = 12,
  HIPFFT_NO_WORKSPACE = 13,
  HIPFFT_NOT_IMPLEMENTED = 14,
  HIPFFT_NOT_SUPPORTED = 16
} hipfftResult;

/* Input to output: R real, C complex in single precision; D and Z double. */
typedef enum hipfftType_t {
  HIPFFT_R2C = 0x2a,
  HIPFFT_C2R = 0x2c,
  HIPFFT_C2C = 0x29,
  HIPFFT_D2Z = 0x6a,
  HIPFFT_Z2D = 0x6c,
  HIPFFT_Z2Z = 0x69
} hipfftType;

typedef enum hipfftLibraryPropertyType_t {
  HIPFFT_MAJOR_VERSION,
  HIPFFT_MINOR_VERSION,
  HIPFFT_PATCH_LEVEL
} hipfftLibraryPropertyType;

/* The sign of the exponent. */
#define HIPFFT_FORWARD -1
#define HIPFFT_BACKWARD 1

typedef struct hipfftHandle_t *hipfftHandle;

typedef hipComplex hipfftComplex;
typedef hipDoubleComplex hipfftDoubleComplex;
typedef float hipfftReal;
typedef double hipfftDoubleReal;

/* Plans: created and made in one call, ... */
HIPFFT_EXPORT hipfftResult hipfftPlan1d(hipfftHandle *plan, int nx, hipfftType type, int batch);
HIPFFT_EXPORT hipfftResult hipfftPlan2d(hipfftHandle *plan, int nx, int ny, hipfftType type);
HIPFFT_EXPORT hipfftResult hipfftPlan3d(hipfftHandle *plan, int nx, int ny, int nz, hipfftType type);
/* n[rank]; inembed and onembed both null (contiguous data) or both given,
 * with the stride between elements and the distance between batches. */
HIPFFT_EXPORT hipfftResult hipfftPlanMany(hipfftHandle *plan, int rank, int *n, int *inembed, int istride,
                                          int idist, int *onembed, int ostride, int odist, hipfftType type,
                                          int batch);

/* ... or created, then made. */
HIPFFT_EXPORT hipfftResult hipfftCreate(hipfftHandle *plan);
/* Multiplies every output element by scalefactor; set before making. */
HIPFFT_EXPORT hipfftResult hipfftExtPlanScaleFactor(hipfftHandle plan, double scalefactor);
HIPFFT_EXPORT hipfftResult hipfftMakePlan1d(hipfftHandle plan, int nx, hipfftType type, int batch,
                                            size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftMakePlan2d(hipfftHandle plan, int nx, int ny, hipfftType type, size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftMakePlan3d(hipfftHandle plan, int nx, int ny, int nz, hipfftType type,
                                            size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftMakePlanMany(hipfftHandle plan, int rank, int *n, int *inembed, int istride,
                                              int idist, int *onembed, int ostride, int odist, hipfftType type,
                                              int batch, size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftMakePlanMany64(hipfftHandle plan, int rank, long long int *n,
                                                long long int *inembed, long long int istride,
                                                long long int idist, long long int *onembed,
                                                long long int ostride, long long int odist, hipfftType type,
                                                long long int batch, size_t *workSize);

/* Work-area sizes (gpusym's transforms need none: 0). */
HIPFFT_EXPORT hipfftResult hipfftEstimate1d(int nx, hipfftType type, int batch, size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftEstimate2d(int nx, int ny, hipfftType type, size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftEstimate3d(int nx, int ny, int nz, hipfftType type, size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftEstimateMany(int rank, int *n, int *inembed, int istride, int idist,
                                              int *onembed, int ostride, int odist, hipfftType type, int batch,
                                              size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftGetSize1d(hipfftHandle plan, int nx, hipfftType type, int batch,
                                           size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftGetSize2d(hipfftHandle plan, int nx, int ny, hipfftType type, size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftGetSize3d(hipfftHandle plan, int nx, int ny, int nz, hipfftType type,
                                           size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftGetSizeMany(hipfftHandle plan, int rank, int *n, int *inembed, int istride,
                                             int idist, int *onembed, int ostride, int odist, hipfftType type,
                                             int batch, size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftGetSizeMany64(hipfftHandle plan, int rank, long long int *n,
                                               long long int *inembed, long long int istride, long long int idist,
                                               long long int *onembed, long long int ostride,
                                               long long int odist, hipfftType type, long long int batch,
                                               size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftGetSize(hipfftHandle plan, size_t *workSize);
HIPFFT_EXPORT hipfftResult hipfftSetAutoAllocation(hipfftHandle plan, int autoAllocate);
HIPFFT_EXPORT hipfftResult hipfftSetWorkArea(hipfftHandle plan, void *workArea);

/* Execution, in the order of the plan's stream; in place when idata is odata. */
HIPFFT_EXPORT hipfftResult hipfftExecC2C(hipfftHandle plan, hipfftComplex *idata, hipfftComplex *odata,
                                         int direction);
HIPFFT_EXPORT hipfftResult hipfftExecR2C(hipfftHandle plan, hipfftReal *idata, hipfftComplex *odata);
HIPFFT_EXPORT hipfftResult hipfftExecC2R(hipfftHandle plan, hipfftComplex *idata, hipfftReal *odata);
HIPFFT_EXPORT hipfftResult hipfftExecZ2Z(hipfftHandle plan, hipfftDoubleComplex *idata,
                                         hipfftDoubleComplex *odata, int direction);
HIPFFT_EXPORT hipfftResult hipfftExecD2Z(hipfftHandle plan, hipfftDoubleReal *idata, hipfftDoubleComplex *odata);
HIPFFT_EXPORT hipfftResult hipfftExecZ2D(hipfftHandle plan, hipfftDoubleComplex *idata, hipfftDoubleReal *odata);

HIPFFT_EXPORT hipfftResult hipfftSetStream(hipfftHandle plan, hipStream_t stream);
HIPFFT_EXPORT hipfftResult hipfftDestroy(hipfftHandle plan);
/* 10015 for 1.0.15. */
HIPFFT_EXPORT hipfftResult hipfftGetVersion(int *version);
HIPFFT_EXPORT hipfftResult hipfftGetProperty(hipfftLibraryPropertyType type, int *value);

#ifdef __cplusplus
}
#endif

#endif
