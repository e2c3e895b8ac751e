// hipBLAS's LAPACK-style solvers over OpenBLAS's LAPACK: LU factorization
// (getrf, with or without pivoting), solve (getrs) and out-of-place inverse
// (getri), QR factorization (geqrf) and least squares (gels), each single,
// batched and strided-batched, in stream order.  As in hipBLAS, getrf's and
// getri's info, and gels's deviceInfo, are one int a matrix in device
// memory, written by the computation; getrs's, geqrf's and gels's info is
// the host's, the check of the arguments, set before the call returns.
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <numeric>
#include <utility>
#include <vector>

#include "cblas_calls.h"
#include "lapack_calls.h"

using namespace gpusym_hipblas;
namespace cb = gpusym_hipblas::cblas;
namespace la = gpusym_hipblas::lapack;

namespace {

constexpr hipblasStatus_t kSuccess = HIPBLAS_STATUS_SUCCESS;
constexpr hipblasStatus_t kInvalid = HIPBLAS_STATUS_INVALID_VALUE;

// The matrices (or pivot or tau vectors) of a call: one, a batch's array of
// pointers, or a strided batch.  Each is null where the argument is.
template <class T> struct Matrices {
  T *base = nullptr;
  T *const *array = nullptr;
  int64_t stride = 0;

  bool null() const { return !base && !array; }
  T *operator[](int i) const { return array ? array[i] : base ? base + i * stride : nullptr; }
};
template <class T> Matrices<T> one(T *x) { return {x}; }
template <class T> Matrices<T> batch(T *const *x) { return {nullptr, x}; }
template <class T> Matrices<T> strided(T *x, int64_t stride) { return {x, nullptr, stride}; }

char trans_char(hipblasOperation_t trans) { return trans == HIPBLAS_OP_N ? 'N' : trans == HIPBLAS_OP_T ? 'T' : 'C'; }

// hipBLAS's check of arguments where info is the host's: *info is minus the
// position (the handle not counted) of the first argument `invalid` flags,
// or 0; the call goes on only with a handle and valid arguments.
hipblasStatus_t check(Handle *handle, int *info, std::initializer_list<std::pair<bool, int>> invalid) {
  if (!info) return kInvalid;
  *info = 0;
  for (auto [bad, position] : invalid)
    if (bad) {
      *info = -position;
      break;
    }
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  return *info ? kInvalid : kSuccess;
}

// Queues `solve(i)` for each of `count` matrices, its LAPACK info going to
// info[i] (device memory).
template <class F> hipblasStatus_t each_matrix(Handle *handle, int count, int *info, F solve) {
  if (count == 0) return kSuccess;
  return enqueue(handle, [=] {
    for (int i = 0; i < count; i++) info[i] = solve(i);
  });
}

// LU without row interchanges, which LAPACK has not: info is the position
// of the first zero pivot, whose column is left unscaled.
template <class T> int lu_without_pivoting(int n, T *A, int lda) {
  int info = 0;
  for (int k = 0; k < n; k++) {
    T *pivot = A + k + size_t(k) * lda;
    int rest = n - k - 1;
    if (*pivot != T(0))
      cb::scal(rest, T(1) / *pivot, pivot + 1, 1);
    else if (!info)
      info = k + 1;
    cb::ger(rest, rest, T(-1), pivot + 1, 1, pivot + lda, lda, pivot + 1 + lda, lda, false);
  }
  return info;
}

// ---- LU ----

// Without pivots (ipiv null) the factorization has no row interchanges.
template <class T>
hipblasStatus_t getrf(hipblasHandle_t h, int n, Matrices<T> A, int lda, Matrices<int> ipiv, int *info, int count) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n < 0 || lda < std::max(1, n) || count < 0 || (n > 0 && A.null()) || (count > 0 && !info)) return kInvalid;
  return each_matrix(handle, count, info, [=](int i) {
    return ipiv.null() ? lu_without_pivoting(n, A[i], lda) : la::getrf(n, A[i], lda, ipiv[i]);
  });
}

// `strides` is 1 for the strided forms, whose stride arguments move the
// later ones' positions in info.
template <class T>
hipblasStatus_t getrs(hipblasHandle_t h, hipblasOperation_t trans, int n, int nrhs, Matrices<T> A, int lda,
                      Matrices<const int> ipiv, Matrices<T> B, int ldb, int *info, int count, int strides) {
  Handle *handle = handle_of(h);
  bool valid_trans = trans == HIPBLAS_OP_N || trans == HIPBLAS_OP_T || trans == HIPBLAS_OP_C;
  hipblasStatus_t status = check(handle, info,
                                 {{!valid_trans, 1},
                                  {n < 0, 2},
                                  {nrhs < 0, 3},
                                  {n > 0 && A.null(), 4},
                                  {lda < std::max(1, n), 5},
                                  {n > 0 && ipiv.null(), 6 + strides},
                                  {n > 0 && nrhs > 0 && B.null(), 7 + 2 * strides},
                                  {ldb < std::max(1, n), 8 + 2 * strides},
                                  {count < 0, 10 + 3 * strides}});
  if (status != kSuccess || n == 0 || nrhs == 0 || count == 0) return status;
  return enqueue(handle, [=] {
    for (int i = 0; i < count; i++) la::getrs(trans_char(trans), n, nrhs, A[i], lda, ipiv[i], B[i], ldb);
  });
}

