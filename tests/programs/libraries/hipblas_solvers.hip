// gpusym's hipBLAS solvers against what their results must satisfy, checked
// on the host in double precision: op(A) X = B for getrs and gels (the
// normal equations for least squares), L U = A without pivoting, inverse
// times A = I, Q R = A.  One line a case, "hipblas: CASE: N wrong", and
// "hipblas: N cases" at the end.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

using C = std::complex<float>;
using Z = std::complex<double>;

#define CHECK(call)                                                  \
  do {                                                               \
    if (int(call) != 0) {                                            \
      printf("%s:%d: %s failed\n", __FILE__, __LINE__, #call);       \
      exit(1);                                                       \
    }                                                                \
  } while (0)

static int cases = 0;
static std::mt19937 rng(11);

static void report(const char *type, const char *name, int bad) {
  printf("hipblas: %s%s: %d wrong\n", type, name, bad);
  cases++;
}

template <class T> T random_value() {
  std::uniform_real_distribution<double> d(-1, 1);
  if constexpr (std::is_arithmetic_v<T>)
    return T(d(rng));
  else
    return T(d(rng), d(rng));
}
template <class T> Z wide(T x) { return Z(std::real(x), std::imag(x)); }
template <class T> double tolerance() { return sizeof(std::real(T())) == 4 ? 1e-4 : 1e-11; }
static int off(Z got, Z want, double tol) { return std::abs(got - want) > tol * (1 + std::abs(want)); }

// hipBLAS's element type for T, and hipblasSop, Dop, Cop or Zop.
template <class T> struct Blas { using type = T; };
template <> struct Blas<C> { using type = hipblasComplex; };
template <> struct Blas<Z> { using type = hipblasDoubleComplex; };
template <class T> auto b(T *x) { return reinterpret_cast<typename Blas<T>::type *>(x); }
template <class T> auto b(T **x) { return reinterpret_cast<typename Blas<T>::type **>(x); }
#define BLAS(T, op)                                   \
  [] {                                                \
    if constexpr (std::is_same_v<T, float>)           \
      return hipblasS##op;                            \
    else if constexpr (std::is_same_v<T, double>)     \
      return hipblasD##op;                            \
    else if constexpr (std::is_same_v<T, C>)          \
      return hipblasC##op;                            \
    else                                              \
      return hipblasZ##op;                            \
  }()

// `count` column-major rows x cols matrices of leading dimension ld, a
// stride apart, random (`dominant`: made well conditioned), on the host and
// the device, with a device array of their addresses.
template <class T> struct Batch {
  int rows, cols, ld, count;
  long long stride;
  std::vector<T> host;
  T *device = nullptr, **pointers = nullptr;

  Batch(int rows, int cols, int ld, int count, bool dominant = false)
      : rows(rows), cols(cols), ld(ld), count(count), stride((long long)ld * cols + 3), host(stride * count) {
    for (T &x : host) x = random_value<T>();
    for (int k = 0; dominant && k < count; k++)
      for (int i = 0; i < std::min(rows, cols); i++) host[k * stride + i + (size_t)i * ld] += T(rows + cols);
    CHECK(hipMalloc(&device, host.size() * sizeof(T)));
    upload();
    std::vector<T *> addresses(count);
    for (int k = 0; k < count; k++) addresses[k] = device + k * stride;
    CHECK(hipMalloc(&pointers, count * sizeof(T *)));
    CHECK(hipMemcpy(pointers, addresses.data(), count * sizeof(T *), hipMemcpyHostToDevice));
  }
  ~Batch() {
    CHECK(hipFree(device));
    CHECK(hipFree(pointers));
  }
  void upload() { CHECK(hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice)); }
  std::vector<T> result() const {
    std::vector<T> out(host.size());
    CHECK(hipMemcpy(out.data(), device, out.size() * sizeof(T), hipMemcpyDeviceToHost));
    return out;
  }
  // Element (i, j) of matrix k of `data` (host or a result), or of op(it).
  Z at(const std::vector<T> &data, int k, int i, int j) const { return wide(data[k * stride + i + (size_t)j * ld]); }
  Z op(const std::vector<T> &data, hipblasOperation_t t, int k, int i, int j) const {
    return t == HIPBLAS_OP_N ? at(data, k, i, j) : t == HIPBLAS_OP_T ? at(data, k, j, i) : std::conj(at(data, k, j, i));
  }
};

