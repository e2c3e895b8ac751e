// Streams and events: each stream an in-order queue of operations, what an
// operation waits for before it starts, and the HIP calls on streams, events
// and asynchronous copies.  See "streams, events and their ordering" in
// internal.h; the workers that run kernels and copies are in executor.cpp.
#include <algorithm>
#include <chrono>
#include <cstring>

#include "internal.h"

// The handles: hipStream_t and hipEvent_t point to these.
struct ihipStream_t {
  uint64_t serial;          // unique in the process and never reused: names it in dependencies
  uint64_t id;              // 0 for a null stream, then 1, 2, ... (what a debugger shows)
  int device;
  unsigned flags;           // hipStreamDefault or hipStreamNonBlocking
  int priority = 0;         // hipStreamCreateWithPriority's, clamped: it orders nothing here
  bool is_null;
  bool destroyed = false;   // by hipStreamDestroy: freed when its work is done
  bool blocked = false;     // its front operation waits for other streams' work
  bool scheduled = false;   // in the list of streams to advance
  std::deque<gpusym::Op *> ops;  // queued and running, oldest first
  uint64_t enqueued = 0;    // tickets given
  uint64_t completed = 0;   // tickets completed (in order: the queue is in order)
  uint32_t slot = 0;        // its record in gpusym_debug.streams
};

struct ihipEvent_t {
  int device;
  unsigned flags;
  gpusym::Dependency last{0, 0};   // its last record; ticket 0 when never recorded
  uint64_t generation = 0;         // of the last record: an older one completing changes nothing
  int64_t time_ns = 0;             // when the last record completed
  uint32_t records_in_flight = 0;
  bool destroyed = false;          // by hipEventDestroy: freed when no record is in flight
};

