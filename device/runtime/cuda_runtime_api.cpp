// CUDA's runtime API: each cuda* function calls its hip* twin under the
// CUDA name (a failure is recorded as the program called it) and returns
// its error as CUDA's code, which has HIP's number.
#include "cuda_runtime_api.h"

#include "internal.h"

using namespace gpusym;

namespace {

// The hip* call `hip_call` made for the CUDA function `name`: its error,
// recorded under `name` when it fails.
template <typename Call>
cudaError_t as_cuda(const char *name, Call hip_call) {
  CudaCall named(name);
  return static_cast<cudaError_t>(hip_call());
}

}  // namespace

#define GPUSYM_AS_CUDA(expression) as_cuda(__func__, [&] { return expression; })

extern "C" {

cudaError_t cudaGetLastError(void) { return static_cast<cudaError_t>(hipGetLastError()); }
cudaError_t cudaPeekAtLastError(void) { return static_cast<cudaError_t>(hipPeekAtLastError()); }
const char *cudaGetErrorName(cudaError_t error) { return cuda_error_name(static_cast<hipError_t>(error)); }
const char *cudaGetErrorString(cudaError_t error) { return hipGetErrorString(static_cast<hipError_t>(error)); }

cudaError_t cudaDeviceSynchronize(void) { return GPUSYM_AS_CUDA(hipDeviceSynchronize()); }

cudaError_t cudaMalloc(void **devPtr, size_t size) { return GPUSYM_AS_CUDA(hipMalloc(devPtr, size)); }
cudaError_t cudaFree(void *devPtr) { return GPUSYM_AS_CUDA(hipFree(devPtr)); }
cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, cudaMemcpyKind kind) {
  return GPUSYM_AS_CUDA(hipMemcpy(dst, src, count, static_cast<hipMemcpyKind>(kind)));
}

}  // extern "C"
