// Device memory: allocations (managed ones too), copies, memset.
//
// Device memory is host memory the runtime tracks, so that a copy or a free
// of something that is not a live allocation gets HIP's error code, and so
// that a kernel touching memory outside every live allocation faults instead
// of corrupting its neighbours.  hipMalloc hands out pages of one reserved
// address range (PROT_NONE until allocated, never committed in advance):
//
//   [ .. inaccessible .. | pages of allocation A, its tail flush  | guard | pages of B ...
//                        ^ A starts 256-aligned in its first page ^ A's end
//
// Each allocation ends flush against an inaccessible guard page (its size is
// rounded up to the 256 bytes HIP aligns allocations to), so an access just
// past its end faults; GPUSYM_ALLOCATION_PADDING=BYTES leaves that many
// accessible bytes after each, as a GPU's coarser allocations do.  Free pages and the pages of freed allocations are
// inaccessible too, to a debugger as well: they map an empty file, whose
// pages past its end cannot be read even through /proc/PID/mem, which
// ignores the protection (an anonymous page would read as zeros, values
// that are not there).  Allocation is next-fit with a cursor that only moves
// on, so freed addresses are handed out again only after the rest of the
// range has been, and the most recently freed allocations are remembered: a
// fault in one is reported as a use after free.  The debugger sees the table of
// live and remembered allocations (gpusym/debug_interface.h); a fault is
// explained by describe_address().
//
// Memory pools, graphs' allocations and virtual memory mappings take spans of
// the same range for their own, and place allocations in them (Placement):
// the table, the checks and the pointer queries know those as they know
// hipMalloc's; hipFree hands them back to their owner.
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>

#include "internal.h"

