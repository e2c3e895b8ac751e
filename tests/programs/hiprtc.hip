// Runtime compilation: a template kernel compiled while the program runs,
// named by name expressions, loaded and launched; a program that does not
// compile, with its log; and the calls' errors.  One line per check.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

static const char* kSource = R"(
#include "offset.h"
template <typename T>
__global__ void scale(T* data, T factor, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) data[i] = data[i] * factor + T(kOffset);
}
)";
static const char* kHeader = "constexpr int kOffset = 3;\n";

static int wrong = 0;
static void check(const char* what, bool ok) {
  printf("hiprtc: %s: %s\n", what, ok ? "ok" : "WRONG");
  wrong += !ok;
}

int main() {
  const char* header_names[] = {"offset.h"};
  hiprtcProgram prog;
  check("create", hiprtcCreateProgram(&prog, kSource, "scale.cu", 1, &kHeader, header_names) == HIPRTC_SUCCESS);
  check("add name expressions", hiprtcAddNameExpression(prog, "&scale<float>") == HIPRTC_SUCCESS &&
                                    hiprtcAddNameExpression(prog, "scale<int>") == HIPRTC_SUCCESS);
  const char* lowered = nullptr;
  check("no lowered name before compiling",
        hiprtcGetLoweredName(prog, "scale<int>", &lowered) == HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
  const char* options[] = {"--gpu-architecture=gfx90a", "-O2"};
  hiprtcResult compiled = hiprtcCompileProgram(prog, 2, options);
  size_t log_size = 0;
  hiprtcGetProgramLogSize(prog, &log_size);
  check("compile", compiled == HIPRTC_SUCCESS);
  const char *float_name = nullptr, *int_name = nullptr;
  check("lowered names", hiprtcGetLoweredName(prog, "&scale<float>", &float_name) == HIPRTC_SUCCESS &&
                             hiprtcGetLoweredName(prog, "scale<int>", &int_name) == HIPRTC_SUCCESS &&
                             strcmp(float_name, "_Z5scaleIfEvPT_S0_i") == 0 &&
                             strcmp(int_name, "_Z5scaleIiEvPT_S0_i") == 0);
  printf("hiprtc: scale<float> is %s\n", float_name ? float_name : "(none)");
  check("a name never added", hiprtcGetLoweredName(prog, "scale<double>", &lowered) ==
                                  HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID);
  check("no name expression after compiling",
        hiprtcAddNameExpression(prog, "scale<double>") == HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
  size_t code_size = 0;
  hiprtcGetCodeSize(prog, &code_size);
  std::vector<char> code(code_size);
  hiprtcGetCode(prog, code.data());

  hipModule_t module;
  hipFunction_t function;
  check("load and find the kernel", code_size && hipModuleLoadData(&module, code.data()) == hipSuccess &&
                                        hipModuleGetFunction(&function, module, float_name) == hipSuccess);
  const int n = 1000;
  std::vector<float> host(n);
  for (int i = 0; i < n; i++) host[i] = static_cast<float>(i);
  float* device;
  hipMalloc(&device, n * sizeof(float));
  hipMemcpy(device, host.data(), n * sizeof(float), hipMemcpyHostToDevice);
  float factor = 2.0f;
  int count = n;
  void* args[] = {&device, &factor, &count};
  check("launch", hipModuleLaunchKernel(function, (n + 255) / 256, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr) ==
                      hipSuccess);
  hipMemcpy(host.data(), device, n * sizeof(float), hipMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) bad += host[i] != 2.0f * i + 3;
  check("results", bad == 0);
  hipFree(device);
  hipModuleUnload(module);
  check("destroy", hiprtcDestroyProgram(&prog) == HIPRTC_SUCCESS && prog == nullptr);

  hiprtcProgram broken;
  hiprtcCreateProgram(&broken, "__global__ void oops(int* p) {\n  p[0] = undeclared;\n}\n", "broken.cu", 0, nullptr,
                      nullptr);
  check("a compile error", hiprtcCompileProgram(broken, 0, nullptr) == HIPRTC_ERROR_COMPILATION);
  hiprtcGetProgramLogSize(broken, &log_size);
  std::string log(log_size, '\0');
  hiprtcGetProgramLog(broken, &log[0]);
  check("its log names the line", log.find("broken.cu:2:") != std::string::npos &&
                                      log.find("undeclared") != std::string::npos);
  printf("hiprtc: log: %s\n", log.substr(0, log.find('\n')).c_str());
  hiprtcDestroyProgram(&broken);

  // A quoted include the program does not give, beside it in the current
  // directory (NVIDIA's samples copy their headers there).
  char directory[] = "/tmp/gpusym-hiprtc-beside-XXXXXX";
  bool made = mkdtemp(directory) && chdir(directory) == 0;
  FILE* header = made ? fopen("beside.h", "w") : nullptr;
  if (header) {
    fputs("constexpr int kBeside = 42;\n", header);
    fclose(header);
  }
  hiprtcProgram beside;
  hiprtcCreateProgram(&beside, "#include \"beside.h\"\nextern \"C\" __global__ void k(int* p) { *p = kBeside; }\n",
                      "./beside.cu", 0, nullptr, nullptr);
  check("a header beside the program", header && hiprtcCompileProgram(beside, 0, nullptr) == HIPRTC_SUCCESS);
  hiprtcDestroyProgram(&beside);
  if (made) {
    remove("beside.h");
    chdir("/");
    rmdir(directory);
  }
  check("a destroyed program", hiprtcCompileProgram(broken, 0, nullptr) == HIPRTC_ERROR_INVALID_PROGRAM);
  check("error strings", strcmp(hiprtcGetErrorString(HIPRTC_ERROR_COMPILATION), "HIPRTC_ERROR_COMPILATION") == 0);
  printf("hiprtc: %d wrong\n", wrong);
  return wrong != 0;
}
