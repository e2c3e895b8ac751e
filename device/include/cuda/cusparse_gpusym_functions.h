/*
 * cuSPARSE's functions that gpusym provides and that return a status, one
 * table entry each: GPUSYM_CUSPARSE(name, hipSPARSE function it calls,
 * parameters, arguments).  cusparse.h declares them; gpusym's libcusparse
 * (device/libraries/cusparse) defines each as a call of its hipSPARSE twin.
 * No include guard: expanded once per definition of GPUSYM_CUSPARSE.
 */

/* ---- the library and its handles ---- */
GPUSYM_CUSPARSE(cusparseCreate, hipsparseCreate, (cusparseHandle_t *handle), (handle))
GPUSYM_CUSPARSE(cusparseDestroy, hipsparseDestroy, (cusparseHandle_t handle), (handle))
GPUSYM_CUSPARSE(cusparseSetStream, hipsparseSetStream, (cusparseHandle_t handle, cudaStream_t streamId), (handle, streamId))
GPUSYM_CUSPARSE(cusparseGetStream, hipsparseGetStream, (cusparseHandle_t handle, cudaStream_t *streamId),
                (handle, streamId))
GPUSYM_CUSPARSE(cusparseGetPointerMode, hipsparseGetPointerMode, (cusparseHandle_t handle, cusparsePointerMode_t *mode),
                (handle, mode))
GPUSYM_CUSPARSE(cusparseSetPointerMode, hipsparseSetPointerMode, (cusparseHandle_t handle, cusparsePointerMode_t mode),
                (handle, mode))

/* ---- matrix descriptions (the legacy API's) ---- */
GPUSYM_CUSPARSE(cusparseCreateMatDescr, hipsparseCreateMatDescr, (cusparseMatDescr_t *descrA), (descrA))
GPUSYM_CUSPARSE(cusparseDestroyMatDescr, hipsparseDestroyMatDescr, (cusparseMatDescr_t descrA), (descrA))
GPUSYM_CUSPARSE(cusparseSetMatType, hipsparseSetMatType, (cusparseMatDescr_t descrA, cusparseMatrixType_t type),
                (descrA, type))
GPUSYM_CUSPARSE(cusparseSetMatFillMode, hipsparseSetMatFillMode, (cusparseMatDescr_t descrA, cusparseFillMode_t fillMode),
                (descrA, fillMode))
GPUSYM_CUSPARSE(cusparseSetMatDiagType, hipsparseSetMatDiagType, (cusparseMatDescr_t descrA, cusparseDiagType_t diagType),
                (descrA, diagType))
GPUSYM_CUSPARSE(cusparseSetMatIndexBase, hipsparseSetMatIndexBase, (cusparseMatDescr_t descrA, cusparseIndexBase_t base),
                (descrA, base))

/* ---- the generic API: sparse matrices ---- */
#define GPUSYM_CUSPARSE_COMPRESSED(name, hip, V, I)                                                             \
  GPUSYM_CUSPARSE(name, hip,                                                                                    \
                  (I *spMatDescr, int64_t rows, int64_t cols, int64_t nnz, V *offsets, V *indices, V *values,   \
                   cusparseIndexType_t offsetsType, cusparseIndexType_t indicesType, cusparseIndexBase_t idxBase, \
                   cudaDataType valueType),                                                                     \
                  (spMatDescr, rows, cols, nnz, offsets, indices, values, offsetsType, indicesType, idxBase, valueType))
GPUSYM_CUSPARSE_COMPRESSED(cusparseCreateCsr, hipsparseCreateCsr, void, cusparseSpMatDescr_t)
GPUSYM_CUSPARSE_COMPRESSED(cusparseCreateConstCsr, hipsparseCreateConstCsr, const void, cusparseConstSpMatDescr_t)
GPUSYM_CUSPARSE_COMPRESSED(cusparseCreateCsc, hipsparseCreateCsc, void, cusparseSpMatDescr_t)
GPUSYM_CUSPARSE_COMPRESSED(cusparseCreateConstCsc, hipsparseCreateConstCsc, const void, cusparseConstSpMatDescr_t)
#undef GPUSYM_CUSPARSE_COMPRESSED
#define GPUSYM_CUSPARSE_COO(name, hip, V, I)                                                                   \
  GPUSYM_CUSPARSE(name, hip,                                                                                    \
                  (I *spMatDescr, int64_t rows, int64_t cols, int64_t nnz, V *cooRowInd, V *cooColInd,          \
                   V *cooValues, cusparseIndexType_t cooIdxType, cusparseIndexBase_t idxBase, cudaDataType valueType), \
                  (spMatDescr, rows, cols, nnz, cooRowInd, cooColInd, cooValues, cooIdxType, idxBase, valueType))