namespace gpusym {

namespace {

constexpr size_t kAlignment = 256;          // as hipMalloc guarantees
constexpr size_t kMinReservation = size_t{1} << 30;
constexpr size_t kMaxReservation = size_t{1} << 40;
constexpr size_t kFreedRemembered = 4096;   // freed allocations a fault can still name
constexpr uint64_t kNear = 1 << 20;         // a fault this close to an allocation is about it

struct Allocation {
  size_t size;
  uintptr_t span;        // first page it occupies (hipMalloc's guarded allocations)
  size_t span_size;      // its pages and the guard page after them
  uint32_t slot;         // in the debugger's table
  bool live;
  bool guarded;          // in the reserved range; else host memory (aligned_alloc)
  bool managed;          // by hipMallocManaged
  Placement placement;   // kMalloc, or placed by an owner in a span it holds
  gpusym_allocation_made_by made_by;
};

// The call that made an allocation of each gpusym_allocation_made_by, and the
// one that frees it (device/fault_description.py _CALLS).
struct Calls {
  const char *made, *freed;
};
constexpr Calls kMadeBy[] = {
    {"hipMalloc", "hipFree"},           {"hipMallocManaged", "hipFree"},       {"cudaMalloc", "cudaFree"},
    {"cudaMallocManaged", "cudaFree"},  {"hipMallocAsync", "hipFreeAsync"},    {"cudaMallocAsync", "cudaFreeAsync"},
    {"hipMemMap", "hipMemUnmap"},       {"cuMemMap", "cuMemUnmap"},
};

struct DeviceMemory {
  std::mutex mutex;
  size_t page = 4096;
  uintptr_t base = 0, end = 0;                   // the reserved range, once reserved
  bool tried = false;                            // to reserve it
  int empty_file = -1;                           // the empty file its inaccessible pages map; -1: none
  bool warned_unguarded = false;
  std::map<uintptr_t, size_t> free_ranges;       // start -> size, coalesced, inaccessible
  uintptr_t cursor = 0;                          // next-fit: searches start here
  std::map<uintptr_t, Allocation> allocations;   // by base: the live and the remembered freed
  std::deque<std::pair<uintptr_t, uint64_t>> freed;  // remembered freed (base, serial), oldest first
  std::vector<gpusym_debug_allocation> table;    // the debugger's view, by slot
  std::vector<uint32_t> free_slots;
  uint64_t serial = 0;
};

std::atomic<uint64_t> releases{0};  // live allocations freed so far (device_memory_releases)

DeviceMemory &memory() {
  static auto *instance = new DeviceMemory;  // never destroyed: kernels may run until exit
  return *instance;
}

size_t round_up(size_t value, size_t to) { return (value + to - 1) / to * to; }

// Maps [start, start + size) inaccessible, replacing what is there (its pages
// go back to the system); with `start` 0, anywhere (the reservation).  The
// empty file's pages sit at their offset in the range, so that neighbouring
// inaccessible mappings merge into one; they are left out of core dumps,
// which would otherwise write the whole range, file pages that cannot be read.
void *map_inaccessible(DeviceMemory &m, uintptr_t start, size_t size) {
  void *at = reinterpret_cast<void *>(start);
  int fixed = start ? MAP_FIXED : 0;
  if (m.empty_file < 0)
    return mmap(at, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | fixed, -1, 0);
  void *mapped = mmap(at, size, PROT_NONE, MAP_SHARED | MAP_NORESERVE | fixed, m.empty_file,
                      static_cast<off_t>(start ? start - m.base : 0));
  if (mapped != MAP_FAILED) madvise(mapped, size, MADV_DONTDUMP);
  return mapped;
}

// The address range allocations come from: max(64 GiB, twice the physical
// memory), at most 1 TiB; halved while the system refuses (RLIMIT_AS).
void reserve(DeviceMemory &m) {
  m.tried = true;
  m.page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  m.empty_file = memfd_create("gpusym device memory", MFD_CLOEXEC);  // -1: anonymous pages, which read as zeros
  size_t physical = static_cast<size_t>(sysconf(_SC_PHYS_PAGES)) * m.page;
  size_t size = std::min(std::max(size_t{64} << 30, 2 * physical), kMaxReservation);
  for (; size >= kMinReservation; size /= 2) {
    void *start = map_inaccessible(m, 0, size);
    if (start == MAP_FAILED) continue;
    m.base = reinterpret_cast<uintptr_t>(start);
    m.end = m.base + size;
    m.free_ranges[m.base + m.page] = size - m.page;  // the first page stays a guard too
    m.cursor = m.base + m.page;
    gpusym_debug.device_memory_base = m.base;
    gpusym_debug.device_memory_size = size;
    return;
  }
  warn("cannot reserve an address range for device memory: allocations are not guarded");
}

// Returns [start, start + size) to the free ranges, merged with its neighbours.
void give_back(DeviceMemory &m, uintptr_t start, size_t size) {
  auto next = m.free_ranges.lower_bound(start);
  if (next != m.free_ranges.end() && next->first == start + size) {
    size += next->second;
    next = m.free_ranges.erase(next);
  }
  if (next != m.free_ranges.begin()) {
    auto previous = std::prev(next);
    if (previous->first + previous->second == start) {
      previous->second += size;
      return;
    }
  }
  m.free_ranges.emplace_hint(next, start, size);
}

// Takes `size` bytes (a multiple of the page) from the free ranges, next-fit
// from the cursor, wrapping around once; 0 when no free range is that large.
uintptr_t take(DeviceMemory &m, size_t size) {
  auto carve = [&](std::map<uintptr_t, size_t>::iterator range, uintptr_t start) {
    uintptr_t range_start = range->first, range_end = range->first + range->second;
    m.free_ranges.erase(range);
    if (start > range_start) m.free_ranges[range_start] = start - range_start;
    if (range_end > start + size) m.free_ranges[start + size] = range_end - (start + size);
    m.cursor = start + size;
    return start;
  };
  auto after = m.free_ranges.upper_bound(m.cursor);
  if (after != m.free_ranges.begin()) {
    auto holder = std::prev(after);  // the range holding the cursor, if any
    uintptr_t holder_end = holder->first + holder->second;
    if (holder_end > m.cursor && holder_end - m.cursor >= size) return carve(holder, m.cursor);
  }
  for (auto range = after; range != m.free_ranges.end(); ++range)
    if (range->second >= size) return carve(range, range->first);
  for (auto range = m.free_ranges.begin(); range != after; ++range)
    if (range->second >= size) return carve(range, range->first);
  return 0;
}

// Publishes the table to the debugger (the vector may have moved).
void publish(DeviceMemory &m, gpusym_debug_event event, uint32_t slot) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  gpusym_debug.allocations = m.table.data();
  gpusym_debug.allocation_count = static_cast<uint32_t>(m.table.size());
  notify(event, slot);
}

uint32_t new_slot(DeviceMemory &m) {
  if (!m.free_slots.empty()) {
    uint32_t slot = m.free_slots.back();
    m.free_slots.pop_back();
    return slot;
  }
  if (m.table.capacity() == 0) m.table.reserve(256);
  m.table.push_back({});
  return static_cast<uint32_t>(m.table.size() - 1);
}

// Forgets a remembered freed allocation.
void forget(DeviceMemory &m, std::map<uintptr_t, Allocation>::iterator freed) {
  m.table[freed->second.slot] = {};
  m.free_slots.push_back(freed->second.slot);
  m.allocations.erase(freed);
}

// Forgets the remembered freed allocations overlapping [start, start + size),
// whose addresses are about to be handed out again.
void forget_overlapping(DeviceMemory &m, uintptr_t start, size_t size) {
  auto it = m.allocations.lower_bound(start);
  if (it != m.allocations.begin()) {
    auto before = std::prev(it);
    if (!before->second.live && before->first + before->second.size > start) forget(m, before);
  }
  while (it != m.allocations.end() && it->first < start + size) {
    auto next = std::next(it);
    if (!it->second.live) forget(m, it);
    it = next;
  }
}

// A guarded allocation of `size` bytes, or null when the range is full or
// the system refuses to map more (then the caller falls back to host memory).
void *allocate_guarded(DeviceMemory &m, size_t size, Allocation &out) {
  if (!m.tried) reserve(m);
  if (!m.base || size > m.end - m.base) return nullptr;
  size_t rounded = round_up(size + allocation_padding(), kAlignment);
  size_t data = round_up(rounded, m.page);
  uintptr_t span = take(m, data + m.page);
  if (!span) return nullptr;
  if (mmap(reinterpret_cast<void *>(span), data, PROT_READ | PROT_WRITE,
           MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) == MAP_FAILED) {
    // Older kernels may leave pages unmapped by a failed replacement, for
    // any mmap to take: the span is handed out again only if still mapped
    // (what msync with MS_ASYNC alone checks).
    if (msync(reinterpret_cast<void *>(span), data, MS_ASYNC) == 0) give_back(m, span, data + m.page);
    return nullptr;
  }
  uintptr_t pointer = span + data - rounded;
  forget_overlapping(m, span, data + m.page);
  out = Allocation{size, span, data + m.page, 0, true, true, false, Placement::kMalloc, GPUSYM_MADE_BY_HIP_MALLOC};
  return reinterpret_cast<void *>(pointer);
}

void release_guarded(DeviceMemory &m, const Allocation &allocation) {
  // A fresh inaccessible mapping in its place: the pages go back to the system.
  void *span = reinterpret_cast<void *>(allocation.span);
  if (map_inaccessible(m, allocation.span, allocation.span_size) == MAP_FAILED) {
    mprotect(span, allocation.span_size, PROT_NONE);
    madvise(span, allocation.span_size, MADV_DONTNEED);
  }
  give_back(m, allocation.span, allocation.span_size);
}

// Frees the live allocation `found` (by hipFree or hipDeviceReset, or its
// owner) and tells the debugger.  A placed allocation's pages are its owner's.
void release(DeviceMemory &m, std::map<uintptr_t, Allocation>::iterator found, gpusym_allocation_freed_by by) {
  void *pointer = reinterpret_cast<void *>(found->first);
  disown_allocation(pointer);
  Allocation &allocation = found->second;
  uint32_t slot = allocation.slot;
  releases.fetch_add(1, std::memory_order_release);
  note_released(found->first);
  if (!allocation.guarded) {
    free(pointer);  // its addresses may come back from malloc at once: not remembered
    m.table[slot] = {};
    m.free_slots.push_back(slot);
    m.allocations.erase(found);
  } else {
    if (allocation.placement == Placement::kMalloc) release_guarded(m, allocation);
    allocation.live = false;
    m.table[slot].state = GPUSYM_ALLOCATION_FREED;
    m.table[slot].freed_by = by;
    m.freed.emplace_back(found->first, m.table[slot].serial);
    if (m.freed.size() > kFreedRemembered) {
      auto [base, serial] = m.freed.front();
      m.freed.pop_front();
      auto oldest = m.allocations.find(base);  // unless already forgotten when its range was reused
      if (oldest != m.allocations.end() && !oldest->second.live && m.table[oldest->second.slot].serial == serial)
        forget(m, oldest);
    }
  }
  publish(m, GPUSYM_EVENT_FREED, slot);
}

std::string origin(const DeviceMemory &m, const Allocation &allocation) {
  const Calls &calls = kMadeBy[allocation.made_by];
  if (allocation.live) return calls.made;
  bool reset = m.table[allocation.slot].freed_by == GPUSYM_FREED_BY_RESET;
  bool cuda = calls.made[0] == 'c';
  return std::string(calls.made) + ", then " + (reset ? (cuda ? "cudaDeviceReset" : "hipDeviceReset") : calls.freed);
}
const char *bytes(uint64_t count) { return count == 1 ? "byte" : "bytes"; }

// The live allocation holding `pointer`: its base and size; false when none does.
bool find_allocation(const void *pointer, void **base, size_t *size) {
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto after = m.allocations.upper_bound(address);
  if (after == m.allocations.begin()) return false;
  auto containing = std::prev(after);
  if (!containing->second.live || address - containing->first >= containing->second.size) return false;
  *base = reinterpret_cast<void *>(containing->first);
  *size = containing->second.size;
  return true;
}

// With the lock held: the live allocation holding `address` as [start, end),
// continued through the mappings that follow a mapping with no gap (a range
// reserved once and mapped piece by piece is used as one); {0, 0} when none
// holds it.  Allocates nothing.
std::pair<uintptr_t, uintptr_t> live_extent(const DeviceMemory &m, uintptr_t address) {
  auto it = m.allocations.upper_bound(address);
  if (it == m.allocations.begin()) return {0, 0};
  --it;
  if (!it->second.live || address - it->first >= it->second.size) return {0, 0};
  uintptr_t start = it->first, end = it->first + it->second.size;
  while (it->second.placement == Placement::kMapping && ++it != m.allocations.end() && it->first == end &&
         it->second.live && it->second.placement == Placement::kMapping)
    end = it->first + it->second.size;
  return {start, end};
}

}  // namespace

