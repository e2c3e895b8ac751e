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
