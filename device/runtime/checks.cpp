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
// at exit the allocations never freed are listed (memory.cpp).  So must an
// access of a block of device malloc (whose redzones it finds,
// device_heap.cpp), and of a __shared__ variable the compiler knows, an
// extern one's size the launch's.  An access of freed pinned host memory is
// reported too.  An invalid device free is reported once per line, and the
// program goes on; at exit, they are counted.
//
// racecheck: a plain access of __shared__ memory by one lane and a write of
// the same byte by another (or a read, for a write), with no __syncthreads
// between them, is a hazard: the GPU orders them no way.  Each lane counts
// the barriers it has passed (its epoch); each byte of __shared__ memory
// remembers its last write and its last read, by which lane, in which epoch
// and where; two accesses of different lanes in the same epoch conflict,
// unless the lanes are of one wavefront and both met at a __syncwarp between
// the accesses (each wavefront keeps the lanes of each of its __syncwarp
// meetings).  A hazard within one wavefront is told from one between two.
// Each pair of source lines is reported once, and the program goes on; at
// exit, the hazards are counted.  Atomics never race.
//
// synccheck: the lanes of a block must reach each barrier at the same
// __syncthreads: a block whose lanes wait at different ones (one in each
// branch of an if) is in divergent code, which a GPU does not define.  The
// first lane to pass its Nth barrier records where; a lane whose Nth is
// elsewhere is reported, once per pair of lines, and the program goes on.
// Once a block has run, lanes that passed fewer barriers than others ran to
// their end while the others waited at one: reported once per barrier line.
// A warp function's *_sync form whose mask names lanes of the wavefront that
// did not meet at it is reported: lanes that have exited, wait at a barrier,
// or wait at another warp function (named once that one's lanes have met).
//
// initcheck: a read by device code of hipMalloc'd memory that no copy,
// memset or device write has written.  Each allocation has a bit per byte,
// set by copies and memsets (streams.cpp) and by device code's writes;
// managed memory, which the host writes unseen, counts as written.  So is a
// read of __shared__ memory that no lane of the block has written: the
// thread running a block keeps a bit per byte its lanes wrote, cleared when
// the next block starts.  Each line is reported once, and the program goes
// on; at exit, the reads are counted.
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
  uint32_t syncs = 0;  // __syncwarp meetings of its wavefront before it
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

// A lane's last call of a warp function's *_sync form (synccheck); masks
// are of lanes of its wavefront.
struct SyncCall {
  const char *function = nullptr;
  const char *file = nullptr;
  uint32_t line = 0;
  uint64_t mask = 0, met = 0;  // met: the lanes that met at the call
  uint64_t waiting_for = 0;    // lanes of the mask that waited at another warp function then
};

struct BlockRaces {
  uint64_t dispatch = 0;
  gpusym_dim3 block{UINT32_MAX, 0, 0};
  uint32_t wave = GPUSYM_WAVE_SIZE;  // lanes of a wavefront
  std::vector<uint32_t> epochs;  // by flat thread
  std::unordered_map<uintptr_t, SharedByte> bytes;
  std::vector<Barrier> barriers;  // the first lane's, by count
  bool diverged = false;          // lanes waited at different barriers
  std::vector<std::vector<uint64_t>> warp_syncs;  // by wavefront: the lanes of each of its __syncwarp meetings
  std::vector<SyncCall> sync_calls;               // by flat thread
};

thread_local BlockRaces block_races;

std::mutex reported_mutex;
std::set<std::tuple<std::string, uint32_t, std::string, uint32_t>> reported;  // (file, line) pairs
std::atomic<uint64_t> hazards_within{0}, hazards_between{0};  // within one wavefront, between two
uint64_t hazard_pairs = 0;                   // pairs of lines reported (reported_mutex held)
uint32_t hazard_wave = GPUSYM_WAVE_SIZE;     // the wavefront size of the kernels with hazards

BlockRaces &races_of(const gpusym_lane *lane) {
  BlockRaces &races = block_races;
  if (races.dispatch != lane->dispatch_id || races.block.x != lane->block_idx.x ||
      races.block.y != lane->block_idx.y || races.block.z != lane->block_idx.z) {
    races.dispatch = lane->dispatch_id;
    races.block = lane->block_idx;
    size_t lanes = size_t{lane->block_dim.x} * lane->block_dim.y * lane->block_dim.z;
    races.wave = running_kernel().wave_size;
    races.epochs.assign(lanes, 0);
    races.bytes.clear();
    races.barriers.clear();
    races.diverged = false;
    races.warp_syncs.assign((lanes + races.wave - 1) / races.wave, {});
    races.sync_calls.assign(lanes, {});
  }
  return races;
}

