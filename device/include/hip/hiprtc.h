/*
 * HIP runtime compilation on the gpusym simulated device: a program's
 * source compiles, when the program asks, through `gpusym build --genco`
 * (clang-19) into a code-object bundle with the simulated device's code
 * object and AMDGPU ones, which hipModuleLoadData loads like any other.
 */
#ifndef GPUSYM_HIPRTC_H
#define GPUSYM_HIPRTC_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum hiprtcResult {
  HIPRTC_SUCCESS = 0,
  HIPRTC_ERROR_OUT_OF_MEMORY = 1,
  HIPRTC_ERROR_PROGRAM_CREATION_FAILURE = 2,
  HIPRTC_ERROR_INVALID_INPUT = 3,
  HIPRTC_ERROR_INVALID_PROGRAM = 4,
  HIPRTC_ERROR_INVALID_OPTION = 5,
  HIPRTC_ERROR_COMPILATION = 6,
  HIPRTC_ERROR_BUILTIN_OPERATION_FAILURE = 7,
  HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION = 8,
  HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION = 9,
  HIPRTC_ERROR_NAME_EXPRESSION_NOT_VALID = 10,
  HIPRTC_ERROR_INTERNAL_ERROR = 11,
  HIPRTC_ERROR_LINKING = 100,
} hiprtcResult;

typedef struct _hiprtcProgram *hiprtcProgram;

const char *hiprtcGetErrorString(hiprtcResult result);
hiprtcResult hiprtcVersion(int *major, int *minor);
hiprtcResult hiprtcCreateProgram(hiprtcProgram *prog, const char *src, const char *name, int numHeaders,
                                 const char *const *headers, const char *const *includeNames);
hiprtcResult hiprtcDestroyProgram(hiprtcProgram *prog);
hiprtcResult hiprtcAddNameExpression(hiprtcProgram prog, const char *name_expression);
hiprtcResult hiprtcCompileProgram(hiprtcProgram prog, int numOptions, const char *const *options);
hiprtcResult hiprtcGetLoweredName(hiprtcProgram prog, const char *name_expression, const char **lowered_name);
hiprtcResult hiprtcGetProgramLogSize(hiprtcProgram prog, size_t *logSizeRet);
hiprtcResult hiprtcGetProgramLog(hiprtcProgram prog, char *log);
hiprtcResult hiprtcGetCodeSize(hiprtcProgram prog, size_t *codeSizeRet);
hiprtcResult hiprtcGetCode(hiprtcProgram prog, char *code);

#ifdef __cplusplus
}
#endif

#endif
