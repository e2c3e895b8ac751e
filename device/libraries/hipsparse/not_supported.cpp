// Every function of hipSPARSE's API, defined weak: one gpusym implements is
// defined again in another file, and the linker keeps that one; the rest
// report themselves once and return HIPSPARSE_STATUS_NOT_SUPPORTED.
#include <hipsparse/hipsparse.h>

#include <type_traits>

namespace gpusym_hipsparse {
void report_not_supported(const char *name);
}

namespace {

template <class R> R not_supported(const char *name) {
  gpusym_hipsparse::report_not_supported(name);
  if constexpr (std::is_same_v<R, hipsparseStatus_t>)
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
  else
    return R{};
}

}  // namespace

#define GPUSYM_API_FUNCTION(result, name, parameters) \
  extern "C" __attribute__((weak)) result name parameters { return not_supported<result>(#name); }
#include <hipsparse/gpusym_functions.h>