bool is_device_range(const void *pointer, size_t size) {
  uintptr_t start = reinterpret_cast<uintptr_t>(pointer);
  DeviceMemory &m = memory();
  {
    std::lock_guard<std::mutex> lock(m.mutex);
    auto [first, end] = live_extent(m, start);
    if (first != end && size <= end - start) return true;
  }
  return is_device_variable_range(pointer, size) || is_host_mapped_range(pointer, size) ||
         is_graph_range(pointer, size);
}

bool is_managed(const void *pointer) {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  auto after = m.allocations.upper_bound(address);
  if (after == m.allocations.begin()) return false;
  auto containing = std::prev(after);
  return containing->second.live && containing->second.managed && address - containing->first < containing->second.size;
}

std::string allocation_origin(uintptr_t base) {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto found = m.allocations.find(base);
  return found == m.allocations.end() ? std::string() : origin(m, found->second);
}

hipError_t check_copy(const void *dst, size_t dst_span, const void *src, size_t src_span, hipMemcpyKind kind) {
  if (dst_span == 0 && src_span == 0) return hipSuccess;
  if (!dst || !src) return hipErrorInvalidValue;
  switch (kind) {
    case hipMemcpyHostToHost: return hipSuccess;
    case hipMemcpyHostToDevice: return is_device_range(dst, dst_span) ? hipSuccess : hipErrorInvalidValue;
    case hipMemcpyDeviceToHost: return is_device_range(src, src_span) ? hipSuccess : hipErrorInvalidValue;
    case hipMemcpyDeviceToDevice:
    case hipMemcpyDeviceToDeviceNoCU:  // the same copy: the simulated device has no copy engines apart
      return is_device_range(dst, dst_span) && is_device_range(src, src_span) ? hipSuccess : hipErrorInvalidValue;
    case hipMemcpyDefault: return hipSuccess;  // unified addressing: any valid pair
  }
  return hipErrorInvalidMemcpyDirection;
}

