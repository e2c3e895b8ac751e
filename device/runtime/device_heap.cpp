// malloc() and free() in device code: each device has a heap of
// hipLimitMallocHeapSize bytes (8 MiB unless the program sets it), shared by
// its kernels.  An allocation outlives the kernel that made it, until device
// code frees it; when a request does not fit in what is left, malloc returns
// null, as HIP's does.  Blocks come from the host's allocator (16-byte
// aligned); the heap counts the bytes in use.
#include <cstdlib>
#include <map>

#include "internal.h"

namespace gpusym {

namespace {

struct Block {
  size_t size;
  int device;
};

struct Heaps {
  std::mutex mutex;
  std::map<void *, Block> blocks;
  std::vector<size_t> in_use = std::vector<size_t>(device_count());
};

Heaps &heaps() {
  static auto *instance = new Heaps;  // never destroyed: kernels may run until exit
  return *instance;
}

}  // namespace

}  // namespace gpusym

extern "C" {

void *__gpusym_device_malloc(size_t size) {
  using namespace gpusym;
  int device = running_device();
  size_t limit = malloc_heap_size(device);
  Heaps &h = heaps();
  std::lock_guard<std::mutex> lock(h.mutex);
  if (size == 0 || size > limit - h.in_use[device]) return nullptr;
  void *block = std::malloc(size);
  if (!block) return nullptr;
  h.blocks.emplace(block, Block{size, device});
  h.in_use[device] += size;
  return block;
}

void __gpusym_device_free(void *pointer) {
  using namespace gpusym;
  if (!pointer) return;
  Heaps &h = heaps();
  std::unique_lock<std::mutex> lock(h.mutex);
  auto found = h.blocks.find(pointer);
  if (found == h.blocks.end()) {
    lock.unlock();
    warn("free(%p) in kernel %s: not an allocation of device malloc; ignored", pointer,
         running_kernel().display_name.c_str());
    return;
  }
  h.in_use[found->second.device] -= found->second.size;
  h.blocks.erase(found);
  lock.unlock();
  std::free(pointer);
}

}  // extern "C"
