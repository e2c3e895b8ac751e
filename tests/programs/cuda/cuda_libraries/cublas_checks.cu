// cuBLAS on the simulated device: level 1 to 3 results against references
// computed here, the batched and Ex gemms, device pointer mode, a stream and
// the statuses of bad calls.  Prints "NAME: ok" or "NAME: FAILED ...".
#include <cublas_v2.h>
#include <cuda_fp16.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

static int failures = 0;

static void report(const char *name, bool ok, const char *detail = "") {
  printf("%s: %s%s\n", name, ok ? "ok" : "FAILED ", ok ? "" : detail);
  if (!ok) failures++;
}

#define CHECK(call)                                                      \
  do {                                                                   \
    cublasStatus_t s_ = (call);                                          \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                   \
      printf("%s: FAILED %s\n", #call, cublasGetStatusName(s_));         \
      failures++;                                                        \
    }                                                                    \
  } while (0)

template <class T> T *device_copy(const std::vector<T> &host) {
  T *device;
  cudaMalloc(&device, host.size() * sizeof(T));
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}
template <class T> std::vector<T> host_copy(const T *device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

// The element types and their std::complex (or real) twins.
template <class T> struct Ref { using type = T; };
template <> struct Ref<cuComplex> { using type = std::complex<float>; };
template <> struct Ref<cuDoubleComplex> { using type = std::complex<double>; };
template <class T> typename Ref<T>::type ref(T v) { return *reinterpret_cast<typename Ref<T>::type *>(&v); }
template <class T> T make(double re, double im) {
  typename Ref<T>::type v;
  if constexpr (!std::is_floating_point_v<T>)
    v = typename Ref<T>::type(re, im);
  else
    v = typename Ref<T>::type(re);
  return *reinterpret_cast<T *>(&v);
}

cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k, const float *al,
                    const float *A, int lda, const float *B, int ldb, const float *be, float *C, int ldc) {
  return cublasSgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k, const double *al,
                    const double *A, int lda, const double *B, int ldb, const double *be, double *C, int ldc) {
  return cublasDgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k,
                    const cuComplex *al, const cuComplex *A, int lda, const cuComplex *B, int ldb, const cuComplex *be,
                    cuComplex *C, int ldc) {
  return cublasCgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}
cublasStatus_t gemm(cublasHandle_t h, cublasOperation_t a, cublasOperation_t b, int m, int n, int k,
                    const cuDoubleComplex *al, const cuDoubleComplex *A, int lda, const cuDoubleComplex *B, int ldb,
                    const cuDoubleComplex *be, cuDoubleComplex *C, int ldc) {
  return cublasZgemm(h, a, b, m, n, k, al, A, lda, B, ldb, be, C, ldc);
}

// op(X)[i][j] of a column-major X with leading dimension ld.
template <class R> R element(cublasOperation_t op, const std::vector<R> &X, int ld, int i, int j) {
  if (op == CUBLAS_OP_N) return X[i + j * ld];
  R v = X[j + i * ld];
  if constexpr (!std::is_floating_point_v<R>)
    if (op == CUBLAS_OP_C) return std::conj(v);
  return v;
}

template <class T> void check_gemm(cublasHandle_t h, const char *name, cublasOperation_t ta, cublasOperation_t tb) {
  using R = typename Ref<T>::type;
  const int m = 5, n = 4, k = 3;
  int lda = ta == CUBLAS_OP_N ? m : k, ldb = tb == CUBLAS_OP_N ? k : n;
  std::vector<T> A(lda * (ta == CUBLAS_OP_N ? k : m)), B(ldb * (tb == CUBLAS_OP_N ? n : k)), C(m * n);
  for (size_t i = 0; i < A.size(); i++) A[i] = make<T>(0.5 * i - 2, 0.25 * i);
  for (size_t i = 0; i < B.size(); i++) B[i] = make<T>(1.0 - 0.3 * i, -0.5 * i);
  for (size_t i = 0; i < C.size(); i++) C[i] = make<T>(i % 3, 1);
  T alpha = make<T>(1.5, 0.5), beta = make<T>(-0.5, 0.25);
  T *dA = device_copy(A), *dB = device_copy(B), *dC = device_copy(C);
  CHECK(gemm(h, ta, tb, m, n, k, &alpha, dA, lda, dB, ldb, &beta, dC, m));
  std::vector<T> out = host_copy(dC, C.size());
  std::vector<R> rA(A.size()), rB(B.size());
  for (size_t i = 0; i < A.size(); i++) rA[i] = ref(A[i]);
  for (size_t i = 0; i < B.size(); i++) rB[i] = ref(B[i]);
  double error = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      R sum = 0;
      for (int l = 0; l < k; l++) sum += element(ta, rA, lda, i, l) * element(tb, rB, ldb, l, j);
      R expected = ref(alpha) * sum + ref(beta) * ref(C[i + j * m]);
      error = std::fmax(error, std::abs(expected - ref(out[i + j * m])));
    }
  char detail[64];
  snprintf(detail, sizeof detail, "error %g", error);
  report(name, error < 1e-4, detail);
  cudaFree(dA), cudaFree(dB), cudaFree(dC);
}

