// What every gpusym library says of a function of its API it does not
// provide: one line on stderr, the first time the function is called.
#ifndef GPUSYM_LIBRARIES_NOT_SUPPORTED_H
#define GPUSYM_LIBRARIES_NOT_SUPPORTED_H

#include <cstdio>
#include <mutex>
#include <set>
#include <string>

namespace gpusym_library {

// "gpusym: FUNCTION is not supported by gpusym's LIBRARY (STATUS)", once per
// function; STATUS is what the call returns.
inline void report_not_supported(const char *library, const char *function, const char *status) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(function).second)
    std::fprintf(stderr, "gpusym: %s is not supported by gpusym's %s (%s)\n", function, library, status);
}

}  // namespace gpusym_library

#endif