struct Ints {
  int *device = nullptr;
  int size;
  explicit Ints(int size) : size(size) { CHECK(hipMalloc(&device, size * sizeof(int))); }
  ~Ints() { CHECK(hipFree(device)); }
  int nonzero() const {
    std::vector<int> host(size);
    CHECK(hipMemcpy(host.data(), device, size * sizeof(int), hipMemcpyDeviceToHost));
    return int(std::count_if(host.begin(), host.end(), [](int x) { return x != 0; }));
  }
};

// Elements of op(A) X - B off zero, for the first `rows` rows of B and
// `inner` of X (A's host values; X's and B's `count` columns).
template <class T>
int residual(const Batch<T> &A, hipblasOperation_t t, int rows, int inner, const Batch<T> &X,
             const std::vector<T> &x, const Batch<T> &B) {
  int bad = 0;
  for (int k = 0; k < A.count; k++)
    for (int j = 0; j < B.cols; j++)
      for (int i = 0; i < rows; i++) {
        Z sum = 0;
        for (int l = 0; l < inner; l++) sum += A.op(A.host, t, k, i, l) * X.at(x, k, l, j);
        bad += off(sum, B.at(B.host, k, i, j), 10 * tolerance<T>());
      }
  return bad;
}

// Elements of inv A - I off zero (inv in `inv`, A's host values).
template <class T> int inverse_wrong(const Batch<T> &A, const Batch<T> &inv) {
  std::vector<T> got = inv.result();
  int n = A.rows, bad = 0;
  for (int k = 0; k < A.count; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        Z sum = 0;
        for (int l = 0; l < n; l++) sum += inv.at(got, k, i, l) * A.at(A.host, k, l, j);
        bad += off(sum, i == j ? 1 : 0, 10 * tolerance<T>());
      }
  return bad;
}

template <class T> void check_lu(hipblasHandle_t h, const char *type) {
  const int n = 4, nrhs = 2, count = 3;
  Ints pivots(n * count), info(count);
  int host_info = 1;

  Batch<T> A(n, n, n + 1, count, true), B(n, nrhs, n + 2, count), inverse(n, n, n + 1, count);
  CHECK(BLAS(T, getrfBatched)(h, n, b(A.pointers), A.ld, pivots.device, info.device, count));
  CHECK(BLAS(T, getrsBatched)(h, HIPBLAS_OP_N, n, nrhs, b(A.pointers), A.ld, pivots.device, b(B.pointers), B.ld,
                              &host_info, count));
  report(type, "getrfBatched, getrsBatched",
         host_info + info.nonzero() + residual(A, HIPBLAS_OP_N, n, n, B, B.result(), B));
  CHECK(BLAS(T, getriBatched)(h, n, b(A.pointers), A.ld, pivots.device, b(inverse.pointers), inverse.ld, info.device,
                              count));
  report(type, "getriBatched", info.nonzero() + inverse_wrong(A, inverse));

  // Without pivoting (a pivoting LU would swap rows 0 and 1): L U = A, and
  // the inverse from those factors.
  Batch<T> D(n, n, n, count, true);
  for (int k = 0; k < count; k++) D.host[k * D.stride + 1] = T(4 * n);
  D.upload();
  CHECK(BLAS(T, getrfStridedBatched)(h, n, b(D.device), D.ld, D.stride, nullptr, n, info.device, count));
  std::vector<T> lu = D.result();
  int bad = info.nonzero();
  for (int k = 0; k < count; k++)
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) {
        Z sum = 0;
        for (int l = 0; l <= std::min(i, j); l++) sum += (l == i ? 1 : D.at(lu, k, i, l)) * D.at(lu, k, l, j);
        bad += off(sum, D.at(D.host, k, i, j), 10 * tolerance<T>());
      }
  report(type, "getrfStridedBatched without pivoting", bad);
  CHECK(BLAS(T, getriBatched)(h, n, b(D.pointers), D.ld, nullptr, b(inverse.pointers), inverse.ld, info.device,
                              count));
  report(type, "getriBatched without pivoting", info.nonzero() + inverse_wrong(D, inverse));

  // op(A) X = B, strided, op T for real types and C for complex ones.
  hipblasOperation_t t = std::is_arithmetic_v<T> ? HIPBLAS_OP_T : HIPBLAS_OP_C;
  Batch<T> E(n, n, n + 1, count, true), F(n, nrhs, n, count);
  CHECK(BLAS(T, getrfStridedBatched)(h, n, b(E.device), E.ld, E.stride, pivots.device, n, info.device, count));
  CHECK(BLAS(T, getrsStridedBatched)(h, t, n, nrhs, b(E.device), E.ld, E.stride, pivots.device, n, b(F.device), F.ld,
                                     F.stride, &host_info, count));
  report(type, "getrsStridedBatched, transposed", host_info + info.nonzero() + residual(E, t, n, n, F, F.result(), F));

  // A singular matrix: info is the column whose pivot is zero.
  Batch<T> S(n, n, n, 1, true);
  for (int i = 0; i < n; i++) S.host[i + 2 * n] = T(0);
  S.upload();
  CHECK(BLAS(T, getrf)(h, n, b(S.device), S.ld, pivots.device, info.device));
  CHECK(hipMemcpy(&host_info, info.device, sizeof(int), hipMemcpyDeviceToHost));
  report(type, "getrf of a singular matrix", host_info != 3);
}

