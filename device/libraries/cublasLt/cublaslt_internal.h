// What cuBLASLt's descriptors hold, laid in the storage of CUDA's opaque
// structures (a program may own that storage: cublasLt*Init), and the
// checks a matmul and the heuristic query share.
#pragma once

#include <cublasLt.h>

#include <cstddef>
#include <cstdint>
#include <new>

namespace gpusym_cublaslt {

struct Layout {
  uint32_t type;  // cudaDataType
  int32_t order;  // cublasLtOrder_t
  uint64_t rows;
  uint64_t cols;
  int64_t ld;
  int32_t batch_count;
  int64_t batch_stride;  // elements between the matrices of a batch
  int64_t plane_offset;
};

struct MatmulDesc {
  int32_t compute;     // cublasComputeType_t
  int32_t scale_type;  // cudaDataType of alpha and beta
  int32_t pointer_mode;
  int32_t trans_a;
  int32_t trans_b;
  int32_t trans_c;
  int32_t fill_mode;
  uint32_t epilogue;
  const void *bias;
  int64_t bias_batch_stride;
  void *aux;
  int64_t aux_ld;
  int64_t aux_batch_stride;
  int64_t alpha_vector_batch_stride;
  int32_t sm_count_target;
  const void *a_scale;
  const void *b_scale;
  const void *c_scale;
  const void *d_scale;
  void *amax_d;
  int32_t aux_type;
  const void *aux_scale;
  void *aux_amax;
  int8_t fast_accum;
  int32_t bias_type;  // -1: the default for the output's type
};

struct Preference {
  uint32_t search_mode;
  uint32_t reduction_scheme_mask;
  uint64_t max_workspace_bytes;
  uint32_t min_alignment[4];  // A, B, C, D
  float max_waves_count;
  uint64_t impl_mask;
};

static_assert(sizeof(Layout) <= sizeof(cublasLtMatrixLayoutOpaque_t));
static_assert(sizeof(MatmulDesc) <= sizeof(cublasLtMatmulDescOpaque_t));
static_assert(sizeof(Preference) <= sizeof(cublasLtMatmulPreferenceOpaque_t));

inline Layout &layout(cublasLtMatrixLayout_t opaque) { return *std::launder(reinterpret_cast<Layout *>(opaque)); }
inline MatmulDesc &desc(cublasLtMatmulDesc_t opaque) { return *std::launder(reinterpret_cast<MatmulDesc *>(opaque)); }
inline Preference &preference(cublasLtMatmulPreference_t opaque) {
  return *std::launder(reinterpret_cast<Preference *>(opaque));
}

// The sizes of a matmul: D is m x n, op(A) m x k, op(B) k x n, `batch` of each.
struct Shape {
  int64_t m, n, k;
  int32_t batch;
};

// Whether gpusym computes this matmul: SUCCESS with its shape, INVALID_VALUE
// for inconsistent descriptors, NOT_SUPPORTED for what it does not compute.
cublasStatus_t check(const MatmulDesc &desc, const Layout &a, const Layout &b, const Layout &c, const Layout &d,
                     Shape &shape);

}  // namespace gpusym_cublaslt
