// cublasLtMatmul on the host, in the stream's order.  For each matrix of
// the batch, op(A) * op(B) is accumulated in the compute type's precision:
// float (CUBLAS_COMPUTE_32F and 16F, whatever the inputs: half, bfloat16,
// FP8, float) and double by OpenBLAS's gemm, reading float and double
// matrices in place and the others converted first; int32 (COMPUTE_32I, int8
// inputs) by a plain loop.  An epilogue pass then forms each element of D
// in double: alpha * scaleA * scaleB * product + beta * scaleC * C, the
// bias, ReLU or GELU, amax, D's scale, and the conversion to D's type.
#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "cublaslt_internal.h"
#include "stream_work.h"

using namespace gpusym_cublaslt;

namespace {

// The FP8 formats: 1 sign bit, then exponent and mantissa bits.  E4M3 has
// no infinities (its all-ones code is NaN); both saturate when written.
struct Fp8Format {
  int mantissa_bits;
  int bias;
  uint8_t largest;  // the code of the largest finite magnitude
  bool has_infinity;
};
constexpr Fp8Format kE4M3{3, 7, 0x7e, false};
constexpr Fp8Format kE5M2{2, 15, 0x7b, true};

double fp8_decode(uint8_t code, const Fp8Format &f) {
  int exponent_mask = (1 << (7 - f.mantissa_bits)) - 1;
  int exponent = (code >> f.mantissa_bits) & exponent_mask;
  int mantissa = code & ((1 << f.mantissa_bits) - 1);
  double sign = code & 0x80 ? -1.0 : 1.0;
  if (f.has_infinity && exponent == exponent_mask)
    return mantissa ? std::numeric_limits<double>::quiet_NaN() : sign * INFINITY;
  if (!f.has_infinity && (code & 0x7f) == 0x7f) return std::numeric_limits<double>::quiet_NaN();
  if (exponent == 0) return sign * std::ldexp(mantissa, 1 - f.bias - f.mantissa_bits);
  return sign * std::ldexp((1 << f.mantissa_bits) + mantissa, exponent - f.bias - f.mantissa_bits);
}

// The nearest code (ties to the even code), magnitudes past the largest
// finite one saturating to it.  Codes 0 to `largest` ascend in magnitude.
uint8_t fp8_encode(double value, const Fp8Format &f) {
  if (std::isnan(value)) return 0x7f;
  uint8_t sign = std::signbit(value) ? 0x80 : 0;
  double magnitude = std::fabs(value);
  int low = 0, high = f.largest;
  if (magnitude >= fp8_decode(f.largest, f)) return sign | f.largest;
  while (low < high) {  // the first code whose magnitude is >= magnitude
    int middle = (low + high) / 2;
    if (fp8_decode(uint8_t(middle), f) < magnitude)
      low = middle + 1;
    else
      high = middle;
  }
  if (low == 0) return sign;
  double above = fp8_decode(uint8_t(low), f) - magnitude, below = magnitude - fp8_decode(uint8_t(low - 1), f);
  bool up = above < below || (above == below && low % 2 == 0);
  return sign | uint8_t(up ? low : low - 1);
}

float bfloat16_to_float(uint16_t bits) {
  uint32_t word = uint32_t(bits) << 16;
  float value;
  std::memcpy(&value, &word, 4);
  return value;
}

uint16_t float_to_bfloat16(float value) {
  uint32_t word;
  std::memcpy(&word, &value, 4);
  if (std::isnan(value)) return uint16_t((word >> 16) | 0x40);
  word += 0x7fff + ((word >> 16) & 1);  // round to nearest even
  return uint16_t(word >> 16);
}

template <class T> T saturate(double value) {
  if (std::isnan(value)) return 0;
  double rounded = std::nearbyint(value);
  return T(std::clamp(rounded, double(std::numeric_limits<T>::min()), double(std::numeric_limits<T>::max())));
}

bool is_float_type(uint32_t type) {
  switch (type) {
    case CUDA_R_32F:
    case CUDA_R_64F:
    case CUDA_R_16F:
    case CUDA_R_16BF:
    case CUDA_R_8F_E4M3:
    case CUDA_R_8F_E5M2: return true;
    default: return false;
  }
}
bool is_supported_type(uint32_t type) { return is_float_type(type) || type == CUDA_R_8I || type == CUDA_R_32I; }

// Element `index` of an array of `type` (one of is_supported_type's).
double load(uint32_t type, const void *base, int64_t index) {
  switch (type) {
    case CUDA_R_32F: return static_cast<const float *>(base)[index];
    case CUDA_R_64F: return static_cast<const double *>(base)[index];
    case CUDA_R_16F: return double(static_cast<const _Float16 *>(base)[index]);
    case CUDA_R_16BF: return bfloat16_to_float(static_cast<const uint16_t *>(base)[index]);
    case CUDA_R_8F_E4M3: return fp8_decode(static_cast<const uint8_t *>(base)[index], kE4M3);
    case CUDA_R_8F_E5M2: return fp8_decode(static_cast<const uint8_t *>(base)[index], kE5M2);
    case CUDA_R_8I: return static_cast<const int8_t *>(base)[index];
    case CUDA_R_32I: return static_cast<const int32_t *>(base)[index];
    default: return 0;
  }
}

void store(uint32_t type, void *base, int64_t index, double value) {
  switch (type) {
    case CUDA_R_32F: static_cast<float *>(base)[index] = float(value); break;
    case CUDA_R_64F: static_cast<double *>(base)[index] = value; break;
    case CUDA_R_16F: static_cast<_Float16 *>(base)[index] = static_cast<_Float16>(value); break;
    case CUDA_R_16BF: static_cast<uint16_t *>(base)[index] = float_to_bfloat16(float(value)); break;
    case CUDA_R_8F_E4M3: static_cast<uint8_t *>(base)[index] = fp8_encode(value, kE4M3); break;
    case CUDA_R_8F_E5M2: static_cast<uint8_t *>(base)[index] = fp8_encode(value, kE5M2); break;
    case CUDA_R_8I: static_cast<int8_t *>(base)[index] = saturate<int8_t>(value); break;
    case CUDA_R_32I: static_cast<int32_t *>(base)[index] = saturate<int32_t>(value); break;
    default: break;
  }
}

size_t element_size(uint32_t type) {
  switch (type) {
    case CUDA_R_64F: return 8;
    case CUDA_R_32F:
    case CUDA_R_32I: return 4;
    case CUDA_R_16F:
    case CUDA_R_16BF: return 2;
    default: return 1;
  }
}

// Where element (row, col) of matrix `batch` of `l` is, in elements.
int64_t offset(const Layout &l, int64_t row, int64_t col, int64_t batch) {
  int64_t at = l.order == CUBLASLT_ORDER_COL ? row + col * l.ld : row * l.ld + col;
  return at + batch * l.batch_stride;
}

const void *shifted(const void *base, const Layout &l, int64_t batch) {
  return static_cast<const char *>(base) + batch * l.batch_stride * int64_t(element_size(l.type));
}

enum class Accumulator { Float, Double, Int32, None };

Accumulator accumulator(int32_t compute) {
  switch (compute) {
    case CUBLAS_COMPUTE_16F:
    case CUBLAS_COMPUTE_16F_PEDANTIC:
    case CUBLAS_COMPUTE_32F:
    case CUBLAS_COMPUTE_32F_PEDANTIC:
    case CUBLAS_COMPUTE_32F_FAST_16F:
    case CUBLAS_COMPUTE_32F_FAST_16BF:
    case CUBLAS_COMPUTE_32F_FAST_TF32: return Accumulator::Float;
    case CUBLAS_COMPUTE_64F:
    case CUBLAS_COMPUTE_64F_PEDANTIC: return Accumulator::Double;
    case CUBLAS_COMPUTE_32I:
    case CUBLAS_COMPUTE_32I_PEDANTIC: return Accumulator::Int32;
    default: return Accumulator::None;
  }
}

bool has_bias(uint32_t epilogue) { return epilogue & CUBLASLT_EPILOGUE_BIAS; }

// The bias's type when BIAS_DATA_TYPE is not set: D's, bfloat16 for an FP8
// D, alpha's for int8 results of an integer matmul.
uint32_t bias_type(const MatmulDesc &d, const Layout &out) {
  if (d.bias_type != -1) return uint32_t(d.bias_type);
  if (out.type == CUDA_R_8F_E4M3 || out.type == CUDA_R_8F_E5M2) return CUDA_R_16BF;
  if (out.type == CUDA_R_8I) return uint32_t(d.scale_type);
  return out.type;
}

// Everything a matmul reads when it runs, copied when it is queued: the
// descriptors may change or go before then.
struct Matmul {
  MatmulDesc desc;
  Layout a, b, c, d;
  Shape shape;
  const void *alpha, *beta;      // as the pointer mode says
  double host_alpha, host_beta;  // the host's scalars, read when queued
  const void *A, *B, *C;
  void *D;
};

// op(X) as cblas reads it: column-major data of T, transposed or not, and
// its leading dimension; X itself when it is T's, else a converted copy.
template <class T> struct Operand {
  const T *data;
  CBLAS_TRANSPOSE trans;
  int64_t ld;
  std::vector<T> copy;
};

template <class T>
void gather(Operand<T> &operand, const void *base, const Layout &l, int32_t op, int64_t rows, int64_t cols,
            int64_t batch, uint32_t own_type) {
  bool transposed = op != CUBLAS_OP_N;
  if (l.type == own_type) {  // a row-major matrix is its transpose in column-major order
    operand.data = static_cast<const T *>(shifted(base, l, batch));
    operand.trans = transposed != (l.order == CUBLASLT_ORDER_ROW) ? CblasTrans : CblasNoTrans;
    operand.ld = l.ld;
    return;
  }
  operand.copy.resize(size_t(rows * cols));
  for (int64_t j = 0; j < cols; j++)
    for (int64_t i = 0; i < rows; i++)
      operand.copy[size_t(i + j * rows)] =
          T(load(l.type, base, transposed ? offset(l, j, i, batch) : offset(l, i, j, batch)));
  operand.data = operand.copy.data();
  operand.trans = CblasNoTrans;
  operand.ld = std::max<int64_t>(1, rows);
}

// product (m x n, column-major) = op(A) * op(B) of matrix `batch`.
template <class T> void multiply(const Matmul &mm, int64_t batch, uint32_t own_type, std::vector<double> &product) {
  const Shape &s = mm.shape;
  Operand<T> a, b;
  gather(a, mm.A, mm.a, mm.desc.trans_a, s.m, s.k, batch, own_type);
  gather(b, mm.B, mm.b, mm.desc.trans_b, s.k, s.n, batch, own_type);
  std::vector<T> out(size_t(s.m * s.n));
  if constexpr (std::is_same_v<T, float>)
    cblas_sgemm(CblasColMajor, a.trans, b.trans, int(s.m), int(s.n), int(s.k), 1.0f, a.data, int(a.ld), b.data,
                int(b.ld), 0.0f, out.data(), int(s.m));
  else
    cblas_dgemm(CblasColMajor, a.trans, b.trans, int(s.m), int(s.n), int(s.k), 1.0, a.data, int(a.ld), b.data,
                int(b.ld), 0.0, out.data(), int(s.m));
  product.assign(out.begin(), out.end());
}

// The integer product, summed in int32 as the device's (wrapping).
void multiply_int32(const Matmul &mm, int64_t batch, std::vector<double> &product) {
  const Shape &s = mm.shape;
  Operand<int32_t> a, b;
  gather(a, mm.A, mm.a, mm.desc.trans_a, s.m, s.k, batch, CUDA_R_32I);
  gather(b, mm.B, mm.b, mm.desc.trans_b, s.k, s.n, batch, CUDA_R_32I);
  std::vector<uint32_t> sums(size_t(s.m * s.n));
  for (int64_t j = 0; j < s.n; j++)
    for (int64_t l = 0; l < s.k; l++) {
      uint32_t bl = uint32_t(b.copy[size_t(l + j * s.k)]);
      for (int64_t i = 0; i < s.m; i++) sums[size_t(i + j * s.m)] += uint32_t(a.copy[size_t(i + l * s.m)]) * bl;
    }
  product.resize(sums.size());
  for (size_t i = 0; i < sums.size(); i++) product[i] = int32_t(sums[i]);
}

double gelu(double x) {
  constexpr double kSqrt2OverPi = 0.7978845608028654;
  return 0.5 * x * (1.0 + std::tanh(kSqrt2OverPi * (x + 0.044715 * x * x * x)));
}

void run(const Matmul &mm) {
  const MatmulDesc &d = mm.desc;
  const Shape &s = mm.shape;
  Accumulator kind = accumulator(d.compute);
  uint32_t factor_type = kind == Accumulator::Double ? CUDA_R_64F : CUDA_R_32F;  // scales' and amax's type
  auto factor = [&](const void *pointer) { return pointer ? load(factor_type, pointer, 0) : 1.0; };
  double scale_ab = factor(d.a_scale) * factor(d.b_scale), scale_c = factor(d.c_scale), scale_d = factor(d.d_scale);
  uint32_t biased = bias_type(d, mm.d);
  double amax = 0;
  std::vector<double> product, alphas(size_t(s.m)), betas(size_t(s.m)), biases(size_t(s.m));
  for (int64_t batch = 0; batch < s.batch; batch++) {
    if (s.k == 0)
      product.assign(size_t(s.m * s.n), 0.0);
    else if (kind == Accumulator::Float)
      multiply<float>(mm, batch, CUDA_R_32F, product);
    else if (kind == Accumulator::Double)
      multiply<double>(mm, batch, CUDA_R_64F, product);
    else
      multiply_int32(mm, batch, product);
    // Each row's scalars (one for all rows but in the vector pointer modes) and bias.
    int64_t vector_at = batch * d.alpha_vector_batch_stride;
    for (int64_t i = 0; i < s.m; i++) {
      switch (d.pointer_mode) {
        case CUBLASLT_POINTER_MODE_HOST: alphas[i] = mm.host_alpha, betas[i] = mm.host_beta; break;
        case CUBLASLT_POINTER_MODE_DEVICE:
          alphas[i] = load(d.scale_type, mm.alpha, 0), betas[i] = load(d.scale_type, mm.beta, 0);
          break;
        case CUBLASLT_POINTER_MODE_DEVICE_VECTOR:
          alphas[i] = load(d.scale_type, mm.alpha, vector_at + i);
          betas[i] = load(d.scale_type, mm.beta, vector_at + i);
          break;
        case CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO:
          alphas[i] = load(d.scale_type, mm.alpha, vector_at + i), betas[i] = 0;
          break;
        default: alphas[i] = load(d.scale_type, mm.alpha, vector_at + i), betas[i] = mm.host_beta; break;
      }
      alphas[i] *= scale_ab;
      betas[i] *= scale_c;
      biases[i] = has_bias(d.epilogue) ? load(biased, d.bias, batch * d.bias_batch_stride + i) : 0.0;
    }
    for (int64_t j = 0; j < s.n; j++)
      for (int64_t i = 0; i < s.m; i++) {
        double value = alphas[i] * product[size_t(i + j * s.m)] + biases[i];
        if (betas[i] != 0) value += betas[i] * load(mm.c.type, mm.C, offset(mm.c, i, j, batch));
        if (d.epilogue & CUBLASLT_EPILOGUE_RELU) value = std::max(value, 0.0);
        if (d.epilogue & CUBLASLT_EPILOGUE_GELU) value = gelu(value);
        amax = std::max(amax, std::fabs(value));
        store(mm.d.type, mm.D, offset(mm.d, i, j, batch), value * scale_d);
      }
  }
  if (d.amax_d) store(factor_type, d.amax_d, 0, amax);
}

bool valid_layout(const Layout &l) {
  int64_t least = int64_t(std::max<uint64_t>(1, l.order == CUBLASLT_ORDER_COL ? l.rows : l.cols));
  return l.ld >= least && l.batch_count >= 1;
}

}  // namespace

