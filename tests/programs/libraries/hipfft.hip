// gpusym's hipFFT against a naive DFT computed here: every transform type in
// one, two and three dimensions, batched, in place and out of place, in
// hipFFT's advanced layouts, in a stream after and before kernels; the
// plan API's sizes, versions and errors.  Prints "hipfft: CASE: ok" or
// "hipfft: CASE: FAILED ..." per case.
#include <hip/hip_runtime.h>
#include <hipfft/hipfftXt.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using Complex = std::complex<double>;

static int failures = 0;

static void report(const std::string &name, bool ok, const std::string &why = "") {
  std::printf("hipfft: %s: %s%s\n", name.c_str(), ok ? "ok" : "FAILED ", ok ? "" : why.c_str());
  failures += !ok;
}

static bool is_double(hipfftType type) { return type == HIPFFT_Z2Z || type == HIPFFT_D2Z || type == HIPFFT_Z2D; }
static bool real_input(hipfftType type) { return type == HIPFFT_R2C || type == HIPFFT_D2Z; }
static bool real_output(hipfftType type) { return type == HIPFFT_C2R || type == HIPFFT_Z2D; }

/// The DFT of `x` (row-major, sizes n) with exponent sign `sign`, unnormalised.
static std::vector<Complex> dft(std::vector<Complex> x, const std::vector<long long> &n, int sign) {
  long long total = x.size(), inner = 1;
  for (int d = static_cast<int>(n.size()) - 1; d >= 0; --d) {
    std::vector<Complex> y(total);
    long long len = n[d];
    for (long long i = 0; i < total; ++i) {
      long long k = i / inner % len, base = i - k * inner;
      Complex sum = 0;
      for (long long j = 0; j < len; ++j)
        sum += x[base + j * inner] * std::polar(1.0, sign * 2 * M_PI * double(j * k % len) / double(len));
      y[i] = sum;
    }
    x = y;
    inner *= len;
  }
  return x;
}

/// One side's layout, in elements of that side.
struct Side {
  std::vector<long long> stride;
  long long distance;
};

/// Contiguous rows of `extent`.
static Side contiguous(std::vector<long long> extent) {
  Side side{std::vector<long long>(extent.size()), 1};
  for (int d = static_cast<int>(extent.size()) - 1; d >= 0; --d) {
    side.stride[d] = side.distance;
    side.distance *= extent[d];
  }
  return side;
}

/// hipFFT's advanced layout.
static Side embedded(const std::vector<long long> &embed, long long stride, long long distance) {
  Side side{std::vector<long long>(embed.size()), distance};
  for (int d = static_cast<int>(embed.size()) - 1; d >= 0; --d) {
    side.stride[d] = stride;
    stride *= embed[d];
  }
  return side;
}

/// Offset of each element of each batch of a side with sizes `len`.
static std::vector<long long> offsets(const Side &side, const std::vector<long long> &len, long long batch) {
  std::vector<long long> result;
  long long count = 1;
  for (long long l : len) count *= l;
  for (long long b = 0; b < batch; ++b)
    for (long long i = 0; i < count; ++i) {
      long long offset = b * side.distance, rest = i;
      for (int d = static_cast<int>(len.size()) - 1; d >= 0; --d) {
        offset += rest % len[d] * side.stride[d];
        rest /= len[d];
      }
      result.push_back(offset);
    }
  return result;
}

/// A transform to check: its plan, shape and layouts.
struct Case {
  std::string name;
  hipfftHandle plan;
  hipfftType type;
  std::vector<long long> n;
  long long batch;
  Side in, out;
  bool in_place;
  int sign;
  hipStream_t stream = nullptr;
  double scale = 1.0;  // the plan's hipfftExtPlanScaleFactor
};

