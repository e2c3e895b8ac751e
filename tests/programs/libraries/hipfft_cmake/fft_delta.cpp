// The DFT of a delta at 1 is e^{-2 pi i k / n}; printed as "spectrum ok"
// when it is, with hipFFT's version.
#include <hip/hip_runtime_api.h>
#include <hipfft/hipfft.h>

#include <cmath>
#include <cstdio>
#include <vector>

int main() {
  const int n = 64;
  std::vector<hipfftDoubleComplex> host(n, make_hipDoubleComplex(0, 0));
  host[1] = make_hipDoubleComplex(1, 0);
  hipfftDoubleComplex *data;
  hipMalloc(&data, n * sizeof *data);
  hipMemcpy(data, host.data(), n * sizeof *data, hipMemcpyHostToDevice);
  hipfftHandle plan;
  if (hipfftPlan1d(&plan, n, HIPFFT_Z2Z, 1) != HIPFFT_SUCCESS) return 1;
  if (hipfftExecZ2Z(plan, data, data, HIPFFT_FORWARD) != HIPFFT_SUCCESS) return 1;
  hipMemcpy(host.data(), data, n * sizeof *data, hipMemcpyDeviceToHost);
  bool ok = true;
  for (int k = 0; k < n; ++k) {
    double angle = -2 * M_PI * k / n;
    ok &= std::abs(host[k].x - std::cos(angle)) < 1e-12 && std::abs(host[k].y - std::sin(angle)) < 1e-12;
  }
  int version = 0;
  hipfftGetVersion(&version);
  std::printf("spectrum %s version %d\n", ok ? "ok" : "wrong", version);
  hipfftDestroy(plan);
  hipFree(data);
  return ok ? 0 : 1;
}
