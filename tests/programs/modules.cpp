// modules: the module API's behaviour, one mode per run, on a code object
// built with `gpusym build --genco` from the module_load sample's kernels
// (saxpy, fill<int>, the variable offset).  Prints one line per call made:
// "<what> <hipError name>".
//   errors CO TEXT AMDGPU_ONLY   each refused call and the error it gives
//   twice CO                     the same file loaded twice: two modules, two saxpy
//   leak CO                      loads CO and never unloads it
//   image SIM_ELF                hipModuleLoadData of a simulated code object itself
#include <hip/hip_runtime.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <vector>

static void show(const char* what, hipError_t error) { printf("%s %s\n", what, hipGetErrorName(error)); }

static hipError_t run_saxpy(hipFunction_t f, float* y) {
  float a = 1.0f;
  int n = 64;
  void* params[] = {&a, &y, &y, &n};
  return hipModuleLaunchKernel(f, 1, 1, 1, 64, 1, 1, 0, nullptr, params, nullptr);
}

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const char* mode = argv[1];
  float* y;
  hipMalloc(&y, 64 * sizeof(float));
  hipModule_t module = nullptr, second = nullptr;
  hipFunction_t f = nullptr, g = nullptr;
  if (!strcmp(mode, "errors") && argc == 5) {
    show("load-missing", hipModuleLoad(&module, "/no/such/code-object.co"));
    show("load-text", hipModuleLoad(&module, argv[3]));
    show("load-amdgpu-only", hipModuleLoad(&module, argv[4]));
    show("load", hipModuleLoad(&module, argv[2]));
    show("function-unknown", hipModuleGetFunction(&f, module, "no_such_kernel"));
    show("function-of-a-variable", hipModuleGetFunction(&f, module, "offset"));
    show("global-of-a-kernel", hipModuleGetGlobal(nullptr, nullptr, module, "saxpy"));
    show("function", hipModuleGetFunction(&f, module, "saxpy"));
    size_t size = 4;  // saxpy's arguments take 28 bytes
    char buffer[32] = {};
    void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &size,
                     HIP_LAUNCH_PARAM_END};
    show("launch-short-buffer", hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra));
    void* params[] = {nullptr};
    show("launch-params-and-extra", hipModuleLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, params, extra));
    show("launch-2048-threads", hipModuleLaunchKernel(f, 1, 1, 1, 2048, 1, 1, 0, nullptr, params, nullptr));
    show("unload", hipModuleUnload(module));
    show("launch-after-unload", run_saxpy(f, y));
    show("unload-again", hipModuleUnload(module));
    show("function-after-unload", hipModuleGetFunction(&f, module, "saxpy"));
  } else if (!strcmp(mode, "twice")) {
    show("load", hipModuleLoad(&module, argv[2]));
    show("load-again", hipModuleLoad(&second, argv[2]));
    hipModuleGetFunction(&f, module, "saxpy");
    hipModuleGetFunction(&g, second, "saxpy");
    printf("distinct %s\n", f && g && f != g ? "yes" : "no");
    show("launch-first", run_saxpy(f, y));
    show("launch-second", run_saxpy(g, y));
    show("sync", hipDeviceSynchronize());
    show("unload", hipModuleUnload(module));
    show("launch-second-after-first-unloaded", run_saxpy(g, y));
    show("sync", hipDeviceSynchronize());
    show("unload-second", hipModuleUnload(second));
  } else if (!strcmp(mode, "leak")) {
    show("load", hipModuleLoad(&module, argv[2]));
  } else if (!strcmp(mode, "image")) {
    std::ifstream file(argv[2], std::ios::binary);
    std::vector<char> image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    show("load-data", hipModuleLoadData(&module, image.data()));
    show("function", hipModuleGetFunction(&f, module, "_Z4fillIiEvPT_S0_i"));
    show("unload", hipModuleUnload(module));
  } else {
    return 2;
  }
  hipFree(y);
  return 0;
}
