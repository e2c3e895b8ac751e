// cuBLASLt on the simulated device: cublasLtMatmul in each data type it
// computes (float, double, half and bfloat16, int8 to int32, FP8 E4M3 with
// scales), transposes, row order, strided batches and epilogues, against
// references a host loop computes here; the descriptors' attributes, the
// heuristic query and the statuses of bad calls.  Prints "NAME: ok" or
// "NAME: FAILED ...", then "cublasLt: N failed".
#include <cublasLt.h>
#include <cuda_bf16.h>
#include <cuda_fp16.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <vector>

static int failures = 0;

static void report(const char *name, bool ok, const char *detail = "") {
  printf("%s: %s%s\n", name, ok ? "ok" : "FAILED ", ok ? "" : detail);
  if (!ok) failures++;
}

#define CHECK(call)                                                      \
  do {                                                                   \
    cublasStatus_t s_ = (call);                                          \
    if (s_ != CUBLAS_STATUS_SUCCESS) {                                   \
      printf("%s: FAILED %s\n", #call, cublasLtGetStatusName(s_));       \
      failures++;                                                        \
    }                                                                    \
  } while (0)

// An FP8 E4M3 code of a value it holds exactly (the test's inputs), and the
// value of any code: 1 sign bit, 4 exponent bits (bias 7), 3 mantissa bits.
static uint8_t e4m3_code(double value) {
  uint8_t sign = value < 0 ? 0x80 : 0;
  double magnitude = std::fabs(value);
  if (magnitude == 0) return sign;
  int exponent = int(std::floor(std::log2(magnitude)));
  int mantissa = int((magnitude / std::ldexp(1.0, exponent) - 1.0) * 8.0);
  return uint8_t(sign | ((exponent + 7) << 3) | mantissa);
}
static double e4m3_value(uint8_t code) {
  int exponent = (code >> 3) & 15, mantissa = code & 7;
  double magnitude = exponent ? std::ldexp(8 + mantissa, exponent - 10) : std::ldexp(mantissa, -9);
  return code & 0x80 ? -magnitude : magnitude;
}

static size_t size_of(cudaDataType type) {
  switch (type) {
    case CUDA_R_64F: return 8;
    case CUDA_R_32F:
    case CUDA_R_32I: return 4;
    case CUDA_R_16F:
    case CUDA_R_16BF: return 2;
    default: return 1;
  }
}

// Element `i` of a byte array of `type`, written or read as a double.
static void put(cudaDataType type, std::vector<uint8_t> &bytes, size_t i, double value) {
  uint8_t *at = bytes.data() + i * size_of(type);
  switch (type) {
    case CUDA_R_32F: *reinterpret_cast<float *>(at) = float(value); break;
    case CUDA_R_64F: *reinterpret_cast<double *>(at) = value; break;
    case CUDA_R_16F: *reinterpret_cast<__half *>(at) = __float2half(float(value)); break;
    case CUDA_R_16BF: *reinterpret_cast<__nv_bfloat16 *>(at) = __float2bfloat16(float(value)); break;
    case CUDA_R_8I: *reinterpret_cast<int8_t *>(at) = int8_t(value); break;
    case CUDA_R_32I: *reinterpret_cast<int32_t *>(at) = int32_t(value); break;
    case CUDA_R_8F_E4M3: *at = e4m3_code(value); break;
    default: break;
  }
}
static double get(cudaDataType type, const std::vector<uint8_t> &bytes, size_t i) {
  const uint8_t *at = bytes.data() + i * size_of(type);
  switch (type) {
    case CUDA_R_32F: return *reinterpret_cast<const float *>(at);
    case CUDA_R_64F: return *reinterpret_cast<const double *>(at);
    case CUDA_R_16F: return __half2float(*reinterpret_cast<const __half *>(at));
    case CUDA_R_16BF: return __bfloat162float(*reinterpret_cast<const __nv_bfloat16 *>(at));
    case CUDA_R_8I: return *reinterpret_cast<const int8_t *>(at);
    case CUDA_R_32I: return *reinterpret_cast<const int32_t *>(at);
    case CUDA_R_8F_E4M3: return e4m3_value(*at);
    default: return 0;
  }
}

// One matmul to check: the types, operations, order (of all four matrices),
// sizes, scalars, epilogue, and whether A, B and D have scales (and D's
// amax is asked for) or C is D.
struct Case {
  const char *name;
  cudaDataType a_type, b_type, c_type, d_type;
  cublasComputeType_t compute;
  cudaDataType scale_type;
  cublasOperation_t trans_a, trans_b;
  cublasLtOrder_t order;
  int m, n, k, batch;
  double alpha, beta;
  cublasLtEpilogue_t epilogue;
  bool scales, in_place;
  double tolerance;  // relative to max(1, |reference|)
};

// A stored matrix: rows x cols in `order`, a leading dimension one past the
// least, `batch` of them apart by a stride larger than one.
struct Matrix {
  cudaDataType type;
  int rows, cols, batch;
  cublasLtOrder_t order;
  int64_t ld() const { return (order == CUBLASLT_ORDER_COL ? rows : cols) + 1; }
  int64_t stride() const { return ld() * (order == CUBLASLT_ORDER_COL ? cols : rows) + 3; }
  size_t count() const { return size_t(stride() * batch); }
  size_t at(int i, int j, int b) const {
    return size_t(b * stride() + (order == CUBLASLT_ORDER_COL ? i + j * ld() : i * ld() + j));
  }
  cublasLtMatrixLayout_t layout() const {
    cublasLtMatrixLayout_t l = nullptr;
    CHECK(cublasLtMatrixLayoutCreate(&l, type, rows, cols, ld()));
    int32_t order32 = order, batch32 = batch;
    int64_t stride64 = stride();
    CHECK(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_ORDER, &order32, sizeof(order32)));
    CHECK(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &batch32, sizeof(batch32)));
    CHECK(cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride64,
                                           sizeof(stride64)));
    return l;
  }
};

