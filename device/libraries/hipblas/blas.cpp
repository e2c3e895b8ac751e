// hipBLAS levels 1 to 3 over OpenBLAS: each call checks its arguments, takes
// its host scalars now and queues the computation on the handle's stream.
// Complex entry points (hipblasComplex, and HIP's types in the _v2 forms)
// share one implementation per precision.
#include <algorithm>
#include <vector>

#include "cblas_calls.h"

using namespace gpusym_hipblas;
namespace cb = gpusym_hipblas::cblas;

namespace {

constexpr hipblasStatus_t kSuccess = HIPBLAS_STATUS_SUCCESS;
constexpr hipblasStatus_t kInvalid = HIPBLAS_STATUS_INVALID_VALUE;

bool valid_op(hipblasOperation_t o) { return o == HIPBLAS_OP_N || o == HIPBLAS_OP_T || o == HIPBLAS_OP_C; }

// ---- level 1 ----

template <class T> hipblasStatus_t axpy(hipblasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return kSuccess;
  if (!alpha || !x || !y) return kInvalid;
  Scalar<T> a(handle, alpha);
  return enqueue(handle, [=] { cb::axpy(n, a(), x, incx, y, incy); });
}

template <class T, class S> hipblasStatus_t scal(hipblasHandle_t h, int n, const S *alpha, T *x, int incx) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0 || incx <= 0) return kSuccess;
  if (!alpha || !x) return kInvalid;
  Scalar<S> a(handle, alpha);
  return enqueue(handle, [=] { cb::scal<T>(n, T(a()), x, incx); });
}

template <class T> hipblasStatus_t copy(hipblasHandle_t h, int n, const T *x, int incx, T *y, int incy) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return kSuccess;
  if (!x || !y) return kInvalid;
  return enqueue(handle, [=] { cb::copy(n, x, incx, y, incy); });
}

template <class T> hipblasStatus_t swap(hipblasHandle_t h, int n, T *x, int incx, T *y, int incy) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return kSuccess;
  if (!x || !y) return kInvalid;
  return enqueue(handle, [=] { cb::swap(n, x, incx, y, incy); });
}

// A reduction: `compute` gives the value stored at `result`, 0 for n <= 0.
template <class R, class F> hipblasStatus_t reduce(hipblasHandle_t h, int n, const void *x, R *result, F compute) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!result || (n > 0 && !x)) return kInvalid;
  return with_result(handle, result, [=] { return n > 0 ? compute() : R{}; });
}

template <class T>
hipblasStatus_t dot(hipblasHandle_t h, int n, const T *x, int incx, const T *y, int incy, T *result, bool conjugate) {
  if (n > 0 && !y) return kInvalid;
  return reduce(h, n, x, result, [=] { return cb::dot(n, x, incx, y, incy, conjugate); });
}

template <class T, class R> hipblasStatus_t nrm2(hipblasHandle_t h, int n, const T *x, int incx, R *result) {
  return reduce(h, n, x, result, [=] { return incx > 0 ? cb::nrm2(n, x, incx) : R{}; });
}

template <class T, class R> hipblasStatus_t asum(hipblasHandle_t h, int n, const T *x, int incx, R *result) {
  return reduce(h, n, x, result, [=] { return incx > 0 ? cb::asum(n, x, incx) : R{}; });
}

template <class T> hipblasStatus_t iamax(hipblasHandle_t h, int n, const T *x, int incx, int *result) {
  return reduce(h, n, x, result, [=] { return cb::iamax(n, x, incx); });
}

template <class T> hipblasStatus_t iamin(hipblasHandle_t h, int n, const T *x, int incx, int *result) {
  return reduce(h, n, x, result, [=] { return cb::iamin(n, x, incx); });
}

