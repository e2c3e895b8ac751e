// NVRTC over the runtime's hiprtc: the program compiles as CUDA (by
// gpusym-nvcc), and its code, for PTX and CUBIN alike, is the code object
// cuModuleLoadData loads.  nvrtcResult's codes are hiprtcResult's.
#include <cstring>
#include <string>
#include <vector>

#include "hip/hiprtc.h"
#include "internal.h"
#include "nvrtc.h"

namespace {

hiprtcProgram hip(nvrtcProgram prog) { return reinterpret_cast<hiprtcProgram>(prog); }
nvrtcResult nvrtc(hiprtcResult result) { return static_cast<nvrtcResult>(result); }

// NVRTC's options that change nothing on the simulated device (gpusym-nvcc
// has not them): taken by their start.
constexpr const char *kIgnored[] = {
    "-default-device", "--device-as-default-execution-space", "-dopt", "--dopt", "-ewp",
    "--extensible-whole-program", "--fmad", "-fmad", "--ftz", "-ftz", "--prec-div", "-prec-div",
    "--prec-sqrt", "-prec-sqrt", "--extra-device-vectorization", "-extra-device-vectorization",
    "-builtin-move-forward", "-builtin-initializer-list", "--time", "-time", "--split-compile",
    "-split-compile", "-minimal", "--minimal", "-dlto", "--dlink-time-opt", "-w", "--disable-warnings",
};

bool ignored(const char *option) {
  for (const char *prefix : kIgnored)
    if (strncmp(option, prefix, strlen(prefix)) == 0) return true;
  return false;
}

}  // namespace

extern "C" {

const char *nvrtcGetErrorString(nvrtcResult result) {
  if (result == NVRTC_ERROR_TIME_FILE_WRITE_FAILED) return "NVRTC_ERROR_TIME_FILE_WRITE_FAILED";
  const char *text = hiprtcGetErrorString(static_cast<hiprtcResult>(result));
  static thread_local std::string name;
  name = std::string("NVRTC") + (strncmp(text, "HIPRTC", 6) == 0 ? text + 6 : "_ERROR_UNKNOWN");
  return name.c_str();
}

nvrtcResult nvrtcVersion(int *major, int *minor) {
  if (!major || !minor) return NVRTC_ERROR_INVALID_INPUT;
  *major = 12;
  *minor = 4;
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name, int numHeaders,
                               const char *const *headers, const char *const *includeNames) {
  hiprtcProgram program = nullptr;
  hiprtcResult result = hiprtcCreateProgram(&program, src, name, numHeaders, headers, includeNames);
  if (result != HIPRTC_SUCCESS) return nvrtc(result);
  gpusym::compile_as_cuda(program);
  *prog = reinterpret_cast<nvrtcProgram>(program);
  return NVRTC_SUCCESS;
}

nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog) {
  return nvrtc(hiprtcDestroyProgram(reinterpret_cast<hiprtcProgram *>(prog)));
}

nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char *const *options) {
  if (numOptions < 0 || (numOptions > 0 && !options)) return NVRTC_ERROR_INVALID_INPUT;
  std::vector<const char *> kept;
  for (int i = 0; i < numOptions; i++) {
    if (!options[i]) return NVRTC_ERROR_INVALID_OPTION;
    if (!ignored(options[i])) kept.push_back(options[i]);
  }
  return nvrtc(hiprtcCompileProgram(hip(prog), static_cast<int>(kept.size()), kept.data()));
}

nvrtcResult nvrtcGetPTXSize(nvrtcProgram prog, size_t *ptxSizeRet) {
  return nvrtc(hiprtcGetCodeSize(hip(prog), ptxSizeRet));
}
nvrtcResult nvrtcGetPTX(nvrtcProgram prog, char *ptx) { return nvrtc(hiprtcGetCode(hip(prog), ptx)); }
nvrtcResult nvrtcGetCUBINSize(nvrtcProgram prog, size_t *cubinSizeRet) {
  return nvrtc(hiprtcGetCodeSize(hip(prog), cubinSizeRet));
}
nvrtcResult nvrtcGetCUBIN(nvrtcProgram prog, char *cubin) { return nvrtc(hiprtcGetCode(hip(prog), cubin)); }
nvrtcResult nvrtcGetProgramLogSize(nvrtcProgram prog, size_t *logSizeRet) {
  return nvrtc(hiprtcGetProgramLogSize(hip(prog), logSizeRet));
}
nvrtcResult nvrtcGetProgramLog(nvrtcProgram prog, char *log) { return nvrtc(hiprtcGetProgramLog(hip(prog), log)); }
nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char *const name_expression) {
  return nvrtc(hiprtcAddNameExpression(hip(prog), name_expression));
}
nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog, const char *const name_expression, const char **lowered_name) {
  return nvrtc(hiprtcGetLoweredName(hip(prog), name_expression, lowered_name));
}

}  // extern "C"
