// gpusym's hipSPARSE against dense products computed here, on the host.
// Prints one line a case, "hipsparse: CASE: N wrong", and
// "hipsparse: N cases" at the end.
#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

using C = std::complex<float>;
using Z = std::complex<double>;

static int cases = 0;
static std::mt19937 rng(11);

#define CHECK_HIP(call)                                                            \
  do {                                                                             \
    hipError_t e_ = (call);                                                        \
    if (e_ != hipSuccess) {                                                        \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipGetErrorString(e_)); \
      exit(1);                                                                     \
    }                                                                              \
  } while (0)
#define CHECK_SPARSE(call)                                                                 \
  do {                                                                                     \
    hipsparseStatus_t s_ = (call);                                                         \
    if (s_ != HIPSPARSE_STATUS_SUCCESS) {                                                  \
      printf("%s:%d: %s: %s\n", __FILE__, __LINE__, #call, hipsparseGetErrorName(s_));     \
      exit(1);                                                                             \
    }                                                                                      \
  } while (0)

template <class T> T random_value() {
  std::uniform_real_distribution<double> d(-1, 1);
  if constexpr (std::is_arithmetic_v<T>)
    return T(d(rng));
  else
    return T(d(rng), d(rng));
}
template <class T> Z wide(T x) { return Z(std::real(x), std::imag(x)); }
template <class T> hipDataType type_of() {
  if constexpr (std::is_same_v<T, float>) return HIP_R_32F;
  if constexpr (std::is_same_v<T, double>) return HIP_R_64F;
  if constexpr (std::is_same_v<T, C>) return HIP_C_32F;
  return HIP_C_64F;
}
template <class T> int wrong(const std::vector<T> &got, const std::vector<Z> &want) {
  double tol = std::is_same_v<T, float> || std::is_same_v<T, C> ? 1e-4 : 1e-11;
  int bad = 0;
  for (size_t i = 0; i < want.size(); i++) bad += std::abs(wide(got[i]) - want[i]) > tol * (1 + std::abs(want[i]));
  return bad;
}
static void report(const char *name, int bad) {
  printf("hipsparse: %s: %d wrong\n", name, bad);
  cases++;
}
template <class T> T *to_device(const std::vector<T> &host) {
  T *device;
  CHECK_HIP(hipMalloc(&device, std::max<size_t>(1, host.size()) * sizeof(T)));
  CHECK_HIP(hipMemcpy(device, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice));
  return device;
}
template <class T> std::vector<T> to_host(const T *device, size_t n) {
  std::vector<T> host(n);
  CHECK_HIP(hipMemcpy(host.data(), device, n * sizeof(T), hipMemcpyDeviceToHost));
  return host;
}

// A random m x n matrix, dense (column-major) and as CSR with indices of type I.
template <class T, class I = int> struct Sparse {
  int m, n;
  std::vector<T> dense;
  std::vector<I> offsets, columns, rows;  // rows: COO row indices
  std::vector<T> values;
  Sparse(int m_, int n_, int base) : m(m_), n(n_), dense(size_t(m_) * n_) {
    std::uniform_real_distribution<double> keep(0, 1);
    for (T &v : dense)
      if (keep(rng) < 0.3) v = random_value<T>();
    build(base);
  }
  // The CSR form of a dense matrix of one's own.
  Sparse(int m_, int n_, int base, std::vector<T> given) : m(m_), n(n_), dense(std::move(given)) { build(base); }
  void build(int base) {
    for (int i = 0; i < m; i++) {
      offsets.push_back(I(values.size() + base));
      for (int j = 0; j < n; j++)
        if (dense[i + size_t(j) * m] != T(0)) {
          values.push_back(dense[i + size_t(j) * m]);
          columns.push_back(I(j + base));
          rows.push_back(I(i + base));
        }
    }
    offsets.push_back(I(values.size() + base));
  }
  // op(A) x, for op N, T or C.
  std::vector<Z> times(hipsparseOperation_t op, const std::vector<T> &x, T alpha, T beta,
                       const std::vector<T> &y) const {
    int out = op == HIPSPARSE_OPERATION_NON_TRANSPOSE ? m : n, in = op == HIPSPARSE_OPERATION_NON_TRANSPOSE ? n : m;
    std::vector<Z> r(out);
    for (int i = 0; i < out; i++) {
      Z sum = 0;
      for (int l = 0; l < in; l++) {
        Z a = op == HIPSPARSE_OPERATION_NON_TRANSPOSE ? wide(dense[i + size_t(l) * m]) : wide(dense[l + size_t(i) * m]);
        if (op == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE) a = std::conj(a);
        sum += a * wide(x[l]);
      }
      r[i] = wide(alpha) * sum + wide(beta) * wide(y[i]);
    }
    return r;
  }
};

template <class T, class I = int>
int spmv_case(hipsparseHandle_t h, hipsparseOperation_t op, hipsparseIndexBase_t base, hipsparseFormat_t format) {
  const int m = 13, n = 9;
  Sparse<T, I> a(m, n, base);
  int in = op == HIPSPARSE_OPERATION_NON_TRANSPOSE ? n : m, out = op == HIPSPARSE_OPERATION_NON_TRANSPOSE ? m : n;
  std::vector<T> x(in), y(out);
  for (T &v : x) v = random_value<T>();
  for (T &v : y) v = random_value<T>();
  T alpha = random_value<T>(), beta = random_value<T>();
  I *d_offsets = to_device(format == HIPSPARSE_FORMAT_COO ? a.rows : a.offsets), *d_columns = to_device(a.columns);
  T *d_values = to_device(a.values), *dx = to_device(x), *dy = to_device(y);
  hipsparseIndexType_t index = sizeof(I) == 8 ? HIPSPARSE_INDEX_64I : HIPSPARSE_INDEX_32I;
  hipsparseSpMatDescr_t A;
  if (format == HIPSPARSE_FORMAT_COO)
    CHECK_SPARSE(hipsparseCreateCoo(&A, m, n, a.values.size(), d_offsets, d_columns, d_values, index, base,
                                    type_of<T>()));
  else
    CHECK_SPARSE(hipsparseCreateCsr(&A, m, n, a.values.size(), d_offsets, d_columns, d_values, index, index, base,
                                    type_of<T>()));
  hipsparseDnVecDescr_t X, Y;
  CHECK_SPARSE(hipsparseCreateDnVec(&X, in, dx, type_of<T>()));
  CHECK_SPARSE(hipsparseCreateDnVec(&Y, out, dy, type_of<T>()));
  size_t size = 1;
  CHECK_SPARSE(hipsparseSpMV_bufferSize(h, op, &alpha, A, X, &beta, Y, type_of<T>(), HIPSPARSE_SPMV_ALG_DEFAULT, &size));
  void *buffer;
  CHECK_HIP(hipMalloc(&buffer, size + 1));
  CHECK_SPARSE(hipsparseSpMV(h, op, &alpha, A, X, &beta, Y, type_of<T>(), HIPSPARSE_SPMV_ALG_DEFAULT, buffer));
  int bad = wrong(to_host(dy, out), a.times(op, x, alpha, beta, y));
  CHECK_SPARSE(hipsparseDestroySpMat(A));
  CHECK_SPARSE(hipsparseDestroyDnVec(X));
  CHECK_SPARSE(hipsparseDestroyDnVec(Y));
  for (void *p : {(void *)d_offsets, (void *)d_columns, (void *)d_values, (void *)dx, (void *)dy, buffer})
    CHECK_HIP(hipFree(p));
  return bad;
}

static void check_spmv(hipsparseHandle_t h) {
  const auto N = HIPSPARSE_OPERATION_NON_TRANSPOSE, T = HIPSPARSE_OPERATION_TRANSPOSE,
             H = HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  const auto zero = HIPSPARSE_INDEX_BASE_ZERO, one = HIPSPARSE_INDEX_BASE_ONE;
  report("SpMV CSR float, base 0, N and T",
         spmv_case<float>(h, N, zero, HIPSPARSE_FORMAT_CSR) + spmv_case<float>(h, T, zero, HIPSPARSE_FORMAT_CSR));
  report("SpMV CSR double, base 1, N and T",
         spmv_case<double>(h, N, one, HIPSPARSE_FORMAT_CSR) + spmv_case<double>(h, T, one, HIPSPARSE_FORMAT_CSR));
  report("SpMV CSR complex float, N and C",
         spmv_case<C>(h, N, zero, HIPSPARSE_FORMAT_CSR) + spmv_case<C>(h, H, one, HIPSPARSE_FORMAT_CSR));
  report("SpMV CSR complex double, 64-bit indices", spmv_case<Z, int64_t>(h, H, zero, HIPSPARSE_FORMAT_CSR));
  report("SpMV COO double, base 1", spmv_case<double>(h, N, one, HIPSPARSE_FORMAT_COO));
}

// C = alpha op(A) op(B) + beta C, B and C in `order`.
template <class T>
int spmm_case(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b, hipsparseOrder_t order) {
  const int m = 7, k = 6, n = 5;  // op(A) is m x k
  bool ta = op_a != HIPSPARSE_OPERATION_NON_TRANSPOSE, tb = op_b != HIPSPARSE_OPERATION_NON_TRANSPOSE;
  Sparse<T> a(ta ? k : m, ta ? m : k, 0);
  int b_rows = tb ? n : k, b_cols = tb ? k : n;
  bool row = order == HIPSPARSE_ORDER_ROW;
  int ldb = (row ? b_cols : b_rows) + 1, ldc = (row ? n : m) + 2;
  std::vector<T> B(size_t(ldb) * (row ? b_rows : b_cols)), Cm(size_t(ldc) * (row ? m : n));
  for (T &v : B) v = random_value<T>();
  for (T &v : Cm) v = random_value<T>();
  auto b_at = [&](int r, int c) { return wide(row ? B[size_t(r) * ldb + c] : B[size_t(c) * ldb + r]); };
  auto c_index = [&](int r, int c) { return row ? size_t(r) * ldc + c : size_t(c) * ldc + r; };
  T alpha = random_value<T>(), beta = random_value<T>();
  std::vector<Z> want(Cm.size());
  for (size_t i = 0; i < Cm.size(); i++) want[i] = wide(Cm[i]);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      Z sum = 0;
      for (int l = 0; l < k; l++) {
        Z av = ta ? wide(a.dense[l + size_t(i) * a.m]) : wide(a.dense[i + size_t(l) * a.m]);
        if (op_a == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE) av = std::conj(av);
        Z bv = tb ? b_at(j, l) : b_at(l, j);
        if (op_b == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE) bv = std::conj(bv);
        sum += av * bv;
      }
      want[c_index(i, j)] = wide(alpha) * sum + wide(beta) * wide(Cm[c_index(i, j)]);
    }
  int *d_offsets = to_device(a.offsets), *d_columns = to_device(a.columns);
  T *d_values = to_device(a.values), *dB = to_device(B), *dC = to_device(Cm);
  hipsparseConstSpMatDescr_t A;
  CHECK_SPARSE(hipsparseCreateConstCsr(&A, a.m, a.n, a.values.size(), d_offsets, d_columns, d_values,
                                       HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ZERO,
                                       type_of<T>()));
  hipsparseConstDnMatDescr_t Bd;
  hipsparseDnMatDescr_t Cd;
  CHECK_SPARSE(hipsparseCreateConstDnMat(&Bd, b_rows, b_cols, ldb, dB, type_of<T>(), order));
  CHECK_SPARSE(hipsparseCreateDnMat(&Cd, m, n, ldc, dC, type_of<T>(), order));
  size_t size = 0;
  CHECK_SPARSE(hipsparseSpMM_bufferSize(h, op_a, op_b, &alpha, A, Bd, &beta, Cd, type_of<T>(),
                                        HIPSPARSE_SPMM_ALG_DEFAULT, &size));
  CHECK_SPARSE(hipsparseSpMM(h, op_a, op_b, &alpha, A, Bd, &beta, Cd, type_of<T>(), HIPSPARSE_SPMM_ALG_DEFAULT,
                             nullptr));
  int bad = wrong(to_host(dC, Cm.size()), want);
  CHECK_SPARSE(hipsparseDestroySpMat(A));
  CHECK_SPARSE(hipsparseDestroyDnMat(Bd));
  CHECK_SPARSE(hipsparseDestroyDnMat(Cd));
  for (void *p : {(void *)d_offsets, (void *)d_columns, (void *)d_values, (void *)dB, (void *)dC}) CHECK_HIP(hipFree(p));
  return bad;
}