// What a kernel of `wave` lanes a wavefront calls one, as CUDA or HIP does.
const char *wave_word(uint32_t wave) { return wave == 32 ? "warp" : "wavefront"; }

// Lanes of a wavefront (bits), as ranges: "0-15, 32-63".
std::string lane_ranges(uint64_t lanes) {
  std::string text;
  for (unsigned i = 0; i < 64; i++) {
    if (!(lanes >> i & 1)) continue;
    unsigned last = i;
    while (last + 1 < 64 && (lanes >> (last + 1) & 1)) last++;
    text += (text.empty() ? "" : ", ") + std::to_string(i) + (last > i ? "-" + std::to_string(last) : "");
    i = last;
  }
  return text;
}

std::string thread_of(const gpusym_lane *lane, uint32_t flat) {
  const gpusym_dim3 &dim = lane->block_dim;
  return "(" + std::to_string(flat % dim.x) + "," + std::to_string(flat / dim.x % dim.y) + "," +
         std::to_string(flat / (dim.x * dim.y)) + ")";
}

std::string where(const char *file, uint32_t line) {
  return file ? std::string(file) + ":" + std::to_string(line) : std::string("an unknown line");
}

// The flat threads of a block below `count` that `pick` holds for, as
// "thread (3,0,0)" or "threads (0,0,0)-(127,0,0), (192,0,0)-(255,0,0)": the
// first four ranges, then how many threads more.
template <typename Pick>
std::string thread_ranges(const gpusym_lane *lane, uint32_t count, Pick pick) {
  std::string text;
  uint32_t ranges = 0, threads = 0, more = 0;
  for (uint32_t i = 0; i < count; i++) {
    if (!pick(i)) continue;
    uint32_t last = i;
    while (last + 1 < count && pick(last + 1)) last++;
    threads += last - i + 1;
    if (ranges++ < 4)
      text += (text.empty() ? "" : ", ") + thread_of(lane, i) + (last > i ? "-" + thread_of(lane, last) : "");
    else
      more += last - i + 1;
    i = last;
  }
  return (threads == 1 ? "thread " : "threads ") + text + (more ? " and " + std::to_string(more) + " more" : "");
}

// 1st, 2nd, 3rd, 4th, ..., 11th, ..., 21st.
std::string ordinal(uint64_t n) {
  const char *suffix = n % 100 / 10 == 1 ? "th" : n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
  return std::to_string(n) + suffix;
}

// Whether the lanes of `other`'s access and this one's are of one wavefront
// and both met at a __syncwarp after it.
bool warp_synced(const BlockRaces &races, const Side &other, uint32_t self) {
  if (other.lane / races.wave != self / races.wave) return false;
  const std::vector<uint64_t> &syncs = races.warp_syncs[self / races.wave];
  uint64_t both = uint64_t{1} << other.lane % races.wave | uint64_t{1} << self % races.wave;
  for (size_t i = other.syncs; i < syncs.size(); i++)
    if ((syncs[i] & both) == both) return true;
  return false;
}

// Reports the hazard between this lane's access and `other`, once per pair of
// lines and kind (within one wavefront or between two).
void report_hazard(const gpusym_lane *lane, uintptr_t address, uint64_t size, bool write, const Side &other,
                   bool other_wrote, const char *file, uint32_t line) {
  uint32_t wave = running_kernel().wave_size;
  bool within = other.lane / wave == lane->flat_thread / wave;
  (within ? hazards_within : hazards_between).fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(reported_mutex);
    hazard_wave = wave;
    auto key = std::make_tuple(std::string(other.file ? other.file : ""), other.line | (within ? 1u << 30 : 0),
                               std::string(file ? file : ""), line);
    if (!reported.insert(key).second) return;
    hazard_pairs++;
  }
  const gpusym_dim3 &block = lane->block_idx;
  std::string variable = shared_variable_at(running_kernel(), address);
  std::string here = (variable.empty() ? "" : variable + ", ") + where(file, line);
  report_found("racecheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u): thread %s %s %" PRIu64
               " bytes of __shared__ memory at 0x%" PRIxPTR " (%s) that thread %s %s (%s) with no %sbarrier between: "
               "a hazard %s%s%s",
               running_kernel().display_name.c_str(), lane->dispatch_id, block.x, block.y, block.z,
               thread_of(lane, lane->flat_thread).c_str(), write ? "writes" : "reads", size, address, here.c_str(),
               thread_of(lane, other.lane).c_str(), other_wrote ? "wrote" : "read",
               where(other.file, other.line).c_str(), within ? "__syncwarp or " : "", within ? "within one " : "between ", wave_word(wave), within ? "" : "s");
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