static hipfftResult execute(const Case &c, void *in, void *out) {
  switch (c.type) {
  case HIPFFT_C2C: return hipfftExecC2C(c.plan, (hipfftComplex *)in, (hipfftComplex *)out, c.sign);
  case HIPFFT_Z2Z: return hipfftExecZ2Z(c.plan, (hipfftDoubleComplex *)in, (hipfftDoubleComplex *)out, c.sign);
  case HIPFFT_R2C: return hipfftExecR2C(c.plan, (hipfftReal *)in, (hipfftComplex *)out);
  case HIPFFT_D2Z: return hipfftExecD2Z(c.plan, (hipfftDoubleReal *)in, (hipfftDoubleComplex *)out);
  case HIPFFT_C2R: return hipfftExecC2R(c.plan, (hipfftComplex *)in, (hipfftReal *)out);
  case HIPFFT_Z2D: return hipfftExecZ2D(c.plan, (hipfftDoubleComplex *)in, (hipfftDoubleReal *)out);
  }
  return HIPFFT_INVALID_TYPE;
}

/// Runs `c` on random data (a Hermitian spectrum for complex-to-real) and
/// compares each output element with the naive DFT's; destroys the plan.
static void check(const Case &c) {
  std::vector<long long> half = c.n;
  half.back() = half.back() / 2 + 1;
  const std::vector<long long> &in_len = c.type == HIPFFT_C2R || c.type == HIPFFT_Z2D ? half : c.n;
  const std::vector<long long> &out_len = real_input(c.type) ? half : c.n;
  long long points = 1;
  for (long long l : c.n) points *= l;
  std::mt19937 random(7);
  std::uniform_real_distribution<double> uniform(-1, 1);

  // Logical data per batch, and what the transform must give.
  std::vector<Complex> input, expected;
  for (long long b = 0; b < c.batch; ++b) {
    std::vector<Complex> x(points);
    for (Complex &v : x) v = real_input(c.type) || real_output(c.type) ? Complex(uniform(random), 0)
                                                                       : Complex(uniform(random), uniform(random));
    std::vector<Complex> spectrum = dft(x, c.n, c.sign);
    if (real_output(c.type)) {  // the input is the half spectrum of real x; the output N x
      std::vector<Complex> forward = dft(x, c.n, HIPFFT_FORWARD);
      for (long long o : offsets(contiguous(c.n), in_len, 1)) input.push_back(forward[o]);
      for (Complex v : x) expected.push_back(v * double(points));
      continue;
    }
    input.insert(input.end(), x.begin(), x.end());
    for (long long o : offsets(contiguous(c.n), out_len, 1)) expected.push_back(spectrum[o]);
  }
  for (Complex &v : expected) v *= c.scale;

  // Host buffers of doubles: a complex element is two.
  int in_parts = real_input(c.type) ? 1 : 2, out_parts = real_output(c.type) ? 1 : 2;
  std::vector<long long> in_at = offsets(c.in, in_len, c.batch), out_at = offsets(c.out, out_len, c.batch);
  long long in_size = 0, out_size = 0;
  for (long long o : in_at) in_size = std::max(in_size, (o + 1) * in_parts);
  for (long long o : out_at) out_size = std::max(out_size, (o + 1) * out_parts);
  std::vector<double> in_host(in_size, 1e3);  // gaps hold a value no transform may use
  for (size_t i = 0; i < in_at.size(); ++i) {
    in_host[in_at[i] * in_parts] = input[i].real();
    if (in_parts == 2) in_host[in_at[i] * 2 + 1] = input[i].imag();
  }
  size_t real_bytes = is_double(c.type) ? 8 : 4;
  std::vector<char> bytes(std::max(in_size, out_size) * real_bytes);
  for (long long i = 0; i < in_size; ++i)
    if (real_bytes == 8) reinterpret_cast<double *>(bytes.data())[i] = in_host[i];
    else reinterpret_cast<float *>(bytes.data())[i] = static_cast<float>(in_host[i]);

  void *in = nullptr, *out = nullptr;
  hipMalloc(&in, bytes.size());
  out = in;
  if (!c.in_place) hipMalloc(&out, out_size * real_bytes);
  hipMemcpyAsync(in, bytes.data(), in_size * real_bytes, hipMemcpyHostToDevice, c.stream);
  hipfftResult result = execute(c, in, out);
  hipMemcpyAsync(bytes.data(), out, out_size * real_bytes, hipMemcpyDeviceToHost, c.stream);
  hipStreamSynchronize(c.stream);

  double error = 0, largest = 1;
  for (size_t i = 0; i < out_at.size(); ++i) {
    auto at = [&](long long index) {
      return real_bytes == 8 ? reinterpret_cast<double *>(bytes.data())[index]
                             : double(reinterpret_cast<float *>(bytes.data())[index]);
    };
    Complex got(at(out_at[i] * out_parts), out_parts == 2 ? at(out_at[i] * 2 + 1) : 0.0);
    error = std::max(error, std::abs(got - expected[i]));
    largest = std::max(largest, std::abs(expected[i]));
  }
  double tolerance = is_double(c.type) ? 1e-12 : 1e-5;
  char why[160];
  std::snprintf(why, sizeof why, "(result %d, relative error %.3g)", int(result), error / largest);
  report(c.name, result == HIPFFT_SUCCESS && error / largest < tolerance, why);
  hipFree(in);
  if (!c.in_place) hipFree(out);
  hipfftDestroy(c.plan);
}

