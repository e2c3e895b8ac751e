// gpusym's hipSPARSE: the generic API's triangular solves SpSV (a vector)
// and SpSM (a dense matrix of right-hand sides), and the classic csrilu02,
// the incomplete LU factorization without fill-in, computed on the CPU in
// the handle's stream order.  Values are float, double and their complex
// forms.
//
// A solve reads the triangle of A that hipsparseSpMatSetAttribute's fill
// mode names (lower by default), and its diagonal unless the diagonal type
// is unit; the other entries are ignored, and a missing diagonal entry is a
// zero, divided by as the GPU would.  The matrix's values are read at each
// solve, so a solve after they change (a new factorization) uses the new
// ones; the analysis only checks the arguments.
#include <hipsparse/hipsparse.h>

#include <algorithm>
#include <complex>
#include <memory>
#include <vector>

#include "hipsparse_internal.h"

using namespace gpusym_hipsparse;

// The analysis of an SpSV or SpSM: nothing a solve needs.
struct hipsparseSpSVDescr {};
struct hipsparseSpSMDescr {};

// Where csrilu02's analysis or factorization found its first zero pivot
// (index base included; -1: none), shared with the work still queued.
struct csrilu02Info {
  std::shared_ptr<int> pivot = std::make_shared<int>(-1);
};

namespace {

// The triangle of op(A) a solve reads, by row of op(A): each row's entries
// off the diagonal, with indices from zero, and the diagonal.
template <class T> struct Triangle {
  bool lower, unit;
  std::vector<int64_t> offsets, columns;
  std::vector<T> values, diagonal;
};

template <class T> Triangle<T> triangle_of(const SpMat &a, hipsparseOperation_t op) {
  bool transposed = op != HIPSPARSE_OPERATION_NON_TRANSPOSE, a_lower = a.fill == HIPSPARSE_FILL_MODE_LOWER;
  auto value = [&](T v) { return op == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? conjugate(v) : v; };
  auto in_triangle = [&](int64_t r, int64_t c) {
    return r >= 0 && r < a.rows && c >= 0 && c < a.rows && (a_lower ? c < r : c > r);
  };
  Triangle<T> t{a_lower != transposed, a.diag == HIPSPARSE_DIAG_TYPE_UNIT, std::vector<int64_t>(a.rows + 1, 0),
                {}, {}, std::vector<T>(a.rows, T(0))};
  each_nonzero<T>(a, [&](int64_t r, int64_t c, T v) {
    if (r == c && r >= 0 && r < a.rows)
      t.diagonal[r] += value(v);
    else if (in_triangle(r, c))
      t.offsets[(transposed ? c : r) + 1]++;
  });
  for (int64_t i = 0; i < a.rows; i++) t.offsets[i + 1] += t.offsets[i];
  t.columns.resize(t.offsets[a.rows]);
  t.values.resize(t.offsets[a.rows]);
  std::vector<int64_t> next(t.offsets.begin(), t.offsets.end() - 1);
  each_nonzero<T>(a, [&](int64_t r, int64_t c, T v) {
    if (r == c || !in_triangle(r, c)) return;
    if (transposed) std::swap(r, c);
    t.columns[next[r]] = c;
    t.values[next[r]++] = value(v);
  });
  return t;
}

// y = op(A)^-1 y, by substitution.
template <class T> void substitute(const Triangle<T> &t, T *y) {
  int64_t n = int64_t(t.diagonal.size());
  for (int64_t step = 0; step < n; step++) {
    int64_t i = t.lower ? step : n - 1 - step;
    T sum = y[i];
    for (int64_t k = t.offsets[i]; k < t.offsets[i + 1]; k++) sum -= t.values[k] * y[t.columns[k]];
    y[i] = t.unit ? sum : sum / t.diagonal[i];
  }
}

bool solvable_format(const SpMat &a) {
  return a.format == HIPSPARSE_FORMAT_CSR || a.format == HIPSPARSE_FORMAT_CSC || a.format == HIPSPARSE_FORMAT_COO;
}

// What SpSV's calls check: op(A) x = y with A square, one type throughout.
hipsparseStatus_t check_spsv(hipsparseHandle_t handle, hipsparseConstSpMatDescr_t a, hipsparseConstDnVecDescr_t x,
                             hipsparseConstDnVecDescr_t y, hipDataType compute, bool pointers) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !x || !y || !pointers) return kInvalid;
  const SpMat &A = *object<SpMat>(a);
  const DnVec &X = *object<DnVec>(x), &Y = *object<DnVec>(y);
  if (A.type != compute || X.type != compute || Y.type != compute || !solvable_format(A) || A.batch_count > 1) {
    report_not_supported("hipsparseSpSV with these types, this format or a batch");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  return A.rows != A.cols || X.size != A.rows || Y.size != A.rows ? kInvalid : kSuccess;
}