static void check_spmm(hipsparseHandle_t h) {
  const auto N = HIPSPARSE_OPERATION_NON_TRANSPOSE, T = HIPSPARSE_OPERATION_TRANSPOSE,
             H = HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  report("SpMM float, column order, N N and T T", spmm_case<float>(h, N, N, HIPSPARSE_ORDER_COL) +
                                                     spmm_case<float>(h, T, T, HIPSPARSE_ORDER_COL));
  report("SpMM double, row order, N T and T N", spmm_case<double>(h, N, T, HIPSPARSE_ORDER_ROW) +
                                                    spmm_case<double>(h, T, N, HIPSPARSE_ORDER_ROW));
  report("SpMM complex double, C N", spmm_case<Z>(h, H, N, HIPSPARSE_ORDER_COL));
}

// Dense to CSR (analysis, then convert) and back to dense.
static void check_conversions(hipsparseHandle_t h) {
  const int m = 8, n = 11;
  Sparse<double> a(m, n, 1);
  double *dDense = to_device(a.dense), *dBack;
  CHECK_HIP(hipMalloc(&dBack, a.dense.size() * sizeof(double)));
  int *dOffsets;
  CHECK_HIP(hipMalloc(&dOffsets, (m + 1) * sizeof(int)));
  hipsparseDnMatDescr_t dense, back;
  CHECK_SPARSE(hipsparseCreateDnMat(&dense, m, n, m, dDense, HIP_R_64F, HIPSPARSE_ORDER_COL));
  hipsparseSpMatDescr_t sparse;
  CHECK_SPARSE(hipsparseCreateCsr(&sparse, m, n, 0, dOffsets, nullptr, nullptr, HIPSPARSE_INDEX_32I,
                                  HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ONE, HIP_R_64F));
  size_t size = 0;
  CHECK_SPARSE(hipsparseDenseToSparse_bufferSize(h, dense, sparse, HIPSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size));
  CHECK_SPARSE(hipsparseDenseToSparse_analysis(h, dense, sparse, HIPSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr));
  int64_t rows, cols, nnz;
  CHECK_SPARSE(hipsparseSpMatGetSize(sparse, &rows, &cols, &nnz));
  int *dColumns;
  double *dValues;
  CHECK_HIP(hipMalloc(&dColumns, nnz * sizeof(int)));
  CHECK_HIP(hipMalloc(&dValues, nnz * sizeof(double)));
  CHECK_SPARSE(hipsparseCsrSetPointers(sparse, dOffsets, dColumns, dValues));
  CHECK_SPARSE(hipsparseDenseToSparse_convert(h, dense, sparse, HIPSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr));
  int bad = (nnz != int64_t(a.values.size())) + (to_host(dOffsets, m + 1) != a.offsets) +
            (to_host(dColumns, nnz) != a.columns) + (to_host(dValues, nnz) != a.values);
  report("DenseToSparse to CSR, base 1", bad);

  CHECK_SPARSE(hipsparseCreateDnMat(&back, m, n, m, dBack, HIP_R_64F, HIPSPARSE_ORDER_COL));
  CHECK_SPARSE(hipsparseSparseToDense_bufferSize(h, sparse, back, HIPSPARSE_SPARSETODENSE_ALG_DEFAULT, &size));
  CHECK_SPARSE(hipsparseSparseToDense(h, sparse, back, HIPSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr));
  report("SparseToDense from CSR", to_host(dBack, a.dense.size()) != a.dense);
  CHECK_SPARSE(hipsparseDestroySpMat(sparse));
  CHECK_SPARSE(hipsparseDestroyDnMat(dense));
  CHECK_SPARSE(hipsparseDestroyDnMat(back));
  for (void *p : {(void *)dDense, (void *)dBack, (void *)dOffsets, (void *)dColumns, (void *)dValues})
    CHECK_HIP(hipFree(p));
}

// csrmv, csrmm, nnz, dense2csr and csr2dense of the classic API.
static void check_classic(hipsparseHandle_t h) {
  const int m = 10, n = 6, k = 4;
  Sparse<double> a(m, n, 1);
  hipsparseMatDescr_t descr;
  CHECK_SPARSE(hipsparseCreateMatDescr(&descr));
  CHECK_SPARSE(hipsparseSetMatIndexBase(descr, HIPSPARSE_INDEX_BASE_ONE));
  CHECK_SPARSE(hipsparseSetMatType(descr, HIPSPARSE_MATRIX_TYPE_GENERAL));
  int *dOffsets = to_device(a.offsets), *dColumns = to_device(a.columns);
  double *dValues = to_device(a.values);
  std::vector<double> x(n), y(m);
  for (double &v : x) v = random_value<double>();
  for (double &v : y) v = random_value<double>();
  double alpha = 1.5, beta = -0.5;
  double *dx = to_device(x), *dy = to_device(y);
  CHECK_SPARSE(hipsparseDcsrmv(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, n, a.values.size(), &alpha, descr, dValues,
                               dOffsets, dColumns, dx, &beta, dy));
  report("Dcsrmv, base 1", wrong(to_host(dy, m), a.times(HIPSPARSE_OPERATION_NON_TRANSPOSE, x, alpha, beta, y)));

  std::vector<double> B(size_t(n) * k), Cm(size_t(m) * k);
  for (double &v : B) v = random_value<double>();
  for (double &v : Cm) v = random_value<double>();
  double *dB = to_device(B), *dC = to_device(Cm);
  CHECK_SPARSE(hipsparseDcsrmm(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, k, n, a.values.size(), &alpha, descr, dValues,
                               dOffsets, dColumns, dB, n, &beta, dC, m));
  std::vector<Z> want;
  for (int j = 0; j < k; j++) {
    std::vector<double> column(B.begin() + j * n, B.begin() + (j + 1) * n), c(Cm.begin() + j * m, Cm.begin() + (j + 1) * m);
    auto r = a.times(HIPSPARSE_OPERATION_NON_TRANSPOSE, column, alpha, beta, c);
    want.insert(want.end(), r.begin(), r.end());
  }
  report("Dcsrmm", wrong(to_host(dC, Cm.size()), want));

  double *dDense = to_device(a.dense);
  int *dPerRow, total = 0;
  CHECK_HIP(hipMalloc(&dPerRow, m * sizeof(int)));
  CHECK_SPARSE(hipsparseDnnz(h, HIPSPARSE_DIRECTION_ROW, m, n, descr, dDense, m, dPerRow, &total));
  int *dOffsets2, *dColumns2;
  double *dValues2;
  CHECK_HIP(hipMalloc(&dOffsets2, (m + 1) * sizeof(int)));
  CHECK_HIP(hipMalloc(&dColumns2, total * sizeof(int)));
  CHECK_HIP(hipMalloc(&dValues2, total * sizeof(double)));
  CHECK_SPARSE(hipsparseDdense2csr(h, m, n, descr, dDense, m, dPerRow, dValues2, dOffsets2, dColumns2));
  int bad = (total != int(a.values.size())) + (to_host(dOffsets2, m + 1) != a.offsets) +
            (to_host(dColumns2, total) != a.columns) + (to_host(dValues2, total) != a.values);
  report("Dnnz, Ddense2csr", bad);
  CHECK_HIP(hipMemset(dDense, 0xff, a.dense.size() * sizeof(double)));
  CHECK_SPARSE(hipsparseDcsr2dense(h, m, n, descr, dValues2, dOffsets2, dColumns2, dDense, m));
  report("Dcsr2dense", to_host(dDense, a.dense.size()) != a.dense);
  CHECK_SPARSE(hipsparseDestroyMatDescr(descr));
  for (void *p : {(void *)dOffsets, (void *)dColumns, (void *)dValues, (void *)dx, (void *)dy, (void *)dB, (void *)dC,
                  (void *)dDense, (void *)dPerRow, (void *)dOffsets2, (void *)dColumns2, (void *)dValues2})
    CHECK_HIP(hipFree(p));
}

__global__ void fill(float *out, float value, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = value;
}