/// The layouts of a plan made without embeds.
static Case basic(std::string name, hipfftHandle plan, hipfftType type, std::vector<long long> n, long long batch,
                  bool in_place, int sign) {
  std::vector<long long> half = n, padded = n;
  half.back() = n.back() / 2 + 1;
  padded.back() = in_place ? 2 * half.back() : n.back();
  Side complex_side = contiguous(half), real_side = contiguous(padded);
  Side in = real_input(type) ? real_side : real_output(type) ? complex_side : contiguous(n);
  Side out = real_input(type) ? complex_side : real_output(type) ? real_side : contiguous(n);
  return {name, plan, type, n, batch, in, out, in_place, sign};
}

static hipfftHandle plan1d(int nx, hipfftType type, int batch) {
  hipfftHandle plan = nullptr;
  if (hipfftPlan1d(&plan, nx, type, batch) != HIPFFT_SUCCESS) report("hipfftPlan1d", false);
  return plan;
}

static hipfftHandle plan2d(int nx, int ny, hipfftType type) {
  hipfftHandle plan = nullptr;
  if (hipfftPlan2d(&plan, nx, ny, type) != HIPFFT_SUCCESS) report("hipfftPlan2d", false);
  return plan;
}

static hipfftHandle plan3d(int nx, int ny, int nz, hipfftType type) {
  hipfftHandle plan = nullptr;
  if (hipfftPlan3d(&plan, nx, ny, nz, type) != HIPFFT_SUCCESS) report("hipfftPlan3d", false);
  return plan;
}

static void basic_cases() {
  check(basic("C2C 1D forward", plan1d(16, HIPFFT_C2C, 1), HIPFFT_C2C, {16}, 1, false, HIPFFT_FORWARD));
  check(basic("C2C 1D inverse", plan1d(12, HIPFFT_C2C, 1), HIPFFT_C2C, {12}, 1, false, HIPFFT_BACKWARD));
  check(basic("C2C 1D batched in place", plan1d(10, HIPFFT_C2C, 4), HIPFFT_C2C, {10}, 4, true, HIPFFT_FORWARD));
  check(basic("C2C 2D in place", plan2d(6, 5, HIPFFT_C2C), HIPFFT_C2C, {6, 5}, 1, true, HIPFFT_FORWARD));
  check(basic("C2C 3D inverse", plan3d(4, 3, 5, HIPFFT_C2C), HIPFFT_C2C, {4, 3, 5}, 1, false, HIPFFT_BACKWARD));
  check(basic("R2C 1D batched", plan1d(15, HIPFFT_R2C, 3), HIPFFT_R2C, {15}, 3, false, HIPFFT_FORWARD));
  check(basic("R2C 2D in place", plan2d(6, 7, HIPFFT_R2C), HIPFFT_R2C, {6, 7}, 1, true, HIPFFT_FORWARD));
  check(basic("R2C 3D", plan3d(3, 4, 6, HIPFFT_R2C), HIPFFT_R2C, {3, 4, 6}, 1, false, HIPFFT_FORWARD));
  check(basic("C2R 1D batched", plan1d(15, HIPFFT_C2R, 3), HIPFFT_C2R, {15}, 3, false, HIPFFT_BACKWARD));
  check(basic("C2R 2D in place", plan2d(5, 8, HIPFFT_C2R), HIPFFT_C2R, {5, 8}, 1, true, HIPFFT_BACKWARD));
  check(basic("C2R 3D", plan3d(4, 5, 6, HIPFFT_C2R), HIPFFT_C2R, {4, 5, 6}, 1, false, HIPFFT_BACKWARD));
  check(basic("Z2Z 1D batched", plan1d(9, HIPFFT_Z2Z, 3), HIPFFT_Z2Z, {9}, 3, false, HIPFFT_FORWARD));
  check(basic("Z2Z 2D inverse in place", plan2d(4, 6, HIPFFT_Z2Z), HIPFFT_Z2Z, {4, 6}, 1, true, HIPFFT_BACKWARD));
  check(basic("Z2Z 3D", plan3d(3, 5, 4, HIPFFT_Z2Z), HIPFFT_Z2Z, {3, 5, 4}, 1, false, HIPFFT_FORWARD));
  check(basic("D2Z 1D in place", plan1d(14, HIPFFT_D2Z, 2), HIPFFT_D2Z, {14}, 2, true, HIPFFT_FORWARD));
  check(basic("D2Z 3D", plan3d(4, 3, 7, HIPFFT_D2Z), HIPFFT_D2Z, {4, 3, 7}, 1, false, HIPFFT_FORWARD));
  check(basic("Z2D 2D", plan2d(6, 9, HIPFFT_Z2D), HIPFFT_Z2D, {6, 9}, 1, false, HIPFFT_BACKWARD));
  check(basic("Z2D 3D in place", plan3d(3, 4, 4, HIPFFT_Z2D), HIPFFT_Z2D, {3, 4, 4}, 1, true, HIPFFT_BACKWARD));
}

