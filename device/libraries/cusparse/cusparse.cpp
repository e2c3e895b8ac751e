// cuSPARSE over gpusym's hipSPARSE: CUDA's and hipSPARSE's enumerations and
// statuses have the same values, and CUDA's handles and descriptors are
// hipSPARSE's, so each call converts its arguments to the hipSPARSE
// function's parameter types and passes them on.
#include <cusparse.h>
#include <hipsparse/hipsparse.h>

#include <type_traits>

namespace {

// An argument as parameter type P: pointers reinterpreted (handles,
// descriptors and their out-parameters), values cast (enumerations).
template <class P, class A> P to(A argument) {
  if constexpr (std::is_pointer_v<P>)
    return reinterpret_cast<P>(argument);
  else
    return static_cast<P>(argument);
}

template <class... P, class... A> cusparseStatus_t call(hipsparseStatus_t (*function)(P...), A... arguments) {
  return cusparseStatus_t(function(to<P>(arguments)...));
}

}  // namespace

extern "C" {

#define GPUSYM_CUSPARSE(name, hip_function, parameters, arguments) \
  cusparseStatus_t name parameters { return call(hip_function, GPUSYM_UNPACK arguments); }
#define GPUSYM_UNPACK(...) __VA_ARGS__
#include <cusparse_gpusym_functions.h>
#undef GPUSYM_CUSPARSE

cusparseStatus_t cusparseGetVersion(cusparseHandle_t handle, int *version) {
  if (!handle) return CUSPARSE_STATUS_NOT_INITIALIZED;
  if (!version) return CUSPARSE_STATUS_INVALID_VALUE;
  *version = CUSPARSE_VERSION;
  return CUSPARSE_STATUS_SUCCESS;
}

cusparseStatus_t cusparseGetProperty(libraryPropertyType type, int *value) {
  if (!value) return CUSPARSE_STATUS_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION: *value = CUSPARSE_VER_MAJOR; return CUSPARSE_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CUSPARSE_VER_MINOR; return CUSPARSE_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CUSPARSE_VER_PATCH; return CUSPARSE_STATUS_SUCCESS;
  }
  return CUSPARSE_STATUS_INVALID_VALUE;
}

const char *cusparseGetErrorName(cusparseStatus_t status) {
  switch (status) {
    case CUSPARSE_STATUS_SUCCESS: return "CUSPARSE_STATUS_SUCCESS";
    case CUSPARSE_STATUS_NOT_INITIALIZED: return "CUSPARSE_STATUS_NOT_INITIALIZED";
    case CUSPARSE_STATUS_ALLOC_FAILED: return "CUSPARSE_STATUS_ALLOC_FAILED";
    case CUSPARSE_STATUS_INVALID_VALUE: return "CUSPARSE_STATUS_INVALID_VALUE";
    case CUSPARSE_STATUS_ARCH_MISMATCH: return "CUSPARSE_STATUS_ARCH_MISMATCH";
    case CUSPARSE_STATUS_MAPPING_ERROR: return "CUSPARSE_STATUS_MAPPING_ERROR";
    case CUSPARSE_STATUS_EXECUTION_FAILED: return "CUSPARSE_STATUS_EXECUTION_FAILED";
    case CUSPARSE_STATUS_INTERNAL_ERROR: return "CUSPARSE_STATUS_INTERNAL_ERROR";
    case CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED: return "CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED";
    case CUSPARSE_STATUS_ZERO_PIVOT: return "CUSPARSE_STATUS_ZERO_PIVOT";
    case CUSPARSE_STATUS_NOT_SUPPORTED: return "CUSPARSE_STATUS_NOT_SUPPORTED";
    case CUSPARSE_STATUS_INSUFFICIENT_RESOURCES: return "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES";
  }
  return "CUSPARSE_STATUS_UNKNOWN";
}

const char *cusparseGetErrorString(cusparseStatus_t status) {
  switch (status) {
    case CUSPARSE_STATUS_SUCCESS: return "success";
    case CUSPARSE_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUSPARSE_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUSPARSE_STATUS_INVALID_VALUE: return "an invalid value was used as an argument";
    case CUSPARSE_STATUS_NOT_SUPPORTED: return "the operation or data type combination is not supported";
    default: return cusparseGetErrorName(status);
  }
}

cusparseMatrixType_t cusparseGetMatType(const cusparseMatDescr_t descr) {
  return cusparseMatrixType_t(hipsparseGetMatType(descr));
}
cusparseFillMode_t cusparseGetMatFillMode(const cusparseMatDescr_t descr) {
  return cusparseFillMode_t(hipsparseGetMatFillMode(descr));
}
cusparseDiagType_t cusparseGetMatDiagType(const cusparseMatDescr_t descr) {
  return cusparseDiagType_t(hipsparseGetMatDiagType(descr));
}
cusparseIndexBase_t cusparseGetMatIndexBase(const cusparseMatDescr_t descr) {
  return cusparseIndexBase_t(hipsparseGetMatIndexBase(descr));
}

}  // extern "C"
