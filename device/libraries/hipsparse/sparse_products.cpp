// gpusym's hipSPARSE: the generic API's products with a sparse result,
// SpGEMM (C = alpha op(A) op(B) + beta C, all three sparse) and SDDMM
// (C = alpha (op(A) op(B)) at C's nonzeros + beta C, A and B dense, in
// strided batches), computed on the CPU in the handle's stream order.
// Values are float, double and their complex forms; indices 32 or 64 bits,
// based at zero or one.
//
// SpGEMM follows the stages of the API: hipsparseSpGEMM_workEstimation and
// hipsparseSpGEMM_compute give a buffer size when their buffer is null;
// compute, given its buffer, forms op(A) op(B) (every product of stored
// entries, cancelling or not; columns sorted in each row), keeps it in the
// descriptor and sets C's nnz, waiting for it so that
// hipsparseSpMatGetSize reads it at once; hipsparseSpGEMM_copy writes C's
// offsets, columns and values into the arrays hipsparseCsrSetPointers gave
// it, alpha times the product plus beta times the values already there (not
// read when beta is zero).
#include <hipsparse/hipsparse.h>

#include <algorithm>
#include <complex>
#include <cstring>
#include <memory>
#include <vector>

#include "hipsparse_internal.h"

using namespace gpusym_hipsparse;

namespace {

// The product op(A) op(B) of an SpGEMM: CSR with indices from zero, its
// values of the compute type.
struct Product {
  int64_t rows = -1, cols = 0;
  std::vector<int64_t> offsets, columns;
  std::vector<unsigned char> values;
};

}  // namespace

// An SpGEMM's product, shared with the work still queued (a program may
// destroy the descriptor right after hipsparseSpGEMM_copy).
struct hipsparseSpGEMMDescr {
  std::shared_ptr<Product> product = std::make_shared<Product>();
};