/// hipfftPlanMany with inembed/istride/idist and onembed/ostride/odist.
static void advanced(std::string name, hipfftType type, std::vector<int> n, std::vector<int> inembed, int istride,
                     int idist, std::vector<int> onembed, int ostride, int odist, int batch, bool in_place,
                     int sign) {
  hipfftHandle plan = nullptr;
  hipfftResult made = hipfftPlanMany(&plan, int(n.size()), n.data(), inembed.data(), istride, idist, onembed.data(),
                                     ostride, odist, type, batch);
  if (made != HIPFFT_SUCCESS) return report(name, false, "(hipfftPlanMany " + std::to_string(made) + ")");
  std::vector<long long> n64(n.begin(), n.end()), in64(inembed.begin(), inembed.end()),
      out64(onembed.begin(), onembed.end());
  check({name, plan, type, n64, batch, embedded(in64, istride, idist), embedded(out64, ostride, odist), in_place,
         sign});
}

static void advanced_cases() {
  advanced("PlanMany C2C 2D strided", HIPFFT_C2C, {4, 5}, {6, 7}, 2, 6 * 7 * 2 + 3, {5, 6}, 1, 31, 3, false,
           HIPFFT_FORWARD);
  // Batches interleaved: element stride the batch count, distance 1.
  advanced("PlanMany Z2Z 1D interleaved", HIPFFT_Z2Z, {8}, {8}, 3, 1, {8}, 3, 1, 3, false, HIPFFT_BACKWARD);
  advanced("PlanMany R2C 1D strided", HIPFFT_R2C, {12}, {14}, 2, 30, {8}, 1, 9, 2, false, HIPFFT_FORWARD);
  advanced("PlanMany C2R 2D strided", HIPFFT_C2R, {4, 6}, {5, 4}, 1, 22, {4, 8}, 1, 33, 2, false, HIPFFT_BACKWARD);
  advanced("PlanMany D2Z 3D padded", HIPFFT_D2Z, {3, 4, 5}, {3, 4, 6}, 1, 72, {3, 4, 3}, 1, 36, 2, false,
           HIPFFT_FORWARD);
  advanced("PlanMany Z2D 2D in place", HIPFFT_Z2D, {4, 6}, {4, 4}, 1, 16, {4, 8}, 1, 32, 2, true, HIPFFT_BACKWARD);
  advanced("PlanMany C2C 3D in place", HIPFFT_C2C, {2, 3, 4}, {2, 3, 5}, 1, 30, {2, 3, 5}, 1, 30, 2, true,
           HIPFFT_FORWARD);
}

