// The exported debugger interface (gpusym/debug_interface.h).
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>

#include "internal.h"

extern "C" {

struct gpusym_debug gpusym_debug = {GPUSYM_DEBUG_VERSION, GPUSYM_EVENT_NONE, 0, 0, 0, 0, nullptr,
                                    nullptr, nullptr, 0, 0, 0, nullptr, 0, 0, 0, 0, nullptr, nullptr, 0,
                                    0, 0, nullptr, nullptr, 0, 0, {}};

// Kept out of line and with a side effect the compiler cannot drop, so that a
// breakpoint on it is hit after every change.
__attribute__((noinline, used)) void gpusym_debug_state(void) { __asm__ volatile("" ::: "memory"); }

}  // extern "C"

namespace gpusym {

std::mutex &registry_mutex() {
  static std::mutex *mutex = new std::mutex;  // never destroyed: used until exit
  return *mutex;
}

void notify(gpusym_debug_event event, uint64_t index) {
  gpusym_debug.last_event = event;
  gpusym_debug.event_index = index;
  gpusym_debug.generation++;
  gpusym_debug_state();
}

namespace {
// GPUSYM_CAPTURE_STACKS=1 records the host stack of each launch without a
// debugger; GPUSYM_FORM=debug runs every kernel in its debuggable form.
[[maybe_unused]] const bool flags_from_environment = [] {
  if (env_long("GPUSYM_CAPTURE_STACKS", 0)) gpusym_debug.flags |= GPUSYM_DEBUG_CAPTURE_HOST_STACKS;
  const char *form = getenv("GPUSYM_FORM");
  if (form && strcmp(form, "debug") == 0)
    gpusym_debug.flags |= GPUSYM_DEBUG_DEBUGGABLE_FORM;
  else if (form && *form && strcmp(form, "fast") != 0)
    warn("ignoring GPUSYM_FORM=%s: it is fast or debug", form);
  return true;
}();
}  // namespace

uint64_t current_os_thread() {
  static thread_local uint64_t tid = static_cast<uint64_t>(syscall(SYS_gettid));
  return tid;
}

}  // namespace gpusym
