// Kernels compiled at run time, for their source in the debugger: a program
// named with a directory whose kernel calls a function of a header passed
// with hiprtcCreateProgram, a second program of the same name with another
// text, and a program with no name.  Each is compiled, loaded and launched
// once (one block of four threads).
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <cstdio>
#include <vector>

static const char* kAxpy = R"(#include "coef.h"
extern "C" __global__ void axpy(float a, const float* x, float* y) {
  int i = threadIdx.x;
  float scaled = a * x[i];
  y[i] = biased(scaled) + y[i];
}
)";
static const char* kCoef = R"(// coef.h: the bias axpy adds
__device__ float biased(float value) {
  return value + 1.0f;
}
)";
static const char* kOther = R"(// The same name as axpy's program, another text.
extern "C" __global__ void other(float* y) {
  int j = threadIdx.x;
  y[j] = y[j] * 2.0f;
}
)";
static const char* kUnnamed = R"(extern "C" __global__ void unnamed(float* y) {
  int k = threadIdx.x;
  y[k] = y[k] - 1.0f;
}
)";

// Compiles `source`, loads it and launches `kernel` with `args`; whether all went well.
static bool compile_and_launch(const char* source, const char* name, int headers, const char* const* texts,
                               const char* const* include_names, const char* kernel, void** args) {
  hiprtcProgram program;
  if (hiprtcCreateProgram(&program, source, name, headers, texts, include_names) != HIPRTC_SUCCESS) return false;
  const char* options[] = {"-g"};
  hiprtcResult compiled = hiprtcCompileProgram(program, 1, options);
  if (compiled != HIPRTC_SUCCESS) {
    size_t size = 0;
    hiprtcGetProgramLogSize(program, &size);
    std::vector<char> log(size + 1);
    hiprtcGetProgramLog(program, log.data());
    printf("hiprtc_source: %s does not compile:\n%s\n", kernel, log.data());
    return false;
  }
  size_t size = 0;
  hiprtcGetCodeSize(program, &size);
  std::vector<char> code(size);
  hiprtcGetCode(program, code.data());
  hiprtcDestroyProgram(&program);
  hipModule_t module;
  hipFunction_t function;
  return hipModuleLoadData(&module, code.data()) == hipSuccess &&
         hipModuleGetFunction(&function, module, kernel) == hipSuccess &&
         hipModuleLaunchKernel(function, 1, 1, 1, 4, 1, 1, 0, nullptr, args, nullptr) == hipSuccess &&
         hipDeviceSynchronize() == hipSuccess;
}

int main() {
  float *x, *y;
  hipMalloc(&x, 4 * sizeof(float));
  hipMalloc(&y, 4 * sizeof(float));
  float host[4] = {1, 2, 3, 4};
  hipMemcpy(x, host, sizeof host, hipMemcpyHostToDevice);
  hipMemcpy(y, host, sizeof host, hipMemcpyHostToDevice);
  float a = 2.0f;
  void* axpy_args[] = {&a, &x, &y};
  void* y_args[] = {&y};
  const char* include_names[] = {"coef.h"};
  bool ok = compile_and_launch(kAxpy, "kernels/axpy.hip", 1, &kCoef, include_names, "axpy", axpy_args) &&
            compile_and_launch(kOther, "kernels/axpy.hip", 0, nullptr, nullptr, "other", y_args) &&
            compile_and_launch(kUnnamed, nullptr, 0, nullptr, nullptr, "unnamed", y_args);
  hipMemcpy(host, y, sizeof host, hipMemcpyDeviceToHost);
  // y = ((2x + 1 + x) * 2) - 1 with x = 1..4
  ok = ok && host[0] == 7 && host[1] == 13 && host[2] == 19 && host[3] == 25;
  printf("hiprtc_source: %s\n", ok ? "ok" : "WRONG");
  return ok ? 0 : 1;
}
