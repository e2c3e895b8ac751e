// gpusym's hipSPARSE: handles, matrix descriptors, the generic API's matrix
// and dense vector descriptors (with their attributes and strided batches),
// SpMV, SpMM and the conversions between sparse and dense, and the classic
// csrmv, csrmm, nnz, dense2csr and csr2dense, computed on the CPU in the
// handle's stream order (sparse vectors: sparse_vectors.cpp; SpGEMM and
// SDDMM: sparse_products.cpp; SpSV, SpSM and csrilu02: sparse_solvers.cpp;
// csr2cscEx2 and csrsort: sparse_conversions.cpp).  Values are float,
// double and their complex forms; indices 32 or 64 bits, based at zero or
// one.
#include <hipsparse/hipsparse.h>

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstring>
#include <functional>
#include <mutex>
#include <set>
#include <string>
#include <type_traits>

#include "hipsparse_internal.h"
#include "not_supported.h"

namespace gpusym_hipsparse {

void report_not_supported(const char *name) {
  gpusym_library::report_not_supported("hipSPARSE", name, "HIPSPARSE_STATUS_NOT_SUPPORTED");
}

}  // namespace gpusym_hipsparse

using namespace gpusym_hipsparse;

namespace {

// y = alpha op(A) x + beta y.
template <class T>
void spmv(const SpMat &a, hipsparseOperation_t op, T alpha, const T *x, T beta, T *y) {
  int64_t out = op == HIPSPARSE_OPERATION_NON_TRANSPOSE ? a.rows : a.cols;
  for (int64_t i = 0; i < out; i++) y[i] = beta == T(0) ? T(0) : beta * y[i];
  each_nonzero<T>(a, [&](int64_t r, int64_t c, T v) {
    if (op == HIPSPARSE_OPERATION_NON_TRANSPOSE)
      y[r] += alpha * v * x[c];
    else
      y[c] += alpha * (op == HIPSPARSE_OPERATION_TRANSPOSE ? v : conjugate(v)) * x[r];
  });
}

// C = alpha op(A) op(B) + beta C.
template <class T>
void spmm(const SpMat &a, hipsparseOperation_t op_a, const DnMat &b, hipsparseOperation_t op_b, T alpha, T beta,
          const DnMat &c) {
  for (int64_t j = 0; j < c.cols; j++)
    for (int64_t i = 0; i < c.rows; i++) at<T>(c, i, j) = beta == T(0) ? T(0) : beta * at<T>(c, i, j);
  auto b_at = [&](int64_t r, int64_t col) {
    if (op_b == HIPSPARSE_OPERATION_NON_TRANSPOSE) return at<T>(b, r, col);
    T v = at<T>(b, col, r);
    return op_b == HIPSPARSE_OPERATION_TRANSPOSE ? v : conjugate(v);
  };
  each_nonzero<T>(a, [&](int64_t r, int64_t col, T v) {
    if (op_a != HIPSPARSE_OPERATION_NON_TRANSPOSE) {
      std::swap(r, col);
      if (op_a == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE) v = conjugate(v);
    }
    for (int64_t j = 0; j < c.cols; j++) at<T>(c, r, j) += alpha * v * b_at(col, j);
  });
}

hipsparseStatus_t create_sparse(hipsparseSpMatDescr_t *descr, hipsparseFormat_t format, int64_t rows, int64_t cols,
                                int64_t nnz, const void *offsets, const void *indices, const void *values,
                                hipsparseIndexType_t offset_type, hipsparseIndexType_t index_type,
                                hipsparseIndexBase_t base, hipDataType type) {
  if (!descr || rows < 0 || cols < 0 || nnz < 0) return kInvalid;
  if (offset_type == HIPSPARSE_INDEX_16U || index_type == HIPSPARSE_INDEX_16U || !valid_type(type))
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  *descr = new SpMat{format,
                     rows,
                     cols,
                     nnz,
                     const_cast<void *>(offsets),
                     const_cast<void *>(indices),
                     const_cast<void *>(values),
                     offset_type,
                     index_type,
                     base,
                     type};
  return kSuccess;
}

template <class T>
hipsparseStatus_t csrmv(hipsparseHandle_t h, hipsparseOperation_t op, int m, int n, int nnz, const void *alpha,
                        const hipsparseMatDescr_t descr, const void *values, const int *row_ptr, const int *col_ind,
                        const void *x, const void *beta, void *y) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || nnz < 0 || !descr) return kInvalid;
  if (m == 0 || n == 0) return kSuccess;
  if (!alpha || !beta || !row_ptr || !x || !y || (nnz > 0 && (!values || !col_ind))) return kInvalid;
  SpMat a = classic_csr(m, n, nnz, descr, values, row_ptr, col_ind, data_type<T>());
  Scalar sa(handle, alpha, sizeof(T)), sb(handle, beta, sizeof(T));
  return enqueue(handle, [=] {
    spmv<T>(a, op, sa.get<T>(), static_cast<const T *>(x), sb.get<T>(), static_cast<T *>(y));
  });
}