namespace gpusym_cublaslt {

cublasStatus_t check(const MatmulDesc &desc, const Layout &a, const Layout &b, const Layout &c, const Layout &d,
                     Shape &shape) {
  auto operation = [](int32_t op) { return op == CUBLAS_OP_N || op == CUBLAS_OP_T || op == CUBLAS_OP_C; };
  if (!operation(desc.trans_a) || !operation(desc.trans_b) || !operation(desc.trans_c))
    return CUBLAS_STATUS_INVALID_VALUE;
  if (desc.pointer_mode < CUBLASLT_POINTER_MODE_HOST ||
      desc.pointer_mode > CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST)
    return CUBLAS_STATUS_INVALID_VALUE;
  for (const Layout *l : {&a, &b, &c, &d}) {
    if (l->order != CUBLASLT_ORDER_COL && l->order != CUBLASLT_ORDER_ROW) return CUBLAS_STATUS_NOT_SUPPORTED;
    if (!is_supported_type(l->type)) return CUBLAS_STATUS_NOT_SUPPORTED;
    if (!valid_layout(*l)) return CUBLAS_STATUS_INVALID_VALUE;
  }
  Accumulator kind = accumulator(desc.compute);
  bool integer_inputs = a.type == CUDA_R_8I && b.type == CUDA_R_8I;
  bool float_inputs = is_float_type(a.type) && is_float_type(b.type);
  if (kind == Accumulator::None || (kind == Accumulator::Int32 ? !integer_inputs : !float_inputs))
    return CUBLAS_STATUS_NOT_SUPPORTED;
  if (desc.scale_type != CUDA_R_32F && desc.scale_type != CUDA_R_64F && desc.scale_type != CUDA_R_16F &&
      desc.scale_type != CUDA_R_32I)
    return CUBLAS_STATUS_NOT_SUPPORTED;
  switch (desc.epilogue) {
    case CUBLASLT_EPILOGUE_DEFAULT:
    case CUBLASLT_EPILOGUE_RELU:
    case CUBLASLT_EPILOGUE_BIAS:
    case CUBLASLT_EPILOGUE_RELU_BIAS:
    case CUBLASLT_EPILOGUE_GELU:
    case CUBLASLT_EPILOGUE_GELU_BIAS: break;
    default: return CUBLAS_STATUS_NOT_SUPPORTED;
  }
  if (has_bias(desc.epilogue) && !is_supported_type(bias_type(desc, d))) return CUBLAS_STATUS_NOT_SUPPORTED;
  if (desc.trans_c != CUBLAS_OP_N) return CUBLAS_STATUS_NOT_SUPPORTED;
  bool ta = desc.trans_a != CUBLAS_OP_N, tb = desc.trans_b != CUBLAS_OP_N;
  shape.m = int64_t(d.rows);
  shape.n = int64_t(d.cols);
  shape.k = int64_t(ta ? a.rows : a.cols);
  shape.batch = d.batch_count;
  if (uint64_t(shape.m) != (ta ? a.cols : a.rows) || uint64_t(shape.k) != (tb ? b.cols : b.rows) ||
      uint64_t(shape.n) != (tb ? b.rows : b.cols) || c.rows != d.rows || c.cols != d.cols)
    return CUBLAS_STATUS_INVALID_VALUE;
  if (a.batch_count != d.batch_count || b.batch_count != d.batch_count || c.batch_count != d.batch_count)
    return CUBLAS_STATUS_INVALID_VALUE;
  constexpr int64_t kLargest = std::numeric_limits<int>::max();  // what cblas takes
  if (shape.m > kLargest || shape.n > kLargest || shape.k > kLargest) return CUBLAS_STATUS_NOT_SUPPORTED;
  return CUBLAS_STATUS_SUCCESS;
}

}  // namespace gpusym_cublaslt

