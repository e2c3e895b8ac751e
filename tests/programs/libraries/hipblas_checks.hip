// gpusym's hipBLAS against references computed here, on the host, in double
// precision.  Prints one line a case, "hipblas: CASE: N wrong", and
// "hipblas: N cases" at the end.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

using C = std::complex<float>;
using Z = std::complex<double>;

static int cases = 0;
static std::mt19937 rng(7);

#define CHECK_HIP(call)                                                          \
  do {                                                                           \
    hipError_t e_ = (call);                                                      \
    if (e_ != hipSuccess) {                                                      \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
      exit(1);                                                                   \
    }                                                                            \
  } while (0)
#define CHECK_BLAS(call)                                                                    \
  do {                                                                                      \
    hipblasStatus_t s_ = (call);                                                            \
    if (s_ != HIPBLAS_STATUS_SUCCESS) {                                                     \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipblasStatusToString(s_));      \
      exit(1);                                                                              \
    }                                                                                       \
  } while (0)

template <class T> T random_value() {
  std::uniform_real_distribution<double> d(-1, 1);
  if constexpr (std::is_arithmetic_v<T>)
    return T(d(rng));
  else
    return T(d(rng), d(rng));
}
template <class T> std::vector<T> random_vector(size_t n) {
  std::vector<T> v(n);
  for (T &x : v) x = random_value<T>();
  return v;
}
template <class T> Z wide(T x) { return Z(std::real(x), std::imag(x)); }

template <class T> double tolerance() { return std::is_same_v<T, float> || std::is_same_v<T, C> ? 1e-4 : 1e-11; }

// Counts the elements of `got` farther than the tolerance from `want`.
template <class T> int wrong(const std::vector<T> &got, const std::vector<Z> &want, double tol = tolerance<T>()) {
  int bad = 0;
  for (size_t i = 0; i < want.size(); i++)
    if (std::abs(wide(got[i]) - want[i]) > tol * (1 + std::abs(want[i]))) bad++;
  return bad;
}
static void report(const char *name, int bad) {
  printf("hipblas: %s: %d wrong\n", name, bad);
  cases++;
}

template <class T> T *to_device(const std::vector<T> &host) {
  T *device;
  CHECK_HIP(hipMalloc(&device, host.size() * sizeof(T)));
  CHECK_HIP(hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
  return device;
}
template <class T> std::vector<T> to_host(const T *device, size_t n) {
  std::vector<T> host(n);
  CHECK_HIP(hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost));
  return host;
}

// Element (i, j) of op(X), X column-major with leading dimension ld.
template <class T> Z op_at(hipblasOperation_t t, const std::vector<T> &x, int ld, int i, int j) {
  if (t == HIPBLAS_OP_N) return wide(x[i + size_t(j) * ld]);
  Z v = wide(x[j + size_t(i) * ld]);
  return t == HIPBLAS_OP_C ? std::conj(v) : v;
}

