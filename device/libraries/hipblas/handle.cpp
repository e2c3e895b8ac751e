// hipBLAS handles, their stream and modes, the copies between host and
// device, status names, and the report of a function gpusym does not
// implement.
#include "hipblas_internal.h"
#include "not_supported.h"
#include "stream_work.h"

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace gpusym_hipblas {

hipblasStatus_t enqueue(Handle *handle, std::function<void()> work) {
  bool queued = gpusym_library::in_stream_order(handle->stream, std::move(work)) == hipSuccess;
  return queued ? HIPBLAS_STATUS_SUCCESS : HIPBLAS_STATUS_EXECUTION_FAILED;
}

void report_not_supported(const char *name) {
  gpusym_library::report_not_supported("hipBLAS", name, "HIPBLAS_STATUS_NOT_SUPPORTED");
}

}  // namespace gpusym_hipblas

using namespace gpusym_hipblas;

namespace {

hipblasStatus_t status_of(hipError_t error) {
  return error == hipSuccess ? HIPBLAS_STATUS_SUCCESS : HIPBLAS_STATUS_INVALID_VALUE;
}

// A strided copy of `count` elements (a vector, or a matrix's columns: count
// rows of `width` bytes), in the null stream's order or `stream`'s.
hipblasStatus_t copy_2d(void *dst, size_t dst_pitch, const void *src, size_t src_pitch, size_t width,
                        size_t count, const hipStream_t *stream) {
  if (!dst || !src) return HIPBLAS_STATUS_INVALID_VALUE;
  if (stream) return status_of(hipMemcpy2DAsync(dst, dst_pitch, src, src_pitch, width, count, hipMemcpyDefault, *stream));
  return status_of(hipMemcpy2D(dst, dst_pitch, src, src_pitch, width, count, hipMemcpyDefault));
}

hipblasStatus_t copy_vector(int n, int size, const void *x, int incx, void *y, int incy, const hipStream_t *stream) {
  if (n < 0 || size <= 0 || incx <= 0 || incy <= 0) return HIPBLAS_STATUS_INVALID_VALUE;
  if (n == 0) return HIPBLAS_STATUS_SUCCESS;
  return copy_2d(y, size_t(incy) * size, x, size_t(incx) * size, size, n, stream);
}

hipblasStatus_t copy_matrix(int rows, int cols, int size, const void *a, int lda, void *b, int ldb,
                            const hipStream_t *stream) {
  if (rows < 0 || cols < 0 || size <= 0 || lda < rows || ldb < rows || lda <= 0 || ldb <= 0)
    return HIPBLAS_STATUS_INVALID_VALUE;
  if (rows == 0 || cols == 0) return HIPBLAS_STATUS_SUCCESS;
  return copy_2d(b, size_t(ldb) * size, a, size_t(lda) * size, size_t(rows) * size, cols, stream);
}

}  // namespace

