/*
 * cuBLAS's BLAS functions that gpusym provides, one table entry each:
 * GPUSYM_CUBLAS(name, hipBLAS function it calls, parameters, arguments).
 * cublas_api.h declares them; gpusym's libcublas (device/libraries/cublas)
 * defines each as a call of its hipBLAS twin.  No include guard: expanded
 * once per definition of GPUSYM_CUBLAS.
 */

/* One entry per precision: S float, D double, C cuComplex, Z cuDoubleComplex
 * (hipBLAS's _v2 forms take HIP's complex types, which cuComplex is). */
#define GPUSYM_CUBLAS_SDCZ(M, op, v2)                                                                          \
  M(cublasS##op##v2, hipblasS##op, float) M(cublasD##op##v2, hipblasD##op, double)                           \
  M(cublasC##op##v2, hipblasC##op##_v2, cuComplex) M(cublasZ##op##v2, hipblasZ##op##_v2, cuDoubleComplex)

/* ---- level 1 ---- */
#define GPUSYM_CUBLAS_AXPY(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip, (cublasHandle_t handle, int n, const T *alpha, const T *x, int incx, T *y, int incy), \
                (handle, n, alpha, x, incx, y, incy))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_AXPY, axpy, _v2)

#define GPUSYM_CUBLAS_SCAL(name, hip, T, S)                                                                    \
  GPUSYM_CUBLAS(name, hip, (cublasHandle_t handle, int n, const S *alpha, T *x, int incx), (handle, n, alpha, x, incx))
#define GPUSYM_CUBLAS_SCAL_SAME(name, hip, T) GPUSYM_CUBLAS_SCAL(name, hip, T, T)
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_SCAL_SAME, scal, _v2)
GPUSYM_CUBLAS_SCAL(cublasCsscal_v2, hipblasCsscal_v2, cuComplex, float)
GPUSYM_CUBLAS_SCAL(cublasZdscal_v2, hipblasZdscal_v2, cuDoubleComplex, double)

#define GPUSYM_CUBLAS_COPY(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip, (cublasHandle_t handle, int n, const T *x, int incx, T *y, int incy),              \
                (handle, n, x, incx, y, incy))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_COPY, copy, _v2)

#define GPUSYM_CUBLAS_SWAP(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip, (cublasHandle_t handle, int n, T *x, int incx, T *y, int incy), (handle, n, x, incx, y, incy))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_SWAP, swap, _v2)

#define GPUSYM_CUBLAS_DOT(name, hip, T)                                                                        \
  GPUSYM_CUBLAS(name, hip, (cublasHandle_t handle, int n, const T *x, int incx, const T *y, int incy, T *result), \
                (handle, n, x, incx, y, incy, result))
GPUSYM_CUBLAS_DOT(cublasSdot_v2, hipblasSdot, float)
GPUSYM_CUBLAS_DOT(cublasDdot_v2, hipblasDdot, double)
GPUSYM_CUBLAS_DOT(cublasCdotu_v2, hipblasCdotu_v2, cuComplex)
GPUSYM_CUBLAS_DOT(cublasCdotc_v2, hipblasCdotc_v2, cuComplex)
GPUSYM_CUBLAS_DOT(cublasZdotu_v2, hipblasZdotu_v2, cuDoubleComplex)
GPUSYM_CUBLAS_DOT(cublasZdotc_v2, hipblasZdotc_v2, cuDoubleComplex)

/* nrm2, asum, and the 1-based indices of amax and amin. */
#define GPUSYM_CUBLAS_REDUCE(name, hip, T, R)                                                                  \
  GPUSYM_CUBLAS(name, hip, (cublasHandle_t handle, int n, const T *x, int incx, R *result), (handle, n, x, incx, result))
#define GPUSYM_CUBLAS_REDUCTIONS(nrm2, asum, amax, amin, T, R, hip_suffix)                                     \
  GPUSYM_CUBLAS_REDUCE(cublas##nrm2##_v2, hipblas##nrm2##hip_suffix, T, R)                                     \
  GPUSYM_CUBLAS_REDUCE(cublas##asum##_v2, hipblas##asum##hip_suffix, T, R)                                     \
  GPUSYM_CUBLAS_REDUCE(cublas##amax##_v2, hipblas##amax##hip_suffix, T, int)                                   \
  GPUSYM_CUBLAS_REDUCE(cublas##amin##_v2, hipblas##amin##hip_suffix, T, int)
GPUSYM_CUBLAS_REDUCTIONS(Snrm2, Sasum, Isamax, Isamin, float, float, )
GPUSYM_CUBLAS_REDUCTIONS(Dnrm2, Dasum, Idamax, Idamin, double, double, )
GPUSYM_CUBLAS_REDUCTIONS(Scnrm2, Scasum, Icamax, Icamin, cuComplex, float, _v2)
GPUSYM_CUBLAS_REDUCTIONS(Dznrm2, Dzasum, Izamax, Izamin, cuDoubleComplex, double, _v2)

#define GPUSYM_CUBLAS_ROT(name, hip, T, R)                                                                     \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, int n, T *x, int incx, T *y, int incy, const R *c, const R *s),       \
                (handle, n, x, incx, y, incy, c, s))
GPUSYM_CUBLAS_ROT(cublasSrot_v2, hipblasSrot, float, float)
GPUSYM_CUBLAS_ROT(cublasDrot_v2, hipblasDrot, double, double)
GPUSYM_CUBLAS_ROT(cublasCsrot_v2, hipblasCsrot_v2, cuComplex, float)
GPUSYM_CUBLAS_ROT(cublasZdrot_v2, hipblasZdrot_v2, cuDoubleComplex, double)

#define GPUSYM_CUBLAS_ROTG(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip, (cublasHandle_t handle, T *a, T *b, T *c, T *s), (handle, a, b, c, s))
GPUSYM_CUBLAS_ROTG(cublasSrotg_v2, hipblasSrotg, float)
GPUSYM_CUBLAS_ROTG(cublasDrotg_v2, hipblasDrotg, double)

/* ---- level 2 ---- */
#define GPUSYM_CUBLAS_GEMV(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasOperation_t trans, int m, int n, const T *alpha, const T *A, int lda, \
                 const T *x, int incx, const T *beta, T *y, int incy),                                         \
                (handle, trans, m, n, alpha, A, lda, x, incx, beta, y, incy))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_GEMV, gemv, _v2)