template <class T>
hipsparseStatus_t csrmm(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b, int m, int n, int k,
                        int nnz, const void *alpha, const hipsparseMatDescr_t descr, const void *values,
                        const int *row_ptr, const int *col_ind, const void *B, int ldb, const void *beta, void *C,
                        int ldc) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || k < 0 || nnz < 0 || !descr) return kInvalid;
  if (m == 0 || n == 0 || k == 0) return kSuccess;
  if (!alpha || !beta || !row_ptr || !B || !C || (nnz > 0 && (!values || !col_ind))) return kInvalid;
  // A is m x k; op(A) is m x k or k x m, and C has op(A)'s rows.
  SpMat a = classic_csr(m, k, nnz, descr, values, row_ptr, col_ind, data_type<T>());
  int64_t c_rows = op_a == HIPSPARSE_OPERATION_NON_TRANSPOSE ? m : k;
  int64_t b_rows = op_a == HIPSPARSE_OPERATION_NON_TRANSPOSE ? k : m;
  bool b_transposed = op_b != HIPSPARSE_OPERATION_NON_TRANSPOSE;
  DnMat b{b_transposed ? n : b_rows, b_transposed ? b_rows : n, ldb, const_cast<void *>(B), data_type<T>(),
          HIPSPARSE_ORDER_COL};
  DnMat c{c_rows, n, ldc, C, data_type<T>(), HIPSPARSE_ORDER_COL};
  Scalar sa(handle, alpha, sizeof(T)), sb(handle, beta, sizeof(T));
  return enqueue(handle, [=] { spmm<T>(a, op_a, b, op_b, sa.get<T>(), sb.get<T>(), c); });
}

template <class T> bool nonzero(T v) { return v != T(0); }

template <class T>
hipsparseStatus_t nnz(hipsparseHandle_t h, hipsparseDirection_t dir, int m, int n, const hipsparseMatDescr_t descr,
                      const void *A, int lda, int *per_vector, int *total) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || lda < std::max(1, m) || !descr || !per_vector || !total) return kInvalid;
  hipsparseStatus_t status = enqueue(handle, [=] {
    const T *a = static_cast<const T *>(A);
    int count = 0, outer = dir == HIPSPARSE_DIRECTION_ROW ? m : n;
    for (int o = 0; o < outer; o++) {
      int here = 0;
      for (int i = 0; i < (dir == HIPSPARSE_DIRECTION_ROW ? n : m); i++)
        here += dir == HIPSPARSE_DIRECTION_ROW ? nonzero(a[o + size_t(i) * lda]) : nonzero(a[i + size_t(o) * lda]);
      per_vector[o] = here;
      count += here;
    }
    *total = count;
  });
  return status == kSuccess && handle->pointer_mode == HIPSPARSE_POINTER_MODE_HOST ? wait(handle) : status;
}

template <class T>
hipsparseStatus_t dense2csr(hipsparseHandle_t h, int m, int n, const hipsparseMatDescr_t descr, const void *A, int lda,
                            const int *, void *values, int *row_ptr, int *col_ind) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || lda < std::max(1, m) || !descr || !row_ptr) return kInvalid;
  int base = static_cast<const MatDescr *>(descr)->base;
  return enqueue(handle, [=] {
    const T *a = static_cast<const T *>(A);
    T *v = static_cast<T *>(values);
    int k = 0;
    for (int i = 0; i < m; i++) {
      row_ptr[i] = k + base;
      for (int j = 0; j < n; j++)
        if (nonzero(a[i + size_t(j) * lda])) {
          v[k] = a[i + size_t(j) * lda];
          col_ind[k++] = j + base;
        }
    }
    row_ptr[m] = k + base;
  });
}

template <class T>
hipsparseStatus_t csr2dense(hipsparseHandle_t h, int m, int n, const hipsparseMatDescr_t descr, const void *values,
                            const int *row_ptr, const int *col_ind, void *A, int lda) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || lda < std::max(1, m) || !descr || !row_ptr || !A) return kInvalid;
  SpMat a = classic_csr(m, n, 0, descr, values, row_ptr, col_ind, data_type<T>());
  return enqueue(handle, [=] {
    DnMat d{m, n, lda, A, data_type<T>(), HIPSPARSE_ORDER_COL};
    for (int j = 0; j < n; j++)
      for (int i = 0; i < m; i++) at<T>(d, i, j) = T(0);
    each_nonzero<T>(a, [&](int64_t r, int64_t c, T v) { at<T>(d, r, c) = v; });
  });
}

}  // namespace

extern "C" {

// ---- handles and matrix descriptors ----

hipsparseStatus_t hipsparseCreate(hipsparseHandle_t *handle) {
  if (!handle) return kInvalid;
  *handle = new Handle;
  return kSuccess;
}

hipsparseStatus_t hipsparseDestroy(hipsparseHandle_t handle) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  delete handle_of(handle);
  return kSuccess;
}

hipsparseStatus_t hipsparseGetVersion(hipsparseHandle_t handle, int *version) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!version) return kInvalid;
  *version = hipsparseVersionMajor * 100000 + hipsparseVersionMinor * 100 + hipsparseVersionPatch;
  return kSuccess;
}