GPUSYM_CUSPARSE_COO(cusparseCreateCoo, hipsparseCreateCoo, void, cusparseSpMatDescr_t)
GPUSYM_CUSPARSE_COO(cusparseCreateConstCoo, hipsparseCreateConstCoo, const void, cusparseConstSpMatDescr_t)
#undef GPUSYM_CUSPARSE_COO
GPUSYM_CUSPARSE(cusparseDestroySpMat, hipsparseDestroySpMat, (cusparseConstSpMatDescr_t spMatDescr), (spMatDescr))
GPUSYM_CUSPARSE(cusparseCsrGet, hipsparseCsrGet,
                (cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz, void **csrRowOffsets,
                 void **csrColInd, void **csrValues, cusparseIndexType_t *csrRowOffsetsType,
                 cusparseIndexType_t *csrColIndType, cusparseIndexBase_t *idxBase, cudaDataType *valueType),
                (spMatDescr, rows, cols, nnz, csrRowOffsets, csrColInd, csrValues, csrRowOffsetsType, csrColIndType,
                 idxBase, valueType))
GPUSYM_CUSPARSE(cusparseCsrSetPointers, hipsparseCsrSetPointers,
                (cusparseSpMatDescr_t spMatDescr, void *csrRowOffsets, void *csrColInd, void *csrValues),
                (spMatDescr, csrRowOffsets, csrColInd, csrValues))
GPUSYM_CUSPARSE(cusparseSpMatGetSize, hipsparseSpMatGetSize,
                (cusparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz),
                (spMatDescr, rows, cols, nnz))
GPUSYM_CUSPARSE(cusparseSpMatGetFormat, hipsparseSpMatGetFormat,
                (cusparseConstSpMatDescr_t spMatDescr, cusparseFormat_t *format), (spMatDescr, format))
GPUSYM_CUSPARSE(cusparseSpMatGetIndexBase, hipsparseSpMatGetIndexBase,
                (cusparseConstSpMatDescr_t spMatDescr, cusparseIndexBase_t *idxBase), (spMatDescr, idxBase))
GPUSYM_CUSPARSE(cusparseSpMatGetValues, hipsparseSpMatGetValues, (cusparseSpMatDescr_t spMatDescr, void **values),
                (spMatDescr, values))
GPUSYM_CUSPARSE(cusparseSpMatSetValues, hipsparseSpMatSetValues, (cusparseSpMatDescr_t spMatDescr, void *values),
                (spMatDescr, values))
GPUSYM_CUSPARSE(cusparseSpMatSetAttribute, hipsparseSpMatSetAttribute,
                (cusparseSpMatDescr_t spMatDescr, cusparseSpMatAttribute_t attribute, void *data, size_t dataSize),
                (spMatDescr, attribute, data, dataSize))
GPUSYM_CUSPARSE(cusparseSpMatGetAttribute, hipsparseSpMatGetAttribute,
                (cusparseConstSpMatDescr_t spMatDescr, cusparseSpMatAttribute_t attribute, void *data,
                 size_t dataSize),
                (spMatDescr, attribute, data, dataSize))
GPUSYM_CUSPARSE(cusparseCsrSetStridedBatch, hipsparseCsrSetStridedBatch,
                (cusparseSpMatDescr_t spMatDescr, int batchCount, int64_t offsetsBatchStride,
                 int64_t columnsValuesBatchStride),
                (spMatDescr, batchCount, offsetsBatchStride, columnsValuesBatchStride))
GPUSYM_CUSPARSE(cusparseCooSetStridedBatch, hipsparseCooSetStridedBatch,
                (cusparseSpMatDescr_t spMatDescr, int batchCount, int64_t batchStride),
                (spMatDescr, batchCount, batchStride))