#define GPUSYM_CUBLAS_GER(name, hip, T)                                                                        \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, int m, int n, const T *alpha, const T *x, int incx, const T *y, int incy, \
                 T *A, int lda),                                                                               \
                (handle, m, n, alpha, x, incx, y, incy, A, lda))
GPUSYM_CUBLAS_GER(cublasSger_v2, hipblasSger, float)
GPUSYM_CUBLAS_GER(cublasDger_v2, hipblasDger, double)
GPUSYM_CUBLAS_GER(cublasCgeru_v2, hipblasCgeru_v2, cuComplex)
GPUSYM_CUBLAS_GER(cublasCgerc_v2, hipblasCgerc_v2, cuComplex)
GPUSYM_CUBLAS_GER(cublasZgeru_v2, hipblasZgeru_v2, cuDoubleComplex)
GPUSYM_CUBLAS_GER(cublasZgerc_v2, hipblasZgerc_v2, cuDoubleComplex)

#define GPUSYM_CUBLAS_SYMV(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasFillMode_t uplo, int n, const T *alpha, const T *A, int lda,      \
                 const T *x, int incx, const T *beta, T *y, int incy),                                         \
                (handle, uplo, n, alpha, A, lda, x, incx, beta, y, incy))
GPUSYM_CUBLAS_SYMV(cublasSsymv_v2, hipblasSsymv, float)
GPUSYM_CUBLAS_SYMV(cublasDsymv_v2, hipblasDsymv, double)
GPUSYM_CUBLAS_SYMV(cublasChemv_v2, hipblasChemv_v2, cuComplex)
GPUSYM_CUBLAS_SYMV(cublasZhemv_v2, hipblasZhemv_v2, cuDoubleComplex)

#define GPUSYM_CUBLAS_TRIANGULAR_V(name, hip, T)                                                               \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag,  \
                 int n, const T *A, int lda, T *x, int incx),                                                  \
                (handle, uplo, trans, diag, n, A, lda, x, incx))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_TRIANGULAR_V, trsv, _v2)
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_TRIANGULAR_V, trmv, _v2)

/* ---- level 3 ---- */
#define GPUSYM_CUBLAS_GEMM(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, \
                 const T *alpha, const T *A, int lda, const T *B, int ldb, const T *beta, T *C, int ldc),       \
                (handle, transa, transb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_GEMM, gemm, _v2)

#define GPUSYM_CUBLAS_GEMM_BATCHED(name, hip, T)                                                               \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, \
                 const T *alpha, const T *const Aarray[], int lda, const T *const Barray[], int ldb,            \
                 const T *beta, T *const Carray[], int ldc, int batchCount),                                    \
                (handle, transa, transb, m, n, k, alpha, Aarray, lda, Barray, ldb, beta, Carray, ldc, batchCount))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_GEMM_BATCHED, gemmBatched, )

#define GPUSYM_CUBLAS_GEMM_STRIDED(name, hip, T)                                                               \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, \
                 const T *alpha, const T *A, int lda, long long int strideA, const T *B, int ldb,               \
                 long long int strideB, const T *beta, T *C, int ldc, long long int strideC, int batchCount),   \
                (handle, transa, transb, m, n, k, alpha, A, lda, strideA, B, ldb, strideB, beta, C, ldc,        \
                 strideC, batchCount))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_GEMM_STRIDED, gemmStridedBatched, )

#define GPUSYM_CUBLAS_SYMM(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n,             \
                 const T *alpha, const T *A, int lda, const T *B, int ldb, const T *beta, T *C, int ldc),       \
                (handle, side, uplo, m, n, alpha, A, lda, B, ldb, beta, C, ldc))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_SYMM, symm, _v2)

#define GPUSYM_CUBLAS_SYRK(name, hip, T, S)                                                                    \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k,           \
                 const S *alpha, const T *A, int lda, const S *beta, T *C, int ldc),                            \
                (handle, uplo, trans, n, k, alpha, A, lda, beta, C, ldc))
