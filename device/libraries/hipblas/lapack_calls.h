// OpenBLAS's LAPACK, through its Fortran entry points: one template per
// routine for float, double, std::complex<float> and std::complex<double>,
// column-major, each returning LAPACK's info.
#pragma once

#include <algorithm>
#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

// Fortran takes every argument by reference; a character argument adds its
// length after all the others.
#define GPUSYM_LAPACK_DECLARE(p, T)                                                                                 \
  void p##getrf_(const int *m, const int *n, T *a, const int *lda, int *ipiv, int *info);                           \
  void p##getrs_(const char *trans, const int *n, const int *nrhs, const T *a, const int *lda, const int *ipiv,    \
                 T *b, const int *ldb, int *info, size_t trans_length);                                            \
  void p##getri_(const int *n, T *a, const int *lda, const int *ipiv, T *work, const int *lwork, int *info);       \
  void p##geqrf_(const int *m, const int *n, T *a, const int *lda, T *tau, T *work, const int *lwork, int *info);  \
  void p##gels_(const char *trans, const int *m, const int *n, const int *nrhs, T *a, const int *lda, T *b,         \
                const int *ldb, T *work, const int *lwork, int *info, size_t trans_length);
extern "C" {
GPUSYM_LAPACK_DECLARE(s, float)
GPUSYM_LAPACK_DECLARE(d, double)
GPUSYM_LAPACK_DECLARE(c, std::complex<float>)
GPUSYM_LAPACK_DECLARE(z, std::complex<double>)
}
#undef GPUSYM_LAPACK_DECLARE

namespace gpusym_hipblas::lapack {

// The routine of T's precision; the four take the same arguments.
#define GPUSYM_LAPACK(T, routine, ...)                                 \
  if constexpr (std::is_same_v<T, float>)                              \
    s##routine##_(__VA_ARGS__);                                        \
  else if constexpr (std::is_same_v<T, double>)                        \
    d##routine##_(__VA_ARGS__);                                        \
  else if constexpr (std::is_same_v<T, std::complex<float>>)           \
    c##routine##_(__VA_ARGS__);                                        \
  else                                                                 \
    z##routine##_(__VA_ARGS__)

// A routine that takes a workspace, `run(work, lwork, info)`: asked the
// size it wants (lwork -1), then given it.
template <class T, class R> int with_workspace(R run) {
  T size{};
  int lwork = -1, info = 0;
  run(&size, &lwork, &info);
  lwork = std::max(1, int(std::real(size)));
  std::vector<T> work(lwork);
  run(work.data(), &lwork, &info);
  return info;
}

template <class T> int getrf(int n, T *A, int lda, int *ipiv) {
  int info = 0;
  GPUSYM_LAPACK(T, getrf, &n, &n, A, &lda, ipiv, &info);
  return info;
}

template <class T> int getrs(char trans, int n, int nrhs, const T *A, int lda, const int *ipiv, T *B, int ldb) {
  int info = 0;
  GPUSYM_LAPACK(T, getrs, &trans, &n, &nrhs, A, &lda, ipiv, B, &ldb, &info, 1);
  return info;
}

template <class T> int getri(int n, T *A, int lda, const int *ipiv) {
  return with_workspace<T>([&](T *work, int *lwork, int *info) {
    GPUSYM_LAPACK(T, getri, &n, A, &lda, ipiv, work, lwork, info);
  });
}

template <class T> int geqrf(int m, int n, T *A, int lda, T *tau) {
  return with_workspace<T>([&](T *work, int *lwork, int *info) {
    GPUSYM_LAPACK(T, geqrf, &m, &n, A, &lda, tau, work, lwork, info);
  });
}

template <class T> int gels(char trans, int m, int n, int nrhs, T *A, int lda, T *B, int ldb) {
  return with_workspace<T>([&](T *work, int *lwork, int *info) {
    GPUSYM_LAPACK(T, gels, &trans, &m, &n, &nrhs, A, &lda, B, &ldb, work, lwork, info, 1);
  });
}

#undef GPUSYM_LAPACK

}  // namespace gpusym_hipblas::lapack