// Q R = A, Q from geqrf's reflectors below R and tau: H(i) = I - tau v v^H.
template <class T> int qr_wrong(const Batch<T> &A, const Batch<T> &tau) {
  std::vector<T> qr = A.result(), taus = tau.result();
  int m = A.rows, n = A.cols, bad = 0;
  for (int k = 0; k < A.count; k++) {
    std::vector<Z> M(m * n), v(m);
    for (int j = 0; j < n; j++)
      for (int i = 0; i <= std::min(j, m - 1); i++) M[i + j * m] = A.at(qr, k, i, j);
    for (int r = std::min(m, n) - 1; r >= 0; r--) {
      for (int i = 0; i < m; i++) v[i] = i < r ? 0 : i == r ? 1 : A.at(qr, k, i, r);
      for (int j = 0; j < n; j++) {
        Z w = 0;
        for (int i = 0; i < m; i++) w += std::conj(v[i]) * M[i + j * m];
        for (int i = 0; i < m; i++) M[i + j * m] -= tau.at(taus, k, r, 0) * v[i] * w;
      }
    }
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) bad += off(M[i + j * m], A.at(A.host, k, i, j), 10 * tolerance<T>());
  }
  return bad;
}

template <class T> void check_qr(hipblasHandle_t h, const char *type) {
  const int m = 5, n = 3, count = 2;
  int info = 1;
  Batch<T> A(m, n, m + 1, count), tau(n, 1, n, count);
  CHECK(BLAS(T, geqrfBatched)(h, m, n, b(A.pointers), A.ld, b(tau.pointers), &info, count));
  report(type, "geqrfBatched", info + qr_wrong(A, tau));
  Batch<T> S(m, n, m, count), stau(n, 1, n, count);
  CHECK(BLAS(T, geqrfStridedBatched)(h, m, n, b(S.device), S.ld, S.stride, b(stau.device), stau.stride, &info,
                                     count));
  report(type, "geqrfStridedBatched", info + qr_wrong(S, stau));
  Batch<T> W(n, m, n, 1), wtau(n, 1, n, 1);  // wider than tall
  CHECK(BLAS(T, geqrf)(h, n, m, b(W.device), W.ld, b(wtau.device), &info));
  report(type, "geqrf", info + qr_wrong(W, wtau));
}

template <class T> void check_gels(hipblasHandle_t h, const char *type) {
  const int nrhs = 2, count = 2;
  int info = 1;
  Ints device_info(count);

  // Least squares: the residual is orthogonal to A's columns.
  {
    const int m = 6, n = 3;
    Batch<T> A(m, n, m, count, true), B(m, nrhs, m + 1, count);
    CHECK(BLAS(T, gelsBatched)(h, HIPBLAS_OP_N, m, n, nrhs, b(A.pointers), A.ld, b(B.pointers), B.ld, &info,
                               device_info.device, count));
    std::vector<T> x = B.result();
    int bad = info + device_info.nonzero();
    for (int k = 0; k < count; k++)
      for (int j = 0; j < nrhs; j++) {
        std::vector<Z> r(m);
        for (int i = 0; i < m; i++) {
          r[i] = -B.at(B.host, k, i, j);
          for (int l = 0; l < n; l++) r[i] += A.at(A.host, k, i, l) * B.at(x, k, l, j);
        }
        for (int l = 0; l < n; l++) {
          Z dot = 0;
          for (int i = 0; i < m; i++) dot += std::conj(A.at(A.host, k, i, l)) * r[i];
          bad += off(dot, 0, 100 * tolerance<T>());
        }
      }
    report(type, "gelsBatched, overdetermined", bad);
  }
  // Underdetermined: A X = B exactly (B holds max(m, n) rows).
  {
    const int m = 3, n = 5;
    Batch<T> A(m, n, m, count, true), B(n, nrhs, n, count);
    CHECK(BLAS(T, gelsStridedBatched)(h, HIPBLAS_OP_N, m, n, nrhs, b(A.device), A.ld, A.stride, b(B.device), B.ld,
                                      B.stride, &info, device_info.device, count));
    report(type, "gelsStridedBatched, underdetermined",
           info + device_info.nonzero() + residual(A, HIPBLAS_OP_N, m, n, B, B.result(), B));
  }
  // op(A) X = B with A 6 x 3: op(A) is 3 x 6.
  {
    const int m = 6, n = 3;
    hipblasOperation_t t = std::is_arithmetic_v<T> ? HIPBLAS_OP_T : HIPBLAS_OP_C;
    Batch<T> A(m, n, m, 1, true), B(m, nrhs, m, 1);
    CHECK(BLAS(T, gels)(h, t, m, n, nrhs, b(A.device), A.ld, b(B.device), B.ld, &info, device_info.device));
    report(type, "gels, transposed", info + residual(A, t, n, m, B, B.result(), B));
  }
}