GPUSYM_CUSPARSE(cusparseSpMatGetStridedBatch, hipsparseSpMatGetStridedBatch,
                (cusparseConstSpMatDescr_t spMatDescr, int *batchCount), (spMatDescr, batchCount))

/* ---- the generic API: sparse vectors ---- */
GPUSYM_CUSPARSE(cusparseCreateSpVec, hipsparseCreateSpVec,
                (cusparseSpVecDescr_t *spVecDescr, int64_t size, int64_t nnz, void *indices, void *values,
                 cusparseIndexType_t idxType, cusparseIndexBase_t idxBase, cudaDataType valueType),
                (spVecDescr, size, nnz, indices, values, idxType, idxBase, valueType))
GPUSYM_CUSPARSE(cusparseCreateConstSpVec, hipsparseCreateConstSpVec,
                (cusparseConstSpVecDescr_t *spVecDescr, int64_t size, int64_t nnz, const void *indices,
                 const void *values, cusparseIndexType_t idxType, cusparseIndexBase_t idxBase, cudaDataType valueType),
                (spVecDescr, size, nnz, indices, values, idxType, idxBase, valueType))
GPUSYM_CUSPARSE(cusparseDestroySpVec, hipsparseDestroySpVec, (cusparseConstSpVecDescr_t spVecDescr), (spVecDescr))
GPUSYM_CUSPARSE(cusparseSpVecGet, hipsparseSpVecGet,
                (cusparseSpVecDescr_t spVecDescr, int64_t *size, int64_t *nnz, void **indices, void **values,
                 cusparseIndexType_t *idxType, cusparseIndexBase_t *idxBase, cudaDataType *valueType),
                (spVecDescr, size, nnz, indices, values, idxType, idxBase, valueType))
GPUSYM_CUSPARSE(cusparseConstSpVecGet, hipsparseConstSpVecGet,
                (cusparseConstSpVecDescr_t spVecDescr, int64_t *size, int64_t *nnz, const void **indices,
                 const void **values, cusparseIndexType_t *idxType, cusparseIndexBase_t *idxBase,
                 cudaDataType *valueType),
                (spVecDescr, size, nnz, indices, values, idxType, idxBase, valueType))
GPUSYM_CUSPARSE(cusparseSpVecGetIndexBase, hipsparseSpVecGetIndexBase,
                (cusparseConstSpVecDescr_t spVecDescr, cusparseIndexBase_t *idxBase), (spVecDescr, idxBase))
GPUSYM_CUSPARSE(cusparseSpVecGetValues, hipsparseSpVecGetValues, (cusparseSpVecDescr_t spVecDescr, void **values),
                (spVecDescr, values))
GPUSYM_CUSPARSE(cusparseConstSpVecGetValues, hipsparseConstSpVecGetValues,
                (cusparseConstSpVecDescr_t spVecDescr, const void **values), (spVecDescr, values))
GPUSYM_CUSPARSE(cusparseSpVecSetValues, hipsparseSpVecSetValues, (cusparseSpVecDescr_t spVecDescr, void *values),
                (spVecDescr, values))

/* ---- dense vectors and matrices ---- */
GPUSYM_CUSPARSE(cusparseCreateDnVec, hipsparseCreateDnVec,
                (cusparseDnVecDescr_t *dnVecDescr, int64_t size, void *values, cudaDataType valueType),
                (dnVecDescr, size, values, valueType))
GPUSYM_CUSPARSE(cusparseCreateConstDnVec, hipsparseCreateConstDnVec,
                (cusparseConstDnVecDescr_t *dnVecDescr, int64_t size, const void *values, cudaDataType valueType),
                (dnVecDescr, size, values, valueType))
GPUSYM_CUSPARSE(cusparseDestroyDnVec, hipsparseDestroyDnVec, (cusparseConstDnVecDescr_t dnVecDescr), (dnVecDescr))
GPUSYM_CUSPARSE(cusparseDnVecGet, hipsparseDnVecGet,
                (cusparseDnVecDescr_t dnVecDescr, int64_t *size, void **values, cudaDataType *valueType),
                (dnVecDescr, size, values, valueType))
GPUSYM_CUSPARSE(cusparseDnVecGetValues, hipsparseDnVecGetValues, (cusparseDnVecDescr_t dnVecDescr, void **values),
                (dnVecDescr, values))