// The C entry point of each precision, through hipBLAS's own types.
template <class T> struct Api;
#define GPUSYM_API(T, B, prefix)                                                                                 \
  template <> struct Api<T> {                                                                                    \
    static B *p(T *x) { return reinterpret_cast<B *>(x); }                                                       \
    static const B *p(const T *x) { return reinterpret_cast<const B *>(x); }                                     \
    static hipblasStatus_t gemm(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n,    \
                                int k, const T *a, const T *A, int lda, const T *B_, int ldb, const T *b, T *C_, \
                                int ldc) {                                                                       \
      return hipblas##prefix##gemm(h, ta, tb, m, n, k, p(a), p(A), lda, p(B_), ldb, p(b), p(C_), ldc);           \
    }                                                                                                            \
    static hipblasStatus_t gemv(hipblasHandle_t h, hipblasOperation_t t, int m, int n, const T *a, const T *A,   \
                                int lda, const T *x, int incx, const T *b, T *y, int incy) {                     \
      return hipblas##prefix##gemv(h, t, m, n, p(a), p(A), lda, p(x), incx, p(b), p(y), incy);                   \
    }                                                                                                            \
    static hipblasStatus_t batched(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, \
                                   int k, const T *a, T **A, int lda, T **B_, int ldb, const T *b, T **C_, int ldc, \
                                   int count) {                                                                  \
      return hipblas##prefix##gemmBatched(h, ta, tb, m, n, k, p(a), reinterpret_cast<const B *const *>(A), lda,   \
                                          reinterpret_cast<const B *const *>(B_), ldb, p(b),                      \
                                          reinterpret_cast<B *const *>(C_), ldc, count);                          \
    }                                                                                                            \
    static hipblasStatus_t strided(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, \
                                   int k, const T *a, const T *A, int lda, long long sa, const T *B_, int ldb,     \
                                   long long sb, const T *b, T *C_, int ldc, long long sc, int count) {           \
      return hipblas##prefix##gemmStridedBatched(h, ta, tb, m, n, k, p(a), p(A), lda, sa, p(B_), ldb, sb, p(b),   \
                                                 p(C_), ldc, sc, count);                                         \
    }                                                                                                            \
  };
GPUSYM_API(float, float, S)
GPUSYM_API(double, double, D)
GPUSYM_API(C, hipblasComplex, C)
GPUSYM_API(Z, hipblasDoubleComplex, Z)

// Reference C = alpha op(A) op(B) + beta C.
template <class T>
std::vector<Z> reference_gemm(hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k, T alpha,
                              const std::vector<T> &A, int lda, const std::vector<T> &B, int ldb, T beta,
                              const std::vector<T> &Cm, int ldc) {
  std::vector<Z> out(Cm.size());
  for (size_t i = 0; i < Cm.size(); i++) out[i] = wide(Cm[i]);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      Z sum = 0;
      for (int l = 0; l < k; l++) sum += op_at(ta, A, lda, i, l) * op_at(tb, B, ldb, l, j);
      out[i + size_t(j) * ldc] = wide(alpha) * sum + wide(beta) * wide(Cm[i + size_t(j) * ldc]);
    }
  return out;
}

template <class T> void check_gemm(hipblasHandle_t h, const char *type) {
  const hipblasOperation_t ops[] = {HIPBLAS_OP_N, HIPBLAS_OP_T, HIPBLAS_OP_C};
  const int m = 5, n = 4, k = 3;
  int bad = 0;
  for (hipblasOperation_t ta : ops)
    for (hipblasOperation_t tb : ops) {
      int lda = (ta == HIPBLAS_OP_N ? m : k) + 1, ldb = (tb == HIPBLAS_OP_N ? k : n) + 2, ldc = m + 1;
      auto A = random_vector<T>(size_t(lda) * (ta == HIPBLAS_OP_N ? k : m));
      auto B = random_vector<T>(size_t(ldb) * (tb == HIPBLAS_OP_N ? n : k));
      auto Cm = random_vector<T>(size_t(ldc) * n);
      T alpha = random_value<T>(), beta = random_value<T>();
      T *dA = to_device(A), *dB = to_device(B), *dC = to_device(Cm);
      CHECK_BLAS(Api<T>::gemm(h, ta, tb, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, ldc));
      bad += wrong(to_host(dC, Cm.size()), reference_gemm(ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, Cm, ldc));
      CHECK_HIP(hipFree(dA));
      CHECK_HIP(hipFree(dB));
      CHECK_HIP(hipFree(dC));
    }
  char name[64];
  snprintf(name, sizeof name, "%sgemm, every transpose", type);
  report(name, bad);
}