hipsparseStatus_t hipsparseGetGitRevision(hipsparseHandle_t handle, char *revision) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!revision) return kInvalid;
  strcpy(revision, "gpusym");
  return kSuccess;
}

hipsparseStatus_t hipsparseSetStream(hipsparseHandle_t handle, hipStream_t stream) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  handle_of(handle)->stream = stream;
  return kSuccess;
}

hipsparseStatus_t hipsparseGetStream(hipsparseHandle_t handle, hipStream_t *stream) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!stream) return kInvalid;
  *stream = handle_of(handle)->stream;
  return kSuccess;
}

hipsparseStatus_t hipsparseSetPointerMode(hipsparseHandle_t handle, hipsparsePointerMode_t mode) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  handle_of(handle)->pointer_mode = mode;
  return kSuccess;
}

hipsparseStatus_t hipsparseGetPointerMode(hipsparseHandle_t handle, hipsparsePointerMode_t *mode) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!mode) return kInvalid;
  *mode = handle_of(handle)->pointer_mode;
  return kSuccess;
}

hipsparseStatus_t hipsparseCreateMatDescr(hipsparseMatDescr_t *descr) {
  if (!descr) return kInvalid;
  *descr = new MatDescr;
  return kSuccess;
}

hipsparseStatus_t hipsparseDestroyMatDescr(hipsparseMatDescr_t descr) {
  delete static_cast<MatDescr *>(descr);
  return kSuccess;
}

#define GPUSYM_DESCR_FIELD(Name, Type, field)                                                  \
  hipsparseStatus_t hipsparseSetMat##Name(hipsparseMatDescr_t descr, Type value) {             \
    if (!descr) return kInvalid;                                                               \
    static_cast<MatDescr *>(descr)->field = value;                                             \
    return kSuccess;                                                                           \
  }                                                                                            \
  Type hipsparseGetMat##Name(const hipsparseMatDescr_t descr) {                                \
    return descr ? static_cast<const MatDescr *>(descr)->field : Type(0);                      \
  }
GPUSYM_DESCR_FIELD(Type, hipsparseMatrixType_t, type)
GPUSYM_DESCR_FIELD(FillMode, hipsparseFillMode_t, fill)
GPUSYM_DESCR_FIELD(DiagType, hipsparseDiagType_t, diag)
GPUSYM_DESCR_FIELD(IndexBase, hipsparseIndexBase_t, base)

const char *hipsparseGetErrorName(hipsparseStatus_t status) {
  switch (status) {
    case HIPSPARSE_STATUS_SUCCESS: return "HIPSPARSE_STATUS_SUCCESS";
    case HIPSPARSE_STATUS_NOT_INITIALIZED: return "HIPSPARSE_STATUS_NOT_INITIALIZED";
    case HIPSPARSE_STATUS_ALLOC_FAILED: return "HIPSPARSE_STATUS_ALLOC_FAILED";
    case HIPSPARSE_STATUS_INVALID_VALUE: return "HIPSPARSE_STATUS_INVALID_VALUE";
    case HIPSPARSE_STATUS_ARCH_MISMATCH: return "HIPSPARSE_STATUS_ARCH_MISMATCH";
    case HIPSPARSE_STATUS_MAPPING_ERROR: return "HIPSPARSE_STATUS_MAPPING_ERROR";
    case HIPSPARSE_STATUS_EXECUTION_FAILED: return "HIPSPARSE_STATUS_EXECUTION_FAILED";
    case HIPSPARSE_STATUS_INTERNAL_ERROR: return "HIPSPARSE_STATUS_INTERNAL_ERROR";
    case HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case HIPSPARSE_STATUS_ZERO_PIVOT: return "HIPSPARSE_STATUS_ZERO_PIVOT";
    case HIPSPARSE_STATUS_NOT_SUPPORTED: return "HIPSPARSE_STATUS_NOT_SUPPORTED";
    case HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES";
  }
  return "HIPSPARSE_STATUS_UNKNOWN";
}

const char *hipsparseGetErrorString(hipsparseStatus_t status) { return hipsparseGetErrorName(status); }

// ---- generic API: descriptors ----

hipsparseStatus_t hipsparseCreateCsr(hipsparseSpMatDescr_t *descr, int64_t rows, int64_t cols, int64_t nnz,
                                     void *offsets, void *columns, void *values, hipsparseIndexType_t offset_type,
                                     hipsparseIndexType_t index_type, hipsparseIndexBase_t base, hipDataType type) {
  return create_sparse(descr, HIPSPARSE_FORMAT_CSR, rows, cols, nnz, offsets, columns, values, offset_type, index_type,
                       base, type);
}

hipsparseStatus_t hipsparseCreateConstCsr(hipsparseConstSpMatDescr_t *descr, int64_t rows, int64_t cols, int64_t nnz,
                                          const void *offsets, const void *columns, const void *values,
                                          hipsparseIndexType_t offset_type, hipsparseIndexType_t index_type,
                                          hipsparseIndexBase_t base, hipDataType type) {
  return create_sparse(const_cast<hipsparseSpMatDescr_t *>(descr), HIPSPARSE_FORMAT_CSR, rows, cols, nnz, offsets,
                       columns, values, offset_type, index_type, base, type);
}

