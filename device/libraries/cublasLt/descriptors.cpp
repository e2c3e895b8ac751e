// cuBLASLt's handles, descriptors, preferences and heuristic query.  Each
// attribute is a field of the descriptor's structure (cublaslt_internal.h),
// set and read back byte for byte; its size must be the attribute's, as
// cuBLASLt requires.
#include <cstring>
#include <span>

#include "cublaslt_internal.h"

using namespace gpusym_cublaslt;

// A handle holds nothing: each matmul names its stream.
struct cublasLtContext {};

namespace {

using Field = std::span<std::byte>;

template <class T> Field bytes(T &value) { return {reinterpret_cast<std::byte *>(&value), sizeof(T)}; }

cublasStatus_t set_field(Field field, const void *buf, size_t size) {
  if (field.empty() || !buf || size != field.size()) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(field.data(), buf, size);
  return CUBLAS_STATUS_SUCCESS;
}

// Reads a field; a size of 0 asks for the field's size in *written.
cublasStatus_t get_field(Field field, void *buf, size_t size, size_t *written) {
  if (field.empty()) return CUBLAS_STATUS_INVALID_VALUE;
  if (size == 0 && written) {
    *written = field.size();
    return CUBLAS_STATUS_SUCCESS;
  }
  if (!buf || size != field.size()) return CUBLAS_STATUS_INVALID_VALUE;
  std::memcpy(buf, field.data(), size);
  if (written) *written = size;
  return CUBLAS_STATUS_SUCCESS;
}

Field field(Layout &l, cublasLtMatrixLayoutAttribute_t attr) {
  switch (attr) {
    case CUBLASLT_MATRIX_LAYOUT_TYPE: return bytes(l.type);
    case CUBLASLT_MATRIX_LAYOUT_ORDER: return bytes(l.order);
    case CUBLASLT_MATRIX_LAYOUT_ROWS: return bytes(l.rows);
    case CUBLASLT_MATRIX_LAYOUT_COLS: return bytes(l.cols);
    case CUBLASLT_MATRIX_LAYOUT_LD: return bytes(l.ld);
    case CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT: return bytes(l.batch_count);
    case CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET: return bytes(l.batch_stride);
    case CUBLASLT_MATRIX_LAYOUT_PLANE_OFFSET: return bytes(l.plane_offset);
    default: return {};
  }
}

Field field(MatmulDesc &d, cublasLtMatmulDescAttributes_t attr) {
  switch (attr) {
    case CUBLASLT_MATMUL_DESC_COMPUTE_TYPE: return bytes(d.compute);
    case CUBLASLT_MATMUL_DESC_SCALE_TYPE: return bytes(d.scale_type);
    case CUBLASLT_MATMUL_DESC_POINTER_MODE: return bytes(d.pointer_mode);
    case CUBLASLT_MATMUL_DESC_TRANSA: return bytes(d.trans_a);
    case CUBLASLT_MATMUL_DESC_TRANSB: return bytes(d.trans_b);
    case CUBLASLT_MATMUL_DESC_TRANSC: return bytes(d.trans_c);
    case CUBLASLT_MATMUL_DESC_FILL_MODE: return bytes(d.fill_mode);
    case CUBLASLT_MATMUL_DESC_EPILOGUE: return bytes(d.epilogue);
    case CUBLASLT_MATMUL_DESC_BIAS_POINTER: return bytes(d.bias);
    case CUBLASLT_MATMUL_DESC_BIAS_BATCH_STRIDE: return bytes(d.bias_batch_stride);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER: return bytes(d.aux);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD: return bytes(d.aux_ld);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE: return bytes(d.aux_batch_stride);
    case CUBLASLT_MATMUL_DESC_ALPHA_VECTOR_BATCH_STRIDE: return bytes(d.alpha_vector_batch_stride);
    case CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET: return bytes(d.sm_count_target);
    case CUBLASLT_MATMUL_DESC_A_SCALE_POINTER: return bytes(d.a_scale);
    case CUBLASLT_MATMUL_DESC_B_SCALE_POINTER: return bytes(d.b_scale);
    case CUBLASLT_MATMUL_DESC_C_SCALE_POINTER: return bytes(d.c_scale);
    case CUBLASLT_MATMUL_DESC_D_SCALE_POINTER: return bytes(d.d_scale);
    case CUBLASLT_MATMUL_DESC_AMAX_D_POINTER: return bytes(d.amax_d);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_DATA_TYPE: return bytes(d.aux_type);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_SCALE_POINTER: return bytes(d.aux_scale);
    case CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_AMAX_POINTER: return bytes(d.aux_amax);
    case CUBLASLT_MATMUL_DESC_FAST_ACCUM: return bytes(d.fast_accum);
    case CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE: return bytes(d.bias_type);
    default: return {};
  }
}

Field field(Preference &p, cublasLtMatmulPreferenceAttributes_t attr) {
  switch (attr) {
    case CUBLASLT_MATMUL_PREF_SEARCH_MODE: return bytes(p.search_mode);
    case CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES: return bytes(p.max_workspace_bytes);
    case CUBLASLT_MATMUL_PREF_REDUCTION_SCHEME_MASK: return bytes(p.reduction_scheme_mask);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES: return bytes(p.min_alignment[0]);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES: return bytes(p.min_alignment[1]);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES: return bytes(p.min_alignment[2]);
    case CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES: return bytes(p.min_alignment[3]);
    case CUBLASLT_MATMUL_PREF_MAX_WAVES_COUNT: return bytes(p.max_waves_count);
    case CUBLASLT_MATMUL_PREF_IMPL_MASK: return bytes(p.impl_mask);
    default: return {};
  }
}

// Creates an opaque descriptor with `init`, freed again if it fails.
template <class Opaque, class Init> cublasStatus_t create(Opaque **out, Init init) {
  if (!out) return CUBLAS_STATUS_INVALID_VALUE;
  auto *opaque = new (std::nothrow) Opaque;
  if (!opaque) return CUBLAS_STATUS_ALLOC_FAILED;
  cublasStatus_t status = init(opaque);
  if (status != CUBLAS_STATUS_SUCCESS) {
    delete opaque;
    opaque = nullptr;
  }
  *out = opaque;
  return status;
}

}  // namespace