template <class T> void check_gemv(hipblasHandle_t h, const char *type) {
  const int m = 6, n = 4, lda = 7;
  int bad = 0;
  for (hipblasOperation_t t : {HIPBLAS_OP_N, HIPBLAS_OP_T, HIPBLAS_OP_C}) {
    int xn = t == HIPBLAS_OP_N ? n : m, yn = t == HIPBLAS_OP_N ? m : n;
    auto A = random_vector<T>(size_t(lda) * n), x = random_vector<T>(2 * xn), y = random_vector<T>(yn);
    T alpha = random_value<T>(), beta = random_value<T>();
    T *dA = to_device(A), *dx = to_device(x), *dy = to_device(y);
    CHECK_BLAS(Api<T>::gemv(h, t, m, n, &alpha, dA, lda, dx, 2, &beta, dy, 1));
    std::vector<Z> want(yn);
    for (int i = 0; i < yn; i++) {
      Z sum = 0;
      for (int l = 0; l < xn; l++) sum += op_at(t, A, lda, i, l) * wide(x[2 * l]);
      want[i] = wide(alpha) * sum + wide(beta) * wide(y[i]);
    }
    bad += wrong(to_host(dy, yn), want);
    CHECK_HIP(hipFree(dA));
    CHECK_HIP(hipFree(dx));
    CHECK_HIP(hipFree(dy));
  }
  char name[64];
  snprintf(name, sizeof name, "%sgemv, every transpose", type);
  report(name, bad);
}

template <class T> void check_batched(hipblasHandle_t h, const char *type) {
  const int m = 4, n = 3, k = 5, count = 3, lda = m, ldb = n, ldc = m;  // A as N, B as T
  const long long sa = lda * k + 2, sb = ldb * k + 1, sc = ldc * n + 3;
  auto A = random_vector<T>(sa * count), B = random_vector<T>(sb * count), Cm = random_vector<T>(sc * count);
  T alpha = random_value<T>(), beta = random_value<T>();
  std::vector<Z> want(Cm.size());
  for (size_t i = 0; i < Cm.size(); i++) want[i] = wide(Cm[i]);
  for (int b = 0; b < count; b++) {
    std::vector<T> Ab(A.begin() + b * sa, A.begin() + (b + 1) * sa), Bb(B.begin() + b * sb, B.begin() + (b + 1) * sb),
        Cb(Cm.begin() + b * sc, Cm.begin() + (b + 1) * sc);
    auto r = reference_gemm(HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, alpha, Ab, lda, Bb, ldb, beta, Cb, ldc);
    std::copy(r.begin(), r.end(), want.begin() + b * sc);
  }
  T *dA = to_device(A), *dB = to_device(B), *dC = to_device(Cm);
  CHECK_BLAS(Api<T>::strided(h, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &alpha, dA, lda, sa, dB, ldb, sb, &beta, dC, ldc,
                             sc, count));
  char name[64];
  snprintf(name, sizeof name, "%sgemmStridedBatched", type);
  report(name, wrong(to_host(dC, Cm.size()), want));

  CHECK_HIP(hipMemcpy(dC, Cm.data(), Cm.size() * sizeof(T), hipMemcpyHostToDevice));
  std::vector<T *> pa, pb, pc;
  for (int b = 0; b < count; b++) {
    pa.push_back(dA + b * sa);
    pb.push_back(dB + b * sb);
    pc.push_back(dC + b * sc);
  }
  T **dpa = to_device(pa), **dpb = to_device(pb), **dpc = to_device(pc);
  CHECK_BLAS(Api<T>::batched(h, HIPBLAS_OP_N, HIPBLAS_OP_T, m, n, k, &alpha, dpa, lda, dpb, ldb, &beta, dpc, ldc, count));
  snprintf(name, sizeof name, "%sgemmBatched", type);
  report(name, wrong(to_host(dC, Cm.size()), want));
  for (void *p : {(void *)dA, (void *)dB, (void *)dC, (void *)dpa, (void *)dpb, (void *)dpc}) CHECK_HIP(hipFree(p));
}