hipsparseStatus_t hipsparseCreateCsc(hipsparseSpMatDescr_t *descr, int64_t rows, int64_t cols, int64_t nnz,
                                     void *offsets, void *rows_indices, void *values, hipsparseIndexType_t offset_type,
                                     hipsparseIndexType_t index_type, hipsparseIndexBase_t base, hipDataType type) {
  return create_sparse(descr, HIPSPARSE_FORMAT_CSC, rows, cols, nnz, offsets, rows_indices, values, offset_type,
                       index_type, base, type);
}

hipsparseStatus_t hipsparseCreateConstCsc(hipsparseConstSpMatDescr_t *descr, int64_t rows, int64_t cols, int64_t nnz,
                                          const void *offsets, const void *row_indices, const void *values,
                                          hipsparseIndexType_t offset_type, hipsparseIndexType_t index_type,
                                          hipsparseIndexBase_t base, hipDataType type) {
  return create_sparse(const_cast<hipsparseSpMatDescr_t *>(descr), HIPSPARSE_FORMAT_CSC, rows, cols, nnz, offsets,
                       row_indices, values, offset_type, index_type, base, type);
}

hipsparseStatus_t hipsparseCreateCoo(hipsparseSpMatDescr_t *descr, int64_t rows, int64_t cols, int64_t nnz,
                                     void *row_indices, void *col_indices, void *values, hipsparseIndexType_t type_i,
                                     hipsparseIndexBase_t base, hipDataType type) {
  return create_sparse(descr, HIPSPARSE_FORMAT_COO, rows, cols, nnz, row_indices, col_indices, values, type_i, type_i,
                       base, type);
}

hipsparseStatus_t hipsparseCreateConstCoo(hipsparseConstSpMatDescr_t *descr, int64_t rows, int64_t cols, int64_t nnz,
                                          const void *row_indices, const void *col_indices, const void *values,
                                          hipsparseIndexType_t type_i, hipsparseIndexBase_t base, hipDataType type) {
  return create_sparse(const_cast<hipsparseSpMatDescr_t *>(descr), HIPSPARSE_FORMAT_COO, rows, cols, nnz, row_indices,
                       col_indices, values, type_i, type_i, base, type);
}

hipsparseStatus_t hipsparseDestroySpMat(hipsparseConstSpMatDescr_t descr) {
  delete object<SpMat>(descr);
  return kSuccess;
}

hipsparseStatus_t hipsparseCsrGet(const hipsparseSpMatDescr_t descr, int64_t *rows, int64_t *cols, int64_t *nnz,
                                  void **offsets, void **columns, void **values, hipsparseIndexType_t *offset_type,
                                  hipsparseIndexType_t *index_type, hipsparseIndexBase_t *base, hipDataType *type) {
  if (!descr) return kInvalid;
  const SpMat &a = *object<SpMat>(descr);
  if (rows) *rows = a.rows;
  if (cols) *cols = a.cols;
  if (nnz) *nnz = a.nnz;
  if (offsets) *offsets = a.offsets;
  if (columns) *columns = a.indices;
  if (values) *values = a.values;
  if (offset_type) *offset_type = a.offset_type;
  if (index_type) *index_type = a.index_type;
  if (base) *base = a.base;
  if (type) *type = a.type;
  return kSuccess;
}

