// gpusym's hipSPARSE: the classic API's reorderings of a CSR matrix
// (32-bit indices, base zero or one): hipsparseCsr2cscEx2 (the transpose's
// CSR, that is the matrix in CSC; row indices sorted in each column), and
// hipsparseXcsrsort (columns sorted in each row, a permutation composed
// with the same moves) with hipsparseCreateIdentityPermutation, computed on
// the CPU in the handle's stream order.  None needs a buffer: the size
// calls give 0.
#include <hipsparse/hipsparse.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

#include "hipsparse_internal.h"

using namespace gpusym_hipsparse;

namespace {

hipsparseStatus_t check_csr2csc(hipsparseHandle_t handle, int m, int n, int nnz, const void *csr_values,
                                const int *csr_offsets, const int *csr_columns, const void *csc_values,
                                const int *csc_offsets, const int *csc_rows, hipDataType type,
                                hipsparseAction_t action, hipsparseIndexBase_t base) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || nnz < 0 || (base != HIPSPARSE_INDEX_BASE_ZERO && base != HIPSPARSE_INDEX_BASE_ONE))
    return kInvalid;
  if (action != HIPSPARSE_ACTION_SYMBOLIC && action != HIPSPARSE_ACTION_NUMERIC) return kInvalid;
  if ((m > 0 && !csr_offsets) || (n > 0 && !csc_offsets) || (nnz > 0 && (!csr_columns || !csc_rows)))
    return kInvalid;
  if (action == HIPSPARSE_ACTION_NUMERIC && nnz > 0) {
    if (!csr_values || !csc_values) return kInvalid;
    if (!valid_type(type)) {
      report_not_supported("hipsparseCsr2cscEx2 of this value type");
      return HIPSPARSE_STATUS_NOT_SUPPORTED;
    }
  }
  return kSuccess;
}

}  // namespace

extern "C" {

hipsparseStatus_t hipsparseCsr2cscEx2_bufferSize(hipsparseHandle_t handle, int m, int n, int nnz,
                                                 const void *csr_values, const int *csr_offsets,
                                                 const int *csr_columns, void *csc_values, int *csc_offsets,
                                                 int *csc_rows, hipDataType type, hipsparseAction_t action,
                                                 hipsparseIndexBase_t base, hipsparseCsr2CscAlg_t, size_t *size) {
  hipsparseStatus_t status = check_csr2csc(handle, m, n, nnz, csr_values, csr_offsets, csr_columns, csc_values,
                                           csc_offsets, csc_rows, type, action, base);
  if (status == kSuccess && !size) status = kInvalid;
  if (status == kSuccess) *size = 0;
  return status;
}

// The m x n CSR matrix's CSC form: a counting sort of its entries by column,
// row by row, so that each column's rows come in order.  Values are moved
// as bytes (only with HIPSPARSE_ACTION_NUMERIC).
hipsparseStatus_t hipsparseCsr2cscEx2(hipsparseHandle_t h, int m, int n, int nnz, const void *csr_values,
                                      const int *csr_offsets, const int *csr_columns, void *csc_values,
                                      int *csc_offsets, int *csc_rows, hipDataType type, hipsparseAction_t action,
                                      hipsparseIndexBase_t base, hipsparseCsr2CscAlg_t, void *) {
  hipsparseStatus_t status = check_csr2csc(h, m, n, nnz, csr_values, csr_offsets, csr_columns, csc_values,
                                           csc_offsets, csc_rows, type, action, base);
  if (status != kSuccess || n == 0) return status;
  size_t size = action == HIPSPARSE_ACTION_NUMERIC ? value_size(type) : 0;
  return enqueue(handle_of(h), [=] {
    std::vector<int> next(n + 1, 0);
    for (int i = 0; i < m; i++)
      for (int k = csr_offsets[i] - base; k < csr_offsets[i + 1] - base; k++) next[csr_columns[k] - base + 1]++;
    for (int j = 0; j < n; j++) next[j + 1] += next[j];
    for (int j = 0; j <= n; j++) csc_offsets[j] = next[j] + base;
    for (int i = 0; i < m; i++)
      for (int k = csr_offsets[i] - base; k < csr_offsets[i + 1] - base; k++) {
        int at = next[csr_columns[k] - base]++;
        csc_rows[at] = i + base;
        if (size)
          memcpy(static_cast<char *>(csc_values) + size_t(at) * size,
                 static_cast<const char *>(csr_values) + size_t(k) * size, size);
      }
  });
}

// p = 0, 1, ..., n - 1.
hipsparseStatus_t hipsparseCreateIdentityPermutation(hipsparseHandle_t h, int n, int *p) {
  if (!h) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (n < 0 || (n > 0 && !p)) return kInvalid;
  if (n == 0) return kSuccess;
  return enqueue(handle_of(h), [=] { std::iota(p, p + n, 0); });
}

hipsparseStatus_t hipsparseXcsrsort_bufferSizeExt(hipsparseHandle_t h, int m, int n, int nnz, const int *offsets,
                                                  const int *columns, size_t *size) {
  if (!h) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || nnz < 0 || !size || (m > 0 && !offsets) || (nnz > 0 && !columns)) return kInvalid;
  *size = 0;
  return kSuccess;
}

// Sorts each row's columns, stably, moving P's entries as the columns move
// (P, when not null, becomes P composed with the sort: its values can then
// gather the values into the new order).
hipsparseStatus_t hipsparseXcsrsort(hipsparseHandle_t h, int m, int n, int nnz, const hipsparseMatDescr_t descr,
                                    const int *offsets, int *columns, int *P, void *) {
  if (!h) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || n < 0 || nnz < 0 || !descr || (m > 0 && !offsets) || (nnz > 0 && !columns)) return kInvalid;
  if (m == 0 || nnz == 0) return kSuccess;
  int base = base_of(descr);
  return enqueue(handle_of(h), [=] {
    std::vector<int> order, moved;
    for (int i = 0; i < m; i++) {
      int begin = offsets[i] - base, end = offsets[i + 1] - base;
      order.resize(end - begin);
      std::iota(order.begin(), order.end(), begin);
      std::sort(order.begin(), order.end(),
                [&](int p, int q) { return columns[p] < columns[q] || (columns[p] == columns[q] && p < q); });
      for (int *array : {columns, P}) {
        if (!array) continue;
        moved.clear();
        for (int k : order) moved.push_back(array[k]);
        std::copy(moved.begin(), moved.end(), array + begin);
      }
    }
  });
}

}  // extern "C"
