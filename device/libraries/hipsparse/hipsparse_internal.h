// What the parts of gpusym's hipSPARSE share: the handle, matrix
// descriptions, the generic API's matrices and dense vectors, work in stream
// order, scalars by pointer mode, and the value types.
#pragma once

#include <hipsparse/hipsparse.h>

#include <complex>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>
#include <utility>

#include "stream_work.h"

namespace gpusym_hipsparse {

constexpr hipsparseStatus_t kSuccess = HIPSPARSE_STATUS_SUCCESS;
constexpr hipsparseStatus_t kInvalid = HIPSPARSE_STATUS_INVALID_VALUE;

struct Handle {
  hipStream_t stream = nullptr;
  hipsparsePointerMode_t pointer_mode = HIPSPARSE_POINTER_MODE_HOST;
};

struct DnVec {
  int64_t size;
  void *values;
  hipDataType type;
};

// A matrix description of the classic API.
struct MatDescr {
  hipsparseMatrixType_t type = HIPSPARSE_MATRIX_TYPE_GENERAL;
  hipsparseFillMode_t fill = HIPSPARSE_FILL_MODE_LOWER;
  hipsparseDiagType_t diag = HIPSPARSE_DIAG_TYPE_NON_UNIT;
  hipsparseIndexBase_t base = HIPSPARSE_INDEX_BASE_ZERO;
};

// A sparse matrix of the generic API: CSR (offsets by row), CSC (by column)
// or COO (row indices in `offsets`, one per nonzero).  `fill` and `diag` are
// what the triangular solves read of it (hipsparseSpMatSetAttribute).  A
// strided batch is `batch_count` matrices of one shape and nnz, the b-th's
// offsets `offsets_stride` elements after the first's and its indices and
// values `values_stride` (hipsparseCsrSetStridedBatch, CooSetStridedBatch).
struct SpMat {
  hipsparseFormat_t format;
  int64_t rows, cols, nnz;
  void *offsets, *indices, *values;
  hipsparseIndexType_t offset_type, index_type;
  hipsparseIndexBase_t base;
  hipDataType type;
  hipsparseFillMode_t fill = HIPSPARSE_FILL_MODE_LOWER;
  hipsparseDiagType_t diag = HIPSPARSE_DIAG_TYPE_NON_UNIT;
  int batch_count = 1;
  int64_t offsets_stride = 0, values_stride = 0;
};

// A dense matrix, and a strided batch of them (hipsparseDnMatSetStridedBatch).
struct DnMat {
  int64_t rows, cols, ld;
  void *values;
  hipDataType type;
  hipsparseOrder_t order;
  int batch_count = 1;
  int64_t batch_stride = 0;
};

inline Handle *handle_of(hipsparseHandle_t handle) { return static_cast<Handle *>(handle); }
// The generic API's const descriptors are the same objects.
template <class T> T *object(const void *descriptor) { return static_cast<T *>(const_cast<void *>(descriptor)); }

// Runs `work` in the handle's stream order.
inline hipsparseStatus_t enqueue(Handle *handle, std::function<void()> work) {
  bool queued = gpusym_library::in_stream_order(handle->stream, std::move(work)) == hipSuccess;
  return queued ? kSuccess : HIPSPARSE_STATUS_EXECUTION_FAILED;
}

// Waits for the handle's stream: for results read on the host.
inline hipsparseStatus_t wait(Handle *handle) {
  return hipStreamSynchronize(handle->stream) == hipSuccess ? kSuccess : HIPSPARSE_STATUS_EXECUTION_FAILED;
}

inline size_t value_size(hipDataType type) {
  switch (type) {
    case HIP_R_32F: return 4;
    case HIP_R_64F:
    case HIP_C_32F: return 8;
    case HIP_C_64F: return 16;
    default: return 0;
  }
}

inline bool valid_type(hipDataType type) { return value_size(type) != 0; }

inline size_t index_size(hipsparseIndexType_t type) { return type == HIPSPARSE_INDEX_64I ? 8 : 4; }

// `pointer` moved on by `count` elements of `size` bytes.
inline void *advanced(void *pointer, int64_t count, size_t size) {
  return pointer ? static_cast<char *>(pointer) + count * int64_t(size) : pointer;
}

// Matrix `b` of a strided batch, a batch of its own.
inline SpMat batch_of(const SpMat &a, int b) {
  SpMat m = a;
  m.offsets = advanced(a.offsets, b * a.offsets_stride, index_size(a.offset_type));
  m.indices = advanced(a.indices, b * a.values_stride, index_size(a.index_type));
  m.values = advanced(a.values, b * a.values_stride, value_size(a.type));
  m.batch_count = 1;
  return m;
}

inline DnMat batch_of(const DnMat &a, int b) {
  DnMat m = a;
  m.values = advanced(a.values, b * a.batch_stride, value_size(a.type));
  m.batch_count = 1;
  return m;
}

// Calls f(k, row, column) for the k-th stored entry of `a`, indices from
// zero.
template <class I, class J, class F> void each_position_typed(const SpMat &a, F f) {
  const I *offsets = static_cast<const I *>(a.offsets);
  const J *indices = static_cast<const J *>(a.indices);
  int64_t base = a.base;
  if (a.format == HIPSPARSE_FORMAT_COO) {
    for (int64_t k = 0; k < a.nnz; k++) f(k, int64_t(offsets[k]) - base, int64_t(indices[k]) - base);
    return;
  }
  int64_t outer = a.format == HIPSPARSE_FORMAT_CSR ? a.rows : a.cols;
  for (int64_t o = 0; o < outer; o++)
    for (int64_t k = int64_t(offsets[o]) - base; k < int64_t(offsets[o + 1]) - base; k++) {
      int64_t inner = int64_t(indices[k]) - base;
      if (a.format == HIPSPARSE_FORMAT_CSR)
        f(k, o, inner);
      else
        f(k, inner, o);
    }
}

template <class F> void each_position(const SpMat &a, F f) {
  bool wide_offsets = a.offset_type == HIPSPARSE_INDEX_64I, wide_indices = a.index_type == HIPSPARSE_INDEX_64I;
  if (wide_offsets && wide_indices)
    each_position_typed<int64_t, int64_t>(a, f);
  else if (wide_offsets)
    each_position_typed<int64_t, int32_t>(a, f);
  else if (wide_indices)
    each_position_typed<int32_t, int64_t>(a, f);
  else
    each_position_typed<int32_t, int32_t>(a, f);
}

// Calls f(row, column, value) for each nonzero of `a`, indices from zero.
template <class T, class F> void each_nonzero(const SpMat &a, F f) {
  const T *values = static_cast<const T *>(a.values);
  each_position(a, [&](int64_t k, int64_t r, int64_t c) { f(r, c, values[k]); });
}

// Element (r, c) of a dense matrix.
template <class T> T &at(const DnMat &m, int64_t r, int64_t c) {
  T *values = static_cast<T *>(m.values);
  return m.order == HIPSPARSE_ORDER_ROW ? values[r * m.ld + c] : values[c * m.ld + r];
}

// A scalar's bytes, taken now in host pointer mode and read in stream order
// in device pointer mode.
class Scalar {
 public:
  Scalar(const Handle *handle, const void *pointer, size_t size)
      : device_(handle->pointer_mode == HIPSPARSE_POINTER_MODE_DEVICE ? pointer : nullptr) {
    if (!device_) memcpy(bytes_, pointer, size);
  }
  template <class T> T get() const {
    T value;
    memcpy(&value, device_ ? device_ : bytes_, sizeof(T));
    return value;
  }