int main() {
  cublasHandle_t h;
  CHECK(cublasCreate(&h));
  int version = 0;
  CHECK(cublasGetVersion(h, &version));
  report("version", version == CUBLAS_VERSION);

  // Level 1.
  std::vector<float> x = {1, 2, 3, 4, -5}, y = {5, 4, 3, 2, 1};
  float *dx = device_copy(x), *dy = device_copy(y);
  float alpha = 2, dot = 0, nrm = 0;
  CHECK(cublasSaxpy(h, 5, &alpha, dx, 1, dy, 1));
  std::vector<float> ay = host_copy(dy, 5);
  report("saxpy", ay[0] == 7 && ay[1] == 8 && ay[4] == -9);
  CHECK(cublasSdot(h, 5, dx, 1, dy, 1, &dot));
  report("sdot", dot == 7 + 16 + 27 + 40 + 45);
  CHECK(cublasSnrm2(h, 5, dx, 1, &nrm));
  report("snrm2", std::fabs(nrm - std::sqrt(55.0f)) < 1e-5f);
  int index = 0;
  CHECK(cublasIsamax(h, 5, dx, 1, &index));
  report("isamax (1-based)", index == 5);

  // Level 2: y = A^T x for a 3x2 A.
  std::vector<double> A = {1, 2, 3, 4, 5, 6}, v = {1, -1, 2}, w = {0, 0};
  double *dA = device_copy(A), *dv = device_copy(v), *dw = device_copy(w), one = 1, zero = 0;
  CHECK(cublasDgemv(h, CUBLAS_OP_T, 3, 2, &one, dA, 3, dv, 1, &zero, dw, 1));
  std::vector<double> gw = host_copy(dw, 2);
  report("dgemv transposed", gw[0] == 1 - 2 + 6 && gw[1] == 4 - 5 + 12);

  // Level 3, every precision, with transposes.
  check_gemm<float>(h, "sgemm NN", CUBLAS_OP_N, CUBLAS_OP_N);
  check_gemm<float>(h, "sgemm TN", CUBLAS_OP_T, CUBLAS_OP_N);
  check_gemm<double>(h, "dgemm NT", CUBLAS_OP_N, CUBLAS_OP_T);
  check_gemm<double>(h, "dgemm TT", CUBLAS_OP_T, CUBLAS_OP_T);
  check_gemm<cuComplex>(h, "cgemm CN", CUBLAS_OP_C, CUBLAS_OP_N);
  check_gemm<cuComplex>(h, "cgemm NT", CUBLAS_OP_N, CUBLAS_OP_T);
  check_gemm<cuDoubleComplex>(h, "zgemm NC", CUBLAS_OP_N, CUBLAS_OP_C);
  check_gemm<cuDoubleComplex>(h, "zgemm NN", CUBLAS_OP_N, CUBLAS_OP_N);

  // Strided batched: three 2x2 products, each A_i = (i+1) I times B_i.
  {
    std::vector<float> As(12, 0), Bs(12), Cs(12, 0);
    for (int i = 0; i < 3; i++) As[4 * i] = As[4 * i + 3] = float(i + 1);
    for (int i = 0; i < 12; i++) Bs[i] = float(i);
    float *a = device_copy(As), *b = device_copy(Bs), *c = device_copy(Cs), al = 1, be = 0;
    CHECK(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &al, a, 2, 4, b, 2, 4, &be, c, 2, 4, 3));
    std::vector<float> got = host_copy(c, 12);
    bool ok = true;
    for (int i = 0; i < 12; i++) ok &= got[i] == Bs[i] * float(i / 4 + 1);
    report("sgemmStridedBatched", ok);
    // The same through GemmStridedBatchedEx.
    cudaMemset(c, 0, 12 * sizeof(float));
    CHECK(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &al, a, CUDA_R_32F, 2, 4, b, CUDA_R_32F, 2,
                                     4, &be, c, CUDA_R_32F, 2, 4, 3, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
    report("GemmStridedBatchedEx", host_copy(c, 12) == got);
    cudaFree(a), cudaFree(b), cudaFree(c);
  }

  // GemmEx: half inputs, float output and compute; and all-float with the
  // compute type older code passes (a cudaDataType).
  {
    std::vector<__half> Ah(4), Bh(4);
    for (int i = 0; i < 4; i++) Ah[i] = __float2half(float(i + 1)), Bh[i] = __float2half(float(i % 2));
    __half *a = device_copy(Ah), *b = device_copy(Bh);
    float *c, al = 1, be = 0;
    cudaMalloc(&c, 4 * sizeof(float));
    CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &al, a, CUDA_R_16F, 2, b, CUDA_R_16F, 2, &be, c,
                       CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT_TENSOR_OP));
    // A = [1 3; 2 4], B = [0 0; 1 1] (column-major): A B = [3 3; 4 4].
    std::vector<float> got = host_copy(c, 4);
    report("GemmEx half to float", got[0] == 3 && got[1] == 4 && got[2] == 3 && got[3] == 4);
    // DotEx of the halves, into a half computed in float: 1*0 + 2*1 + 3*0 + 4*1.
    __half *dot_h;
    cudaMalloc(&dot_h, sizeof(__half));
    CHECK(cublasDotEx(h, 4, a, CUDA_R_16F, 1, b, CUDA_R_16F, 1, dot_h, CUDA_R_16F, CUDA_R_32F));
    report("DotEx half", __half2float(host_copy(dot_h, 1)[0]) == 6.0f);
    cudaFree(dot_h);
    std::vector<float> Af = {1, 2, 3, 4}, Bf = {0, 1, 0, 1};
    float *af = device_copy(Af), *bf = device_copy(Bf);
    CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &al, af, CUDA_R_32F, 2, bf, CUDA_R_32F, 2, &be, c,
                       CUDA_R_32F, 2, CUDA_R_32F, CUBLAS_GEMM_DEFAULT));
    report("GemmEx float, cudaDataType compute", host_copy(c, 4) == got);
    cublasStatus_t s = cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &al, af, CUDA_R_32F, 2, bf, CUDA_R_64F, 2,
                                    &be, c, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
    report("GemmEx mixed types: CUBLAS_STATUS_NOT_SUPPORTED", s == CUBLAS_STATUS_NOT_SUPPORTED);
    cudaFree(a), cudaFree(b), cudaFree(c), cudaFree(af), cudaFree(bf);
  }

  // Device pointer mode: alpha and the dot's result in device memory, on a stream.
  {
    cudaStream_t stream;
    cudaStreamCreate(&stream);
    CHECK(cublasSetStream(h, stream));
    cudaStream_t got_stream = nullptr;
    CHECK(cublasGetStream(h, &got_stream));
    report("stream", got_stream == stream);
    CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
    cublasPointerMode_t mode;
    CHECK(cublasGetPointerMode(h, &mode));
    std::vector<float> scalars = {3, 0};
    float *ds = device_copy(scalars);
    std::vector<float> ones(5, 1);
    float *d1 = device_copy(ones);
    CHECK(cublasSscal(h, 5, ds, d1, 1));
    CHECK(cublasSdot(h, 5, d1, 1, d1, 1, ds + 1));
    cudaStreamSynchronize(stream);
    report("device pointer mode", mode == CUBLAS_POINTER_MODE_DEVICE && host_copy(ds, 2)[1] == 45);
    CHECK(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
    CHECK(cublasSetStream(h, 0));
    cudaStreamDestroy(stream);
    cudaFree(ds), cudaFree(d1);
  }

  // Vector and matrix copies with strides and leading dimensions.
  {
    std::vector<float> host = {1, 2, 3, 4, 5, 6}, back(6, 0);
    float *d;
    cudaMalloc(&d, 6 * sizeof(float));
    CHECK(cublasSetVector(3, sizeof(float), host.data(), 2, d, 1));
    CHECK(cublasGetVector(3, sizeof(float), d, 1, back.data(), 1));
    bool ok = back[0] == 1 && back[1] == 3 && back[2] == 5;
    CHECK(cublasSetMatrix(2, 2, sizeof(float), host.data(), 3, d, 2));
    CHECK(cublasGetMatrix(2, 2, sizeof(float), d, 2, back.data(), 2));
    report("Set/GetVector and Set/GetMatrix", ok && back[0] == 1 && back[1] == 2 && back[2] == 4 && back[3] == 5);
    cudaFree(d);
  }

  // Statuses of bad calls.
  float f = 1;
  report("bad lda: CUBLAS_STATUS_INVALID_VALUE",
         cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 4, 4, &f, dx, 1, dx, 4, &f, dy, 4) ==
             CUBLAS_STATUS_INVALID_VALUE);
  report("CUBLAS_OP_CONJG: CUBLAS_STATUS_INVALID_VALUE",
         cublasSgemm(h, CUBLAS_OP_CONJG, CUBLAS_OP_N, 1, 1, 1, &f, dx, 1, dx, 1, &f, dy, 1) ==
             CUBLAS_STATUS_INVALID_VALUE);
  report("null handle: CUBLAS_STATUS_NOT_INITIALIZED",
         cublasSaxpy(nullptr, 5, &f, dx, 1, dy, 1) == CUBLAS_STATUS_NOT_INITIALIZED);

  CHECK(cublasDestroy(h));
  cudaFree(dx), cudaFree(dy), cudaFree(dA), cudaFree(dv), cudaFree(dw);
  printf("cublas: %d failed\n", failures);
  return failures != 0;
}