// initcheck's __shared__ memory of the block this thread runs: a bit per
// byte written, by 64-byte chunk, all clear when the next block starts.
struct SharedWritten {
  uint64_t dispatch = 0;
  gpusym_dim3 block{UINT32_MAX, 0, 0};
  std::unordered_map<uintptr_t, uint64_t> chunks;  // address / 64 -> a bit per byte
};
thread_local SharedWritten shared_written;
std::atomic<uint64_t> unwritten_shared_reads{0};

// Reports a read of __shared__ memory no lane of the block has written, once per line.
void report_unwritten_shared(const gpusym_lane *lane, uintptr_t address, uint64_t size, const char *file,
                             uint32_t line) {
  unwritten_shared_reads.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(reported_mutex);
    if (!reported.insert(std::make_tuple(std::string("initcheck shared"), 0, std::string(file ? file : ""), line)).second)
      return;
  }
  const gpusym_dim3 &block = lane->block_idx;
  std::string variable = shared_variable_at(running_kernel(), address);
  std::string here = (variable.empty() ? "" : variable + ", ") + where(file, line);
  report_found("initcheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u) thread %s: reads %" PRIu64
               " bytes of __shared__ memory at 0x%" PRIxPTR " (%s) that no thread of its block has written",
               running_kernel().display_name.c_str(), lane->dispatch_id, block.x, block.y, block.z,
               thread_of(lane, lane->flat_thread).c_str(), size, address, here.c_str());
}

// initcheck's part of an access of __shared__ memory: a write marks its
// bytes, a read of bytes no lane of the block has written is reported.
void check_shared_initialized(const gpusym_lane *lane, uintptr_t address, uint64_t size, bool write, const char *file,
                              uint32_t line) {
  SharedWritten &memory = shared_written;
  const gpusym_dim3 &block = lane->block_idx;
  if (memory.dispatch != lane->dispatch_id || memory.block.x != block.x || memory.block.y != block.y ||
      memory.block.z != block.z) {
    memory.dispatch = lane->dispatch_id;
    memory.block = block;
    memory.chunks.clear();
  }
  for (uintptr_t byte = address, end = address + size; byte < end;) {
    uintptr_t chunk = byte / 64;
    uint64_t to = std::min<uint64_t>(end - chunk * 64, 64);
    uint64_t bits = (to == 64 ? ~uint64_t{0} : (uint64_t{1} << to) - 1) & (~uint64_t{0} << (byte % 64));
    if (write) {
      memory.chunks[chunk] |= bits;
    } else if (auto found = memory.chunks.find(chunk); found == memory.chunks.end() || (found->second & bits) != bits) {
      report_unwritten_shared(lane, address, size, file, line);
      return;
    }
    byte = (chunk + 1) * 64;
  }
}

