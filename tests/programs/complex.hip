// hip_complex.h on the simulated device against std::complex<double> on the
// host: within 1e-6 relative for float, 1e-14 for double (of the largest
// part of the expected value).  Prints "FAIL ..." lines and a summary.
#include <hip/hip_complex.h>
#include <hip/hip_runtime.h>

#include <complex>

constexpr int N = 4, OPS = 8;
static const double RE[N + 1] = {1.5, -2.0, 0.25, 3e3, 0.5};
static const double IM[N + 1] = {-0.5, 4.0, 0.125, -7.0, 2.0};

// a = z[i], b = z[i + 1]: a + b, a - b, a * b, a / b, conj(a), fma(a, b, a),
// (|a|, |a|^2) and (real a, imaginary b) through the other precision.
__global__ void compute(hipFloatComplex* f, hipDoubleComplex* d, const double* re, const double* im) {
  int i = threadIdx.x;
  hipFloatComplex a = make_hipFloatComplex(float(re[i]), float(im[i]));
  hipFloatComplex b = make_hipComplex(float(re[i + 1]), float(im[i + 1]));
  hipFloatComplex* fo = f + i * OPS;
  fo[0] = hipCaddf(a, b), fo[1] = hipCsubf(a, b), fo[2] = hipCmulf(a, b), fo[3] = hipCdivf(a, b);
  fo[4] = hipConjf(a), fo[5] = hipCfmaf(a, b, a);
  fo[6] = make_hipFloatComplex(hipCabsf(a), hipCsqabsf(a));
  fo[7] = hipComplexDoubleToFloat(make_hipDoubleComplex(hipCrealf(a), hipCimagf(b)));
  hipDoubleComplex x = make_hipDoubleComplex(re[i], im[i]), y = make_hipDoubleComplex(re[i + 1], im[i + 1]);
  hipDoubleComplex* dout = d + i * OPS;
  dout[0] = hipCadd(x, y), dout[1] = hipCsub(x, y), dout[2] = hipCmul(x, y), dout[3] = hipCdiv(x, y);
  dout[4] = hipConj(x), dout[5] = hipCfma(x, y, x);
  dout[6] = make_hipDoubleComplex(hipCabs(x), hipCsqabs(x));
  dout[7] = hipComplexFloatToDouble(make_hipFloatComplex(float(hipCreal(x)), float(hipCimag(y))));
}

int main() {
  int checks = 0, failed = 0;
  hipFloatComplex* f;
  hipDoubleComplex* d;
  double *re, *im;
  hipMalloc(&f, N * OPS * sizeof(hipFloatComplex)), hipMalloc(&d, N * OPS * sizeof(hipDoubleComplex));
  hipMalloc(&re, sizeof RE), hipMalloc(&im, sizeof IM);
  hipMemcpy(re, RE, sizeof RE, hipMemcpyHostToDevice), hipMemcpy(im, IM, sizeof IM, hipMemcpyHostToDevice);
  compute<<<1, N>>>(f, d, re, im);
  hipFloatComplex fh[N * OPS];
  hipDoubleComplex dh[N * OPS];
  hipMemcpy(fh, f, sizeof fh, hipMemcpyDeviceToHost), hipMemcpy(dh, d, sizeof dh, hipMemcpyDeviceToHost);
  const char* names[OPS] = {"add", "sub", "mul", "div", "conj", "fma", "abs/sqabs", "real/imag"};
  for (int i = 0; i < N; i++) {
    for (int single = 0; single < 2; single++) {
      // The float pass starts from the inputs rounded to float, as the device does.
      auto in = [&](int k) {
        return single ? std::complex<double>(float(RE[k]), float(IM[k])) : std::complex<double>(RE[k], IM[k]);
      };
      std::complex<double> a = in(i), b = in(i + 1);
      std::complex<double> want[OPS] = {a + b, a - b, a * b, a / b, std::conj(a), a * b + a,
                                        {std::abs(a), std::norm(a)}, {a.real(), b.imag()}};
      for (int k = 0; k < OPS; k++) {
        std::complex<double> got = single ? std::complex<double>(fh[i * OPS + k].x, fh[i * OPS + k].y)
                                          : std::complex<double>(dh[i * OPS + k].x, dh[i * OPS + k].y);
        double scale = std::max(std::fabs(want[k].real()), std::fabs(want[k].imag()));
        double error = std::max(std::fabs(got.real() - want[k].real()), std::fabs(got.imag() - want[k].imag()));
        checks++;
        if (error > (single ? 1e-6 : 1e-14) * scale) {
          failed++;
          printf("FAIL %s%s[%d]: device (%.17g, %.17g) expected (%.17g, %.17g)\n", names[k], single ? "f" : "", i,
                 got.real(), got.imag(), want[k].real(), want[k].imag());
        }
      }
    }
  }
  hipFree(f), hipFree(d), hipFree(re), hipFree(im);
  printf("CHECKS %d failed %d\n", checks, failed);
  return failed != 0;
}