namespace {

// The size each SpGEMM stage asks for: not used, but not zero, since a null
// buffer is the request for a size.
constexpr size_t kStageBuffer = 256;

// op(A) by rows, indices from zero.
template <class T> struct Rows {
  std::vector<int64_t> offsets, columns;
  std::vector<T> values;
};

template <class T> Rows<T> rows_of(const SpMat &a, hipsparseOperation_t op) {
  bool transposed = op != HIPSPARSE_OPERATION_NON_TRANSPOSE;
  int64_t rows = transposed ? a.cols : a.rows;
  Rows<T> r{std::vector<int64_t>(rows + 1, 0), {}, {}};
  each_position(a, [&](int64_t, int64_t row, int64_t col) { r.offsets[(transposed ? col : row) + 1]++; });
  for (int64_t i = 0; i < rows; i++) r.offsets[i + 1] += r.offsets[i];
  r.columns.resize(r.offsets[rows]);
  r.values.resize(r.offsets[rows]);
  std::vector<int64_t> next(r.offsets.begin(), r.offsets.end() - 1);
  each_nonzero<T>(a, [&](int64_t row, int64_t col, T v) {
    if (transposed) std::swap(row, col);
    r.columns[next[row]] = col;
    r.values[next[row]++] = op == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE ? conjugate(v) : v;
  });
  return r;
}

// p = a b (a by rows, b by rows with `cols` columns), row by row with a
// dense accumulator.
template <class T> void multiply(const Rows<T> &a, const Rows<T> &b, int64_t cols, Product &p) {
  int64_t rows = int64_t(a.offsets.size()) - 1;
  std::vector<T> sum(cols), values;
  std::vector<int64_t> seen(cols, -1), here;
  p.rows = rows;
  p.cols = cols;
  p.offsets.assign(1, 0);
  p.columns.clear();
  for (int64_t i = 0; i < rows; i++) {
    here.clear();
    for (int64_t ka = a.offsets[i]; ka < a.offsets[i + 1]; ka++) {
      int64_t l = a.columns[ka];
      for (int64_t kb = b.offsets[l]; kb < b.offsets[l + 1]; kb++) {
        int64_t j = b.columns[kb];
        if (seen[j] != i) {
          seen[j] = i;
          sum[j] = T(0);
          here.push_back(j);
        }
        sum[j] += a.values[ka] * b.values[kb];
      }
    }
    std::sort(here.begin(), here.end());
    for (int64_t j : here) {
      p.columns.push_back(j);
      values.push_back(sum[j]);
    }
    p.offsets.push_back(int64_t(p.columns.size()));
  }
  p.values.resize(values.size() * sizeof(T));
  if (!values.empty()) memcpy(p.values.data(), values.data(), p.values.size());
}

// op(M) of a dense matrix: its element (r, c) is values[r * row_step +
// c * column_step], conjugated or not.
template <class T> struct Operand {
  const T *values;
  int64_t row_step, column_step;
  bool conjugated;
  Operand(const DnMat &m, hipsparseOperation_t op)
      : values(static_cast<const T *>(m.values)), conjugated(op == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE) {
    bool transposed = op != HIPSPARSE_OPERATION_NON_TRANSPOSE, row_order = m.order == HIPSPARSE_ORDER_ROW;
    row_step = transposed != row_order ? m.ld : 1;
    column_step = transposed != row_order ? 1 : m.ld;
  }
  T get(T v) const { return conjugated ? conjugate(v) : v; }
};

void store_index(void *array, hipsparseIndexType_t type, int64_t k, int64_t value) {
  if (type == HIPSPARSE_INDEX_64I)
    static_cast<int64_t *>(array)[k] = value;
  else
    static_cast<int32_t *>(array)[k] = int32_t(value);
}

// What every SpGEMM stage checks: C = op(A) op(B), all CSR (A and B CSC or
// COO too), one value type.
hipsparseStatus_t check_spgemm(hipsparseHandle_t handle, hipsparseOperation_t op_a, hipsparseOperation_t op_b,
                               hipsparseConstSpMatDescr_t a, hipsparseConstSpMatDescr_t b, hipsparseSpMatDescr_t c,
                               hipDataType compute, bool pointers) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || !c || !pointers) return kInvalid;
  const SpMat &A = *object<SpMat>(a), &B = *object<SpMat>(b), &Cm = *object<SpMat>(c);
  auto readable = [](const SpMat &m) {
    return m.format == HIPSPARSE_FORMAT_CSR || m.format == HIPSPARSE_FORMAT_CSC || m.format == HIPSPARSE_FORMAT_COO;
  };
  if (A.type != compute || B.type != compute || Cm.type != compute || !readable(A) || !readable(B) ||
      Cm.format != HIPSPARSE_FORMAT_CSR || A.batch_count > 1 || B.batch_count > 1 || Cm.batch_count > 1) {
    report_not_supported("hipsparseSpGEMM with these types, these formats or batches");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  bool plain_a = op_a == HIPSPARSE_OPERATION_NON_TRANSPOSE, plain_b = op_b == HIPSPARSE_OPERATION_NON_TRANSPOSE;
  if ((plain_a ? A.rows : A.cols) != Cm.rows || (plain_a ? A.cols : A.rows) != (plain_b ? B.rows : B.cols) ||
      (plain_b ? B.cols : B.rows) != Cm.cols)
    return kInvalid;
  return kSuccess;
}

// Checks C = alpha (op(A) op(B)) at C's nonzeros + beta C: A and B dense,
// C CSR or COO, one value type; batches of A and B as many as C's, or one
// used for each of C's.
hipsparseStatus_t check_sddmm(hipsparseHandle_t handle, hipsparseOperation_t op_a, hipsparseOperation_t op_b,
                              hipsparseConstDnMatDescr_t a, hipsparseConstDnMatDescr_t b, hipsparseSpMatDescr_t c,
                              hipDataType compute, bool pointers) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!a || !b || !c || !pointers) return kInvalid;
  const DnMat &A = *object<DnMat>(a), &B = *object<DnMat>(b);
  const SpMat &Cm = *object<SpMat>(c);
  if (A.type != compute || B.type != compute || Cm.type != compute ||
      (Cm.format != HIPSPARSE_FORMAT_CSR && Cm.format != HIPSPARSE_FORMAT_COO)) {
    report_not_supported("hipsparseSDDMM with these types or this format");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  bool plain_a = op_a == HIPSPARSE_OPERATION_NON_TRANSPOSE, plain_b = op_b == HIPSPARSE_OPERATION_NON_TRANSPOSE;
  if ((plain_a ? A.rows : A.cols) != Cm.rows || (plain_a ? A.cols : A.rows) != (plain_b ? B.rows : B.cols) ||
      (plain_b ? B.cols : B.rows) != Cm.cols)
    return kInvalid;
  if ((A.batch_count != 1 && A.batch_count != Cm.batch_count) ||
      (B.batch_count != 1 && B.batch_count != Cm.batch_count))
    return kInvalid;
  return kSuccess;
}

}  // namespace