template <class T> static T *device_copy(const std::vector<T> &host) {
  T *device = nullptr;
  cudaMalloc(&device, host.size() * sizeof(T) + 1);
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}

// Small values every type holds exactly: halves in [-2, 2], integers for int8.
static double value_for(cudaDataType type, unsigned seed) {
  unsigned r = (seed * 2654435761u) >> 20;
  return type == CUDA_R_8I ? double(int(r % 15) - 7) : double(int(r % 9) - 4) / 2;
}

static void fill(const Matrix &x, std::vector<uint8_t> &bytes, unsigned seed) {
  bytes.assign(x.count() * size_of(x.type), 0);
  for (size_t i = 0; i < x.count(); i++) put(x.type, bytes, i, value_for(x.type, seed + unsigned(i)));
}

static void scalar(cudaDataType type, double value, std::vector<uint8_t> &bytes) {
  bytes.assign(8, 0);
  put(type, bytes, 0, value);
}

static double gelu(double x) { return 0.5 * x * (1 + std::tanh(0.7978845608028654 * (x + 0.044715 * x * x * x))); }

static void check_case(const Case &c, cudaStream_t stream, cublasLtHandle_t handle) {
  bool ta = c.trans_a != CUBLAS_OP_N, tb = c.trans_b != CUBLAS_OP_N;
  Matrix A{c.a_type, ta ? c.k : c.m, ta ? c.m : c.k, c.batch, c.order};
  Matrix B{c.b_type, tb ? c.n : c.k, tb ? c.k : c.n, c.batch, c.order};
  Matrix C{c.c_type, c.m, c.n, c.batch, c.order}, D{c.d_type, c.m, c.n, c.batch, c.order};
  std::vector<uint8_t> a, b, cc, d, bias(size_t(c.m) * size_of(c.d_type)), alpha, beta;
  fill(A, a, 1);
  fill(B, b, 1000);
  fill(C, cc, 5000);
  for (int i = 0; i < c.m; i++) put(c.d_type, bias, size_t(i), value_for(c.d_type, 77 + i));
  scalar(c.scale_type, c.alpha, alpha);
  scalar(c.scale_type, c.beta, beta);
  const float scales[4] = {0.5f, 4.0f, 1.0f, 0.25f};  // A, B, C, D
  float amax_found = -1;

  cublasLtMatmulDesc_t desc = nullptr;
  CHECK(cublasLtMatmulDescCreate(&desc, c.compute, c.scale_type));
  int32_t trans_a = c.trans_a, trans_b = c.trans_b;
  uint32_t epilogue = c.epilogue;
  CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &trans_a, sizeof(trans_a)));
  CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSB, &trans_b, sizeof(trans_b)));
  CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
  uint8_t *dA = device_copy(a), *dB = device_copy(b), *dC = device_copy(cc), *dBias = device_copy(bias);
  uint8_t *dD = c.in_place ? dC : device_copy(std::vector<uint8_t>(D.count() * size_of(D.type)));
  float *dScales = device_copy(std::vector<float>(scales, scales + 4)), *dAmax = device_copy(std::vector<float>{-1});
  if (c.epilogue & CUBLASLT_EPILOGUE_BIAS) {
    const void *pointer = dBias;
    CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &pointer, sizeof(pointer)));
  }
  if (c.scales) {
    const void *pointers[3] = {dScales, dScales + 1, dScales + 3};
    const cublasLtMatmulDescAttributes_t attrs[3] = {CUBLASLT_MATMUL_DESC_A_SCALE_POINTER,
                                                     CUBLASLT_MATMUL_DESC_B_SCALE_POINTER,
                                                     CUBLASLT_MATMUL_DESC_D_SCALE_POINTER};
    for (int i = 0; i < 3; i++) CHECK(cublasLtMatmulDescSetAttribute(desc, attrs[i], &pointers[i], sizeof(void *)));
    void *amax = dAmax;
    CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_AMAX_D_POINTER, &amax, sizeof(amax)));
    int8_t fast = 1;
    CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_FAST_ACCUM, &fast, sizeof(fast)));
  }
  cublasLtMatrixLayout_t la = A.layout(), lb = B.layout(), lc = C.layout(), ld = D.layout();
  CHECK(cublasLtMatmul(handle, desc, alpha.data(), dA, la, dB, lb, beta.data(), dC, lc, dD, ld, nullptr, nullptr, 0,
                       stream));
  cudaStreamSynchronize(stream);
  std::vector<uint8_t> out(D.count() * size_of(D.type));
  cudaMemcpy(out.data(), dD, out.size(), cudaMemcpyDeviceToHost);
  cudaMemcpy(&amax_found, dAmax, sizeof(float), cudaMemcpyDeviceToHost);

  double worst = 0, amax = 0;
  double scale_ab = c.scales ? double(scales[0]) * scales[1] : 1, scale_d = c.scales ? scales[3] : 1;
  for (int batch = 0; batch < c.batch; batch++)
    for (int i = 0; i < c.m; i++)
      for (int j = 0; j < c.n; j++) {
        double sum = 0;
        for (int l = 0; l < c.k; l++)
          sum += get(A.type, a, ta ? A.at(l, i, batch) : A.at(i, l, batch)) *
                 get(B.type, b, tb ? B.at(j, l, batch) : B.at(l, j, batch));
        double value = c.alpha * scale_ab * sum + c.beta * get(C.type, cc, C.at(i, j, batch));
        if (c.epilogue & CUBLASLT_EPILOGUE_BIAS) value += get(c.d_type, bias, size_t(i));
        if (c.epilogue & CUBLASLT_EPILOGUE_RELU) value = std::fmax(value, 0);
        if (c.epilogue & CUBLASLT_EPILOGUE_GELU) value = gelu(value);
        amax = std::fmax(amax, std::fabs(value));
        value *= scale_d;
        double error = std::fabs(get(D.type, out, D.at(i, j, batch)) - value) / std::fmax(1, std::fabs(value));
        worst = std::fmax(worst, error);
      }
  char detail[160];
  snprintf(detail, sizeof(detail), "worst relative error %g, amax %g (expected %g)", worst, amax_found, amax);
  report(c.name, worst <= c.tolerance && (!c.scales || std::fabs(amax_found - amax) <= 1e-3 * amax), detail);

  for (cublasLtMatrixLayout_t l : {la, lb, lc, ld}) CHECK(cublasLtMatrixLayoutDestroy(l));
  CHECK(cublasLtMatmulDescDestroy(desc));
  for (void *p : {(void *)dA, (void *)dB, (void *)dC, (void *)dBias, (void *)dScales, (void *)dAmax}) cudaFree(p);
  if (!c.in_place) cudaFree(dD);
}

