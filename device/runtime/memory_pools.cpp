// Stream-ordered allocation: memory pools (hipMemPool*), hipMallocAsync,
// hipMallocFromPoolAsync and hipFreeAsync.
//
// A pool holds blocks, spans of the range hipMalloc allocates from
// (memory.cpp), each the pages of one allocation and a guard page after
// them.  An allocation takes the smallest free block it fits in, or a new
// one, and ends flush against its guard page, as hipMalloc's do; its pages
// are fresh.  hipFreeAsync frees it once the work queued before it on its
// stream is done (an operation of the stream): its pages become
// inaccessible, so that a use after the free faults, and its block free.  A
// free block is taken again by allocations on any stream, its free being
// complete, or with hipMemPoolReuseAllowOpportunistic off only on the
// stream that freed it; the other reuse attributes are kept and change
// nothing, as completed frees need no dependency.  A pool's reserved memory
// is its blocks' pages, its used memory the bytes of its live allocations.
// At a stream's, an event's or a device's synchronisation each pool gives
// back its free blocks while it reserves more than its release threshold
// (0 by default: all of them); hipMemPoolTrimTo gives them back down to a
// size.  Each device has a default pool, its current one until
// hipDeviceSetMemPool names another.  Access descriptors are kept: every
// device reads every pool, all of it host memory.  While a stream captures,
// its allocations and frees are a graph's nodes (graph_memory.cpp).
#include <algorithm>
#include <cstddef>
#include <map>
#include <mutex>
#include <unordered_set>
#include <vector>

#include "cuda_runtime_api.h"
#include "internal.h"

using namespace gpusym;

namespace {

constexpr size_t kAlignment = 256;  // as hipMalloc's

struct Block {
  uintptr_t span;
  size_t pages;          // bytes of its pages, before its guard page
  hipStream_t freed_on;  // the stream of its last free, null for hipFree's
};

struct Live {
  Block block;
  size_t size;
  bool freeing;  // its hipFreeAsync is queued
};

}  // namespace

struct ihipMemPoolHandle_t {
  int device;
  hipMemPoolProps props;
  bool destroyed = false;  // by hipMemPoolDestroy: deleted once its last allocation is freed
  uint64_t threshold = 0;
  int reuse[3] = {1, 1, 1};  // hipMemPoolReuse{FollowEventDependencies,AllowOpportunistic,AllowInternalDependencies}
  uint64_t reserved = 0, reserved_high = 0, used = 0, used_high = 0;
  std::vector<Block> free_blocks;
  std::map<uintptr_t, Live> live;         // by base
  std::vector<hipMemAccessFlags> access;  // by device
};