static void check_level1(hipblasHandle_t h) {
  const int n = 100;
  auto x = random_vector<float>(n), y = random_vector<float>(n);
  float *dx = to_device(x), *dy = to_device(y);
  float alpha = 0.75f;
  CHECK_BLAS(hipblasSaxpy(h, n, &alpha, dx, 1, dy, 1));
  std::vector<Z> want(n);
  for (int i = 0; i < n; i++) want[i] = double(alpha) * x[i] + double(y[i]);
  report("Saxpy", wrong(to_host(dy, n), want));

  auto xd = random_vector<double>(n), yd = random_vector<double>(n);
  double *dxd = to_device(xd), *dyd = to_device(yd);
  double dot = 0, want_dot = 0, nrm = 0, want_nrm = 0, sum = 0, want_sum = 0;
  for (int i = 0; i < n; i++) {
    want_dot += xd[i] * yd[i];
    want_nrm += xd[i] * xd[i];
    want_sum += std::fabs(xd[i]);
  }
  CHECK_BLAS(hipblasDdot(h, n, dxd, 1, dyd, 1, &dot));
  CHECK_BLAS(hipblasDnrm2(h, n, dxd, 1, &nrm));
  CHECK_BLAS(hipblasDasum(h, n, dxd, 1, &sum));
  report("Ddot, Dnrm2, Dasum", (std::fabs(dot - want_dot) > 1e-12) + (std::fabs(nrm - std::sqrt(want_nrm)) > 1e-12) +
                                   (std::fabs(sum - want_sum) > 1e-12));

  xd[37] = 5.0;
  xd[61] = -5.5;
  CHECK_HIP(hipMemcpy(dxd, xd.data(), n * sizeof(double), hipMemcpyHostToDevice));
  int imax = 0, imin = 0;
  CHECK_BLAS(hipblasIdamax(h, n, dxd, 1, &imax));
  int want_min = 1;
  for (int i = 0; i < n; i++)
    if (std::fabs(xd[i]) < std::fabs(xd[want_min - 1])) want_min = i + 1;
  CHECK_BLAS(hipblasIdamin(h, n, dxd, 1, &imin));
  report("Idamax, Idamin (1-based)", (imax != 62) + (imin != want_min));

  double scale = -2.0;
  CHECK_BLAS(hipblasDscal(h, n / 2, &scale, dxd, 2));
  auto scaled = to_host(dxd, n);
  std::vector<Z> want_scaled(n);
  for (int i = 0; i < n; i++) want_scaled[i] = i % 2 ? xd[i] : scale * xd[i];
  report("Dscal, stride 2", wrong(scaled, want_scaled));

  auto xc = random_vector<C>(n), yc = random_vector<C>(n);
  C *dxc = to_device(xc), *dyc = to_device(yc);
  hipblasComplex dotc, dotu;
  CHECK_BLAS(hipblasCdotc(h, n, Api<C>::p(dxc), 1, Api<C>::p(dyc), 1, &dotc));
  CHECK_BLAS(hipblasCdotu(h, n, Api<C>::p(dxc), 1, Api<C>::p(dyc), 1, &dotu));
  Z want_c = 0, want_u = 0;
  for (int i = 0; i < n; i++) {
    want_c += std::conj(wide(xc[i])) * wide(yc[i]);
    want_u += wide(xc[i]) * wide(yc[i]);
  }
  report("Cdotc, Cdotu", (std::abs(Z(dotc.real(), dotc.imag()) - want_c) > 1e-3) +
                             (std::abs(Z(dotu.real(), dotu.imag()) - want_u) > 1e-3));
  for (void *p : {(void *)dx, (void *)dy, (void *)dxd, (void *)dyd, (void *)dxc, (void *)dyc}) CHECK_HIP(hipFree(p));
}