// initcheck's part of a device access: a write marks its bytes, a read of
// bytes never written is reported.  A write outside every allocation may be
// of __shared__ memory through a pointer the compiler did not know: it
// marks that.
void check_initialized(uintptr_t address, uint64_t size, bool write, const char *file, uint32_t line) {
  WrittenRecently &recent = written_recently;
  uint64_t now = device_memory_releases();
  if (now != recent.releases) recent = WrittenRecently{{}, 0, now};
  for (const auto &[start, end] : recent.allocations)
    if (address - start < end - start) return;
  std::unique_lock<std::mutex> lock(written_mutex);
  auto *found = written_at(address);
  if (!found) {
    lock.unlock();
    if (write) check_shared_initialized(__gpusym_lane, address, size, true, file, line);
    return;
  }
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

// racecheck: at exit, how many hazards there were, within one wavefront and between two.
__attribute__((destructor)) void report_hazard_count() {
  uint64_t within = hazards_within.load(), between = hazards_between.load(), count = within + between;
  const char *one = wave_word(hazard_wave);
  if ((__gpusym_checks & kCheckRaces) && count)
    warn("racecheck: %" PRIu64 " hazard%s on __shared__ memory, %" PRIu64 " within one %s and %" PRIu64
         " between %ss (%" PRIu64 " pair%s of lines, each reported once)",
         count, count == 1 ? "" : "s", within, one, between, one, hazard_pairs, hazard_pairs == 1 ? "" : "s");
}

// initcheck: at exit, how many reads of memory never written there were.
__attribute__((destructor)) void report_uninitialized_count() {
  uint64_t count = uninitialized_reads.load();
  if ((__gpusym_checks & kCheckInit) && count)
    warn("initcheck: %" PRIu64 " read%s of device memory never written", count, count == 1 ? "" : "s");
  uint64_t shared = unwritten_shared_reads.load();
  if ((__gpusym_checks & kCheckInit) && shared)
    warn("initcheck: %" PRIu64 " read%s of __shared__ memory never written", shared, shared == 1 ? "" : "s");
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
// base_size) it is of (`dynamic`: an extern array, of the launch's dynamic
// shared memory), reported as an invalid access.
[[noreturn]] static void end_of_shared(uintptr_t address, uint64_t size, bool write, uintptr_t start, uint64_t base_size,
                                       bool dynamic, const char *file, uint32_t line) {
  std::string variable = shared_variable_at(running_kernel(), start);
  if (size_t plus = variable.rfind('+'); plus != std::string::npos) variable.resize(plus);
  if (variable.empty()) variable = "a variable";
  const char *kind = dynamic ? "extern __shared__" : "__shared__", *when = dynamic ? " at launch" : "";
  char described[512];
  if (address >= start + base_size)
    snprintf(described, sizeof described, "%" PRIu64 " bytes past the end of %s %s (%" PRIu64 " bytes%s)",
             static_cast<uint64_t>(address - start - base_size), kind, variable.c_str(), base_size, when);
  else if (address < start)
    snprintf(described, sizeof described, "%" PRIu64 " bytes before %s %s (%" PRIu64 " bytes%s)",
             static_cast<uint64_t>(start - address), kind, variable.c_str(), base_size, when);
  else
    snprintf(described, sizeof described, "%" PRIu64 " bytes into %s %s (%" PRIu64 " bytes%s), past its end",
             static_cast<uint64_t>(address - start), kind, variable.c_str(), base_size, when);
  end_lane_for_access(address, size, write, false, 0, file, line, described);
}

namespace {

// memcheck: invalid frees of device code (report_memcheck_error).
std::atomic<uint64_t> memcheck_errors{0};

__attribute__((destructor)) void report_memcheck_error_count() {
  uint64_t count = memcheck_errors.load();
  if ((__gpusym_checks & kCheckMemory) && count)
    warn("memcheck: %" PRIu64 " invalid free%s in device code (each line reported once)", count, count == 1 ? "" : "s");
}

// The bytes of dynamic shared memory the dispatch `lane` belongs to was
// launched with (its record stays while it runs).
uint64_t dynamic_shared_size(const gpusym_lane *lane) {
  return gpusym_debug.dispatches[(lane->dispatch_id - 1) % GPUSYM_DEBUG_DISPATCH_SLOTS].shared_mem;
}

// memcheck's part of an access outside the range hipMalloc allocates from:
// of a block of device malloc, to the byte; of freed pinned host memory.
void check_host_access(uintptr_t address, uint64_t size, bool write, uint64_t alignment, const char *file,
                       uint32_t line) {
  thread_local Recent recent;  // live blocks, while no block is freed
  uint64_t now = device_heap_frees();
  if (now != recent.releases) recent = Recent{{}, 0, now};
  std::pair<uintptr_t, uintptr_t> found{};
  for (const auto &block : recent.allocations)
    if (address - block.first < block.second - block.first) found = block;
  bool cached = found.first != found.second;
  if (!cached) found = heap_block_at(address);
  auto [start, end] = found;
  if (start != end && (address - start >= end - start || size > end - address)) {
    char described[256];
    if (address < start)
      snprintf(described, sizeof described, "%" PRIu64 " bytes before a %" PRIu64 "-byte block of device malloc at 0x%" PRIxPTR,
               static_cast<uint64_t>(start - address), static_cast<uint64_t>(end - start), start);
    else if (address >= end)
      snprintf(described, sizeof described, "%" PRIu64 " bytes past the end of a %" PRIu64
               "-byte block of device malloc at 0x%" PRIxPTR, static_cast<uint64_t>(address - end),
               static_cast<uint64_t>(end - start), start);
    else
      snprintf(described, sizeof described, "%" PRIu64 " bytes into a %" PRIu64
               "-byte block of device malloc at 0x%" PRIxPTR ", past its end", static_cast<uint64_t>(address - start),
               static_cast<uint64_t>(end - start), start);
    end_lane_for_access(address, size, write, false, alignment, file, line, described);
  }
  if (start != end) {
    if (!cached) recent.allocations[recent.next++ % std::size(recent.allocations)] = found;
    return;
  }
  char described[256];
  if (describe_freed_host_memory(address, described, sizeof described))
    end_lane_for_access(address, size, write, false, alignment, file, line, described);
}

}  // namespace

void gpusym::report_memcheck_error(const char *what, const char *file, unsigned line) {
  memcheck_errors.fetch_add(1, std::memory_order_relaxed);
  {
    std::lock_guard<std::mutex> lock(reported_mutex);
    if (!reported.insert(std::make_tuple(std::string("memcheck"), 0, std::string(file ? file : ""), line)).second)
      return;
  }
  const gpusym_lane *lane = __gpusym_lane;
  char text[sizeof gpusym_check_report - 16];
  std::string at = file ? ", at " + where(file, line) : "";
  snprintf(text, sizeof text, "kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u) thread (%u,%u,%u): %s%s (memcheck)",
           running_kernel().display_name.c_str(), lane->dispatch_id, lane->block_idx.x, lane->block_idx.y,
           lane->block_idx.z, lane->thread_idx.x, lane->thread_idx.y, lane->thread_idx.z, what, at.c_str());
  // Printed as memcheck's reports of invalid accesses are; a debugger reads it as memcheck's.
  std::lock_guard<std::mutex> lock(report_mutex);
  snprintf(gpusym_check_report, sizeof gpusym_check_report, "memcheck: %s", text);
  fprintf(stderr, "gpusym: %s\n", text);
  gpusym_check_reported();
}

// Called after each report of a check that lets the program go on: gdb's
// `set gpusym check` stops here.  Kept out of line.
extern "C" __attribute__((noinline, used)) void gpusym_check_reported(void) { __asm__ volatile("" ::: "memory"); }

// synccheck: a warp function's *_sync form, called at `file`:`line`, whose
// mask names lanes of the wavefront that did not meet at it: lanes that have
// exited or are past the end of the block, wait at a barrier, or wait at
// another warp function.  Each lane that met checks its mask once the
// wavefront has met, while the lanes that did not stay where they were; a
// lane at another warp function is named once its own call has met, with
// that call's line, from the record of this one.
extern "C" void __gpusym_check_mask_at(uint64_t mask, const char *function, const char *file, uint32_t line) {
  const gpusym_lane *lane = __gpusym_lane;
  if (!(__gpusym_checks & kCheckBarriers) || !lane) return;
  BlockRaces &races = races_of(lane);
  if (lane->flat_thread >= races.sync_calls.size()) return;
  uint32_t wave = races.wave, self = lane->flat_thread % wave, base = lane->flat_thread - self;
  if (wave < 64) mask &= (uint64_t{1} << wave) - 1;
  WaveLanes lanes = wave_lanes(lane);
  uint64_t missing = mask & ~lanes.met;
  races.sync_calls[lane->flat_thread] =
      SyncCall{function, file, line, mask, lanes.met, missing & ~lanes.exited & ~lanes.at_barrier};
  // The lanes whose call, at another warp function, waited for this lane:
  // reported from the call of the lowest lane whose mask names the others.
  uint64_t elsewhere = 0;
  for (uint32_t i = 0; i < wave && base + i < races.sync_calls.size(); i++)
    if (races.sync_calls[base + i].waiting_for >> self & 1) elsewhere |= uint64_t{1} << i;
  const gpusym_dim3 &block = lane->block_idx;
  const std::string &kernel = running_kernel().display_name;
  auto once = [&](std::string what, uint32_t first_line, uint32_t second_line) {
    std::lock_guard<std::mutex> lock(reported_mutex);
    return reported.insert(std::make_tuple(what, first_line, kernel, second_line)).second;
  };
  if (elsewhere) {
    uint32_t first = __builtin_ctzll(elsewhere);
    const SyncCall &theirs = races.sync_calls[base + first];
    const SyncCall &mine = races.sync_calls[lane->flat_thread];
    uint32_t lowest = __builtin_ctzll(lanes.met);
    bool mine_first = (mask & elsewhere) && (!(theirs.mask & lanes.met) || lowest < first);
    const SyncCall &subject = mine_first ? mine : theirs, &object = mine_first ? theirs : mine;
    uint64_t named = mine_first ? mask & elsewhere : theirs.waiting_for & lanes.met;
    uint32_t thread = base + (mine_first ? lowest : first);
    if (once(std::string(subject.function) + "\n" + object.function, subject.line, object.line))
      report_found("synccheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u): thread %s calls %s at %s with "
                   "mask 0x%" PRIx64 " naming lanes %s of its %s, which wait at %s at %s",
                   kernel.c_str(), lane->dispatch_id, block.x, block.y, block.z, thread_of(lane, thread).c_str(),
                   subject.function, where(subject.file, subject.line).c_str(), subject.mask, lane_ranges(named).c_str(),
                   wave_word(wave), object.function, where(object.file, object.line).c_str());
    missing &= ~elsewhere;
  }
  if (uint64_t waiting = missing & lanes.at_barrier) {
    // The barrier the lowest of them waits at, its count of barriers passed being past it.
    uint32_t passed = races.epochs[base + __builtin_ctzll(waiting)];
    const Barrier *barrier = passed && passed <= races.barriers.size() ? &races.barriers[passed - 1] : nullptr;
    if (once(std::string(function) + "\nbarrier", line, barrier ? barrier->line : 0))
      report_found("synccheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u): thread %s calls %s at %s with "
                   "mask 0x%" PRIx64 " naming lanes %s of its %s, which wait at the barrier at %s",
                   kernel.c_str(), lane->dispatch_id, block.x, block.y, block.z,
                   thread_of(lane, lane->flat_thread).c_str(), function, where(file, line).c_str(), mask,
                   lane_ranges(waiting).c_str(), wave_word(wave),
                   barrier ? where(barrier->file, barrier->line).c_str() : "an unknown line");
  }
  if (uint64_t exited = missing & lanes.exited; exited && once(function, 0, uint32_t{2} << 30))
    report_found("synccheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u): thread %s calls %s at %s with mask "
                 "0x%" PRIx64 " naming lanes of its %s that have exited or are not in the block (lanes %s)",
                 kernel.c_str(), lane->dispatch_id, block.x, block.y, block.z,
                 thread_of(lane, lane->flat_thread).c_str(), function, where(file, line).c_str(), mask,
                 wave_word(wave), lane_ranges(exited).c_str());
}

// The same, from code whose calls do not tell their line.
extern "C" void __gpusym_check_mask(uint64_t mask, const char *function) {
  __gpusym_check_mask_at(mask, function, nullptr, 0);
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
    else if (passed < races.barriers.size() && races.barriers[passed].site != site) {
      races.diverged = true;
      report_divergence(lane, races.barriers[passed], file, line);
    }
  }
  passed++;
}

// base, base_size: the __shared__ variable the access is of, when the
// compiler knows it (memcheck's bounds), else null, 0; base_size
// kDynamicShared: an extern array, the launch's dynamic shared memory.
// flags: as __gpusym_check_access's, and bit 1 an atomic.
constexpr uint64_t kDynamicShared = UINT64_MAX, kAtomic = 2;  // as access_checks.cpp passes them
extern "C" __attribute__((preserve_all)) void __gpusym_check_shared(const void *pointer, uint64_t size, uint64_t flags,
                                                                    const char *file, uint32_t line, const void *base,
                                                                    uint64_t base_size) {
  uintptr_t start = reinterpret_cast<uintptr_t>(base), offset = reinterpret_cast<uintptr_t>(pointer) - start;
  if ((__gpusym_checks & kCheckMemory) && base_size && __gpusym_lane) {
    bool dynamic = base_size == kDynamicShared;
    uint64_t bytes = dynamic ? dynamic_shared_size(__gpusym_lane) : base_size;
    if (offset > bytes || size > bytes - offset)
      end_of_shared(reinterpret_cast<uintptr_t>(pointer), size, flags & 1, start, bytes, dynamic, file, line);
  }
  if ((__gpusym_checks & kCheckInit) && __gpusym_lane)
    check_shared_initialized(__gpusym_lane, reinterpret_cast<uintptr_t>(pointer), size, flags & 1, file, line);
  if (flags & kAtomic) return;  // atomics never race
  const gpusym_lane *lane = __gpusym_lane;
  if (!(__gpusym_checks & kCheckRaces) || !lane) return;
  BlockRaces &races = races_of(lane);
  uint32_t self = lane->flat_thread;
  if (self >= races.epochs.size()) return;
  uint32_t epoch = races.epochs[self];
  uint32_t syncs = static_cast<uint32_t>(races.warp_syncs[self / races.wave].size());
  bool write = flags & 1;
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  // Whether `side`'s access and this one are unordered.
  auto races_with = [&](const Side &side) {
    return side.lane != UINT32_MAX && side.lane != self && side.epoch == epoch && !warp_synced(races, side, self);
  };
  bool reported_one = false;
  for (uint64_t i = 0; i < size; i++) {
    SharedByte &byte = races.bytes[address + i];
    if (!reported_one) {
      if (races_with(byte.write)) {
        report_hazard(lane, address, size, write, byte.write, true, file, line);
        reported_one = true;
      } else if (write && races_with(byte.read)) {
        report_hazard(lane, address, size, write, byte.read, false, file, line);
        reported_one = true;
      }
    }
    (write ? byte.write : byte.read) = Side{self, epoch, file, line, syncs};
  }
}

void gpusym::note_warp_sync(const gpusym_lane *first, uint64_t met) {
  BlockRaces &races = races_of(first);
  if (size_t wave = first->flat_thread / races.wave; wave < races.warp_syncs.size())
    races.warp_syncs[wave].push_back(met);
}

void gpusym::check_barriers_passed(const gpusym_lane *lane) {
  BlockRaces &races = block_races;
  if (races.dispatch != lane->dispatch_id || races.block.x != lane->block_idx.x ||
      races.block.y != lane->block_idx.y || races.block.z != lane->block_idx.z || races.diverged)
    return;  // no lane passed a barrier, or the first divergence is reported
  auto [fewest, most] = std::minmax_element(races.epochs.begin(), races.epochs.end());
  if (fewest == races.epochs.end() || *fewest == *most) return;
  // The first barrier some lanes waited at while the others ran to their end.
  uint32_t first = *fewest;
  const Barrier &barrier = races.barriers[first];
  const std::string &kernel = running_kernel().display_name;
  {
    std::lock_guard<std::mutex> lock(reported_mutex);
    if (!reported.insert(std::make_tuple(kernel, uint32_t{3} << 30, std::string(barrier.file ? barrier.file : ""),
                                         barrier.line)).second)
      return;
  }
  auto count = static_cast<uint32_t>(races.epochs.size());
  std::string waited = thread_ranges(lane, count, [&](uint32_t i) { return races.epochs[i] > first; });
  std::string left = thread_ranges(lane, count, [&](uint32_t i) { return races.epochs[i] == first; });
  auto times = std::count_if(races.barriers.begin(), races.barriers.begin() + first + 1,
                             [&](const Barrier &other) { return other.site == barrier.site; });
  std::string nth = times > 1 ? " for the " + ordinal(times) + " time" : "";
  std::string after =
      first ? " after the barrier at " + where(races.barriers[first - 1].file, races.barriers[first - 1].line) : "";
  const gpusym_dim3 &block = lane->block_idx;
  report_found("synccheck: kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u): %s waited at the barrier at %s%s "
               "while %s ran to the end of the kernel%s without reaching it: __syncthreads in divergent code",
               kernel.c_str(), lane->dispatch_id, block.x, block.y, block.z, waited.c_str(),
               where(barrier.file, barrier.line).c_str(), nth.c_str(), left.c_str(), after.c_str());
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
  // The range hipMalloc allocates from (reserved once), to the byte; outside
  // it, device malloc's blocks and freed pinned host memory.
  uintptr_t range = gpusym_debug.device_memory_base;
  if (range == 0 || address - range >= gpusym_debug.device_memory_size)
    return check_host_access(address, size, write, alignment, file, line);
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
