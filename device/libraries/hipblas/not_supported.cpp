// Every function of hipBLAS's API, defined weak: one gpusym implements is
// defined again in another file, and the linker keeps that one; the rest
// report themselves once and return HIPBLAS_STATUS_NOT_SUPPORTED.
#include "hipblas_internal.h"

namespace {

template <class R> R not_supported(const char *name) {
  gpusym_hipblas::report_not_supported(name);
  if constexpr (std::is_same_v<R, hipblasStatus_t>)
    return HIPBLAS_STATUS_NOT_SUPPORTED;
  else
    return R{};
}

}  // namespace

#define GPUSYM_API_FUNCTION(result, name, parameters) \
  extern "C" __attribute__((weak)) result name parameters { return not_supported<result>(#name); }
#include <hipblas/gpusym_functions.h>
