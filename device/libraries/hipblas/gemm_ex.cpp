// hipblasGemmEx and its batched forms, and hipblasHgemm: matrices of one
// type computed by that type's gemm, half and bfloat16 ones converted
// through float (computed in float, rounded once to the output type).
// hipblasDotEx and hipblasDotcEx: any one type, summed in double.
#include <complex>
#include <cstring>
#include <vector>

#include "cblas_calls.h"

using namespace gpusym_hipblas;
namespace cb = gpusym_hipblas::cblas;

namespace {

enum class Kind { F16, BF16, F32, F64, C32, C64, Other };

Kind kind_of(hipDataType type) {
  switch (type) {
    case HIP_R_16F: return Kind::F16;
    case HIP_R_16BF: return Kind::BF16;
    case HIP_R_32F: return Kind::F32;
    case HIP_R_64F: return Kind::F64;
    case HIP_C_32F: return Kind::C32;
    case HIP_C_64F: return Kind::C64;
    default: return Kind::Other;
  }
}

// hipBLAS 2.x's own data types, as hipblasDatatype_t has them without HIPBLAS_V2.
Kind kind_of_legacy(int type) {
  switch (type) {
    case 150: return Kind::F16;
    case 168: return Kind::BF16;
    case 151: return Kind::F32;
    case 152: return Kind::F64;
    case 154: return Kind::C32;
    case 155: return Kind::C64;
    default: return Kind::Other;
  }
}

// The scalars' type of a HIPBLAS_V2 compute type, for matrices of type `data`.
Kind kind_of(hipblasComputeType_t compute, Kind data) {
  bool complex = data == Kind::C32 || data == Kind::C64;
  switch (compute) {
    case HIPBLAS_COMPUTE_16F:
    case HIPBLAS_COMPUTE_16F_PEDANTIC: return Kind::F16;
    case HIPBLAS_COMPUTE_32F:
    case HIPBLAS_COMPUTE_32F_PEDANTIC:
    case HIPBLAS_COMPUTE_32F_FAST_16F:
    case HIPBLAS_COMPUTE_32F_FAST_16BF:
    case HIPBLAS_COMPUTE_32F_FAST_TF32: return complex ? Kind::C32 : Kind::F32;
    case HIPBLAS_COMPUTE_64F:
    case HIPBLAS_COMPUTE_64F_PEDANTIC: return complex ? Kind::C64 : Kind::F64;
    default: return Kind::Other;
  }
}

float half_to_float(uint16_t bits) {
  _Float16 h;
  memcpy(&h, &bits, 2);
  return float(h);
}
uint16_t float_to_half(float value) {
  _Float16 h = static_cast<_Float16>(value);
  uint16_t bits;
  memcpy(&bits, &h, 2);
  return bits;
}
float bfloat16_to_float(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float value;
  memcpy(&value, &word, 4);
  return value;
}
uint16_t float_to_bfloat16(float value) {
  uint32_t word;
  memcpy(&word, &value, 4);
  if ((word & 0x7f800000u) != 0x7f800000u)
    word += 0x7fffu + ((word >> 16) & 1u);
  else if (word & 0xffffu)
    word |= 0x10000u;
  return uint16_t(word >> 16);
}

float load(Kind kind, const void *data, size_t i) {
  uint16_t bits = static_cast<const uint16_t *>(data)[i];
  return kind == Kind::F16 ? half_to_float(bits) : bfloat16_to_float(bits);
}

// A scalar of the compute type as float (half-precision compute: a half).
float scalar_as_float(Kind compute, const void *pointer) {
  if (compute == Kind::F16) return half_to_float(*static_cast<const uint16_t *>(pointer));
  return *static_cast<const float *>(pointer);
}

struct Matrices {
  const void *A;
  const void *B;
  void *C;
};

// gemm over `count` problems of matrices of one type T.
template <class T, class M>
void gemm_typed(hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k, T alpha, int lda, int ldb, T beta,
                int ldc, int count, M matrices) {
  for (int i = 0; i < count; i++) {
    Matrices x = matrices(i);
    cb::gemm(ta, tb, m, n, k, alpha, static_cast<const T *>(x.A), lda, static_cast<const T *>(x.B), ldb, beta,
             static_cast<T *>(x.C), ldc);
  }
}

// Half or bfloat16 A and B, C of their type or float: computed in float.
template <class M>
void gemm_through_float(Kind ab, Kind c, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                        float alpha, int lda, int ldb, float beta, int ldc, int count, M matrices) {
  auto widen = [ab](const void *data, int ld, int cols) {
    std::vector<float> out(size_t(ld) * cols);
    for (size_t i = 0; i < out.size(); i++) out[i] = load(ab, data, i);
    return out;
  };
  for (int i = 0; i < count; i++) {
    Matrices x = matrices(i);
    std::vector<float> A = widen(x.A, lda, ta == HIPBLAS_OP_N ? k : m);
    std::vector<float> B = widen(x.B, ldb, tb == HIPBLAS_OP_N ? n : k);
    if (c == Kind::F32) {
      cb::gemm(ta, tb, m, n, k, alpha, A.data(), lda, B.data(), ldb, beta, static_cast<float *>(x.C), ldc);
      continue;
    }
    std::vector<float> C(size_t(ldc) * n);
    for (int col = 0; col < n; col++)
      for (int row = 0; row < m; row++) C[row + size_t(col) * ldc] = load(c, x.C, row + size_t(col) * ldc);
    cb::gemm(ta, tb, m, n, k, alpha, A.data(), lda, B.data(), ldb, beta, C.data(), ldc);
    auto *out = static_cast<uint16_t *>(x.C);
    for (int col = 0; col < n; col++)
      for (int row = 0; row < m; row++) {
        size_t at = row + size_t(col) * ldc;
        out[at] = c == Kind::F16 ? float_to_half(C[at]) : float_to_bfloat16(C[at]);
      }
  }
}

size_t scalar_size(Kind kind) {
  switch (kind) {
    case Kind::F16: return 2;
    case Kind::F32: return 4;
    case Kind::F64:
    case Kind::C32: return 8;
    case Kind::C64: return 16;
    default: return 0;
  }
}

// The Ex forms: checks, scalars by pointer mode, and the computation queued.
template <class M>
hipblasStatus_t gemm_ex(const char *name, hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m,
                        int n, int k, const void *alpha, Kind a_type, int lda, Kind b_type, int ldb, const void *beta,
                        Kind c_type, int ldc, Kind compute, int count, M matrices) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  for (hipblasOperation_t t : {ta, tb})
    if (t != HIPBLAS_OP_N && t != HIPBLAS_OP_T && t != HIPBLAS_OP_C) return HIPBLAS_STATUS_INVALID_ENUM;
  bool same = a_type == b_type && b_type == c_type && c_type == compute && compute != Kind::F16 &&
              compute != Kind::BF16 && compute != Kind::Other;
  bool through_float = a_type == b_type && (a_type == Kind::F16 || a_type == Kind::BF16) &&
                       (c_type == a_type || c_type == Kind::F32) && (compute == Kind::F32 || compute == Kind::F16);
  if (!same && !through_float) {
    report_not_supported(name);  // these data types
    return HIPBLAS_STATUS_NOT_SUPPORTED;
  }
  auto rows = [](hipblasOperation_t t, int r, int c) { return t == HIPBLAS_OP_N ? r : c; };
  if (m < 0 || n < 0 || k < 0 || count < 0 || lda < std::max(1, rows(ta, m, k)) ||
      ldb < std::max(1, rows(tb, k, n)) || ldc < std::max(1, m))
    return HIPBLAS_STATUS_INVALID_VALUE;
  if (m == 0 || n == 0 || count == 0) return HIPBLAS_STATUS_SUCCESS;
  if (!alpha || !beta) return HIPBLAS_STATUS_INVALID_VALUE;
  // The scalars' bytes: copied now in host pointer mode, read later in device mode.
  struct Bytes {
    unsigned char data[16];
  };
  size_t size = scalar_size(compute);
  bool device = handle->pointer_mode == HIPBLAS_POINTER_MODE_DEVICE;
  Bytes alpha_now{}, beta_now{};
  if (!device) {
    memcpy(alpha_now.data, alpha, size);
    memcpy(beta_now.data, beta, size);
  }
  return enqueue(handle, [=] {
    const void *a = device ? alpha : alpha_now.data, *b = device ? beta : beta_now.data;
    if (through_float) {
      gemm_through_float(a_type, c_type, ta, tb, m, n, k, scalar_as_float(compute, a), lda, ldb,
                         scalar_as_float(compute, b), ldc, count, matrices);
      return;
    }
    auto typed = [&](auto zero) {
      using T = decltype(zero);
      gemm_typed(ta, tb, m, n, k, *static_cast<const T *>(a), lda, ldb, *static_cast<const T *>(b), ldc, count,
                 matrices);
    };
    switch (compute) {
      case Kind::F32: typed(0.0f); break;
      case Kind::F64: typed(0.0); break;
      case Kind::C32: typed(cb::C()); break;
      default: typed(cb::Z()); break;
    }
  });
}

