// Breakpoints gated by lane: the runtime's side of gpusym_debug.watches
// (debug_interface.h).  Code pages are not writable: the bytes go through
// /proc/self/mem, as a debugger's own writes do.
#include <fcntl.h>
#include <unistd.h>

#include <mutex>

#include "internal.h"

namespace gpusym {
namespace {

std::mutex &watch_mutex() {
  static std::mutex *mutex = new std::mutex;  // never destroyed: used until exit
  return *mutex;
}

bool matches(const gpusym_debug_watch &watch, const gpusym_dim3 &block) {
  return (watch.block.x == GPUSYM_WATCH_ANY || watch.block.x == block.x) &&
         (watch.block.y == GPUSYM_WATCH_ANY || watch.block.y == block.y) &&
         (watch.block.z == GPUSYM_WATCH_ANY || watch.block.z == block.z);
}

// Writes `value` at each of the watch's addresses that does not hold it.
void write_all(const gpusym_debug_watch &watch, bool trap) {
  static int memory = open("/proc/self/mem", O_RDWR | O_CLOEXEC);
  uint32_t count = watch.address_count < GPUSYM_DEBUG_WATCH_ADDRESSES ? watch.address_count
                                                                       : GPUSYM_DEBUG_WATCH_ADDRESSES;
  for (uint32_t i = 0; i < count; i++) {
    uint8_t value = trap ? watch.trap : watch.original[i];
    auto *address = reinterpret_cast<const volatile uint8_t *>(watch.addresses[i]);
    if (*address == value) continue;
    // A failed write leaves the debugger's trap in place: every lane then
    // stops and the debugger's own lane check decides, as without a watch.
    if (memory < 0 || pwrite(memory, &value, 1, static_cast<off_t>(watch.addresses[i])) != 1) return;
  }
}

bool any_watch() { return __atomic_load_n(&gpusym_debug.watch_count, __ATOMIC_ACQUIRE) != 0; }

}  // namespace

void watch_block_started(const gpusym_dim3 &block) {
  if (!any_watch()) return;
  std::lock_guard<std::mutex> lock(watch_mutex());
  for (gpusym_debug_watch &watch : gpusym_debug.watches) {
    if (!watch.active) continue;
    if (matches(watch, block) && watch.armed_blocks++ == 0) write_all(watch, true);
    // The debugger puts its traps back each time the program resumes: they
    // come out again here while no matching block runs.
    else if (watch.armed_blocks == 0) write_all(watch, false);
  }
}

void watch_block_finished(const gpusym_dim3 &block) {
  if (!any_watch()) return;
  std::lock_guard<std::mutex> lock(watch_mutex());
  for (gpusym_debug_watch &watch : gpusym_debug.watches) {
    if (watch.active && matches(watch, block) && watch.armed_blocks > 0 && --watch.armed_blocks == 0)
      write_all(watch, false);
  }
}

}  // namespace gpusym