// The attributes read back, the heuristic's one result and a matmul with
// the algorithm it gave.
static void check_heuristic(cublasLtHandle_t handle) {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatmulPreference_t preference = nullptr;
  cublasLtMatrixLayout_t layout = nullptr;
  CHECK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  CHECK(cublasLtMatmulPreferenceCreate(&preference));
  CHECK(cublasLtMatrixLayoutCreate(&layout, CUDA_R_32F, 4, 4, 4));
  uint64_t workspace = 1 << 22, workspace_read = 0;
  CHECK(cublasLtMatmulPreferenceSetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace,
                                             sizeof(workspace)));
  size_t written = 0;
  CHECK(cublasLtMatmulPreferenceGetAttribute(preference, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &workspace_read,
                                             sizeof(workspace_read), &written));
  bool ok = workspace_read == workspace && written == sizeof(uint64_t);
  int32_t compute = 0, trans = CUBLAS_OP_T, trans_read = 0;
  CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &trans, sizeof(trans)));
  CHECK(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_TRANSA, &trans_read, sizeof(trans_read), &written));
  CHECK(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_COMPUTE_TYPE, &compute, sizeof(compute), &written));
  ok = ok && trans_read == CUBLAS_OP_T && compute == CUBLAS_COMPUTE_32F;
  CHECK(cublasLtMatmulDescGetAttribute(desc, CUBLASLT_MATMUL_DESC_BIAS_POINTER, nullptr, 0, &written));
  ok = ok && written == sizeof(void *);
  uint64_t rows = 0;
  CHECK(cublasLtMatrixLayoutGetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_ROWS, &rows, sizeof(rows), &written));
  ok = ok && rows == 4;
  // The wrong size for an attribute is refused.
  ok = ok && cublasLtMatrixLayoutSetAttribute(layout, CUBLASLT_MATRIX_LAYOUT_ROWS, &trans, sizeof(trans)) ==
                 CUBLAS_STATUS_INVALID_VALUE;

  cublasLtMatmulHeuristicResult_t results[4] = {};
  int found = 0;
  CHECK(cublasLtMatmulAlgoGetHeuristic(handle, desc, layout, layout, layout, layout, preference, 4, results, &found));
  ok = ok && found == 1 && results[0].state == CUBLAS_STATUS_SUCCESS && results[0].workspaceSize == 0;

  std::vector<float> host(16);
  for (int i = 0; i < 16; i++) host[i] = float(i % 5);
  float *a = device_copy(host), *d = device_copy(std::vector<float>(16));
  float alpha = 1, beta = 0;
  CHECK(cublasLtMatmul(handle, desc, &alpha, a, layout, a, layout, &beta, d, layout, d, layout, &results[0].algo,
                       nullptr, 0, nullptr));
  std::vector<float> out(16);
  cudaMemcpy(out.data(), d, sizeof(float) * 16, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      float sum = 0;
      for (int l = 0; l < 4; l++) sum += host[l + i * 4] * host[l + j * 4];  // A^T A
      ok = ok && out[i + j * 4] == sum;
    }
  report("heuristic query", ok);
  cudaFree(a);
  cudaFree(d);
  CHECK(cublasLtMatrixLayoutDestroy(layout));
  CHECK(cublasLtMatmulPreferenceDestroy(preference));
  CHECK(cublasLtMatmulDescDestroy(desc));
}

