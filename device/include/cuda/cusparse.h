/*
 * cuSPARSE's API (CUDA 12.4, cuSPARSE 12.3) on the gpusym simulated device:
 * CUDA's types and values, and the functions gpusym's libcusparse provides,
 * each a layer over gpusym's hipSPARSE (device/libraries/cusparse): the
 * handle, its stream and pointer mode, matrix descriptions, and the generic
 * API's CSR, CSC and COO matrices (with the fill mode and diagonal type
 * attributes and strided batches), sparse and dense vectors, dense matrices
 * (strided batches too), SpMV, SpMM, SparseToDense and DenseToSparse, SpGEMM,
 * SDDMM, the triangular solves SpSV and SpSM, and Axpby, Gather, Scatter, Rot
 * and SpVV of a sparse and a dense vector; of the legacy API csrilu02 (with
 * its info and zero pivot), nnz, Csr2cscEx2, Xcsrsort with
 * CreateIdentityPermutation, and gthr; as hipSPARSE computes them.  Functions
 * cuSPARSE has and gpusym does not are not declared: a program calling one
 * fails to compile, naming it.
 */
#ifndef GPUSYM_CUSPARSE_H
#define GPUSYM_CUSPARSE_H
#define CUSPARSE_H_

#include <stddef.h>
#include <stdint.h>

#include "cuComplex.h"
#include "cuda_runtime_api.h"
#include "library_types.h"

#define CUSPARSE_VER_MAJOR 12
#define CUSPARSE_VER_MINOR 3
#define CUSPARSE_VER_PATCH 1
#define CUSPARSE_VER_BUILD 170
#define CUSPARSE_VERSION (CUSPARSE_VER_MAJOR * 1000 + CUSPARSE_VER_MINOR * 100 + CUSPARSE_VER_PATCH)
#define CUSPARSEAPI

typedef enum {
  CUSPARSE_STATUS_SUCCESS = 0,
  CUSPARSE_STATUS_NOT_INITIALIZED = 1,
  CUSPARSE_STATUS_ALLOC_FAILED = 2,
  CUSPARSE_STATUS_INVALID_VALUE = 3,
  CUSPARSE_STATUS_ARCH_MISMATCH = 4,
  CUSPARSE_STATUS_MAPPING_ERROR = 5,
  CUSPARSE_STATUS_EXECUTION_FAILED = 6,
  CUSPARSE_STATUS_INTERNAL_ERROR = 7,
  CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  CUSPARSE_STATUS_ZERO_PIVOT = 9,
  CUSPARSE_STATUS_NOT_SUPPORTED = 10,
  CUSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
} cusparseStatus_t;

typedef enum { CUSPARSE_POINTER_MODE_HOST = 0, CUSPARSE_POINTER_MODE_DEVICE = 1 } cusparsePointerMode_t;
typedef enum { CUSPARSE_ACTION_SYMBOLIC = 0, CUSPARSE_ACTION_NUMERIC = 1 } cusparseAction_t;
typedef enum {
  CUSPARSE_MATRIX_TYPE_GENERAL = 0,
  CUSPARSE_MATRIX_TYPE_SYMMETRIC = 1,
  CUSPARSE_MATRIX_TYPE_HERMITIAN = 2,
  CUSPARSE_MATRIX_TYPE_TRIANGULAR = 3
} cusparseMatrixType_t;
typedef enum { CUSPARSE_FILL_MODE_LOWER = 0, CUSPARSE_FILL_MODE_UPPER = 1 } cusparseFillMode_t;
typedef enum { CUSPARSE_DIAG_TYPE_NON_UNIT = 0, CUSPARSE_DIAG_TYPE_UNIT = 1 } cusparseDiagType_t;
typedef enum { CUSPARSE_INDEX_BASE_ZERO = 0, CUSPARSE_INDEX_BASE_ONE = 1 } cusparseIndexBase_t;
typedef enum {
  CUSPARSE_OPERATION_NON_TRANSPOSE = 0,
  CUSPARSE_OPERATION_TRANSPOSE = 1,
  CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
} cusparseOperation_t;
typedef enum { CUSPARSE_DIRECTION_ROW = 0, CUSPARSE_DIRECTION_COLUMN = 1 } cusparseDirection_t;
typedef enum { CUSPARSE_SOLVE_POLICY_NO_LEVEL = 0, CUSPARSE_SOLVE_POLICY_USE_LEVEL = 1 } cusparseSolvePolicy_t;
typedef enum { CUSPARSE_CSR2CSC_ALG_DEFAULT = 1, CUSPARSE_CSR2CSC_ALG1 = 1 } cusparseCsr2CscAlg_t;

