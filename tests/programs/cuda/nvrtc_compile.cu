// NVRTC: a CUDA kernel compiled at run time, loaded with the driver API and
// launched; one line per check, "NAME: ok" or what failed.
#include <cuda.h>
#include <nvrtc.h>

#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(name, condition) std::printf("%s: %s\n", name, (condition) ? "ok" : "FAILED")

static const char *kSource = R"(
template <typename T>
__global__ void axpy(T a, const T *x, T *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  y[i] = a * x[i] + y[i] + (warpSize == 32 ? 0 : 1000);
}
)";

// Static variables, found in the module by their names as NVIDIA's modules
// keep them: the kernel reads a zero-initialised static __constant__ the
// host fills, and writes a static __device__ the host reads.
static const char *kStatics = R"(
struct Option { float price, strike; };
static __constant__ Option d_Options[4];
static __device__ float d_Values[4];
extern "C" __global__ void value() {
  unsigned i = threadIdx.x;
  if (i < 4) d_Values[i] = d_Options[i].price - d_Options[i].strike;
}
)";

// Compiles kStatics, fills its constant, runs its kernel and reads its values.
static bool static_variables() {
  nvrtcProgram program;
  if (nvrtcCreateProgram(&program, kStatics, "statics.cu", 0, nullptr, nullptr) != NVRTC_SUCCESS ||
      nvrtcCompileProgram(program, 0, nullptr) != NVRTC_SUCCESS)
    return false;
  size_t size = 0;
  nvrtcGetCUBINSize(program, &size);
  std::vector<char> code(size);
  nvrtcGetCUBIN(program, code.data());
  nvrtcDestroyProgram(&program);
  CUmodule module;
  CUfunction function;
  CUdeviceptr options, values;
  size_t options_size = 0, values_size = 0;
  if (cuModuleLoadData(&module, code.data()) != CUDA_SUCCESS ||
      cuModuleGetFunction(&function, module, "value") != CUDA_SUCCESS ||
      cuModuleGetGlobal(&options, &options_size, module, "d_Options") != CUDA_SUCCESS ||
      cuModuleGetGlobal(&values, &values_size, module, "d_Values") != CUDA_SUCCESS)
    return false;
  float given[8] = {10, 1, 20, 2, 30, 3, 40, 4}, read[4] = {};
  bool ok = options_size == sizeof given && values_size == sizeof read &&
            cuMemcpyHtoD(options, given, sizeof given) == CUDA_SUCCESS &&
            cuLaunchKernel(function, 1, 1, 1, 32, 1, 1, 0, nullptr, nullptr, nullptr) == CUDA_SUCCESS &&
            cuMemcpyDtoH(read, values, sizeof read) == CUDA_SUCCESS && read[0] == 9 && read[1] == 18 &&
            read[2] == 27 && read[3] == 36;
  return cuModuleUnload(module) == CUDA_SUCCESS && ok;
}

int main() {
  int major = 0, minor = 0;
  CHECK("version", nvrtcVersion(&major, &minor) == NVRTC_SUCCESS && major >= 12);
  nvrtcProgram program;
  CHECK("create", nvrtcCreateProgram(&program, kSource, "axpy.cu", 0, nullptr, nullptr) == NVRTC_SUCCESS);
  CHECK("name_expression", nvrtcAddNameExpression(program, "axpy<float>") == NVRTC_SUCCESS);
  const char *options[] = {"--gpu-architecture=compute_80", "-default-device", "--std=c++17"};
  nvrtcResult compiled = nvrtcCompileProgram(program, 3, options);
  size_t log_size = 0;
  nvrtcGetProgramLogSize(program, &log_size);
  std::vector<char> log(log_size + 1);
  nvrtcGetProgramLog(program, log.data());
  CHECK("compile", compiled == NVRTC_SUCCESS);
  if (compiled != NVRTC_SUCCESS) std::printf("%s\n", log.data());
  size_t ptx_size = 0, cubin_size = 0;
  CHECK("code", nvrtcGetPTXSize(program, &ptx_size) == NVRTC_SUCCESS && ptx_size > 0 &&
                    nvrtcGetCUBINSize(program, &cubin_size) == NVRTC_SUCCESS && cubin_size == ptx_size);
  std::vector<char> code(ptx_size);
  nvrtcGetPTX(program, code.data());
  const char *lowered = nullptr;
  CHECK("lowered_name", nvrtcGetLoweredName(program, "axpy<float>", &lowered) == NVRTC_SUCCESS &&
                            std::strcmp(lowered, "_Z4axpyIfEvT_PKS0_PS0_") == 0);

  cuInit(0);
  CUmodule module;
  CUfunction function;
  CHECK("load", cuModuleLoadData(&module, code.data()) == CUDA_SUCCESS &&
                    cuModuleGetFunction(&function, module, lowered) == CUDA_SUCCESS);
  float x[64], y[64];
  for (int i = 0; i < 64; i++) x[i] = static_cast<float>(i), y[i] = 1.0f;
  CUdeviceptr dx, dy;
  cuMemAlloc(&dx, sizeof x);
  cuMemAlloc(&dy, sizeof y);
  cuMemcpyHtoD(dx, x, sizeof x);
  cuMemcpyHtoD(dy, y, sizeof y);
  float a = 2.0f;
  void *params[] = {&a, &dx, &dy};
  CHECK("launch", cuLaunchKernel(function, 2, 1, 1, 32, 1, 1, 0, nullptr, params, nullptr) == CUDA_SUCCESS);
  cuMemcpyDtoH(y, dy, sizeof y);
  CHECK("results", y[0] == 1.0f && y[63] == 127.0f);
  CHECK("static_variables", static_variables());
  CHECK("error_string", std::strcmp(nvrtcGetErrorString(NVRTC_ERROR_COMPILATION), "NVRTC_ERROR_COMPILATION") == 0);
  nvrtcProgram broken;
  nvrtcCreateProgram(&broken, "__global__ void k() { undeclared(); }", "broken.cu", 0, nullptr, nullptr);
  CHECK("compile_error", nvrtcCompileProgram(broken, 0, nullptr) == NVRTC_ERROR_COMPILATION &&
                             nvrtcGetProgramLogSize(broken, &log_size) == NVRTC_SUCCESS && log_size > 1);
  CHECK("destroy", nvrtcDestroyProgram(&program) == NVRTC_SUCCESS && nvrtcDestroyProgram(&broken) == NVRTC_SUCCESS &&
                       cuModuleUnload(module) == CUDA_SUCCESS);
  return 0;
}