GPUSYM_CUSPARSE(cusparseDnVecSetValues, hipsparseDnVecSetValues, (cusparseDnVecDescr_t dnVecDescr, void *values),
                (dnVecDescr, values))
GPUSYM_CUSPARSE(cusparseCreateDnMat, hipsparseCreateDnMat,
                (cusparseDnMatDescr_t *dnMatDescr, int64_t rows, int64_t cols, int64_t ld, void *values,
                 cudaDataType valueType, cusparseOrder_t order),
                (dnMatDescr, rows, cols, ld, values, valueType, order))
GPUSYM_CUSPARSE(cusparseCreateConstDnMat, hipsparseCreateConstDnMat,
                (cusparseConstDnMatDescr_t *dnMatDescr, int64_t rows, int64_t cols, int64_t ld, const void *values,
                 cudaDataType valueType, cusparseOrder_t order),
                (dnMatDescr, rows, cols, ld, values, valueType, order))
GPUSYM_CUSPARSE(cusparseDestroyDnMat, hipsparseDestroyDnMat, (cusparseConstDnMatDescr_t dnMatDescr), (dnMatDescr))
GPUSYM_CUSPARSE(cusparseDnMatGet, hipsparseDnMatGet,
                (cusparseDnMatDescr_t dnMatDescr, int64_t *rows, int64_t *cols, int64_t *ld, void **values,
                 cudaDataType *type, cusparseOrder_t *order),
                (dnMatDescr, rows, cols, ld, values, type, order))
GPUSYM_CUSPARSE(cusparseDnMatGetValues, hipsparseDnMatGetValues, (cusparseDnMatDescr_t dnMatDescr, void **values),
                (dnMatDescr, values))
GPUSYM_CUSPARSE(cusparseDnMatSetValues, hipsparseDnMatSetValues, (cusparseDnMatDescr_t dnMatDescr, void *values),
                (dnMatDescr, values))
GPUSYM_CUSPARSE(cusparseDnMatSetStridedBatch, hipsparseDnMatSetStridedBatch,
                (cusparseDnMatDescr_t dnMatDescr, int batchCount, int64_t batchStride),
                (dnMatDescr, batchCount, batchStride))
GPUSYM_CUSPARSE(cusparseDnMatGetStridedBatch, hipsparseDnMatGetStridedBatch,
                (cusparseConstDnMatDescr_t dnMatDescr, int *batchCount, int64_t *batchStride),
                (dnMatDescr, batchCount, batchStride))

/* ---- products and conversions ---- */
GPUSYM_CUSPARSE(cusparseSpMV_bufferSize, hipsparseSpMV_bufferSize,
                (cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha, cusparseConstSpMatDescr_t matA,
                 cusparseConstDnVecDescr_t vecX, const void *beta, cusparseDnVecDescr_t vecY,
                 cudaDataType computeType, cusparseSpMVAlg_t alg, size_t *bufferSize),
                (handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg, bufferSize))
GPUSYM_CUSPARSE(cusparseSpMV, hipsparseSpMV,
                (cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha, cusparseConstSpMatDescr_t matA,
                 cusparseConstDnVecDescr_t vecX, const void *beta, cusparseDnVecDescr_t vecY,
                 cudaDataType computeType, cusparseSpMVAlg_t alg, void *externalBuffer),
                (handle, opA, alpha, matA, vecX, beta, vecY, computeType, alg, externalBuffer))
#define GPUSYM_CUSPARSE_SPMM(name, hip, Last)                                                                   \
  GPUSYM_CUSPARSE(name, hip,                                                                                    \
                  (cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha, \
                   cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void *beta,            \
                   cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpMMAlg_t alg, Last),            \
                  (handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, buffer))
GPUSYM_CUSPARSE_SPMM(cusparseSpMM_bufferSize, hipsparseSpMM_bufferSize, size_t *buffer)
GPUSYM_CUSPARSE_SPMM(cusparseSpMM_preprocess, hipsparseSpMM_preprocess, void *buffer)
GPUSYM_CUSPARSE_SPMM(cusparseSpMM, hipsparseSpMM, void *buffer)
#undef GPUSYM_CUSPARSE_SPMM
GPUSYM_CUSPARSE(cusparseSparseToDense_bufferSize, hipsparseSparseToDense_bufferSize,
                (cusparseHandle_t handle, cusparseConstSpMatDescr_t matA, cusparseDnMatDescr_t matB,
                 cusparseSparseToDenseAlg_t alg, size_t *bufferSize),
                (handle, matA, matB, alg, bufferSize))