/* The generic API's formats, orders, index types and algorithms (hints). */
typedef enum {
  CUSPARSE_FORMAT_CSR = 1,
  CUSPARSE_FORMAT_CSC = 2,
  CUSPARSE_FORMAT_COO = 3,
  CUSPARSE_FORMAT_BLOCKED_ELL = 5,
  CUSPARSE_FORMAT_BSR = 6,
  CUSPARSE_FORMAT_SLICED_ELLPACK = 7
} cusparseFormat_t;
typedef enum { CUSPARSE_ORDER_COL = 1, CUSPARSE_ORDER_ROW = 2 } cusparseOrder_t;
typedef enum { CUSPARSE_INDEX_16U = 1, CUSPARSE_INDEX_32I = 2, CUSPARSE_INDEX_64I = 3 } cusparseIndexType_t;
typedef enum {
  CUSPARSE_SPMV_ALG_DEFAULT = 0,
  CUSPARSE_SPMV_CSR_ALG1 = 2,
  CUSPARSE_SPMV_CSR_ALG2 = 3,
  CUSPARSE_SPMV_COO_ALG1 = 1,
  CUSPARSE_SPMV_COO_ALG2 = 4,
  CUSPARSE_SPMV_SELL_ALG1 = 5
} cusparseSpMVAlg_t;
typedef enum {
  CUSPARSE_SPMM_ALG_DEFAULT = 0,
  CUSPARSE_SPMM_COO_ALG1 = 1,
  CUSPARSE_SPMM_COO_ALG2 = 2,
  CUSPARSE_SPMM_COO_ALG3 = 3,
  CUSPARSE_SPMM_COO_ALG4 = 5,
  CUSPARSE_SPMM_CSR_ALG1 = 4,
  CUSPARSE_SPMM_CSR_ALG2 = 6,
  CUSPARSE_SPMM_CSR_ALG3 = 12,
  CUSPARSE_SPMM_BLOCKED_ELL_ALG1 = 13
} cusparseSpMMAlg_t;
typedef enum { CUSPARSE_SPARSETODENSE_ALG_DEFAULT = 0 } cusparseSparseToDenseAlg_t;
typedef enum { CUSPARSE_DENSETOSPARSE_ALG_DEFAULT = 0 } cusparseDenseToSparseAlg_t;
typedef enum { CUSPARSE_SDDMM_ALG_DEFAULT = 0 } cusparseSDDMMAlg_t;
typedef enum { CUSPARSE_SPSV_ALG_DEFAULT = 0 } cusparseSpSVAlg_t;
typedef enum { CUSPARSE_SPSM_ALG_DEFAULT = 0 } cusparseSpSMAlg_t;
typedef enum {
  CUSPARSE_SPGEMM_DEFAULT = 0,
  CUSPARSE_SPGEMM_CSR_ALG_DETERMINITIC = 1,
  CUSPARSE_SPGEMM_CSR_ALG_NONDETERMINITIC = 2,
  CUSPARSE_SPGEMM_ALG1 = 3,
  CUSPARSE_SPGEMM_ALG2 = 4,
  CUSPARSE_SPGEMM_ALG3 = 5
} cusparseSpGEMMAlg_t;
/* What the triangular solves read of a sparse matrix (cusparseSpMatSetAttribute). */
typedef enum { CUSPARSE_SPMAT_FILL_MODE = 0, CUSPARSE_SPMAT_DIAG_TYPE = 1 } cusparseSpMatAttribute_t;

/* Opaque objects: the library context, a matrix description, and the
 * generic API's descriptors (the Const ones for data only read). */
struct cusparseContext;
typedef struct cusparseContext *cusparseHandle_t;
struct cusparseMatDescr;
typedef struct cusparseMatDescr *cusparseMatDescr_t;
struct cusparseSpVecDescr;
struct cusparseSpMatDescr;
struct cusparseDnVecDescr;
struct cusparseDnMatDescr;
typedef struct cusparseSpVecDescr *cusparseSpVecDescr_t;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t;
typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef struct cusparseDnMatDescr *cusparseDnMatDescr_t;
typedef struct cusparseSpVecDescr const *cusparseConstSpVecDescr_t;
typedef struct cusparseSpMatDescr const *cusparseConstSpMatDescr_t;
typedef struct cusparseDnVecDescr const *cusparseConstDnVecDescr_t;
typedef struct cusparseDnMatDescr const *cusparseConstDnMatDescr_t;
/* The state SpGEMM, SpSV and SpSM keep between their stages, and the
 * legacy csrilu02's. */
struct cusparseSpGEMMDescr;
struct cusparseSpSVDescr;
struct cusparseSpSMDescr;
typedef struct cusparseSpGEMMDescr *cusparseSpGEMMDescr_t;
typedef struct cusparseSpSVDescr *cusparseSpSVDescr_t;
typedef struct cusparseSpSMDescr *cusparseSpSMDescr_t;
struct csrilu02Info;
typedef struct csrilu02Info *csrilu02Info_t;

#ifdef __cplusplus
extern "C" {
#endif

cusparseStatus_t cusparseGetVersion(cusparseHandle_t handle, int *version);
cusparseStatus_t cusparseGetProperty(libraryPropertyType type, int *value);
const char *cusparseGetErrorName(cusparseStatus_t status);
const char *cusparseGetErrorString(cusparseStatus_t status);
cusparseMatrixType_t cusparseGetMatType(const cusparseMatDescr_t descrA);
cusparseFillMode_t cusparseGetMatFillMode(const cusparseMatDescr_t descrA);
cusparseDiagType_t cusparseGetMatDiagType(const cusparseMatDescr_t descrA);
cusparseIndexBase_t cusparseGetMatIndexBase(const cusparseMatDescr_t descrA);

#define GPUSYM_CUSPARSE(name, hip, parameters, arguments) cusparseStatus_t name parameters;
#include "cusparse_gpusym_functions.h"
#undef GPUSYM_CUSPARSE

#ifdef __cplusplus
}
#endif

#endif