namespace gpusym {

namespace {

struct Queues : Scheduler {
  uint64_t next_serial = 1;
  uint64_t next_id = 1;
  std::vector<std::vector<ihipStream_t *>> device_streams;  // per device, its null stream first
  std::unordered_map<uint64_t, ihipStream_t *> by_serial;
  std::unordered_set<const ihipStream_t *> live;    // stream handles the program may use
  std::unordered_set<ihipEvent_t *> events;         // event handles the program may use
  std::vector<ihipStream_t *> blocked;
  std::vector<ihipStream_t *> to_advance;
  std::vector<gpusym_debug_stream> records;
  std::vector<uint32_t> free_slots;
};

ihipStream_t *new_stream(Queues &q, int device, unsigned flags, bool is_null);

Queues &queues() {
  static Queues *instance = [] {
    auto *q = new Queues;  // never destroyed: workers outlive exit
    q->device_streams.resize(device_count());
    q->records.reserve(16);
    for (int device = 0; device < device_count(); device++) new_stream(*q, device, hipStreamDefault, true);
    return q;
  }();
  return *instance;
}

// The null streams are published in the debugger interface when the runtime loads.
[[maybe_unused]] const bool published = (queues(), true);

}  // namespace

bool spin_while(const std::atomic<uint64_t> &counter, uint64_t seen) {
  // After spins in a row that did not pay, the thread sleeps at once for a
  // while, then tries the longest spin again.  The longest spin outlasts
  // the wake-up of a thread whose processor had gone idle (tens of
  // microseconds on virtual machines): shorter, a launching thread and the
  // worker it launches on, each woken by the other, kept missing each other
  // and both went on sleeping for hundreds of launches at a time.
  constexpr std::chrono::nanoseconds kLongest{100000}, kShortest{1000};
  constexpr int kSleeps = 64;
  static thread_local std::chrono::nanoseconds budget = kLongest;
  static thread_local int sleeps = 0;
  if (budget < kShortest) {
    if (++sleeps < kSleeps) return counter.load() != seen;
    budget = kLongest;
    sleeps = 0;
  }
  auto deadline = std::chrono::steady_clock::now() + budget;
  for (;;) {
    for (int i = 0; i < 64; i++) {
      if (counter.load(std::memory_order_relaxed) != seen) {
        budget = kLongest;
        return true;
      }
      __builtin_ia32_pause();
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      budget /= 2;
      return false;
    }
  }
}

void relock(std::unique_lock<std::mutex> &lock) {
  for (int i = 0; i < 100; i++) {
    if (lock.try_lock()) return;
    __builtin_ia32_pause();
  }
  lock.lock();
}

static_assert(hipStreamNonBlocking == GPUSYM_STREAM_NON_BLOCKING, "debuggers read the flags as HIP's");

namespace {

int64_t now_ns() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

bool blocking(const ihipStream_t *s) { return s->is_null || !(s->flags & hipStreamNonBlocking); }

bool busy(const ihipStream_t *s) { return s->completed < s->enqueued; }

Dependency everything_queued(const ihipStream_t *s) { return {s->serial, s->enqueued}; }

bool met(Queues &q, const Dependency &dependency) {
  auto found = q.by_serial.find(dependency.stream);
  return found == q.by_serial.end() || found->second->completed >= dependency.ticket;
}

bool all_met(Queues &q, const std::vector<Dependency> &dependencies) {
  return std::all_of(dependencies.begin(), dependencies.end(), [&q](const Dependency &d) { return met(q, d); });
}

bool event_done(Queues &q, const ihipEvent_t *event) { return event->last.ticket == 0 || met(q, event->last); }

void set_pending(Queues &q, const ihipStream_t *s) { q.records[s->slot].pending = s->ops.size(); }

ihipStream_t *new_stream(Queues &q, int device, unsigned flags, bool is_null) {
  auto *s = new ihipStream_t{};
  s->serial = q.next_serial++;
  s->id = is_null ? 0 : q.next_id++;
  s->device = device;
  s->flags = flags;
  s->is_null = is_null;
  q.device_streams[device].push_back(s);
  q.by_serial[s->serial] = s;
  if (!is_null) q.live.insert(s);
  std::lock_guard<std::mutex> lock(registry_mutex());
  if (q.free_slots.empty()) {
    s->slot = static_cast<uint32_t>(q.records.size());
    q.records.emplace_back();
  } else {
    s->slot = q.free_slots.back();
    q.free_slots.pop_back();
  }
  q.records[s->slot] = gpusym_debug_stream{s->id, is_null ? nullptr : s, static_cast<uint32_t>(device), flags,
                                           GPUSYM_STREAM_LIVE, 0, 0};
  gpusym_debug.streams = q.records.data();
  gpusym_debug.stream_count = static_cast<uint32_t>(q.records.size());
  gpusym_debug.devices[device].stream_count++;
  notify(GPUSYM_EVENT_STREAM_CREATED, s->slot);
  return s;
}

// A destroyed stream whose work is done.
void free_stream(Queues &q, ihipStream_t *s) {
  auto &streams = q.device_streams[s->device];
  streams.erase(std::find(streams.begin(), streams.end(), s));
  q.by_serial.erase(s->serial);
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    q.records[s->slot].state = GPUSYM_STREAM_FREE;
    q.free_slots.push_back(s->slot);
    gpusym_debug.devices[s->device].stream_count--;
    notify(GPUSYM_EVENT_STREAM_DESTROYED, s->slot);
  }
  delete s;
}

// hipStreamDestroy of a live stream: it goes when its work is done.
void destroy_stream(Queues &q, ihipStream_t *s) {
  q.live.erase(s);
  s->destroyed = true;
  {
    std::lock_guard<std::mutex> registry_lock(registry_mutex());
    q.records[s->slot].state = GPUSYM_STREAM_DESTROYED;
    notify(GPUSYM_EVENT_STREAM_DESTROYED, s->slot);
  }
  if (s->ops.empty()) free_stream(q, s);
}

// hipEventDestroy of a live event: it goes when no record of it is in flight.
void destroy_event(Queues &q, ihipEvent_t *e) {
  q.events.erase(e);
  if (e->records_in_flight)
    e->destroyed = true;
  else
    delete e;
}

void schedule(Queues &q, ihipStream_t *s) {
  if (s->scheduled) return;
  s->scheduled = true;
  q.to_advance.push_back(s);
}

// `op`, started and at the front of its stream, is done.
void finish(Queues &q, Op *op) {
  ihipStream_t *s = op->stream;
  s->ops.pop_front();
  s->completed = op->ticket;
  set_pending(q, s);
  if (op->in_runnable) q.runnable.erase(std::find(q.runnable.begin(), q.runnable.end(), op));
  if (op->kind == Op::kRecord) {
    ihipEvent_t *event = op->event;
    event->records_in_flight--;
    if (op->generation == event->generation) event->time_ns = now_ns();
    if (event->destroyed && event->records_in_flight == 0) delete event;
  }
  delete op;
  q.finished++;
  // Streams that waited for other streams' work look again.
  for (ihipStream_t *waiting : q.blocked) {
    waiting->blocked = false;
    schedule(q, waiting);
  }
  q.blocked.clear();
  q.done.notify_all();
}

// A kernel whose turn has come on a device whose context has failed: it
// completes without running, as a GPU runs nothing more there.
void skip_dispatch(Queues &q, Op *op) {
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    op->record->state = GPUSYM_DISPATCH_COMPLETE;
    notify(GPUSYM_EVENT_DISPATCH_COMPLETED, op->record - gpusym_debug.dispatches);
  }
  finish(q, op);
}