GPUSYM_CUSPARSE(cusparseSparseToDense, hipsparseSparseToDense,
                (cusparseHandle_t handle, cusparseConstSpMatDescr_t matA, cusparseDnMatDescr_t matB,
                 cusparseSparseToDenseAlg_t alg, void *externalBuffer),
                (handle, matA, matB, alg, externalBuffer))
GPUSYM_CUSPARSE(cusparseDenseToSparse_bufferSize, hipsparseDenseToSparse_bufferSize,
                (cusparseHandle_t handle, cusparseConstDnMatDescr_t matA, cusparseSpMatDescr_t matB,
                 cusparseDenseToSparseAlg_t alg, size_t *bufferSize),
                (handle, matA, matB, alg, bufferSize))
GPUSYM_CUSPARSE(cusparseDenseToSparse_analysis, hipsparseDenseToSparse_analysis,
                (cusparseHandle_t handle, cusparseConstDnMatDescr_t matA, cusparseSpMatDescr_t matB,
                 cusparseDenseToSparseAlg_t alg, void *externalBuffer),
                (handle, matA, matB, alg, externalBuffer))
GPUSYM_CUSPARSE(cusparseDenseToSparse_convert, hipsparseDenseToSparse_convert,
                (cusparseHandle_t handle, cusparseConstDnMatDescr_t matA, cusparseSpMatDescr_t matB,
                 cusparseDenseToSparseAlg_t alg, void *externalBuffer),
                (handle, matA, matB, alg, externalBuffer))

/* ---- products with a sparse result: SpGEMM (sparse times sparse) and SDDMM ---- */
GPUSYM_CUSPARSE(cusparseSpGEMM_createDescr, hipsparseSpGEMM_createDescr, (cusparseSpGEMMDescr_t *descr), (descr))
GPUSYM_CUSPARSE(cusparseSpGEMM_destroyDescr, hipsparseSpGEMM_destroyDescr, (cusparseSpGEMMDescr_t descr), (descr))
#define GPUSYM_CUSPARSE_SPGEMM(name, hip, Last)                                                                 \
  GPUSYM_CUSPARSE(name, hip,                                                                                    \
                  (cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha, \
                   cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void *beta,            \
                   cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,                \
                   cusparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize, Last),                                \
                  (handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, spgemmDescr, bufferSize,  \
                   buffer))
GPUSYM_CUSPARSE_SPGEMM(cusparseSpGEMM_workEstimation, hipsparseSpGEMM_workEstimation, void *buffer)
GPUSYM_CUSPARSE_SPGEMM(cusparseSpGEMM_compute, hipsparseSpGEMM_compute, void *buffer)
#undef GPUSYM_CUSPARSE_SPGEMM
GPUSYM_CUSPARSE(cusparseSpGEMM_copy, hipsparseSpGEMM_copy,
                (cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha,
                 cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void *beta,
                 cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
                 cusparseSpGEMMDescr_t spgemmDescr),
                (handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, spgemmDescr))
#define GPUSYM_CUSPARSE_SDDMM(name, hip, Last)                                                                  \
  GPUSYM_CUSPARSE(name, hip,                                                                                    \
                  (cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha, \
                   cusparseConstDnMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void *beta,            \
                   cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSDDMMAlg_t alg, Last),          \
                  (handle, opA, opB, alpha, matA, matB, beta, matC, computeType, alg, buffer))
GPUSYM_CUSPARSE_SDDMM(cusparseSDDMM_bufferSize, hipsparseSDDMM_bufferSize, size_t *buffer)
GPUSYM_CUSPARSE_SDDMM(cusparseSDDMM_preprocess, hipsparseSDDMM_preprocess, void *buffer)
GPUSYM_CUSPARSE_SDDMM(cusparseSDDMM, hipsparseSDDMM, void *buffer)
#undef GPUSYM_CUSPARSE_SDDMM