template <class T, class R>
hipblasStatus_t rot(hipblasHandle_t h, int n, T *x, int incx, T *y, int incy, const R *c, const R *s) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n <= 0) return kSuccess;
  if (!x || !y || !c || !s) return kInvalid;
  Scalar<R> cv(handle, c), sv(handle, s);
  return enqueue(handle, [=] { cb::rot(n, x, incx, y, incy, cv(), sv()); });
}

template <class T> hipblasStatus_t rotg(hipblasHandle_t h, T *a, T *b, T *c, T *s) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!a || !b || !c || !s) return kInvalid;
  // In host pointer mode all four are the caller's: the call waits for them.
  return with_result(handle, c, [=] {
    T cv;
    if constexpr (std::is_same_v<T, float>)
      cblas_srotg(a, b, &cv, s);
    else
      cblas_drotg(a, b, &cv, s);
    return cv;
  });
}

// ---- level 2 ----

template <class T>
hipblasStatus_t gemv(hipblasHandle_t h, hipblasOperation_t trans, int m, int n, const T *alpha, const T *A, int lda,
                     const T *x, int incx, const T *beta, T *y, int incy) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(trans)) return HIPBLAS_STATUS_INVALID_ENUM;
  if (m < 0 || n < 0 || lda < std::max(1, m) || incx == 0 || incy == 0) return kInvalid;
  if (m == 0 || n == 0) return kSuccess;
  if (!alpha || !beta || !A || !x || !y) return kInvalid;
  Scalar<T> a(handle, alpha), b(handle, beta);
  return enqueue(handle, [=] { cb::gemv(trans, m, n, a(), A, lda, x, incx, b(), y, incy); });
}

template <class T>
hipblasStatus_t ger(hipblasHandle_t h, int m, int n, const T *alpha, const T *x, int incx, const T *y, int incy, T *A,
                    int lda, bool conjugate) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || lda < std::max(1, m) || incx == 0 || incy == 0) return kInvalid;
  if (m == 0 || n == 0) return kSuccess;
  if (!alpha || !A || !x || !y) return kInvalid;
  Scalar<T> a(handle, alpha);
  return enqueue(handle, [=] { cb::ger(m, n, a(), x, incx, y, incy, A, lda, conjugate); });
}

template <class T>
hipblasStatus_t symv(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const T *alpha, const T *A, int lda, const T *x,
                     int incx, const T *beta, T *y, int incy) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n < 0 || lda < std::max(1, n) || incx == 0 || incy == 0) return kInvalid;
  if (n == 0) return kSuccess;
  if (!alpha || !beta || !A || !x || !y) return kInvalid;
  Scalar<T> a(handle, alpha), b(handle, beta);
  return enqueue(handle, [=] { cb::symv(uplo, n, a(), A, lda, x, incx, b(), y, incy); });
}

template <class T>
hipblasStatus_t triangular_v(hipblasHandle_t h, hipblasFillMode_t uplo, hipblasOperation_t trans,
                             hipblasDiagType_t diag, int n, const T *A, int lda, T *x, int incx, bool solve) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(trans)) return HIPBLAS_STATUS_INVALID_ENUM;
  if (n < 0 || lda < std::max(1, n) || incx == 0) return kInvalid;
  if (n == 0) return kSuccess;
  if (!A || !x) return kInvalid;
  return enqueue(handle, [=] {
    if (solve)
      cb::trsv(uplo, trans, diag, n, A, lda, x, incx);
    else
      cb::trmv(uplo, trans, diag, n, A, lda, x, incx);
  });
}

// ---- level 3 ----

// Rows and columns of op(X) for an m x n result: A is m x k, B is k x n.
int rows_of(hipblasOperation_t trans, int rows, int cols) { return trans == HIPBLAS_OP_N ? rows : cols; }

bool gemm_arguments_valid(hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k, int lda, int ldb,
                          int ldc) {
  return m >= 0 && n >= 0 && k >= 0 && lda >= std::max(1, rows_of(ta, m, k)) &&
         ldb >= std::max(1, rows_of(tb, k, n)) && ldc >= std::max(1, m);
}

