// cuBLAS over gpusym's hipBLAS: each function translates CUDA's enumerations
// to hipBLAS's, calls its hipBLAS twin and translates the status back.  A
// cublasHandle_t is a hipblasHandle_t; cuComplex is hipComplex and __half
// hipBLAS's half (HIPBLAS_USE_HIP_HALF), so pointers pass unchanged.
#define HIPBLAS_USE_HIP_HALF
#include <cublas_v2.h>
#include <hipblas/hipblas.h>

#include <algorithm>
#include <memory>
#include <vector>

#include "stream_work.h"

namespace {

cublasStatus_t status(hipblasStatus_t status) {
  switch (status) {
    case HIPBLAS_STATUS_SUCCESS: return CUBLAS_STATUS_SUCCESS;
    case HIPBLAS_STATUS_NOT_INITIALIZED:
    case HIPBLAS_STATUS_HANDLE_IS_NULLPTR: return CUBLAS_STATUS_NOT_INITIALIZED;
    case HIPBLAS_STATUS_ALLOC_FAILED: return CUBLAS_STATUS_ALLOC_FAILED;
    case HIPBLAS_STATUS_INVALID_VALUE:
    case HIPBLAS_STATUS_INVALID_ENUM: return CUBLAS_STATUS_INVALID_VALUE;
    case HIPBLAS_STATUS_MAPPING_ERROR: return CUBLAS_STATUS_MAPPING_ERROR;
    case HIPBLAS_STATUS_EXECUTION_FAILED: return CUBLAS_STATUS_EXECUTION_FAILED;
    case HIPBLAS_STATUS_NOT_SUPPORTED: return CUBLAS_STATUS_NOT_SUPPORTED;
    case HIPBLAS_STATUS_ARCH_MISMATCH: return CUBLAS_STATUS_ARCH_MISMATCH;
    default: return CUBLAS_STATUS_INTERNAL_ERROR;
  }
}

// An argument as hipBLAS takes it: CUDA's enumerations mapped (a value with
// no hipBLAS twin to one hipBLAS refuses), everything else unchanged.
template <class T> T hip(T value) { return value; }
hipblasHandle_t hip(cublasHandle_t handle) { return handle; }
hipblasOperation_t hip(cublasOperation_t op) {
  switch (op) {
    case CUBLAS_OP_N: return HIPBLAS_OP_N;
    case CUBLAS_OP_T: return HIPBLAS_OP_T;
    case CUBLAS_OP_C: return HIPBLAS_OP_C;
    default: return hipblasOperation_t(0);
  }
}
hipblasFillMode_t hip(cublasFillMode_t fill) {
  switch (fill) {
    case CUBLAS_FILL_MODE_LOWER: return HIPBLAS_FILL_MODE_LOWER;
    case CUBLAS_FILL_MODE_UPPER: return HIPBLAS_FILL_MODE_UPPER;
    case CUBLAS_FILL_MODE_FULL: return HIPBLAS_FILL_MODE_FULL;
    default: return hipblasFillMode_t(0);
  }
}
hipblasDiagType_t hip(cublasDiagType_t diag) {
  return diag == CUBLAS_DIAG_NON_UNIT ? HIPBLAS_DIAG_NON_UNIT
         : diag == CUBLAS_DIAG_UNIT   ? HIPBLAS_DIAG_UNIT
                                      : hipblasDiagType_t(0);
}
hipblasSideMode_t hip(cublasSideMode_t side) {
  return side == CUBLAS_SIDE_LEFT ? HIPBLAS_SIDE_LEFT : side == CUBLAS_SIDE_RIGHT ? HIPBLAS_SIDE_RIGHT : hipblasSideMode_t(0);
}
hipDataType hip(cudaDataType type) { return hipDataType(type); }  // the same values
hipblasGemmAlgo_t hip(cublasGemmAlgo_t) { return HIPBLAS_GEMM_DEFAULT; }

// The compute type of a gemm: cuBLAS's, or the cudaDataType older code
// passes (CUDA_R_32F for CUBLAS_COMPUTE_32F, ...).  Unknown values give one
// hipBLAS does not compute in.
hipblasComputeType_t hip(cublasComputeType_t type) {
  switch (int(type)) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
    case CUDA_R_16F: return HIPBLAS_COMPUTE_16F;
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUDA_R_32F:
    case CUDA_C_32F: return HIPBLAS_COMPUTE_32F;
    case CUBLAS_COMPUTE_32F_FAST_16F: return HIPBLAS_COMPUTE_32F_FAST_16F;
    case CUBLAS_COMPUTE_32F_FAST_16BF: return HIPBLAS_COMPUTE_32F_FAST_16BF;
    case CUBLAS_COMPUTE_32F_FAST_TF32: return HIPBLAS_COMPUTE_32F_FAST_TF32;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC:
    case CUDA_R_64F:
    case CUDA_C_64F: return HIPBLAS_COMPUTE_64F;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC:
    case CUDA_R_32I: return HIPBLAS_COMPUTE_32I;
    default: return hipblasComputeType_t(-1);
  }
}