// A kernel then SpMV on one stream, alpha and beta in device memory.
static void check_stream_and_device_pointers(hipsparseHandle_t h) {
  const int n = 50;  // the identity, in CSR
  std::vector<int> offsets(n + 1), columns(n);
  std::vector<float> values(n, 2.0f), scalars = {3.0f, 0.0f};
  for (int i = 0; i <= n; i++) offsets[i] = i;
  for (int i = 0; i < n; i++) columns[i] = i;
  int *dOffsets = to_device(offsets), *dColumns = to_device(columns);
  float *dValues = to_device(values), *dScalars = to_device(scalars), *dx, *dy;
  CHECK_HIP(hipMalloc(&dx, n * sizeof(float)));
  CHECK_HIP(hipMalloc(&dy, n * sizeof(float)));
  hipStream_t stream, got;
  CHECK_HIP(hipStreamCreate(&stream));
  CHECK_SPARSE(hipsparseSetStream(h, stream));
  CHECK_SPARSE(hipsparseGetStream(h, &got));
  CHECK_SPARSE(hipsparseSetPointerMode(h, HIPSPARSE_POINTER_MODE_DEVICE));
  hipsparseSpMatDescr_t A;
  hipsparseDnVecDescr_t X, Y;
  CHECK_SPARSE(hipsparseCreateCsr(&A, n, n, n, dOffsets, dColumns, dValues, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
                                  HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F));
  CHECK_SPARSE(hipsparseCreateDnVec(&X, n, dx, HIP_R_32F));
  CHECK_SPARSE(hipsparseCreateDnVec(&Y, n, dy, HIP_R_32F));
  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, stream, dx, 1.25f, n);
  CHECK_SPARSE(hipsparseSpMV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, dScalars, A, X, dScalars + 1, Y, HIP_R_32F,
                             HIPSPARSE_SPMV_ALG_DEFAULT, nullptr));
  std::vector<float> y(n);
  CHECK_HIP(hipMemcpyAsync(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost, stream));
  CHECK_HIP(hipStreamSynchronize(stream));
  int bad = got != stream;
  for (float v : y) bad += v != 7.5f;
  report("stream order and device pointers: kernel, SpMV", bad);
  CHECK_SPARSE(hipsparseSetPointerMode(h, HIPSPARSE_POINTER_MODE_HOST));
  CHECK_SPARSE(hipsparseSetStream(h, nullptr));
  CHECK_SPARSE(hipsparseDestroySpMat(A));
  CHECK_SPARSE(hipsparseDestroyDnVec(X));
  CHECK_SPARSE(hipsparseDestroyDnVec(Y));
  CHECK_HIP(hipStreamDestroy(stream));
  for (void *p : {(void *)dOffsets, (void *)dColumns, (void *)dValues, (void *)dScalars, (void *)dx, (void *)dy})
    CHECK_HIP(hipFree(p));
}

// A sparse vector of `size` with `nnz` distinct indices of type I (in no
// order), a dense vector y of the same size, and their descriptors.
template <class T, class I> struct Vectors {
  int size, nnz, base;
  std::vector<I> indices;
  std::vector<T> values, y;
  I *d_indices;
  T *d_values, *d_y;
  hipsparseSpVecDescr_t X;
  hipsparseDnVecDescr_t Y;
  Vectors(int size_, int nnz_, hipsparseIndexBase_t base_) : size(size_), nnz(nnz_), base(base_), y(size_) {
    std::vector<int> all(size);
    for (int i = 0; i < size; i++) all[i] = i;
    std::shuffle(all.begin(), all.end(), rng);
    for (int k = 0; k < nnz; k++) {
      indices.push_back(I(all[k] + base));
      values.push_back(random_value<T>());
    }
    for (T &v : y) v = random_value<T>();
    d_indices = to_device(indices);
    d_values = to_device(values);
    d_y = to_device(y);
    hipsparseIndexType_t index = sizeof(I) == 8 ? HIPSPARSE_INDEX_64I : HIPSPARSE_INDEX_32I;
    CHECK_SPARSE(hipsparseCreateSpVec(&X, size, nnz, d_indices, d_values, index, base_, type_of<T>()));
    CHECK_SPARSE(hipsparseCreateDnVec(&Y, size, d_y, type_of<T>()));
  }
  ~Vectors() {
    CHECK_SPARSE(hipsparseDestroySpVec(X));
    CHECK_SPARSE(hipsparseDestroyDnVec(Y));
    for (void *p : {(void *)d_indices, (void *)d_values, (void *)d_y}) CHECK_HIP(hipFree(p));
  }
  int at(int k) const { return int(indices[k]) - base; }
  std::vector<Z> wide_y() const {
    std::vector<Z> w;
    for (T v : y) w.push_back(wide(v));
    return w;
  }
};

// Axpby, Gather, Scatter, Rot and SpVV on a sparse vector with indices of
// type I, each a case.
template <class T, class I> void vector_cases(hipsparseHandle_t h, hipsparseIndexBase_t base, const char *label) {
  const int size = 40, nnz = 15;
  char name[128];
  {
    Vectors<T, I> v(size, nnz, base);
    T alpha = random_value<T>(), beta = random_value<T>();
    CHECK_SPARSE(hipsparseAxpby(h, &alpha, v.X, &beta, v.Y));
    std::vector<Z> want = v.wide_y();
    for (Z &w : want) w *= wide(beta);
    for (int k = 0; k < nnz; k++) want[v.at(k)] += wide(alpha) * wide(v.values[k]);
    snprintf(name, sizeof name, "Axpby %s", label);
    report(name, wrong(to_host(v.d_y, size), want));
  }
  {
    Vectors<T, I> v(size, nnz, base);
    CHECK_SPARSE(hipsparseGather(h, v.Y, v.X));
    std::vector<Z> want;
    for (int k = 0; k < nnz; k++) want.push_back(wide(v.y[v.at(k)]));
    snprintf(name, sizeof name, "Gather %s", label);
    report(name, wrong(to_host(v.d_values, nnz), want) + wrong(to_host(v.d_y, size), v.wide_y()));
  }
  {
    Vectors<T, I> v(size, nnz, base);
    CHECK_SPARSE(hipsparseScatter(h, v.X, v.Y));
    std::vector<Z> want = v.wide_y();
    for (int k = 0; k < nnz; k++) want[v.at(k)] = wide(v.values[k]);
    snprintf(name, sizeof name, "Scatter %s", label);
    report(name, wrong(to_host(v.d_y, size), want));
  }
  {
    Vectors<T, I> v(size, nnz, base);
    T c = random_value<T>(), s = random_value<T>();
    CHECK_SPARSE(hipsparseRot(h, &c, &s, v.X, v.Y));
    std::vector<Z> want_x(nnz), want_y = v.wide_y();
    for (int k = 0; k < nnz; k++) {
      Z x = wide(v.values[k]), y = wide(v.y[v.at(k)]);
      want_x[k] = wide(c) * x + wide(s) * y;
      want_y[v.at(k)] = wide(c) * y - wide(s) * x;
    }
    snprintf(name, sizeof name, "Rot %s", label);
    report(name, wrong(to_host(v.d_values, nnz), want_x) + wrong(to_host(v.d_y, size), want_y));
  }
  {
    Vectors<T, I> v(size, nnz, base);
    int bad = 0;
    for (auto op : {HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE}) {
      size_t buffer_size = 1;
      T result;
      CHECK_SPARSE(hipsparseSpVV_bufferSize(h, op, v.X, v.Y, &result, type_of<T>(), &buffer_size));
      void *buffer;
      CHECK_HIP(hipMalloc(&buffer, buffer_size + 1));
      CHECK_SPARSE(hipsparseSpVV(h, op, v.X, v.Y, &result, type_of<T>(), buffer));
      Z want = 0;
      for (int k = 0; k < nnz; k++) {
        Z x = wide(v.values[k]);
        want += (op == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? std::conj(x) : x) * wide(v.y[v.at(k)]);
      }
      bad += wrong(std::vector<T>{result}, {want});
      CHECK_HIP(hipFree(buffer));
    }
    snprintf(name, sizeof name, "SpVV %s, N and C", label);
    report(name, bad);
  }
}

// As spaxpby runs it: 64-bit indices from a dense vector's nonzeros, base
// zero, float, y = x + y repeated, then the descriptors destroyed before y
// is read.
static void check_axpby_like_spaxpby(hipsparseHandle_t h) {
  const size_t size = 3000;
  const int repeat = 4;
  std::vector<float> a(size), b(size);
  std::vector<size_t> indices;
  std::vector<float> values;
  for (size_t i = 0; i < size; i++) {
    a[i] = i % 7 == 3 ? float(i % 13) - 6.5f : 0.0f;
    b[i] = float(i % 11) * 0.25f;
    if (a[i] != 0) indices.push_back(i), values.push_back(a[i]);
  }
  size_t *d_indices = to_device(indices);
  float *d_values = to_device(values), *d_y = to_device(b);
  hipsparseSpVecDescr_t vecX;
  hipsparseDnVecDescr_t vecY;
  CHECK_SPARSE(hipsparseCreateSpVec(&vecX, size, indices.size(), d_indices, d_values, HIPSPARSE_INDEX_64I,
                                    HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F));
  CHECK_SPARSE(hipsparseCreateDnVec(&vecY, size, d_y, HIP_R_32F));
  const float alpha = 1.0f, beta = 1.0f;
  CHECK_HIP(hipDeviceSynchronize());
  for (int i = 0; i < repeat; i++) CHECK_SPARSE(hipsparseAxpby(h, &alpha, vecX, &beta, vecY));
  CHECK_HIP(hipDeviceSynchronize());
  CHECK_SPARSE(hipsparseDestroySpVec(vecX));
  CHECK_SPARSE(hipsparseDestroyDnVec(vecY));
  std::vector<float> y = to_host(d_y, size);
  for (int n = 0; n < repeat; n++)
    for (size_t i = 0; i < size; i++) b[i] = alpha * a[i] + beta * b[i];
  int bad = 0;
  for (size_t i = 0; i < size; i++) bad += std::fabs(y[i] - b[i]) > 1e-4f;
  report("Axpby as spaxpby: 64-bit indices, base 0, float, repeated", bad);
  for (void *p : {(void *)d_indices, (void *)d_values, (void *)d_y}) CHECK_HIP(hipFree(p));
}

// Indices outside y (9 and 12, y of 8 elements, twice): their entries are
// skipped, said once on stderr; the others are added.
static void check_indices_outside_y(hipsparseHandle_t h) {
  std::vector<int> indices = {1, 9, 4, 12};
  std::vector<float> values = {10, 20, 30, 40}, y(8, 1.0f);
  int *d_indices = to_device(indices);
  float *d_values = to_device(values), *d_y = to_device(y);
  hipsparseSpVecDescr_t X;
  hipsparseDnVecDescr_t Y;
  CHECK_SPARSE(hipsparseCreateSpVec(&X, 8, 4, d_indices, d_values, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ZERO,
                                    HIP_R_32F));
  CHECK_SPARSE(hipsparseCreateDnVec(&Y, 8, d_y, HIP_R_32F));
  const float one = 1.0f;
  for (int n = 0; n < 2; n++) CHECK_SPARSE(hipsparseAxpby(h, &one, X, &one, Y));
  CHECK_HIP(hipDeviceSynchronize());
  std::vector<float> got = to_host(d_y, 8);
  int bad = 0;
  for (int i = 0; i < 8; i++) bad += got[i] != (i == 1 ? 21.0f : i == 4 ? 61.0f : 1.0f);
  report("Axpby with indices outside y: those skipped", bad);
  CHECK_SPARSE(hipsparseDestroySpVec(X));
  CHECK_SPARSE(hipsparseDestroyDnVec(Y));
  for (void *p : {(void *)d_indices, (void *)d_values, (void *)d_y}) CHECK_HIP(hipFree(p));
}