void free_device_allocations(int device) {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  std::vector<uintptr_t> owned;  // first: releasing one may forget others
  for (const auto &[base, allocation] : m.allocations)
    if (allocation.live && allocation.placement == Placement::kMalloc &&
        allocation_device(reinterpret_cast<void *>(base)) == device)
      owned.push_back(base);
  for (uintptr_t base : owned) release(m, m.allocations.find(base), GPUSYM_FREED_BY_RESET);
}

std::mutex &device_memory_mutex() { return memory().mutex; }

size_t allocation_padding() {
  static const size_t padding = static_cast<size_t>(std::max(0L, env_long("GPUSYM_ALLOCATION_PADDING", 0)));
  return padding;
}

void describe_address(uintptr_t address, gpusym_debug_fault &fault, char *text, size_t size) {
  DeviceMemory &m = memory();
  fault.allocation_base = fault.allocation_size = 0;
  fault.allocation_state = GPUSYM_ALLOCATION_UNUSED;
  if ((address < m.base || address >= m.end) && describe_freed_host_memory(address, text, size)) return;
  auto after = m.allocations.upper_bound(address);
  auto before = after == m.allocations.begin() ? m.allocations.end() : std::prev(after);
  const char *freed = "";
  auto name = [&](std::map<uintptr_t, Allocation>::iterator it) {
    fault.allocation_base = it->first;
    fault.allocation_size = it->second.size;
    fault.allocation_state = it->second.live ? GPUSYM_ALLOCATION_LIVE : GPUSYM_ALLOCATION_FREED;
    freed = it->second.live ? "" : "freed ";
  };
  if (before != m.allocations.end() && address < before->first + before->second.size) {
    name(before);
    uint64_t offset = address - before->first;
    snprintf(text, size, "%" PRIu64 " %s into a %s%zu-byte allocation at 0x%" PRIxPTR " (%s)", offset, bytes(offset),
             freed, before->second.size, before->first, origin(m, before->second).c_str());
    return;
  }
  // The nearest: past the end of the one before, or before the one after.
  uint64_t past = before != m.allocations.end() ? address - (before->first + before->second.size) : UINT64_MAX;
  uint64_t ahead = after != m.allocations.end() ? after->first - address : UINT64_MAX;
  if (past == UINT64_MAX && ahead == UINT64_MAX) {
    if (m.base && address >= m.base && address < m.end)
      snprintf(text, size, "far from any allocation (there are none)");
    else if (address < 65536)
      snprintf(text, size, "not device memory: %" PRIuPTR " %s from a null pointer", address, bytes(address));
    else
      snprintf(text, size, "not device memory");
    return;
  }
  bool is_past = past <= ahead;
  auto nearest = is_past ? before : after;
  uint64_t distance = is_past ? past : ahead;
  if (distance < kNear) {
    name(nearest);
    snprintf(text, size, "%" PRIu64 " %s %s a %s%zu-byte allocation at 0x%" PRIxPTR " (%s)", distance,
             bytes(distance), is_past ? "past the end of" : "before", freed, nearest->second.size, nearest->first,
             origin(m, nearest->second).c_str());
  } else if (m.base && address >= m.base && address < m.end) {
    snprintf(text, size, "far from any allocation: %" PRIu64 " bytes %s the nearest, a %s%zu-byte allocation at 0x%" PRIxPTR,
             distance, is_past ? "past the end of" : "before", nearest->second.live ? "" : "freed ",
             nearest->second.size, nearest->first);
  } else if (address < 65536) {
    snprintf(text, size, "not device memory: %" PRIuPTR " %s from a null pointer", address, bytes(address));
  } else {
    snprintf(text, size, "not device memory");
  }
}