hipsparseStatus_t hipsparseCsrSetPointers(hipsparseSpMatDescr_t descr, void *offsets, void *columns, void *values) {
  if (!descr) return kInvalid;
  SpMat &a = *object<SpMat>(descr);
  a.offsets = offsets;
  a.indices = columns;
  a.values = values;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpMatGetSize(hipsparseConstSpMatDescr_t descr, int64_t *rows, int64_t *cols, int64_t *nnz) {
  if (!descr) return kInvalid;
  const SpMat &a = *object<SpMat>(descr);
  if (rows) *rows = a.rows;
  if (cols) *cols = a.cols;
  if (nnz) *nnz = a.nnz;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpMatGetFormat(hipsparseConstSpMatDescr_t descr, hipsparseFormat_t *format) {
  if (!descr || !format) return kInvalid;
  *format = object<SpMat>(descr)->format;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpMatGetIndexBase(hipsparseConstSpMatDescr_t descr, hipsparseIndexBase_t *base) {
  if (!descr || !base) return kInvalid;
  *base = object<SpMat>(descr)->base;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpMatGetValues(hipsparseSpMatDescr_t descr, void **values) {
  if (!descr || !values) return kInvalid;
  *values = object<SpMat>(descr)->values;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpMatSetValues(hipsparseSpMatDescr_t descr, void *values) {
  if (!descr) return kInvalid;
  object<SpMat>(descr)->values = values;
  return kSuccess;
}

// The fill mode and diagonal type the triangular solves read, each set and
// got as its enumeration's bytes.
hipsparseStatus_t hipsparseSpMatSetAttribute(hipsparseSpMatDescr_t descr, hipsparseSpMatAttribute_t attribute,
                                             const void *data, size_t size) {
  if (!descr || !data) return kInvalid;
  SpMat &a = *object<SpMat>(descr);
  if (attribute == HIPSPARSE_SPMAT_FILL_MODE && size == sizeof(hipsparseFillMode_t)) {
    hipsparseFillMode_t fill;
    memcpy(&fill, data, size);
    if (fill != HIPSPARSE_FILL_MODE_LOWER && fill != HIPSPARSE_FILL_MODE_UPPER) return kInvalid;
    a.fill = fill;
    return kSuccess;
  }
  if (attribute == HIPSPARSE_SPMAT_DIAG_TYPE && size == sizeof(hipsparseDiagType_t)) {
    hipsparseDiagType_t diag;
    memcpy(&diag, data, size);
    if (diag != HIPSPARSE_DIAG_TYPE_NON_UNIT && diag != HIPSPARSE_DIAG_TYPE_UNIT) return kInvalid;
    a.diag = diag;
    return kSuccess;
  }
  return kInvalid;
}

hipsparseStatus_t hipsparseSpMatGetAttribute(hipsparseConstSpMatDescr_t descr, hipsparseSpMatAttribute_t attribute,
                                             void *data, size_t size) {
  if (!descr || !data) return kInvalid;
  const SpMat &a = *object<SpMat>(descr);
  if (attribute == HIPSPARSE_SPMAT_FILL_MODE && size == sizeof(a.fill)) {
    memcpy(data, &a.fill, size);
    return kSuccess;
  }
  if (attribute == HIPSPARSE_SPMAT_DIAG_TYPE && size == sizeof(a.diag)) {
    memcpy(data, &a.diag, size);
    return kSuccess;
  }
  return kInvalid;
}

// Strided batches: only SDDMM computes with more than one matrix.
hipsparseStatus_t hipsparseCsrSetStridedBatch(hipsparseSpMatDescr_t descr, int count, int64_t offsets_stride,
                                              int64_t values_stride) {
  if (!descr || count < 1 || offsets_stride < 0 || values_stride < 0) return kInvalid;
  SpMat &a = *object<SpMat>(descr);
  if (a.format != HIPSPARSE_FORMAT_CSR) return kInvalid;
  a.batch_count = count;
  a.offsets_stride = offsets_stride;
  a.values_stride = values_stride;
  return kSuccess;
}

hipsparseStatus_t hipsparseCooSetStridedBatch(hipsparseSpMatDescr_t descr, int count, int64_t stride) {
  if (!descr || count < 1 || stride < 0) return kInvalid;
  SpMat &a = *object<SpMat>(descr);
  if (a.format != HIPSPARSE_FORMAT_COO) return kInvalid;
  a.batch_count = count;
  a.offsets_stride = a.values_stride = stride;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpMatGetStridedBatch(hipsparseConstSpMatDescr_t descr, int *count) {
  if (!descr || !count) return kInvalid;
  *count = object<SpMat>(descr)->batch_count;
  return kSuccess;
}

hipsparseStatus_t hipsparseCreateDnVec(hipsparseDnVecDescr_t *descr, int64_t size, void *values, hipDataType type) {
  if (!descr || size < 0) return kInvalid;
  if (!valid_type(type)) return HIPSPARSE_STATUS_NOT_SUPPORTED;
  *descr = new DnVec{size, values, type};
  return kSuccess;
}

hipsparseStatus_t hipsparseCreateConstDnVec(hipsparseConstDnVecDescr_t *descr, int64_t size, const void *values,
                                            hipDataType type) {
  return hipsparseCreateDnVec(const_cast<hipsparseDnVecDescr_t *>(descr), size, const_cast<void *>(values), type);
}

hipsparseStatus_t hipsparseDestroyDnVec(hipsparseConstDnVecDescr_t descr) {
  delete object<DnVec>(descr);
  return kSuccess;
}

hipsparseStatus_t hipsparseDnVecGet(const hipsparseDnVecDescr_t descr, int64_t *size, void **values,
                                    hipDataType *type) {
  if (!descr) return kInvalid;
  const DnVec &v = *object<DnVec>(descr);
  if (size) *size = v.size;
  if (values) *values = v.values;
  if (type) *type = v.type;
  return kSuccess;
}

hipsparseStatus_t hipsparseDnVecGetValues(const hipsparseDnVecDescr_t descr, void **values) {
  if (!descr || !values) return kInvalid;
  *values = object<DnVec>(descr)->values;
  return kSuccess;
}

hipsparseStatus_t hipsparseDnVecSetValues(hipsparseDnVecDescr_t descr, void *values) {
  if (!descr) return kInvalid;
  object<DnVec>(descr)->values = values;
  return kSuccess;
}

hipsparseStatus_t hipsparseCreateDnMat(hipsparseDnMatDescr_t *descr, int64_t rows, int64_t cols, int64_t ld,
                                       void *values, hipDataType type, hipsparseOrder_t order) {
  if (!descr || rows < 0 || cols < 0) return kInvalid;
  if (ld < std::max<int64_t>(1, order == HIPSPARSE_ORDER_ROW ? cols : rows)) return kInvalid;
  if (!valid_type(type)) return HIPSPARSE_STATUS_NOT_SUPPORTED;
  *descr = new DnMat{rows, cols, ld, values, type, order};
  return kSuccess;
}

hipsparseStatus_t hipsparseCreateConstDnMat(hipsparseConstDnMatDescr_t *descr, int64_t rows, int64_t cols, int64_t ld,
                                            const void *values, hipDataType type, hipsparseOrder_t order) {
  return hipsparseCreateDnMat(const_cast<hipsparseDnMatDescr_t *>(descr), rows, cols, ld, const_cast<void *>(values),
                              type, order);
}

hipsparseStatus_t hipsparseDestroyDnMat(hipsparseConstDnMatDescr_t descr) {
  delete object<DnMat>(descr);
  return kSuccess;
}

hipsparseStatus_t hipsparseDnMatGet(const hipsparseDnMatDescr_t descr, int64_t *rows, int64_t *cols, int64_t *ld,
                                    void **values, hipDataType *type, hipsparseOrder_t *order) {
  if (!descr) return kInvalid;
  const DnMat &m = *object<DnMat>(descr);
  if (rows) *rows = m.rows;
  if (cols) *cols = m.cols;
  if (ld) *ld = m.ld;
  if (values) *values = m.values;
  if (type) *type = m.type;
  if (order) *order = m.order;
  return kSuccess;
}

hipsparseStatus_t hipsparseDnMatGetValues(const hipsparseDnMatDescr_t descr, void **values) {
  if (!descr || !values) return kInvalid;
  *values = object<DnMat>(descr)->values;
  return kSuccess;
}

hipsparseStatus_t hipsparseDnMatSetValues(hipsparseDnMatDescr_t descr, void *values) {
  if (!descr) return kInvalid;
  object<DnMat>(descr)->values = values;
  return kSuccess;
}

hipsparseStatus_t hipsparseDnMatSetStridedBatch(hipsparseDnMatDescr_t descr, int count, int64_t stride) {
  if (!descr || count < 1 || stride < 0) return kInvalid;
  DnMat &m = *object<DnMat>(descr);
  m.batch_count = count;
  m.batch_stride = stride;
  return kSuccess;
}

hipsparseStatus_t hipsparseDnMatGetStridedBatch(hipsparseConstDnMatDescr_t descr, int *count, int64_t *stride) {
  if (!descr || !count || !stride) return kInvalid;
  const DnMat &m = *object<DnMat>(descr);
  *count = m.batch_count;
  *stride = m.batch_stride;
  return kSuccess;
}

// ---- generic API: products and conversions ----

hipsparseStatus_t hipsparseSpMV_bufferSize(hipsparseHandle_t handle, hipsparseOperation_t, const void *,
                                           hipsparseConstSpMatDescr_t a, hipsparseConstDnVecDescr_t x, const void *,
                                           const hipsparseDnVecDescr_t y, hipDataType, hipsparseSpMVAlg_t,
                                           size_t *size) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !x || !y || !size) return kInvalid;
  *size = 0;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpMV(hipsparseHandle_t h, hipsparseOperation_t op, const void *alpha,
                                hipsparseConstSpMatDescr_t a, hipsparseConstDnVecDescr_t x, const void *beta,
                                const hipsparseDnVecDescr_t y, hipDataType compute, hipsparseSpMVAlg_t, void *) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !x || !y || !alpha || !beta) return kInvalid;
  const SpMat &A = *object<SpMat>(a);
  const DnVec &X = *object<DnVec>(x), &Y = *object<DnVec>(y);
  if (A.type != compute || X.type != compute || Y.type != compute || A.format == HIPSPARSE_FORMAT_COO_AOS ||
      A.format == HIPSPARSE_FORMAT_BLOCKED_ELL || A.batch_count > 1) {
    report_not_supported("hipsparseSpMV with these types, this format or a batch");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  bool plain = op == HIPSPARSE_OPERATION_NON_TRANSPOSE;
  if (X.size != (plain ? A.cols : A.rows) || Y.size != (plain ? A.rows : A.cols)) return kInvalid;
  Scalar sa(handle, alpha, value_size(compute)), sb(handle, beta, value_size(compute));
  SpMat matrix = A;
  void *xv = X.values, *yv = Y.values;
  return enqueue(handle, [=] {
    with_type(compute, [&](auto zero) {
      using T = decltype(zero);
      spmv<T>(matrix, op, sa.get<T>(), static_cast<const T *>(xv), sb.get<T>(), static_cast<T *>(yv));
    });
  });
}

hipsparseStatus_t hipsparseSpMM_bufferSize(hipsparseHandle_t handle, hipsparseOperation_t, hipsparseOperation_t,
                                           const void *, hipsparseConstSpMatDescr_t a, hipsparseConstDnMatDescr_t b,
                                           const void *, const hipsparseDnMatDescr_t c, hipDataType, hipsparseSpMMAlg_t,
                                           size_t *size) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || !c || !size) return kInvalid;
  *size = 0;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpMM_preprocess(hipsparseHandle_t handle, hipsparseOperation_t, hipsparseOperation_t,
                                           const void *, hipsparseConstSpMatDescr_t a, hipsparseConstDnMatDescr_t b,
                                           const void *, const hipsparseDnMatDescr_t c, hipDataType, hipsparseSpMMAlg_t,
                                           void *) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  return a && b && c ? kSuccess : kInvalid;
}

hipsparseStatus_t hipsparseSpMM(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b,
                                const void *alpha, hipsparseConstSpMatDescr_t a, hipsparseConstDnMatDescr_t b,
                                const void *beta, const hipsparseDnMatDescr_t c, hipDataType compute,
                                hipsparseSpMMAlg_t, void *) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || !c || !alpha || !beta) return kInvalid;
  const SpMat &A = *object<SpMat>(a);
  const DnMat &B = *object<DnMat>(b), &Cm = *object<DnMat>(c);
  if (A.type != compute || B.type != compute || Cm.type != compute || A.format == HIPSPARSE_FORMAT_COO_AOS ||
      A.format == HIPSPARSE_FORMAT_BLOCKED_ELL || A.batch_count > 1 || B.batch_count > 1 || Cm.batch_count > 1) {
    report_not_supported("hipsparseSpMM with these types, this format or batches");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  bool plain_a = op_a == HIPSPARSE_OPERATION_NON_TRANSPOSE, plain_b = op_b == HIPSPARSE_OPERATION_NON_TRANSPOSE;
  int64_t k = plain_a ? A.cols : A.rows;
  if (Cm.rows != (plain_a ? A.rows : A.cols) || (plain_b ? B.rows : B.cols) != k ||
      (plain_b ? B.cols : B.rows) != Cm.cols)
    return kInvalid;
  Scalar sa(handle, alpha, value_size(compute)), sb(handle, beta, value_size(compute));
  SpMat matrix = A;
  DnMat bm = B, cm = Cm;
  return enqueue(handle, [=] {
    with_type(compute, [&](auto zero) {
      using T = decltype(zero);
      spmm<T>(matrix, op_a, bm, op_b, sa.get<T>(), sb.get<T>(), cm);
    });
  });
}

hipsparseStatus_t hipsparseSparseToDense_bufferSize(hipsparseHandle_t handle, hipsparseConstSpMatDescr_t a,
                                                    hipsparseDnMatDescr_t b, hipsparseSparseToDenseAlg_t,
                                                    size_t *size) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || !size) return kInvalid;
  *size = 0;
  return kSuccess;
}