namespace {

struct Pools {
  std::mutex mutex;
  std::vector<hipMemPool_t> defaults, current;  // by device
  std::unordered_set<hipMemPool_t> live;        // the pools the program may name
  std::map<uintptr_t, hipMemPool_t> owners;     // each live allocation's pool, by base
};

bool valid_location(const hipMemLocation &location) {
  return location.type == hipMemLocationTypeDevice && valid_device(location.id);
}

hipMemPool_t new_pool(Pools &p, const hipMemPoolProps &props) {
  auto *pool = new ihipMemPoolHandle_t{};
  pool->device = props.location.id;
  pool->props = props;
  pool->access.assign(device_count(), hipMemAccessFlagsProtNone);
  pool->access[pool->device] = hipMemAccessFlagsProtReadWrite;
  p.live.insert(pool);
  return pool;
}

Pools &pools() {
  static Pools *instance = [] {
    auto *p = new Pools;  // never destroyed: workers may free until exit
    for (int device = 0; device < device_count(); device++) {
      hipMemPoolProps props{};
      props.allocType = hipMemAllocationTypePinned;
      props.location = {hipMemLocationTypeDevice, device};
      p->defaults.push_back(new_pool(*p, props));
    }
    p->current = p->defaults;
    return p;
  }();
  return *instance;
}

size_t round_up(size_t value, size_t to) { return (value + to - 1) / to * to; }

// With the lock held: gives back free blocks while the pool reserves more than `keep`.
void trim(hipMemPool_t pool, uint64_t keep) {
  while (pool->reserved > keep && !pool->free_blocks.empty()) {
    const Block &block = pool->free_blocks.back();
    give_back_span(block.span, block.pages + device_page());
    pool->reserved -= block.pages;
    pool->free_blocks.pop_back();
  }
}

// With the lock held: an allocation of `size` bytes from `pool` for work on
// `stream`; null when the pool or the device range has no room.
void *allocate_from(Pools &p, hipMemPool_t pool, size_t size, hipStream_t stream) {
  size_t page = device_page(), rounded = round_up(size + allocation_padding(), kAlignment);
  size_t pages = round_up(rounded, page);
  bool anywhere = pool->reuse[hipMemPoolReuseAllowOpportunistic - 1];
  auto best = pool->free_blocks.end();
  for (auto it = pool->free_blocks.begin(); it != pool->free_blocks.end(); ++it)
    if (it->pages >= pages && (anywhere || !it->freed_on || it->freed_on == stream) &&
        (best == pool->free_blocks.end() || it->pages < best->pages))
      best = it;
  Block block;
  if (best != pool->free_blocks.end()) {
    block = *best;
    block.freed_on = nullptr;
    pool->free_blocks.erase(best);
  } else {
    if (pool->props.maxSize && pool->reserved + pages > pool->props.maxSize) return nullptr;
    block = {take_span(pages + page, page), pages, nullptr};
    if (!block.span) return nullptr;
    pool->reserved += pages;
    pool->reserved_high = std::max(pool->reserved_high, pool->reserved);
  }
  if (!map_fresh_pages(block.span, block.pages)) {
    pool->free_blocks.push_back(block);
    return nullptr;
  }
  uintptr_t base = block.span + block.pages - rounded;
  auto made_by = in_cuda_call() ? GPUSYM_MADE_BY_CUDA_MALLOC_ASYNC : GPUSYM_MADE_BY_HIP_MALLOC_ASYNC;
  place_allocation(base, size, pool->device, Placement::kPool, made_by, false);
  pool->live[base] = {block, size, false};
  pool->used += size;
  pool->used_high = std::max(pool->used_high, pool->used);
  p.owners[base] = pool;
  return reinterpret_cast<void *>(base);
}

// With the lock held: the allocation at `base` is freed (by a free, or by
// hipDeviceReset): its pages inaccessible, its block free, or given back by
// a destroyed pool.
void finish_free(Pools &p, uintptr_t base, gpusym_allocation_freed_by by = GPUSYM_FREED_BY_FREE) {
  auto owner = p.owners.find(base);
  if (owner == p.owners.end()) return;  // freed by hipDeviceReset meanwhile
  hipMemPool_t pool = owner->second;
  auto live = pool->live.find(base);
  Block block = live->second.block;
  remove_allocation(base, by);
  map_inaccessible_pages(block.span, block.pages);
  pool->used -= live->second.size;
  pool->free_blocks.push_back(block);
  pool->live.erase(live);
  p.owners.erase(owner);
  if (!pool->destroyed) return;
  trim(pool, 0);
  if (pool->live.empty()) delete pool;
}

// hipFreeAsync's operation in its stream (`data` is the allocation).
void free_in_stream(void *data) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  finish_free(p, reinterpret_cast<uintptr_t>(data));
}

// With the lock held: the pool the handle names, or null.
hipMemPool_t find_pool(Pools &p, hipMemPool_t handle) { return p.live.count(handle) ? handle : nullptr; }

hipError_t malloc_from_pool(void **ptr, size_t size, hipMemPool_t handle, hipStream_t stream) {
  if (!ptr) return hipErrorInvalidValue;
  *ptr = nullptr;
  Pools &p = pools();
  hipMemPoolProps props;
  {
    std::lock_guard<std::mutex> lock(p.mutex);
    hipMemPool_t pool = find_pool(p, handle);
    if (!pool) return hipErrorInvalidValue;
    props = pool->props;
  }
  int device;
  if (hipError_t error = hipStreamGetDevice(stream, &device)) return error;
  if (size == 0) return hipSuccess;
  hipError_t error;
  if (capture_allocation(ptr, size, props, stream, error)) return error;
  std::lock_guard<std::mutex> lock(p.mutex);
  hipMemPool_t pool = find_pool(p, handle);
  if (!pool) return hipErrorInvalidValue;
  *ptr = allocate_from(p, pool, size, stream);
  return *ptr ? hipSuccess : hipErrorOutOfMemory;
}

// The attributes' values: the reuse flags are ints, the rest 64-bit.
hipError_t get_attribute(hipMemPool_t pool, hipMemPoolAttr attr, void *value) {
  switch (attr) {
    case hipMemPoolReuseFollowEventDependencies:
    case hipMemPoolReuseAllowOpportunistic:
    case hipMemPoolReuseAllowInternalDependencies: *static_cast<int *>(value) = pool->reuse[attr - 1]; break;
    case hipMemPoolAttrReleaseThreshold: *static_cast<uint64_t *>(value) = pool->threshold; break;
    case hipMemPoolAttrReservedMemCurrent: *static_cast<uint64_t *>(value) = pool->reserved; break;
    case hipMemPoolAttrReservedMemHigh: *static_cast<uint64_t *>(value) = pool->reserved_high; break;
    case hipMemPoolAttrUsedMemCurrent: *static_cast<uint64_t *>(value) = pool->used; break;
    case hipMemPoolAttrUsedMemHigh: *static_cast<uint64_t *>(value) = pool->used_high; break;
    default: return hipErrorInvalidValue;
  }
  return hipSuccess;
}