// Starts what can start at the front of `s`: records and waits complete at
// once, kernels and copies go to the workers (or to the thread that runs them).
void advance(Queues &q, ihipStream_t *s) {
  while (!s->ops.empty()) {
    Op *op = s->ops.front();
    if (op->started) return;
    auto &after = op->after;
    after.erase(std::remove_if(after.begin(), after.end(), [&q](const Dependency &d) { return met(q, d); }),
                after.end());
    if (!after.empty()) {
      if (!s->blocked) {
        s->blocked = true;
        q.blocked.push_back(s);
      }
      return;
    }
    op->started = true;
    if (op->kind == Op::kRecord || op->kind == Op::kWait) {
      finish(q, op);
      continue;
    }
    if (op->kind == Op::kKernel && !op->caller_runs && device_failure(s->device)) {
      skip_dispatch(q, op);
      continue;
    }
    if (op->caller_runs) {
      q.done.notify_all();
    } else {
      op->in_runnable = true;
      q.runnable.push_back(op);
      q.posted++;
      // A worker that takes work and leaves some wakes another (executor.cpp).
      if (!q.worker_spins) q.work.notify_one();
    }
    return;
  }
  if (s->destroyed) free_stream(q, s);
}

void run_advances(Queues &q) {
  while (!q.to_advance.empty()) {
    ihipStream_t *s = q.to_advance.back();
    q.to_advance.pop_back();
    s->scheduled = false;
    advance(q, s);
  }
}

// Waits (with `lock` held) until every dependency is met.
void wait_for(Queues &q, std::unique_lock<std::mutex> &lock, const std::vector<Dependency> &dependencies) {
  if (!dependencies.empty()) await(lock, q.done, q.finished, [&] { return all_met(q, dependencies); });
}

// What the synchronous calls of `device` wait for: its null stream and its blocking streams.
void add_legacy_work(Queues &q, int device, std::vector<Dependency> &out) {
  for (const ihipStream_t *s : q.device_streams[device])
    if (blocking(s) && busy(s)) out.push_back(everything_queued(s));
}

// What a synchronizing call waits for, reused by the thread's next call.
std::vector<Dependency> &work_list() {
  static thread_local std::vector<Dependency> work;
  work.clear();
  return work;
}

}  // namespace

Scheduler &scheduler() { return queues(); }

// hipStreamPerThread, the calling thread's own default stream in HIP, is
// here the current device's null stream, as if the program were built
// without per-thread default streams.  Its work is then ordered more
// strictly than HIP orders it (with the other threads' and with the device's
// blocking streams), never less, so a correct program computes the same;
// only the overlap of different threads' default-stream work is lost.
// CUDA's legacy stream (cudaStreamLegacy, 0x1) is the null stream too.
static bool is_null_stream(hipStream_t handle) {
  return !handle || handle == hipStreamPerThread || handle == reinterpret_cast<hipStream_t>(1);
}

ihipStream_t *find_stream(hipStream_t handle) {
  Queues &q = queues();
  if (is_null_stream(handle)) return q.device_streams[current_device()].front();
  return q.live.count(handle) ? handle : nullptr;
}

int stream_device(const ihipStream_t *stream) { return stream->device; }

