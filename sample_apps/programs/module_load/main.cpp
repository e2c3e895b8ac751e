// module_load: launches kernels from a code object loaded at run time, the
// way programs with generated or plugin kernels do: hipModuleLoad of the
// file beside the program, hipModuleLoadData of the same bytes in memory,
// hipModuleGetFunction by name, hipModuleLaunchKernel with kernelParams and
// with one argument buffer (extra), hipModuleGetGlobal, hipModuleUnload.
#include <hip/hip_runtime.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#define CHECK(call)                                                         \
  do {                                                                      \
    hipError_t error_ = (call);                                             \
    if (error_ != hipSuccess) {                                             \
      fprintf(stderr, "%s failed: %s\n", #call, hipGetErrorString(error_)); \
      return 1;                                                             \
    }                                                                       \
  } while (0)

constexpr int kCount = 5000;
constexpr int kBlock = 128;
constexpr unsigned kGrid = (kCount + kBlock - 1) / kBlock;

// The code object built beside this program: <program>_kernels.co.
static std::string code_object_path() {
  char self[PATH_MAX];
  ssize_t length = readlink("/proc/self/exe", self, sizeof self - 1);
  return std::string(self, length > 0 ? length : 0) + "_kernels.co";
}

int main() {
  const std::string path = code_object_path();
  hipModule_t module;
  CHECK(hipModuleLoad(&module, path.c_str()));
  hipFunction_t saxpy, fill;
  CHECK(hipModuleGetFunction(&saxpy, module, "saxpy"));
  CHECK(hipModuleGetFunction(&fill, module, "_Z4fillIiEvPT_S0_i"));

  std::vector<float> x(kCount), y(kCount);
  for (int i = 0; i < kCount; i++) x[i] = static_cast<float>(i), y[i] = 1.0f;
  float *d_x, *d_y;
  int* d_ints;
  CHECK(hipMalloc(&d_x, kCount * sizeof(float)));
  CHECK(hipMalloc(&d_y, kCount * sizeof(float)));
  CHECK(hipMalloc(&d_ints, kCount * sizeof(int)));
  CHECK(hipMemcpy(d_x, x.data(), kCount * sizeof(float), hipMemcpyHostToDevice));
  CHECK(hipMemcpy(d_y, y.data(), kCount * sizeof(float), hipMemcpyHostToDevice));

  // y = 2x + y, arguments one pointer each.
  float a = 2.0f;
  int n = kCount;
  void* params[] = {&a, &d_x, &d_y, &n};
  CHECK(hipModuleLaunchKernel(saxpy, kGrid, 1, 1, kBlock, 1, 1, 0, nullptr, params, nullptr));

  // out[i] = 7 + i + offset, arguments in one buffer laid out as the kernel's.
  int offset = 100;
  hipDeviceptr_t offset_address;
  size_t offset_size;
  CHECK(hipModuleGetGlobal(&offset_address, &offset_size, module, "offset"));
  CHECK(hipMemcpy(offset_address, &offset, sizeof offset, hipMemcpyHostToDevice));
  struct {
    int* out;
    int value;
    int n;
  } buffer = {d_ints, 7, kCount};
  size_t buffer_size = sizeof buffer;
  void* extra[] = {HIP_LAUNCH_PARAM_BUFFER_POINTER, &buffer, HIP_LAUNCH_PARAM_BUFFER_SIZE, &buffer_size,
                   HIP_LAUNCH_PARAM_END};
  CHECK(hipModuleLaunchKernel(fill, kGrid, 1, 1, kBlock, 1, 1, 0, nullptr, nullptr, extra));

  std::vector<int> ints(kCount);
  CHECK(hipMemcpy(y.data(), d_y, kCount * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ints.data(), d_ints, kCount * sizeof(int), hipMemcpyDeviceToHost));
  CHECK(hipModuleUnload(module));
  int wrong = offset_size != sizeof(int);
  for (int i = 0; i < kCount; i++) {
    wrong += y[i] != 2.0f * static_cast<float>(i) + 1.0f;
    wrong += ints[i] != 7 + i + offset;
  }

  // The same code object from memory: a module of its own.
  std::ifstream file(path, std::ios::binary);
  std::vector<char> image((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  CHECK(hipModuleLoadData(&module, image.data()));
  CHECK(hipModuleGetFunction(&saxpy, module, "saxpy"));
  CHECK(hipModuleLaunchKernel(saxpy, kGrid, 1, 1, kBlock, 1, 1, 0, nullptr, params, nullptr));
  CHECK(hipMemcpy(y.data(), d_y, kCount * sizeof(float), hipMemcpyDeviceToHost));
  CHECK(hipModuleUnload(module));
  for (int i = 0; i < kCount; i++) wrong += y[i] != 4.0f * static_cast<float>(i) + 1.0f;

  CHECK(hipFree(d_x));
  CHECK(hipFree(d_y));
  CHECK(hipFree(d_ints));
  printf("module_load: 2 launches from a loaded file and 1 from memory, %d elements, %d wrong\n", kCount, wrong);
  return wrong == 0 ? 0 : 1;
}