/* ---- triangular solves: SpSV (a vector) and SpSM (a dense matrix) ---- */
GPUSYM_CUSPARSE(cusparseSpSV_createDescr, hipsparseSpSV_createDescr, (cusparseSpSVDescr_t *descr), (descr))
GPUSYM_CUSPARSE(cusparseSpSV_destroyDescr, hipsparseSpSV_destroyDescr, (cusparseSpSVDescr_t descr), (descr))
#define GPUSYM_CUSPARSE_SPSV(name, hip, Last)                                                                   \
  GPUSYM_CUSPARSE(name, hip,                                                                                    \
                  (cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,                         \
                   cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, cusparseDnVecDescr_t vecY,   \
                   cudaDataType computeType, cusparseSpSVAlg_t alg, cusparseSpSVDescr_t spsvDescr, Last),       \
                  (handle, opA, alpha, matA, vecX, vecY, computeType, alg, spsvDescr, buffer))
GPUSYM_CUSPARSE_SPSV(cusparseSpSV_bufferSize, hipsparseSpSV_bufferSize, size_t *buffer)
GPUSYM_CUSPARSE_SPSV(cusparseSpSV_analysis, hipsparseSpSV_analysis, void *buffer)
#undef GPUSYM_CUSPARSE_SPSV
GPUSYM_CUSPARSE(cusparseSpSV_solve, hipsparseSpSV_solve,
                (cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha, cusparseConstSpMatDescr_t matA,
                 cusparseConstDnVecDescr_t vecX, cusparseDnVecDescr_t vecY, cudaDataType computeType,
                 cusparseSpSVAlg_t alg, cusparseSpSVDescr_t spsvDescr),
                (handle, opA, alpha, matA, vecX, vecY, computeType, alg, spsvDescr))
GPUSYM_CUSPARSE(cusparseSpSM_createDescr, hipsparseSpSM_createDescr, (cusparseSpSMDescr_t *descr), (descr))
GPUSYM_CUSPARSE(cusparseSpSM_destroyDescr, hipsparseSpSM_destroyDescr, (cusparseSpSMDescr_t descr), (descr))
#define GPUSYM_CUSPARSE_SPSM(name, hip, Last)                                                                   \
  GPUSYM_CUSPARSE(name, hip,                                                                                    \
                  (cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha, \
                   cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, cusparseDnMatDescr_t matC,   \
                   cudaDataType computeType, cusparseSpSMAlg_t alg, cusparseSpSMDescr_t spsmDescr, Last),       \
                  (handle, opA, opB, alpha, matA, matB, matC, computeType, alg, spsmDescr, buffer))
GPUSYM_CUSPARSE_SPSM(cusparseSpSM_bufferSize, hipsparseSpSM_bufferSize, size_t *buffer)
GPUSYM_CUSPARSE_SPSM(cusparseSpSM_analysis, hipsparseSpSM_analysis, void *buffer)
#undef GPUSYM_CUSPARSE_SPSM
/* CUDA 12's solve takes no buffer; hipSPARSE's takes one it does not use. */
GPUSYM_CUSPARSE(cusparseSpSM_solve, hipsparseSpSM_solve,
                (cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha,
                 cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, cusparseDnMatDescr_t matC,
                 cudaDataType computeType, cusparseSpSMAlg_t alg, cusparseSpSMDescr_t spsmDescr),
                (handle, opA, opB, alpha, matA, matB, matC, computeType, alg, spsmDescr, static_cast<void *>(nullptr)))

/* ---- the legacy API: incomplete LU (csrilu02), nnz, conversions, sorting, gather ---- */
GPUSYM_CUSPARSE(cusparseCreateCsrilu02Info, hipsparseCreateCsrilu02Info, (csrilu02Info_t *info), (info))
GPUSYM_CUSPARSE(cusparseDestroyCsrilu02Info, hipsparseDestroyCsrilu02Info, (csrilu02Info_t info), (info))
GPUSYM_CUSPARSE(cusparseXcsrilu02_zeroPivot, hipsparseXcsrilu02_zeroPivot,
                (cusparseHandle_t handle, csrilu02Info_t info, int *position), (handle, info, position))
