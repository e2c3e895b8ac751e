// malloc() and free() in device code: each device has a heap of
// hipLimitMallocHeapSize bytes (8 MiB unless the program sets it), shared by
// its kernels.  An allocation outlives the kernel that made it, until device
// code frees it; when a request does not fit in what is left, malloc returns
// null, as HIP's does.  Blocks come from the host's allocator (16-byte
// aligned); the heap counts the bytes in use.
//
// A free of what is not a live block is ignored with a warning, which says
// whether it was a block freed already (the last kFreedRemembered are
// remembered).  With memcheck on, it is memcheck's report instead, at the
// free's line (device code calls __gpusym_check_free before each free), and
// each block has kRedzone bytes on either side, which memcheck finds an
// access of (heap_block_at) to the byte.
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <map>
#include <optional>

#include "internal.h"

extern "C" __thread __attribute__((tls_model("initial-exec"))) gpusym_lane *__gpusym_lane;

namespace gpusym {

namespace {

constexpr size_t kRedzone = 32;            // memcheck: bytes before and after each block (16-byte aligned)
constexpr size_t kFreedRemembered = 4096;  // freed blocks a free can still name

// The lane that made or freed a block (memcheck); dispatch 0: unknown.
struct Lane {
  uint64_t dispatch = 0;
  gpusym_dim3 block{}, thread{};
  const char *file = nullptr;  // a free's line, when device code told it
  uint32_t line = 0;
};

struct Block {
  size_t size;
  int device;
  Lane made, freed;
};

struct Heaps {
  std::mutex mutex;
  std::map<uintptr_t, Block> blocks;  // live, by address
  std::map<uintptr_t, Block> freed;   // the last kFreedRemembered freed
  std::deque<uintptr_t> freed_order;  // oldest first
  std::vector<size_t> in_use = std::vector<size_t>(device_count());
  std::atomic<size_t> live{0};        // memcheck: blocks in `blocks`
  std::atomic<uint64_t> frees{0};     // memcheck: blocks freed so far
};

Heaps &heaps() {
  static auto *instance = new Heaps;  // never destroyed: kernels may run until exit
  return *instance;
}

size_t redzone() { return __gpusym_checks & kCheckMemory ? kRedzone : 0; }

// The free device code is about to make, and its line (__gpusym_check_free).
struct FreeSite {
  const void *pointer;
  const char *file;
  uint32_t line;
};
thread_local FreeSite free_site;

Lane running_lane(const char *file = nullptr, uint32_t line = 0) {
  const gpusym_lane *lane = __gpusym_lane;
  if (!lane) return {};
  return {lane->dispatch_id, lane->block_idx, lane->thread_idx, file, line};
}

std::string lane_text(const Lane &lane) {
  char text[96];
  snprintf(text, sizeof text, "dispatch %" PRIu64 " block (%u,%u,%u) thread (%u,%u,%u)", lane.dispatch, lane.block.x,
           lane.block.y, lane.block.z, lane.thread.x, lane.thread.y, lane.thread.z);
  return text;
}

// memcheck's report of a free of what is no live block: `freed` the block
// it was, when remembered.
void report_invalid_free(uintptr_t pointer, const Block *freed, const FreeSite &site) {
  char text[1024];
  if (freed) {
    std::string made = freed->made.dispatch ? " made by " + lane_text(freed->made) : "";
    std::string by = freed->freed.dispatch ? lane_text(freed->freed) : "";
    if (!by.empty()) by = made == " made by " + by ? " and freed by it" : " and freed by " + by;
    if (!by.empty() && freed->freed.file) by += " at " + std::string(freed->freed.file) + ":" + std::to_string(freed->freed.line);
    snprintf(text, sizeof text, "double free of 0x%" PRIxPTR ": a %zu-byte block of device malloc%s%s; ignored", pointer,
             freed->size, made.c_str(), by.c_str());
  } else {
    char described[512];
    gpusym_debug_fault unused{};
    {
      std::lock_guard<std::mutex> lock(device_memory_mutex());
      describe_address(pointer, unused, described, sizeof described);
    }
    snprintf(text, sizeof text, "invalid free of 0x%" PRIxPTR ": %s, not a block of device malloc; ignored", pointer,
             described);
  }
  report_memcheck_error(text, site.pointer == reinterpret_cast<void *>(pointer) ? site.file : nullptr, site.line);
}

}  // namespace

std::pair<uintptr_t, uintptr_t> heap_block_at(uintptr_t address) {
  Heaps &h = heaps();
  if (h.live.load(std::memory_order_relaxed) == 0) return {0, 0};
  std::lock_guard<std::mutex> lock(h.mutex);
  auto after = h.blocks.upper_bound(address);
  if (after != h.blocks.begin()) {
    const auto &[start, block] = *std::prev(after);
    if (address - start < block.size + kRedzone) return {start, start + block.size};
  }
  if (after != h.blocks.end() && after->first - address <= kRedzone) return {after->first, after->first + after->second.size};
  return {0, 0};
}

uint64_t device_heap_frees() { return heaps().frees.load(std::memory_order_acquire); }

}  // namespace gpusym

extern "C" {

void *__gpusym_device_malloc(size_t size) {
  using namespace gpusym;
  int device = running_device();
  size_t limit = malloc_heap_size(device);
  Heaps &h = heaps();
  size_t pad = redzone();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (size == 0 || size > limit - h.in_use[device]) return nullptr;
  auto *raw = static_cast<char *>(std::malloc(size + 2 * pad));
  if (!raw) return nullptr;
  void *block = raw + pad;
  h.blocks.emplace(reinterpret_cast<uintptr_t>(block), Block{size, device, pad ? running_lane() : Lane{}, {}});
  h.in_use[device] += size;
  if (pad) h.live.fetch_add(1, std::memory_order_relaxed);
  return block;
}

// memcheck: the free device code is about to make is at file:line.
void __gpusym_check_free(void *pointer, const char *file, uint32_t line) {
  gpusym::free_site = {pointer, file, line};
}

void __gpusym_device_free(void *pointer) {
  using namespace gpusym;
  if (!pointer) return;
  uintptr_t address = reinterpret_cast<uintptr_t>(pointer);
  Heaps &h = heaps();
  size_t pad = redzone();
  std::unique_lock<std::mutex> lock(h.mutex);
  auto found = h.blocks.find(address);
  if (found == h.blocks.end()) {
    auto freed = h.freed.find(address);
    std::optional<Block> block;
    if (freed != h.freed.end()) block = freed->second;
    lock.unlock();
    if (pad)
      report_invalid_free(address, block ? &*block : nullptr, free_site);
    else
      warn("free(%p) in kernel %s: %s; ignored", pointer, running_kernel().display_name.c_str(),
           block ? "a block of device malloc already freed" : "not an allocation of device malloc");
    return;
  }
  h.in_use[found->second.device] -= found->second.size;
  if (pad) {
    const FreeSite &site = free_site;
    found->second.freed = site.pointer == pointer ? running_lane(site.file, site.line) : running_lane();
    h.live.fetch_sub(1, std::memory_order_relaxed);
    h.frees.fetch_add(1, std::memory_order_release);
  }
  h.freed.erase(address);  // a block freed before at this address: remembered no more
  h.freed.insert(h.blocks.extract(found));
  h.freed_order.push_back(address);
  if (h.freed_order.size() > kFreedRemembered) {
    h.freed.erase(h.freed_order.front());
    h.freed_order.pop_front();
  }
  lock.unlock();
  std::free(static_cast<char *>(pointer) - pad);
}

}  // extern "C"