// The sparse vector descriptor's getters and setters, and bad arguments.
static void check_vector_descriptors(hipsparseHandle_t h) {
  std::vector<int64_t> indices = {7, 2, 5};
  std::vector<double> values = {1, 2, 3}, other = {4, 5, 6}, y(8, 1.0);
  int64_t *d_indices = to_device(indices);
  double *d_values = to_device(values), *d_other = to_device(other), *d_y = to_device(y);
  hipsparseSpVecDescr_t X;
  CHECK_SPARSE(hipsparseCreateSpVec(&X, 8, 3, d_indices, d_values, HIPSPARSE_INDEX_64I, HIPSPARSE_INDEX_BASE_ONE,
                                    HIP_R_64F));
  int64_t size = 0, nnz = 0;
  void *got_indices = nullptr, *got_values = nullptr;
  hipsparseIndexType_t index_type;
  hipsparseIndexBase_t base, base2;
  hipDataType type;
  CHECK_SPARSE(hipsparseSpVecGet(X, &size, &nnz, &got_indices, &got_values, &index_type, &base, &type));
  CHECK_SPARSE(hipsparseSpVecGetIndexBase(X, &base2));
  int bad = (size != 8) + (nnz != 3) + (got_indices != d_indices) + (got_values != d_values) +
            (index_type != HIPSPARSE_INDEX_64I) + (base != HIPSPARSE_INDEX_BASE_ONE) + (base2 != base) +
            (type != HIP_R_64F);
  CHECK_SPARSE(hipsparseSpVecSetValues(X, d_other));
  CHECK_SPARSE(hipsparseSpVecGetValues(X, &got_values));
  bad += got_values != d_other;
  hipsparseConstSpVecDescr_t CX;
  CHECK_SPARSE(hipsparseCreateConstSpVec(&CX, 8, 3, d_indices, d_values, HIPSPARSE_INDEX_64I, HIPSPARSE_INDEX_BASE_ZERO,
                                         HIP_R_64F));
  const void *const_indices = nullptr, *const_values = nullptr;
  CHECK_SPARSE(hipsparseConstSpVecGet(CX, &size, &nnz, &const_indices, &const_values, &index_type, &base, &type));
  bad += (const_indices != d_indices) + (const_values != d_values) + (base != HIPSPARSE_INDEX_BASE_ZERO);
  CHECK_SPARSE(hipsparseConstSpVecGetValues(CX, &const_values));
  bad += const_values != d_values;
  report("SpVec descriptors: Get, GetIndexBase, Get and SetValues, Const", bad);

  hipsparseSpVecDescr_t unused;
  hipsparseDnVecDescr_t Y, Yf;
  CHECK_SPARSE(hipsparseCreateDnVec(&Y, 8, d_y, HIP_R_64F));
  CHECK_SPARSE(hipsparseCreateDnVec(&Yf, 8, d_y, HIP_R_32F));
  double alpha = 1, result = 0;
  bad = (hipsparseCreateSpVec(&unused, 2, 3, d_indices, d_values, HIPSPARSE_INDEX_64I, HIPSPARSE_INDEX_BASE_ZERO,
                              HIP_R_64F) != HIPSPARSE_STATUS_INVALID_VALUE) +
        (hipsparseCreateSpVec(&unused, 8, 3, d_indices, d_values, HIPSPARSE_INDEX_16U, HIPSPARSE_INDEX_BASE_ZERO,
                              HIP_R_64F) != HIPSPARSE_STATUS_NOT_SUPPORTED) +
        (hipsparseAxpby(nullptr, &alpha, X, &alpha, Y) != HIPSPARSE_STATUS_NOT_INITIALIZED) +
        (hipsparseAxpby(h, nullptr, X, &alpha, Y) != HIPSPARSE_STATUS_INVALID_VALUE) +
        (hipsparseScatter(h, X, Yf) != HIPSPARSE_STATUS_NOT_SUPPORTED) +
        (hipsparseSpVV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, X, Y, &result, HIP_R_32F, nullptr) !=
         HIPSPARSE_STATUS_NOT_SUPPORTED);
  report("SpVec bad arguments: nnz over size, 16-bit indices, null handle and scalar, mixed types", bad);
  CHECK_SPARSE(hipsparseDestroySpVec(X));
  CHECK_SPARSE(hipsparseDestroySpVec(CX));
  CHECK_SPARSE(hipsparseDestroyDnVec(Y));
  CHECK_SPARSE(hipsparseDestroyDnVec(Yf));
  for (void *p : {(void *)d_indices, (void *)d_values, (void *)d_other, (void *)d_y}) CHECK_HIP(hipFree(p));
}

// A kernel, Axpby and SpVV on one stream, alpha, beta and the dot product
// in device memory.
static void check_vectors_in_stream_order(hipsparseHandle_t h) {
  const int n = 64;
  std::vector<int> indices = {0, 9, 33, 63};
  std::vector<float> values = {1, 2, 3, 4}, scalars = {2.0f, 0.5f, 0.0f};
  int *d_indices = to_device(indices);
  float *d_values = to_device(values), *d_scalars = to_device(scalars), *d_y;
  CHECK_HIP(hipMalloc(&d_y, n * sizeof(float)));
  hipStream_t stream;
  CHECK_HIP(hipStreamCreate(&stream));
  CHECK_SPARSE(hipsparseSetStream(h, stream));
  CHECK_SPARSE(hipsparseSetPointerMode(h, HIPSPARSE_POINTER_MODE_DEVICE));
  hipsparseSpVecDescr_t X;
  hipsparseDnVecDescr_t Y;
  CHECK_SPARSE(hipsparseCreateSpVec(&X, n, 4, d_indices, d_values, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ZERO,
                                    HIP_R_32F));
  CHECK_SPARSE(hipsparseCreateDnVec(&Y, n, d_y, HIP_R_32F));
  hipLaunchKernelGGL(fill, dim3(1), dim3(64), 0, stream, d_y, 4.0f, n);
  CHECK_SPARSE(hipsparseAxpby(h, d_scalars, X, d_scalars + 1, Y));  // y = 2 x + 2
  CHECK_SPARSE(hipsparseSpVV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, X, Y, d_scalars + 2, HIP_R_32F, d_scalars));
  std::vector<float> y(n), scalars_after(3);
  CHECK_HIP(hipMemcpyAsync(y.data(), d_y, n * sizeof(float), hipMemcpyDeviceToHost, stream));
  CHECK_HIP(hipMemcpyAsync(scalars_after.data(), d_scalars, 3 * sizeof(float), hipMemcpyDeviceToHost, stream));
  CHECK_HIP(hipStreamSynchronize(stream));
  int bad = 0;
  float dot = 0;
  for (int i = 0, k = 0; i < n; i++) {
    float want = 2.0f;
    if (k < 4 && indices[k] == i) want += 2 * values[k], dot += values[k] * want, k++;
    bad += y[i] != want;
  }
  bad += scalars_after[2] != dot;
  report("stream order and device pointers: kernel, Axpby, SpVV", bad);
  CHECK_SPARSE(hipsparseSetPointerMode(h, HIPSPARSE_POINTER_MODE_HOST));
  CHECK_SPARSE(hipsparseSetStream(h, nullptr));
  CHECK_SPARSE(hipsparseDestroySpVec(X));
  CHECK_SPARSE(hipsparseDestroyDnVec(Y));
  CHECK_HIP(hipStreamDestroy(stream));
  for (void *p : {(void *)d_indices, (void *)d_values, (void *)d_scalars, (void *)d_y}) CHECK_HIP(hipFree(p));
}

static void check_vectors(hipsparseHandle_t h) {
  vector_cases<float, int>(h, HIPSPARSE_INDEX_BASE_ZERO, "float, 32-bit indices, base 0");
  vector_cases<double, int64_t>(h, HIPSPARSE_INDEX_BASE_ONE, "double, 64-bit indices, base 1");
  vector_cases<C, int>(h, HIPSPARSE_INDEX_BASE_ONE, "complex float, 32-bit indices, base 1");
  vector_cases<Z, int64_t>(h, HIPSPARSE_INDEX_BASE_ZERO, "complex double, 64-bit indices, base 0");
  check_axpby_like_spaxpby(h);
  check_indices_outside_y(h);
  check_vector_descriptors(h);
  check_vectors_in_stream_order(h);
}

// Element (r, c) of op(A), A dense column-major with `rows` rows.
template <class T> Z op_element(const std::vector<T> &dense, int rows, hipsparseOperation_t op, int r, int c) {
  Z v = op == HIPSPARSE_OPERATION_NON_TRANSPOSE ? wide(dense[r + size_t(c) * rows]) : wide(dense[c + size_t(r) * rows]);
  return op == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? std::conj(v) : v;
}
template <class I> hipsparseIndexType_t index_of() {
  return sizeof(I) == 8 ? HIPSPARSE_INDEX_64I : HIPSPARSE_INDEX_32I;
}