#define GPUSYM_CUSPARSE_CSRILU02(t, T)                                                                          \
  GPUSYM_CUSPARSE(cusparse##t##csrilu02_bufferSize, hipsparse##t##csrilu02_bufferSize,                           \
                  (cusparseHandle_t handle, int m, int nnz, const cusparseMatDescr_t descrA, T *csrSortedValA,  \
                   const int *csrSortedRowPtrA, const int *csrSortedColIndA, csrilu02Info_t info,               \
                   int *pBufferSizeInBytes),                                                                    \
                  (handle, m, nnz, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, info,             \
                   pBufferSizeInBytes))                                                                         \
  GPUSYM_CUSPARSE(cusparse##t##csrilu02_bufferSizeExt, hipsparse##t##csrilu02_bufferSizeExt,                     \
                  (cusparseHandle_t handle, int m, int nnz, const cusparseMatDescr_t descrA, T *csrSortedVal,   \
                   const int *csrSortedRowPtr, const int *csrSortedColInd, csrilu02Info_t info,                 \
                   size_t *pBufferSize),                                                                        \
                  (handle, m, nnz, descrA, csrSortedVal, csrSortedRowPtr, csrSortedColInd, info, pBufferSize))  \
  GPUSYM_CUSPARSE(cusparse##t##csrilu02_analysis, hipsparse##t##csrilu02_analysis,                               \
                  (cusparseHandle_t handle, int m, int nnz, const cusparseMatDescr_t descrA,                    \
                   const T *csrSortedValA, const int *csrSortedRowPtrA, const int *csrSortedColIndA,            \
                   csrilu02Info_t info, cusparseSolvePolicy_t policy, void *pBuffer),                           \
                  (handle, m, nnz, descrA, csrSortedValA, csrSortedRowPtrA, csrSortedColIndA, info, policy,     \
                   pBuffer))                                                                                    \
  GPUSYM_CUSPARSE(cusparse##t##csrilu02, hipsparse##t##csrilu02,                                                 \
                  (cusparseHandle_t handle, int m, int nnz, const cusparseMatDescr_t descrA,                    \
                   T *csrSortedValA_valM, const int *csrSortedRowPtrA, const int *csrSortedColIndA,             \
                   csrilu02Info_t info, cusparseSolvePolicy_t policy, void *pBuffer),                           \
                  (handle, m, nnz, descrA, csrSortedValA_valM, csrSortedRowPtrA, csrSortedColIndA, info,        \
                   policy, pBuffer))
GPUSYM_CUSPARSE_CSRILU02(S, float)
GPUSYM_CUSPARSE_CSRILU02(D, double)
GPUSYM_CUSPARSE_CSRILU02(C, cuComplex)
GPUSYM_CUSPARSE_CSRILU02(Z, cuDoubleComplex)
#undef GPUSYM_CUSPARSE_CSRILU02
#define GPUSYM_CUSPARSE_NNZ(t, T)                                                                               \
  GPUSYM_CUSPARSE(cusparse##t##nnz, hipsparse##t##nnz,                                                          \
                  (cusparseHandle_t handle, cusparseDirection_t dirA, int m, int n,                             \
                   const cusparseMatDescr_t descrA, const T *A, int lda, int *nnzPerRowCol,                     \
                   int *nnzTotalDevHostPtr),                                                                    \
                  (handle, dirA, m, n, descrA, A, lda, nnzPerRowCol, nnzTotalDevHostPtr))
GPUSYM_CUSPARSE_NNZ(S, float)
GPUSYM_CUSPARSE_NNZ(D, double)
GPUSYM_CUSPARSE_NNZ(C, cuComplex)
GPUSYM_CUSPARSE_NNZ(Z, cuDoubleComplex)
#undef GPUSYM_CUSPARSE_NNZ
#define GPUSYM_CUSPARSE_CSR2CSC(name, hip, Last)                                                                \
  GPUSYM_CUSPARSE(name, hip,                                                                                    \
                  (cusparseHandle_t handle, int m, int n, int nnz, const void *csrVal, const int *csrRowPtr,    \
                   const int *csrColInd, void *cscVal, int *cscColPtr, int *cscRowInd, cudaDataType valType,    \
                   cusparseAction_t copyValues, cusparseIndexBase_t idxBase, cusparseCsr2CscAlg_t alg, Last),   \
                  (handle, m, n, nnz, csrVal, csrRowPtr, csrColInd, cscVal, cscColPtr, cscRowInd, valType,      \
                   copyValues, idxBase, alg, buffer))