/// hipfftCreate, the settings, hipfftMakePlanMany64 and the scale factor.
static void created_plans() {
  hipfftHandle plan = nullptr;
  size_t size = 99;
  long long n[] = {6, 10};
  bool ok = hipfftCreate(&plan) == HIPFFT_SUCCESS && hipfftSetAutoAllocation(plan, 0) == HIPFFT_SUCCESS &&
            hipfftExtPlanScaleFactor(plan, 1.0 / 60) == HIPFFT_SUCCESS &&
            hipfftMakePlanMany64(plan, 2, n, nullptr, 1, 0, nullptr, 1, 0, HIPFFT_Z2Z, 2, &size) ==
                HIPFFT_SUCCESS &&
            size == 0 && hipfftGetSize(plan, &size) == HIPFFT_SUCCESS && size == 0 &&
            hipfftSetWorkArea(plan, nullptr) == HIPFFT_SUCCESS;
  report("hipfftCreate and settings", ok);
  Case scaled = basic("MakePlanMany64 Z2Z scaled by 1/N", plan, HIPFFT_Z2Z, {6, 10}, 2, false, HIPFFT_BACKWARD);
  scaled.scale = 1.0 / 60;
  check(scaled);

  hipfftCreate(&plan);
  ok = hipfftMakePlan3d(plan, 2, 3, 4, HIPFFT_R2C, &size) == HIPFFT_SUCCESS && size == 0;
  report("hipfftMakePlan3d", ok);
  check(basic("MakePlan3d R2C", plan, HIPFFT_R2C, {2, 3, 4}, 1, false, HIPFFT_FORWARD));
  hipfftCreate(&plan);
  report("hipfftMakePlan1d", hipfftMakePlan1d(plan, 20, HIPFFT_D2Z, 2, nullptr) == HIPFFT_SUCCESS);
  check(basic("MakePlan1d D2Z", plan, HIPFFT_D2Z, {20}, 2, false, HIPFFT_FORWARD));

  // Xt: the same transforms by data types.
  hipfftCreate(&plan);
  long long xn[] = {16};
  ok = hipfftXtMakePlanMany(plan, 1, xn, nullptr, 1, 0, HIP_R_32F, nullptr, 1, 0, HIP_C_32F, 2, &size,
                            HIP_C_32F) == HIPFFT_SUCCESS;
  report("hipfftXtMakePlanMany", ok);
  std::vector<float> real(32), host(2 * 9 * 2);
  for (int i = 0; i < 32; ++i) real[i] = float(i % 16 == 3) + float(i / 16);
  void *in, *out;
  hipMalloc(&in, 32 * sizeof(float));
  hipMalloc(&out, host.size() * sizeof(float));
  hipMemcpy(in, real.data(), 32 * sizeof(float), hipMemcpyHostToDevice);
  ok = hipfftXtExec(plan, in, out, HIPFFT_FORWARD) == HIPFFT_SUCCESS;
  hipMemcpy(host.data(), out, host.size() * sizeof(float), hipMemcpyDeviceToHost);
  // Batch 0: a delta at 3, e^{-2 pi i 3 k / 16}; batch 1: that plus 16 at k = 0.
  for (int k = 0; k < 9; ++k) {
    Complex expected = std::polar(1.0, -2 * M_PI * 3 * k / 16);
    ok &= std::abs(Complex(host[2 * k], host[2 * k + 1]) - expected) < 1e-5;
    ok &= std::abs(Complex(host[18 + 2 * k], host[18 + 2 * k + 1]) - expected - (k ? 0.0 : 16.0)) < 1e-5;
  }
  report("hipfftXtExec R2C", ok);
  hipFree(in);
  hipFree(out);
  hipfftDestroy(plan);
  hipfftCreate(&plan);
  report("hipfftXtMakePlanMany half precision: not supported",
         hipfftXtMakePlanMany(plan, 1, xn, nullptr, 1, 0, HIP_R_16F, nullptr, 1, 0, HIP_C_16F, 1, &size,
                              HIP_C_16F) == HIPFFT_NOT_SUPPORTED);
  hipfftDestroy(plan);
}

__global__ void ramp(hipfftComplex *data, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = make_hipFloatComplex(float(i % 7), float(i % 3));
}