// The reuse flags and the threshold are set; the high watermarks only reset,
// by 0, to what is reserved or used now.
hipError_t set_attribute(hipMemPool_t pool, hipMemPoolAttr attr, void *value) {
  switch (attr) {
    case hipMemPoolReuseFollowEventDependencies:
    case hipMemPoolReuseAllowOpportunistic:
    case hipMemPoolReuseAllowInternalDependencies:
      pool->reuse[attr - 1] = *static_cast<int *>(value) != 0;
      return hipSuccess;
    case hipMemPoolAttrReleaseThreshold: pool->threshold = *static_cast<uint64_t *>(value); return hipSuccess;
    case hipMemPoolAttrReservedMemHigh:
    case hipMemPoolAttrUsedMemHigh: break;
    default: return hipErrorInvalidValue;
  }
  if (*static_cast<uint64_t *>(value) != 0) return hipErrorInvalidValue;
  if (attr == hipMemPoolAttrReservedMemHigh)
    pool->reserved_high = pool->reserved;
  else
    pool->used_high = pool->used;
  return hipSuccess;
}

}  // namespace

hipError_t gpusym::free_pool_allocation(void *pointer, hipStream_t stream, bool async) {
  uintptr_t base = reinterpret_cast<uintptr_t>(pointer);
  Pools &p = pools();
  std::unique_lock<std::mutex> lock(p.mutex);
  auto owner = p.owners.find(base);
  if (owner == p.owners.end()) return hipErrorInvalidValue;
  Live &live = owner->second->live[base];
  if (live.freeing) return hipErrorInvalidValue;  // freed already, in a stream
  if (!async) {
    finish_free(p, base);
    return hipSuccess;
  }
  live.freeing = true;
  live.block.freed_on = stream;
  lock.unlock();
  auto *op = new Op(Op::kHost);
  op->host_fn = free_in_stream;
  op->user_data = pointer;
  hipError_t error = queue_operation(op, stream);
  if (error) {
    lock.lock();
    if (auto again = p.owners.find(base); again != p.owners.end()) again->second->live[base].freeing = false;
  }
  return error;
}

void gpusym::release_pool_memory() {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  for (hipMemPool_t pool : p.live) trim(pool, pool->threshold);
}

void gpusym::reset_device_pools(int device) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  std::vector<uintptr_t> bases;  // first: freeing one may delete its pool
  for (const auto &[base, pool] : p.owners)
    if (pool->device == device) bases.push_back(base);
  for (uintptr_t base : bases) finish_free(p, base, GPUSYM_FREED_BY_RESET);
  for (hipMemPool_t pool : p.live)
    if (pool->device == device) trim(pool, 0);
}

