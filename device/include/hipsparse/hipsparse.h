/*
 * hipSPARSE for the gpusym simulated device: the API of ROCm 6.2's
 * hipSPARSE (3.1), its types, values and every function, implemented on the
 * CPU by gpusym's libhipsparse (device/libraries/hipsparse).  A function it
 * does not implement returns HIPSPARSE_STATUS_NOT_SUPPORTED.
 */
#ifndef HIPSPARSE_H
#define HIPSPARSE_H

#include "hipsparse-export.h"
#include "hipsparse-version.h"
#include <hip/hip_complex.h>
#include <hip/hip_runtime_api.h>
#include <hip/library_types.h>
#include <stdint.h>

/* Deprecation markers by CUDA version: nothing on the AMD platform. */
#define DEPRECATED_CUDA_12000(warning)
#define DEPRECATED_CUDA_11000(warning)
#define DEPRECATED_CUDA_10000(warning)
#define DEPRECATED_CUDA_9000(warning)
#define HIPSPARSE_HAS_DEPRECATED_MSG 0
#define HIPSPARSE_DEPRECATED_MSG(MSG)

/* Opaque objects: a library context, matrix descriptions and the state of
 * the classic solvers and conversions. */
typedef void *hipsparseHandle_t;
typedef void *hipsparseMatDescr_t;
typedef void *hipsparseHybMat_t;
typedef void *hipsparseColorInfo_t;
struct bsrsv2Info;
struct bsrsm2Info;
struct bsrilu02Info;
struct bsric02Info;
struct csrsv2Info;
struct csrsm2Info;
struct csrilu02Info;
struct csric02Info;
struct csrgemm2Info;
struct pruneInfo;
struct csru2csrInfo;
typedef struct bsrsv2Info *bsrsv2Info_t;
typedef struct bsrsm2Info *bsrsm2Info_t;
typedef struct bsrilu02Info *bsrilu02Info_t;
typedef struct bsric02Info *bsric02Info_t;
typedef struct csrsv2Info *csrsv2Info_t;
typedef struct csrsm2Info *csrsm2Info_t;
typedef struct csrilu02Info *csrilu02Info_t;
typedef struct csric02Info *csric02Info_t;
typedef struct csrgemm2Info *csrgemm2Info_t;
typedef struct pruneInfo *pruneInfo_t;
typedef struct csru2csrInfo *csru2csrInfo_t;

typedef enum {
  HIPSPARSE_STATUS_SUCCESS = 0,
  HIPSPARSE_STATUS_NOT_INITIALIZED = 1,
  HIPSPARSE_STATUS_ALLOC_FAILED = 2,
  HIPSPARSE_STATUS_INVALID_VALUE = 3,
  HIPSPARSE_STATUS_ARCH_MISMATCH = 4,
  HIPSPARSE_STATUS_MAPPING_ERROR = 5,
  HIPSPARSE_STATUS_EXECUTION_FAILED = 6,
  HIPSPARSE_STATUS_INTERNAL_ERROR = 7,
  HIPSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  HIPSPARSE_STATUS_ZERO_PIVOT = 9,
  HIPSPARSE_STATUS_NOT_SUPPORTED = 10,
  HIPSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
} hipsparseStatus_t;

typedef enum { HIPSPARSE_POINTER_MODE_HOST = 0, HIPSPARSE_POINTER_MODE_DEVICE = 1 } hipsparsePointerMode_t;
typedef enum { HIPSPARSE_ACTION_SYMBOLIC = 0, HIPSPARSE_ACTION_NUMERIC = 1 } hipsparseAction_t;
typedef enum {
  HIPSPARSE_MATRIX_TYPE_GENERAL = 0,
  HIPSPARSE_MATRIX_TYPE_SYMMETRIC = 1,
  HIPSPARSE_MATRIX_TYPE_HERMITIAN = 2,
  HIPSPARSE_MATRIX_TYPE_TRIANGULAR = 3
} hipsparseMatrixType_t;
typedef enum { HIPSPARSE_FILL_MODE_LOWER = 0, HIPSPARSE_FILL_MODE_UPPER = 1 } hipsparseFillMode_t;
typedef enum { HIPSPARSE_DIAG_TYPE_NON_UNIT = 0, HIPSPARSE_DIAG_TYPE_UNIT = 1 } hipsparseDiagType_t;
typedef enum { HIPSPARSE_INDEX_BASE_ZERO = 0, HIPSPARSE_INDEX_BASE_ONE = 1 } hipsparseIndexBase_t;
typedef enum {
  HIPSPARSE_OPERATION_NON_TRANSPOSE = 0,
  HIPSPARSE_OPERATION_TRANSPOSE = 1,
  HIPSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
} hipsparseOperation_t;
typedef enum {
  HIPSPARSE_HYB_PARTITION_AUTO = 0,
  HIPSPARSE_HYB_PARTITION_USER = 1,
  HIPSPARSE_HYB_PARTITION_MAX = 2
} hipsparseHybPartition_t;
typedef enum { HIPSPARSE_SOLVE_POLICY_NO_LEVEL = 0, HIPSPARSE_SOLVE_POLICY_USE_LEVEL = 1 } hipsparseSolvePolicy_t;
typedef enum { HIPSPARSE_SIDE_LEFT = 0, HIPSPARSE_SIDE_RIGHT = 1 } hipsparseSideMode_t;
typedef enum { HIPSPARSE_DIRECTION_ROW = 0, HIPSPARSE_DIRECTION_COLUMN = 1 } hipsparseDirection_t;