hipsparseStatus_t hipsparseSparseToDense(hipsparseHandle_t h, hipsparseConstSpMatDescr_t a, hipsparseDnMatDescr_t b,
                                         hipsparseSparseToDenseAlg_t, void *) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b) return kInvalid;
  SpMat A = *object<SpMat>(a);
  DnMat B = *object<DnMat>(b);
  if (A.type != B.type || A.rows != B.rows || A.cols != B.cols) return kInvalid;
  return enqueue(handle, [=] {
    with_type(A.type, [&](auto zero) {
      using T = decltype(zero);
      for (int64_t j = 0; j < B.cols; j++)
        for (int64_t i = 0; i < B.rows; i++) at<T>(B, i, j) = T(0);
      each_nonzero<T>(A, [&](int64_t r, int64_t c, T v) { at<T>(B, r, c) = v; });
    });
  });
}

hipsparseStatus_t hipsparseDenseToSparse_bufferSize(hipsparseHandle_t handle, hipsparseConstDnMatDescr_t a,
                                                    hipsparseSpMatDescr_t b, hipsparseDenseToSparseAlg_t,
                                                    size_t *size) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || !size) return kInvalid;
  *size = 0;
  return kSuccess;
}

// Counts the nonzeros of each row into the CSR matrix's offsets and sets its
// nnz, which the caller reads back with hipsparseSpMatGetSize: the call
// waits for the count.
hipsparseStatus_t hipsparseDenseToSparse_analysis(hipsparseHandle_t h, hipsparseConstDnMatDescr_t a,
                                                  hipsparseSpMatDescr_t b, hipsparseDenseToSparseAlg_t, void *) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b) return kInvalid;
  DnMat A = *object<DnMat>(a);
  SpMat *B = object<SpMat>(b);
  if (B->format != HIPSPARSE_FORMAT_CSR) {
    report_not_supported("hipsparseDenseToSparse_analysis to a format other than CSR");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  if (A.type != B->type || A.rows != B->rows || A.cols != B->cols || !B->offsets) return kInvalid;
  hipsparseStatus_t status = enqueue(handle, [=] {
    with_type(A.type, [&](auto zero) {
      using T = decltype(zero);
      int64_t count = 0;
      for (int64_t i = 0; i <= A.rows; i++) {
        if (B->offset_type == HIPSPARSE_INDEX_64I)
          static_cast<int64_t *>(B->offsets)[i] = count + B->base;
        else
          static_cast<int32_t *>(B->offsets)[i] = int32_t(count + B->base);
        if (i < A.rows)
          for (int64_t j = 0; j < A.cols; j++) count += nonzero(at<T>(A, i, j));
      }
      B->nnz = count;
    });
  });
  return status == kSuccess ? wait(handle) : status;
}

