// cuFFT over gpusym's hipFFT: a cufftHandle (an int, as cuFFT's) numbers a
// hipfftHandle; types, directions and results have the same values in both
// APIs, so each call looks its plan up and passes the rest through.
#include <cufft.h>
#include <cufftXt.h>
#include <hipfft/hipfft.h>
#include <hipfft/hipfftXt.h>

#include <mutex>
#include <vector>

namespace {

std::mutex plans_mutex;
std::vector<hipfftHandle> plans;  // plan number - 1 -> hipFFT's plan, null once destroyed

hipfftHandle plan_of(cufftHandle plan) {
  std::lock_guard<std::mutex> lock(plans_mutex);
  return plan > 0 && size_t(plan) <= plans.size() ? plans[plan - 1] : nullptr;
}

cufftResult result(hipfftResult result) { return cufftResult(result); }
hipfftType hip(cufftType type) { return hipfftType(type); }
hipDataType hip(cudaDataType type) { return hipDataType(type); }  // the same values

// A new plan number for `made`'s plan (hipfftCreate or a hipfftPlan*).
template <class F> cufftResult create(cufftHandle *plan, F made) {
  if (!plan) return CUFFT_INVALID_VALUE;
  hipfftHandle handle = nullptr;
  hipfftResult status = made(&handle);
  if (status != HIPFFT_SUCCESS) return result(status);
  std::lock_guard<std::mutex> lock(plans_mutex);
  plans.push_back(handle);
  *plan = cufftHandle(plans.size());
  return CUFFT_SUCCESS;
}

// `function` on the plan numbered `plan`, or CUFFT_INVALID_PLAN.
template <class... P, class... A>
cufftResult call(hipfftResult (*function)(hipfftHandle, P...), cufftHandle plan, A... arguments) {
  hipfftHandle handle = plan_of(plan);
  return handle ? result(function(handle, arguments...)) : CUFFT_INVALID_PLAN;
}

}  // namespace

extern "C" {

cufftResult cufftCreate(cufftHandle *plan) { return create(plan, [](hipfftHandle *h) { return hipfftCreate(h); }); }

cufftResult cufftPlan1d(cufftHandle *plan, int nx, cufftType type, int batch) {
  return create(plan, [=](hipfftHandle *h) { return hipfftPlan1d(h, nx, hip(type), batch); });
}
cufftResult cufftPlan2d(cufftHandle *plan, int nx, int ny, cufftType type) {
  return create(plan, [=](hipfftHandle *h) { return hipfftPlan2d(h, nx, ny, hip(type)); });
}
cufftResult cufftPlan3d(cufftHandle *plan, int nx, int ny, int nz, cufftType type) {
  return create(plan, [=](hipfftHandle *h) { return hipfftPlan3d(h, nx, ny, nz, hip(type)); });
}
cufftResult cufftPlanMany(cufftHandle *plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                          int ostride, int odist, cufftType type, int batch) {
  return create(plan, [=](hipfftHandle *h) {
    return hipfftPlanMany(h, rank, n, inembed, istride, idist, onembed, ostride, odist, hip(type), batch);
  });
}

cufftResult cufftMakePlan1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize) {
  return call(hipfftMakePlan1d, plan, nx, hip(type), batch, workSize);
}
cufftResult cufftMakePlan2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize) {
  return call(hipfftMakePlan2d, plan, nx, ny, hip(type), workSize);
}
cufftResult cufftMakePlan3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize) {
  return call(hipfftMakePlan3d, plan, nx, ny, nz, hip(type), workSize);
}
cufftResult cufftMakePlanMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                              int ostride, int odist, cufftType type, int batch, size_t *workSize) {
  return call(hipfftMakePlanMany, plan, rank, n, inembed, istride, idist, onembed, ostride, odist, hip(type), batch,
              workSize);
}
cufftResult cufftMakePlanMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                long long int istride, long long int idist, long long int *onembed,
                                long long int ostride, long long int odist, cufftType type, long long int batch,
                                size_t *workSize) {
  return call(hipfftMakePlanMany64, plan, rank, n, inembed, istride, idist, onembed, ostride, odist, hip(type), batch,
              workSize);
}

