// Breakpoints gated by lane: the runtime's side of gpusym_debug.watches
// (debug_interface.h).  Code pages are not writable: the bytes go through
// /proc/self/mem, as a debugger's own writes do.
//
// A watch without threads is armed while a matching block runs (around
// each block a worker runs); a watch with threads while a matching lane
// runs (at each lane switch: each thread remembers which of them its
// running lane matches).
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

// Bit i: the lane this thread runs matches watch i, which has threads.
thread_local uint32_t matched_lanes = 0;

bool matches(const gpusym_dim3 &wanted, const gpusym_dim3 &actual) {
  return (wanted.x == GPUSYM_WATCH_ANY || wanted.x == actual.x) &&
         (wanted.y == GPUSYM_WATCH_ANY || wanted.y == actual.y) &&
         (wanted.z == GPUSYM_WATCH_ANY || wanted.z == actual.z);
}

bool has_threads(const gpusym_debug_watch &watch) {
  return watch.thread.x != GPUSYM_WATCH_ANY || watch.thread.y != GPUSYM_WATCH_ANY ||
         watch.thread.z != GPUSYM_WATCH_ANY;
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

void arm(gpusym_debug_watch &watch) {
  if (watch.armed_blocks++ == 0) write_all(watch, true);
}

void disarm(gpusym_debug_watch &watch) {
  if (watch.armed_blocks > 0 && --watch.armed_blocks == 0) write_all(watch, false);
}

bool any_watch() { return __atomic_load_n(&gpusym_debug.watch_count, __ATOMIC_ACQUIRE) != 0; }

}  // namespace

bool watch_names_block(const void *kernel, const gpusym_dim3 &block) {
  if (!any_watch()) return false;
  std::lock_guard<std::mutex> lock(watch_mutex());
  for (const gpusym_debug_watch &watch : gpusym_debug.watches)
    if (watch.active && (watch.kernel == 0 || watch.kernel == reinterpret_cast<uintptr_t>(kernel)) &&
        matches(watch.block, block))
      return true;
  return false;
}

void watch_block_started(const gpusym_dim3 &block) {
  if (!any_watch()) return;
  std::lock_guard<std::mutex> lock(watch_mutex());
  for (gpusym_debug_watch &watch : gpusym_debug.watches) {
    if (!watch.active) continue;
    if (!has_threads(watch) && matches(watch.block, block)) arm(watch);
    // The debugger puts its traps back each time the program resumes: they
    // come out again here while nothing matching runs.
    else if (watch.armed_blocks == 0) write_all(watch, false);
  }
}

void watch_block_finished(const gpusym_dim3 &block) {
  if (!any_watch() && !matched_lanes) return;
  std::lock_guard<std::mutex> lock(watch_mutex());
  for (uint32_t i = 0; i < GPUSYM_DEBUG_WATCH_SLOTS; i++) {
    gpusym_debug_watch &watch = gpusym_debug.watches[i];
    if (matched_lanes & (1u << i)) {  // the block's last lane has exited
      matched_lanes &= ~(1u << i);
      if (watch.active) disarm(watch);
    } else if (watch.active && !has_threads(watch) && matches(watch.block, block)) {
      disarm(watch);
    }
  }
}

}  // namespace gpusym

extern "C" void gpusym_watch_lane_entered(const gpusym_lane *lane) {
  using namespace gpusym;
  std::lock_guard<std::mutex> lock(watch_mutex());
  for (uint32_t i = 0; i < GPUSYM_DEBUG_WATCH_SLOTS; i++) {
    gpusym_debug_watch &watch = gpusym_debug.watches[i];
    bool wanted = watch.active && has_threads(watch) && matches(watch.block, lane->block_idx) &&
                  matches(watch.thread, lane->thread_idx);
    bool had = matched_lanes & (1u << i);
    if (wanted == had) continue;
    matched_lanes ^= 1u << i;
    if (wanted) {
      arm(watch);
    } else if (watch.active) {
      disarm(watch);
    }
  }
}