typedef enum {
  HIPSPARSE_CSR2CSC_ALG_DEFAULT = 0,
  HIPSPARSE_CSR2CSC_ALG1 = 1,
  HIPSPARSE_CSR2CSC_ALG2 = 2
} hipsparseCsr2CscAlg_t;

/* The generic API's descriptors: sparse and dense vectors and matrices. */
typedef void *hipsparseSpVecDescr_t;
typedef void *hipsparseDnVecDescr_t;
typedef void *hipsparseSpMatDescr_t;
typedef void *hipsparseDnMatDescr_t;
typedef void const *hipsparseConstSpVecDescr_t;
typedef void const *hipsparseConstDnVecDescr_t;
typedef void const *hipsparseConstSpMatDescr_t;
typedef void const *hipsparseConstDnMatDescr_t;
struct hipsparseSpGEMMDescr;
struct hipsparseSpSVDescr;
struct hipsparseSpSMDescr;
typedef struct hipsparseSpGEMMDescr *hipsparseSpGEMMDescr_t;
typedef struct hipsparseSpSVDescr *hipsparseSpSVDescr_t;
typedef struct hipsparseSpSMDescr *hipsparseSpSMDescr_t;

typedef enum {
  HIPSPARSE_FORMAT_CSR = 1,
  HIPSPARSE_FORMAT_CSC = 2,
  HIPSPARSE_FORMAT_COO = 3,
  HIPSPARSE_FORMAT_COO_AOS = 4,
  HIPSPARSE_FORMAT_BLOCKED_ELL = 5
} hipsparseFormat_t;
typedef enum { HIPSPARSE_ORDER_COLUMN = 1, HIPSPARSE_ORDER_COL = 1, HIPSPARSE_ORDER_ROW = 2 } hipsparseOrder_t;
typedef enum { HIPSPARSE_INDEX_16U = 1, HIPSPARSE_INDEX_32I = 2, HIPSPARSE_INDEX_64I = 3 } hipsparseIndexType_t;
typedef enum {
  HIPSPARSE_MV_ALG_DEFAULT = 0,
  HIPSPARSE_COOMV_ALG = 1,
  HIPSPARSE_CSRMV_ALG1 = 2,
  HIPSPARSE_CSRMV_ALG2 = 3,
  HIPSPARSE_SPMV_ALG_DEFAULT = 0,
  HIPSPARSE_SPMV_COO_ALG1 = 1,
  HIPSPARSE_SPMV_CSR_ALG1 = 2,
  HIPSPARSE_SPMV_CSR_ALG2 = 3,
  HIPSPARSE_SPMV_COO_ALG2 = 4
} hipsparseSpMVAlg_t;
typedef enum {
  HIPSPARSE_MM_ALG_DEFAULT = 0,
  HIPSPARSE_COOMM_ALG1 = 1,
  HIPSPARSE_COOMM_ALG2 = 2,
  HIPSPARSE_COOMM_ALG3 = 3,
  HIPSPARSE_CSRMM_ALG1 = 4,
  HIPSPARSE_SPMM_ALG_DEFAULT = 0,
  HIPSPARSE_SPMM_COO_ALG1 = 1,
  HIPSPARSE_SPMM_COO_ALG2 = 2,
  HIPSPARSE_SPMM_COO_ALG3 = 3,
  HIPSPARSE_SPMM_COO_ALG4 = 5,
  HIPSPARSE_SPMM_CSR_ALG1 = 4,
  HIPSPARSE_SPMM_CSR_ALG2 = 6,
  HIPSPARSE_SPMM_CSR_ALG3 = 12,
  HIPSPARSE_SPMM_BLOCKED_ELL_ALG1 = 13
} hipsparseSpMMAlg_t;
typedef enum { HIPSPARSE_SPARSETODENSE_ALG_DEFAULT = 0 } hipsparseSparseToDenseAlg_t;
typedef enum { HIPSPARSE_DENSETOSPARSE_ALG_DEFAULT = 0 } hipsparseDenseToSparseAlg_t;
typedef enum { HIPSPARSE_SDDMM_ALG_DEFAULT = 0 } hipsparseSDDMMAlg_t;
typedef enum { HIPSPARSE_SPSV_ALG_DEFAULT = 0 } hipsparseSpSVAlg_t;
typedef enum { HIPSPARSE_SPSM_ALG_DEFAULT = 0 } hipsparseSpSMAlg_t;
typedef enum { HIPSPARSE_SPMAT_FILL_MODE = 0, HIPSPARSE_SPMAT_DIAG_TYPE = 1 } hipsparseSpMatAttribute_t;
typedef enum {
  HIPSPARSE_SPGEMM_DEFAULT = 0,
  HIPSPARSE_SPGEMM_CSR_ALG_DETERMINISTIC = 1,
  HIPSPARSE_SPGEMM_CSR_ALG_NONDETERMINISTIC = 2,
  HIPSPARSE_SPGEMM_ALG1 = 3,
  HIPSPARSE_SPGEMM_ALG2 = 4,
  HIPSPARSE_SPGEMM_ALG3 = 5
} hipsparseSpGEMMAlg_t;

#ifdef __cplusplus
extern "C" {
#endif

/* Every function of hipSPARSE 3.1, declared from one table. */
#define GPUSYM_API_FUNCTION(result, name, parameters) HIPSPARSE_EXPORT result name parameters;
#include "gpusym_functions.h"
#undef GPUSYM_API_FUNCTION

#ifdef __cplusplus
}
#endif

#endif
