// The hipFFT functions gpusym's hipFFT does not provide: callbacks and
// data spread over several devices.  Each answers HIPFFT_NOT_SUPPORTED and
// says so on stderr the first time it is called.

#include "hipfft/hipfftXt.h"
#include "not_supported.h"

#define GPUSYM_NOT_SUPPORTED(name, ...)                                                 \
  hipfftResult name(__VA_ARGS__) {                                                      \
    gpusym_library::report_not_supported("hipFFT", #name, "HIPFFT_NOT_SUPPORTED");      \
    return HIPFFT_NOT_SUPPORTED;                                                        \
  }

extern "C" {

GPUSYM_NOT_SUPPORTED(hipfftXtSetCallback, hipfftHandle, void **, hipfftXtCallbackType, void **)
GPUSYM_NOT_SUPPORTED(hipfftXtClearCallback, hipfftHandle, hipfftXtCallbackType)
GPUSYM_NOT_SUPPORTED(hipfftXtSetCallbackSharedSize, hipfftHandle, hipfftXtCallbackType, size_t)
GPUSYM_NOT_SUPPORTED(hipfftXtSetGPUs, hipfftHandle, int, int *)
GPUSYM_NOT_SUPPORTED(hipfftXtMalloc, hipfftHandle, hipLibXtDesc **, hipfftXtSubFormat)
GPUSYM_NOT_SUPPORTED(hipfftXtMemcpy, hipfftHandle, void *, void *, hipfftXtCopyType)
GPUSYM_NOT_SUPPORTED(hipfftXtFree, hipLibXtDesc *)
GPUSYM_NOT_SUPPORTED(hipfftXtExecDescriptorC2C, hipfftHandle, hipLibXtDesc *, hipLibXtDesc *, int)
GPUSYM_NOT_SUPPORTED(hipfftXtExecDescriptorR2C, hipfftHandle, hipLibXtDesc *, hipLibXtDesc *)
GPUSYM_NOT_SUPPORTED(hipfftXtExecDescriptorC2R, hipfftHandle, hipLibXtDesc *, hipLibXtDesc *)
GPUSYM_NOT_SUPPORTED(hipfftXtExecDescriptorZ2Z, hipfftHandle, hipLibXtDesc *, hipLibXtDesc *, int)
GPUSYM_NOT_SUPPORTED(hipfftXtExecDescriptorD2Z, hipfftHandle, hipLibXtDesc *, hipLibXtDesc *)
GPUSYM_NOT_SUPPORTED(hipfftXtExecDescriptorZ2D, hipfftHandle, hipLibXtDesc *, hipLibXtDesc *)
GPUSYM_NOT_SUPPORTED(hipfftXtExecDescriptor, hipfftHandle, hipLibXtDesc *, hipLibXtDesc *, int)

}  // extern "C"
