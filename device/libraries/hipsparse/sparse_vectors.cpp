// gpusym's hipSPARSE: the generic API's sparse vectors and what it does with
// one and a dense vector (Axpby, Gather, Scatter, Rot and the dot product
// SpVV), and the classic API's gather (gthr), computed on the CPU in the
// handle's stream order.  Values are float, double and their complex forms;
// indices 32 or 64 bits, based at zero or one.
#include <hipsparse/hipsparse.h>

#include <atomic>
#include <cstdio>
#include <cstring>

#include "hipsparse_internal.h"

using namespace gpusym_hipsparse;

namespace {

struct SpVec {
  int64_t size, nnz;
  void *indices, *values;
  hipsparseIndexType_t index_type;
  hipsparseIndexBase_t base;
  hipDataType type;
};

// Calls f(k, i) for the k-th nonzero of `x` and its index i from zero, for
// those that fall in a dense vector of `size`.  The others are skipped and
// said so once (a GPU would access memory past the vector; here that would
// overwrite the program's memory).
template <class I, class F> void each_entry_typed(const SpVec &x, int64_t size, F f) {
  static std::atomic<bool> said{false};
  const I *indices = static_cast<const I *>(x.indices);
  for (int64_t k = 0; k < x.nnz; k++) {
    int64_t i = int64_t(indices[k]) - x.base;
    if (i >= 0 && i < size)
      f(k, i);
    else if (!said.exchange(true))
      fprintf(stderr,
              "gpusym: hipSPARSE: index %lld of a sparse vector (base %d) is outside its dense vector of %lld "
              "elements: that entry is skipped\n",
              static_cast<long long>(indices[k]), static_cast<int>(x.base), static_cast<long long>(size));
  }
}

template <class F> void each_entry(const SpVec &x, int64_t size, F f) {
  if (x.index_type == HIPSPARSE_INDEX_64I)
    each_entry_typed<int64_t>(x, size, f);
  else
    each_entry_typed<int32_t>(x, size, f);
}

// What every operation of a sparse vector `x` and a dense vector `y` checks;
// `pointers` is false when one of its scalar or result pointers is null.
hipsparseStatus_t check(const Handle *handle, const void *x, const void *y, bool pointers, const char *name) {
  if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!x || !y || !pointers) return kInvalid;
  const SpVec &X = *object<SpVec>(x);
  const DnVec &Y = *object<DnVec>(y);
  if (X.type != Y.type) {
    report_not_supported(name);
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  return (X.nnz > 0 && (!X.indices || !X.values)) || (Y.size > 0 && !Y.values) ? kInvalid : kSuccess;
}

// Queues body(T(), x values, y values) in the handle's stream order, T the
// vectors' value type.
template <class F> hipsparseStatus_t queue(Handle *handle, const SpVec &x, const DnVec &y, F body) {
  return enqueue(handle, [=] {
    with_type(x.type, [&](auto zero) {
      using T = decltype(zero);
      body(zero, static_cast<T *>(x.values), static_cast<T *>(y.values));
    });
  });
}

}  // namespace