// Alpha and beta in device memory: scalars, then a value a row (beta zero).
static void check_device_pointer_modes(cublasLtHandle_t handle) {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t a_layout = nullptr, b_layout = nullptr, d_layout = nullptr;
  CHECK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  CHECK(cublasLtMatrixLayoutCreate(&a_layout, CUDA_R_32F, 3, 2, 3));
  CHECK(cublasLtMatrixLayoutCreate(&b_layout, CUDA_R_32F, 2, 2, 2));
  CHECK(cublasLtMatrixLayoutCreate(&d_layout, CUDA_R_32F, 3, 2, 3));
  const std::vector<float> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, 2, 1}, c = {1, 1, 1, 2, 2, 2};
  float *dA = device_copy(a), *dB = device_copy(b), *dC = device_copy(c), *dD = device_copy(std::vector<float>(6));
  float *scalars = device_copy(std::vector<float>{2, -1}), *alphas = device_copy(std::vector<float>{1, 2, 3});
  int32_t mode = CUBLASLT_POINTER_MODE_DEVICE;
  CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode, sizeof(mode)));
  CHECK(cublasLtMatmul(handle, desc, scalars, dA, a_layout, dB, b_layout, scalars + 1, dC, d_layout, dD, d_layout,
                       nullptr, nullptr, 0, nullptr));
  std::vector<float> out(6);
  cudaMemcpy(out.data(), dD, sizeof(float) * 6, cudaMemcpyDeviceToHost);
  bool ok = true;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) {
      float product = a[i] * b[2 * j] + a[i + 3] * b[1 + 2 * j];
      ok = ok && out[i + 3 * j] == 2 * product - c[i + 3 * j];
    }
  mode = CUBLASLT_POINTER_MODE_ALPHA_DEVICE_VECTOR_BETA_ZERO;
  CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_POINTER_MODE, &mode, sizeof(mode)));
  CHECK(cublasLtMatmul(handle, desc, alphas, dA, a_layout, dB, b_layout, nullptr, dC, d_layout, dD, d_layout,
                       nullptr, nullptr, 0, nullptr));
  cudaMemcpy(out.data(), dD, sizeof(float) * 6, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 2; j++) ok = ok && out[i + 3 * j] == (i + 1) * (a[i] * b[2 * j] + a[i + 3] * b[1 + 2 * j]);
  report("device pointer modes", ok);
  for (float *p : {dA, dB, dC, dD, scalars, alphas}) cudaFree(p);
  for (cublasLtMatrixLayout_t l : {a_layout, b_layout, d_layout}) CHECK(cublasLtMatrixLayoutDestroy(l));
  CHECK(cublasLtMatmulDescDestroy(desc));
}