extern "C" {

// ---- SpGEMM ----

hipsparseStatus_t hipsparseSpGEMM_createDescr(hipsparseSpGEMMDescr_t *descr) {
  if (!descr) return kInvalid;
  *descr = new hipsparseSpGEMMDescr;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpGEMM_destroyDescr(hipsparseSpGEMMDescr_t descr) {
  delete descr;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpGEMM_workEstimation(hipsparseHandle_t handle, hipsparseOperation_t op_a,
                                                 hipsparseOperation_t op_b, const void *alpha,
                                                 hipsparseConstSpMatDescr_t a, hipsparseConstSpMatDescr_t b,
                                                 const void *beta, hipsparseSpMatDescr_t c, hipDataType compute,
                                                 hipsparseSpGEMMAlg_t, hipsparseSpGEMMDescr_t descr, size_t *size,
                                                 void *buffer) {
  hipsparseStatus_t status = check_spgemm(handle, op_a, op_b, a, b, c, compute, alpha && beta && descr && size);
  if (status == kSuccess && !buffer) *size = kStageBuffer;
  return status;
}

hipsparseStatus_t hipsparseSpGEMM_compute(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b,
                                          const void *alpha, hipsparseConstSpMatDescr_t a,
                                          hipsparseConstSpMatDescr_t b, const void *beta, hipsparseSpMatDescr_t c,
                                          hipDataType compute, hipsparseSpGEMMAlg_t, hipsparseSpGEMMDescr_t descr,
                                          size_t *size, void *buffer) {
  hipsparseStatus_t status = check_spgemm(h, op_a, op_b, a, b, c, compute, alpha && beta && descr && size);
  if (status != kSuccess) return status;
  if (!buffer) {
    *size = kStageBuffer;
    return kSuccess;
  }
  Handle *handle = handle_of(h);
  SpMat A = *object<SpMat>(a), B = *object<SpMat>(b);
  SpMat *Cm = object<SpMat>(c);
  std::shared_ptr<Product> product = descr->product;
  status = enqueue(handle, [=] {
    with_type(compute, [&](auto zero) {
      using T = decltype(zero);
      multiply(rows_of<T>(A, op_a), rows_of<T>(B, op_b), Cm->cols, *product);
    });
    Cm->nnz = product->offsets.back();
  });
  return status == kSuccess ? wait(handle) : status;
}

hipsparseStatus_t hipsparseSpGEMM_copy(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b,
                                       const void *alpha, hipsparseConstSpMatDescr_t a, hipsparseConstSpMatDescr_t b,
                                       const void *beta, hipsparseSpMatDescr_t c, hipDataType compute,
                                       hipsparseSpGEMMAlg_t, hipsparseSpGEMMDescr_t descr) {
  hipsparseStatus_t status = check_spgemm(h, op_a, op_b, a, b, c, compute, alpha && beta && descr);
  if (status != kSuccess) return status;
  Handle *handle = handle_of(h);
  SpMat Cm = *object<SpMat>(c);
  std::shared_ptr<Product> product = descr->product;
  if (product->rows != Cm.rows || product->cols != Cm.cols || !Cm.offsets) return kInvalid;
  if (Cm.nnz != product->offsets.back() || (Cm.nnz > 0 && (!Cm.indices || !Cm.values))) return kInvalid;
  Scalar sa(handle, alpha, value_size(compute)), sb(handle, beta, value_size(compute));
  return enqueue(handle, [=] {
    for (int64_t i = 0; i <= product->rows; i++)
      store_index(Cm.offsets, Cm.offset_type, i, product->offsets[i] + Cm.base);
    for (size_t k = 0; k < product->columns.size(); k++)
      store_index(Cm.indices, Cm.index_type, int64_t(k), product->columns[k] + Cm.base);
    with_type(compute, [&](auto zero) {
      using T = decltype(zero);
      T scale_product = sa.get<T>(), scale_c = sb.get<T>();
      const T *from = reinterpret_cast<const T *>(product->values.data());
      T *to = static_cast<T *>(Cm.values);
      for (size_t k = 0; k < product->columns.size(); k++)
        to[k] = scale_product * from[k] + (scale_c == T(0) ? T(0) : scale_c * to[k]);
    });
  });
}

// ---- SDDMM ----

hipsparseStatus_t hipsparseSDDMM_bufferSize(hipsparseHandle_t handle, hipsparseOperation_t op_a,
                                            hipsparseOperation_t op_b, const void *alpha,
                                            hipsparseConstDnMatDescr_t a, hipsparseConstDnMatDescr_t b,
                                            const void *beta, hipsparseSpMatDescr_t c, hipDataType compute,
                                            hipsparseSDDMMAlg_t, size_t *size) {
  hipsparseStatus_t status = check_sddmm(handle, op_a, op_b, a, b, c, compute, alpha && beta && size);
  if (status == kSuccess) *size = 0;
  return status;
}

hipsparseStatus_t hipsparseSDDMM_preprocess(hipsparseHandle_t handle, hipsparseOperation_t op_a,
                                            hipsparseOperation_t op_b, const void *alpha,
                                            hipsparseConstDnMatDescr_t a, hipsparseConstDnMatDescr_t b,
                                            const void *beta, hipsparseSpMatDescr_t c, hipDataType compute,
                                            hipsparseSDDMMAlg_t, void *) {
  return check_sddmm(handle, op_a, op_b, a, b, c, compute, alpha && beta);
}

hipsparseStatus_t hipsparseSDDMM(hipsparseHandle_t h, hipsparseOperation_t op_a, hipsparseOperation_t op_b,
                                 const void *alpha, hipsparseConstDnMatDescr_t a, hipsparseConstDnMatDescr_t b,
                                 const void *beta, hipsparseSpMatDescr_t c, hipDataType compute, hipsparseSDDMMAlg_t,
                                 void *) {
  hipsparseStatus_t status = check_sddmm(h, op_a, op_b, a, b, c, compute, alpha && beta);
  if (status != kSuccess) return status;
  Handle *handle = handle_of(h);
  DnMat A = *object<DnMat>(a), B = *object<DnMat>(b);
  SpMat Cm = *object<SpMat>(c);
  Scalar sa(handle, alpha, value_size(compute)), sb(handle, beta, value_size(compute));
  int64_t inner = op_a == HIPSPARSE_OPERATION_NON_TRANSPOSE ? A.cols : A.rows;
  return enqueue(handle, [=] {
    with_type(compute, [&](auto zero) {
      using T = decltype(zero);
      T scale_product = sa.get<T>(), scale_c = sb.get<T>();
      for (int batch = 0; batch < Cm.batch_count; batch++) {
        SpMat cb = batch_of(Cm, batch);
        Operand<T> ab(batch_of(A, A.batch_count == 1 ? 0 : batch), op_a);
        Operand<T> bb(batch_of(B, B.batch_count == 1 ? 0 : batch), op_b);
        T *values = static_cast<T *>(cb.values);
        each_position(cb, [&](int64_t k, int64_t r, int64_t col) {
          T sum = T(0);
          const T *a_row = ab.values + r * ab.row_step, *b_column = bb.values + col * bb.column_step;
          if (ab.conjugated || bb.conjugated)
            for (int64_t l = 0; l < inner; l++)
              sum += ab.get(a_row[l * ab.column_step]) * bb.get(b_column[l * bb.row_step]);
          else
            for (int64_t l = 0; l < inner; l++) sum += a_row[l * ab.column_step] * b_column[l * bb.row_step];
          values[k] = scale_product * sum + (scale_c == T(0) ? T(0) : scale_c * values[k]);
        });
      }
    });
  });
}

}  // extern "C"