extern "C" {

// ---- descriptors ----

hipsparseStatus_t hipsparseCreateSpVec(hipsparseSpVecDescr_t *descr, int64_t size, int64_t nnz, void *indices,
                                       void *values, hipsparseIndexType_t index_type, hipsparseIndexBase_t base,
                                       hipDataType type) {
  if (!descr || size < 0 || nnz < 0 || nnz > size || (nnz > 0 && (!indices || !values))) return kInvalid;
  if (base != HIPSPARSE_INDEX_BASE_ZERO && base != HIPSPARSE_INDEX_BASE_ONE) return kInvalid;
  if ((index_type != HIPSPARSE_INDEX_32I && index_type != HIPSPARSE_INDEX_64I) || !valid_type(type))
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  *descr = new SpVec{size, nnz, indices, values, index_type, base, type};
  return kSuccess;
}

hipsparseStatus_t hipsparseCreateConstSpVec(hipsparseConstSpVecDescr_t *descr, int64_t size, int64_t nnz,
                                            const void *indices, const void *values, hipsparseIndexType_t index_type,
                                            hipsparseIndexBase_t base, hipDataType type) {
  return hipsparseCreateSpVec(const_cast<hipsparseSpVecDescr_t *>(descr), size, nnz, const_cast<void *>(indices),
                              const_cast<void *>(values), index_type, base, type);
}

hipsparseStatus_t hipsparseDestroySpVec(hipsparseConstSpVecDescr_t descr) {
  delete object<SpVec>(descr);
  return kSuccess;
}

hipsparseStatus_t hipsparseSpVecGet(const hipsparseSpVecDescr_t descr, int64_t *size, int64_t *nnz, void **indices,
                                    void **values, hipsparseIndexType_t *index_type, hipsparseIndexBase_t *base,
                                    hipDataType *type) {
  if (!descr) return kInvalid;
  const SpVec &v = *object<SpVec>(descr);
  if (size) *size = v.size;
  if (nnz) *nnz = v.nnz;
  if (indices) *indices = v.indices;
  if (values) *values = v.values;
  if (index_type) *index_type = v.index_type;
  if (base) *base = v.base;
  if (type) *type = v.type;
  return kSuccess;
}

hipsparseStatus_t hipsparseConstSpVecGet(hipsparseConstSpVecDescr_t descr, int64_t *size, int64_t *nnz,
                                         const void **indices, const void **values, hipsparseIndexType_t *index_type,
                                         hipsparseIndexBase_t *base, hipDataType *type) {
  return hipsparseSpVecGet(object<SpVec>(descr), size, nnz, const_cast<void **>(indices),
                           const_cast<void **>(values), index_type, base, type);
}

hipsparseStatus_t hipsparseSpVecGetIndexBase(const hipsparseConstSpVecDescr_t descr, hipsparseIndexBase_t *base) {
  if (!descr || !base) return kInvalid;
  *base = object<SpVec>(descr)->base;
  return kSuccess;
}

hipsparseStatus_t hipsparseSpVecGetValues(const hipsparseSpVecDescr_t descr, void **values) {
  if (!descr || !values) return kInvalid;
  *values = object<SpVec>(descr)->values;
  return kSuccess;
}

hipsparseStatus_t hipsparseConstSpVecGetValues(hipsparseConstSpVecDescr_t descr, const void **values) {
  return hipsparseSpVecGetValues(object<SpVec>(descr), const_cast<void **>(values));
}

hipsparseStatus_t hipsparseSpVecSetValues(hipsparseSpVecDescr_t descr, void *values) {
  if (!descr) return kInvalid;
  object<SpVec>(descr)->values = values;
  return kSuccess;
}

// ---- operations ----

// y = alpha x + beta y.
hipsparseStatus_t hipsparseAxpby(hipsparseHandle_t h, const void *alpha, hipsparseConstSpVecDescr_t x,
                                 const void *beta, hipsparseDnVecDescr_t y) {
  Handle *handle = handle_of(h);
  hipsparseStatus_t status = check(handle, x, y, alpha && beta, "hipsparseAxpby with these types");
  if (status != kSuccess) return status;
  const SpVec &X = *object<SpVec>(x);
  const DnVec &Y = *object<DnVec>(y);
  Scalar sa(handle, alpha, value_size(X.type)), sb(handle, beta, value_size(X.type));
  return queue(handle, X, Y, [=](auto zero, auto *xv, auto *yv) {
    using T = decltype(zero);
    T a = sa.get<T>(), b = sb.get<T>();
    for (int64_t i = 0; i < Y.size; i++) yv[i] = b == T(0) ? T(0) : b * yv[i];
    each_entry(X, Y.size, [&](int64_t k, int64_t i) { yv[i] += a * xv[k]; });
  });
}

// x's values = y at x's indices.
hipsparseStatus_t hipsparseGather(hipsparseHandle_t h, hipsparseConstDnVecDescr_t y, hipsparseSpVecDescr_t x) {
  Handle *handle = handle_of(h);
  hipsparseStatus_t status = check(handle, x, y, true, "hipsparseGather with these types");
  if (status != kSuccess) return status;
  const SpVec &X = *object<SpVec>(x);
  const DnVec &Y = *object<DnVec>(y);
  return queue(handle, X, Y, [=](auto, auto *xv, auto *yv) {
    each_entry(X, Y.size, [&](int64_t k, int64_t i) { xv[k] = yv[i]; });
  });
}

// y at x's indices = x's values; y's other elements are left as they are.
hipsparseStatus_t hipsparseScatter(hipsparseHandle_t h, hipsparseConstSpVecDescr_t x, hipsparseDnVecDescr_t y) {
  Handle *handle = handle_of(h);
  hipsparseStatus_t status = check(handle, x, y, true, "hipsparseScatter with these types");
  if (status != kSuccess) return status;
  const SpVec &X = *object<SpVec>(x);
  const DnVec &Y = *object<DnVec>(y);
  return queue(handle, X, Y, [=](auto, auto *xv, auto *yv) {
    each_entry(X, Y.size, [&](int64_t k, int64_t i) { yv[i] = xv[k]; });
  });
}

// The Givens rotation of the pairs (x_k, y at x's index k): x = c x + s y,
// y = c y - s x.
hipsparseStatus_t hipsparseRot(hipsparseHandle_t h, const void *c, const void *s, hipsparseSpVecDescr_t x,
                               hipsparseDnVecDescr_t y) {
  Handle *handle = handle_of(h);
  hipsparseStatus_t status = check(handle, x, y, c && s, "hipsparseRot with these types");
  if (status != kSuccess) return status;
  const SpVec &X = *object<SpVec>(x);
  const DnVec &Y = *object<DnVec>(y);
  Scalar sc(handle, c, value_size(X.type)), ss(handle, s, value_size(X.type));
  return queue(handle, X, Y, [=](auto zero, auto *xv, auto *yv) {
    using T = decltype(zero);
    T cv = sc.get<T>(), sv = ss.get<T>();
    each_entry(X, Y.size, [&](int64_t k, int64_t i) {
      T xk = xv[k], yi = yv[i];
      xv[k] = cv * xk + sv * yi;
      yv[i] = cv * yi - sv * xk;
    });
  });
}

hipsparseStatus_t hipsparseSpVV_bufferSize(hipsparseHandle_t h, hipsparseOperation_t, hipsparseConstSpVecDescr_t x,
                                           hipsparseConstDnVecDescr_t y, void *, hipDataType, size_t *size) {
  if (!h) return HIPSPARSE_STATUS_NOT_INITIALIZED;
  if (!x || !y || !size) return kInvalid;
  *size = 0;
  return kSuccess;
}

// The dot product of op(x) and y, op conjugating x for
// HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE; `result` is read on the host once
// the call returns in host pointer mode, in stream order in device mode.
hipsparseStatus_t hipsparseSpVV(hipsparseHandle_t h, hipsparseOperation_t op, hipsparseConstSpVecDescr_t x,
                                hipsparseConstDnVecDescr_t y, void *result, hipDataType compute, void *) {
  Handle *handle = handle_of(h);
  hipsparseStatus_t status = check(handle, x, y, result != nullptr, "hipsparseSpVV with these types");
  if (status != kSuccess) return status;
  if (op != HIPSPARSE_OPERATION_NON_TRANSPOSE && op != HIPSPARSE_OPERATION_TRANSPOSE &&
      op != HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE)
    return kInvalid;
  const SpVec &X = *object<SpVec>(x);
  const DnVec &Y = *object<DnVec>(y);
  if (compute != X.type) {
    report_not_supported("hipsparseSpVV with a compute type other than the vectors' type");
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  }
  bool conjugated = op == HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE;
  status = queue(handle, X, Y, [=](auto zero, auto *xv, auto *yv) {
    using T = decltype(zero);
    T sum = T(0);
    each_entry(X, Y.size, [&](int64_t k, int64_t i) { sum += (conjugated ? conjugate(xv[k]) : xv[k]) * yv[i]; });
    memcpy(result, &sum, sizeof(T));
  });
  return status == kSuccess && handle->pointer_mode == HIPSPARSE_POINTER_MODE_HOST ? wait(handle) : status;
}

// ---- the classic API ----

// x_values[k] = y[x_indices[k] - base], the classic Gather.
#define GTHR(name, T, V)                                                                                       \
  hipsparseStatus_t name(hipsparseHandle_t h, int nnz, const T *y, T *x_values, const int *x_indices,           \
                         hipsparseIndexBase_t base) {                                                          \
    if (!h) return HIPSPARSE_STATUS_NOT_INITIALIZED;                                                           \
    if (nnz < 0 || (nnz > 0 && (!y || !x_values || !x_indices))) return kInvalid;                              \
    if (base != HIPSPARSE_INDEX_BASE_ZERO && base != HIPSPARSE_INDEX_BASE_ONE) return kInvalid;                \
    if (nnz == 0) return kSuccess;                                                                             \
    const V *from = reinterpret_cast<const V *>(y);                                                            \
    V *to = reinterpret_cast<V *>(x_values);                                                                   \
    return enqueue(handle_of(h), [=] {                                                                         \
      for (int k = 0; k < nnz; k++) to[k] = from[x_indices[k] - base];                                         \
    });                                                                                                        \
  }
GPUSYM_SDCZ(GTHR, gthr)

}  // extern "C"