extern "C" {

cublasStatus_t cublasLtCreate(cublasLtHandle_t *lightHandle) {
  if (!lightHandle) return CUBLAS_STATUS_INVALID_VALUE;
  *lightHandle = new (std::nothrow) cublasLtContext;
  return *lightHandle ? CUBLAS_STATUS_SUCCESS : CUBLAS_STATUS_ALLOC_FAILED;
}

cublasStatus_t cublasLtDestroy(cublasLtHandle_t lightHandle) {
  if (!lightHandle) return CUBLAS_STATUS_NOT_INITIALIZED;
  delete lightHandle;
  return CUBLAS_STATUS_SUCCESS;
}

size_t cublasLtGetVersion(void) { return CUBLAS_VERSION; }
size_t cublasLtGetCudartVersion(void) { return CUDART_VERSION; }

cublasStatus_t cublasLtGetProperty(libraryPropertyType type, int *value) {
  if (!value) return CUBLAS_STATUS_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION: *value = CUBLAS_VER_MAJOR; break;
    case MINOR_VERSION: *value = CUBLAS_VER_MINOR; break;
    case PATCH_LEVEL: *value = CUBLAS_VER_PATCH; break;
    default: return CUBLAS_STATUS_INVALID_VALUE;
  }
  return CUBLAS_STATUS_SUCCESS;
}

// cuBLASLt's statuses are cuBLAS's: their names and strings too.
const char *cublasLtGetStatusName(cublasStatus_t status) { return cublasGetStatusName(status); }

const char *cublasLtGetStatusString(cublasStatus_t status) { return cublasGetStatusString(status); }

