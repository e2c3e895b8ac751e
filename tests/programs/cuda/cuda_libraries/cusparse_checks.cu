// cuSPARSE's generic API on the simulated device: CSR SpMV and SpMM, a COO
// SpMV, CSC to dense and dense to CSR, each against the dense matrix it
// stands for, and a sparse vector's Axpby, SpVV, Gather, Rot and Scatter.
// Prints "NAME: ok" or "NAME: FAILED ...".
#include <cusparse.h>

#include <cmath>
#include <cstdio>
#include <vector>

static int failures = 0;

static void report(const char *name, bool ok) {
  printf("%s: %s\n", name, ok ? "ok" : "FAILED");
  if (!ok) failures++;
}

#define CHECK(call)                                                     \
  do {                                                                  \
    cusparseStatus_t s_ = (call);                                       \
    if (s_ != CUSPARSE_STATUS_SUCCESS) {                                \
      printf("%s: FAILED %s\n", #call, cusparseGetErrorName(s_));       \
      failures++;                                                       \
    }                                                                   \
  } while (0)

template <class T> T *to_device(const std::vector<T> &host) {
  T *device;
  cudaMalloc(&device, host.size() * sizeof(T) + 1);
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}
template <class T> std::vector<T> to_host(const T *device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

static bool close(const std::vector<float> &a, const std::vector<float> &b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); i++)
    if (std::fabs(a[i] - b[i]) > 1e-4f) return false;
  return true;
}