extern "C" {

hipError_t hipMallocFromPoolAsync(void **ptr, size_t size, hipMemPool_t pool, hipStream_t stream) {
  ApiCall named(__func__);
  return record(malloc_from_pool(ptr, size, pool, stream));
}

// From the current pool of the stream's device.
hipError_t hipMallocAsync(void **ptr, size_t size, hipStream_t stream) {
  ApiCall named(__func__);
  int device;
  if (hipError_t error = hipStreamGetDevice(stream, &device)) return error;
  hipMemPool_t pool;
  {
    Pools &p = pools();
    std::lock_guard<std::mutex> lock(p.mutex);
    pool = p.current[device];
  }
  return record(malloc_from_pool(ptr, size, pool, stream));
}

// A pool's or a graph's allocation (its node's run perhaps still queued) is
// freed in the stream's order; a hipMalloc allocation once the work queued before it on the stream is
// done, which the call waits for.
hipError_t hipFreeAsync(void *ptr, hipStream_t stream) {
  ApiCall named(__func__);
  if (!ptr) return hipSuccess;
  hipError_t error;
  if (capture_free(ptr, stream, error)) return record(error);
  Placement placement;
  if (!live_placement(ptr, placement)) return record(free_graph_allocation(ptr, stream, true));
  switch (placement) {
    case Placement::kPool: return record(free_pool_allocation(ptr, stream, true));
    case Placement::kGraph: return record(free_graph_allocation(ptr, stream, true));
    case Placement::kMapping: return record(hipErrorInvalidValue);
    case Placement::kMalloc: break;
  }
  if ((error = synchronize_stream(stream))) return record(error);
  return hipFree(ptr);
}

namespace {

// `device`'s pool of `which` (its default or its current one) into *mem_pool.
hipError_t device_pool(hipMemPool_t *mem_pool, int device, std::vector<hipMemPool_t> Pools::*which) {
  if (!mem_pool) return record(hipErrorInvalidValue);
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  *mem_pool = (p.*which)[device];
  return hipSuccess;
}

}  // namespace

hipError_t hipDeviceGetDefaultMemPool(hipMemPool_t *mem_pool, int device) {
  return device_pool(mem_pool, device, &Pools::defaults);
}

hipError_t hipDeviceGetMemPool(hipMemPool_t *mem_pool, int device) {
  return device_pool(mem_pool, device, &Pools::current);
}

// The device's current pool: one of its own.
hipError_t hipDeviceSetMemPool(int device, hipMemPool_t mem_pool) {
  if (!valid_device(device)) return record(hipErrorInvalidDevice);
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  hipMemPool_t pool = find_pool(p, mem_pool);
  if (!pool || pool->device != device) return record(hipErrorInvalidValue);
  p.current[device] = pool;
  return hipSuccess;
}

// Pinned memory of a device, shareable with no other process (a POSIX file
// descriptor may be asked for; exporting then answers hipErrorNotSupported).
hipError_t hipMemPoolCreate(hipMemPool_t *mem_pool, const hipMemPoolProps *props) {
  if (!mem_pool || !props || props->allocType != hipMemAllocationTypePinned || !valid_location(props->location) ||
      (props->handleTypes & ~hipMemHandleTypePosixFileDescriptor))
    return record(hipErrorInvalidValue);
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  *mem_pool = new_pool(p, *props);
  return hipSuccess;
}

// A default pool stays.  A device whose current pool it was goes back to
// its default pool; its live allocations stay valid until freed.
hipError_t hipMemPoolDestroy(hipMemPool_t mem_pool) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  hipMemPool_t pool = find_pool(p, mem_pool);
  if (!pool || p.defaults[pool->device] == pool) return record(hipErrorInvalidValue);
  if (p.current[pool->device] == pool) p.current[pool->device] = p.defaults[pool->device];
  p.live.erase(pool);
  pool->destroyed = true;
  trim(pool, 0);
  if (pool->live.empty()) delete pool;
  return hipSuccess;
}

hipError_t hipMemPoolSetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  hipMemPool_t pool = find_pool(p, mem_pool);
  if (!pool || !value) return record(hipErrorInvalidValue);
  return record(set_attribute(pool, attr, value));
}

hipError_t hipMemPoolGetAttribute(hipMemPool_t mem_pool, hipMemPoolAttr attr, void *value) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  hipMemPool_t pool = find_pool(p, mem_pool);
  if (!pool || !value) return record(hipErrorInvalidValue);
  return record(get_attribute(pool, attr, value));
}

// The pool's own device keeps read and write access.
hipError_t hipMemPoolSetAccess(hipMemPool_t mem_pool, const hipMemAccessDesc *desc_list, size_t count) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  hipMemPool_t pool = find_pool(p, mem_pool);
  if (!pool || (count && !desc_list)) return record(hipErrorInvalidValue);
  for (size_t i = 0; i < count; i++) {
    const hipMemAccessDesc &desc = desc_list[i];
    if (!valid_location(desc.location)) return record(hipErrorInvalidDevice);
    if (desc.flags != hipMemAccessFlagsProtNone && desc.flags != hipMemAccessFlagsProtRead &&
        desc.flags != hipMemAccessFlagsProtReadWrite)
      return record(hipErrorInvalidValue);
    if (desc.location.id == pool->device && desc.flags != hipMemAccessFlagsProtReadWrite)
      return record(hipErrorInvalidDevice);
  }
  for (size_t i = 0; i < count; i++) pool->access[desc_list[i].location.id] = desc_list[i].flags;
  return hipSuccess;
}

hipError_t hipMemPoolGetAccess(hipMemAccessFlags *flags, hipMemPool_t mem_pool, hipMemLocation *location) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  hipMemPool_t pool = find_pool(p, mem_pool);
  if (!flags || !pool || !location) return record(hipErrorInvalidValue);
  if (!valid_location(*location)) return record(hipErrorInvalidDevice);
  *flags = pool->access[location->id];
  return hipSuccess;
}