cublasStatus_t cublasLtMatrixLayoutInit_internal(cublasLtMatrixLayout_t matLayout, size_t size, cudaDataType type,
                                                 uint64_t rows, uint64_t cols, int64_t ld) {
  if (!matLayout) return CUBLAS_STATUS_INVALID_VALUE;
  if (size < sizeof(cublasLtMatrixLayoutOpaque_t)) return CUBLAS_STATUS_ALLOC_FAILED;
  new (matLayout) Layout{uint32_t(type), CUBLASLT_ORDER_COL, rows, cols, ld, 1, 0, 0};
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutCreate(cublasLtMatrixLayout_t *matLayout, cudaDataType type, uint64_t rows,
                                          uint64_t cols, int64_t ld) {
  return create(matLayout, [&](cublasLtMatrixLayout_t opaque) {
    return cublasLtMatrixLayoutInit_internal(opaque, sizeof(*opaque), type, rows, cols, ld);
  });
}

cublasStatus_t cublasLtMatrixLayoutDestroy(cublasLtMatrixLayout_t matLayout) {
  delete matLayout;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatrixLayoutSetAttribute(cublasLtMatrixLayout_t matLayout, cublasLtMatrixLayoutAttribute_t attr,
                                                const void *buf, size_t sizeInBytes) {
  return matLayout ? set_field(field(layout(matLayout), attr), buf, sizeInBytes) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatrixLayoutGetAttribute(cublasLtMatrixLayout_t matLayout, cublasLtMatrixLayoutAttribute_t attr,
                                                void *buf, size_t sizeInBytes, size_t *sizeWritten) {
  return matLayout ? get_field(field(layout(matLayout), attr), buf, sizeInBytes, sizeWritten)
                   : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulDescInit_internal(cublasLtMatmulDesc_t matmulDesc, size_t size,
                                               cublasComputeType_t computeType, cudaDataType_t scaleType) {
  if (!matmulDesc) return CUBLAS_STATUS_INVALID_VALUE;
  if (size < sizeof(cublasLtMatmulDescOpaque_t)) return CUBLAS_STATUS_ALLOC_FAILED;
  auto *d = new (matmulDesc) MatmulDesc{};
  d->compute = computeType;
  d->scale_type = scaleType;
  d->pointer_mode = CUBLASLT_POINTER_MODE_HOST;
  d->trans_a = d->trans_b = d->trans_c = CUBLAS_OP_N;
  d->fill_mode = CUBLAS_FILL_MODE_FULL;
  d->epilogue = CUBLASLT_EPILOGUE_DEFAULT;
  d->aux_type = -1;
  d->bias_type = -1;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescCreate(cublasLtMatmulDesc_t *matmulDesc, cublasComputeType_t computeType,
                                        cudaDataType_t scaleType) {
  return create(matmulDesc, [&](cublasLtMatmulDesc_t opaque) {
    return cublasLtMatmulDescInit_internal(opaque, sizeof(*opaque), computeType, scaleType);
  });
}

cublasStatus_t cublasLtMatmulDescDestroy(cublasLtMatmulDesc_t matmulDesc) {
  delete matmulDesc;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulDescSetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              const void *buf, size_t sizeInBytes) {
  return matmulDesc ? set_field(field(desc(matmulDesc), attr), buf, sizeInBytes) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulDescGetAttribute(cublasLtMatmulDesc_t matmulDesc, cublasLtMatmulDescAttributes_t attr,
                                              void *buf, size_t sizeInBytes, size_t *sizeWritten) {
  return matmulDesc ? get_field(field(desc(matmulDesc), attr), buf, sizeInBytes, sizeWritten)
                    : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulPreferenceInit_internal(cublasLtMatmulPreference_t pref, size_t size) {
  if (!pref) return CUBLAS_STATUS_INVALID_VALUE;
  if (size < sizeof(cublasLtMatmulPreferenceOpaque_t)) return CUBLAS_STATUS_ALLOC_FAILED;
  new (pref) Preference{CUBLASLT_SEARCH_BEST_FIT, CUBLASLT_REDUCTION_SCHEME_MASK, 0, {256, 256, 256, 256}, 0.0f,
                        ~uint64_t(0)};
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceCreate(cublasLtMatmulPreference_t *pref) {
  return create(pref, [](cublasLtMatmulPreference_t opaque) {
    return cublasLtMatmulPreferenceInit_internal(opaque, sizeof(*opaque));
  });
}

cublasStatus_t cublasLtMatmulPreferenceDestroy(cublasLtMatmulPreference_t pref) {
  delete pref;
  return CUBLAS_STATUS_SUCCESS;
}

cublasStatus_t cublasLtMatmulPreferenceSetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, const void *buf,
                                                    size_t sizeInBytes) {
  return pref ? set_field(field(preference(pref), attr), buf, sizeInBytes) : CUBLAS_STATUS_INVALID_VALUE;
}

cublasStatus_t cublasLtMatmulPreferenceGetAttribute(cublasLtMatmulPreference_t pref,
                                                    cublasLtMatmulPreferenceAttributes_t attr, void *buf,
                                                    size_t sizeInBytes, size_t *sizeWritten) {
  return pref ? get_field(field(preference(pref), attr), buf, sizeInBytes, sizeWritten) : CUBLAS_STATUS_INVALID_VALUE;
}

// gpusym has one algorithm, which needs no workspace: one result when it
// computes the matmul the descriptors describe.
cublasStatus_t cublasLtMatmulAlgoGetHeuristic(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t operationDesc,
                                              cublasLtMatrixLayout_t Adesc, cublasLtMatrixLayout_t Bdesc,
                                              cublasLtMatrixLayout_t Cdesc, cublasLtMatrixLayout_t Ddesc,
                                              cublasLtMatmulPreference_t preference, int requestedAlgoCount,
                                              cublasLtMatmulHeuristicResult_t heuristicResultsArray[],
                                              int *returnAlgoCount) {
  if (!lightHandle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!operationDesc || !Adesc || !Bdesc || !Cdesc || !Ddesc || !preference || requestedAlgoCount < 1 ||
      !heuristicResultsArray || !returnAlgoCount)
    return CUBLAS_STATUS_INVALID_VALUE;
  *returnAlgoCount = 0;
  Shape shape;
  cublasStatus_t status =
      check(desc(operationDesc), layout(Adesc), layout(Bdesc), layout(Cdesc), layout(Ddesc), shape);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  heuristicResultsArray[0] = cublasLtMatmulHeuristicResult_t{};
  heuristicResultsArray[0].state = CUBLAS_STATUS_SUCCESS;
  heuristicResultsArray[0].wavesCount = 1.0f;
  *returnAlgoCount = 1;
  return CUBLAS_STATUS_SUCCESS;
}

}  // extern "C"