// What SpSM's calls check: op(A) C = op(B), A square, one type throughout.
hipsparseStatus_t check_spsm(hipsparseHandle_t handle, hipsparseOperation_t op_b, hipsparseConstSpMatDescr_t a,
                             hipsparseConstDnMatDescr_t b, hipsparseConstDnMatDescr_t c, hipDataType compute,
                             bool pointers) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || !c || !pointers) return kInvalid;
  const SpMat &A = *object<SpMat>(a);
  const DnMat &B = *object<DnMat>(b), &Cm = *object<DnMat>(c);
  if (A.type != compute || B.type != compute || Cm.type != compute || !solvable_format(A) || A.batch_count > 1 ||
      B.batch_count > 1 || Cm.batch_count > 1) {
    report_not_supported("hipsparseSpSM with these types, this format or batches");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  bool plain_b = op_b == HIPSPARSE_OPERATION_NON_TRANSPOSE;
  if (A.rows != A.cols || Cm.rows != A.rows || (plain_b ? B.rows : B.cols) != A.rows ||
      (plain_b ? B.cols : B.rows) != Cm.cols)
    return kInvalid;
  return kSuccess;
}

// The zero pivot of csrilu02's analysis: the first row with no diagonal entry.
int structural_pivot(int m, const int *row_ptr, const int *col_ind, int base) {
  for (int i = 0; i < m; i++) {
    bool found = false;
    for (int k = row_ptr[i] - base; k < row_ptr[i + 1] - base && !found; k++) found = col_ind[k] - base == i;
    if (!found) return i + base;
  }
  return -1;
}

// ILU(0) of the m x m CSR matrix in place: L (unit diagonal, not stored)
// below the diagonal, U on and above it, each on A's pattern; the columns
// of a row need not be sorted.  Returns the first zero pivot (-1: none).  A
// zero pivot is divided by, as the GPU would; a missing one leaves the
// entries under it undivided.
template <class T> int ilu0(int m, const int *row_ptr, const int *col_ind, T *v, int base) {
  std::vector<int> diagonal(m, -1), where(m, -1), lower;
  int pivot = -1;
  for (int i = 0; i < m; i++) {
    int begin = row_ptr[i] - base, end = row_ptr[i + 1] - base;
    lower.clear();
    for (int k = begin; k < end; k++) {
      int c = col_ind[k] - base;
      if (c < 0 || c >= m) continue;
      where[c] = k;
      if (c == i)
        diagonal[i] = k;
      else if (c < i)
        lower.push_back(k);
    }
    std::sort(lower.begin(), lower.end(), [&](int p, int q) { return col_ind[p] < col_ind[q]; });
    for (int k : lower) {  // row i -= l(i, j) row j of U, by increasing j
      int j = col_ind[k] - base;
      if (diagonal[j] < 0) continue;
      v[k] /= v[diagonal[j]];
      for (int q = row_ptr[j] - base; q < row_ptr[j + 1] - base; q++) {
        int c = col_ind[q] - base;
        if (c > j && c < m && where[c] >= 0) v[where[c]] -= v[k] * v[q];
      }
    }
    if (pivot < 0 && (diagonal[i] < 0 || v[diagonal[i]] == T(0))) pivot = i + base;
    for (int k = begin; k < end; k++)
      if (col_ind[k] - base >= 0 && col_ind[k] - base < m) where[col_ind[k] - base] = -1;
  }
  return pivot;
}

hipsparseStatus_t check_csrilu02(hipsparseHandle_t handle, int m, int nnz, const hipsparseMatDescr_t descr,
                                 const void *values, const int *row_ptr, const int *col_ind, csrilu02Info_t info) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (m < 0 || nnz < 0 || !descr || !info || (m > 0 && !row_ptr) || (nnz > 0 && (!values || !col_ind)))
    return kInvalid;
  return kSuccess;
}

template <class T>
hipsparseStatus_t csrilu02(hipsparseHandle_t h, int m, int nnz, const hipsparseMatDescr_t descr, void *values,
                           const int *row_ptr, const int *col_ind, csrilu02Info_t info) {
  hipsparseStatus_t status = check_csrilu02(h, m, nnz, descr, values, row_ptr, col_ind, info);
  if (status != kSuccess || m == 0) return status;
  int base = base_of(descr);
  std::shared_ptr<int> pivot = info->pivot;
  return enqueue(handle_of(h), [=] { *pivot = ilu0(m, row_ptr, col_ind, static_cast<T *>(values), base); });
}

}  // namespace