// SpGEMM's stages, C = alpha op(A) op(B) + beta C, C's pattern every
// product of stored entries; `scaled` false: alpha 1 and beta 0, C's old
// values NaN (beta 0 does not read them).
template <class T, class I = int>
int spgemm_case(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b, hipsparseIndexBase_t base,
                bool scaled) {
  const int m = 9, k = 7, n = 8;
  bool ta = op_a != HIPSPARSE_OPERATION_NON_TRANSPOSE, tb = op_b != HIPSPARSE_OPERATION_NON_TRANSPOSE;
  Sparse<T, I> a(ta ? k : m, ta ? m : k, base), b(tb ? n : k, tb ? k : n, base);
  std::vector<I> want_offsets = {I(base)}, want_columns;
  std::vector<Z> product;
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++) {
      bool stored = false;
      Z sum = 0;
      for (int l = 0; l < k; l++) {
        Z x = op_element(a.dense, a.m, op_a, i, l), y = op_element(b.dense, b.m, op_b, l, j);
        if (x != Z(0) && y != Z(0)) stored = true, sum += x * y;
      }
      if (stored) want_columns.push_back(I(j + base)), product.push_back(sum);
    }
    want_offsets.push_back(I(want_columns.size() + base));
  }
  T alpha = scaled ? random_value<T>() : T(1), beta = scaled ? random_value<T>() : T(0);
  std::vector<T> old(want_columns.size(), T(std::numeric_limits<double>::quiet_NaN()));
  if (scaled)
    for (T &v : old) v = random_value<T>();
  std::vector<Z> want;
  for (size_t i = 0; i < product.size(); i++)
    want.push_back(wide(alpha) * product[i] + (scaled ? wide(beta) * wide(old[i]) : Z(0)));

  I *dA_offsets = to_device(a.offsets), *dA_columns = to_device(a.columns), *dB_offsets = to_device(b.offsets),
    *dB_columns = to_device(b.columns), *dC_offsets;
  T *dA_values = to_device(a.values), *dB_values = to_device(b.values);
  CHECK_HIP(hipMalloc(&dC_offsets, (m + 1) * sizeof(I)));
  hipsparseSpMatDescr_t A, B, Cm;
  CHECK_SPARSE(hipsparseCreateCsr(&A, a.m, a.n, a.values.size(), dA_offsets, dA_columns, dA_values, index_of<I>(),
                                  index_of<I>(), base, type_of<T>()));
  CHECK_SPARSE(hipsparseCreateCsr(&B, b.m, b.n, b.values.size(), dB_offsets, dB_columns, dB_values, index_of<I>(),
                                  index_of<I>(), base, type_of<T>()));
  CHECK_SPARSE(hipsparseCreateCsr(&Cm, m, n, 0, nullptr, nullptr, nullptr, index_of<I>(), index_of<I>(), base,
                                  type_of<T>()));
  hipsparseSpGEMMDescr_t descr;
  CHECK_SPARSE(hipsparseSpGEMM_createDescr(&descr));
  size_t size1 = 0, size2 = 0;
  void *buffer1, *buffer2;
  const auto alg = HIPSPARSE_SPGEMM_DEFAULT;
  CHECK_SPARSE(hipsparseSpGEMM_workEstimation(h, op_a, op_b, &alpha, A, B, &beta, Cm, type_of<T>(), alg, descr, &size1,
                                              nullptr));
  CHECK_HIP(hipMalloc(&buffer1, size1));
  CHECK_SPARSE(hipsparseSpGEMM_workEstimation(h, op_a, op_b, &alpha, A, B, &beta, Cm, type_of<T>(), alg, descr, &size1,
                                              buffer1));
  CHECK_SPARSE(hipsparseSpGEMM_compute(h, op_a, op_b, &alpha, A, B, &beta, Cm, type_of<T>(), alg, descr, &size2,
                                       nullptr));
  CHECK_HIP(hipMalloc(&buffer2, size2));
  CHECK_SPARSE(hipsparseSpGEMM_compute(h, op_a, op_b, &alpha, A, B, &beta, Cm, type_of<T>(), alg, descr, &size2,
                                       buffer2));
  int64_t rows, cols, nnz;
  CHECK_SPARSE(hipsparseSpMatGetSize(Cm, &rows, &cols, &nnz));
  int bad = (size1 == 0) + (size2 == 0) + (rows != m) + (cols != n) + (nnz != int64_t(want_columns.size()));
  I *dC_columns;
  T *dC_values = to_device(old);
  CHECK_HIP(hipMalloc(&dC_columns, std::max<int64_t>(nnz, 1) * sizeof(I)));
  CHECK_SPARSE(hipsparseCsrSetPointers(Cm, dC_offsets, dC_columns, dC_values));
  CHECK_SPARSE(hipsparseSpGEMM_copy(h, op_a, op_b, &alpha, A, B, &beta, Cm, type_of<T>(), alg, descr));
  CHECK_SPARSE(hipsparseSpGEMM_destroyDescr(descr));
  bad += (to_host(dC_offsets, m + 1) != want_offsets) + (to_host(dC_columns, nnz) != want_columns) +
         wrong(to_host(dC_values, nnz), want);
  for (auto d : {A, B, Cm}) CHECK_SPARSE(hipsparseDestroySpMat(d));
  for (void *p : {(void *)dA_offsets, (void *)dA_columns, (void *)dA_values, (void *)dB_offsets, (void *)dB_columns,
                  (void *)dB_values, (void *)dC_offsets, (void *)dC_columns, (void *)dC_values, buffer1, buffer2})
    CHECK_HIP(hipFree(p));
  return bad;
}

static void check_spgemm(hipsparseHandle_t h) {
  const auto N = HIPSPARSE_OPERATION_NON_TRANSPOSE, T = HIPSPARSE_OPERATION_TRANSPOSE,
             H = HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  const auto zero = HIPSPARSE_INDEX_BASE_ZERO, one = HIPSPARSE_INDEX_BASE_ONE;
  report("SpGEMM float, N N, alpha 1 beta 0", spgemm_case<float>(h, N, N, zero, false));
  report("SpGEMM double, base 1, alpha and beta, N N and T N",
         spgemm_case<double>(h, N, N, one, true) + spgemm_case<double>(h, T, N, one, true));
  report("SpGEMM complex float, C T", spgemm_case<C>(h, H, T, zero, true));
  report("SpGEMM complex double, 64-bit indices, N C", spgemm_case<Z, int64_t>(h, N, H, one, true));
}

// SDDMM in `batches` (strided, with gaps): C = alpha (op(A) op(B)) at C's
// nonzeros + beta C, A and B dense in `order`.
template <class T>
int sddmm_case(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b, hipsparseOrder_t order,
               int batches) {
  const int m = 6, k = 5, n = 7;
  bool ta = op_a != HIPSPARSE_OPERATION_NON_TRANSPOSE, tb = op_b != HIPSPARSE_OPERATION_NON_TRANSPOSE;
  bool row = order == HIPSPARSE_ORDER_ROW;
  int a_rows = ta ? k : m, a_cols = ta ? m : k, b_rows = tb ? n : k, b_cols = tb ? k : n;
  int lda = (row ? a_cols : a_rows) + 1, ldb = (row ? b_cols : b_rows) + 2;
  int64_t a_stride = int64_t(lda) * (row ? a_rows : a_cols) + 3, b_stride = int64_t(ldb) * (row ? b_rows : b_cols) + 1;
  std::vector<T> A(a_stride * batches), B(b_stride * batches);
  for (T &v : A) v = random_value<T>();
  for (T &v : B) v = random_value<T>();
  Sparse<T> c(m, n, 0);
  const int nnz = int(c.values.size()), offsets_stride = m + 2, values_stride = nnz + 3;
  std::vector<int> offsets(offsets_stride * batches), columns(values_stride * batches);
  std::vector<T> values(values_stride * batches);
  for (T &v : values) v = random_value<T>();
  for (int b = 0; b < batches; b++) {
    std::copy(c.offsets.begin(), c.offsets.end(), offsets.begin() + b * offsets_stride);
    std::copy(c.columns.begin(), c.columns.end(), columns.begin() + b * values_stride);
  }
  T alpha = random_value<T>(), beta = random_value<T>();
  std::vector<Z> want;
  for (T v : values) want.push_back(wide(v));
  for (int b = 0; b < batches; b++) {
    auto a_at = [&](int r, int col) {
      return wide(row ? A[b * a_stride + size_t(r) * lda + col] : A[b * a_stride + size_t(col) * lda + r]);
    };
    auto b_at = [&](int r, int col) {
      return wide(row ? B[b * b_stride + size_t(r) * ldb + col] : B[b * b_stride + size_t(col) * ldb + r]);
    };
    for (int i = 0; i < m; i++)
      for (int p = c.offsets[i]; p < c.offsets[i + 1]; p++) {
        int j = c.columns[p];
        Z sum = 0;
        for (int l = 0; l < k; l++) {
          Z x = ta ? a_at(l, i) : a_at(i, l), y = tb ? b_at(j, l) : b_at(l, j);
          if (op_a == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE) x = std::conj(x);
          if (op_b == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE) y = std::conj(y);
          sum += x * y;
        }
        Z &w = want[b * values_stride + p];
        w = wide(alpha) * sum + wide(beta) * w;
      }
  }
  T *dA = to_device(A), *dB = to_device(B), *dValues = to_device(values);
  int *dOffsets = to_device(offsets), *dColumns = to_device(columns);
  hipsparseDnMatDescr_t Ad, Bd;
  hipsparseSpMatDescr_t Cd;
  CHECK_SPARSE(hipsparseCreateDnMat(&Ad, a_rows, a_cols, lda, dA, type_of<T>(), order));
  CHECK_SPARSE(hipsparseCreateDnMat(&Bd, b_rows, b_cols, ldb, dB, type_of<T>(), order));
  CHECK_SPARSE(hipsparseCreateCsr(&Cd, m, n, nnz, dOffsets, dColumns, dValues, HIPSPARSE_INDEX_32I,
                                  HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_BASE_ZERO, type_of<T>()));
  CHECK_SPARSE(hipsparseDnMatSetStridedBatch(Ad, batches, a_stride));
  CHECK_SPARSE(hipsparseDnMatSetStridedBatch(Bd, batches, b_stride));
  CHECK_SPARSE(hipsparseCsrSetStridedBatch(Cd, batches, offsets_stride, values_stride));
  int count = 0;
  int64_t stride = 0;
  CHECK_SPARSE(hipsparseDnMatGetStridedBatch(Bd, &count, &stride));
  int bad = (count != batches) + (stride != b_stride);
  CHECK_SPARSE(hipsparseSpMatGetStridedBatch(Cd, &count));
  bad += count != batches;
  size_t size = 1;
  CHECK_SPARSE(hipsparseSDDMM_bufferSize(h, op_a, op_b, &alpha, Ad, Bd, &beta, Cd, type_of<T>(),
                                         HIPSPARSE_SDDMM_ALG_DEFAULT, &size));
  void *buffer;
  CHECK_HIP(hipMalloc(&buffer, size + 1));
  CHECK_SPARSE(hipsparseSDDMM_preprocess(h, op_a, op_b, &alpha, Ad, Bd, &beta, Cd, type_of<T>(),
                                         HIPSPARSE_SDDMM_ALG_DEFAULT, buffer));
  CHECK_SPARSE(hipsparseSDDMM(h, op_a, op_b, &alpha, Ad, Bd, &beta, Cd, type_of<T>(), HIPSPARSE_SDDMM_ALG_DEFAULT,
                              buffer));
  bad += wrong(to_host(dValues, values.size()), want);
  CHECK_SPARSE(hipsparseDestroyDnMat(Ad));
  CHECK_SPARSE(hipsparseDestroyDnMat(Bd));
  CHECK_SPARSE(hipsparseDestroySpMat(Cd));
  for (void *p : {(void *)dA, (void *)dB, (void *)dValues, (void *)dOffsets, (void *)dColumns, buffer})
    CHECK_HIP(hipFree(p));
  return bad;
}