// alpha and the result in device memory.
static void check_device_pointer_mode(hipblasHandle_t h) {
  const int n = 64;
  auto x = random_vector<float>(n), y = random_vector<float>(n);
  std::vector<float> scalars = {1.5f, 0.0f};  // alpha, then the dot product
  float *dx = to_device(x), *dy = to_device(y), *ds = to_device(scalars);
  CHECK_BLAS(hipblasSetPointerMode(h, HIPBLAS_POINTER_MODE_DEVICE));
  hipblasPointerMode_t mode;
  CHECK_BLAS(hipblasGetPointerMode(h, &mode));
  CHECK_BLAS(hipblasSaxpy(h, n, ds, dx, 1, dy, 1));
  CHECK_BLAS(hipblasSdot(h, n, dx, 1, dy, 1, ds + 1));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_BLAS(hipblasSetPointerMode(h, HIPBLAS_POINTER_MODE_HOST));
  std::vector<Z> want(n);
  double dot = 0;
  for (int i = 0; i < n; i++) {
    want[i] = 1.5 * x[i] + double(y[i]);
    dot += double(x[i]) * want[i].real();
  }
  auto result = to_host(ds, 2);
  report("pointer mode device: Saxpy, Sdot",
         wrong(to_host(dy, n), want) + (mode != HIPBLAS_POINTER_MODE_DEVICE) + (std::fabs(result[1] - dot) > 1e-3));
  for (void *p : {(void *)dx, (void *)dy, (void *)ds}) CHECK_HIP(hipFree(p));
}

__global__ void fill(float *out, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

// A kernel, a gemm and a copy on one stream: each sees the one before it.
static void check_stream_order(hipblasHandle_t h) {
  const int n = 64;
  hipStream_t stream;
  CHECK_HIP(hipStreamCreate(&stream));
  CHECK_BLAS(hipblasSetStream(h, stream));
  hipStream_t got;
  CHECK_BLAS(hipblasGetStream(h, &got));
  float *dA, *dB, *dC;
  for (float **p : {&dA, &dB, &dC}) CHECK_HIP(hipMalloc(p, n * n * sizeof(float)));
  std::vector<float> result(n * n);
  float one = 1.0f, zero = 0.0f;
  hipLaunchKernelGGL(fill, dim3(n), dim3(n), 0, stream, dA, 2.0f, n * n);
  hipLaunchKernelGGL(fill, dim3(n), dim3(n), 0, stream, dB, 0.5f, n * n);
  CHECK_BLAS(hipblasSgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, n, n, n, &one, dA, n, dB, n, &zero, dC, n));
  CHECK_BLAS(hipblasGetMatrixAsync(n, n, sizeof(float), dC, n, result.data(), n, stream));
  CHECK_HIP(hipStreamSynchronize(stream));
  int bad = got != stream;
  for (float v : result) bad += v != float(n);
  report("stream order: kernel, Sgemm, GetMatrixAsync", bad);
  CHECK_BLAS(hipblasSetStream(h, nullptr));
  for (float *p : {dA, dB, dC}) CHECK_HIP(hipFree(p));
  CHECK_HIP(hipStreamDestroy(stream));
}

// A call captured into a graph runs at each launch of the graph.
static void check_graph_capture(hipblasHandle_t h) {
  const int n = 64;
  auto x = random_vector<float>(n), y = random_vector<float>(n);
  float *dx = to_device(x), *dy = to_device(y);
  float alpha = 0.5f;
  hipStream_t stream;
  CHECK_HIP(hipStreamCreate(&stream));
  CHECK_BLAS(hipblasSetStream(h, stream));
  hipGraph_t graph;
  hipGraphExec_t exec;
  CHECK_HIP(hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal));
  CHECK_BLAS(hipblasSaxpy(h, n, &alpha, dx, 1, dy, 1));
  CHECK_HIP(hipStreamEndCapture(stream, &graph));
  CHECK_HIP(hipGraphInstantiate(&exec, graph, nullptr, nullptr, 0));
  for (int launch = 0; launch < 3; launch++) CHECK_HIP(hipGraphLaunch(exec, stream));
  CHECK_HIP(hipStreamSynchronize(stream));
  std::vector<Z> want(n);
  for (int i = 0; i < n; i++) want[i] = 3 * double(alpha) * x[i] + double(y[i]);
  report("Saxpy captured in a graph, launched three times", wrong(to_host(dy, n), want));
  CHECK_HIP(hipGraphExecDestroy(exec));
  CHECK_HIP(hipGraphDestroy(graph));
  CHECK_BLAS(hipblasSetStream(h, nullptr));
  CHECK_HIP(hipStreamDestroy(stream));
}