uint64_t stream_id(const ihipStream_t *stream) { return stream->id; }

void enqueue(Op *op, ihipStream_t *s) {
  Queues &q = queues();
  op->stream = s;
  op->ticket = ++s->enqueued;
  // The null stream's legacy ordering.
  const auto &streams = q.device_streams[s->device];
  if (s->is_null) {
    for (const ihipStream_t *other : streams)
      if (other != s && blocking(other) && busy(other)) op->after.push_back(everything_queued(other));
  } else if (blocking(s) && busy(streams.front())) {
    op->after.push_back(everything_queued(streams.front()));
  }
  s->ops.push_back(op);
  set_pending(q, s);
  if (s->ops.size() == 1) {
    schedule(q, s);
    run_advances(q);
  }
}

void wait_turn(std::unique_lock<std::mutex> &lock, Op *op) {
  queues().done.wait(lock, [op] { return op->started; });
}

void complete(Op *op) {
  Queues &q = queues();
  ihipStream_t *s = op->stream;
  finish(q, op);
  schedule(q, s);
  run_advances(q);
}

void run_transfer(const Transfer &t) {
  for (size_t z = 0; z < t.depth; z++) {
    for (size_t y = 0; y < t.height; y++) {
      char *dst = static_cast<char *>(t.dst) + z * t.dst_slice + y * t.dst_pitch;
      note_written(reinterpret_cast<uintptr_t>(dst), t.width);
      if (t.src) {
        memmove(dst, static_cast<const char *>(t.src) + z * t.src_slice + y * t.src_pitch, t.width);
      } else if (t.element == 1) {
        memset(dst, static_cast<int>(t.value), t.width);
      } else {
        for (size_t x = 0; x + t.element <= t.width; x += t.element) memcpy(dst + x, &t.value, t.element);
      }
    }
  }
}

void run_operation(const Op &op) {
  if (op.kind == Op::kTransfer)
    run_transfer(op.transfer);
  else if (op.host_fn)
    op.host_fn(op.user_data);
  else
    op.callback(op.handle, hipSuccess, op.user_data);
}

hipError_t synchronize_stream(hipStream_t handle) {
  if (is_null_stream(handle)) {
    synchronize();  // the null stream and, in its legacy ordering, the device's blocking streams
    return hipSuccess;
  }
  Queues &q = queues();
  std::unique_lock<std::mutex> lock(q.mutex);
  ihipStream_t *s = find_stream(handle);
  if (!s) return hipErrorInvalidHandle;
  wait_for(q, lock, {everything_queued(s)});
  return hipSuccess;
}

void end_dispatch(uint64_t id) {
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  // A running dispatch is at the front of its stream until it completes.
  for (const auto &streams : q.device_streams) {
    for (const ihipStream_t *s : streams) {
      Op *op = s->ops.empty() ? nullptr : s->ops.front();
      if (!op || op->kind != Op::kKernel || op->id != id) continue;
      if (op->config.cooperative) return;
      // Workers claim runs of blocks from next_block, past the end at the
      // last; those claimed already are counted by their workers.
      uint64_t next = op->next_block.exchange(op->total_blocks);
      if (next < op->total_blocks) op->done_blocks += op->total_blocks - next;
      return;
    }
  }
}

void synchronize() {
  Queues &q = queues();
  std::unique_lock<std::mutex> lock(q.mutex);
  std::vector<Dependency> &work = work_list();
  add_legacy_work(q, current_device(), work);
  wait_for(q, lock, work);
}

void synchronize_device(int device) {
  Queues &q = queues();
  std::unique_lock<std::mutex> lock(q.mutex);
  std::vector<Dependency> &work = work_list();
  for (const ihipStream_t *s : q.device_streams[device])
    if (busy(s)) work.push_back(everything_queued(s));
  wait_for(q, lock, work);
}

void synchronize_all() {
  for (int device = 0; device < device_count(); device++) synchronize_device(device);
}

void destroy_device_streams(int device) {
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  std::vector<ihipStream_t *> streams = q.device_streams[device];  // destroying one may free it
  for (ihipStream_t *s : streams)
    if (q.live.count(s)) destroy_stream(q, s);
  std::vector<ihipEvent_t *> events;
  for (ihipEvent_t *e : q.events)
    if (e->device == device) events.push_back(e);
  for (ihipEvent_t *e : events) destroy_event(q, e);
}

}  // namespace gpusym