extern "C" {

// ---- SpSV: op(A) y = alpha x ----

hipsparseStatus_t hipsparseSpSV_createDescr(hipsparseSpSVDescr_t *descr) {
  if (!descr) return kInvalid;
  *descr = new hipsparseSpSVDescr;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpSV_destroyDescr(hipsparseSpSVDescr_t descr) {
  delete descr;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpSV_bufferSize(hipsparseHandle_t handle, hipsparseOperation_t, const void *alpha,
                                           hipsparseConstSpMatDescr_t a, hipsparseConstDnVecDescr_t x,
                                           const hipsparseDnVecDescr_t y, hipDataType compute, hipsparseSpSVAlg_t,
                                           hipsparseSpSVDescr_t descr, size_t *size) {
  hipsparseStatus_t status = check_spsv(handle, a, x, y, compute, alpha && descr && size);
  if (status == kSuccess) *size = 0;
  return status;
}

hipsparseStatus_t hipsparseSpSV_analysis(hipsparseHandle_t handle, hipsparseOperation_t, const void *alpha,
                                         hipsparseConstSpMatDescr_t a, hipsparseConstDnVecDescr_t x,
                                         const hipsparseDnVecDescr_t y, hipDataType compute, hipsparseSpSVAlg_t,
                                         hipsparseSpSVDescr_t descr, void *) {
  return check_spsv(handle, a, x, y, compute, alpha && descr);
}

hipsparseStatus_t hipsparseSpSV_solve(hipsparseHandle_t h, hipsparseOperation_t op, const void *alpha,
                                      hipsparseConstSpMatDescr_t a, hipsparseConstDnVecDescr_t x,
                                      const hipsparseDnVecDescr_t y, hipDataType compute, hipsparseSpSVAlg_t,
                                      hipsparseSpSVDescr_t descr) {
  hipsparseStatus_t status = check_spsv(h, a, x, y, compute, alpha && descr);
  if (status != kSuccess) return status;
  Handle *handle = handle_of(h);
  SpMat A = *object<SpMat>(a);
  void *xv = object<DnVec>(x)->values, *yv = object<DnVec>(y)->values;
  Scalar sa(handle, alpha, value_size(compute));
  return enqueue(handle, [=] {
    with_type(compute, [&](auto zero) {
      using T = decltype(zero);
      Triangle<T> t = triangle_of<T>(A, op);
      std::vector<T> solution(static_cast<const T *>(xv), static_cast<const T *>(xv) + A.rows);
      T scale = sa.get<T>();
      for (T &v : solution) v *= scale;
      substitute(t, solution.data());
      std::copy(solution.begin(), solution.end(), static_cast<T *>(yv));
    });
  });
}

// ---- SpSM: op(A) C = alpha op(B) ----

hipsparseStatus_t hipsparseSpSM_createDescr(hipsparseSpSMDescr_t *descr) {
  if (!descr) return kInvalid;
  *descr = new hipsparseSpSMDescr;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpSM_destroyDescr(hipsparseSpSMDescr_t descr) {
  delete descr;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpSM_bufferSize(hipsparseHandle_t handle, hipsparseOperation_t, hipsparseOperation_t op_b,
                                           const void *alpha, hipsparseConstSpMatDescr_t a,
                                           hipsparseConstDnMatDescr_t b, const hipsparseDnMatDescr_t c,
                                           hipDataType compute, hipsparseSpSMAlg_t, hipsparseSpSMDescr_t descr,
                                           size_t *size) {
  hipsparseStatus_t status = check_spsm(handle, op_b, a, b, c, compute, alpha && descr && size);
  if (status == kSuccess) *size = 0;
  return status;
}

hipsparseStatus_t hipsparseSpSM_analysis(hipsparseHandle_t handle, hipsparseOperation_t, hipsparseOperation_t op_b,
                                         const void *alpha, hipsparseConstSpMatDescr_t a, hipsparseConstDnMatDescr_t b,
                                         const hipsparseDnMatDescr_t c, hipDataType compute, hipsparseSpSMAlg_t,
                                         hipsparseSpSMDescr_t descr, void *) {
  return check_spsm(handle, op_b, a, b, c, compute, alpha && descr);
}

hipsparseStatus_t hipsparseSpSM_solve(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b,
                                      const void *alpha, hipsparseConstSpMatDescr_t a, hipsparseConstDnMatDescr_t b,
                                      const hipsparseDnMatDescr_t c, hipDataType compute, hipsparseSpSMAlg_t,
                                      hipsparseSpSMDescr_t descr, void *) {
  hipsparseStatus_t status = check_spsm(h, op_b, a, b, c, compute, alpha && descr);
  if (status != kSuccess) return status;
  Handle *handle = handle_of(h);
  SpMat A = *object<SpMat>(a);
  DnMat B = *object<DnMat>(b), Cm = *object<DnMat>(c);
  Scalar sa(handle, alpha, value_size(compute));
  return enqueue(handle, [=] {
    with_type(compute, [&](auto zero) {
      using T = decltype(zero);
      Triangle<T> t = triangle_of<T>(A, op_a);
      T scale = sa.get<T>();
      std::vector<T> column(A.rows);
      for (int64_t j = 0; j < Cm.cols; j++) {
        for (int64_t i = 0; i < A.rows; i++) {
          T v = op_b == HIPSPARSE_OPERATION_NON_TRANSPOSE ? at<T>(B, i, j) : at<T>(B, j, i);
          column[i] = scale * (op_b == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? conjugate(v) : v);
        }
        substitute(t, column.data());
        for (int64_t i = 0; i < A.rows; i++) at<T>(Cm, i, j) = column[i];
      }
    });
  });
}

// ---- csrilu02: incomplete LU without fill-in ----

hipsparseStatus_t hipsparseCreateCsrilu02Info(csrilu02Info_t *info) {
  if (!info) return kInvalid;
  *info = new csrilu02Info;
  return kSuccess;
}

hipsparseStatus_t hipsparseDestroyCsrilu02Info(csrilu02Info_t info) {
  delete info;
  return kSuccess;
}

// The zero pivot the last analysis or factorization found, into `position`
// (host or device memory, by pointer mode): HIPSPARSE_STATUS_ZERO_PIVOT and
// its row, or success and -1.  The call waits for that work.
hipsparseStatus_t hipsparseXcsrilu02_zeroPivot(hipsparseHandle_t h, csrilu02Info_t info, int *position) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!info || !position) return kInvalid;
  std::shared_ptr<int> pivot = info->pivot;
  hipsparseStatus_t status = enqueue(handle, [=] { *position = *pivot; });
  if (status == kSuccess) status = wait(handle);
  if (status != kSuccess) return status;
  return *pivot < 0 ? kSuccess : HIPSPARSE_STATUS_ZERO_PIVOT;
}

#define CSRILU02(name, T, V)                                                                                     \
  hipsparseStatus_t name##_bufferSize(hipsparseHandle_t h, int m, int nnz, const hipsparseMatDescr_t descr,       \
                                      T *values, const int *row_ptr, const int *col_ind, csrilu02Info_t info,     \
                                      int *size) {                                                               \
    hipsparseStatus_t status = check_csrilu02(h, m, nnz, descr, values, row_ptr, col_ind, info);                 \
    if (status == kSuccess && !size) status = kInvalid;                                                          \
    if (status == kSuccess) *size = 4;                                                                           \
    return status;                                                                                               \
  }                                                                                                              \
  hipsparseStatus_t name##_bufferSizeExt(hipsparseHandle_t h, int m, int nnz, const hipsparseMatDescr_t descr,    \
                                         T *values, const int *row_ptr, const int *col_ind, csrilu02Info_t info,  \
                                         size_t *size) {                                                         \
    hipsparseStatus_t status = check_csrilu02(h, m, nnz, descr, values, row_ptr, col_ind, info);                 \
    if (status == kSuccess && !size) status = kInvalid;                                                          \
    if (status == kSuccess) *size = 4;                                                                           \
    return status;                                                                                               \
  }                                                                                                              \
  hipsparseStatus_t name##_analysis(hipsparseHandle_t h, int m, int nnz, const hipsparseMatDescr_t descr,         \
                                    const T *values, const int *row_ptr, const int *col_ind, csrilu02Info_t info, \
                                    hipsparseSolvePolicy_t, void *) {                                            \
    hipsparseStatus_t status = check_csrilu02(h, m, nnz, descr, values, row_ptr, col_ind, info);                 \
    if (status != kSuccess) return status;                                                                       \
    int base = base_of(descr);                                                                                   \
    std::shared_ptr<int> pivot = info->pivot;                                                                    \
    return enqueue(handle_of(h), [=] { *pivot = structural_pivot(m, row_ptr, col_ind, base); });                 \
  }                                                                                                              \
  hipsparseStatus_t name(hipsparseHandle_t h, int m, int nnz, const hipsparseMatDescr_t descr, T *values,         \
                         const int *row_ptr, const int *col_ind, csrilu02Info_t info, hipsparseSolvePolicy_t,     \
                         void *) {                                                                               \
    return csrilu02<V>(h, m, nnz, descr, values, row_ptr, col_ind, info);                                        \
  }
GPUSYM_SDCZ(CSRILU02, csrilu02)

}  // extern "C"