extern "C" cublasStatus_t cublasLtMatmul(cublasLtHandle_t lightHandle, cublasLtMatmulDesc_t computeDesc,
                                         const void *alpha, const void *A, cublasLtMatrixLayout_t Adesc, const void *B,
                                         cublasLtMatrixLayout_t Bdesc, const void *beta, const void *C,
                                         cublasLtMatrixLayout_t Cdesc, void *D, cublasLtMatrixLayout_t Ddesc,
                                         const cublasLtMatmulAlgo_t *, void *, size_t, cudaStream_t stream) {
  if (!lightHandle) return CUBLAS_STATUS_NOT_INITIALIZED;
  if (!computeDesc || !Adesc || !Bdesc || !Cdesc || !Ddesc) return CUBLAS_STATUS_INVALID_VALUE;
  Matmul mm{desc(computeDesc), layout(Adesc), layout(Bdesc), layout(Cdesc), layout(Ddesc), {}, alpha, beta,
            0.0, 0.0, A, B, C, D};
  cublasStatus_t status = check(mm.desc, mm.a, mm.b, mm.c, mm.d, mm.shape);
  if (status != CUBLAS_STATUS_SUCCESS) return status;
  const Shape &s = mm.shape;
  int32_t mode = mm.desc.pointer_mode;
  bool beta_needed = mode != CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO;
  if (!alpha || (beta_needed && !beta)) return CUBLAS_STATUS_INVALID_VALUE;
  if (mode == CUBLASLT_POINTER_MODE_HOST) mm.host_alpha = load(mm.desc.scale_type, alpha, 0);
  if (mode == CUBLASLT_POINTER_MODE_HOST || mode == CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_HOST)
    mm.host_beta = load(mm.desc.scale_type, beta, 0);
  if (s.m == 0 || s.n == 0 || s.batch == 0) return CUBLAS_STATUS_SUCCESS;
  // C is read unless beta is a host zero; the device's betas are not known yet.
  bool reads_c = mode != CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO &&
                 (mode != CUBLASLT_POINTER_MODE_HOST || mm.host_beta != 0);
  if (!D || (s.k > 0 && (!A || !B)) || (reads_c && !C) || (has_bias(mm.desc.epilogue) && !mm.desc.bias))
    return CUBLAS_STATUS_INVALID_VALUE;
  return gpusym_library::in_stream_order(stream, [mm] { run(mm); }) == hipSuccess ? CUBLAS_STATUS_SUCCESS
                                                                                 : CUBLAS_STATUS_EXECUTION_FAILED;
}
