// cuBLAS's batched solvers, checked on the host: "CASE: ok" or "CASE:
// FAILED" a case, and "cublas: N failed" at the end.
#include <cublas_v2.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using Z = std::complex<double>;

#define CHECK(call)                                            \
  do {                                                         \
    if (int(call) != 0) {                                      \
      printf("%s:%d: %s failed\n", __FILE__, __LINE__, #call); \
      exit(1);                                                 \
    }                                                          \
  } while (0)

static int failed = 0;
static void report(const char *name, bool ok) {
  printf("%s: %s\n", name, ok ? "ok" : "FAILED");
  failed += !ok;
}

static std::mt19937 rng(5);
static double uniform() { return std::uniform_real_distribution<double>(-1, 1)(rng); }
static Z wide(float x) { return x; }
static Z wide(double x) { return x; }
static Z wide(cuComplex x) { return Z(cuCrealf(x), cuCimagf(x)); }
static Z wide(cuDoubleComplex x) { return Z(cuCreal(x), cuCimag(x)); }
template <class T> T narrow(Z x) {
  if constexpr (sizeof(T) == sizeof(float) || sizeof(T) == sizeof(double))
    return T(x.real());
  else
    return {decltype(T().x)(x.real()), decltype(T().x)(x.imag())};
}
static bool near(Z got, Z want, double tol) { return std::abs(got - want) <= tol * (1 + std::abs(want)); }

// `count` contiguous rows x cols column-major matrices, random (`dominant`:
// well conditioned), on the host and the device, with a device array of
// their addresses.
template <class T> struct Batch {
  int rows, cols, count;
  std::vector<T> host;
  T *device = nullptr, **pointers = nullptr;
  Batch(int rows, int cols, int count, bool dominant = false)
      : rows(rows), cols(cols), count(count), host(size_t(rows) * cols * count) {
    for (size_t e = 0; e < host.size(); e++) {
      size_t i = e % rows, j = e / rows % cols;
      host[e] = narrow<T>(Z(uniform(), uniform()) + (dominant && i == j ? rows + cols : 0.0));
    }
    CHECK(cudaMalloc(&device, host.size() * sizeof(T)));
    CHECK(cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice));
    std::vector<T *> addresses(count);
    for (int k = 0; k < count; k++) addresses[k] = device + size_t(k) * rows * cols;
    CHECK(cudaMalloc(&pointers, count * sizeof(T *)));
    CHECK(cudaMemcpy(pointers, addresses.data(), count * sizeof(T *), cudaMemcpyHostToDevice));
  }
  std::vector<T> result() const {
    std::vector<T> out(host.size());
    CHECK(cudaMemcpy(out.data(), device, out.size() * sizeof(T), cudaMemcpyDeviceToHost));
    return out;
  }
  Z at(const std::vector<T> &data, int k, int i, int j) const { return wide(data[(size_t(k) * cols + j) * rows + i]); }
};

// Whether A X = B, each of the batch (A's and B's host values).
template <class T> bool solves(const Batch<T> &A, const Batch<T> &X, const std::vector<T> &x, const Batch<T> &B,
                               double tol) {
  for (int k = 0; k < A.count; k++)
    for (int j = 0; j < B.cols; j++)
      for (int i = 0; i < A.rows; i++) {
        Z sum = 0;
        for (int l = 0; l < A.cols; l++) sum += A.at(A.host, k, i, l) * X.at(x, k, l, j);
        if (!near(sum, B.at(B.host, k, i, j), tol)) return false;
      }
  return true;
}

template <class T> bool inverts(const Batch<T> &inverse, const Batch<T> &A, double tol) {
  std::vector<T> got = inverse.result();
  for (int k = 0; k < A.count; k++)
    for (int j = 0; j < A.rows; j++)
      for (int i = 0; i < A.rows; i++) {
        Z sum = 0;
        for (int l = 0; l < A.rows; l++) sum += inverse.at(got, k, i, l) * A.at(A.host, k, l, j);
        if (!near(sum, i == j ? 1 : 0, tol)) return false;
      }
  return true;
}

static int nonzero(const int *device, int count) {
  std::vector<int> host(count);
  CHECK(cudaMemcpy(host.data(), device, count * sizeof(int), cudaMemcpyDeviceToHost));
  int n = 0;
  for (int x : host) n += x != 0;
  return n;
}