// C = inverse of A from getrf's factors in A (ipiv null: factored without
// pivoting); info as getrf's, nonzero where U is singular.
template <class T>
hipblasStatus_t getri(hipblasHandle_t h, int n, Matrices<T> A, int lda, Matrices<int> ipiv, Matrices<T> C, int ldc,
                      int *info, int count) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (n < 0 || lda < std::max(1, n) || ldc < std::max(1, n) || count < 0 || (n > 0 && (A.null() || C.null())) ||
      (count > 0 && !info))
    return kInvalid;
  return each_matrix(handle, count, info, [=](int i) {
    T *a = A[i], *c = C[i];
    for (int j = 0; j < n; j++) std::copy_n(a + size_t(j) * lda, n, c + size_t(j) * ldc);
    std::vector<int> identity;
    const int *pivots = ipiv[i];
    if (!pivots) {
      identity.resize(n);
      std::iota(identity.begin(), identity.end(), 1);
      pivots = identity.data();
    }
    return la::getri(n, c, ldc, pivots);
  });
}

// ---- QR ----

// hipBLAS asks no workspace: LAPACK's is allocated for each matrix.
template <class T>
hipblasStatus_t geqrf(hipblasHandle_t h, int m, int n, Matrices<T> A, int lda, Matrices<T> tau, int *info, int count,
                      int strides) {
  Handle *handle = handle_of(h);
  hipblasStatus_t status = check(handle, info,
                                 {{m < 0, 1},
                                  {n < 0, 2},
                                  {m > 0 && n > 0 && A.null(), 3},
                                  {lda < std::max(1, m), 4},
                                  {m > 0 && n > 0 && tau.null(), 5 + strides},
                                  {count < 0, 7 + 2 * strides}});
  if (status != kSuccess || m == 0 || n == 0 || count == 0) return status;
  return enqueue(handle, [=] {
    for (int i = 0; i < count; i++) la::geqrf(m, n, A[i], lda, tau[i]);
  });
}

// Least squares (m >= n) or minimum norm (m < n) solutions of op(A) X = B,
// over B; A full rank, else deviceInfo is the position of a zero diagonal of
// its triangular factor.  As hipBLAS: trans N or T (N or C for complex
// types), lda >= m, ldb >= max(m, n).
template <class T>
hipblasStatus_t gels(hipblasHandle_t h, hipblasOperation_t trans, int m, int n, int nrhs, Matrices<T> A, int lda,
                     Matrices<T> B, int ldb, int *info, int *device_info, int count, int strides) {
  Handle *handle = handle_of(h);
  hipblasOperation_t transposed = is_complex<T> ? HIPBLAS_OP_C : HIPBLAS_OP_T;
  hipblasStatus_t status = check(handle, info,
                                 {{trans != HIPBLAS_OP_N && trans != transposed, 1},
                                  {m < 0, 2},
                                  {n < 0, 3},
                                  {nrhs < 0, 4},
                                  {m > 0 && n > 0 && A.null(), 5},
                                  {lda < m, 6},
                                  {nrhs > 0 && std::max(m, n) > 0 && B.null(), 7 + strides},
                                  {ldb < std::max(m, n), 8 + strides},
                                  {count > 0 && !device_info, 10 + 2 * strides},
                                  {count < 0, 11 + 2 * strides}});
  if (status != kSuccess) return status;
  // LAPACK wants leading dimensions of at least 1 where a matrix has no rows.
  return each_matrix(handle, count, device_info, [=](int i) {
    return la::gels(trans_char(trans), m, n, nrhs, A[i], std::max(1, lda), B[i], std::max(1, ldb));
  });
}

}  // namespace