// What cuBLASLt refuses: mismatched shapes, an epilogue gpusym lacks, a null handle.
static void check_bad_calls(cublasLtHandle_t handle) {
  cublasLtMatmulDesc_t desc = nullptr;
  cublasLtMatrixLayout_t four = nullptr, five = nullptr;
  CHECK(cublasLtMatmulDescCreate(&desc, CUBLAS_COMPUTE_32F, CUDA_R_32F));
  CHECK(cublasLtMatrixLayoutCreate(&four, CUDA_R_32F, 4, 4, 4));
  CHECK(cublasLtMatrixLayoutCreate(&five, CUDA_R_32F, 5, 5, 5));
  float *x = device_copy(std::vector<float>(25)), alpha = 1, beta = 0;
  bool ok = cublasLtMatmul(handle, desc, &alpha, x, four, x, five, &beta, x, four, x, four, nullptr, nullptr, 0,
                           nullptr) == CUBLAS_STATUS_INVALID_VALUE;
  uint32_t epilogue = CUBLASLT_EPILOGUE_DGELU;
  CHECK(cublasLtMatmulDescSetAttribute(desc, CUBLASLT_MATMUL_DESC_EPILOGUE, &epilogue, sizeof(epilogue)));
  ok = ok && cublasLtMatmul(handle, desc, &alpha, x, four, x, four, &beta, x, four, x, four, nullptr, nullptr, 0,
                            nullptr) == CUBLAS_STATUS_NOT_SUPPORTED;
  ok = ok && cublasLtMatmul(nullptr, desc, &alpha, x, four, x, four, &beta, x, four, x, four, nullptr, nullptr, 0,
                            nullptr) == CUBLAS_STATUS_NOT_INITIALIZED;
  ok = ok && strcmp(cublasLtGetStatusName(CUBLAS_STATUS_NOT_SUPPORTED), "CUBLAS_STATUS_NOT_SUPPORTED") == 0;
  report("bad calls", ok);
  cudaFree(x);
  CHECK(cublasLtMatrixLayoutDestroy(four));
  CHECK(cublasLtMatrixLayoutDestroy(five));
  CHECK(cublasLtMatmulDescDestroy(desc));
}