hipsparseStatus_t hipsparseDenseToSparse_convert(hipsparseHandle_t h, hipsparseConstDnMatDescr_t a,
                                                 hipsparseSpMatDescr_t b, hipsparseDenseToSparseAlg_t, void *) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b) return kInvalid;
  DnMat A = *object<DnMat>(a);
  SpMat B = *object<SpMat>(b);
  if (B.format != HIPSPARSE_FORMAT_CSR) {
    report_not_supported("hipsparseDenseToSparse_convert to a format other than CSR");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  if (A.type != B.type || A.rows != B.rows || A.cols != B.cols) return kInvalid;
  if (!B.offsets || (B.nnz > 0 && (!B.indices || !B.values))) return kInvalid;
  return enqueue(handle, [=] {
    with_type(A.type, [&](auto zero) {
      using T = decltype(zero);
      int64_t k = 0;
      for (int64_t i = 0; i < A.rows; i++)
        for (int64_t j = 0; j < A.cols; j++) {
          T v = at<T>(A, i, j);
          if (!nonzero(v)) continue;
          static_cast<T *>(B.values)[k] = v;
          if (B.index_type == HIPSPARSE_INDEX_64I)
            static_cast<int64_t *>(B.indices)[k] = j + B.base;
          else
            static_cast<int32_t *>(B.indices)[k] = int32_t(j + B.base);
          k++;
        }
    });
  });
}

