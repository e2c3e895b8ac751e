// One cuBLAS and one cuFFT call: prints "sgemm 19 22 43 50 fft 10 -2".
#include <cublas_v2.h>
#include <cufft.h>

#include <cstdio>

int main() {
  float a[4] = {1, 3, 2, 4}, b[4] = {5, 7, 6, 8}, c[4], one = 1, zero = 0;  // column-major
  float *da, *db, *dc;
  cudaMalloc(&da, sizeof a), cudaMalloc(&db, sizeof b), cudaMalloc(&dc, sizeof c);
  cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
  cublasHandle_t handle;
  cublasStatus_t blas = cublasCreate(&handle);
  if (blas == CUBLAS_STATUS_SUCCESS)
    blas = cublasSgemm(handle, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &one, da, 2, db, 2, &zero, dc, 2);
  cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost);
  cublasDestroy(handle);

  cufftComplex x[4] = {{1, 0}, {2, 0}, {3, 0}, {4, 0}}, *dx;
  cudaMalloc(&dx, sizeof x);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  cufftHandle plan;
  cufftResult fft = cufftPlan1d(&plan, 4, CUFFT_C2C, 1);
  if (fft == CUFFT_SUCCESS) fft = cufftExecC2C(plan, dx, dx, CUFFT_FORWARD);
  cudaMemcpy(x, dx, sizeof x, cudaMemcpyDeviceToHost);
  cufftDestroy(plan);
  printf("sgemm %g %g %g %g fft %g %g\n", c[0], c[2], c[1], c[3], x[0].x, x[2].x);
  return blas != CUBLAS_STATUS_SUCCESS || fft != CUFFT_SUCCESS;
}