std::pair<uintptr_t, uintptr_t> live_allocation_at(uintptr_t address) { return live_extent(memory(), address); }

uint64_t device_memory_releases() { return releases.load(std::memory_order_acquire); }

size_t device_page() {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  if (!m.tried) reserve(m);
  return m.page;
}

uintptr_t take_span(size_t size, size_t alignment) {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  if (!m.tried) reserve(m);
  size_t extra = alignment - std::min(alignment, m.page);
  if (!m.base || size == 0 || size > m.end - m.base || extra > m.end - m.base - size) return 0;
  uintptr_t taken = take(m, size + extra);
  if (!taken) return 0;
  uintptr_t start = round_up(taken, alignment);
  if (start > taken) give_back(m, taken, start - taken);
  if (taken + extra > start) give_back(m, start + size, taken + extra - start);
  forget_overlapping(m, start, size);
  return start;
}

void give_back_span(uintptr_t start, size_t size) {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  give_back(m, start, size);
}

bool map_fresh_pages(uintptr_t start, size_t size) {
  return mmap(reinterpret_cast<void *>(start), size, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED, -1, 0) != MAP_FAILED;
}

void map_inaccessible_pages(uintptr_t start, size_t size) {
  if (map_inaccessible(memory(), start, size) == MAP_FAILED) {
    mprotect(reinterpret_cast<void *>(start), size, PROT_NONE);
    madvise(reinterpret_cast<void *>(start), size, MADV_DONTNEED);
  }
}

