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
//
// racecheck: a plain access of __shared__ memory by one lane and a write of
// the same byte by another (or a read, for a write), with no __syncthreads
// between them, is a hazard: the GPU orders them no way.  Each lane counts
// the barriers it has passed (its epoch); each byte of __shared__ memory
// remembers its last write and its last read, by which lane, in which epoch
// and where; two accesses of different lanes in the same epoch conflict.
// Each pair of source lines is reported once, and the program goes on; at
// exit, the hazards are counted.  Atomics never race.
//
// synccheck: the lanes of a block must reach each barrier at the same
// __syncthreads: a block whose lanes wait at different ones (one in each
// branch of an if) is in divergent code, which a GPU does not define.  The
// first lane to pass its Nth barrier records where; a lane whose Nth is
// elsewhere is reported, once per pair of lines, and the program goes on.
//
// initcheck: a read by device code of hipMalloc'd memory that no copy,
// memset or device write has written.  Each allocation has a bit per byte,
// set by copies and memsets (streams.cpp) and by device code's writes;
// managed memory, which the host writes unseen, counts as written.  Each
// line is reported once, and the program goes on; at exit, the reads are
// counted.
#include <cinttypes>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>
#include <iterator>

#include "internal.h"

extern "C" uint8_t __gpusym_checks = 0;
extern "C" __thread __attribute__((tls_model("initial-exec"))) gpusym_lane *__gpusym_lane;
extern "C" void gpusym_check_reported(void);

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
    else if (name == "racecheck")
      __gpusym_checks |= kCheckRaces;
    else if (name == "synccheck")
      __gpusym_checks |= kCheckBarriers;
    else if (name == "initcheck")
      __gpusym_checks |= kCheckInit;
    else if (!name.empty())
      warn("GPUSYM_CHECK: unknown check '%s' (known: memcheck, racecheck, synccheck, initcheck); it is ignored",
           name.c_str());
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
// The text of the last report a check made that the program goes on from
// (without "gpusym: "), for a debugger: gdb's `set gpusym check` and
// `gpusym capture` read it at gpusym_check_reported().
extern "C" char gpusym_check_report[2048] = {};

namespace {

std::mutex report_mutex;  // one report at a time in gpusym_check_report

// Prints a report that the program goes on from, as warn() does, keeps it in
// gpusym_check_report and calls gpusym_check_reported().
__attribute__((format(printf, 1, 2))) void report_found(const char *format, ...) {
  char text[sizeof gpusym_check_report];
  va_list args;
  va_start(args, format);
  vsnprintf(text, sizeof text, format, args);
  va_end(args);
  std::lock_guard<std::mutex> lock(report_mutex);
  memcpy(gpusym_check_report, text, sizeof text);
  fprintf(stderr, "gpusym: %s\n", text);
  gpusym_check_reported();
}

// One side of a possible hazard: which lane of the block, in which epoch, where.
struct Side {
  uint32_t lane = UINT32_MAX;  // flat thread index; UINT32_MAX: none yet
  uint32_t epoch = 0;
  const char *file = nullptr;
  uint32_t line = 0;
};

struct SharedByte {
  Side write, read;
};

// The block this thread runs (a block's lanes all run on one thread) and
// what racecheck remembers of it.
// A barrier a lane has passed: where (the call's return address), and its line.
struct Barrier {
  uintptr_t site;
  const char *file;
  uint32_t line;
  uint32_t lane;
};

struct BlockRaces {
  uint64_t dispatch = 0;
  gpusym_dim3 block{UINT32_MAX, 0, 0};
  std::vector<uint32_t> epochs;  // by flat thread
  std::unordered_map<uintptr_t, SharedByte> bytes;
  std::vector<Barrier> barriers;  // the first lane's, by count
};

thread_local BlockRaces block_races;

std::mutex reported_mutex;
std::set<std::tuple<std::string, uint32_t, std::string, uint32_t>> reported;  // (file, line) pairs
std::atomic<uint64_t> hazards{0};

BlockRaces &races_of(const gpusym_lane *lane) {
  BlockRaces &races = block_races;
  if (races.dispatch != lane->dispatch_id || races.block.x != lane->block_idx.x ||
      races.block.y != lane->block_idx.y || races.block.z != lane->block_idx.z) {
    races.dispatch = lane->dispatch_id;
    races.block = lane->block_idx;
    races.epochs.assign(size_t{lane->block_dim.x} * lane->block_dim.y * lane->block_dim.z, 0);
    races.bytes.clear();
    races.barriers.clear();
  }
  return races;
}

std::string thread_of(const gpusym_lane *lane, uint32_t flat) {
  const gpusym_dim3 &dim = lane->block_dim;
  return "(" + std::to_string(flat % dim.x) + "," + std::to_string(flat / dim.x % dim.y) + "," +
         std::to_string(flat / (dim.x * dim.y)) + ")";
}

std::string where(const char *file, uint32_t line) {
  return file ? std::string(file) + ":" + std::to_string(line) : std::string("an unknown line");
}

// Reports the hazard between this lane's access and `other`, once per pair of lines.
void report_hazard(const gpusym_lane *lane, uintptr_t address, uint64_t size, bool write, const Side &other,
                   bool other_wrote, const char *file, uint32_t line) {
  hazards.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(reported_mutex);
    auto key = std::make_tuple(std::string(other.file ? other.file : ""), other.line, std::string(file ? file : ""), line);
    if (!reported.insert(key).second) return;
  }
  const gpusym_dim3 &block = lane->block_idx;
  std::string variable = shared_variable_at(running_kernel(), address);
  std::string here = (variable.empty() ? "" : variable + ", ") + where(file, line);
  report_found("racecheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u): thread %s %s %" PRIu64
               " bytes of __shared__ memory at 0x%" PRIxPTR " (%s) that thread %s %s (%s) with no barrier between",
               running_kernel().display_name.c_str(), lane->dispatch_id, block.x, block.y, block.z,
               thread_of(lane, lane->flat_thread).c_str(), write ? "writes" : "reads", size, address, here.c_str(),
               thread_of(lane, other.lane).c_str(), other_wrote ? "wrote" : "read", where(other.file, other.line).c_str());
}