int main() {
  // A 4x5 matrix, row-major dense, and its CSR form.
  const int rows = 4, cols = 5;
  const float dense[rows][cols] = {{1, 0, 2, 0, 0}, {0, 0, 0, 3, 0}, {4, 5, 0, 0, 6}, {0, 0, 0, 0, 7}};
  std::vector<int> offsets = {0}, columns, coo_rows;
  std::vector<float> values;
  for (int r = 0; r < rows; r++) {
    for (int c = 0; c < cols; c++)
      if (dense[r][c] != 0) columns.push_back(c), coo_rows.push_back(r), values.push_back(dense[r][c]);
    offsets.push_back(int(columns.size()));
  }
  const int nnz = int(values.size());

  cusparseHandle_t handle;
  CHECK(cusparseCreate(&handle));
  int version = 0;
  CHECK(cusparseGetVersion(handle, &version));
  report("version", version == CUSPARSE_VERSION);
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  CHECK(cusparseSetStream(handle, stream));

  int *d_offsets = to_device(offsets), *d_columns = to_device(columns), *d_rows = to_device(coo_rows);
  float *d_values = to_device(values);
  cusparseSpMatDescr_t csr, coo;
  CHECK(cusparseCreateCsr(&csr, rows, cols, nnz, d_offsets, d_columns, d_values, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CHECK(cusparseCreateCoo(&coo, rows, cols, nnz, d_rows, d_columns, d_values, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  int64_t r64, c64, n64;
  CHECK(cusparseSpMatGetSize(csr, &r64, &c64, &n64));
  cusparseFormat_t format;
  CHECK(cusparseSpMatGetFormat(coo, &format));
  report("descriptors", r64 == rows && c64 == cols && n64 == nnz && format == CUSPARSE_FORMAT_COO);

  // SpMV: y = 2 A x + 1 y, with CSR and with COO.
  std::vector<float> x = {1, 2, 3, 4, 5}, y0 = {1, 1, 1, 1}, expected(rows);
  for (int r = 0; r < rows; r++) {
    float sum = 0;
    for (int c = 0; c < cols; c++) sum += dense[r][c] * x[c];
    expected[r] = 2 * sum + y0[r];
  }
  float alpha = 2, beta = 1;
  float *d_x = to_device(x), *d_y = to_device(y0);
  cusparseDnVecDescr_t vx, vy;
  CHECK(cusparseCreateDnVec(&vx, cols, d_x, CUDA_R_32F));
  CHECK(cusparseCreateDnVec(&vy, rows, d_y, CUDA_R_32F));
  size_t size = 0;
  CHECK(cusparseSpMV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, csr, vx, &beta, vy, CUDA_R_32F,
                                CUSPARSE_SPMV_ALG_DEFAULT, &size));
  void *buffer;
  cudaMalloc(&buffer, size + 1);
  CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, csr, vx, &beta, vy, CUDA_R_32F,
                     CUSPARSE_SPMV_ALG_DEFAULT, buffer));
  cudaStreamSynchronize(stream);
  report("SpMV CSR", close(to_host(d_y, rows), expected));
  cudaMemcpy(d_y, y0.data(), rows * sizeof(float), cudaMemcpyHostToDevice);
  CHECK(cusparseSpMV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, coo, vx, &beta, vy, CUDA_R_32F,
                     CUSPARSE_SPMV_COO_ALG1, buffer));
  cudaStreamSynchronize(stream);
  report("SpMV COO", close(to_host(d_y, rows), expected));

  // SpMM: C = A B for a column-major 5x3 B.
  const int k = 3;
  std::vector<float> B(cols * k), C(rows * k, 0), expected_c(rows * k);
  for (int i = 0; i < cols * k; i++) B[i] = float(i % 7) - 2;
  for (int j = 0; j < k; j++)
    for (int r = 0; r < rows; r++) {
      float sum = 0;
      for (int c = 0; c < cols; c++) sum += dense[r][c] * B[c + j * cols];
      expected_c[r + j * rows] = sum;
    }
  float *d_B = to_device(B), *d_C = to_device(C), one = 1, zero = 0;
  cusparseDnMatDescr_t mb, mc;
  CHECK(cusparseCreateDnMat(&mb, cols, k, cols, d_B, CUDA_R_32F, CUSPARSE_ORDER_COL));
  CHECK(cusparseCreateDnMat(&mc, rows, k, rows, d_C, CUDA_R_32F, CUSPARSE_ORDER_COL));
  CHECK(cusparseSpMM_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, csr,
                                mb, &zero, mc, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &size));
  CHECK(cusparseSpMM(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &one, csr, mb, &zero,
                     mc, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
  cudaStreamSynchronize(stream);
  report("SpMM CSR", close(to_host(d_C, rows * k), expected_c));

  // SparseToDense of the CSR matrix into a row-major dense matrix.
  float *d_dense;
  cudaMalloc(&d_dense, rows * cols * sizeof(float));
  cusparseDnMatDescr_t md;
  CHECK(cusparseCreateDnMat(&md, rows, cols, cols, d_dense, CUDA_R_32F, CUSPARSE_ORDER_ROW));
  CHECK(cusparseSparseToDense_bufferSize(handle, csr, md, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, &size));
  CHECK(cusparseSparseToDense(handle, csr, md, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, buffer));
  cudaStreamSynchronize(stream);
  std::vector<float> flat(&dense[0][0], &dense[0][0] + rows * cols);
  report("SparseToDense", close(to_host(d_dense, rows * cols), flat));

  // DenseToSparse back into a new CSR matrix.
  int *n_offsets, *n_columns;
  float *n_values;
  cudaMalloc(&n_offsets, (rows + 1) * sizeof(int));
  cusparseSpMatDescr_t csr2;
  CHECK(cusparseCreateCsr(&csr2, rows, cols, 0, n_offsets, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                          CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CHECK(cusparseDenseToSparse_bufferSize(handle, md, csr2, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size));
  CHECK(cusparseDenseToSparse_analysis(handle, md, csr2, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
  CHECK(cusparseSpMatGetSize(csr2, &r64, &c64, &n64));
  cudaMalloc(&n_columns, n64 * sizeof(int));
  cudaMalloc(&n_values, n64 * sizeof(float));
  CHECK(cusparseCsrSetPointers(csr2, n_offsets, n_columns, n_values));
  CHECK(cusparseDenseToSparse_convert(handle, md, csr2, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, buffer));
  cudaStreamSynchronize(stream);
  report("DenseToSparse", n64 == nnz && to_host(n_offsets, rows + 1) == offsets &&
                              to_host(n_columns, nnz) == columns && close(to_host(n_values, nnz), values));

  // A sparse vector (64-bit indices, base zero) and a dense one: y = 2 x + 0.5 y,
  // then the dot product, Gather, Scatter and a Givens rotation.
  std::vector<int64_t> v_indices = {4, 1, 6};
  std::vector<float> v_values = {1, -2, 3}, v_y = {2, 2, 2, 2, 2, 2, 2, 2}, want_y(8);
  for (int i = 0; i < 8; i++) want_y[i] = 0.5f * v_y[i];
  for (int k = 0; k < 3; k++) want_y[v_indices[k]] += 2 * v_values[k];
  int64_t *d_vi = to_device(v_indices);
  float *d_vv = to_device(v_values), *d_vy = to_device(v_y), half = 0.5f;
  cusparseSpVecDescr_t sx;
  cusparseDnVecDescr_t dy;
  CHECK(cusparseCreateSpVec(&sx, 8, 3, d_vi, d_vv, CUSPARSE_INDEX_64I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  CHECK(cusparseCreateDnVec(&dy, 8, d_vy, CUDA_R_32F));
  CHECK(cusparseAxpby(handle, &alpha, sx, &half, dy));
  cudaStreamSynchronize(stream);
  int64_t v_size = 0, v_nnz = 0;
  void *v_got_indices = nullptr, *v_got_values = nullptr;
  cusparseIndexType_t v_index_type;
  cusparseIndexBase_t v_base;
  cudaDataType v_type;
  CHECK(cusparseSpVecGet(sx, &v_size, &v_nnz, &v_got_indices, &v_got_values, &v_index_type, &v_base, &v_type));
  report("SpVec Axpby", close(to_host(d_vy, 8), want_y) && v_size == 8 && v_nnz == 3 && v_got_indices == d_vi &&
                            v_got_values == d_vv && v_index_type == CUSPARSE_INDEX_64I &&
                            v_base == CUSPARSE_INDEX_BASE_ZERO && v_type == CUDA_R_32F);
  float dot = 0, want_dot = 0, c = 0.6f, s = 0.8f;
  for (int k = 0; k < 3; k++) want_dot += v_values[k] * want_y[v_indices[k]];
  CHECK(cusparseSpVV_bufferSize(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, sx, dy, &dot, CUDA_R_32F, &size));
  CHECK(cusparseSpVV(handle, CUSPARSE_OPERATION_NON_TRANSPOSE, sx, dy, &dot, CUDA_R_32F, buffer));
  CHECK(cusparseGather(handle, dy, sx));  // x = y at x's indices
  cudaStreamSynchronize(stream);
  std::vector<float> gathered = to_host(d_vv, 3), want_gathered;
  for (int k = 0; k < 3; k++) want_gathered.push_back(want_y[v_indices[k]]);
  // x = c x + s y, y = c y - s x at x's indices, then x's values back into y.
  std::vector<float> want_rot = want_y;
  for (int k = 0; k < 3; k++) want_rot[v_indices[k]] = c * gathered[k] + s * want_y[v_indices[k]];
  CHECK(cusparseRot(handle, &c, &s, sx, dy));
  CHECK(cusparseScatter(handle, sx, dy));
  cudaStreamSynchronize(stream);
  report("SpVec SpVV, Gather, Rot, Scatter", std::fabs(dot - want_dot) < 1e-4f && close(gathered, want_gathered) &&
                                                 close(to_host(d_vy, 8), want_rot));
  CHECK(cusparseDestroySpVec(sx));
  CHECK(cusparseDestroyDnVec(dy));

  // A legacy matrix description, and bad calls.
  cusparseMatDescr_t descr;
  CHECK(cusparseCreateMatDescr(&descr));
  CHECK(cusparseSetMatIndexBase(descr, CUSPARSE_INDEX_BASE_ONE));
  CHECK(cusparseSetMatType(descr, CUSPARSE_MATRIX_TYPE_GENERAL));
  report("mat descr", cusparseGetMatIndexBase(descr) == CUSPARSE_INDEX_BASE_ONE &&
                          cusparseGetMatType(descr) == CUSPARSE_MATRIX_TYPE_GENERAL);
  CHECK(cusparseDestroyMatDescr(descr));
  cusparseDnVecDescr_t bad;
  report("negative size: CUSPARSE_STATUS_INVALID_VALUE",
         cusparseCreateDnVec(&bad, -1, d_x, CUDA_R_32F) == CUSPARSE_STATUS_INVALID_VALUE);
  report("null handle: CUSPARSE_STATUS_NOT_INITIALIZED",
         cusparseSpMV(nullptr, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, csr, vx, &beta, vy, CUDA_R_32F,
                      CUSPARSE_SPMV_ALG_DEFAULT, buffer) == CUSPARSE_STATUS_NOT_INITIALIZED);

  CHECK(cusparseDestroySpMat(csr));
  CHECK(cusparseDestroySpMat(coo));
  CHECK(cusparseDestroySpMat(csr2));
  CHECK(cusparseDestroyDnVec(vx));
  CHECK(cusparseDestroyDnVec(vy));
  CHECK(cusparseDestroyDnMat(mb));
  CHECK(cusparseDestroyDnMat(mc));
  CHECK(cusparseDestroyDnMat(md));
  CHECK(cusparseDestroy(handle));
  cudaStreamDestroy(stream);
  printf("cusparse: %d failed\n", failures);
  return failures != 0;
}