auto single(const void *A, const void *B, void *C) {
  return [=](int) { return Matrices{A, B, C}; };
}
auto batched(const void *const *A, const void *const *B, void *const *C) {
  return [=](int i) { return Matrices{A[i], B[i], C[i]}; };
}
auto strided(Kind type, const void *A, hipblasStride sa, const void *B, hipblasStride sb, void *C, hipblasStride sc) {
  size_t size = type == Kind::F16 || type == Kind::BF16 ? 2 : scalar_size(type);
  return [=](int i) {
    return Matrices{static_cast<const char *>(A) + i * sa * size, static_cast<const char *>(B) + i * sb * size,
                    static_cast<char *>(C) + i * sc * size};
  };
}
// A strided batch's matrices for A and B of one type and C of another.
auto strided(Kind ab, Kind c, const void *A, hipblasStride sa, const void *B, hipblasStride sb, void *C,
             hipblasStride sc) {
  auto inputs = strided(ab, A, sa, B, sb, C, 0);
  auto outputs = strided(c, A, 0, B, 0, C, sc);
  return [=](int i) { return Matrices{inputs(i).A, inputs(i).B, outputs(i).C}; };
}

// Element i of a vector of `kind` (stride `inc`, n elements: a negative
// stride walks it from its end, as BLAS does), as a complex double.
std::complex<double> element(Kind kind, const void *data, int64_t n, int64_t inc, int64_t i) {
  int64_t at = inc >= 0 ? i * inc : (n - 1 - i) * -inc;
  switch (kind) {
    case Kind::F16:
    case Kind::BF16: return load(kind, data, at);
    case Kind::F32: return static_cast<const float *>(data)[at];
    case Kind::F64: return static_cast<const double *>(data)[at];
    case Kind::C32: return static_cast<const std::complex<float> *>(data)[at];
    default: return static_cast<const std::complex<double> *>(data)[at];
  }
}