static void check_sddmm(hipsparseHandle_t h) {
  const auto N = HIPSPARSE_OPERATION_NON_TRANSPOSE, T = HIPSPARSE_OPERATION_TRANSPOSE,
             H = HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  report("SDDMM float, row order, N N", sddmm_case<float>(h, N, N, HIPSPARSE_ORDER_ROW, 1));
  report("SDDMM double, column order, T N, 3 strided batches",
         sddmm_case<double>(h, T, N, HIPSPARSE_ORDER_COL, 3));
  report("SDDMM complex double, row order, N C, 2 batches", sddmm_case<Z>(h, N, H, HIPSPARSE_ORDER_ROW, 2));
}

// An n x n matrix with both triangles stored (off the diagonal at half
// scale) and a diagonal away from zero: a solve must read only the triangle
// the fill mode names, and the diagonal only if it is not unit.
template <class T> std::vector<T> solvable(int n) {
  std::uniform_real_distribution<double> keep(0, 1);
  std::vector<T> dense(size_t(n) * n);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      if (i == j)
        dense[i + size_t(j) * n] = T(2.5) + random_value<T>();
      else if (keep(rng) < 0.4)
        dense[i + size_t(j) * n] = T(0.5) * random_value<T>();
  return dense;
}

// op(T) of the triangle of A (dense) a solve reads, as a dense Z matrix.
template <class T>
std::vector<Z> triangle(const std::vector<T> &dense, int n, hipsparseOperation_t op, hipsparseFillMode_t fill,
                        hipsparseDiagType_t diag) {
  std::vector<Z> t(size_t(n) * n);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      bool kept = fill == HIPSPARSE_FILL_MODE_LOWER ? j < i : j > i;
      Z v = i == j ? (diag == HIPSPARSE_DIAG_TYPE_UNIT ? Z(1) : wide(dense[i + size_t(j) * n]))
                   : kept ? wide(dense[i + size_t(j) * n]) : Z(0);
      if (op == HIPSPARSE_OPERATION_NON_TRANSPOSE)
        t[i + size_t(j) * n] = v;
      else
        t[j + size_t(i) * n] = op == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? std::conj(v) : v;
    }
  return t;
}

// x with t x = rhs, t triangular (dense, column-major): substitution in the
// direction of its triangle.
static std::vector<Z> substitute(const std::vector<Z> &t, int n, bool lower, std::vector<Z> rhs) {
  for (int step = 0; step < n; step++) {
    int i = lower ? step : n - 1 - step;
    for (int j = 0; j < n; j++)
      if (j != i) rhs[i] -= t[i + size_t(j) * n] * rhs[j];
    rhs[i] /= t[i + size_t(i) * n];
  }
  return rhs;
}