int main() {
  cublasLtHandle_t handle = nullptr;
  CHECK(cublasLtCreate(&handle));
  cudaStream_t stream = nullptr;
  cudaStreamCreate(&stream);
  const cublasOperation_t N = CUBLAS_OP_N, T = CUBLAS_OP_T;
  const cublasLtOrder_t col = CUBLASLT_ORDER_COL, row = CUBLASLT_ORDER_ROW;
  const cublasLtEpilogue_t plain = CUBLASLT_EPILOGUE_DEFAULT;
  const Case cases[] = {
      {"float", CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, N, N, col, 7, 5, 6, 1,
       1.5, 0.5, plain, false, false, 1e-6},
      {"double", CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUDA_R_64F, CUBLAS_COMPUTE_64F, CUDA_R_64F, T, N, col, 6, 4, 9, 1,
       -2.0, 1.0, plain, false, false, 1e-12},
      {"transposes", CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, T, T, col, 5, 3, 4,
       1, 1.0, 2.0, plain, false, true, 1e-6},
      {"row order", CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, N, T, row, 6, 5, 3,
       1, 1.0, -1.0, plain, false, false, 1e-6},
      {"half in, float out", CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, N, T, col,
       8, 6, 10, 1, 1.0, 1.0, plain, false, false, 1e-6},
      {"half", CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, T, N, row, 5, 7, 6, 1,
       1.0, 0.5, plain, false, false, 1e-3},
      {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, CUDA_R_32F, N, N, col, 9, 4, 7,
       1, 0.5, 1.0, plain, false, false, 1e-2},
      {"int8 to int32", CUDA_R_8I, CUDA_R_8I, CUDA_R_32I, CUDA_R_32I, CUBLAS_COMPUTE_32I, CUDA_R_32I, T, N, col, 6, 5,
       12, 1, 2.0, 1.0, plain, false, false, 0},
      {"FP8 E4M3 with scales", CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F,
       T, N, col, 8, 5, 16, 1, 1.0, 0.0, plain, true, false, 1e-6},
      {"FP8 E4M3 output", CUDA_R_8F_E4M3, CUDA_R_8F_E4M3, CUDA_R_16BF, CUDA_R_8F_E4M3, CUBLAS_COMPUTE_32F, CUDA_R_32F,
       T, N, col, 6, 4, 8, 1, 1.0, 1.0, plain, true, false, 1.0 / 16},
      {"batched strided", CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, N, T, col, 4,
       6, 5, 3, 1.0, 1.0, plain, false, false, 1e-6},
      {"batched half, row order", CUDA_R_16F, CUDA_R_16F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, T, N,
       row, 5, 3, 7, 4, 1.0, 0.5, plain, false, false, 1e-6},
      {"RELU epilogue", CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, N, N, col, 7, 6,
       5, 1, 1.0, 0.0, CUBLASLT_EPILOGUE_RELU, false, false, 1e-6},
      {"BIAS epilogue", CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, N, N, col, 7, 6,
       5, 2, 1.0, 1.0, CUBLASLT_EPILOGUE_BIAS, false, false, 1e-6},
      {"RELU_BIAS epilogue, half", CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, CUDA_R_32F, T, N,
       col, 6, 6, 6, 1, 1.0, 0.0, CUBLASLT_EPILOGUE_RELU_BIAS, false, false, 1e-3},
      {"GELU_BIAS epilogue", CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, CUDA_R_32F, N, N, row,
       5, 4, 3, 1, 0.5, 0.0, CUBLASLT_EPILOGUE_GELU_BIAS, false, false, 1e-5},
  };
  for (const Case &c : cases) check_case(c, stream, handle);
  check_heuristic(handle);
  check_device_pointer_modes(handle);
  check_bad_calls(handle);
  cudaStreamDestroy(stream);
  CHECK(cublasLtDestroy(handle));
  printf("cublasLt: %d failed\n", failures);
  return failures != 0;
}