void place_allocation(uintptr_t base, size_t size, int device, Placement placement,
                      gpusym_allocation_made_by made_by, bool written) {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  forget_overlapping(m, base, size);
  Allocation allocation{size, 0, 0, new_slot(m), true, true, false, placement, made_by};
  m.table[allocation.slot] = {base, size, GPUSYM_ALLOCATION_LIVE, 0, static_cast<uint16_t>(made_by), ++m.serial};
  m.allocations[base] = allocation;
  publish(m, GPUSYM_EVENT_ALLOCATED, allocation.slot);
  own_allocation(reinterpret_cast<void *>(base), size, device);
  note_allocated(base, size, written);
}

void remove_allocation(uintptr_t base, gpusym_allocation_freed_by by) {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto found = m.allocations.find(base);
  if (found != m.allocations.end() && found->second.live) release(m, found, by);
}

bool live_placement(const void *base, Placement &placement) {
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto found = m.allocations.find(reinterpret_cast<uintptr_t>(base));
  if (found == m.allocations.end() || !found->second.live) return false;
  placement = found->second.placement;
  return true;
}

namespace {

// memcheck: at exit, the device memory allocations never freed.
__attribute__((destructor)) void report_leaked_allocations() {
  if (!(__gpusym_checks & kCheckMemory)) return;
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  size_t count = 0, bytes = 0;
  for (const auto &[base, allocation] : m.allocations)
    if (allocation.live) count++, bytes += allocation.size;
  if (count == 0) return;
  warn("memcheck: %zu allocation%s of device memory (%zu bytes) never freed:", count, count == 1 ? "" : "s", bytes);
  for (const auto &[base, allocation] : m.allocations)
    if (allocation.live) warn("  %zu bytes at 0x%" PRIxPTR " (%s)", allocation.size, base, origin(m, allocation).c_str());
}

}  // namespace

}  // namespace gpusym

using namespace gpusym;

hipError_t gpusym::allocate(void **ptr, size_t size, bool managed) {
  if (!ptr) return hipErrorInvalidValue;
  *ptr = nullptr;
  if (size == 0) return hipSuccess;
  DeviceMemory &m = memory();
  std::unique_lock<std::mutex> lock(m.mutex);
  Allocation allocation{};
  void *memory = allocate_guarded(m, size, allocation);
  // More than the whole device range can never be had: HIP's answer, with
  // no fall-back that would leave later allocations unguarded.
  if (!memory && m.base && size > m.end - m.base) return hipErrorOutOfMemory;
  if (!memory) {
    // The range is full, or the system maps no more (vm.max_map_count):
    // host memory still works, only unguarded.
    if (m.base && !m.warned_unguarded) {
      warn("device memory: cannot map a guarded allocation of %zu bytes; this one and later ones "
           "may not be guarded",
           size);
      m.warned_unguarded = true;
    }
    memory = aligned_alloc(kAlignment, round_up(size, kAlignment));
    if (!memory) return hipErrorOutOfMemory;
    allocation = Allocation{size, 0, 0, 0, true, false, false, Placement::kMalloc, GPUSYM_MADE_BY_HIP_MALLOC};
  }
  allocation.managed = managed;
  allocation.made_by = static_cast<gpusym_allocation_made_by>(
      (in_cuda_call() ? GPUSYM_MADE_BY_CUDA_MALLOC : GPUSYM_MADE_BY_HIP_MALLOC) + (managed ? 1 : 0));
  uintptr_t base = reinterpret_cast<uintptr_t>(memory);
  allocation.slot = new_slot(m);
  m.table[allocation.slot] = {base, size, GPUSYM_ALLOCATION_LIVE, 0, static_cast<uint16_t>(allocation.made_by),
                              ++m.serial};
  m.allocations[base] = allocation;
  publish(m, GPUSYM_EVENT_ALLOCATED, allocation.slot);
  own_allocation(memory, size);  // by the current device
  note_allocated(base, size, managed);
  *ptr = memory;
  return hipSuccess;
}