template <class T, class I>
hipsparseSpMatDescr_t solve_matrix(const Sparse<T, I> &a, hipsparseIndexBase_t base, hipsparseFormat_t format,
                                   hipsparseFillMode_t fill, hipsparseDiagType_t diag, std::vector<void *> &owned) {
  I *offsets = to_device(format == HIPSPARSE_FORMAT_COO ? a.rows : a.offsets), *columns = to_device(a.columns);
  T *values = to_device(a.values);
  owned.insert(owned.end(), {(void *)offsets, (void *)columns, (void *)values});
  hipsparseSpMatDescr_t A;
  if (format == HIPSPARSE_FORMAT_COO)
    CHECK_SPARSE(hipsparseCreateCoo(&A, a.m, a.n, a.values.size(), offsets, columns, values, index_of<I>(), base,
                                    type_of<T>()));
  else
    CHECK_SPARSE(hipsparseCreateCsr(&A, a.m, a.n, a.values.size(), offsets, columns, values, index_of<I>(),
                                    index_of<I>(), base, type_of<T>()));
  CHECK_SPARSE(hipsparseSpMatSetAttribute(A, HIPSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  CHECK_SPARSE(hipsparseSpMatSetAttribute(A, HIPSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  return A;
}

// SpSV: op(A) y = alpha x, A's triangle by fill mode and diagonal type.
template <class T, class I = int>
int spsv_case(hipsparseHandle_t h, hipsparseOperation_t op, hipsparseFillMode_t fill, hipsparseDiagType_t diag,
              hipsparseIndexBase_t base, hipsparseFormat_t format) {
  const int n = 12;
  Sparse<T, I> a(n, n, base, solvable<T>(n));
  std::vector<T> x(n), y(n);
  for (T &v : x) v = random_value<T>();
  for (T &v : y) v = random_value<T>();
  T alpha = random_value<T>();
  std::vector<Z> rhs;
  for (T v : x) rhs.push_back(wide(alpha) * wide(v));
  bool lower = (fill == HIPSPARSE_FILL_MODE_LOWER) == (op == HIPSPARSE_OPERATION_NON_TRANSPOSE);
  std::vector<Z> want = substitute(triangle(a.dense, n, op, fill, diag), n, lower, rhs);
  std::vector<void *> owned;
  hipsparseSpMatDescr_t A = solve_matrix(a, base, format, fill, diag, owned);
  T *dx = to_device(x), *dy = to_device(y);
  owned.insert(owned.end(), {(void *)dx, (void *)dy});
  hipsparseDnVecDescr_t X, Y;
  CHECK_SPARSE(hipsparseCreateDnVec(&X, n, dx, type_of<T>()));
  CHECK_SPARSE(hipsparseCreateDnVec(&Y, n, dy, type_of<T>()));
  hipsparseSpSVDescr_t descr;
  CHECK_SPARSE(hipsparseSpSV_createDescr(&descr));
  size_t size = 1;
  const auto alg = HIPSPARSE_SPSV_ALG_DEFAULT;
  CHECK_SPARSE(hipsparseSpSV_bufferSize(h, op, &alpha, A, X, Y, type_of<T>(), alg, descr, &size));
  void *buffer;
  CHECK_HIP(hipMalloc(&buffer, size + 1));
  owned.push_back(buffer);
  CHECK_SPARSE(hipsparseSpSV_analysis(h, op, &alpha, A, X, Y, type_of<T>(), alg, descr, buffer));
  CHECK_SPARSE(hipsparseSpSV_solve(h, op, &alpha, A, X, Y, type_of<T>(), alg, descr));
  int bad = wrong(to_host(dy, n), want);
  CHECK_SPARSE(hipsparseSpSV_destroyDescr(descr));
  CHECK_SPARSE(hipsparseDestroySpMat(A));
  CHECK_SPARSE(hipsparseDestroyDnVec(X));
  CHECK_SPARSE(hipsparseDestroyDnVec(Y));
  for (void *p : owned) CHECK_HIP(hipFree(p));
  return bad;
}

static void check_spsv(hipsparseHandle_t h) {
  const auto N = HIPSPARSE_OPERATION_NON_TRANSPOSE, T = HIPSPARSE_OPERATION_TRANSPOSE,
             H = HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  const auto L = HIPSPARSE_FILL_MODE_LOWER, U = HIPSPARSE_FILL_MODE_UPPER;
  const auto unit = HIPSPARSE_DIAG_TYPE_UNIT, non_unit = HIPSPARSE_DIAG_TYPE_NON_UNIT;
  const auto zero = HIPSPARSE_INDEX_BASE_ZERO, one = HIPSPARSE_INDEX_BASE_ONE;
  const auto csr = HIPSPARSE_FORMAT_CSR, coo = HIPSPARSE_FORMAT_COO;
  report("SpSV float, lower, non-unit and unit, N",
         spsv_case<float>(h, N, L, non_unit, zero, csr) + spsv_case<float>(h, N, L, unit, zero, csr));
  report("SpSV double, upper, non-unit and unit, N, base 1",
         spsv_case<double>(h, N, U, non_unit, one, csr) + spsv_case<double>(h, N, U, unit, one, csr));
  report("SpSV double, lower and upper, T", spsv_case<double>(h, T, L, non_unit, zero, csr) +
                                                spsv_case<double>(h, T, U, unit, zero, csr));
  report("SpSV complex float, upper unit, C", spsv_case<C>(h, H, U, unit, one, csr));
  report("SpSV complex double, lower, 64-bit indices, COO", spsv_case<Z, int64_t>(h, N, L, non_unit, zero, coo));
}

// SpSM: op(A) C = alpha op(B), B and C dense in `order`.
template <class T>
int spsm_case(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b, hipsparseFillMode_t fill,
              hipsparseDiagType_t diag, hipsparseOrder_t order) {
  const int n = 10, k = 4;
  Sparse<T> a(n, n, 0, solvable<T>(n));
  bool row = order == HIPSPARSE_ORDER_ROW, tb = op_b != HIPSPARSE_OPERATION_NON_TRANSPOSE;
  int b_rows = tb ? k : n, b_cols = tb ? n : k;
  int ldb = (row ? b_cols : b_rows) + 1, ldc = (row ? k : n) + 2;
  std::vector<T> B(size_t(ldb) * (row ? b_rows : b_cols)), Cm(size_t(ldc) * (row ? n : k));
  for (T &v : B) v = random_value<T>();
  for (T &v : Cm) v = random_value<T>();
  T alpha = random_value<T>();
  bool lower = (fill == HIPSPARSE_FILL_MODE_LOWER) == (op_a == HIPSPARSE_OPERATION_NON_TRANSPOSE);
  std::vector<Z> t = triangle(a.dense, n, op_a, fill, diag), want(Cm.size());
  for (size_t i = 0; i < Cm.size(); i++) want[i] = wide(Cm[i]);  // the gaps past each ld stay
  for (int j = 0; j < k; j++) {
    std::vector<Z> rhs(n);
    for (int i = 0; i < n; i++) {
      int r = tb ? j : i, c = tb ? i : j;
      Z v = wide(row ? B[size_t(r) * ldb + c] : B[size_t(c) * ldb + r]);
      rhs[i] = wide(alpha) * (op_b == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? std::conj(v) : v);
    }
    std::vector<Z> x = substitute(t, n, lower, rhs);
    for (int i = 0; i < n; i++) want[row ? size_t(i) * ldc + j : size_t(j) * ldc + i] = x[i];
  }
  std::vector<void *> owned;
  hipsparseSpMatDescr_t A = solve_matrix(a, HIPSPARSE_INDEX_BASE_ZERO, HIPSPARSE_FORMAT_CSR, fill, diag, owned);
  T *dB = to_device(B), *dC = to_device(Cm);
  owned.insert(owned.end(), {(void *)dB, (void *)dC});
  hipsparseDnMatDescr_t Bd, Cd;
  CHECK_SPARSE(hipsparseCreateDnMat(&Bd, b_rows, b_cols, ldb, dB, type_of<T>(), order));
  CHECK_SPARSE(hipsparseCreateDnMat(&Cd, n, k, ldc, dC, type_of<T>(), order));
  hipsparseSpSMDescr_t descr;
  CHECK_SPARSE(hipsparseSpSM_createDescr(&descr));
  size_t size = 1;
  const auto alg = HIPSPARSE_SPSM_ALG_DEFAULT;
  CHECK_SPARSE(hipsparseSpSM_bufferSize(h, op_a, op_b, &alpha, A, Bd, Cd, type_of<T>(), alg, descr, &size));
  void *buffer;
  CHECK_HIP(hipMalloc(&buffer, size + 1));
  owned.push_back(buffer);
  CHECK_SPARSE(hipsparseSpSM_analysis(h, op_a, op_b, &alpha, A, Bd, Cd, type_of<T>(), alg, descr, buffer));
  CHECK_SPARSE(hipsparseSpSM_solve(h, op_a, op_b, &alpha, A, Bd, Cd, type_of<T>(), alg, descr, buffer));
  int bad = wrong(to_host(dC, Cm.size()), want);
  CHECK_SPARSE(hipsparseSpSM_destroyDescr(descr));
  CHECK_SPARSE(hipsparseDestroySpMat(A));
  CHECK_SPARSE(hipsparseDestroyDnMat(Bd));
  CHECK_SPARSE(hipsparseDestroyDnMat(Cd));
  for (void *p : owned) CHECK_HIP(hipFree(p));
  return bad;
}

static void check_spsm(hipsparseHandle_t h) {
  const auto N = HIPSPARSE_OPERATION_NON_TRANSPOSE, T = HIPSPARSE_OPERATION_TRANSPOSE,
             H = HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  const auto L = HIPSPARSE_FILL_MODE_LOWER, U = HIPSPARSE_FILL_MODE_UPPER;
  const auto unit = HIPSPARSE_DIAG_TYPE_UNIT, non_unit = HIPSPARSE_DIAG_TYPE_NON_UNIT;
  report("SpSM float, lower non-unit, N N, column order",
         spsm_case<float>(h, N, N, L, non_unit, HIPSPARSE_ORDER_COL));
  report("SpSM double, upper unit and lower non-unit, T T and T N, row order",
         spsm_case<double>(h, T, T, U, unit, HIPSPARSE_ORDER_ROW) +
             spsm_case<double>(h, T, N, L, non_unit, HIPSPARSE_ORDER_ROW));
  report("SpSM complex double, upper non-unit, N C", spsm_case<Z>(h, N, H, U, non_unit, HIPSPARSE_ORDER_COL));
}

// The attributes of a sparse matrix and bad ones.
static void check_attributes(void) {
  hipsparseSpMatDescr_t A;
  int offsets[3] = {0, 0, 0};
  CHECK_SPARSE(hipsparseCreateCsr(&A, 2, 2, 0, offsets, nullptr, nullptr, HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
                                  HIPSPARSE_INDEX_BASE_ZERO, HIP_R_64F));
  hipsparseFillMode_t fill = HIPSPARSE_FILL_MODE_UPPER, got_fill;
  hipsparseDiagType_t diag, got_diag;
  CHECK_SPARSE(hipsparseSpMatGetAttribute(A, HIPSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  CHECK_SPARSE(hipsparseSpMatGetAttribute(A, HIPSPARSE_SPMAT_FILL_MODE, &got_fill, sizeof(got_fill)));
  int bad = (diag != HIPSPARSE_DIAG_TYPE_NON_UNIT) + (got_fill != HIPSPARSE_FILL_MODE_LOWER);
  diag = HIPSPARSE_DIAG_TYPE_UNIT;
  CHECK_SPARSE(hipsparseSpMatSetAttribute(A, HIPSPARSE_SPMAT_FILL_MODE, &fill, sizeof(fill)));
  CHECK_SPARSE(hipsparseSpMatSetAttribute(A, HIPSPARSE_SPMAT_DIAG_TYPE, &diag, sizeof(diag)));
  CHECK_SPARSE(hipsparseSpMatGetAttribute(A, HIPSPARSE_SPMAT_FILL_MODE, &got_fill, sizeof(got_fill)));
  CHECK_SPARSE(hipsparseSpMatGetAttribute(A, HIPSPARSE_SPMAT_DIAG_TYPE, &got_diag, sizeof(got_diag)));
  bad += (got_fill != HIPSPARSE_FILL_MODE_UPPER) + (got_diag != HIPSPARSE_DIAG_TYPE_UNIT);
  bad += hipsparseSpMatSetAttribute(A, HIPSPARSE_SPMAT_FILL_MODE, &fill, 1) != HIPSPARSE_STATUS_INVALID_VALUE;
  int count = 0;
  CHECK_SPARSE(hipsparseSpMatGetStridedBatch(A, &count));
  bad += count != 1;
  CHECK_SPARSE(hipsparseDestroySpMat(A));
  report("SpMat attributes: fill mode, diagonal type, a bad size; batch count 1", bad);
}

// ILU(0) of a sparse, diagonally dominant matrix against the dense
// elimination restricted to its pattern, and no zero pivot.
template <class T> int csrilu02_case(hipsparseHandle_t h, hipsparseIndexBase_t base) {
  const int n = 14;
  std::vector<T> dense = solvable<T>(n);
  Sparse<T> a(n, n, base, dense);
  std::vector<Z> w;
  for (T v : dense) w.push_back(wide(v));
  auto stored = [&](int i, int j) { return dense[i + size_t(j) * n] != T(0); };
  for (int i = 0; i < n; i++)
    for (int k = 0; k < i; k++) {
      if (!stored(i, k)) continue;
      w[i + size_t(k) * n] /= w[k + size_t(k) * n];
      for (int j = k + 1; j < n; j++)
        if (stored(i, j)) w[i + size_t(j) * n] -= w[i + size_t(k) * n] * w[k + size_t(j) * n];
    }
  std::vector<Z> want;
  for (size_t p = 0; p < a.values.size(); p++) {
    int i = int(std::upper_bound(a.offsets.begin(), a.offsets.end(), int(p) + base) - a.offsets.begin()) - 1;
    want.push_back(w[i + size_t(a.columns[p] - base) * n]);
  }
  hipsparseMatDescr_t descr;
  CHECK_SPARSE(hipsparseCreateMatDescr(&descr));
  CHECK_SPARSE(hipsparseSetMatIndexBase(descr, base));
  int *dOffsets = to_device(a.offsets), *dColumns = to_device(a.columns);
  T *dValues = to_device(a.values);
  csrilu02Info_t info;
  CHECK_SPARSE(hipsparseCreateCsrilu02Info(&info));
  int size = 0, pivot = 7, nnz = int(a.values.size()), bad = 0;
  // The value pointer as the D or C function takes it.
  using H = std::conditional_t<std::is_same_v<T, double>, double, hipComplex>;
  H *values = reinterpret_cast<H *>(dValues);
  auto policy = HIPSPARSE_SOLVE_POLICY_USE_LEVEL;
  void *buffer;
  if constexpr (std::is_same_v<T, double>) {
    CHECK_SPARSE(hipsparseDcsrilu02_bufferSize(h, n, nnz, descr, values, dOffsets, dColumns, info, &size));
    CHECK_HIP(hipMalloc(&buffer, size));
    CHECK_SPARSE(hipsparseDcsrilu02_analysis(h, n, nnz, descr, values, dOffsets, dColumns, info, policy, buffer));
    bad += (hipsparseXcsrilu02_zeroPivot(h, info, &pivot) != HIPSPARSE_STATUS_SUCCESS) + (pivot != -1);
    CHECK_SPARSE(hipsparseDcsrilu02(h, n, nnz, descr, values, dOffsets, dColumns, info, policy, buffer));
  } else {
    size_t size_ext = 0;
    CHECK_SPARSE(hipsparseCcsrilu02_bufferSizeExt(h, n, nnz, descr, values, dOffsets, dColumns, info, &size_ext));
    CHECK_HIP(hipMalloc(&buffer, size_ext));
    CHECK_SPARSE(hipsparseCcsrilu02_analysis(h, n, nnz, descr, values, dOffsets, dColumns, info, policy, buffer));
    CHECK_SPARSE(hipsparseCcsrilu02(h, n, nnz, descr, values, dOffsets, dColumns, info, policy, buffer));
  }
  pivot = 7;
  bad += (hipsparseXcsrilu02_zeroPivot(h, info, &pivot) != HIPSPARSE_STATUS_SUCCESS) + (pivot != -1);
  bad += wrong(to_host(dValues, nnz), want);
  CHECK_SPARSE(hipsparseDestroyCsrilu02Info(info));
  CHECK_SPARSE(hipsparseDestroyMatDescr(descr));
  for (void *p : {(void *)dOffsets, (void *)dColumns, (void *)dValues, buffer}) CHECK_HIP(hipFree(p));
  return bad;
}

// Zero pivots: a row with no diagonal entry (the analysis finds it), and a
// pivot that elimination makes zero (the factorization finds it).
static int csrilu02_pivots(hipsparseHandle_t h, hipsparseIndexBase_t base) {
  hipsparseMatDescr_t descr;
  CHECK_SPARSE(hipsparseCreateMatDescr(&descr));
  CHECK_SPARSE(hipsparseSetMatIndexBase(descr, base));
  csrilu02Info_t info;
  CHECK_SPARSE(hipsparseCreateCsrilu02Info(&info));
  // [[2, 1, 0], [1, 0, 3], [0, 3, 4]] without the (1, 1) entry.
  std::vector<int> offsets = {0, 2, 4, 6}, columns = {0, 1, 0, 2, 1, 2};
  std::vector<double> values = {2, 1, 1, 3, 3, 4};
  for (int &v : offsets) v += base;
  for (int &v : columns) v += base;
  int *dOffsets = to_device(offsets), *dColumns = to_device(columns), pivot = 0, bad = 0;
  double *dValues = to_device(values);
  CHECK_SPARSE(hipsparseDcsrilu02_analysis(h, 3, 6, descr, dValues, dOffsets, dColumns, info,
                                           HIPSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr));
  bad += (hipsparseXcsrilu02_zeroPivot(h, info, &pivot) != HIPSPARSE_STATUS_ZERO_PIVOT) + (pivot != 1 + base);
  // [[1, 2], [2, 4]]: U(1, 1) = 4 - 2 * 2.
  std::vector<int> offsets2 = {0, 2, 4}, columns2 = {0, 1, 0, 1};
  std::vector<double> values2 = {1, 2, 2, 4};
  for (int &v : offsets2) v += base;
  for (int &v : columns2) v += base;
  int *dOffsets2 = to_device(offsets2), *dColumns2 = to_device(columns2);
  double *dValues2 = to_device(values2);
  CHECK_SPARSE(hipsparseDcsrilu02_analysis(h, 2, 4, descr, dValues2, dOffsets2, dColumns2, info,
                                           HIPSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr));
  bad += (hipsparseXcsrilu02_zeroPivot(h, info, &pivot) != HIPSPARSE_STATUS_SUCCESS) + (pivot != -1);
  CHECK_SPARSE(hipsparseDcsrilu02(h, 2, 4, descr, dValues2, dOffsets2, dColumns2, info,
                                  HIPSPARSE_SOLVE_POLICY_NO_LEVEL, nullptr));
  bad += (hipsparseXcsrilu02_zeroPivot(h, info, &pivot) != HIPSPARSE_STATUS_ZERO_PIVOT) + (pivot != 1 + base);
  bad += to_host(dValues2, 4) != std::vector<double>{1, 2, 2, 0};
  CHECK_SPARSE(hipsparseDestroyCsrilu02Info(info));
  CHECK_SPARSE(hipsparseDestroyMatDescr(descr));
  for (void *p : {(void *)dOffsets, (void *)dColumns, (void *)dValues, (void *)dOffsets2, (void *)dColumns2,
                  (void *)dValues2})
    CHECK_HIP(hipFree(p));
  return bad;
}

static void check_csrilu02(hipsparseHandle_t h) {
  report("Dcsrilu02, base 0 and 1", csrilu02_case<double>(h, HIPSPARSE_INDEX_BASE_ZERO) +
                                        csrilu02_case<double>(h, HIPSPARSE_INDEX_BASE_ONE));
  report("Ccsrilu02, bufferSizeExt", csrilu02_case<C>(h, HIPSPARSE_INDEX_BASE_ZERO));
  report("csrilu02 zero pivots: structural, numerical, base 0 and 1",
         csrilu02_pivots(h, HIPSPARSE_INDEX_BASE_ZERO) + csrilu02_pivots(h, HIPSPARSE_INDEX_BASE_ONE));
}

// Csr2cscEx2: the CSC form is the CSR form of the transpose; symbolic
// leaves the values alone.
template <class T> int csr2csc_case(hipsparseHandle_t h, hipsparseIndexBase_t base, hipsparseAction_t action) {
  const int m = 9, n = 13;
  Sparse<T> a(m, n, base);
  std::vector<T> transposed(size_t(n) * m);
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) transposed[j + size_t(i) * n] = a.dense[i + size_t(j) * m];
  Sparse<T> t(n, m, base, transposed);
  const int nnz = int(a.values.size());
  std::vector<T> sentinel(nnz, T(42));
  int *dOffsets = to_device(a.offsets), *dColumns = to_device(a.columns), *dCscOffsets, *dRows;
  T *dValues = to_device(a.values), *dCscValues = to_device(sentinel);
  CHECK_HIP(hipMalloc(&dCscOffsets, (n + 1) * sizeof(int)));
  CHECK_HIP(hipMalloc(&dRows, std::max(nnz, 1) * sizeof(int)));
  size_t size = 1;
  CHECK_SPARSE(hipsparseCsr2cscEx2_bufferSize(h, m, n, nnz, dValues, dOffsets, dColumns, dCscValues, dCscOffsets,
                                              dRows, type_of<T>(), action, base, HIPSPARSE_CSR2CSC_ALG1, &size));
  void *buffer;
  CHECK_HIP(hipMalloc(&buffer, size + 1));
  CHECK_SPARSE(hipsparseCsr2cscEx2(h, m, n, nnz, dValues, dOffsets, dColumns, dCscValues, dCscOffsets, dRows,
                                   type_of<T>(), action, base, HIPSPARSE_CSR2CSC_ALG_DEFAULT, buffer));
  int bad = (to_host(dCscOffsets, n + 1) != t.offsets) + (to_host(dRows, nnz) != t.columns) +
            (to_host(dCscValues, nnz) != (action == HIPSPARSE_ACTION_NUMERIC ? t.values : sentinel));
  for (void *p : {(void *)dOffsets, (void *)dColumns, (void *)dValues, (void *)dCscValues, (void *)dCscOffsets,
                  (void *)dRows, buffer})
    CHECK_HIP(hipFree(p));
  return bad;
}

// Xcsrsort of rows whose columns are shuffled, composing an identity
// permutation; Dgthr then gathers the values into the sorted order.
static int csrsort_case(hipsparseHandle_t h, hipsparseIndexBase_t base) {
  const int m = 11, n = 17;
  Sparse<double> a(m, n, base);
  std::vector<int> columns = a.columns;
  std::vector<double> values = a.values;
  for (int i = 0; i < m; i++) {
    std::vector<int> order(a.offsets[i + 1] - a.offsets[i]);
    for (size_t k = 0; k < order.size(); k++) order[k] = a.offsets[i] - base + int(k);
    std::shuffle(order.begin(), order.end(), rng);
    for (size_t k = 0; k < order.size(); k++) {
      columns[a.offsets[i] - base + k] = a.columns[order[k]];
      values[a.offsets[i] - base + k] = a.values[order[k]];
    }
  }
  const int nnz = int(a.values.size());
  hipsparseMatDescr_t descr;
  CHECK_SPARSE(hipsparseCreateMatDescr(&descr));
  CHECK_SPARSE(hipsparseSetMatIndexBase(descr, base));
  int *dOffsets = to_device(a.offsets), *dColumns = to_device(columns), *dP;
  double *dValues = to_device(values), *dSorted;
  CHECK_HIP(hipMalloc(&dP, nnz * sizeof(int)));
  CHECK_HIP(hipMalloc(&dSorted, nnz * sizeof(double)));
  size_t size = 1;
  CHECK_SPARSE(hipsparseXcsrsort_bufferSizeExt(h, m, n, nnz, dOffsets, dColumns, &size));
  void *buffer;
  CHECK_HIP(hipMalloc(&buffer, size + 1));
  CHECK_SPARSE(hipsparseCreateIdentityPermutation(h, nnz, dP));
  CHECK_SPARSE(hipsparseXcsrsort(h, m, n, nnz, descr, dOffsets, dColumns, dP, buffer));
  CHECK_SPARSE(hipsparseDgthr(h, nnz, dValues, dSorted, dP, HIPSPARSE_INDEX_BASE_ZERO));
  int bad = (to_host(dColumns, nnz) != a.columns) + (to_host(dSorted, nnz) != a.values);
  CHECK_SPARSE(hipsparseDestroyMatDescr(descr));
  for (void *p : {(void *)dOffsets, (void *)dColumns, (void *)dP, (void *)dValues, (void *)dSorted, buffer})
    CHECK_HIP(hipFree(p));
  return bad;
}

// gthr: x = y at x's indices, base one.
template <class T> int gthr_case(hipsparseHandle_t h) {
  std::vector<T> y(20);
  for (T &v : y) v = random_value<T>();
  std::vector<int> indices = {20, 3, 7, 1, 12};
  std::vector<Z> want;
  for (int i : indices) want.push_back(wide(y[i - 1]));
  T *dy = to_device(y), *dx;
  int *dIndices = to_device(indices);
  CHECK_HIP(hipMalloc(&dx, indices.size() * sizeof(T)));
  int nnz = int(indices.size());
  const auto one = HIPSPARSE_INDEX_BASE_ONE;
  if constexpr (std::is_same_v<T, float>)
    CHECK_SPARSE(hipsparseSgthr(h, nnz, dy, dx, dIndices, one));
  else if constexpr (std::is_same_v<T, double>)
    CHECK_SPARSE(hipsparseDgthr(h, nnz, dy, dx, dIndices, one));
  else if constexpr (std::is_same_v<T, C>)
    CHECK_SPARSE(hipsparseCgthr(h, nnz, (hipComplex *)dy, (hipComplex *)dx, dIndices, one));
  else
    CHECK_SPARSE(hipsparseZgthr(h, nnz, (hipDoubleComplex *)dy, (hipDoubleComplex *)dx, dIndices, one));
  int bad = wrong(to_host(dx, indices.size()), want);
  for (void *p : {(void *)dy, (void *)dx, (void *)dIndices}) CHECK_HIP(hipFree(p));
  return bad;
}

static void check_reorderings(hipsparseHandle_t h) {
  report("Csr2cscEx2 float, numeric, base 0",
         csr2csc_case<float>(h, HIPSPARSE_INDEX_BASE_ZERO, HIPSPARSE_ACTION_NUMERIC));
  report("Csr2cscEx2 complex double, numeric and symbolic, base 1",
         csr2csc_case<Z>(h, HIPSPARSE_INDEX_BASE_ONE, HIPSPARSE_ACTION_NUMERIC) +
             csr2csc_case<Z>(h, HIPSPARSE_INDEX_BASE_ONE, HIPSPARSE_ACTION_SYMBOLIC));
  report("Xcsrsort, CreateIdentityPermutation, Dgthr, base 0 and 1",
         csrsort_case(h, HIPSPARSE_INDEX_BASE_ZERO) + csrsort_case(h, HIPSPARSE_INDEX_BASE_ONE));
  report("Sgthr, Dgthr, Cgthr, Zgthr, base 1", gthr_case<float>(h) + gthr_case<double>(h) + gthr_case<C>(h) +
                                                   gthr_case<Z>(h));
}

static void check_not_supported(void) {
  csrsv2Info_t info;
  hipsparseStatus_t first = hipsparseCreateCsrsv2Info(&info), second = hipsparseCreateCsrsv2Info(&info);
  report("CreateCsrsv2Info: not supported",
         (first != HIPSPARSE_STATUS_NOT_SUPPORTED) + (second != HIPSPARSE_STATUS_NOT_SUPPORTED));
}

int main() {
  hipsparseHandle_t h;
  CHECK_SPARSE(hipsparseCreate(&h));
  int version = 0;
  CHECK_SPARSE(hipsparseGetVersion(h, &version));
  report("GetVersion", version != hipsparseVersionMajor * 100000 + hipsparseVersionMinor * 100 + hipsparseVersionPatch);
  check_spmv(h);
  check_spmm(h);
  check_conversions(h);
  check_classic(h);
  check_stream_and_device_pointers(h);
  check_vectors(h);
  check_spgemm(h);
  check_sddmm(h);
  check_spsv(h);
  check_spsm(h);
  check_attributes();
  check_csrilu02(h);
  check_reorderings(h);
  check_not_supported();
  CHECK_SPARSE(hipsparseDestroy(h));
  printf("hipsparse: %d cases\n", cases);
  return 0;
}