using namespace gpusym;

namespace {

// Queues `op` (a transfer or host function) on `handle` (any device's stream,
// as in HIP), or records it into the graph the stream captures.
hipError_t queue(Op *op, hipStream_t handle) {
  if (captured(op, handle)) return hipSuccess;
  Queues &q = queues();
  std::unique_lock<std::mutex> lock(q.mutex);
  ihipStream_t *s = find_stream(handle);
  if (!s) {
    delete op;
    return hipErrorInvalidHandle;
  }
  // Host functions always run on a worker: never on the thread that queued them.
  op->caller_runs = op->kind == Op::kTransfer && launch_blocking();
  if (!op->caller_runs) start_workers();
  enqueue(op, s);
  if (op->caller_runs) {
    wait_turn(lock, op);
    lock.unlock();
    run_operation(*op);
    lock.lock();
    complete(op);
  }
  return hipSuccess;
}

Op *copy_op(void *dst, const void *src, size_t size) {
  auto *op = new Op(Op::kTransfer);
  op->transfer.dst = dst;
  op->transfer.src = src;
  op->transfer.width = size;
  return op;
}

ihipEvent_t *find_event(Queues &q, hipEvent_t handle) { return q.events.count(handle) ? handle : nullptr; }

}  // namespace

hipError_t gpusym::queue_operation(Op *op, hipStream_t handle) { return queue(op, handle); }

hipError_t gpusym::queue_transfer(const Transfer &transfer, hipStream_t handle) {
  auto *op = new Op(Op::kTransfer);
  op->transfer = transfer;
  return queue(op, handle);
}