hipError_t hipMemPoolTrimTo(hipMemPool_t mem_pool, size_t min_bytes_to_hold) {
  Pools &p = pools();
  std::lock_guard<std::mutex> lock(p.mutex);
  hipMemPool_t pool = find_pool(p, mem_pool);
  if (!pool) return record(hipErrorInvalidValue);
  trim(pool, min_bytes_to_hold);
  return hipSuccess;
}

}  // extern "C"

// ---- CUDA's names, over HIP's: its records have HIP's layouts ----

static_assert(sizeof(cudaMemPoolProps) == sizeof(hipMemPoolProps) &&
                  offsetof(cudaMemPoolProps, maxSize) == offsetof(hipMemPoolProps, maxSize) &&
                  sizeof(cudaMemAccessDesc) == sizeof(hipMemAccessDesc) &&
                  int(cudaMemPoolAttrUsedMemHigh) == int(hipMemPoolAttrUsedMemHigh),
              "CUDA's memory pool records are HIP's");

namespace {

template <typename Call>
cudaError_t as_cuda(const char *name, Call hip_call) {
  ApiCall named(name);
  return static_cast<cudaError_t>(unless_failed(name, hip_call));
}

}  // namespace

#define GPUSYM_AS_CUDA(expression) as_cuda(__func__, [&] { return expression; })

extern "C" {

cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
  return GPUSYM_AS_CUDA(hipMallocFromPoolAsync(ptr, size, memPool, stream));
}

cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device) {
  return GPUSYM_AS_CUDA(hipDeviceGetDefaultMemPool(memPool, device));
}

cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device) {
  return GPUSYM_AS_CUDA(hipDeviceGetMemPool(memPool, device));
}

cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool) {
  return GPUSYM_AS_CUDA(hipDeviceSetMemPool(device, memPool));
}

cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool, const cudaMemPoolProps *poolProps) {
  return GPUSYM_AS_CUDA(hipMemPoolCreate(memPool, reinterpret_cast<const hipMemPoolProps *>(poolProps)));
}

cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool) { return GPUSYM_AS_CUDA(hipMemPoolDestroy(memPool)); }

cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void *value) {
  return GPUSYM_AS_CUDA(hipMemPoolSetAttribute(memPool, static_cast<hipMemPoolAttr>(attr), value));
}

cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, cudaMemPoolAttr attr, void *value) {
  return GPUSYM_AS_CUDA(hipMemPoolGetAttribute(memPool, static_cast<hipMemPoolAttr>(attr), value));
}

cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool, const cudaMemAccessDesc *descList, size_t count) {
  return GPUSYM_AS_CUDA(hipMemPoolSetAccess(memPool, reinterpret_cast<const hipMemAccessDesc *>(descList), count));
}

cudaError_t cudaMemPoolGetAccess(cudaMemAccessFlags *flags, cudaMemPool_t memPool, cudaMemLocation *location) {
  return GPUSYM_AS_CUDA(hipMemPoolGetAccess(reinterpret_cast<hipMemAccessFlags *>(flags), memPool,
                                            reinterpret_cast<hipMemLocation *>(location)));
}

cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep) {
  return GPUSYM_AS_CUDA(hipMemPoolTrimTo(memPool, minBytesToKeep));
}

// Sharing pools with other processes: cudaErrorNotSupported (unsupported.cpp).
cudaError_t cudaMemPoolExportToShareableHandle(void *shareableHandle, cudaMemPool_t memPool,
                                               cudaMemAllocationHandleType handleType, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipMemPoolExportToShareableHandle(
      shareableHandle, memPool, static_cast<hipMemAllocationHandleType>(handleType), flags));
}

cudaError_t cudaMemPoolImportFromShareableHandle(cudaMemPool_t *memPool, void *shareableHandle,
                                                 cudaMemAllocationHandleType handleType, unsigned int flags) {
  return GPUSYM_AS_CUDA(hipMemPoolImportFromShareableHandle(
      memPool, shareableHandle, static_cast<hipMemAllocationHandleType>(handleType), flags));
}

cudaError_t cudaMemPoolExportPointer(cudaMemPoolPtrExportData *exportData, void *ptr) {
  return GPUSYM_AS_CUDA(hipMemPoolExportPointer(reinterpret_cast<hipMemPoolPtrExportData *>(exportData), ptr));
}

cudaError_t cudaMemPoolImportPointer(void **ptr, cudaMemPool_t memPool, cudaMemPoolPtrExportData *exportData) {
  return GPUSYM_AS_CUDA(
      hipMemPoolImportPointer(ptr, memPool, reinterpret_cast<hipMemPoolPtrExportData *>(exportData)));
}

}  // extern "C"
