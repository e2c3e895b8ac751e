// cuFFT on the simulated device: transforms against a naive DFT computed
// here, inverses, batches, plans made in two steps, a stream, and the results
// of bad calls.  Prints "NAME: ok" or "NAME: FAILED ...".
#include <cufft.h>
#include <cufftXt.h>

#include <cmath>
#include <complex>
#include <cstdio>
#include <vector>

// CUDA 12's results, which helpers such as NVIDIA's helper_cuda.h name.
static_assert(CUFFT_NOT_SUPPORTED == 16 && CUFFT_MISSING_DEPENDENCY == 17 && CUFFT_NVRTC_FAILURE == 18 &&
                  CUFFT_NVJITLINK_FAILURE == 19 && CUFFT_NVSHMEM_FAILURE == 20,
              "cufftResult as CUDA 12 numbers it");

static int failures = 0;

static void report(const char *name, bool ok, double error = 0) {
  if (ok)
    printf("%s: ok\n", name);
  else
    printf("%s: FAILED error %g\n", name, error), failures++;
}

#define CHECK(call)                                             \
  do {                                                          \
    cufftResult r_ = (call);                                    \
    if (r_ != CUFFT_SUCCESS) {                                  \
      printf("%s: FAILED result %d\n", #call, int(r_));         \
      failures++;                                               \
    }                                                           \
  } while (0)

using cd = std::complex<double>;

// The DFT of `in` (rows x cols, row-major) with exponent sign `sign`.
static std::vector<cd> dft2(const std::vector<cd> &in, int rows, int cols, int sign) {
  std::vector<cd> out(in.size());
  for (int k = 0; k < rows; k++)
    for (int l = 0; l < cols; l++) {
      cd sum = 0;
      for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
          sum += in[r * cols + c] * std::polar(1.0, sign * 2 * M_PI * (double(k * r) / rows + double(l * c) / cols));
      out[k * cols + l] = sum;
    }
  return out;
}

template <class T> T *to_device(const std::vector<T> &host) {
  T *device;
  cudaMalloc(&device, host.size() * sizeof(T));
  cudaMemcpy(device, host.data(), host.size() * sizeof(T), cudaMemcpyHostToDevice);
  return device;
}
template <class T> std::vector<T> to_host(const T *device, size_t n) {
  std::vector<T> host(n);
  cudaMemcpy(host.data(), device, n * sizeof(T), cudaMemcpyDeviceToHost);
  return host;
}

int main() {
  int version = 0;
  CHECK(cufftGetVersion(&version));
  report("version", version == CUFFT_VERSION);

  // 1D C2C, a batch of 3 transforms of 8 points, forward then inverse in place.
  const int n = 8, batch = 3;
  std::vector<cufftComplex> x(n * batch);
  for (int i = 0; i < n * batch; i++) x[i] = make_cuComplex(std::sin(0.7 * i), std::cos(0.3 * i * i));
  cufftComplex *dx = to_device(x);
  cufftHandle plan;
  CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, batch));
  CHECK(cufftExecC2C(plan, dx, dx, CUFFT_FORWARD));
  std::vector<cufftComplex> X = to_host(dx, n * batch);
  double error = 0;
  for (int b = 0; b < batch; b++) {
    std::vector<cd> in(n);
    for (int i = 0; i < n; i++) in[i] = cd(x[b * n + i].x, x[b * n + i].y);
    std::vector<cd> ref = dft2(in, 1, n, -1);
    for (int i = 0; i < n; i++) error = std::fmax(error, std::abs(ref[i] - cd(X[b * n + i].x, X[b * n + i].y)));
  }
  report("C2C forward, batched", error < 1e-4, error);
  CHECK(cufftExecC2C(plan, dx, dx, CUFFT_INVERSE));
  std::vector<cufftComplex> back = to_host(dx, n * batch);
  error = 0;
  for (int i = 0; i < n * batch; i++)
    error = std::fmax(error, std::abs(cd(back[i].x, back[i].y) - double(n) * cd(x[i].x, x[i].y)));
  report("C2C inverse (unnormalised)", error < 1e-4, error);
  CHECK(cufftDestroy(plan));

  // 2D R2C then C2R, 4 x 6, out of place, made in two steps, on a stream.
  const int rows = 4, cols = 6, half = cols / 2 + 1;
  std::vector<cufftReal> r(rows * cols);
  for (int i = 0; i < rows * cols; i++) r[i] = float(i % 5) - 0.5f * float(i % 3);
  cufftReal *dr = to_device(r);
  cufftComplex *dc;
  cudaMalloc(&dc, rows * half * sizeof(cufftComplex));
  cudaStream_t stream;
  cudaStreamCreate(&stream);
  size_t work = 1;
  CHECK(cufftCreate(&plan));
  CHECK(cufftMakePlan2d(plan, rows, cols, CUFFT_R2C, &work));
  CHECK(cufftSetStream(plan, stream));
  CHECK(cufftExecR2C(plan, dr, dc));
  cudaStreamSynchronize(stream);
  std::vector<cufftComplex> R = to_host(dc, rows * half);
  std::vector<cd> in(rows * cols);
  for (int i = 0; i < rows * cols; i++) in[i] = r[i];
  std::vector<cd> ref = dft2(in, rows, cols, -1);
  error = 0;
  for (int k = 0; k < rows; k++)
    for (int l = 0; l < half; l++)
      error = std::fmax(error, std::abs(ref[k * cols + l] - cd(R[k * half + l].x, R[k * half + l].y)));
  report("R2C 2D", error < 1e-4, error);
  cufftHandle inverse;
  CHECK(cufftPlan2d(&inverse, rows, cols, CUFFT_C2R));
  cufftReal *dout;
  cudaMalloc(&dout, rows * cols * sizeof(cufftReal));
  CHECK(cufftExecC2R(inverse, dc, dout));
  std::vector<cufftReal> out = to_host(dout, rows * cols);
  error = 0;
  for (int i = 0; i < rows * cols; i++) error = std::fmax(error, std::fabs(out[i] - rows * cols * r[i]));
  report("C2R 2D", error < 1e-3, error);
  CHECK(cufftDestroy(plan));
  CHECK(cufftDestroy(inverse));

  // Z2Z through cufftPlanMany: 2 transforms of 5 points, interleaved (stride 2).
  std::vector<cufftDoubleComplex> z(10);
  for (int i = 0; i < 10; i++) z[i] = make_cuDoubleComplex(i * 0.5, 1.0 - i);
  cufftDoubleComplex *dz = to_device(z), *dZ;
  cudaMalloc(&dZ, 10 * sizeof(cufftDoubleComplex));
  int size[1] = {5}, embed[1] = {5};
  CHECK(cufftPlanMany(&plan, 1, size, embed, 2, 1, embed, 2, 1, CUFFT_Z2Z, 2));
  CHECK(cufftExecZ2Z(plan, dz, dZ, CUFFT_FORWARD));
  std::vector<cufftDoubleComplex> Z = to_host(dZ, 10);
  error = 0;
  for (int b = 0; b < 2; b++) {
    std::vector<cd> zin(5);
    for (int i = 0; i < 5; i++) zin[i] = cd(z[2 * i + b].x, z[2 * i + b].y);
    std::vector<cd> zref = dft2(zin, 1, 5, -1);
    for (int i = 0; i < 5; i++) error = std::fmax(error, std::abs(zref[i] - cd(Z[2 * i + b].x, Z[2 * i + b].y)));
  }
  report("Z2Z PlanMany strided", error < 1e-10, error);
  CHECK(cufftGetSize(plan, &work));
  CHECK(cufftDestroy(plan));

  // The same transforms through cufftXt's plan of data types: C2C of x, R2C of r.
  CHECK(cufftCreate(&plan));
  long long xt_size[1] = {8};
  size_t xt_work = 0;
  CHECK(cufftXtMakePlanMany(plan, 1, xt_size, nullptr, 1, 8, CUDA_C_32F, nullptr, 1, 8, CUDA_C_32F, 1, &xt_work,
                            CUDA_C_32F));
  cufftComplex *dxt;
  cudaMalloc(&dxt, 8 * sizeof(cufftComplex));
  cudaMemcpy(dxt, x.data(), 8 * sizeof(cufftComplex), cudaMemcpyHostToDevice);
  CHECK(cufftXtExec(plan, dxt, dxt, CUFFT_FORWARD));
  std::vector<cufftComplex> xt = to_host(dxt, 8);
  std::vector<cd> xin(8);
  for (int i = 0; i < 8; i++) xin[i] = cd(x[i].x, x[i].y);
  std::vector<cd> xref = dft2(xin, 1, 8, -1);
  error = 0;
  for (int i = 0; i < 8; i++) error = std::fmax(error, std::abs(xref[i] - cd(xt[i].x, xt[i].y)));
  report("Xt C2C by data types", error < 1e-3, error);
  CHECK(cufftDestroy(plan));
  CHECK(cufftCreate(&plan));
  report("Xt half precision: CUFFT_NOT_SUPPORTED",
         cufftXtMakePlanMany(plan, 1, xt_size, nullptr, 1, 8, CUDA_C_16F, nullptr, 1, 8, CUDA_C_16F, 1, &xt_work,
                             CUDA_C_16F) == CUFFT_NOT_SUPPORTED);
  CHECK(cufftDestroy(plan));
  cudaFree(dxt);

  // Bad calls.
  report("destroyed plan: CUFFT_INVALID_PLAN", cufftExecC2C(plan, dx, dx, CUFFT_FORWARD) == CUFFT_INVALID_PLAN);
  report("unknown plan: CUFFT_INVALID_PLAN", cufftSetStream(12345, stream) == CUFFT_INVALID_PLAN);
  cufftResult bad = cufftPlan1d(&plan, 0, CUFFT_C2C, 1);
  report("size 0: an error", bad != CUFFT_SUCCESS);

  cudaStreamDestroy(stream);
  cudaFree(dx), cudaFree(dr), cudaFree(dc), cudaFree(dout), cudaFree(dz), cudaFree(dZ);
  printf("cufft: %d failed\n", failures);
  return failures != 0;
}