template <class... P, class... A> cublasStatus_t call(hipblasStatus_t (*function)(P...), A... arguments) {
  return status(function(hip(arguments)...));
}

// Keeps `scratch`, memory the work queued on the handle's stream reads,
// until that work has run (for good while the stream is captured: a graph
// may run it again).
template <class S> cublasStatus_t keep_until_run(cublasHandle_t handle, std::shared_ptr<S> scratch) {
  hipStream_t stream = nullptr;
  if (hipblasGetStream(handle, &stream) != HIPBLAS_STATUS_SUCCESS ||
      gpusym_library::in_stream_order(stream, [scratch] {}) != hipSuccess)
    return CUBLAS_STATUS_EXECUTION_FAILED;
  return CUBLAS_STATUS_SUCCESS;
}

// cuBLAS's getrs takes null pivots as none; hipBLAS's wants them: the
// identity's, n for each matrix.
template <class T, class G>
cublasStatus_t getrs_batched(G hip_getrs, cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,
                             const T *const A[], int lda, const int *pivots, T *const B[], int ldb, int *info,
                             int count) {
  std::shared_ptr<std::vector<int>> identity;
  if (!pivots && n > 0 && count > 0) {
    identity = std::make_shared<std::vector<int>>(size_t(n) * count);
    for (size_t i = 0; i < identity->size(); i++) (*identity)[i] = int(i % n) + 1;
    pivots = identity->data();
  }
  // hipBLAS's arrays and pivots are not const; it only reads them.
  cublasStatus_t result =
      call(hip_getrs, handle, trans, n, nrhs, const_cast<T *const *>(A), lda, pivots, B, ldb, info, count);
  return identity && result == CUBLAS_STATUS_SUCCESS ? keep_until_run(handle, identity) : result;
}

// Each A inverted into Ainv by getrf and getri on a copy of it (A is
// read-only), for n <= 32 as cuBLAS's.
template <class T, class F, class I>
cublasStatus_t matinv_batched(F hip_getrf, I hip_getri, cublasHandle_t handle, int n, const T *const A[], int lda,
                              T *const Ainv[], int lda_inv, int *info, int count) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (n < 0 || n > 32 || lda < std::max(1, n) || lda_inv < std::max(1, n) || count < 0 ||
      (n > 0 && count > 0 && (!A || !Ainv)))
    return CUBLAS_STATUS_INVALID_VALUE;
  struct Factors {
    std::vector<T> lu;
    std::vector<T *> matrices;
    std::vector<int> pivots;
  };
  auto factors = std::make_shared<Factors>();
  int ld = std::max(1, n);
  factors->lu.resize(size_t(ld) * n * count);
  factors->pivots.resize(size_t(n) * count);
  for (int i = 0; i < count; i++) factors->matrices.push_back(factors->lu.data() + size_t(i) * ld * n);
  T *const *lu = factors->matrices.data();
  hipStream_t stream = nullptr;
  if (hipblasGetStream(handle, &stream) != HIPBLAS_STATUS_SUCCESS) return CUBLAS_STATUS_EXECUTION_FAILED;
  bool copying = gpusym_library::in_stream_order(stream, [=] {
                   for (int i = 0; i < count; i++)
                     for (int j = 0; j < n; j++) std::copy_n(A[i] + size_t(j) * lda, n, lu[i] + size_t(j) * ld);
                 }) == hipSuccess;
  if (!copying) return CUBLAS_STATUS_EXECUTION_FAILED;
  cublasStatus_t result = call(hip_getrf, handle, n, lu, ld, factors->pivots.data(), info, count);
  if (result == CUBLAS_STATUS_SUCCESS)
    result = call(hip_getri, handle, n, lu, ld, factors->pivots.data(), Ainv, lda_inv, info, count);
  cublasStatus_t kept = keep_until_run(handle, factors);
  return result == CUBLAS_STATUS_SUCCESS ? kept : result;
}

}  // namespace