extern "C" {

hipblasStatus_t hipblasCreate(hipblasHandle_t *handle) {
  if (!handle) return HIPBLAS_STATUS_HANDLE_IS_NULLPTR;
  *handle = new Handle;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasDestroy(hipblasHandle_t handle) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  delete handle_of(handle);
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasSetStream(hipblasHandle_t handle, hipStream_t stream) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  handle_of(handle)->stream = stream;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasGetStream(hipblasHandle_t handle, hipStream_t *stream) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!stream) return HIPBLAS_STATUS_INVALID_VALUE;
  *stream = handle_of(handle)->stream;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasSetPointerMode(hipblasHandle_t handle, hipblasPointerMode_t mode) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (mode != HIPBLAS_POINTER_MODE_HOST && mode != HIPBLAS_POINTER_MODE_DEVICE) return HIPBLAS_STATUS_INVALID_ENUM;
  handle_of(handle)->pointer_mode = mode;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasGetPointerMode(hipblasHandle_t handle, hipblasPointerMode_t *mode) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return HIPBLAS_STATUS_INVALID_VALUE;
  *mode = handle_of(handle)->pointer_mode;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasSetAtomicsMode(hipblasHandle_t handle, hipblasAtomicsMode_t mode) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  handle_of(handle)->atomics_mode = mode;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasGetAtomicsMode(hipblasHandle_t handle, hipblasAtomicsMode_t *mode) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return HIPBLAS_STATUS_INVALID_VALUE;
  *mode = handle_of(handle)->atomics_mode;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasSetMathMode(hipblasHandle_t handle, hipblasMath_t mode) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  handle_of(handle)->math_mode = mode;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasGetMathMode(hipblasHandle_t handle, hipblasMath_t *mode) {
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!mode) return HIPBLAS_STATUS_INVALID_VALUE;
  *mode = handle_of(handle)->math_mode;
  return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasSetVector(int n, int size, const void *x, int incx, void *y, int incy) {
  return copy_vector(n, size, x, incx, y, incy, nullptr);
}

hipblasStatus_t hipblasGetVector(int n, int size, const void *x, int incx, void *y, int incy) {
  return copy_vector(n, size, x, incx, y, incy, nullptr);
}

hipblasStatus_t hipblasSetVectorAsync(int n, int size, const void *x, int incx, void *y, int incy,
                                      hipStream_t stream) {
  return copy_vector(n, size, x, incx, y, incy, &stream);
}

hipblasStatus_t hipblasGetVectorAsync(int n, int size, const void *x, int incx, void *y, int incy,
                                      hipStream_t stream) {
  return copy_vector(n, size, x, incx, y, incy, &stream);
}

hipblasStatus_t hipblasSetMatrix(int rows, int cols, int size, const void *a, int lda, void *b, int ldb) {
  return copy_matrix(rows, cols, size, a, lda, b, ldb, nullptr);
}

hipblasStatus_t hipblasGetMatrix(int rows, int cols, int size, const void *a, int lda, void *b, int ldb) {
  return copy_matrix(rows, cols, size, a, lda, b, ldb, nullptr);
}

hipblasStatus_t hipblasSetMatrixAsync(int rows, int cols, int size, const void *a, int lda, void *b, int ldb,
                                      hipStream_t stream) {
  return copy_matrix(rows, cols, size, a, lda, b, ldb, &stream);
}

hipblasStatus_t hipblasGetMatrixAsync(int rows, int cols, int size, const void *a, int lda, void *b, int ldb,
                                      hipStream_t stream) {
  return copy_matrix(rows, cols, size, a, lda, b, ldb, &stream);
}

const char *hipblasStatusToString(hipblasStatus_t status) {
  switch (status) {
    case HIPBLAS_STATUS_SUCCESS: return "HIPBLAS_STATUS_SUCCESS";
    case HIPBLAS_STATUS_NOT_INITIALIZED: return "HIPBLAS_STATUS_NOT_INITIALIZED";
    case HIPBLAS_STATUS_ALLOC_FAILED: return "HIPBLAS_STATUS_ALLOC_FAILED";
    case HIPBLAS_STATUS_INVALID_VALUE: return "HIPBLAS_STATUS_INVALID_VALUE";
    case HIPBLAS_STATUS_MAPPING_ERROR: return "HIPBLAS_STATUS_MAPPING_ERROR";
    case HIPBLAS_STATUS_EXECUTION_FAILED: return "HIPBLAS_STATUS_EXECUTION_FAILED";
    case HIPBLAS_STATUS_INTERNAL_ERROR: return "HIPBLAS_STATUS_INTERNAL_ERROR";
    case HIPBLAS_STATUS_NOT_SUPPORTED: return "HIPBLAS_STATUS_NOT_SUPPORTED";
    case HIPBLAS_STATUS_ARCH_MISMATCH: return "HIPBLAS_STATUS_ARCH_MISMATCH";
    case HIPBLAS_STATUS_HANDLE_IS_NULLPTR: return "HIPBLAS_STATUS_HANDLE_IS_NULLPTR";
    case HIPBLAS_STATUS_INVALID_ENUM: return "HIPBLAS_STATUS_INVALID_ENUM";
    case HIPBLAS_STATUS_UNKNOWN: return "HIPBLAS_STATUS_UNKNOWN";
  }
  return "<undefined hipblasStatus_t value>";
}

}  // extern "C"
