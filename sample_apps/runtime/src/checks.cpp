// Checks of device code's memory accesses, turned on by GPUSYM_CHECK (what
// `gpusym check --tool memcheck` sets): device code built by gpusym calls
// __gpusym_check_access before each load or store that may reach device
// memory while __gpusym_checks is nonzero (the clang pass plugin
// access_checks.cpp puts the calls there).  Checks off, device code only
// reads the flag.
//
// memcheck: an access must lie inside one live hipMalloc allocation, to the
// byte (the page guards catch only what runs past an allocation's pages;
// each thread remembers the allocations of its last accesses while none is
// freed, so most checks take no lock),
// and be aligned as the code assumes, as a GPU requires; the first that is
// not is reported as a memory fault (faults.cpp) with its source line, and
// at exit the allocations never freed are listed (memory.cpp).
#include <cstring>
#include <iterator>

#include "internal.h"

extern "C" uint8_t __gpusym_checks = 0;

namespace gpusym {
namespace {

// GPUSYM_CHECK: names of checks, separated by commas.
[[maybe_unused]] const bool checks_from_environment = [] {
  const char *names = getenv("GPUSYM_CHECK");
  if (!names || !*names) return false;
  std::string list = names;
  for (size_t start = 0; start <= list.size();) {
    size_t end = list.find(',', start);
    if (end == std::string::npos) end = list.size();
    std::string name = list.substr(start, end - start);
    if (name == "memcheck")
      __gpusym_checks |= kCheckMemory;
    else if (!name.empty())
      warn("GPUSYM_CHECK: unknown check '%s' (known: memcheck); it is ignored", name.c_str());
    start = end + 1;
  }
  return true;
}();

}  // namespace
}  // namespace gpusym

using namespace gpusym;

namespace {

// The live allocations ([start, end)) a thread's accesses were last found
// in, valid while `releases` is device_memory_releases(): a kernel's few
// buffers, found without a lock.
struct Recent {
  std::pair<uintptr_t, uintptr_t> allocations[8];
  unsigned next;
  uint64_t releases = UINT64_MAX;
};

}  // namespace

// flags: bit 0 a write; above bit 8, the alignment the code assumes.  It
// keeps every register (preserve_all), as the calls access_checks.cpp
// writes expect: their callers keep their values where they are.
extern "C" __attribute__((preserve_all)) void __gpusym_check_access(const void *pointer, uint64_t size, uint64_t flags, const char *file,
                                      uint32_t line) {
  if (!(__gpusym_checks & kCheckMemory)) return;
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  bool write = flags & 1;
  uint64_t alignment = flags >> 8;
  if (alignment > 1 && address % alignment != 0)
    end_lane_for_access(address, size, write, true, alignment, file, line);
  // Only the range hipMalloc allocates from (reserved once) is checked.
  uintptr_t range = gpusym_debug.device_memory_base;
  if (range == 0 || address - range >= gpusym_debug.device_memory_size) return;
  // The allocations of this thread's last accesses, while none was freed.
  thread_local Recent recent;
  uint64_t now = device_memory_releases();
  if (now != recent.releases) recent = Recent{{}, 0, now};
  for (const auto &[start, end] : recent.allocations)
    if (address - start < end - start) {
      if (size > end - address) end_lane_for_access(address, size, write, false, alignment, file, line);
      return;
    }
  std::pair<uintptr_t, uintptr_t> found;
  {
    std::lock_guard<std::mutex> lock(device_memory_mutex());
    found = live_allocation_at(address);
  }
  if (found.first == found.second || size > found.second - address)
    end_lane_for_access(address, size, write, false, alignment, file, line);
  recent.allocations[recent.next++ % std::size(recent.allocations)] = found;
}