extern "C" {

cublasStatus_t cublasCreate_v2(cublasHandle_t *handle) {
  return status(hipblasCreate(reinterpret_cast<hipblasHandle_t *>(handle)));
}
cublasStatus_t cublasDestroy_v2(cublasHandle_t handle) { return call(hipblasDestroy, handle); }

cublasStatus_t cublasGetVersion_v2(cublasHandle_t handle, int *version) {
  if (!handle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!version) return CUBLAS_STATUS_INVALID_VALUE;
  *version = CUBLAS_VERSION;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasGetProperty(libraryPropertyType type, int *value) {
  if (!value) return CUBLAS_STATUS_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; return CUBLAS_STATUS_SUCCESS;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; return CUBLAS_STATUS_SUCCESS;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; return CUBLAS_STATUS_SUCCESS;
  }
  return CUBLAS_STATUS_INVALID_VALUE;
}

size_t cublasGetCudartVersion(void) { return CUDART_VERSION; }

const char *cublasGetStatusName(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "CUBLAS_STATUS_SUCCESS";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "CUBLAS_STATUS_NOT_INITIALIZED";
    case CUBLAS_STATUS_ALLOC_FAILED: return "CUBLAS_STATUS_ALLOC_FAILED";
    case CUBLAS_STATUS_INVALID_VALUE: return "CUBLAS_STATUS_INVALID_VALUE";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "CUBLAS_STATUS_ARCH_MISMATCH";
    case CUBLAS_STATUS_MAPPING_ERROR: return "CUBLAS_STATUS_MAPPING_ERROR";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "CUBLAS_STATUS_EXECUTION_FAILED";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "CUBLAS_STATUS_INTERNAL_ERROR";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "CUBLAS_STATUS_NOT_SUPPORTED";
    case CUBLAS_STATUS_LICENSE_ERROR: return "CUBLAS_STATUS_LICENSE_ERROR";
  }
  return "CUBLAS_STATUS_UNKNOWN";
}

const char *cublasGetStatusString(cublasStatus_t status) {
  switch (status) {
    case CUBLAS_STATUS_SUCCESS: return "success";
    case CUBLAS_STATUS_NOT_INITIALIZED: return "the library was not initialized";
    case CUBLAS_STATUS_ALLOC_FAILED: return "the resource allocation failed";
    case CUBLAS_STATUS_INVALID_VALUE: return "an invalid value was used as an argument";
    case CUBLAS_STATUS_ARCH_MISMATCH: return "the device does not support this architecture";
    case CUBLAS_STATUS_MAPPING_ERROR: return "an access to device memory failed";
    case CUBLAS_STATUS_EXECUTION_FAILED: return "the device program failed to execute";
    case CUBLAS_STATUS_INTERNAL_ERROR: return "an internal operation failed";
    case CUBLAS_STATUS_NOT_SUPPORTED: return "the functionality is not supported";
    case CUBLAS_STATUS_LICENSE_ERROR: return "a license error";
  }
  return "an unknown status";
}