// Reports the lane waiting at a barrier other than `first`'s, once per pair of lines.
void report_divergence(const gpusym_lane *lane, const Barrier &first, const char *file, uint32_t line) {
  {
    std::lock_guard<std::mutex> lock(reported_mutex);
    auto key = std::make_tuple(std::string(first.file ? first.file : ""), first.line, std::string(file ? file : ""),
                               line + (uint32_t{1} << 31));
    if (!reported.insert(key).second) return;
  }
  const gpusym_dim3 &block = lane->block_idx;
  report_found("synccheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u): thread %s waits at the barrier at %s while "
       "thread %s waited at the one at %s: __syncthreads in divergent code",
       running_kernel().display_name.c_str(), lane->dispatch_id, block.x, block.y, block.z,
       thread_of(lane, lane->flat_thread).c_str(), where(file, line).c_str(), thread_of(lane, first.lane).c_str(),
       where(first.file, first.line).c_str());
}

// initcheck's memory: for each allocation, a bit per byte written.
struct Written {
  size_t size;
  std::vector<uint64_t> bits;
  size_t unwritten;  // bytes whose bit is clear: 0 once every byte is written

  // Marks byte `i` written.
  void write(uint64_t i) {
    uint64_t &word = bits[i / 64];
    uint64_t bit = uint64_t{1} << (i % 64);
    if (!(word & bit)) {
      word |= bit;
      unwritten--;
    }
  }
};

// The allocations a thread's accesses found written in full, valid while
// `releases` is device_memory_releases(): found again without a lock.
struct WrittenRecently {
  std::pair<uintptr_t, uintptr_t> allocations[8];
  unsigned next;
  uint64_t releases = UINT64_MAX;
};
thread_local WrittenRecently written_recently;

std::mutex written_mutex;
std::map<uintptr_t, Written> written;  // by base
std::atomic<uint64_t> uninitialized_reads{0};

// The allocation holding `address`, or null (written_mutex held).
std::pair<const uintptr_t, Written> *written_at(uintptr_t address) {
  auto after = written.upper_bound(address);
  if (after == written.begin()) return nullptr;
  auto &found = *std::prev(after);
  return address - found.first < found.second.size ? &found : nullptr;
}

// Reports a read of bytes never written, once per line.
void report_uninitialized(const gpusym_lane *lane, uintptr_t address, uint64_t size, uintptr_t base,
                          size_t allocation_size, const char *file, uint32_t line) {
  uninitialized_reads.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(reported_mutex);
    if (!reported.insert(std::make_tuple(std::string("initcheck"), 0, std::string(file ? file : ""), line)).second)
      return;
  }
  const gpusym_dim3 &block = lane->block_idx;
  report_found("initcheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u) thread %s: reads %" PRIu64
       " bytes at 0x%" PRIxPTR " (%s) that no copy, memset or kernel has written: %" PRIu64
       " bytes into a %zu-byte allocation at 0x%" PRIxPTR " (%s)",
       running_kernel().display_name.c_str(), lane->dispatch_id, block.x, block.y, block.z,
       thread_of(lane, lane->flat_thread).c_str(), size, address, where(file, line).c_str(),
       static_cast<uint64_t>(address - base), allocation_size, base, allocation_origin(base).c_str());
}