cufftResult cufftEstimate1d(int nx, cufftType type, int batch, size_t *workSize) {
  return result(hipfftEstimate1d(nx, hip(type), batch, workSize));
}
cufftResult cufftEstimate2d(int nx, int ny, cufftType type, size_t *workSize) {
  return result(hipfftEstimate2d(nx, ny, hip(type), workSize));
}
cufftResult cufftEstimate3d(int nx, int ny, int nz, cufftType type, size_t *workSize) {
  return result(hipfftEstimate3d(nx, ny, nz, hip(type), workSize));
}
cufftResult cufftEstimateMany(int rank, int *n, int *inembed, int istride, int idist, int *onembed, int ostride,
                              int odist, cufftType type, int batch, size_t *workSize) {
  return result(
      hipfftEstimateMany(rank, n, inembed, istride, idist, onembed, ostride, odist, hip(type), batch, workSize));
}
cufftResult cufftGetSize1d(cufftHandle plan, int nx, cufftType type, int batch, size_t *workSize) {
  return call(hipfftGetSize1d, plan, nx, hip(type), batch, workSize);
}
cufftResult cufftGetSize2d(cufftHandle plan, int nx, int ny, cufftType type, size_t *workSize) {
  return call(hipfftGetSize2d, plan, nx, ny, hip(type), workSize);
}
cufftResult cufftGetSize3d(cufftHandle plan, int nx, int ny, int nz, cufftType type, size_t *workSize) {
  return call(hipfftGetSize3d, plan, nx, ny, nz, hip(type), workSize);
}
cufftResult cufftGetSizeMany(cufftHandle plan, int rank, int *n, int *inembed, int istride, int idist, int *onembed,
                             int ostride, int odist, cufftType type, int batch, size_t *workSize) {
  return call(hipfftGetSizeMany, plan, rank, n, inembed, istride, idist, onembed, ostride, odist, hip(type), batch,
              workSize);
}
cufftResult cufftGetSizeMany64(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                               long long int istride, long long int idist, long long int *onembed,
                               long long int ostride, long long int odist, cufftType type, long long int batch,
                               size_t *workSize) {
  return call(hipfftGetSizeMany64, plan, rank, n, inembed, istride, idist, onembed, ostride, odist, hip(type), batch,
              workSize);
}
cufftResult cufftGetSize(cufftHandle plan, size_t *workSize) { return call(hipfftGetSize, plan, workSize); }
cufftResult cufftSetWorkArea(cufftHandle plan, void *workArea) { return call(hipfftSetWorkArea, plan, workArea); }
cufftResult cufftSetAutoAllocation(cufftHandle plan, int autoAllocate) {
  return call(hipfftSetAutoAllocation, plan, autoAllocate);
}

cufftResult cufftExecC2C(cufftHandle plan, cufftComplex *idata, cufftComplex *odata, int direction) {
  return call(hipfftExecC2C, plan, idata, odata, direction);
}
cufftResult cufftExecR2C(cufftHandle plan, cufftReal *idata, cufftComplex *odata) {
  return call(hipfftExecR2C, plan, idata, odata);
}
cufftResult cufftExecC2R(cufftHandle plan, cufftComplex *idata, cufftReal *odata) {
  return call(hipfftExecC2R, plan, idata, odata);
}
cufftResult cufftExecZ2Z(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleComplex *odata, int direction) {
  return call(hipfftExecZ2Z, plan, idata, odata, direction);
}
cufftResult cufftExecD2Z(cufftHandle plan, cufftDoubleReal *idata, cufftDoubleComplex *odata) {
  return call(hipfftExecD2Z, plan, idata, odata);
}
cufftResult cufftExecZ2D(cufftHandle plan, cufftDoubleComplex *idata, cufftDoubleReal *odata) {
  return call(hipfftExecZ2D, plan, idata, odata);
}

cufftResult cufftSetStream(cufftHandle plan, cudaStream_t stream) { return call(hipfftSetStream, plan, stream); }

cufftResult cufftDestroy(cufftHandle plan) {
  hipfftHandle handle = nullptr;
  {
    std::lock_guard<std::mutex> lock(plans_mutex);
    if (plan > 0 && size_t(plan) <= plans.size()) std::swap(handle, plans[plan - 1]);
  }
  return handle ? result(hipfftDestroy(handle)) : CUFFT_INVALID_PLAN;
}

cufftResult cufftGetVersion(int *version) {
  if (!version) return CUFFT_INVALID_VALUE;
  *version = CUFFT_VERSION;
  return CUFFT_SUCCESS;
}

cufftResult cufftGetProperty(libraryPropertyType type, int *value) {
  if (!value) return CUFFT_INVALID_VALUE;
  switch (type) {
    case MAJOR_VERSION: *value = CUFFT_VER_MAJOR; return CUFFT_SUCCESS;
    case MINOR_VERSION: *value = CUFFT_VER_MINOR; return CUFFT_SUCCESS;
    case PATCH_LEVEL: *value = CUFFT_VER_PATCH; return CUFFT_SUCCESS;
  }
  return CUFFT_INVALID_TYPE;
}

cufftResult cufftXtMakePlanMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                                long long int istride, long long int idist, cudaDataType inputtype,
                                long long int *onembed, long long int ostride, long long int odist,
                                cudaDataType outputtype, long long int batch, size_t *workSize,
                                cudaDataType executiontype) {
  return call(hipfftXtMakePlanMany, plan, rank, n, inembed, istride, idist, hip(inputtype), onembed, ostride, odist,
              hip(outputtype), batch, workSize, hip(executiontype));
}
cufftResult cufftXtGetSizeMany(cufftHandle plan, int rank, long long int *n, long long int *inembed,
                               long long int istride, long long int idist, cudaDataType inputtype,
                               long long int *onembed, long long int ostride, long long int odist,
                               cudaDataType outputtype, long long int batch, size_t *workSize,
                               cudaDataType executiontype) {
  return call(hipfftXtGetSizeMany, plan, rank, n, inembed, istride, idist, hip(inputtype), onembed, ostride, odist,
              hip(outputtype), batch, workSize, hip(executiontype));
}
cufftResult cufftXtExec(cufftHandle plan, void *input, void *output, int direction) {
  return call(hipfftXtExec, plan, input, output, direction);
}

}  // extern "C"