void store(Kind kind, void *data, std::complex<double> value) {
  switch (kind) {
    case Kind::F16: *static_cast<uint16_t *>(data) = float_to_half(float(value.real())); break;
    case Kind::BF16: *static_cast<uint16_t *>(data) = float_to_bfloat16(float(value.real())); break;
    case Kind::F32: *static_cast<float *>(data) = float(value.real()); break;
    case Kind::F64: *static_cast<double *>(data) = value.real(); break;
    case Kind::C32: *static_cast<std::complex<float> *>(data) = std::complex<float>(value); break;
    default: *static_cast<std::complex<double> *>(data) = value;
  }
}

// DotEx and DotcEx: x and y of one type, the result of that type, the
// products summed in double.
hipblasStatus_t dot_ex(const char *name, hipblasHandle_t h, int64_t n, const void *x, Kind x_type, int64_t incx,
                       const void *y, Kind y_type, int64_t incy, void *result, Kind result_type, bool conjugate) {
  Handle *handle = handle_of(h);
  if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
  if (!result || (n > 0 && (!x || !y))) return HIPBLAS_STATUS_INVALID_VALUE;
  if (x_type == Kind::Other || y_type != x_type || result_type != x_type) {
    report_not_supported(name);
    return HIPBLAS_STATUS_NOT_SUPPORTED;
  }
  hipblasStatus_t status = enqueue(handle, [=] {
    std::complex<double> sum = 0;
    for (int64_t i = 0; i < n; i++) {
      std::complex<double> a = element(x_type, x, n, incx, i);
      sum += (conjugate ? std::conj(a) : a) * element(y_type, y, n, incy, i);
    }
    store(result_type, result, sum);
  });
  if (status == HIPBLAS_STATUS_SUCCESS && handle->pointer_mode == HIPBLAS_POINTER_MODE_HOST &&
      hipStreamSynchronize(handle->stream) != hipSuccess)
    return HIPBLAS_STATUS_EXECUTION_FAILED;
  return status;
}

}  // namespace