extern "C" {

#define GETRF(name, T)                                                                                       \
  hipblasStatus_t name(hipblasHandle_t h, const int n, T *A, const int lda, int *ipiv, int *info) {          \
    return getrf(h, n, one(in(A)), lda, one(ipiv), info, 1);                                                 \
  }
GPUSYM_SDCZ(GETRF, getrf)

// A batch's pivots follow one another, n a matrix.
#define GETRF_BATCHED(name, T)                                                                               \
  hipblasStatus_t name(hipblasHandle_t h, const int n, T *const A[], const int lda, int *ipiv, int *info,    \
                       const int count) {                                                                    \
    return getrf(h, n, batch(in(A)), lda, strided(ipiv, n), info, count);                                    \
  }
GPUSYM_SDCZ(GETRF_BATCHED, getrfBatched)

#define GETRF_STRIDED(name, T)                                                                               \
  hipblasStatus_t name(hipblasHandle_t h, const int n, T *A, const int lda, const hipblasStride sa, int *ipiv, \
                       const hipblasStride sp, int *info, const int count) {                                 \
    return getrf(h, n, strided(in(A), sa), lda, strided(ipiv, sp), info, count);                             \
  }
GPUSYM_SDCZ(GETRF_STRIDED, getrfStridedBatched)

#define GETRS(name, T)                                                                                        \
  hipblasStatus_t name(hipblasHandle_t h, const hipblasOperation_t trans, const int n, const int nrhs, T *A,  \
                       const int lda, const int *ipiv, T *B, const int ldb, int *info) {                      \
    return getrs(h, trans, n, nrhs, one(in(A)), lda, one(ipiv), one(in(B)), ldb, info, 1, 0);                 \
  }
GPUSYM_SDCZ(GETRS, getrs)

#define GETRS_BATCHED(name, T)                                                                                \
  hipblasStatus_t name(hipblasHandle_t h, const hipblasOperation_t trans, const int n, const int nrhs,        \
                       T *const A[], const int lda, const int *ipiv, T *const B[], const int ldb, int *info,  \
                       const int count) {                                                                     \
    return getrs(h, trans, n, nrhs, batch(in(A)), lda, strided(ipiv, n), batch(in(B)), ldb, info, count, 0);  \
  }
GPUSYM_SDCZ(GETRS_BATCHED, getrsBatched)

#define GETRS_STRIDED(name, T)                                                                                \
  hipblasStatus_t name(hipblasHandle_t h, const hipblasOperation_t trans, const int n, const int nrhs, T *A,  \
                       const int lda, const hipblasStride sa, const int *ipiv, const hipblasStride sp, T *B,  \
                       const int ldb, const hipblasStride sb, int *info, const int count) {                   \
    return getrs(h, trans, n, nrhs, strided(in(A), sa), lda, strided(ipiv, sp), strided(in(B), sb), ldb,     \
                 info, count, 1);                                                                             \
  }
GPUSYM_SDCZ(GETRS_STRIDED, getrsStridedBatched)

#define GETRI_BATCHED(name, T)                                                                                \
  hipblasStatus_t name(hipblasHandle_t h, const int n, T *const A[], const int lda, int *ipiv, T *const C[],  \
                       const int ldc, int *info, const int count) {                                           \
    return getri(h, n, batch(in(A)), lda, strided(ipiv, n), batch(in(C)), ldc, info, count);                 \
  }
GPUSYM_SDCZ(GETRI_BATCHED, getriBatched)

#define GEQRF(name, T)                                                                                        \
  hipblasStatus_t name(hipblasHandle_t h, const int m, const int n, T *A, const int lda, T *tau, int *info) { \
    return geqrf(h, m, n, one(in(A)), lda, one(in(tau)), info, 1, 0);                                         \
  }
GPUSYM_SDCZ(GEQRF, geqrf)

#define GEQRF_BATCHED(name, T)                                                                                \
  hipblasStatus_t name(hipblasHandle_t h, const int m, const int n, T *const A[], const int lda,              \
                       T *const tau[], int *info, const int count) {                                          \
    return geqrf(h, m, n, batch(in(A)), lda, batch(in(tau)), info, count, 0);                                 \
  }
GPUSYM_SDCZ(GEQRF_BATCHED, geqrfBatched)

#define GEQRF_STRIDED(name, T)                                                                                \
  hipblasStatus_t name(hipblasHandle_t h, const int m, const int n, T *A, const int lda,                      \
                       const hipblasStride sa, T *tau, const hipblasStride st, int *info, const int count) {  \
    return geqrf(h, m, n, strided(in(A), sa), lda, strided(in(tau), st), info, count, 1);                     \
  }
GPUSYM_SDCZ(GEQRF_STRIDED, geqrfStridedBatched)

#define GELS(name, T)                                                                                         \
  hipblasStatus_t name(hipblasHandle_t h, hipblasOperation_t trans, const int m, const int n, const int nrhs, \
                       T *A, const int lda, T *B, const int ldb, int *info, int *device_info) {               \
    return gels(h, trans, m, n, nrhs, one(in(A)), lda, one(in(B)), ldb, info, device_info, 1, 0);             \
  }
GPUSYM_SDCZ(GELS, gels)

#define GELS_BATCHED(name, T)                                                                                 \
  hipblasStatus_t name(hipblasHandle_t h, hipblasOperation_t trans, const int m, const int n, const int nrhs, \
                       T *const A[], const int lda, T *const B[], const int ldb, int *info, int *device_info, \
                       const int count) {                                                                     \
    return gels(h, trans, m, n, nrhs, batch(in(A)), lda, batch(in(B)), ldb, info, device_info, count, 0);     \
  }
GPUSYM_SDCZ(GELS_BATCHED, gelsBatched)

#define GELS_STRIDED(name, T)                                                                                 \
  hipblasStatus_t name(hipblasHandle_t h, hipblasOperation_t trans, const int m, const int n, const int nrhs, \
                       T *A, const int lda, const hipblasStride sa, T *B, const int ldb,                      \
                       const hipblasStride sb, int *info, int *device_info, const int count) {                \
    return gels(h, trans, m, n, nrhs, strided(in(A), sa), lda, strided(in(B), sb), ldb, info, device_info,    \
                count, 1);                                                                                    \
  }
GPUSYM_SDCZ(GELS_STRIDED, gelsStridedBatched)

}  // extern "C"
