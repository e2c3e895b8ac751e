// cuSPARSE's generic API on the simulated device: CSR SpMV and SpMM, a COO
// SpMV, CSC to dense and dense to CSR, SpGEMM, batched SDDMM and the
// triangular solves SpSV and SpSM, each against the dense matrices they
// stand for, and a sparse vector's Axpby, SpVV, Gather, Rot and Scatter; of
// the legacy API csrilu02, Csr2cscEx2, Snnz, Xcsrsort and Sgthr.  Prints
// "NAME: ok" or "NAME: FAILED ...".
#include <cusparse.h>

#include <algorithm>
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

  // SpGEMM: C = 2 A B + 0.5 C for A above and a 5x3 B, C's values set to 1
  // between the stages; its pattern is every product of stored entries.
  {
    const int n = 3;
    const float b_dense[cols][n] = {{1, 0, 2}, {0, 3, 0}, {0, 0, 0}, {4, 0, 5}, {0, 6, 0}};
    std::vector<int> b_offsets = {0}, b_columns, want_offsets = {0}, want_columns;
    std::vector<float> b_values, want_values;
    for (int r = 0; r < cols; r++) {
      for (int c = 0; c < n; c++)
        if (b_dense[r][c] != 0) b_columns.push_back(c), b_values.push_back(b_dense[r][c]);
      b_offsets.push_back(int(b_columns.size()));
    }
    for (int r = 0; r < rows; r++) {
      for (int c = 0; c < n; c++) {
        float sum = 0;
        bool stored = false;
        for (int l = 0; l < cols; l++)
          if (dense[r][l] != 0 && b_dense[l][c] != 0) sum += dense[r][l] * b_dense[l][c], stored = true;
        if (stored) want_columns.push_back(c), want_values.push_back(2 * sum + 0.5f);
      }
      want_offsets.push_back(int(want_columns.size()));
    }
    int *d_b_offsets = to_device(b_offsets), *d_b_columns = to_device(b_columns), *d_c_offsets, *d_c_columns;
    float *d_b_values = to_device(b_values), *d_c_values, two = 2;
    cudaMalloc(&d_c_offsets, (rows + 1) * sizeof(int));
    cusparseSpMatDescr_t mat_b, mat_c;
    CHECK(cusparseCreateCsr(&mat_b, cols, n, int64_t(b_values.size()), d_b_offsets, d_b_columns, d_b_values,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK(cusparseCreateCsr(&mat_c, rows, n, 0, nullptr, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    cusparseSpGEMMDescr_t spgemm;
    CHECK(cusparseSpGEMM_createDescr(&spgemm));
    const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
    size_t size1 = 0, size2 = 0;
    void *buffer1, *buffer2;
    CHECK(cusparseSpGEMM_workEstimation(handle, N, N, &two, csr, mat_b, &half, mat_c, CUDA_R_32F,
                                        CUSPARSE_SPGEMM_DEFAULT, spgemm, &size1, nullptr));
    cudaMalloc(&buffer1, size1);
    CHECK(cusparseSpGEMM_workEstimation(handle, N, N, &two, csr, mat_b, &half, mat_c, CUDA_R_32F,
                                        CUSPARSE_SPGEMM_DEFAULT, spgemm, &size1, buffer1));
    CHECK(cusparseSpGEMM_compute(handle, N, N, &two, csr, mat_b, &half, mat_c, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT,
                                 spgemm, &size2, nullptr));
    cudaMalloc(&buffer2, size2);
    CHECK(cusparseSpGEMM_compute(handle, N, N, &two, csr, mat_b, &half, mat_c, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT,
                                 spgemm, &size2, buffer2));
    int64_t c_rows, c_cols, c_nnz;
    CHECK(cusparseSpMatGetSize(mat_c, &c_rows, &c_cols, &c_nnz));
    cudaMalloc(&d_c_columns, c_nnz * sizeof(int));
    d_c_values = to_device(std::vector<float>(c_nnz, 1.0f));
    CHECK(cusparseCsrSetPointers(mat_c, d_c_offsets, d_c_columns, d_c_values));
    CHECK(cusparseSpGEMM_copy(handle, N, N, &two, csr, mat_b, &half, mat_c, CUDA_R_32F, CUSPARSE_SPGEMM_DEFAULT,
                              spgemm));
    CHECK(cusparseSpGEMM_destroyDescr(spgemm));
    cudaStreamSynchronize(stream);
    report("SpGEMM", size1 > 0 && size2 > 0 && c_nnz == int64_t(want_columns.size()) &&
                         to_host(d_c_offsets, rows + 1) == want_offsets &&
                         to_host(d_c_columns, c_nnz) == want_columns && close(to_host(d_c_values, c_nnz), want_values));
    CHECK(cusparseDestroySpMat(mat_b));
    CHECK(cusparseDestroySpMat(mat_c));
  }

  // Csr2cscEx2 of A, against the CSC form read off the dense matrix.
  {
    std::vector<int> want_offsets = {0}, want_rows;
    std::vector<float> want_values;
    for (int c = 0; c < cols; c++) {
      for (int r = 0; r < rows; r++)
        if (dense[r][c] != 0) want_rows.push_back(r), want_values.push_back(dense[r][c]);
      want_offsets.push_back(int(want_rows.size()));
    }
    int *d_csc_offsets, *d_csc_rows;
    float *d_csc_values;
    cudaMalloc(&d_csc_offsets, (cols + 1) * sizeof(int));
    cudaMalloc(&d_csc_rows, nnz * sizeof(int));
    cudaMalloc(&d_csc_values, nnz * sizeof(float));
    CHECK(cusparseCsr2cscEx2_bufferSize(handle, rows, cols, nnz, d_values, d_offsets, d_columns, d_csc_values,
                                        d_csc_offsets, d_csc_rows, CUDA_R_32F, CUSPARSE_ACTION_NUMERIC,
                                        CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &size));
    CHECK(cusparseCsr2cscEx2(handle, rows, cols, nnz, d_values, d_offsets, d_columns, d_csc_values, d_csc_offsets,
                             d_csc_rows, CUDA_R_32F, CUSPARSE_ACTION_NUMERIC, CUSPARSE_INDEX_BASE_ZERO,
                             CUSPARSE_CSR2CSC_ALG_DEFAULT, buffer));
    cudaStreamSynchronize(stream);
    report("Csr2cscEx2", to_host(d_csc_offsets, cols + 1) == want_offsets && to_host(d_csc_rows, nnz) == want_rows &&
                             close(to_host(d_csc_values, nnz), want_values));
  }

  // Snnz of A (column-major) by row and by column.
  {
    std::vector<float> column_major(rows * cols);
    std::vector<int> want_rows(rows, 0), want_cols(cols, 0);
    for (int r = 0; r < rows; r++)
      for (int c = 0; c < cols; c++) {
        column_major[r + c * rows] = dense[r][c];
        want_rows[r] += dense[r][c] != 0, want_cols[c] += dense[r][c] != 0;
      }
    float *d_dense_a = to_device(column_major);
    int *d_per, by_row = 0, by_col = 0;
    cudaMalloc(&d_per, cols * sizeof(int));
    cusparseMatDescr_t general;
    CHECK(cusparseCreateMatDescr(&general));
    CHECK(cusparseSnnz(handle, CUSPARSE_DIRECTION_ROW, rows, cols, general, d_dense_a, rows, d_per, &by_row));
    bool ok = by_row == nnz && to_host(d_per, rows) == want_rows;
    CHECK(cusparseSnnz(handle, CUSPARSE_DIRECTION_COLUMN, rows, cols, general, d_dense_a, rows, d_per, &by_col));
    report("Snnz by row and by column", ok && by_col == nnz && to_host(d_per, cols) == want_cols);
    CHECK(cusparseDestroyMatDescr(general));
  }

  // Xcsrsort of A's rows with their entries reversed, composing an identity
  // permutation; Sgthr gathers the values into the sorted order.
  {
    std::vector<int> reversed = columns;
    std::vector<float> reversed_values = values;
    for (int r = 0; r < rows; r++) {
      std::reverse(reversed.begin() + offsets[r], reversed.begin() + offsets[r + 1]);
      std::reverse(reversed_values.begin() + offsets[r], reversed_values.begin() + offsets[r + 1]);
    }
    int *d_sorted_columns = to_device(reversed), *d_p;
    float *d_unsorted = to_device(reversed_values), *d_sorted;
    cudaMalloc(&d_p, nnz * sizeof(int));
    cudaMalloc(&d_sorted, nnz * sizeof(float));
    cusparseMatDescr_t general;
    CHECK(cusparseCreateMatDescr(&general));
    CHECK(cusparseXcsrsort_bufferSizeExt(handle, rows, cols, nnz, d_offsets, d_sorted_columns, &size));
    CHECK(cusparseCreateIdentityPermutation(handle, nnz, d_p));
    CHECK(cusparseXcsrsort(handle, rows, cols, nnz, general, d_offsets, d_sorted_columns, d_p, buffer));
    CHECK(cusparseSgthr(handle, nnz, d_unsorted, d_sorted, d_p, CUSPARSE_INDEX_BASE_ZERO));
    cudaStreamSynchronize(stream);
    report("Xcsrsort, CreateIdentityPermutation, Sgthr",
           to_host(d_sorted_columns, nnz) == columns && to_host(d_sorted, nnz) == values);
    CHECK(cusparseDestroyMatDescr(general));
  }

  // A 4x4 matrix with both triangles stored: csrilu02 against the dense
  // elimination on its pattern, then SpSV with the factors (L unit lower,
  // U upper) and SpSM with U^T on two right-hand sides.
  {
    const int n = 4;
    const double m4[n][n] = {{4, 1, 0, 2}, {1, 5, 1, 0}, {0, 2, 6, 1}, {3, 0, 1, 7}};
    std::vector<int> m_offsets = {0}, m_columns;
    std::vector<double> m_values;
    for (int r = 0; r < n; r++) {
      for (int c = 0; c < n; c++)
        if (m4[r][c] != 0) m_columns.push_back(c), m_values.push_back(m4[r][c]);
      m_offsets.push_back(int(m_columns.size()));
    }
    double lu[n][n];
    for (int r = 0; r < n; r++)
      for (int c = 0; c < n; c++) lu[r][c] = m4[r][c];
    for (int i = 0; i < n; i++)
      for (int k = 0; k < i; k++)
        if (m4[i][k] != 0) {
          lu[i][k] /= lu[k][k];
          for (int j = k + 1; j < n; j++)
            if (m4[i][j] != 0) lu[i][j] -= lu[i][k] * lu[k][j];
        }
    std::vector<double> want_lu;
    for (int r = 0; r < n; r++)
      for (int c = 0; c < n; c++)
        if (m4[r][c] != 0) want_lu.push_back(lu[r][c]);
    int *d_m_offsets = to_device(m_offsets), *d_m_columns = to_device(m_columns), m_nnz = int(m_values.size());
    double *d_m_values = to_device(m_values);
    cusparseMatDescr_t general;
    CHECK(cusparseCreateMatDescr(&general));
    csrilu02Info_t info;
    CHECK(cusparseCreateCsrilu02Info(&info));
    int ilu_size = 0, structural = 9, numerical = 9;
    CHECK(cusparseDcsrilu02_bufferSize(handle, n, m_nnz, general, d_m_values, d_m_offsets, d_m_columns, info,
                                       &ilu_size));
    void *ilu_buffer;
    cudaMalloc(&ilu_buffer, ilu_size);
    CHECK(cusparseDcsrilu02_analysis(handle, n, m_nnz, general, d_m_values, d_m_offsets, d_m_columns, info,
                                     CUSPARSE_SOLVE_POLICY_USE_LEVEL, ilu_buffer));
    CHECK(cusparseXcsrilu02_zeroPivot(handle, info, &structural));
    CHECK(cusparseDcsrilu02(handle, n, m_nnz, general, d_m_values, d_m_offsets, d_m_columns, info,
                            CUSPARSE_SOLVE_POLICY_USE_LEVEL, ilu_buffer));
    CHECK(cusparseXcsrilu02_zeroPivot(handle, info, &numerical));
    cudaStreamSynchronize(stream);
    std::vector<double> got_lu = to_host(d_m_values, m_nnz);
    bool lu_ok = structural == -1 && numerical == -1;
    for (int k = 0; k < m_nnz; k++) lu_ok = lu_ok && std::fabs(got_lu[k] - want_lu[k]) < 1e-12;
    report("Dcsrilu02, Xcsrilu02_zeroPivot", lu_ok);
    CHECK(cusparseDestroyCsrilu02Info(info));
    CHECK(cusparseDestroyMatDescr(general));

    // x = U^-1 (L^-1 (3 r)), L and U read from the one factored matrix.
    const double r4[n] = {1, -2, 3, 0.5}, three = 3;
    double t[n], x[n];
    for (int i = 0; i < n; i++) {
      t[i] = three * r4[i];
      for (int j = 0; j < i; j++) t[i] -= lu[i][j] * t[j];
    }
    for (int i = n - 1; i >= 0; i--) {
      x[i] = t[i];
      for (int j = i + 1; j < n; j++) x[i] -= lu[i][j] * x[j];
      x[i] /= lu[i][i];
    }
    double *d_r = to_device(std::vector<double>(r4, r4 + n)), *d_t, *d_x;
    cudaMalloc(&d_t, n * sizeof(double));
    cudaMalloc(&d_x, n * sizeof(double));
    cusparseSpMatDescr_t lower, upper;
    CHECK(cusparseCreateCsr(&lower, n, n, m_nnz, d_m_offsets, d_m_columns, d_m_values, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CHECK(cusparseCreateCsr(&upper, n, n, m_nnz, d_m_offsets, d_m_columns, d_m_values, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    cusparseFillMode_t fill_lower = CUSPARSE_FILL_MODE_LOWER, fill_upper = CUSPARSE_FILL_MODE_UPPER;
    cusparseDiagType_t unit = CUSPARSE_DIAG_TYPE_UNIT, non_unit = CUSPARSE_DIAG_TYPE_NON_UNIT;
    CHECK(cusparseSpMatSetAttribute(lower, CUSPARSE_SPMAT_FILL_MODE, &fill_lower, sizeof(fill_lower)));
    CHECK(cusparseSpMatSetAttribute(lower, CUSPARSE_SPMAT_DIAG_TYPE, &unit, sizeof(unit)));
    CHECK(cusparseSpMatSetAttribute(upper, CUSPARSE_SPMAT_FILL_MODE, &fill_upper, sizeof(fill_upper)));
    CHECK(cusparseSpMatSetAttribute(upper, CUSPARSE_SPMAT_DIAG_TYPE, &non_unit, sizeof(non_unit)));
    cusparseFillMode_t got_fill;
    CHECK(cusparseSpMatGetAttribute(upper, CUSPARSE_SPMAT_FILL_MODE, &got_fill, sizeof(got_fill)));
    cusparseDnVecDescr_t vr, vt, vx2;
    CHECK(cusparseCreateDnVec(&vr, n, d_r, CUDA_R_64F));
    CHECK(cusparseCreateDnVec(&vt, n, d_t, CUDA_R_64F));
    CHECK(cusparseCreateDnVec(&vx2, n, d_x, CUDA_R_64F));
    cusparseSpSVDescr_t spsv_l, spsv_u;
    CHECK(cusparseSpSV_createDescr(&spsv_l));
    CHECK(cusparseSpSV_createDescr(&spsv_u));
    const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
    double one_d = 1;
    CHECK(cusparseSpSV_bufferSize(handle, N, &three, lower, vr, vt, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_l,
                                  &size));
    CHECK(cusparseSpSV_analysis(handle, N, &three, lower, vr, vt, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_l,
                                buffer));
    CHECK(cusparseSpSV_bufferSize(handle, N, &one_d, upper, vt, vx2, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_u,
                                  &size));
    CHECK(cusparseSpSV_analysis(handle, N, &one_d, upper, vt, vx2, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_u,
                                buffer));
    CHECK(cusparseSpSV_solve(handle, N, &three, lower, vr, vt, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_l));
    CHECK(cusparseSpSV_solve(handle, N, &one_d, upper, vt, vx2, CUDA_R_64F, CUSPARSE_SPSV_ALG_DEFAULT, spsv_u));
    cudaStreamSynchronize(stream);
    std::vector<double> got_x = to_host(d_x, n);
    bool sv_ok = got_fill == CUSPARSE_FILL_MODE_UPPER;
    for (int i = 0; i < n; i++) sv_ok = sv_ok && std::fabs(got_x[i] - x[i]) < 1e-12;
    report("SpSV lower unit, upper non-unit", sv_ok);
    CHECK(cusparseSpSV_destroyDescr(spsv_l));
    CHECK(cusparseSpSV_destroyDescr(spsv_u));

    // SpSM: U^T X = B, B and X 4x2 in row order.
    const int k2 = 2;
    std::vector<double> rhs = {1, 2, -1, 0, 3, 1, 0.5, -2}, want_x(n * k2);
    for (int j = 0; j < k2; j++)
      for (int i = 0; i < n; i++) {
        double s = rhs[i * k2 + j];
        for (int l = 0; l < i; l++) s -= lu[l][i] * want_x[l * k2 + j];
        want_x[i * k2 + j] = s / lu[i][i];
      }
    double *d_rhs = to_device(rhs), *d_sol = to_device(std::vector<double>(n * k2, 0.0));
    cusparseDnMatDescr_t mat_rhs, mat_sol;
    CHECK(cusparseCreateDnMat(&mat_rhs, n, k2, k2, d_rhs, CUDA_R_64F, CUSPARSE_ORDER_ROW));
    CHECK(cusparseCreateDnMat(&mat_sol, n, k2, k2, d_sol, CUDA_R_64F, CUSPARSE_ORDER_ROW));
    cusparseSpSMDescr_t spsm;
    CHECK(cusparseSpSM_createDescr(&spsm));
    const cusparseOperation_t T = CUSPARSE_OPERATION_TRANSPOSE;
    CHECK(cusparseSpSM_bufferSize(handle, T, N, &one_d, upper, mat_rhs, mat_sol, CUDA_R_64F, CUSPARSE_SPSM_ALG_DEFAULT,
                                  spsm, &size));
    CHECK(cusparseSpSM_analysis(handle, T, N, &one_d, upper, mat_rhs, mat_sol, CUDA_R_64F, CUSPARSE_SPSM_ALG_DEFAULT,
                                spsm, buffer));
    CHECK(cusparseSpSM_solve(handle, T, N, &one_d, upper, mat_rhs, mat_sol, CUDA_R_64F, CUSPARSE_SPSM_ALG_DEFAULT,
                             spsm));
    cudaStreamSynchronize(stream);
    std::vector<double> got_sol = to_host(d_sol, n * k2);
    bool sm_ok = true;
    for (int i = 0; i < n * k2; i++) sm_ok = sm_ok && std::fabs(got_sol[i] - want_x[i]) < 1e-12;
    report("SpSM upper non-unit, transposed", sm_ok);
    CHECK(cusparseSpSM_destroyDescr(spsm));
    CHECK(cusparseDestroyDnMat(mat_rhs));
    CHECK(cusparseDestroyDnMat(mat_sol));
    CHECK(cusparseDestroyDnVec(vr));
    CHECK(cusparseDestroyDnVec(vt));
    CHECK(cusparseDestroyDnVec(vx2));
    CHECK(cusparseDestroySpMat(lower));
    CHECK(cusparseDestroySpMat(upper));
  }

  // SDDMM in 2 strided batches: C = 2 (A B) at C's nonzeros + 0.5 C, A 2x3
  // and B 3x4 row-major, C 2x4 CSR with 3 nonzeros a batch.
  {
    const int bm = 2, bk = 3, bn = 4, batches = 2, c_nnz = 3;
    std::vector<float> a_batches(batches * bm * bk), b_batches(batches * bk * bn);
    for (size_t i = 0; i < a_batches.size(); i++) a_batches[i] = float(i % 5) - 1;
    for (size_t i = 0; i < b_batches.size(); i++) b_batches[i] = float(i % 7) * 0.5f - 1;
    std::vector<int> c_offsets = {0, 2, 3, 0, 1, 3}, c_columns = {0, 3, 2, 1, 0, 2};
    std::vector<float> c_values = {1, 2, 3, -1, -2, -3}, want = c_values;
    for (int b = 0; b < batches; b++)
      for (int r = 0; r < bm; r++)
        for (int p = c_offsets[b * (bm + 1) + r]; p < c_offsets[b * (bm + 1) + r + 1]; p++) {
          int c = c_columns[b * c_nnz + p];
          float sum = 0;
          for (int l = 0; l < bk; l++) sum += a_batches[b * bm * bk + r * bk + l] * b_batches[b * bk * bn + l * bn + c];
          want[b * c_nnz + p] = 2 * sum + 0.5f * c_values[b * c_nnz + p];
        }
    float *d_a = to_device(a_batches), *d_b = to_device(b_batches), *d_cv = to_device(c_values), two = 2;
    int *d_co = to_device(c_offsets), *d_cc = to_device(c_columns);
    cusparseDnMatDescr_t mat_a, mat_b;
    cusparseSpMatDescr_t mat_c;
    CHECK(cusparseCreateDnMat(&mat_a, bm, bk, bk, d_a, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CHECK(cusparseDnMatSetStridedBatch(mat_a, batches, bm * bk));
    CHECK(cusparseCreateDnMat(&mat_b, bk, bn, bn, d_b, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CHECK(cusparseDnMatSetStridedBatch(mat_b, batches, bk * bn));
    CHECK(cusparseCreateCsr(&mat_c, bm, bn, c_nnz, d_co, d_cc, d_cv, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I,
                            CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CHECK(cusparseCsrSetStridedBatch(mat_c, batches, bm + 1, c_nnz));
    int count = 0;
    int64_t stride = 0;
    CHECK(cusparseDnMatGetStridedBatch(mat_b, &count, &stride));
    bool ok = count == batches && stride == bk * bn;
    CHECK(cusparseSpMatGetStridedBatch(mat_c, &count));
    ok = ok && count == batches;
    const cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
    CHECK(cusparseSDDMM_bufferSize(handle, N, N, &two, mat_a, mat_b, &half, mat_c, CUDA_R_32F,
                                   CUSPARSE_SDDMM_ALG_DEFAULT, &size));
    CHECK(cusparseSDDMM_preprocess(handle, N, N, &two, mat_a, mat_b, &half, mat_c, CUDA_R_32F,
                                   CUSPARSE_SDDMM_ALG_DEFAULT, buffer));
    CHECK(cusparseSDDMM(handle, N, N, &two, mat_a, mat_b, &half, mat_c, CUDA_R_32F, CUSPARSE_SDDMM_ALG_DEFAULT,
                        buffer));
    cudaStreamSynchronize(stream);
    report("SDDMM, 2 strided batches", ok && close(to_host(d_cv, batches * c_nnz), want));
    CHECK(cusparseDestroyDnMat(mat_a));
    CHECK(cusparseDestroyDnMat(mat_b));
    CHECK(cusparseDestroySpMat(mat_c));
  }

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