extern "C" {

hipError_t hipMalloc(void **ptr, size_t size) { return record(allocate(ptr, size, false)); }

// HIP's kinds of device memory (fine-grained, uncached, contiguous, a
// signal's 8 bytes) differ in what a GPU caches; here each is hipMalloc's.
hipError_t hipExtMallocWithFlags(void **ptr, size_t size, unsigned int flags) {
  if (flags > hipDeviceMallocContiguous || (flags == hipMallocSignalMemory && size != 8))
    return record(hipErrorInvalidValue);
  return record(allocate(ptr, size, false));
}

// The size of the allocation holding ptr.
hipError_t hipMemPtrGetInfo(void *ptr, size_t *size) {
  void *base;
  if (!size || !find_allocation(ptr, &base, size)) return record(hipErrorInvalidValue);
  return hipSuccess;
}

// The base and size of the allocation holding dptr.
hipError_t hipMemGetAddressRange(hipDeviceptr_t *pbase, size_t *psize, hipDeviceptr_t dptr) {
  void *base;
  size_t size;
  if (!find_allocation(dptr, &base, &size)) return record(hipErrorNotFound);
  if (pbase) *pbase = base;
  if (psize) *psize = size;
  return hipSuccess;
}

// Managed memory is device memory, which the host reads and writes as it is.
hipError_t hipMallocManaged(void **ptr, size_t size, unsigned int flags) {
  if (flags != hipMemAttachGlobal && flags != hipMemAttachHost) return record(hipErrorInvalidValue);
  return record(allocate(ptr, size, true));
}

// Advice and prefetches move nothing: every device's memory is the host's.
hipError_t hipMemAdvise(const void *ptr, size_t count, hipMemoryAdvise advice, int device) {
  if (!ptr || !count || !is_device_range(ptr, count)) return record(hipErrorInvalidValue);
  if (advice < hipMemAdviseSetReadMostly ||
      (advice > hipMemAdviseUnsetAccessedBy && advice != hipMemAdviseSetCoarseGrain &&
       advice != hipMemAdviseUnsetCoarseGrain))
    return record(hipErrorInvalidValue);
  if (device != hipCpuDeviceId && !valid_device(device)) return record(hipErrorInvalidDevice);
  return hipSuccess;
}

hipError_t hipMemPrefetchAsync(const void *ptr, size_t count, int device, hipStream_t) {
  if (!ptr || !count || !is_device_range(ptr, count)) return record(hipErrorInvalidValue);
  if (device != hipCpuDeviceId && !valid_device(device)) return record(hipErrorInvalidDevice);
  return hipSuccess;
}

// A pool's or a graph's allocation goes back to its owner; a mapping is
// unmapped only by hipMemUnmap.
hipError_t hipFree(void *ptr) {
  if (!ptr) return hipSuccess;
  synchronize_owner(ptr);  // as on a GPU, freeing waits for the work that may use it
  Placement placement;
  if (live_placement(ptr, placement)) {
    if (placement == Placement::kPool) return record(free_pool_allocation(ptr, nullptr, false));
    if (placement == Placement::kGraph) return record(free_graph_allocation(ptr, nullptr, false));
    if (placement == Placement::kMapping) return record(hipErrorInvalidValue);
  }
  DeviceMemory &m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  auto found = m.allocations.find(reinterpret_cast<uintptr_t>(ptr));
  if (found == m.allocations.end() || !found->second.live) return record(hipErrorInvalidValue);
  release(m, found, GPUSYM_FREED_BY_FREE);
  return hipSuccess;
}

hipError_t hipMemcpy(void *dst, const void *src, size_t size, hipMemcpyKind kind) {
  if (hipError_t error = check_copy(dst, size, src, size, kind)) return record(error);
  synchronize();
  if (size) memmove(dst, src, size);
  note_written(reinterpret_cast<uintptr_t>(dst), size);
  return hipSuccess;
}

hipError_t hipMemset(void *dst, int value, size_t size) {
  if (size && !is_device_range(dst, size)) return record(hipErrorInvalidValue);
  synchronize();
  memset(dst, value, size);
  note_written(reinterpret_cast<uintptr_t>(dst), size);
  return hipSuccess;
}

}  // extern "C"
