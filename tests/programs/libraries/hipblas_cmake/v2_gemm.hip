// hipBLAS's second API: HIP's complex types and hipDataType.  Prints the
// product of [1+i] and [2-i] by hipblasCgemm, and 2 x 3 by hipblasGemmEx.
#include <hip/hip_runtime.h>
#include <hipblas/hipblas.h>

#include <cstdio>

int main() {
  hipblasHandle_t handle;
  if (hipblasCreate(&handle) != HIPBLAS_STATUS_SUCCESS) return 1;
  hipComplex a = make_hipComplex(1, 1), b = make_hipComplex(2, -1), c = make_hipComplex(0, 0);
  hipComplex one = make_hipComplex(1, 0), zero = make_hipComplex(0, 0), *d;
  (void)hipMalloc(&d, 3 * sizeof(hipComplex));
  (void)hipMemcpy(d, &a, sizeof a, hipMemcpyHostToDevice);
  (void)hipMemcpy(d + 1, &b, sizeof b, hipMemcpyHostToDevice);
  hipblasStatus_t s = hipblasCgemm(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, 1, 1, 1, &one, d, 1, d + 1, 1, &zero, d + 2, 1);
  (void)hipMemcpy(&c, d + 2, sizeof c, hipMemcpyDeviceToHost);

  float x = 2, y = 3, z = 0, alpha = 1, beta = 0, *f;
  (void)hipMalloc(&f, 3 * sizeof(float));
  (void)hipMemcpy(f, &x, sizeof x, hipMemcpyHostToDevice);
  (void)hipMemcpy(f + 1, &y, sizeof y, hipMemcpyHostToDevice);
  hipblasStatus_t e = hipblasGemmEx(handle, HIPBLAS_OP_N, HIPBLAS_OP_N, 1, 1, 1, &alpha, f, HIP_R_32F, 1, f + 1,
                                    HIP_R_32F, 1, &beta, f + 2, HIP_R_32F, 1, HIPBLAS_COMPUTE_32F, HIPBLAS_GEMM_DEFAULT);
  (void)hipMemcpy(&z, f + 2, sizeof z, hipMemcpyDeviceToHost);
  printf("cgemm %g %g gemmex %g status %d %d\n", c.x, c.y, z, s, e);
  hipblasDestroy(handle);
  return s != HIPBLAS_STATUS_SUCCESS || e != HIPBLAS_STATUS_SUCCESS;
}