static uint16_t to_half(float f) {
  _Float16 h = static_cast<_Float16>(f);
  uint16_t bits;
  memcpy(&bits, &h, 2);
  return bits;
}
static float from_half(uint16_t bits) {
  _Float16 h;
  memcpy(&h, &bits, 2);
  return float(h);
}
static uint16_t to_bfloat16(float f) {  // exact for the values used here
  uint32_t word;
  memcpy(&word, &f, 4);
  return uint16_t(word >> 16);
}

static void check_gemm_ex(hipblasHandle_t h) {
  const int m = 8, n = 6, k = 4;
  // Small integers and halves: exact in half, bfloat16 and float.
  std::vector<float> A(m * k), B(k * n), Cm(m * n, 1.0f);
  for (int i = 0; i < m * k; i++) A[i] = float(i % 5) - 2;
  for (int i = 0; i < k * n; i++) B[i] = float(i % 3) * 0.5f;
  std::vector<Z> want = reference_gemm(HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, 2.0f, A, m, B, k, 1.0f, Cm, m);
  float alpha = 2.0f, beta = 1.0f;

  float *dA = to_device(A), *dB = to_device(B), *dC = to_device(Cm);
  CHECK_BLAS(hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &alpha, dA, HIPBLAS_R_32F, m, dB, HIPBLAS_R_32F, k,
                           &beta, dC, HIPBLAS_R_32F, m, HIPBLAS_R_32F, HIPBLAS_GEMM_DEFAULT));
  report("GemmEx float", wrong(to_host(dC, m * n), want));

  std::vector<uint16_t> hA(m * k), hB(k * n), hC(m * n), bA(m * k), bB(k * n);
  for (int i = 0; i < m * k; i++) hA[i] = to_half(A[i]), bA[i] = to_bfloat16(A[i]);
  for (int i = 0; i < k * n; i++) hB[i] = to_half(B[i]), bB[i] = to_bfloat16(B[i]);
  for (int i = 0; i < m * n; i++) hC[i] = to_half(Cm[i]);
  uint16_t *dhA = to_device(hA), *dhB = to_device(hB), *dhC = to_device(hC);
  CHECK_BLAS(hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &alpha, dhA, HIPBLAS_R_16F, m, dhB, HIPBLAS_R_16F, k,
                           &beta, dhC, HIPBLAS_R_16F, m, HIPBLAS_R_32F, HIPBLAS_GEMM_DEFAULT));
  auto half_out = to_host(dhC, m * n);
  std::vector<float> half_as_float(m * n);
  for (int i = 0; i < m * n; i++) half_as_float[i] = from_half(half_out[i]);
  report("GemmEx half, computed in float", wrong(half_as_float, want));

  uint16_t *dbA = to_device(bA), *dbB = to_device(bB);
  CHECK_HIP(hipMemcpy(dC, Cm.data(), m * n * sizeof(float), hipMemcpyHostToDevice));
  CHECK_BLAS(hipblasGemmEx_v2(h, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &alpha, dbA, HIP_R_16BF, m, dbB, HIP_R_16BF, k,
                              &beta, dC, HIP_R_32F, m, HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT));
  report("GemmEx_v2 bfloat16 to float", wrong(to_host(dC, m * n), want));

  uint16_t one = to_half(1.0f), zero = to_half(0.0f);
  CHECK_BLAS(hipblasHgemm(h, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &one, dhA, m, dhB, k, &zero, dhC, m));
  half_out = to_host(dhC, m * n);
  for (int i = 0; i < m * n; i++) half_as_float[i] = from_half(half_out[i]);
  std::vector<float> zeros(m * n, 0.0f);
  report("Hgemm", wrong(half_as_float, reference_gemm(HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, 1.0f, A, m, B, k, 0.0f,
                                                      zeros, m)));

  hipblasStatus_t unsupported = hipblasGemmEx(h, HIPBLAS_OP_N, HIPBLAS_OP_N, m, n, k, &alpha, dA, HIPBLAS_R_8I, m, dB,
                                              HIPBLAS_R_8I, k, &beta, dC, HIPBLAS_R_32I, m, HIPBLAS_R_32I,
                                              HIPBLAS_GEMM_DEFAULT);
  report("GemmEx int8: not supported", unsupported != HIPBLAS_STATUS_NOT_SUPPORTED);
  for (void *p : {(void *)dA, (void *)dB, (void *)dC, (void *)dhA, (void *)dhB, (void *)dhC, (void *)dbA, (void *)dbB})
    CHECK_HIP(hipFree(p));
}

