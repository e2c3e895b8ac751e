// The hipFFT functions gpusym's hipFFT does not provide: callbacks and
// data spread over several devices.  Each answers HIPFFT_NOT_SUPPORTED and
// says so on stderr the first time it is called.

#include <atomic>
#include <cstdio>

#include "hipfft/hipfftXt.h"

namespace {

hipfftResult not_supported(std::atomic<bool> &said, const char *name) {
  if (!said.exchange(true)) std::fprintf(stderr, "gpusym: %s is not supported by gpusym's hipFFT\n", name);
  return HIPFFT_NOT_SUPPORTED;
}

}  // namespace

#define GPUSYM_NOT_SUPPORTED(name, ...)                     \
  hipfftResult name(__VA_ARGS__) {                          \
    static std::atomic<bool> said{false};                   \
    return not_supported(said, #name);                      \
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