__global__ void scale(hipfftComplex *data, int n, float factor) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = make_hipFloatComplex(data[i].x * factor, data[i].y * factor);
}

/// In a stream of its own: a kernel writes the input, the transform runs
/// after it, a kernel scales its output (in memory only the transform wrote:
/// initcheck must see it written), the inverse transform runs after that;
/// plans destroyed before the stream ends; results seen after
/// hipStreamSynchronize and after hipDeviceSynchronize.
static void stream_order() {
  const int n = 4096, batch = 8;
  hipStream_t stream;
  hipStreamCreate(&stream);
  hipfftHandle forward, inverse;
  hipfftPlan1d(&forward, n, HIPFFT_C2C, batch);
  hipfftPlan1d(&inverse, n, HIPFFT_C2C, batch);
  bool ok = hipfftSetStream(forward, stream) == HIPFFT_SUCCESS && hipfftSetStream(inverse, stream) == HIPFFT_SUCCESS;
  hipfftComplex *data, *spectrum;
  hipMalloc(&data, sizeof(hipfftComplex) * n * batch);
  hipMalloc(&spectrum, sizeof(hipfftComplex) * n * batch);
  hipMemsetAsync(data, 0, sizeof(hipfftComplex) * n * batch, stream);
  for (int round = 0; round < 3; ++round) {
    hipLaunchKernelGGL(ramp, dim3(n * batch / 256), dim3(256), 0, stream, data, n * batch);
    ok &= hipfftExecC2C(forward, data, spectrum, HIPFFT_FORWARD) == HIPFFT_SUCCESS;
    hipLaunchKernelGGL(scale, dim3(n * batch / 256), dim3(256), 0, stream, spectrum, n * batch, 1.0f / n);
    ok &= hipfftExecC2C(inverse, spectrum, data, HIPFFT_BACKWARD) == HIPFFT_SUCCESS;
  }
  hipfftDestroy(forward);
  hipfftDestroy(inverse);
  std::vector<hipfftComplex> host(n * batch);
  hipMemcpyAsync(host.data(), data, sizeof(hipfftComplex) * n * batch, hipMemcpyDeviceToHost, stream);
  hipStreamSynchronize(stream);
  for (int i = 0; i < n * batch; ++i)
    ok &= std::abs(host[i].x - float(i % 7)) < 1e-3f && std::abs(host[i].y - float(i % 3)) < 1e-3f;
  report("stream order: kernel, C2C, kernel, C2C", ok);

  // Results visible after hipDeviceSynchronize, read on the host directly
  // from managed memory.
  hipfftComplex *managed;
  hipMallocManaged(&managed, sizeof(hipfftComplex) * 8);
  for (int i = 0; i < 8; ++i) managed[i] = make_hipFloatComplex(1, 0);
  hipfftPlan1d(&forward, 8, HIPFFT_C2C, 1);
  hipfftSetStream(forward, stream);
  ok = hipfftExecC2C(forward, managed, managed, HIPFFT_FORWARD) == HIPFFT_SUCCESS;
  hipDeviceSynchronize();
  ok &= managed[0].x == 8 && managed[0].y == 0;
  for (int i = 1; i < 8; ++i) ok &= std::abs(managed[i].x) < 1e-6f && std::abs(managed[i].y) < 1e-6f;
  report("hipDeviceSynchronize sees the result", ok);
  hipfftDestroy(forward);
  hipFree(managed);
  hipFree(data);
  hipFree(spectrum);
  hipStreamDestroy(stream);
}