static void check_dot_ex(hipblasHandle_t h) {
  const int n = 16;
  std::vector<float> x(n), y(n);
  std::vector<uint16_t> hx(n), hy(n);
  std::vector<C> cx(n), cy(n);
  float want = 0, half_want = 0;
  C cwant = 0;
  for (int i = 0; i < n; i++) {
    x[i] = 0.25f * (i % 5), y[i] = 1.0f + (i % 3);  // small: exact in half, and their dot too
    hx[i] = to_half(x[i]), hy[i] = to_half(y[i]);
    cx[i] = C(x[i], -y[i]), cy[i] = C(y[i], 0.5f * i);
    want += x[i] * y[i];
    cwant += std::conj(cx[i]) * cy[i];
  }
  half_want = want;
  float *dx = to_device(x), *dy = to_device(y), result = 0;
  uint16_t *dhx = to_device(hx), *dhy = to_device(hy), half_result = 0;
  C *dcx = to_device(cx), *dcy = to_device(cy), cresult = 0;
  CHECK_BLAS(hipblasDotEx(h, n, dx, HIPBLAS_R_32F, 1, dy, HIPBLAS_R_32F, 1, &result, HIPBLAS_R_32F, HIPBLAS_R_32F));
  CHECK_BLAS(hipblasDotEx(h, n, dhx, HIPBLAS_R_16F, 1, dhy, HIPBLAS_R_16F, 1, &half_result, HIPBLAS_R_16F,
                          HIPBLAS_R_32F));
  CHECK_BLAS(hipblasDotcEx(h, n, dcx, HIPBLAS_C_32F, 1, dcy, HIPBLAS_C_32F, 1, &cresult, HIPBLAS_C_32F, HIPBLAS_C_32F));
  report("DotEx float and half, DotcEx complex",
         (result != want) + (from_half(half_result) != half_want) + (std::abs(cresult - cwant) > 1e-4f));
  for (void *p : {(void *)dx, (void *)dy, (void *)dhx, (void *)dhy, (void *)dcx, (void *)dcy}) CHECK_HIP(hipFree(p));
}

static void check_set_get(void) {
  const int rows = 3, cols = 4, lda = 5, ldb = 3;
  std::vector<double> host(lda * cols), back(ldb * cols, 0.0);
  for (int i = 0; i < lda * cols; i++) host[i] = i;
  double *device;
  CHECK_HIP(hipMalloc(&device, ldb * cols * sizeof(double)));
  CHECK_BLAS(hipblasSetMatrix(rows, cols, sizeof(double), host.data(), lda, device, ldb));
  CHECK_BLAS(hipblasGetMatrix(rows, cols, sizeof(double), device, ldb, back.data(), ldb));
  int bad = 0;
  for (int j = 0; j < cols; j++)
    for (int i = 0; i < rows; i++) bad += back[i + j * ldb] != host[i + j * lda];
  std::vector<double> every_other(6, -1.0);
  CHECK_BLAS(hipblasSetVector(3, sizeof(double), host.data(), 1, device, 2));
  CHECK_BLAS(hipblasGetVector(6, sizeof(double), device, 1, every_other.data(), 1));
  bad += every_other[0] != 0 || every_other[2] != 1 || every_other[4] != 2;
  report("Set/GetMatrix, Set/GetVector", bad);
  CHECK_HIP(hipFree(device));
}