// gemm over `count` problems, the i-th's matrices given by `matrices(i)`.
template <class T, class M>
hipblasStatus_t gemm_each(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                          const T *alpha, int lda, int ldb, const T *beta, int ldc, int count, M matrices) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(ta) || !valid_op(tb)) return HIPBLAS_STATUS_INVALID_ENUM;
  if (!gemm_arguments_valid(ta, tb, m, n, k, lda, ldb, ldc) || count < 0) return kInvalid;
  if (m == 0 || n == 0 || count == 0) return kSuccess;
  if (!alpha || !beta) return kInvalid;
  Scalar<T> a(handle, alpha), b(handle, beta);
  return enqueue(handle, [=] {
    for (int i = 0; i < count; i++) {
      auto [A, B, Cm] = matrices(i);
      cb::gemm(ta, tb, m, n, k, a(), A, lda, B, ldb, b(), Cm, ldc);
    }
  });
}

template <class T>
hipblasStatus_t gemm(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                     const T *alpha, const T *A, int lda, const T *B, int ldb, const T *beta, T *Cm, int ldc) {
  if ((!A && k > 0) || (!B && k > 0) || !Cm) return m == 0 || n == 0 ? kSuccess : kInvalid;
  return gemm_each(h, ta, tb, m, n, k, alpha, lda, ldb, beta, ldc, 1,
                   [=](int) { return std::tuple(A, B, Cm); });
}

template <class T>
hipblasStatus_t gemm_batched(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                             const T *alpha, const T *const A[], int lda, const T *const B[], int ldb, const T *beta,
                             T *const Cm[], int ldc, int count) {
  if (count > 0 && (!A || !B || !Cm)) return kInvalid;
  return gemm_each(h, ta, tb, m, n, k, alpha, lda, ldb, beta, ldc, count,
                   [=](int i) { return std::tuple(A[i], B[i], Cm[i]); });
}

template <class T>
hipblasStatus_t gemm_strided(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                             const T *alpha, const T *A, int lda, long long sa, const T *B, int ldb, long long sb,
                             const T *beta, T *Cm, int ldc, long long sc, int count) {
  if (count > 0 && (!A || !B || !Cm)) return kInvalid;
  return gemm_each(h, ta, tb, m, n, k, alpha, lda, ldb, beta, ldc, count,
                   [=](int i) { return std::tuple(A + i * sa, B + i * sb, Cm + i * sc); });
}

template <class T>
hipblasStatus_t symm(hipblasHandle_t h, hipblasSideMode_t side, hipblasFillMode_t uplo, int m, int n, const T *alpha,
                     const T *A, int lda, const T *B, int ldb, const T *beta, T *Cm, int ldc) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  int ka = side == HIPBLAS_SIDE_LEFT ? m : n;
  if (m < 0 || n < 0 || lda < std::max(1, ka) || ldb < std::max(1, m) || ldc < std::max(1, m)) return kInvalid;
  if (m == 0 || n == 0) return kSuccess;
  if (!alpha || !beta || !A || !B || !Cm) return kInvalid;
  Scalar<T> a(handle, alpha), b(handle, beta);
  return enqueue(handle, [=] { cb::symm(side, uplo, m, n, a(), A, lda, B, ldb, b(), Cm, ldc); });
}

template <class T, class S>
hipblasStatus_t syrk(hipblasHandle_t h, hipblasFillMode_t uplo, hipblasOperation_t trans, int n, int k, const S *alpha,
                     const T *A, int lda, const S *beta, T *Cm, int ldc) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n < 0 || k < 0 || lda < std::max(1, rows_of(trans, n, k)) || ldc < std::max(1, n)) return kInvalid;
  if (n == 0) return kSuccess;
  if (!alpha || !beta || !A || !Cm) return kInvalid;
  Scalar<S> a(handle, alpha), b(handle, beta);
  return enqueue(handle, [=] {
    if constexpr (std::is_same_v<T, S>)
      cb::syrk(uplo, trans, n, k, a(), A, lda, b(), Cm, ldc);
    else
      cb::herk(uplo, trans, n, k, a(), A, lda, b(), Cm, ldc);
  });
}