// ---- classic API ----

#define CSRMV(name, T, V)                                                                                      \
  hipsparseStatus_t name(hipsparseHandle_t h, hipsparseOperation_t op, int m, int n, int nnz, const T *alpha,  \
                         const hipsparseMatDescr_t descr, const T *values, const int *row_ptr, const int *col_ind, \
                         const T *x, const T *beta, T *y) {                                                    \
    return csrmv<V>(h, op, m, n, nnz, alpha, descr, values, row_ptr, col_ind, x, beta, y);                     \
  }
GPUSYM_SDCZ(CSRMV, csrmv)

#define CSRMM(name, T, V)                                                                                       \
  hipsparseStatus_t name(hipsparseHandle_t h, hipsparseOperation_t op, int m, int n, int k, int nnz,             \
                         const T *alpha, const hipsparseMatDescr_t descr, const T *values, const int *row_ptr,  \
                         const int *col_ind, const T *B, int ldb, const T *beta, T *C, int ldc) {               \
    return csrmm<V>(h, op, HIPSPARSE_OPERATION_NON_TRANSPOSE, m, n, k, nnz, alpha, descr, values, row_ptr,      \
                    col_ind, B, ldb, beta, C, ldc);                                                             \
  }
GPUSYM_SDCZ(CSRMM, csrmm)

#define CSRMM2(name, T, V)                                                                                     \
  hipsparseStatus_t name(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b, int m, int n, \
                         int k, int nnz, const T *alpha, const hipsparseMatDescr_t descr, const T *values,      \
                         const int *row_ptr, const int *col_ind, const T *B, int ldb, const T *beta, T *C,      \
                         int ldc) {                                                                            \
    return csrmm<V>(h, op_a, op_b, m, n, k, nnz, alpha, descr, values, row_ptr, col_ind, B, ldb, beta, C, ldc); \
  }
GPUSYM_SDCZ(CSRMM2, csrmm2)

#define NNZ(name, T, V)                                                                                       \
  hipsparseStatus_t name(hipsparseHandle_t h, hipsparseDirection_t dir, int m, int n,                           \
                         const hipsparseMatDescr_t descr, const T *A, int lda, int *per_vector, int *total) {   \
    return nnz<V>(h, dir, m, n, descr, A, lda, per_vector, total);                                            \
  }
GPUSYM_SDCZ(NNZ, nnz)

#define DENSE2CSR(name, T, V)                                                                                  \
  hipsparseStatus_t name(hipsparseHandle_t h, int m, int n, const hipsparseMatDescr_t descr, const T *A, int lda, \
                         const int *per_row, T *values, int *row_ptr, int *col_ind) {                          \
    return dense2csr<V>(h, m, n, descr, A, lda, per_row, values, row_ptr, col_ind);                            \
  }
GPUSYM_SDCZ(DENSE2CSR, dense2csr)

#define CSR2DENSE(name, T, V)                                                                                  \
  hipsparseStatus_t name(hipsparseHandle_t h, int m, int n, const hipsparseMatDescr_t descr, const T *values,   \
                         const int *row_ptr, const int *col_ind, T *A, int lda) {                              \
    return csr2dense<V>(h, m, n, descr, values, row_ptr, col_ind, A, lda);                                     \
  }
GPUSYM_SDCZ(CSR2DENSE, csr2dense)

}  // extern "C"
