// OpenBLAS's CBLAS, one overload set for float, double, std::complex<float>
// and std::complex<double>, column-major, with hipBLAS's enumerations.
#pragma once

#include <cblas.h>

#include <complex>
#include <type_traits>

#include "hipblas_internal.h"

namespace gpusym_hipblas::cblas {

template <class T> using Real = typename Real<T>::type;
using C = std::complex<float>;
using Z = std::complex<double>;

// hipBLAS's operation, fill, diagonal and side values are CBLAS's.
inline CBLAS_TRANSPOSE op(hipblasOperation_t o) { return static_cast<CBLAS_TRANSPOSE>(o); }
inline CBLAS_UPLO uplo(hipblasFillMode_t f) { return static_cast<CBLAS_UPLO>(f); }
inline CBLAS_DIAG diag(hipblasDiagType_t d) { return static_cast<CBLAS_DIAG>(d); }
inline CBLAS_SIDE side(hipblasSideMode_t s) { return static_cast<CBLAS_SIDE>(s); }
constexpr CBLAS_ORDER kCol = CblasColMajor;

// One function per precision, chosen by T: f(s, d, c, z).
#define GPUSYM_CBLAS_PICK(T, s, d, c, z) \
  if constexpr (std::is_same_v<T, float>) s; else if constexpr (std::is_same_v<T, double>) d; else if constexpr (std::is_same_v<T, C>) c; else z

template <class T> void axpy(int n, T a, const T *x, int incx, T *y, int incy) {
  GPUSYM_CBLAS_PICK(T, cblas_saxpy(n, a, x, incx, y, incy), cblas_daxpy(n, a, x, incx, y, incy),
                    cblas_caxpy(n, &a, x, incx, y, incy), cblas_zaxpy(n, &a, x, incx, y, incy));
}
template <class T> void scal(int n, T a, T *x, int incx) {
  GPUSYM_CBLAS_PICK(T, cblas_sscal(n, a, x, incx), cblas_dscal(n, a, x, incx), cblas_cscal(n, &a, x, incx),
                    cblas_zscal(n, &a, x, incx));
}
template <class T> void copy(int n, const T *x, int incx, T *y, int incy) {
  GPUSYM_CBLAS_PICK(T, cblas_scopy(n, x, incx, y, incy), cblas_dcopy(n, x, incx, y, incy),
                    cblas_ccopy(n, x, incx, y, incy), cblas_zcopy(n, x, incx, y, incy));
}
template <class T> void swap(int n, T *x, int incx, T *y, int incy) {
  GPUSYM_CBLAS_PICK(T, cblas_sswap(n, x, incx, y, incy), cblas_dswap(n, x, incx, y, incy),
                    cblas_cswap(n, x, incx, y, incy), cblas_zswap(n, x, incx, y, incy));
}
template <class T> T dot(int n, const T *x, int incx, const T *y, int incy, bool conjugate) {
  T r{};
  GPUSYM_CBLAS_PICK(T, r = cblas_sdot(n, x, incx, y, incy), r = cblas_ddot(n, x, incx, y, incy),
                    conjugate ? cblas_cdotc_sub(n, x, incx, y, incy, &r) : cblas_cdotu_sub(n, x, incx, y, incy, &r),
                    conjugate ? cblas_zdotc_sub(n, x, incx, y, incy, &r) : cblas_zdotu_sub(n, x, incx, y, incy, &r));
  return r;
}
template <class T> Real<T> nrm2(int n, const T *x, int incx) {
  GPUSYM_CBLAS_PICK(T, return cblas_snrm2(n, x, incx), return cblas_dnrm2(n, x, incx), return cblas_scnrm2(n, x, incx),
                    return cblas_dznrm2(n, x, incx));
}
template <class T> Real<T> asum(int n, const T *x, int incx) {
  GPUSYM_CBLAS_PICK(T, return cblas_sasum(n, x, incx), return cblas_dasum(n, x, incx), return cblas_scasum(n, x, incx),
                    return cblas_dzasum(n, x, incx));
}
// 1-based, as hipBLAS answers; 0 for an empty vector.
template <class T> int iamax(int n, const T *x, int incx) {
  if (n <= 0 || incx <= 0) return 0;
  GPUSYM_CBLAS_PICK(T, return int(cblas_isamax(n, x, incx)) + 1, return int(cblas_idamax(n, x, incx)) + 1,
                    return int(cblas_icamax(n, x, incx)) + 1, return int(cblas_izamax(n, x, incx)) + 1);
}
template <class T> int iamin(int n, const T *x, int incx) {
  if (n <= 0 || incx <= 0) return 0;
  GPUSYM_CBLAS_PICK(T, return int(cblas_isamin(n, x, incx)) + 1, return int(cblas_idamin(n, x, incx)) + 1,
                    return int(cblas_icamin(n, x, incx)) + 1, return int(cblas_izamin(n, x, incx)) + 1);
}
template <class T> void rot(int n, T *x, int incx, T *y, int incy, Real<T> c, Real<T> s) {
  GPUSYM_CBLAS_PICK(T, cblas_srot(n, x, incx, y, incy, c, s), cblas_drot(n, x, incx, y, incy, c, s),
                    cblas_csrot(n, x, incx, y, incy, c, s), cblas_zdrot(n, x, incx, y, incy, c, s));
}

template <class T>
void gemv(hipblasOperation_t t, int m, int n, T a, const T *A, int lda, const T *x, int incx, T b, T *y, int incy) {
  GPUSYM_CBLAS_PICK(T, cblas_sgemv(kCol, op(t), m, n, a, A, lda, x, incx, b, y, incy),
                    cblas_dgemv(kCol, op(t), m, n, a, A, lda, x, incx, b, y, incy),
                    cblas_cgemv(kCol, op(t), m, n, &a, A, lda, x, incx, &b, y, incy),
                    cblas_zgemv(kCol, op(t), m, n, &a, A, lda, x, incx, &b, y, incy));
}
template <class T>
void ger(int m, int n, T a, const T *x, int incx, const T *y, int incy, T *A, int lda, bool conjugate) {
  GPUSYM_CBLAS_PICK(T, cblas_sger(kCol, m, n, a, x, incx, y, incy, A, lda),
                    cblas_dger(kCol, m, n, a, x, incx, y, incy, A, lda),
                    conjugate ? cblas_cgerc(kCol, m, n, &a, x, incx, y, incy, A, lda)
                              : cblas_cgeru(kCol, m, n, &a, x, incx, y, incy, A, lda),
                    conjugate ? cblas_zgerc(kCol, m, n, &a, x, incx, y, incy, A, lda)
                              : cblas_zgeru(kCol, m, n, &a, x, incx, y, incy, A, lda));
}
// symv for real types, hemv for complex ones.
template <class T>
void symv(hipblasFillMode_t f, int n, T a, const T *A, int lda, const T *x, int incx, T b, T *y, int incy) {
  GPUSYM_CBLAS_PICK(T, cblas_ssymv(kCol, uplo(f), n, a, A, lda, x, incx, b, y, incy),
                    cblas_dsymv(kCol, uplo(f), n, a, A, lda, x, incx, b, y, incy),
                    cblas_chemv(kCol, uplo(f), n, &a, A, lda, x, incx, &b, y, incy),
                    cblas_zhemv(kCol, uplo(f), n, &a, A, lda, x, incx, &b, y, incy));
}
template <class T>
void trmv(hipblasFillMode_t f, hipblasOperation_t t, hipblasDiagType_t d, int n, const T *A, int lda, T *x, int incx) {
  GPUSYM_CBLAS_PICK(T, cblas_strmv(kCol, uplo(f), op(t), diag(d), n, A, lda, x, incx),
                    cblas_dtrmv(kCol, uplo(f), op(t), diag(d), n, A, lda, x, incx),
                    cblas_ctrmv(kCol, uplo(f), op(t), diag(d), n, A, lda, x, incx),
                    cblas_ztrmv(kCol, uplo(f), op(t), diag(d), n, A, lda, x, incx));
}
template <class T>
void trsv(hipblasFillMode_t f, hipblasOperation_t t, hipblasDiagType_t d, int n, const T *A, int lda, T *x, int incx) {
  GPUSYM_CBLAS_PICK(T, cblas_strsv(kCol, uplo(f), op(t), diag(d), n, A, lda, x, incx),
                    cblas_dtrsv(kCol, uplo(f), op(t), diag(d), n, A, lda, x, incx),
                    cblas_ctrsv(kCol, uplo(f), op(t), diag(d), n, A, lda, x, incx),
                    cblas_ztrsv(kCol, uplo(f), op(t), diag(d), n, A, lda, x, incx));
}

template <class T>
void gemm(hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k, T a, const T *A, int lda, const T *B,
          int ldb, T b, T *Cm, int ldc) {
  GPUSYM_CBLAS_PICK(T, cblas_sgemm(kCol, op(ta), op(tb), m, n, k, a, A, lda, B, ldb, b, Cm, ldc),
                    cblas_dgemm(kCol, op(ta), op(tb), m, n, k, a, A, lda, B, ldb, b, Cm, ldc),
                    cblas_cgemm(kCol, op(ta), op(tb), m, n, k, &a, A, lda, B, ldb, &b, Cm, ldc),
                    cblas_zgemm(kCol, op(ta), op(tb), m, n, k, &a, A, lda, B, ldb, &b, Cm, ldc));
}
template <class T>
void symm(hipblasSideMode_t s, hipblasFillMode_t f, int m, int n, T a, const T *A, int lda, const T *B, int ldb, T b,
          T *Cm, int ldc) {
  GPUSYM_CBLAS_PICK(T, cblas_ssymm(kCol, side(s), uplo(f), m, n, a, A, lda, B, ldb, b, Cm, ldc),
                    cblas_dsymm(kCol, side(s), uplo(f), m, n, a, A, lda, B, ldb, b, Cm, ldc),
                    cblas_csymm(kCol, side(s), uplo(f), m, n, &a, A, lda, B, ldb, &b, Cm, ldc),
                    cblas_zsymm(kCol, side(s), uplo(f), m, n, &a, A, lda, B, ldb, &b, Cm, ldc));
}
template <class T>
void syrk(hipblasFillMode_t f, hipblasOperation_t t, int n, int k, T a, const T *A, int lda, T b, T *Cm, int ldc) {
  GPUSYM_CBLAS_PICK(T, cblas_ssyrk(kCol, uplo(f), op(t), n, k, a, A, lda, b, Cm, ldc),
                    cblas_dsyrk(kCol, uplo(f), op(t), n, k, a, A, lda, b, Cm, ldc),
                    cblas_csyrk(kCol, uplo(f), op(t), n, k, &a, A, lda, &b, Cm, ldc),
                    cblas_zsyrk(kCol, uplo(f), op(t), n, k, &a, A, lda, &b, Cm, ldc));
}
template <class T>
void herk(hipblasFillMode_t f, hipblasOperation_t t, int n, int k, Real<T> a, const T *A, int lda, Real<T> b, T *Cm,
          int ldc) {
  if constexpr (std::is_same_v<T, C>)
    cblas_cherk(kCol, uplo(f), op(t), n, k, a, A, lda, b, Cm, ldc);
  else
    cblas_zherk(kCol, uplo(f), op(t), n, k, a, A, lda, b, Cm, ldc);
}
template <class T>
void trsm(hipblasSideMode_t s, hipblasFillMode_t f, hipblasOperation_t t, hipblasDiagType_t d, int m, int n, T a,
          const T *A, int lda, T *B, int ldb) {
  GPUSYM_CBLAS_PICK(T, cblas_strsm(kCol, side(s), uplo(f), op(t), diag(d), m, n, a, A, lda, B, ldb),
                    cblas_dtrsm(kCol, side(s), uplo(f), op(t), diag(d), m, n, a, A, lda, B, ldb),
                    cblas_ctrsm(kCol, side(s), uplo(f), op(t), diag(d), m, n, &a, A, lda, B, ldb),
                    cblas_ztrsm(kCol, side(s), uplo(f), op(t), diag(d), m, n, &a, A, lda, B, ldb));
}
template <class T>
void trmm(hipblasSideMode_t s, hipblasFillMode_t f, hipblasOperation_t t, hipblasDiagType_t d, int m, int n, T a,
          const T *A, int lda, T *B, int ldb) {
  GPUSYM_CBLAS_PICK(T, cblas_strmm(kCol, side(s), uplo(f), op(t), diag(d), m, n, a, A, lda, B, ldb),
                    cblas_dtrmm(kCol, side(s), uplo(f), op(t), diag(d), m, n, a, A, lda, B, ldb),
                    cblas_ctrmm(kCol, side(s), uplo(f), op(t), diag(d), m, n, &a, A, lda, B, ldb),
                    cblas_ztrmm(kCol, side(s), uplo(f), op(t), diag(d), m, n, &a, A, lda, B, ldb));
}

#undef GPUSYM_CBLAS_PICK

}  // namespace gpusym_hipblas::cblas