int main() {
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  const int n = 4, count = 3, nrhs = 2;
  int *pivots, *info, host_info = 1;
  CHECK(cudaMalloc(&pivots, n * count * sizeof(int)));
  CHECK(cudaMalloc(&info, count * sizeof(int)));

  Batch<double> A(n, n, count, true), B(n, nrhs, count), inverse(n, n, count);
  CHECK(cublasDgetrfBatched(h, n, A.pointers, n, pivots, info, count));
  CHECK(cublasDgetrsBatched(h, CUBLAS_OP_N, n, nrhs, A.pointers, n, pivots, B.pointers, n, &host_info, count));
  report("DgetrfBatched, DgetrsBatched", host_info == 0 && !nonzero(info, count) && solves(A, B, B.result(), B, 1e-12));
  CHECK(cublasDgetriBatched(h, n, A.pointers, n, pivots, inverse.pointers, n, info, count));
  report("DgetriBatched", !nonzero(info, count) && inverts(inverse, A, 1e-12));

  Batch<double> M(n, n, count, true), minverse(n, n, count);
  CHECK(cublasDmatinvBatched(h, n, M.pointers, n, minverse.pointers, n, info, count));
  report("DmatinvBatched", !nonzero(info, count) && inverts(minverse, M, 1e-12) && M.result() == M.host);
  report("DmatinvBatched of n > 32 refused",
         cublasDmatinvBatched(h, 33, M.pointers, 33, minverse.pointers, 33, info, 1) == CUBLAS_STATUS_INVALID_VALUE);

  // Without pivots: getrf factors without row interchanges, getrs solves with none.
  Batch<float> S(n, n, count, true), SB(n, nrhs, count);
  CHECK(cublasSgetrfBatched(h, n, S.pointers, n, nullptr, info, count));
  CHECK(cublasSgetrsBatched(h, CUBLAS_OP_N, n, nrhs, S.pointers, n, nullptr, SB.pointers, n, &host_info, count));
  report("SgetrfBatched, SgetrsBatched without pivots",
         host_info == 0 && !nonzero(info, count) && solves(S, SB, SB.result(), SB, 1e-5));

  // QR: R^H R = A^H A.
  const int m = 5;
  Batch<cuComplex> Q(m, n, count), tau(n, 1, count);
  CHECK(cublasCgeqrfBatched(h, m, n, Q.pointers, m, tau.pointers, &host_info, count));
  std::vector<cuComplex> qr = Q.result();
  bool gram = host_info == 0;
  for (int k = 0; k < count; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        Z rr = 0, aa = 0;
        for (int l = 0; l <= std::min(i, j); l++) rr += std::conj(Q.at(qr, k, l, i)) * Q.at(qr, k, l, j);
        for (int l = 0; l < m; l++) aa += std::conj(Q.at(Q.host, k, l, i)) * Q.at(Q.host, k, l, j);
        gram = gram && near(rr, aa, 1e-4);
      }
  report("CgeqrfBatched", gram);

  // Least squares: A^H (A x - b) = 0.
  Batch<cuDoubleComplex> L(m, n, count, true), LB(m, nrhs, count);
  CHECK(cublasZgelsBatched(h, CUBLAS_OP_N, m, n, nrhs, L.pointers, m, LB.pointers, m, &host_info, info, count));
  std::vector<cuDoubleComplex> x = LB.result();
  bool normal = host_info == 0 && !nonzero(info, count);
  for (int k = 0; k < count; k++)
    for (int j = 0; j < nrhs; j++)
      for (int l = 0; l < n; l++) {
        Z dot = 0;
        for (int i = 0; i < m; i++) {
          Z r = -LB.at(LB.host, k, i, j);
          for (int c = 0; c < n; c++) r += L.at(L.host, k, i, c) * LB.at(x, k, c, j);
          dot += std::conj(L.at(L.host, k, i, l)) * r;
        }
        normal = normal && near(dot, 0, 1e-10);
      }
  report("ZgelsBatched", normal);

  CHECK(cublasDestroy(h));
  printf("cublas: %d failed\n", failed);
  return failed != 0;
}