static void sizes_versions_and_errors() {
  size_t size = 99;
  int n[] = {8, 8};
  bool ok = hipfftEstimate1d(64, HIPFFT_C2C, 2, &size) == HIPFFT_SUCCESS && size == 0;
  ok &= hipfftEstimate2d(8, 8, HIPFFT_R2C, &size) == HIPFFT_SUCCESS;
  ok &= hipfftEstimate3d(4, 4, 4, HIPFFT_Z2D, &size) == HIPFFT_SUCCESS;
  ok &= hipfftEstimateMany(2, n, nullptr, 1, 0, nullptr, 1, 0, HIPFFT_C2C, 3, &size) == HIPFFT_SUCCESS;
  hipfftHandle plan;
  hipfftCreate(&plan);
  ok &= hipfftGetSize1d(plan, 64, HIPFFT_C2C, 2, &size) == HIPFFT_SUCCESS;
  ok &= hipfftGetSize2d(plan, 8, 8, HIPFFT_D2Z, &size) == HIPFFT_SUCCESS;
  ok &= hipfftGetSize3d(plan, 4, 4, 4, HIPFFT_C2R, &size) == HIPFFT_SUCCESS;
  ok &= hipfftGetSizeMany(plan, 2, n, n, 1, 64, n, 1, 64, HIPFFT_Z2Z, 1, &size) == HIPFFT_SUCCESS && size == 0;
  report("estimates and sizes", ok);

  int version = 0, major = -1, minor = -1, patch = -1;
  ok = hipfftGetVersion(&version) == HIPFFT_SUCCESS && hipfftGetProperty(HIPFFT_MAJOR_VERSION, &major) == 0 &&
       hipfftGetProperty(HIPFFT_MINOR_VERSION, &minor) == 0 && hipfftGetProperty(HIPFFT_PATCH_LEVEL, &patch) == 0;
  std::printf("hipfft: version %d (%d.%d.%d)\n", version, major, minor, patch);
  report("version", ok && version == major * 10000 + minor * 100 + patch && patch == hipfftVersionPatch);

  hipfftHandle bad = nullptr;
  ok = hipfftPlan1d(&bad, 0, HIPFFT_C2C, 1) == HIPFFT_INVALID_SIZE && bad == nullptr;
  ok &= hipfftPlan1d(&bad, 8, HIPFFT_C2C, 0) == HIPFFT_INVALID_SIZE;
  ok &= hipfftPlan2d(&bad, 8, 8, hipfftType(0x33)) == HIPFFT_INVALID_TYPE;
  ok &= hipfftPlanMany(&bad, 2, n, n, 1, 64, nullptr, 1, 64, HIPFFT_C2C, 1) == HIPFFT_INVALID_VALUE;
  ok &= hipfftPlanMany(&bad, 4, n, nullptr, 1, 0, nullptr, 1, 0, HIPFFT_C2C, 1) == HIPFFT_INVALID_SIZE;
  hipfftComplex *data;
  hipMalloc(&data, sizeof(hipfftComplex) * 8);
  ok &= hipfftExecC2C(plan, data, data, HIPFFT_FORWARD) == HIPFFT_INVALID_PLAN;  // created, never made
  hipfftMakePlan1d(plan, 8, HIPFFT_R2C, 1, nullptr);
  ok &= hipfftExecC2C(plan, data, data, HIPFFT_FORWARD) == HIPFFT_INVALID_VALUE;  // not a C2C plan
  ok &= hipfftExecR2C(plan, nullptr, data) == HIPFFT_EXEC_FAILED;
  ok &= hipfftExecC2C(nullptr, data, data, HIPFFT_FORWARD) == HIPFFT_INVALID_PLAN;
  ok &= hipfftDestroy(plan) == HIPFFT_SUCCESS;
  hipFree(data);
  report("errors", ok);
}

/// Each not-supported function answers so every time and says so once.
static void not_supported() {
  hipfftHandle plan;
  hipfftPlan1d(&plan, 8, HIPFFT_C2C, 1);
  int gpus[] = {0, 1};
  bool ok = hipfftXtSetGPUs(plan, 2, gpus) == HIPFFT_NOT_SUPPORTED;
  ok &= hipfftXtSetGPUs(plan, 2, gpus) == HIPFFT_NOT_SUPPORTED;
  void *callbacks[1] = {nullptr};
  ok &= hipfftXtSetCallback(plan, callbacks, HIPFFT_CB_LD_COMPLEX, nullptr) == HIPFFT_NOT_SUPPORTED;
  ok &= hipfftXtSetCallback(plan, callbacks, HIPFFT_CB_LD_COMPLEX, nullptr) == HIPFFT_NOT_SUPPORTED;
  hipfftDestroy(plan);
  report("not supported", ok);
}

int main() {
  basic_cases();
  advanced_cases();
  created_plans();
  stream_order();
  sizes_versions_and_errors();
  not_supported();
  std::printf("hipfft: %d failed\n", failures);
  return failures != 0;
}