cublasStatus_t cublasSetWorkspace_v2(cublasHandle_t handle, void *, size_t) {
  return handle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_NOT_INITIALIZED;
}
cublasStatus_t cublasSetStream_v2(cublasHandle_t handle, cudaStream_t stream) {
  return call(hipblasSetStream, handle, stream);
}
cublasStatus_t cublasGetStream_v2(cublasHandle_t handle, cudaStream_t *stream) {
  return call(hipblasGetStream, handle, stream);
}
cublasStatus_t cublasSetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t mode) {
  return call(hipblasSetPointerMode, handle, hipblasPointerMode_t(mode));
}
cublasStatus_t cublasGetPointerMode_v2(cublasHandle_t handle, cublasPointerMode_t *mode) {
  return call(hipblasGetPointerMode, handle, reinterpret_cast<hipblasPointerMode_t *>(mode));
}
cublasStatus_t cublasSetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t mode) {
  return call(hipblasSetAtomicsMode, handle, hipblasAtomicsMode_t(mode));
}
cublasStatus_t cublasGetAtomicsMode(cublasHandle_t handle, cublasAtomicsMode_t *mode) {
  return call(hipblasGetAtomicsMode, handle, reinterpret_cast<hipblasAtomicsMode_t *>(mode));
}
cublasStatus_t cublasSetMathMode(cublasHandle_t handle, cublasMath_t mode) {
  // Kept as its CUDA value: the mode changes nothing on the CPU.
  return call(hipblasSetMathMode, handle, hipblasMath_t(mode));
}
cublasStatus_t cublasGetMathMode(cublasHandle_t handle, cublasMath_t *mode) {
  return call(hipblasGetMathMode, handle, reinterpret_cast<hipblasMath_t *>(mode));
}

cublasStatus_t cublasSetVector(int n, int size, const void *x, int incx, void *y, int incy) {
  return call(hipblasSetVector, n, size, x, incx, y, incy);
}
cublasStatus_t cublasGetVector(int n, int size, const void *x, int incx, void *y, int incy) {
  return call(hipblasGetVector, n, size, x, incx, y, incy);
}
cublasStatus_t cublasSetMatrix(int rows, int cols, int size, const void *A, int lda, void *B, int ldb) {
  return call(hipblasSetMatrix, rows, cols, size, A, lda, B, ldb);
}
cublasStatus_t cublasGetMatrix(int rows, int cols, int size, const void *A, int lda, void *B, int ldb) {
  return call(hipblasGetMatrix, rows, cols, size, A, lda, B, ldb);
}
cublasStatus_t cublasSetVectorAsync(int n, int size, const void *x, int incx, void *y, int incy, cudaStream_t stream) {
  return call(hipblasSetVectorAsync, n, size, x, incx, y, incy, stream);
}
cublasStatus_t cublasGetVectorAsync(int n, int size, const void *x, int incx, void *y, int incy, cudaStream_t stream) {
  return call(hipblasGetVectorAsync, n, size, x, incx, y, incy, stream);
}
cublasStatus_t cublasSetMatrixAsync(int rows, int cols, int size, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream) {
  return call(hipblasSetMatrixAsync, rows, cols, size, A, lda, B, ldb, stream);
}
cublasStatus_t cublasGetMatrixAsync(int rows, int cols, int size, const void *A, int lda, void *B, int ldb,
                                    cudaStream_t stream) {
  return call(hipblasGetMatrixAsync, rows, cols, size, A, lda, B, ldb, stream);
}

#define GPUSYM_CUBLAS(name, hip_function, parameters, arguments) \
  cublasStatus_t name parameters { return call(hip_function, GPUSYM_UNPACK arguments); }
#define GPUSYM_UNPACK(...) __VA_ARGS__
#include <cublas_gpusym_functions.h>
#undef GPUSYM_CUBLAS