 private:
  const void *device_;
  unsigned char bytes_[16] = {};
};

template <class T> T conjugate(T v) {
  if constexpr (std::is_arithmetic_v<T>)
    return v;
  else
    return std::conj(v);
}

template <class T> constexpr hipDataType data_type() {
  if constexpr (std::is_same_v<T, float>) return HIP_R_32F;
  if constexpr (std::is_same_v<T, double>) return HIP_R_64F;
  if constexpr (std::is_same_v<T, std::complex<float>>) return HIP_C_32F;
  return HIP_C_64F;
}

// A classic matrix description's index base (zero without one).
inline hipsparseIndexBase_t base_of(const hipsparseMatDescr_t descr) {
  return descr ? static_cast<const MatDescr *>(descr)->base : HIPSPARSE_INDEX_BASE_ZERO;
}

// The classic API's CSR matrix (32-bit indices) as a descriptor of the generic one.
inline SpMat classic_csr(int m, int n, int nnz, const hipsparseMatDescr_t descr, const void *values,
                         const int *row_ptr, const int *col_ind, hipDataType type) {
  return SpMat{HIPSPARSE_FORMAT_CSR, m, n, nnz, const_cast<int *>(row_ptr), const_cast<int *>(col_ind),
               const_cast<void *>(values), HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I, base_of(descr), type};
}

// Calls body(T()) for the C++ type T of `type`, one of value_size's.
template <class F> void with_type(hipDataType type, F body) {
  switch (type) {
    case HIP_R_32F: body(float()); break;
    case HIP_R_64F: body(double()); break;
    case HIP_C_32F: body(std::complex<float>()); break;
    default: body(std::complex<double>()); break;
  }
}

// M(hipSPARSE name, its value type, the C++ type) for the S, D, C and Z
// forms of `op`.
#define GPUSYM_SDCZ(M, op)                                                                           \
  M(hipsparseS##op, float, float) M(hipsparseD##op, double, double)                                  \
  M(hipsparseC##op, hipComplex, std::complex<float>) M(hipsparseZ##op, hipDoubleComplex, std::complex<double>)

// Prints, the first time `name` is called, that gpusym does not provide it.
void report_not_supported(const char *name);

}  // namespace gpusym_hipsparse