// initcheck's part of a device access: a write marks its bytes, a read of
// bytes never written is reported.
void check_initialized(uintptr_t address, uint64_t size, bool write, const char *file, uint32_t line) {
  WrittenRecently &recent = written_recently;
  uint64_t now = device_memory_releases();
  if (now != recent.releases) recent = WrittenRecently{{}, 0, now};
  for (const auto &[start, end] : recent.allocations)
    if (address - start < end - start) return;
  std::unique_lock<std::mutex> lock(written_mutex);
  auto *found = written_at(address);
  if (!found) return;
  auto &[base, memory] = *found;
  if (memory.unwritten == 0) {
    recent.allocations[recent.next++ % std::size(recent.allocations)] = {base, base + memory.size};
    return;
  }
  uint64_t end = std::min<uint64_t>(address - base + size, memory.size);
  for (uint64_t i = address - base; i < end; i++) {
    if (write) {
      memory.write(i);
    } else if (!(memory.bits[i / 64] >> (i % 64) & 1)) {
      uintptr_t start = base;
      size_t allocation_size = memory.size;
      lock.unlock();
      report_uninitialized(__gpusym_lane, address, size, start, allocation_size, file, line);
      return;
    }
  }
}

// racecheck: at exit, how many hazards there were.
__attribute__((destructor)) void report_hazard_count() {
  uint64_t count = hazards.load();
  if ((__gpusym_checks & kCheckRaces) && count)
    warn("racecheck: %" PRIu64 " hazard%s on __shared__ memory (%zu pair%s of lines, each reported once)", count,
         count == 1 ? "" : "s", reported.size(), reported.size() == 1 ? "" : "s");
}

// initcheck: at exit, how many reads of memory never written there were.
__attribute__((destructor)) void report_uninitialized_count() {
  uint64_t count = uninitialized_reads.load();
  if ((__gpusym_checks & kCheckInit) && count)
    warn("initcheck: %" PRIu64 " read%s of device memory never written", count, count == 1 ? "" : "s");
}

}  // namespace

void gpusym::note_allocated(uintptr_t base, size_t size, bool managed) {
  if (!(__gpusym_checks & kCheckInit)) return;
  std::lock_guard<std::mutex> lock(written_mutex);
  written[base] = Written{size, std::vector<uint64_t>((size + 63) / 64, managed ? ~uint64_t{0} : 0), managed ? 0 : size};
}

void gpusym::note_released(uintptr_t base) {
  if (!(__gpusym_checks & kCheckInit)) return;
  std::lock_guard<std::mutex> lock(written_mutex);
  written.erase(base);
}

void gpusym::note_written(uintptr_t address, size_t size) {
  if (!(__gpusym_checks & kCheckInit) || size == 0) return;
  std::lock_guard<std::mutex> lock(written_mutex);
  // The allocations overlapping [address, address + size): the one holding its start, and those after.
  auto it = written.upper_bound(address);
  if (it != written.begin()) --it;
  for (; it != written.end() && it->first < address + size; ++it) {
    auto &[base, memory] = *it;
    if (base + memory.size <= address) continue;
    uint64_t from = address > base ? address - base : 0;
    uint64_t to = std::min<uint64_t>(address + size - base, memory.size);
    for (uint64_t i = from; i < to && memory.unwritten; i++) memory.write(i);
  }
}

// memcheck: an access outside the __shared__ variable [start, start +
// base_size) it is of, reported as an invalid access.
[[noreturn]] static void end_of_shared(uintptr_t address, uint64_t size, bool write, uintptr_t start, uint64_t base_size,
                                const char *file, uint32_t line) {
  std::string variable = shared_variable_at(running_kernel(), start);
  if (size_t plus = variable.rfind('+'); plus != std::string::npos) variable.resize(plus);
  if (variable.empty()) variable = "a variable";
  char described[512];
  if (address >= start + base_size)
    snprintf(described, sizeof described, "%" PRIu64 " bytes past the end of __shared__ %s (%" PRIu64 " bytes)",
             static_cast<uint64_t>(address - start - base_size), variable.c_str(), base_size);
  else if (address < start)
    snprintf(described, sizeof described, "%" PRIu64 " bytes before __shared__ %s (%" PRIu64 " bytes)",
             static_cast<uint64_t>(start - address), variable.c_str(), base_size);
  else
    snprintf(described, sizeof described, "%" PRIu64 " bytes into __shared__ %s (%" PRIu64 " bytes), past its end",
             static_cast<uint64_t>(address - start), variable.c_str(), base_size);
  end_lane_for_access(address, size, write, false, 0, file, line, described);
}

// Called after each report of a check that lets the program go on: gdb's
// `set gpusym check` stops here.  Kept out of line.
extern "C" __attribute__((noinline, used)) void gpusym_check_reported(void) { __asm__ volatile("" ::: "memory"); }