extern "C" {

hipblasStatus_t hipblasGemmEx(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                              const void *alpha, const void *A, hipblasDatatype_t at, int lda, const void *B,
                              hipblasDatatype_t bt, int ldb, const void *beta, void *C, hipblasDatatype_t ct, int ldc,
                              hipblasDatatype_t compute, hipblasGemmAlgo_t) {
  return gemm_ex("hipblasGemmEx", h, ta, tb, m, n, k, alpha, kind_of_legacy(at), lda, kind_of_legacy(bt), ldb, beta,
                 kind_of_legacy(ct), ldc, kind_of_legacy(compute), 1, single(A, B, C));
}

hipblasStatus_t hipblasGemmEx_v2(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                                 const void *alpha, const void *A, hipDataType at, int lda, const void *B,
                                 hipDataType bt, int ldb, const void *beta, void *C, hipDataType ct, int ldc,
                                 hipblasComputeType_t compute, hipblasGemmAlgo_t) {
  return gemm_ex("hipblasGemmEx_v2", h, ta, tb, m, n, k, alpha, kind_of(at), lda, kind_of(bt), ldb, beta, kind_of(ct),
                 ldc, kind_of(compute, kind_of(ct)), 1, single(A, B, C));
}

hipblasStatus_t hipblasGemmBatchedEx(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n,
                                     int k, const void *alpha, const void *A[], hipblasDatatype_t at, int lda,
                                     const void *B[], hipblasDatatype_t bt, int ldb, const void *beta, void *C[],
                                     hipblasDatatype_t ct, int ldc, int count, hipblasDatatype_t compute,
                                     hipblasGemmAlgo_t) {
  if (count > 0 && (!A || !B || !C)) return HIPBLAS_STATUS_INVALID_VALUE;
  return gemm_ex("hipblasGemmBatchedEx", h, ta, tb, m, n, k, alpha, kind_of_legacy(at), lda, kind_of_legacy(bt), ldb,
                 beta, kind_of_legacy(ct), ldc, kind_of_legacy(compute), count, batched(A, B, C));
}

hipblasStatus_t hipblasGemmBatchedEx_v2(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n,
                                        int k, const void *alpha, const void *A[], hipDataType at, int lda,
                                        const void *B[], hipDataType bt, int ldb, const void *beta, void *C[],
                                        hipDataType ct, int ldc, int count, hipblasComputeType_t compute,
                                        hipblasGemmAlgo_t) {
  if (count > 0 && (!A || !B || !C)) return HIPBLAS_STATUS_INVALID_VALUE;
  return gemm_ex("hipblasGemmBatchedEx_v2", h, ta, tb, m, n, k, alpha, kind_of(at), lda, kind_of(bt), ldb, beta,
                 kind_of(ct), ldc, kind_of(compute, kind_of(ct)), count, batched(A, B, C));
}

hipblasStatus_t hipblasGemmStridedBatchedEx(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m,
                                            int n, int k, const void *alpha, const void *A, hipblasDatatype_t at,
                                            int lda, hipblasStride sa, const void *B, hipblasDatatype_t bt, int ldb,
                                            hipblasStride sb, const void *beta, void *C, hipblasDatatype_t ct, int ldc,
                                            hipblasStride sc, int count, hipblasDatatype_t compute,
                                            hipblasGemmAlgo_t) {
  Kind ab = kind_of_legacy(at), c = kind_of_legacy(ct);
  return gemm_ex("hipblasGemmStridedBatchedEx", h, ta, tb, m, n, k, alpha, ab, lda, kind_of_legacy(bt), ldb, beta, c,
                 ldc, kind_of_legacy(compute), count, strided(ab, c, A, sa, B, sb, C, sc));
}

hipblasStatus_t hipblasGemmStridedBatchedEx_v2(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m,
                                               int n, int k, const void *alpha, const void *A, hipDataType at, int lda,
                                               hipblasStride sa, const void *B, hipDataType bt, int ldb,
                                               hipblasStride sb, const void *beta, void *C, hipDataType ct, int ldc,
                                               hipblasStride sc, int count, hipblasComputeType_t compute,
                                               hipblasGemmAlgo_t) {
  Kind ab = kind_of(at), c = kind_of(ct);
  return gemm_ex("hipblasGemmStridedBatchedEx_v2", h, ta, tb, m, n, k, alpha, ab, lda, kind_of(bt), ldb, beta, c, ldc,
                 kind_of(compute, c), count, strided(ab, c, A, sa, B, sb, C, sc));
}

hipblasStatus_t hipblasHgemm(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,
                             const hipblasHalf *alpha, const hipblasHalf *A, int lda, const hipblasHalf *B, int ldb,
                             const hipblasHalf *beta, hipblasHalf *C, int ldc) {
  return gemm_ex("hipblasHgemm", h, ta, tb, m, n, k, alpha, Kind::F16, lda, Kind::F16, ldb, beta, Kind::F16, ldc,
                 Kind::F16, 1, single(A, B, C));
}

hipblasStatus_t hipblasHgemmBatched(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n,
                                    int k, const hipblasHalf *alpha, const hipblasHalf *const A[], int lda,
                                    const hipblasHalf *const B[], int ldb, const hipblasHalf *beta,
                                    hipblasHalf *const C[], int ldc, int count) {
  if (count > 0 && (!A || !B || !C)) return HIPBLAS_STATUS_INVALID_VALUE;
  return gemm_ex("hipblasHgemmBatched", h, ta, tb, m, n, k, alpha, Kind::F16, lda, Kind::F16, ldb, beta, Kind::F16,
                 ldc, Kind::F16, count,
                 batched(reinterpret_cast<const void *const *>(A), reinterpret_cast<const void *const *>(B),
                         reinterpret_cast<void *const *>(C)));
}

hipblasStatus_t hipblasHgemmStridedBatched(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m,
                                           int n, int k, const hipblasHalf *alpha, const hipblasHalf *A, int lda,
                                           long long sa, const hipblasHalf *B, int ldb, long long sb,
                                           const hipblasHalf *beta, hipblasHalf *C, int ldc, long long sc, int count) {
  return gemm_ex("hipblasHgemmStridedBatched", h, ta, tb, m, n, k, alpha, Kind::F16, lda, Kind::F16, ldb, beta,
                 Kind::F16, ldc, Kind::F16, count, strided(Kind::F16, A, sa, B, sb, C, sc));
}

}  // extern "C"