extern "C" {

// ---- streams ----

hipError_t hipStreamCreateWithFlags(hipStream_t *stream, unsigned int flags) {
  if (!stream) return record(hipErrorInvalidValue);
  if (flags != hipStreamDefault && flags != hipStreamNonBlocking) return record(hipErrorInvalidValue);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  *stream = new_stream(q, current_device(), flags, false);
  return hipSuccess;
}

// HIP's range: -1 the greatest priority, 1 the least; others are clamped into it.
constexpr int kGreatestPriority = -1, kLeastPriority = 1;

hipError_t hipStreamCreateWithPriority(hipStream_t *stream, unsigned int flags, int priority) {
  if (hipError_t error = hipStreamCreateWithFlags(stream, flags)) return error;
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  (*stream)->priority = std::clamp(priority, kGreatestPriority, kLeastPriority);
  return hipSuccess;
}

hipError_t hipDeviceGetStreamPriorityRange(int *least, int *greatest) {
  if (least) *least = kLeastPriority;
  if (greatest) *greatest = kGreatestPriority;
  return hipSuccess;
}

hipError_t hipStreamGetPriority(hipStream_t stream, int *priority) {
  if (!priority) return record(hipErrorInvalidValue);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipStream_t *s = find_stream(stream);
  if (!s) return record(hipErrorInvalidHandle);
  *priority = s->priority;
  return hipSuccess;
}

hipError_t hipStreamCreate(hipStream_t *stream) {
  if (!stream) return record(hipErrorInvalidValue);
  return hipStreamCreateWithFlags(stream, hipStreamDefault);
}

hipError_t hipStreamDestroy(hipStream_t stream) {
  if (!stream) return record(hipErrorInvalidHandle);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  if (!q.live.count(stream)) return record(hipErrorInvalidHandle);
  // As in CUDA, the call returns at once and the stream goes when its work is done.
  destroy_stream(q, stream);
  return hipSuccess;
}

hipError_t hipStreamSynchronize(hipStream_t stream) {
  if (hipError_t error = synchronize_stream(stream)) return record(error);
  release_pool_memory();
  return hipSuccess;
}

// hipErrorNotReady is an answer, not a failure: it leaves the last error alone.
hipError_t hipStreamQuery(hipStream_t stream) {
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipStream_t *s = find_stream(stream);
  if (!s) return record(hipErrorInvalidHandle);
  return busy(s) ? hipErrorNotReady : hipSuccess;
}

hipError_t hipStreamWaitEvent(hipStream_t stream, hipEvent_t event, unsigned int flags) {
  if (flags != 0) return record(hipErrorInvalidValue);
  if (!event) return record(hipErrorInvalidHandle);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipStream_t *s = find_stream(stream);
  ihipEvent_t *e = find_event(q, event);
  if (!s || !e) return record(hipErrorInvalidHandle);
  // The event may belong to another device: this is how devices wait for each other.
  if (event_done(q, e) || e->last.stream == s->serial) return hipSuccess;  // nothing to wait for
  auto *op = new Op(Op::kWait);
  op->after.push_back(e->last);
  enqueue(op, s);
  return hipSuccess;
}

hipError_t hipStreamGetFlags(hipStream_t stream, unsigned int *flags) {
  if (!stream || !flags) return record(hipErrorInvalidValue);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipStream_t *s = find_stream(stream);
  if (!s) return record(hipErrorInvalidHandle);
  *flags = s->flags;
  return hipSuccess;
}

// The device of `stream`, the current one for the null stream and
// hipStreamPerThread, or -1 for a handle that names no stream, as in HIP.
int hipGetStreamDeviceId(hipStream_t stream) {
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipStream_t *s = find_stream(stream);
  return s ? s->device : -1;
}

hipError_t hipStreamGetDevice(hipStream_t stream, int *device) {
  if (!device) return record(hipErrorInvalidValue);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipStream_t *s = find_stream(stream);
  if (!s) return record(hipErrorInvalidHandle);
  *device = s->device;
  return hipSuccess;
}

// ---- events ----

hipError_t hipEventCreateWithFlags(hipEvent_t *event, unsigned flags) {
  if (!event) return record(hipErrorInvalidValue);
  constexpr unsigned kRelease = hipEventReleaseToDevice | hipEventReleaseToSystem | hipEventDisableSystemFence;
  constexpr unsigned kSupported = hipEventBlockingSync | hipEventDisableTiming | hipEventInterprocess | kRelease;
  // As HIP: known flags only, at most one release flag, and an interprocess event without timing.
  if ((flags & ~kSupported) || __builtin_popcount(flags & kRelease) > 1 ||
      ((flags & hipEventInterprocess) && !(flags & hipEventDisableTiming)))
    return record(hipErrorInvalidValue);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  auto *e = new ihipEvent_t{};
  e->device = current_device();
  e->flags = flags;
  q.events.insert(e);
  *event = e;
  return hipSuccess;
}

hipError_t hipEventCreate(hipEvent_t *event) {
  if (!event) return record(hipErrorInvalidValue);
  return hipEventCreateWithFlags(event, hipEventDefault);
}

hipError_t hipEventRecord(hipEvent_t event, hipStream_t stream) {
  if (!event) return record(hipErrorInvalidHandle);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipEvent_t *e = find_event(q, event);
  ihipStream_t *s = find_stream(stream);
  if (!e || !s) return record(hipErrorInvalidHandle);
  // HIP and CUDA refuse an event and a stream of different devices.
  if (e->device != s->device) return record(hipErrorInvalidHandle);
  auto *op = new Op(Op::kRecord);
  op->event = e;
  op->generation = ++e->generation;
  e->last = {s->serial, s->enqueued + 1};  // the ticket enqueue gives it
  e->records_in_flight++;
  enqueue(op, s);
  return hipSuccess;
}

hipError_t hipEventSynchronize(hipEvent_t event) {
  if (!event) return record(hipErrorInvalidHandle);
  Queues &q = queues();
  std::unique_lock<std::mutex> lock(q.mutex);
  if (!find_event(q, event)) return record(hipErrorInvalidHandle);
  await(lock, q.done, q.finished, [&] { return !q.events.count(event) || event_done(q, event); });
  lock.unlock();
  release_pool_memory();
  return hipSuccess;
}

hipError_t hipEventQuery(hipEvent_t event) {
  if (!event) return record(hipErrorInvalidHandle);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipEvent_t *e = find_event(q, event);
  if (!e) return record(hipErrorInvalidHandle);
  return event_done(q, e) ? hipSuccess : hipErrorNotReady;
}

hipError_t hipEventElapsedTime(float *ms, hipEvent_t start, hipEvent_t stop) {
  if (!ms) return record(hipErrorInvalidValue);
  if (!start || !stop) return record(hipErrorInvalidHandle);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  ihipEvent_t *first = find_event(q, start), *last = find_event(q, stop);
  if (!first || !last) return record(hipErrorInvalidHandle);
  // As HIP: events of two devices, an event never recorded and one without
  // timing are invalid handles here.
  if (first->device != last->device || !first->last.ticket || !last->last.ticket ||
      ((first->flags | last->flags) & hipEventDisableTiming))
    return record(hipErrorInvalidHandle);
  if (!event_done(q, first) || !event_done(q, last)) return hipErrorNotReady;
  *ms = static_cast<float>(last->time_ns - first->time_ns) / 1e6f;
  return hipSuccess;
}

hipError_t hipEventDestroy(hipEvent_t event) {
  if (!event) return record(hipErrorInvalidHandle);
  Queues &q = queues();
  std::lock_guard<std::mutex> lock(q.mutex);
  if (!q.events.count(event)) return record(hipErrorInvalidHandle);
  destroy_event(q, event);
  return hipSuccess;
}

// ---- host functions in stream order ----

// Each runs on a worker once the work queued before it in the stream is
// done, and the stream's later work waits for it to return.
hipError_t hipLaunchHostFunc(hipStream_t stream, hipHostFn_t fn, void *user_data) {
  if (!fn) return record(hipErrorInvalidValue);
  auto *op = new Op(Op::kHost);
  op->host_fn = fn;
  op->user_data = user_data;
  return record(queue(op, stream));
}

hipError_t hipStreamAddCallback(hipStream_t stream, hipStreamCallback_t callback, void *user_data,
                                unsigned int flags) {
  if (!callback || flags != 0) return record(hipErrorInvalidValue);
  auto *op = new Op(Op::kHost);
  op->callback = callback;
  op->user_data = user_data;
  op->handle = stream;
  return record(queue(op, stream));
}

// ---- asynchronous and peer copies ----

hipError_t hipMemcpyAsync(void *dst, const void *src, size_t size, hipMemcpyKind kind, hipStream_t stream) {
  if (size == 0) return hipSuccess;
  if (hipError_t error = check_copy(dst, size, src, size, kind)) return record(error);
  return record(queue(copy_op(dst, src, size), stream));
}

hipError_t hipMemsetAsync(void *dst, int value, size_t size, hipStream_t stream) {
  if (size == 0) return hipSuccess;
  if (!is_device_range(dst, size)) return record(hipErrorInvalidValue);
  Op *op = copy_op(dst, nullptr, size);
  op->transfer.value = static_cast<uint8_t>(value);
  return record(queue(op, stream));
}

hipError_t hipMemcpyPeerAsync(void *dst, int dst_device, const void *src, int src_device, size_t size,
                              hipStream_t stream) {
  if (!valid_device(dst_device) || !valid_device(src_device)) return record(hipErrorInvalidDevice);
  if (size == 0) return hipSuccess;
  if (hipError_t error = check_copy(dst, size, src, size, hipMemcpyDeviceToDevice)) return record(error);
  return record(queue(copy_op(dst, src, size), stream));
}

// Synchronous: after the work queued so far on the current device, the
// source's and the destination's (their null streams and blocking streams).
hipError_t hipMemcpyPeer(void *dst, int dst_device, const void *src, int src_device, size_t size) {
  if (!valid_device(dst_device) || !valid_device(src_device)) return record(hipErrorInvalidDevice);
  if (size == 0) return hipSuccess;
  if (hipError_t error = check_copy(dst, size, src, size, hipMemcpyDeviceToDevice)) return record(error);
  {
    Queues &q = queues();
    std::unique_lock<std::mutex> lock(q.mutex);
    std::vector<Dependency> work;
    for (int device : {current_device(), src_device, dst_device}) add_legacy_work(q, device, work);
    wait_for(q, lock, work);
  }
  memmove(dst, src, size);
  note_written(reinterpret_cast<uintptr_t>(dst), size);
  return hipSuccess;
}

}  // extern "C"