#define GPUSYM_CUBLAS_LU_BATCHED(p, T, v2)                                                                     \
  cublasStatus_t cublas##p##getrsBatched(cublasHandle_t handle, cublasOperation_t trans, int n, int nrhs,         \
                                         const T *const Aarray[], int lda, const int *devIpiv, T *const Barray[], \
                                         int ldb, int *info, int batchSize) {                                    \
    return getrs_batched(hipblas##p##getrsBatched##v2, handle, trans, n, nrhs, Aarray, lda, devIpiv, Barray, ldb, \
                         info, batchSize);                                                                       \
  }                                                                                                              \
  cublasStatus_t cublas##p##getriBatched(cublasHandle_t handle, int n, const T *const A[], int lda, const int *P,  \
                                         T *const C[], int ldc, int *info, int batchSize) {                      \
    return call(hipblas##p##getriBatched##v2, handle, n, const_cast<T *const *>(A), lda, const_cast<int *>(P), C, \
                ldc, info, batchSize);                                                                           \
  }                                                                                                              \
  cublasStatus_t cublas##p##matinvBatched(cublasHandle_t handle, int n, const T *const A[], int lda,              \
                                          T *const Ainv[], int lda_inv, int *info, int batchSize) {              \
    return matinv_batched(hipblas##p##getrfBatched##v2, hipblas##p##getriBatched##v2, handle, n, A, lda, Ainv,    \
                          lda_inv, info, batchSize);                                                             \
  }
GPUSYM_CUBLAS_LU_BATCHED(S, float, )
GPUSYM_CUBLAS_LU_BATCHED(D, double, )
GPUSYM_CUBLAS_LU_BATCHED(C, cuComplex, _v2)
GPUSYM_CUBLAS_LU_BATCHED(Z, cuDoubleComplex, _v2)
#undef GPUSYM_CUBLAS_LU_BATCHED

cublasStatus_t cublasGemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                            int k, const void *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                            cudaDataType Btype, int ldb, const void *beta, void *C, cudaDataType Ctype, int ldc,
                            cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  return call(hipblasGemmEx_v2, handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype,
              ldc, computeType, algo);
}

cublasStatus_t cublasDotEx(cublasHandle_t handle, int n, const void *x, cudaDataType xType, int incx, const void *y,
                           cudaDataType yType, int incy, void *result, cudaDataType resultType,
                           cudaDataType executionType) {
  return call(hipblasDotEx_v2, handle, n, x, xType, incx, y, yType, incy, result, resultType, executionType);
}

cublasStatus_t cublasDotcEx(cublasHandle_t handle, int n, const void *x, cudaDataType xType, int incx, const void *y,
                            cudaDataType yType, int incy, void *result, cudaDataType resultType,
                            cudaDataType executionType) {
  return call(hipblasDotcEx_v2, handle, n, x, xType, incx, y, yType, incy, result, resultType, executionType);
}

cublasStatus_t cublasGemmBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m,
                                   int n, int k, const void *alpha, const void *const Aarray[], cudaDataType Atype,
                                   int lda, const void *const Barray[], cudaDataType Btype, int ldb, const void *beta,
                                   void *const Carray[], cudaDataType Ctype, int ldc, int batchCount,
                                   cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  // hipBLAS's arrays of pointers are not const; it only reads them.
  return call(hipblasGemmBatchedEx_v2, handle, transa, transb, m, n, k, alpha, const_cast<const void **>(Aarray),
              Atype, lda, const_cast<const void **>(Barray), Btype, ldb, beta, const_cast<void **>(Carray), Ctype, ldc,
              batchCount, computeType, algo);
}

cublasStatus_t cublasGemmStridedBatchedEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb,
                                          int m, int n, int k, const void *alpha, const void *A, cudaDataType Atype,
                                          int lda, long long int strideA, const void *B, cudaDataType Btype, int ldb,
                                          long long int strideB, const void *beta, void *C, cudaDataType Ctype,
                                          int ldc, long long int strideC, int batchCount,
                                          cublasComputeType_t computeType, cublasGemmAlgo_t algo) {
  return call(hipblasGemmStridedBatchedEx_v2, handle, transa, transb, m, n, k, alpha, A, Atype, lda, strideA, B, Btype,
              ldb, strideB, beta, C, Ctype, ldc, strideC, batchCount, computeType, algo);
}

cublasStatus_t cublasSgemmEx(cublasHandle_t handle, cublasOperation_t transa, cublasOperation_t transb, int m, int n,
                             int k, const float *alpha, const void *A, cudaDataType Atype, int lda, const void *B,
                             cudaDataType Btype, int ldb, const float *beta, void *C, cudaDataType Ctype, int ldc) {
  return cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb, beta, C, Ctype, ldc,
                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);
}

}  // extern "C"