template <class T>
hipblasStatus_t trsm(hipblasHandle_t h, hipblasSideMode_t side, hipblasFillMode_t uplo, hipblasOperation_t trans,
                     hipblasDiagType_t diag, int m, int n, const T *alpha, const T *A, int lda, T *B, int ldb) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  int ka = side == HIPBLAS_SIDE_LEFT ? m : n;
  if (m < 0 || n < 0 || lda < std::max(1, ka) || ldb < std::max(1, m)) return kInvalid;
  if (m == 0 || n == 0) return kSuccess;
  if (!alpha || !A || !B) return kInvalid;
  Scalar<T> a(handle, alpha);
  return enqueue(handle, [=] { cb::trsm(side, uplo, trans, diag, m, n, a(), A, lda, B, ldb); });
}

// hipBLAS's trmm writes C = alpha op(A) B, leaving B as it is unless C is B.
template <class T>
hipblasStatus_t trmm(hipblasHandle_t h, hipblasSideMode_t side, hipblasFillMode_t uplo, hipblasOperation_t trans,
                     hipblasDiagType_t diag, int m, int n, const T *alpha, const T *A, int lda, const T *B, int ldb,
                     T *Cm, int ldc) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  int ka = side == HIPBLAS_SIDE_LEFT ? m : n;
  if (m < 0 || n < 0 || lda < std::max(1, ka) || ldb < std::max(1, m) || ldc < std::max(1, m)) return kInvalid;
  if (m == 0 || n == 0) return kSuccess;
  if (!alpha || !A || !B || !Cm) return kInvalid;
  Scalar<T> a(handle, alpha);
  return enqueue(handle, [=] {
    if (Cm != B)
      for (int j = 0; j < n; j++) std::copy(B + size_t(j) * ldb, B + size_t(j) * ldb + m, Cm + size_t(j) * ldc);
    cb::trmm(side, uplo, trans, diag, m, n, a(), A, lda, Cm, ldc);
  });
}

// C = alpha op(A) + beta op(B), element by element.
template <class T>
hipblasStatus_t geam(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, const T *alpha,
                     const T *A, int lda, const T *beta, const T *B, int ldb, T *Cm, int ldc) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!valid_op(ta) || !valid_op(tb)) return HIPBLAS_STATUS_INVALID_ENUM;
  if (m < 0 || n < 0 || lda < std::max(1, rows_of(ta, m, n)) || ldb < std::max(1, rows_of(tb, m, n)) ||
      ldc < std::max(1, m))
    return kInvalid;
  if (m == 0 || n == 0) return kSuccess;
  if (!alpha || !beta || !A || !B || !Cm) return kInvalid;
  Scalar<T> a(handle, alpha), b(handle, beta);
  return enqueue(handle, [=] {
    auto element = [](hipblasOperation_t t, const T *X, int ld, int i, int j) {
      if (t == HIPBLAS_OP_N) return X[i + size_t(j) * ld];
      T v = X[j + size_t(i) * ld];
      if constexpr (is_complex<T>)
        if (t == HIPBLAS_OP_C) return std::conj(v);
      return v;
    };
    // Gathered first: C may be A or B.
    std::vector<T> out(size_t(m) * n);
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++)
        out[i + size_t(j) * m] = a() * element(ta, A, lda, i, j) + b() * element(tb, B, ldb, i, j);
    for (int j = 0; j < n; j++) std::copy(&out[size_t(j) * m], &out[size_t(j) * m] + m, Cm + size_t(j) * ldc);
  });
}

}  // namespace