GPUSYM_CUSPARSE_CSR2CSC(cusparseCsr2cscEx2_bufferSize, hipsparseCsr2cscEx2_bufferSize, size_t *buffer)
GPUSYM_CUSPARSE_CSR2CSC(cusparseCsr2cscEx2, hipsparseCsr2cscEx2, void *buffer)
#undef GPUSYM_CUSPARSE_CSR2CSC
GPUSYM_CUSPARSE(cusparseCreateIdentityPermutation, hipsparseCreateIdentityPermutation,
                (cusparseHandle_t handle, int n, int *p), (handle, n, p))
GPUSYM_CUSPARSE(cusparseXcsrsort_bufferSizeExt, hipsparseXcsrsort_bufferSizeExt,
                (cusparseHandle_t handle, int m, int n, int nnz, const int *csrRowPtrA, const int *csrColIndA,
                 size_t *pBufferSizeInBytes),
                (handle, m, n, nnz, csrRowPtrA, csrColIndA, pBufferSizeInBytes))
GPUSYM_CUSPARSE(cusparseXcsrsort, hipsparseXcsrsort,
                (cusparseHandle_t handle, int m, int n, int nnz, const cusparseMatDescr_t descrA,
                 const int *csrRowPtrA, int *csrColIndA, int *P, void *pBuffer),
                (handle, m, n, nnz, descrA, csrRowPtrA, csrColIndA, P, pBuffer))
#define GPUSYM_CUSPARSE_GTHR(t, T)                                                                              \
  GPUSYM_CUSPARSE(cusparse##t##gthr, hipsparse##t##gthr,                                                        \
                  (cusparseHandle_t handle, int nnz, const T *y, T *xVal, const int *xInd,                      \
                   cusparseIndexBase_t idxBase),                                                                \
                  (handle, nnz, y, xVal, xInd, idxBase))
GPUSYM_CUSPARSE_GTHR(S, float)
GPUSYM_CUSPARSE_GTHR(D, double)
GPUSYM_CUSPARSE_GTHR(C, cuComplex)
GPUSYM_CUSPARSE_GTHR(Z, cuDoubleComplex)
#undef GPUSYM_CUSPARSE_GTHR

/* ---- a sparse and a dense vector ---- */
GPUSYM_CUSPARSE(cusparseAxpby, hipsparseAxpby,
                (cusparseHandle_t handle, const void *alpha, cusparseConstSpVecDescr_t vecX, const void *beta,
                 cusparseDnVecDescr_t vecY),
                (handle, alpha, vecX, beta, vecY))
GPUSYM_CUSPARSE(cusparseGather, hipsparseGather,
                (cusparseHandle_t handle, cusparseConstDnVecDescr_t vecY, cusparseSpVecDescr_t vecX),
                (handle, vecY, vecX))
GPUSYM_CUSPARSE(cusparseScatter, hipsparseScatter,
                (cusparseHandle_t handle, cusparseConstSpVecDescr_t vecX, cusparseDnVecDescr_t vecY),
                (handle, vecX, vecY))
GPUSYM_CUSPARSE(cusparseRot, hipsparseRot,
                (cusparseHandle_t handle, const void *c_coeff, const void *s_coeff, cusparseSpVecDescr_t vecX,
                 cusparseDnVecDescr_t vecY),
                (handle, c_coeff, s_coeff, vecX, vecY))
/* hipSPARSE's result parameter is not const; the size query never writes it. */
GPUSYM_CUSPARSE(cusparseSpVV_bufferSize, hipsparseSpVV_bufferSize,
                (cusparseHandle_t handle, cusparseOperation_t opX, cusparseConstSpVecDescr_t vecX,
                 cusparseConstDnVecDescr_t vecY, const void *result, cudaDataType computeType, size_t *bufferSize),
                (handle, opX, vecX, vecY, const_cast<void *>(result), computeType, bufferSize))
GPUSYM_CUSPARSE(cusparseSpVV, hipsparseSpVV,
                (cusparseHandle_t handle, cusparseOperation_t opX, cusparseConstSpVecDescr_t vecX,
                 cusparseConstDnVecDescr_t vecY, void *result, cudaDataType computeType, void *externalBuffer),
                (handle, opX, vecX, vecY, result, computeType, externalBuffer))