// hipblasDotEx and hipblasDotcEx in their four forms: hipBLAS's data types
// or hipDataType (_v2), 32- or 64-bit sizes (_64).
#define GPUSYM_DOT_EX(name, Int, Type, kind, conjugate)                                                      \
  extern "C" hipblasStatus_t name(hipblasHandle_t h, Int n, const void *x, Type xt, Int incx, const void *y,  \
                                  Type yt, Int incy, void *result, Type rt, Type) {                          \
    return dot_ex(#name, h, n, x, kind(xt), incx, y, kind(yt), incy, result, kind(rt), conjugate);           \
  }
GPUSYM_DOT_EX(hipblasDotEx, int, hipblasDatatype_t, kind_of_legacy, false)
GPUSYM_DOT_EX(hipblasDotEx_64, int64_t, hipblasDatatype_t, kind_of_legacy, false)
GPUSYM_DOT_EX(hipblasDotEx_v2, int, hipDataType, kind_of, false)
GPUSYM_DOT_EX(hipblasDotEx_v2_64, int64_t, hipDataType, kind_of, false)
GPUSYM_DOT_EX(hipblasDotcEx, int, hipblasDatatype_t, kind_of_legacy, true)
GPUSYM_DOT_EX(hipblasDotcEx_64, int64_t, hipblasDatatype_t, kind_of_legacy, true)
GPUSYM_DOT_EX(hipblasDotcEx_v2, int, hipDataType, kind_of, true)
GPUSYM_DOT_EX(hipblasDotcEx_v2_64, int64_t, hipDataType, kind_of, true)