// Arguments hipBLAS refuses, before anything is queued: the status, and the
// host info hipBLAS sets (minus the argument's position, the handle not
// counted).
static void check_invalid(hipblasHandle_t h) {
  float a[4] = {1, 0, 0, 1}, x[2] = {1, 1};
  Z za[4] = {1, 0, 0, 1}, zx[2] = {1, 1};
  int pivots[2] = {1, 2}, info = 0, device_info = 0, bad = 0;
  auto refused = [&](hipblasStatus_t status, int want) {
    bad += status != HIPBLAS_STATUS_INVALID_VALUE || info != want;
  };
  refused(hipblasSgetrs(h, HIPBLAS_OP_N, 2, 1, a, 1, pivots, x, 2, &info), -5);
  refused(hipblasSgetrsStridedBatched(h, HIPBLAS_OP_N, 2, 1, a, 2, 4, nullptr, 2, x, 2, 2, &info, 1), -7);
  refused(hipblasSgels(h, HIPBLAS_OP_N, 2, 2, 1, a, 2, x, 1, &info, &device_info), -8);
  refused(hipblasZgels(h, HIPBLAS_OP_T, 2, 2, 1, b(za), 2, b(zx), 2, &info, &device_info), -1);
  refused(hipblasSgeqrf(h, -1, 2, a, 2, x, &info), -1);
  // getrf's info is the device's, one a matrix: left as it is.
  info = 0;
  refused(hipblasSgetrfBatched(h, -1, nullptr, 1, pivots, &info, 1), 0);
  refused(hipblasSgetrf(h, 2, a, 1, pivots, &info), 0);
  bad += hipblasSgetrs(h, HIPBLAS_OP_N, 2, 1, a, 2, pivots, x, 2, nullptr) != HIPBLAS_STATUS_INVALID_VALUE;
  report("", "invalid arguments", bad);
}

// The _v2 form (HIP's complex type) computes what the hipblasComplex one does.
static void check_v2(hipblasHandle_t h) {
  const int n = 4;
  Batch<Z> A(n, n, n, 1, true), A2(n, n, n, 1);
  A2.host = A.host;
  A2.upload();
  Ints pivots(n), info(1);
  CHECK(hipblasZgetrf(h, n, b(A.device), n, pivots.device, info.device));
  CHECK(hipblasZgetrf_v2(h, n, reinterpret_cast<hipDoubleComplex *>(A2.device), n, pivots.device, info.device));
  std::vector<Z> one = A.result(), two = A2.result();
  report("Z", "getrf_v2", std::memcmp(one.data(), two.data(), one.size() * sizeof(Z)) != 0);
}

int main() {
  hipblasHandle_t h;
  CHECK(hipblasCreate(&h));
  check_lu<float>(h, "S");
  check_lu<double>(h, "D");
  check_lu<C>(h, "C");
  check_lu<Z>(h, "Z");
  check_qr<float>(h, "S");
  check_qr<double>(h, "D");
  check_qr<C>(h, "C");
  check_qr<Z>(h, "Z");
  check_gels<float>(h, "S");
  check_gels<double>(h, "D");
  check_gels<C>(h, "C");
  check_gels<Z>(h, "Z");
  check_invalid(h);
  check_v2(h);
  CHECK(hipblasDestroy(h));
  printf("hipblas: %d cases\n", cases);
  return 0;
}
