// The driver API: a module built with gpusym-nvcc -cubin (its path the
// first argument) loaded, its function launched; one line per check.
#include <cuda.h>

#include <cstdio>
#include <cstring>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

int main(int argc, char **argv) {
  if (argc < 2) return 2;
  CHECK("init", cuInit(0) == CUDA_SUCCESS);
  int count = 0, version = 0;
  CUdevice device;
  CHECK("device", cuDeviceGetCount(&count) == CUDA_SUCCESS && count >= 1 && cuDeviceGet(&device, 0) == CUDA_SUCCESS &&
                      cuDriverGetVersion(&version) == CUDA_SUCCESS && version == CUDA_VERSION);
  char name[128];
  int major = 0, minor = 0, warp = 0;
  size_t total = 0;
  CHECK("device_queries", cuDeviceGetName(name, sizeof name, device) == CUDA_SUCCESS && name[0] &&
                              cuDeviceComputeCapability(&major, &minor, device) == CUDA_SUCCESS &&
                              cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, device) == CUDA_SUCCESS &&
                              warp == 32 && cuDeviceTotalMem(&total, device) == CUDA_SUCCESS && total > 0);
  // Every attribute deviceQueryDrv asks for, by the driver API's names.
  int texture1d = 0, l2 = 0, pitch = 0, engines = 0;
  CHECK("device_attributes",
        cuDeviceGetAttribute(&texture1d, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_WIDTH, device) == CUDA_SUCCESS &&
            cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, device) == CUDA_SUCCESS &&
            cuDeviceGetAttribute(&pitch, CU_DEVICE_ATTRIBUTE_MAX_PITCH, device) == CUDA_SUCCESS &&
            cuDeviceGetAttribute(&engines, CU_DEVICE_ATTRIBUTE_ASYNC_ENGINE_COUNT, device) == CUDA_SUCCESS &&
            texture1d > 0 && l2 > 0 && pitch > 0 && engines > 0);
  std::printf("compute capability %d.%d\n", major, minor);
  CUcontext context = nullptr, current = nullptr;
  CHECK("context", cuCtxCreate(&context, 0, device) == CUDA_SUCCESS && cuCtxGetCurrent(&current) == CUDA_SUCCESS &&
                       current == context && cuCtxSetCurrent(context) == CUDA_SUCCESS);
  CUctxCreateParams create_params = {};
  CUcontext thirteen = nullptr;
  CHECK("context_cuda13", cuCtxCreate(&thirteen, &create_params, 0, device) == CUDA_SUCCESS && thirteen == context);
  CUmodule module;
  CUfunction function;
  CHECK("module_load", cuModuleLoad(&module, argv[1]) == CUDA_SUCCESS);
  CHECK("get_function", cuModuleGetFunction(&function, module, "fill") == CUDA_SUCCESS);
  CUdeviceptr counter = 0;
  size_t counter_size = 0;
  int counter_value = 0;
  CHECK("get_global", cuModuleGetGlobal(&counter, &counter_size, module, "module_counter") == CUDA_SUCCESS &&
                          counter_size == sizeof(int) &&
                          cuMemcpyDtoH(&counter_value, counter, sizeof counter_value) == CUDA_SUCCESS &&
                          counter_value == 41);
  CUdeviceptr out = 0;
  CHECK("mem_alloc", cuMemAlloc(&out, 64 * sizeof(int)) == CUDA_SUCCESS && out != 0);
  CHECK("memset", cuMemsetD32(out, 7, 64) == CUDA_SUCCESS && cuMemsetD8(out, 0, 4) == CUDA_SUCCESS);
  CUstream stream;
  CHECK("stream", cuStreamCreate(&stream, CU_STREAM_NON_BLOCKING) == CUDA_SUCCESS);
  int base = 100;
  void *params[] = {&out, &base};
  CHECK("launch", cuLaunchKernel(function, 2, 1, 1, 32, 1, 1, 0, stream, params, nullptr) == CUDA_SUCCESS &&
                      cuStreamSynchronize(stream) == CUDA_SUCCESS);
  int host[64];
  CHECK("results", cuMemcpyDtoHAsync(host, out, sizeof host, stream) == CUDA_SUCCESS &&
                       cuStreamSynchronize(stream) == CUDA_SUCCESS && host[0] == 100 && host[63] == 131);
  CUdeviceptr copy = 0;
  cuMemAlloc(&copy, sizeof host);
  CHECK("copies", cuMemcpyDtoD(copy, out, sizeof host) == CUDA_SUCCESS &&
                      cuMemcpyHtoD(out, host, sizeof host) == CUDA_SUCCESS && cuCtxSynchronize() == CUDA_SUCCESS);
  const char *text = nullptr;
  CHECK("error_names", cuGetErrorName(CUDA_ERROR_INVALID_VALUE, &text) == CUDA_SUCCESS &&
                           std::strcmp(text, "CUDA_ERROR_INVALID_VALUE") == 0 &&
                           cuGetErrorString(CUDA_ERROR_NOT_FOUND, &text) == CUDA_SUCCESS && text[0]);
  CHECK("missing_function", cuModuleGetFunction(&function, module, "absent") == CUDA_ERROR_NOT_FOUND);
  CHECK("cleanup", cuMemFree(out) == CUDA_SUCCESS && cuMemFree(copy) == CUDA_SUCCESS &&
                       cuStreamDestroy(stream) == CUDA_SUCCESS && cuModuleUnload(module) == CUDA_SUCCESS &&
                       cuCtxDestroy(context) == CUDA_SUCCESS);
  return 0;
}