// synccheck: a warp function's *_sync form whose mask names lanes of the
// wavefront that have exited or are past the end of the block.
extern "C" void __gpusym_check_mask(uint64_t mask, const char *function) {
  const gpusym_lane *lane = __gpusym_lane;
  if (!(__gpusym_checks & kCheckBarriers) || !lane) return;
  // Called once the wavefront has met, as its lanes go on in order: those
  // after this one have not gone on yet, so any of them that has exited did
  // so before the meeting (the lowest lane's call sees every other).
  uint32_t self = lane->flat_thread % running_kernel().wave_size;
  uint64_t after = self == 63 ? 0 : ~uint64_t{0} << (self + 1);
  uint64_t absent = absent_wave_lanes(lane) & mask & after;
  if (!absent) return;
  {
    std::lock_guard<std::mutex> lock(reported_mutex);
    auto key = std::make_tuple(std::string(function), 0u, running_kernel().display_name, uint32_t{2} << 30);
    if (!reported.insert(key).second) return;
  }
  std::string lanes;  // as ranges: 32-63
  for (unsigned i = 0; i < 64; i++) {
    if (!(absent >> i & 1)) continue;
    unsigned last = i;
    while (last + 1 < 64 && (absent >> (last + 1) & 1)) last++;
    lanes += (lanes.empty() ? "" : ", ") + std::to_string(i) + (last > i ? "-" + std::to_string(last) : "");
    i = last;
  }
  const gpusym_dim3 &block = lane->block_idx;
  report_found("synccheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u): thread %s calls %s with mask 0x%" PRIx64
               " naming lanes of its wavefront that have exited or are not in the block (lanes %s)",
               running_kernel().display_name.c_str(), lane->dispatch_id, block.x, block.y, block.z,
               thread_of(lane, lane->flat_thread).c_str(), function, mask, lanes.c_str());
}

extern "C" __attribute__((preserve_all)) void __gpusym_check_barrier(const char *file, uint32_t line) {
  const gpusym_lane *lane = __gpusym_lane;
  if (!(__gpusym_checks & (kCheckRaces | kCheckBarriers)) || !lane) return;
  BlockRaces &races = races_of(lane);
  if (lane->flat_thread >= races.epochs.size()) return;
  uint32_t &passed = races.epochs[lane->flat_thread];
  if (__gpusym_checks & kCheckBarriers) {
    uintptr_t site = reinterpret_cast<uintptr_t>(__builtin_return_address(0));
    if (passed == races.barriers.size())
      races.barriers.push_back({site, file, line, lane->flat_thread});
    else if (passed < races.barriers.size() && races.barriers[passed].site != site)
      report_divergence(lane, races.barriers[passed], file, line);
  }
  passed++;
}

// base, base_size: the __shared__ variable the access is of, when the
// compiler knows it (memcheck's bounds), else null, 0.
extern "C" __attribute__((preserve_all)) void __gpusym_check_shared(const void *pointer, uint64_t size, uint64_t flags,
                                                                    const char *file, uint32_t line, const void *base,
                                                                    uint64_t base_size) {
  uintptr_t start = reinterpret_cast<uintptr_t>(base);
  if ((__gpusym_checks & kCheckMemory) && base_size &&
      (reinterpret_cast<uintptr_t>(pointer) - start > base_size || size > base_size - (reinterpret_cast<uintptr_t>(pointer) - start)))
    end_of_shared(reinterpret_cast<uintptr_t>(pointer), size, flags & 1, start, base_size, file, line);
  const gpusym_lane *lane = __gpusym_lane;
  if (!(__gpusym_checks & kCheckRaces) || !lane) return;
  BlockRaces &races = races_of(lane);
  uint32_t self = lane->flat_thread;
  uint32_t epoch = self < races.epochs.size() ? races.epochs[self] : 0;
  bool write = flags & 1;
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  bool reported_one = false;
  for (uint64_t i = 0; i < size; i++) {
    SharedByte &byte = races.bytes[address + i];
    if (!reported_one) {
      const Side &w = byte.write, &r = byte.read;
      if (w.lane != UINT32_MAX && w.lane != self && w.epoch == epoch) {
        report_hazard(lane, address, size, write, w, true, file, line);
        reported_one = true;
      } else if (write && r.lane != UINT32_MAX && r.lane != self && r.epoch == epoch) {
        report_hazard(lane, address, size, write, r, false, file, line);
        reported_one = true;
      }
    }
    (write ? byte.write : byte.read) = Side{self, epoch, file, line};
  }
}

extern "C" __attribute__((preserve_all)) void __gpusym_check_access(const void *pointer, uint64_t size, uint64_t flags,
                                                                    const char *file, uint32_t line) {
  if (size == 0) return;
  if ((__gpusym_checks & kCheckInit) && __gpusym_lane)
    check_initialized(reinterpret_cast<uintptr_t>(pointer), size, flags & 1, file, line);
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