static void check_level3_more(hipblasHandle_t h) {
  // trsm then trmm: B = A^-1 B, then C = A B gives B back.
  const int m = 4, n = 3;
  std::vector<double> A(m * m, 0.0), B = random_vector<double>(m * n), Cm(m * n, 0.0);
  for (int j = 0; j < m; j++)
    for (int i = 0; i <= j; i++) A[i + j * m] = i == j ? 2.0 + i : 0.25 * (i + j);
  double *dA = to_device(A), *dB = to_device(B), *dC = to_device(Cm), one = 1.0;
  CHECK_BLAS(hipblasDtrsm(h, HIPBLAS_SIDE_LEFT, HIPBLAS_FILL_MODE_UPPER, HIPBLAS_OP_N, HIPBLAS_DIAG_NON_UNIT, m, n, &one,
                          dA, m, dB, m));
  CHECK_BLAS(hipblasDtrmm(h, HIPBLAS_SIDE_LEFT, HIPBLAS_FILL_MODE_UPPER, HIPBLAS_OP_N, HIPBLAS_DIAG_NON_UNIT, m, n, &one,
                          dA, m, dB, m, dC, m));
  std::vector<Z> want(B.begin(), B.end());
  report("Dtrsm, Dtrmm", wrong(to_host(dC, m * n), want));

  // geam: C = 2 A^T - B.
  std::vector<double> G = random_vector<double>(m * n), H = random_vector<double>(n * m);
  double *dG = to_device(G), *dH = to_device(H), two = 2.0, minus = -1.0;
  CHECK_BLAS(hipblasDgeam(h, HIPBLAS_OP_T, HIPBLAS_OP_N, n, m, &two, dG, m, &minus, dH, n, dC, n));
  std::vector<Z> want_geam(n * m);
  for (int j = 0; j < m; j++)
    for (int i = 0; i < n; i++) want_geam[i + j * n] = 2 * G[j + i * m] - H[i + j * n];
  report("Dgeam", wrong(to_host(dC, n * m), want_geam));
  for (void *p : {(void *)dA, (void *)dB, (void *)dC, (void *)dG, (void *)dH}) CHECK_HIP(hipFree(p));
}

static void check_not_supported(hipblasHandle_t h) {
  float x = 0;
  hipblasStatus_t first = hipblasStpsv(h, HIPBLAS_FILL_MODE_UPPER, HIPBLAS_OP_N, HIPBLAS_DIAG_UNIT, 1, &x, &x, 1);
  hipblasStatus_t second = hipblasStpsv(h, HIPBLAS_FILL_MODE_UPPER, HIPBLAS_OP_N, HIPBLAS_DIAG_UNIT, 1, &x, &x, 1);
  report("Stpsv: not supported", (first != HIPBLAS_STATUS_NOT_SUPPORTED) + (second != HIPBLAS_STATUS_NOT_SUPPORTED));
}

int main() {
  hipblasHandle_t h;
  CHECK_BLAS(hipblasCreate(&h));
  check_level1(h);
  check_gemv<float>(h, "S");
  check_gemv<double>(h, "D");
  check_gemv<C>(h, "C");
  check_gemv<Z>(h, "Z");
  check_gemm<float>(h, "S");
  check_gemm<double>(h, "D");
  check_gemm<C>(h, "C");
  check_gemm<Z>(h, "Z");
  check_batched<float>(h, "S");
  check_batched<Z>(h, "Z");
  check_gemm_ex(h);
  check_dot_ex(h);
  check_device_pointer_mode(h);
  check_stream_order(h);
  check_graph_capture(h);
  check_set_get();
  check_level3_more(h);
  check_not_supported(h);
  CHECK_BLAS(hipblasDestroy(h));
  printf("hipblas: %d cases\n", cases);
  return 0;
}