#define GPUSYM_CUBLAS_SYRK_SAME(name, hip, T) GPUSYM_CUBLAS_SYRK(name, hip, T, T)
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_SYRK_SAME, syrk, _v2)
GPUSYM_CUBLAS_SYRK(cublasCherk_v2, hipblasCherk_v2, cuComplex, float)
GPUSYM_CUBLAS_SYRK(cublasZherk_v2, hipblasZherk_v2, cuDoubleComplex, double)

#define GPUSYM_CUBLAS_TRSM(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,  \
                 cublasDiagType_t diag, int m, int n, const T *alpha, const T *A, int lda, T *B, int ldb),      \
                (handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_TRSM, trsm, _v2)

#define GPUSYM_CUBLAS_TRMM(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans,  \
                 cublasDiagType_t diag, int m, int n, const T *alpha, const T *A, int lda, const T *B, int ldb, \
                 T *C, int ldc),                                                                               \
                (handle, side, uplo, trans, diag, m, n, alpha, A, lda, B, ldb, C, ldc))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_TRMM, trmm, _v2)

#define GPUSYM_CUBLAS_GEAM(name, hip, T)                                                                       \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,       \
                 const T *alpha, const T *A, int lda, const T *beta, const T *B, int ldb, T *C, int ldc),       \
                (handle, transa, transb, m, n, alpha, A, lda, beta, B, ldb, C, ldc))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_GEAM, geam, )

/* ---- batched solvers (getrs, getri and matinv are cublas_api.h's own) ---- */
#define GPUSYM_CUBLAS_GETRF_BATCHED(name, hip, T)                                                              \
  GPUSYM_CUBLAS(name, hip, (cublasHandle_t handle, int n, T *const A[], int lda, int *P, int *info, int batchSize), \
                (handle, n, A, lda, P, info, batchSize))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_GETRF_BATCHED, getrfBatched, )

#define GPUSYM_CUBLAS_GEQRF_BATCHED(name, hip, T)                                                              \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, int m, int n, T *const Aarray[], int lda, T *const TauArray[], int *info, \
                 int batchSize),                                                                               \
                (handle, m, n, Aarray, lda, TauArray, info, batchSize))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_GEQRF_BATCHED, geqrfBatched, )

#define GPUSYM_CUBLAS_GELS_BATCHED(name, hip, T)                                                               \
  GPUSYM_CUBLAS(name, hip,                                                                                     \
                (cublasHandle_t handle, cublasOperation_t trans, int m, int n, int nrhs, T *const Aarray[],      \
                 int lda, T *const Carray[], int ldc, int *info, int *devInfoArray, int batchSize),             \
                (handle, trans, m, n, nrhs, Aarray, lda, Carray, ldc, info, devInfoArray, batchSize))
GPUSYM_CUBLAS_SDCZ(GPUSYM_CUBLAS_GELS_BATCHED, gelsBatched, )

#define GPUSYM_CUBLAS_HALF(M, op) M(cublasH##op, hipblasH##op, __half)
GPUSYM_CUBLAS_HALF(GPUSYM_CUBLAS_GEMM, gemm)
GPUSYM_CUBLAS_HALF(GPUSYM_CUBLAS_GEMM_BATCHED, gemmBatched)
GPUSYM_CUBLAS_HALF(GPUSYM_CUBLAS_GEMM_STRIDED, gemmStridedBatched)

#undef GPUSYM_CUBLAS_SDCZ
#undef GPUSYM_CUBLAS_HALF
#undef GPUSYM_CUBLAS_AXPY
#undef GPUSYM_CUBLAS_SCAL
#undef GPUSYM_CUBLAS_SCAL_SAME
#undef GPUSYM_CUBLAS_COPY
#undef GPUSYM_CUBLAS_SWAP
#undef GPUSYM_CUBLAS_DOT
#undef GPUSYM_CUBLAS_REDUCE
#undef GPUSYM_CUBLAS_REDUCTIONS
#undef GPUSYM_CUBLAS_ROT
#undef GPUSYM_CUBLAS_ROTG
#undef GPUSYM_CUBLAS_GEMV
#undef GPUSYM_CUBLAS_GER
#undef GPUSYM_CUBLAS_SYMV
#undef GPUSYM_CUBLAS_TRIANGULAR_V
#undef GPUSYM_CUBLAS_GEMM
#undef GPUSYM_CUBLAS_GEMM_BATCHED
#undef GPUSYM_CUBLAS_GEMM_STRIDED
#undef GPUSYM_CUBLAS_SYMM
#undef GPUSYM_CUBLAS_SYRK
#undef GPUSYM_CUBLAS_SYRK_SAME
#undef GPUSYM_CUBLAS_TRSM
#undef GPUSYM_CUBLAS_TRMM
#undef GPUSYM_CUBLAS_GEAM
#undef GPUSYM_CUBLAS_GETRF_BATCHED
#undef GPUSYM_CUBLAS_GEQRF_BATCHED
#undef GPUSYM_CUBLAS_GELS_BATCHED