// The entry points, one macro per signature, expanded for each precision.

extern "C" {

#define AXPY(name, T)                                                                         \
  hipblasStatus_t name(hipblasHandle_t h, int n, const T *alpha, const T *x, int incx, T *y, int incy) { \
    return axpy(h, n, in(alpha), in(x), incx, in(y), incy);                                   \
  }
GPUSYM_SDCZ(AXPY, axpy)

#define SCAL(name, T, S) \
  hipblasStatus_t name(hipblasHandle_t h, int n, const S *alpha, T *x, int incx) { return scal(h, n, in(alpha), in(x), incx); }
#define SCAL_SAME(name, T) SCAL(name, T, T)
GPUSYM_SDCZ(SCAL_SAME, scal)
SCAL(hipblasCsscal, hipblasComplex, float)
SCAL(hipblasZdscal, hipblasDoubleComplex, double)
SCAL(hipblasCsscal_v2, hipComplex, float)
SCAL(hipblasZdscal_v2, hipDoubleComplex, double)

#define COPY(name, T) \
  hipblasStatus_t name(hipblasHandle_t h, int n, const T *x, int incx, T *y, int incy) { return copy(h, n, in(x), incx, in(y), incy); }
GPUSYM_SDCZ(COPY, copy)

#define SWAP(name, T) \
  hipblasStatus_t name(hipblasHandle_t h, int n, T *x, int incx, T *y, int incy) { return swap(h, n, in(x), incx, in(y), incy); }
GPUSYM_SDCZ(SWAP, swap)

#define DOT(name, T, conjugate)                                                                   \
  hipblasStatus_t name(hipblasHandle_t h, int n, const T *x, int incx, const T *y, int incy, T *result) { \
    return dot(h, n, in(x), incx, in(y), incy, in(result), conjugate);                            \
  }
DOT(hipblasSdot, float, false)
DOT(hipblasDdot, double, false)
#define DOTU(name, T) DOT(name, T, false)
#define DOTC(name, T) DOT(name, T, true)
GPUSYM_CZ(DOTU, dotu)
GPUSYM_CZ(DOTC, dotc)

#define REAL_RESULT(name, T, R, function) \
  hipblasStatus_t name(hipblasHandle_t h, int n, const T *x, int incx, R *result) { return function(h, n, in(x), incx, result); }
REAL_RESULT(hipblasSnrm2, float, float, nrm2)
REAL_RESULT(hipblasDnrm2, double, double, nrm2)
REAL_RESULT(hipblasScnrm2, hipblasComplex, float, nrm2)
REAL_RESULT(hipblasDznrm2, hipblasDoubleComplex, double, nrm2)
REAL_RESULT(hipblasScnrm2_v2, hipComplex, float, nrm2)
REAL_RESULT(hipblasDznrm2_v2, hipDoubleComplex, double, nrm2)
REAL_RESULT(hipblasSasum, float, float, asum)
REAL_RESULT(hipblasDasum, double, double, asum)
REAL_RESULT(hipblasScasum, hipblasComplex, float, asum)
REAL_RESULT(hipblasDzasum, hipblasDoubleComplex, double, asum)
REAL_RESULT(hipblasScasum_v2, hipComplex, float, asum)
REAL_RESULT(hipblasDzasum_v2, hipDoubleComplex, double, asum)
#define INDEX_RESULTS(op)                                                                                         \
  REAL_RESULT(hipblasIs##op, float, int, i##op) REAL_RESULT(hipblasId##op, double, int, i##op)                  \
  REAL_RESULT(hipblasIc##op, hipblasComplex, int, i##op) REAL_RESULT(hipblasIz##op, hipblasDoubleComplex, int, i##op) \
  REAL_RESULT(hipblasIc##op##_v2, hipComplex, int, i##op) REAL_RESULT(hipblasIz##op##_v2, hipDoubleComplex, int, i##op)
INDEX_RESULTS(amax)
INDEX_RESULTS(amin)

#define ROT(name, T, R)                                                                                 \
  hipblasStatus_t name(hipblasHandle_t h, int n, T *x, int incx, T *y, int incy, const R *c, const R *s) { \
    return rot(h, n, in(x), incx, in(y), incy, c, s);                                                   \
  }
ROT(hipblasSrot, float, float)
ROT(hipblasDrot, double, double)
ROT(hipblasCsrot, hipblasComplex, float)
ROT(hipblasZdrot, hipblasDoubleComplex, double)
ROT(hipblasCsrot_v2, hipComplex, float)
ROT(hipblasZdrot_v2, hipDoubleComplex, double)

hipblasStatus_t hipblasSrotg(hipblasHandle_t h, float *a, float *b, float *c, float *s) { return rotg(h, a, b, c, s); }
hipblasStatus_t hipblasDrotg(hipblasHandle_t h, double *a, double *b, double *c, double *s) { return rotg(h, a, b, c, s); }

#define GEMV(name, T)                                                                                          \
  hipblasStatus_t name(hipblasHandle_t h, hipblasOperation_t trans, int m, int n, const T *alpha, const T *A, int lda, \
                       const T *x, int incx, const T *beta, T *y, int incy) {                                  \
    return gemv(h, trans, m, n, in(alpha), in(A), lda, in(x), incx, in(beta), in(y), incy);                    \
  }
GPUSYM_SDCZ(GEMV, gemv)

#define GER(name, T, conjugate)                                                                               \
  hipblasStatus_t name(hipblasHandle_t h, int m, int n, const T *alpha, const T *x, int incx, const T *y, int incy, \
                       T *A, int lda) {                                                                       \
    return ger(h, m, n, in(alpha), in(x), incx, in(y), incy, in(A), lda, conjugate);                          \
  }
GER(hipblasSger, float, false)
GER(hipblasDger, double, false)
#define GERU(name, T) GER(name, T, false)
#define GERC(name, T) GER(name, T, true)
GPUSYM_CZ(GERU, geru)
GPUSYM_CZ(GERC, gerc)

#define SYMV(name, T)                                                                                            \
  hipblasStatus_t name(hipblasHandle_t h, hipblasFillMode_t uplo, int n, const T *alpha, const T *A, int lda,      \
                       const T *x, int incx, const T *beta, T *y, int incy) {                                    \
    return symv(h, uplo, n, in(alpha), in(A), lda, in(x), incx, in(beta), in(y), incy);                          \
  }
SYMV(hipblasSsymv, float)
SYMV(hipblasDsymv, double)
GPUSYM_CZ(SYMV, hemv)

#define TRIANGULAR_V(name, T, solve)                                                                         \
  hipblasStatus_t name(hipblasHandle_t h, hipblasFillMode_t uplo, hipblasOperation_t trans, hipblasDiagType_t diag, \
                       int n, const T *A, int lda, T *x, int incx) {                                         \
    return triangular_v(h, uplo, trans, diag, n, in(A), lda, in(x), incx, solve);                           \
  }
#define TRSV(name, T) TRIANGULAR_V(name, T, true)
#define TRMV(name, T) TRIANGULAR_V(name, T, false)
GPUSYM_SDCZ(TRSV, trsv)
GPUSYM_SDCZ(TRMV, trmv)

#define GEMM(name, T)                                                                                       \
  hipblasStatus_t name(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k, \
                       const T *alpha, const T *A, int lda, const T *B, int ldb, const T *beta, T *C, int ldc) { \
    return gemm(h, ta, tb, m, n, k, in(alpha), in(A), lda, in(B), ldb, in(beta), in(C), ldc);               \
  }
GPUSYM_SDCZ(GEMM, gemm)

#define GEMM_BATCHED(name, T)                                                                                 \
  hipblasStatus_t name(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,   \
                       const T *alpha, const T *const A[], int lda, const T *const B[], int ldb, const T *beta, \
                       T *const C[], int ldc, int count) {                                                    \
    return gemm_batched(h, ta, tb, m, n, k, in(alpha), in(A), lda, in(B), ldb, in(beta), in(C), ldc, count);  \
  }
GPUSYM_SDCZ(GEMM_BATCHED, gemmBatched)

#define GEMM_STRIDED(name, T)                                                                                  \
  hipblasStatus_t name(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,    \
                       const T *alpha, const T *A, int lda, long long sa, const T *B, int ldb, long long sb,    \
                       const T *beta, T *C, int ldc, long long sc, int count) {                                 \
    return gemm_strided(h, ta, tb, m, n, k, in(alpha), in(A), lda, sa, in(B), ldb, sb, in(beta), in(C), ldc, sc, \
                        count);                                                                                 \
  }
GPUSYM_SDCZ(GEMM_STRIDED, gemmStridedBatched)

#define SYMM(name, T)                                                                                             \
  hipblasStatus_t name(hipblasHandle_t h, hipblasSideMode_t side, hipblasFillMode_t uplo, int m, int n,            \
                       const T *alpha, const T *A, int lda, const T *B, int ldb, const T *beta, T *C, int ldc) {   \
    return symm(h, side, uplo, m, n, in(alpha), in(A), lda, in(B), ldb, in(beta), in(C), ldc);                    \
  }
GPUSYM_SDCZ(SYMM, symm)

#define SYRK(name, T, S)                                                                                      \
  hipblasStatus_t name(hipblasHandle_t h, hipblasFillMode_t uplo, hipblasOperation_t trans, int n, int k,       \
                       const S *alpha, const T *A, int lda, const S *beta, T *C, int ldc) {                    \
    return syrk(h, uplo, trans, n, k, in(alpha), in(A), lda, in(beta), in(C), ldc);                            \
  }
#define SYRK_SAME(name, T) SYRK(name, T, T)
GPUSYM_SDCZ(SYRK_SAME, syrk)
SYRK(hipblasCherk, hipblasComplex, float)
SYRK(hipblasZherk, hipblasDoubleComplex, double)
SYRK(hipblasCherk_v2, hipComplex, float)
SYRK(hipblasZherk_v2, hipDoubleComplex, double)

#define TRSM(name, T)                                                                                          \
  hipblasStatus_t name(hipblasHandle_t h, hipblasSideMode_t side, hipblasFillMode_t uplo, hipblasOperation_t trans, \
                       hipblasDiagType_t diag, int m, int n, const T *alpha, const T *A, int lda, T *B, int ldb) {  \
    return trsm(h, side, uplo, trans, diag, m, n, in(alpha), in(A), lda, in(B), ldb);                          \
  }
GPUSYM_SDCZ(TRSM, trsm)

#define TRMM(name, T)                                                                                          \
  hipblasStatus_t name(hipblasHandle_t h, hipblasSideMode_t side, hipblasFillMode_t uplo, hipblasOperation_t trans, \
                       hipblasDiagType_t diag, int m, int n, const T *alpha, const T *A, int lda, const T *B, int ldb, \
                       T *C, int ldc) {                                                                        \
    return trmm(h, side, uplo, trans, diag, m, n, in(alpha), in(A), lda, in(B), ldb, in(C), ldc);              \
  }
GPUSYM_SDCZ(TRMM, trmm)

#define GEAM(name, T)                                                                                          \
  hipblasStatus_t name(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n,           \
                       const T *alpha, const T *A, int lda, const T *beta, const T *B, int ldb, T *C, int ldc) { \
    return geam(h, ta, tb, m, n, in(alpha), in(A), lda, in(beta), in(B), ldb, in(C), ldc);                     \
  }
GPUSYM_SDCZ(GEAM, geam)

}  // extern "C"
