// Execution of dispatches and copies on CPU threads.
//
// Every stream is an in-order queue (streams.cpp); one pool of worker threads
// serves them all, so kernels of different streams may run at once.  Workers
// take blocks of the oldest started dispatch that has blocks left (and the
// copies whose turn has come); each block runs wholly on one worker, its
// lanes (simulated GPU threads) one after another on their own small stacks.
// A lane that calls __syncthreads() switches straight to the next lane in
// order that has not started or waits at the barrier, so every lane runs up
// to the barrier before any of them goes past it.  A lane that never waits
// finishes in one go and hands its stack to the next.
//
// A kernel with neither barriers nor warp functions may have a fast form
// (device/passes/fast_form.cpp) that runs the whole block as one loop: it
// then runs as the block's first lane, unless a debugger or a check wanted
// the dispatch in the debuggable form at its launch.  A thread that faults in the fast
// form cannot be named: the block runs again in the debuggable form, whose
// lane reports the fault.
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <deque>
#include <memory>
#include <thread>

#include "internal.h"

namespace gpusym {

constexpr uint32_t kMaxLanes = 1024;
// Where a lockstep access to __shared__ memory meets its wavefront: the
// lanes at every such step meet as at one site (lowest of all), wherever the
// compiler put it, so that lanes in the two branches of a divergent `if` go
// on step by step, as a GPU runs both branches' accesses before the code
// after them.
constexpr uintptr_t kStepSite = 1;
// Lanes past a block's last one, never waiting or unstarted: the assembly
// reads the next lane and the one LANES_AHEAD further (lane_switch.h)
// without checking the end.
constexpr uint32_t kLanesPast = 4;

// A CPU thread that runs lanes: its lanes, their stacks, its scheduler
// context.  The assembly reads the fields from record to the lanes.
struct Executor {
  gpusym_lane *end = lanes;       // past the last lane of the block being run
  gpusym_debug_executor *record;
  void *kernel_entry = nullptr;   // the running dispatch's kernel
  const uint64_t *call_image = nullptr;  // and its call image
  uint64_t waited = 0;            // whether a lane of the block has waited at a barrier
  void *stacks[kMaxLanes] = {};   // the stack each lane starts on, made when first needed
  gpusym_lane lanes[kMaxLanes + kLanesPast];
  void *scheduler_sp = nullptr;
  Op *dispatch = nullptr;         // the kernel whose block runs
  uint64_t lanes_dispatch = 0;    // the dispatch whose threads the lanes describe
  // Warp functions (the wavefront of the lanes running now): each lane's
  // call, how many lanes wait in one or have their result, and whether the
  // lanes that met at one are going on in turn.
  WaveCall calls[kMaxLanes];
  uint32_t wave_waiting = 0;
  bool releasing = false;
  uint64_t met = 0;               // the lanes of the wavefront's last meeting (synccheck reads them)
  uint32_t wave = GPUSYM_WAVE_SIZE;  // lanes of a wavefront of the running kernel: 32 or 64
  bool fast = false;              // the dispatch runs in its kernel's fast form
  bool replay_armed = false;      // a fault in the running fast block goes back to `replay`
  sigjmp_buf replay;
  uint64_t not_fast = 0;          // blocks of the dispatch taken that ran in the debuggable form
  void *lanes_memory = nullptr;   // a fast form's values across barriers (__gpusym_fast_lanes_memory)
  size_t lanes_memory_size = 0;

  Executor();
  void take(Op *op) {
    dispatch = op;
    fast = op->record->form == GPUSYM_FORM_FAST;
    not_fast = 0;
    kernel_entry = fast ? op->kernel->fast_entry : op->kernel->entry;
    call_image = op->call.data();
    wave = op->kernel->wave_size;
    allocate_thread_storage(*op->kernel);
  }
};

}  // namespace gpusym

extern "C" {
__thread __attribute__((tls_model("initial-exec"), visibility("default")))
gpusym_lane *__gpusym_lane = nullptr;
// The executor of this CPU thread, once it has run a lane.
__thread __attribute__((tls_model("initial-exec"), visibility("hidden")))
gpusym::Executor *gpusym_executor = nullptr;

void gpusym_fiber_switch(void **save_sp, void *load_sp);
void gpusym_fiber_entry(void);
void gpusym_call_kernel(const uint64_t *image, void *kernel);  // call_kernel.S
}

// What the assembly reads.
static_assert(gpusym::kCallWords == 0 && gpusym::kCallUsesSse == 1 && gpusym::kCallRelatives == 2 &&
                  gpusym::kCallSse == 4 && gpusym::kCallGpr == 20 && gpusym::kCallStack == 26,
              "call_kernel.S reads the call image at these words");
static_assert(offsetof(gpusym::Executor, record) == 8 && offsetof(gpusym::Executor, kernel_entry) == 16 &&
                  offsetof(gpusym::Executor, call_image) == 24 && offsetof(gpusym::Executor, waited) == 32 &&
                  offsetof(gpusym::Executor, stacks) == 40 &&
                  offsetof(gpusym::Executor, lanes) == 40 + 8 * gpusym::kMaxLanes && gpusym::kLanesPast == 4,
              "lane_switch.h reads the executor at these offsets, and LANES_AHEAD lanes past the last");
static_assert(offsetof(gpusym::Executor, calls) == 82272 && sizeof(gpusym::WaveCall) == 40 &&
                  offsetof(gpusym::WaveCall, op) == 0 && offsetof(gpusym::WaveCall, width) == 4 &&
                  offsetof(gpusym::WaveCall, value) == 8 && offsetof(gpusym::WaveCall, arg) == 16 &&
                  offsetof(gpusym::WaveCall, site) == 24 && offsetof(gpusym::WaveCall, result) == 32 &&
                  GPUSYM_LANE_AT_WAVE_OP == 4 && GPUSYM_LANE_WAVE_OP_DONE == 5 && GPUSYM_WAVE_STEP == 17 &&
                  gpusym::kStepSite == 1,
              "__gpusym_wave_step (fiber_switch.S) reads and writes these");
static_assert(sizeof(gpusym_lane) == 72 && offsetof(gpusym_lane, state) == 60 &&
                  offsetof(gpusym_lane, saved_sp) == 64 && offsetof(gpusym_debug_executor, lane) == 8,
              "lane_switch.h reads lanes and executor records at these offsets");
static_assert(offsetof(gpusym_lane, thread_idx) == 0 && offsetof(gpusym_lane, block_idx) == 12 &&
                  offsetof(gpusym_lane, flat_thread) == 56 && sizeof(gpusym_lane) == 72,
              "the passes read lanes at these offsets (kThreadIdx, kBlockIdx, kFlatThread, kLaneSize in fast_form.h)");
static_assert(offsetof(struct gpusym_debug, watch_count) == 152, "lane_switch.h reads gpusym_debug.watch_count there");
static_assert(GPUSYM_LANE_UNSTARTED == 0 && GPUSYM_LANE_RUNNING == 1 && GPUSYM_LANE_AT_BARRIER == 2 &&
                  GPUSYM_LANE_EXITED == 3 && GPUSYM_MAX_WAVE_SIZE <= 64,
              "lane_switch.h writes these lane states");

namespace gpusym {

namespace {

constexpr uint32_t kMaxExecutors = 256;

// Kernel launches so far (under the scheduler's mutex): the next dispatch id.
uint64_t launches = 0;
bool workers_started = false;
uint64_t worker_count = 0;
// The longest run of blocks a worker claims at once.
constexpr uint64_t kMaxRun = 64;
// The most blocks of a cooperative launch: each runs at once on a thread of
// its own (a worker, or a helper), and each thread has an executor record.
constexpr uint64_t kMaxCooperativeBlocks = 128;

// A cooperative launch of more blocks than workers lends each block past the
// first to a helper thread, started when no idle one is left: a grid barrier
// waits for every block of the grid, so none may wait for a thread.  Under
// the scheduler's mutex.
struct Lent {
  Op *dispatch;
  uint64_t block;
};
struct Helpers {
  std::deque<Lent> lent;
  uint32_t count = 0;
  uint32_t idle = 0;  // started, and not running a lent block
  std::condition_variable work;
};
// Never destroyed: helpers wait on it when the program exits.
Helpers &helpers() {
  static Helpers *all = new Helpers;
  return *all;
}

gpusym_debug_dispatch dispatch_records[GPUSYM_DEBUG_DISPATCH_SLOTS];
// The tool told of each dispatch's state (gpusym_observe_dispatches).
std::atomic<gpusym_dispatch_observer *> dispatch_observer{nullptr};
// Each worker writes its record at every lane it starts: one cache line each,
// or workers slow each other down.
alignas(64) gpusym_debug_executor executor_records[kMaxExecutors];
static_assert(sizeof(gpusym_debug_executor) == 64);

// Stack tops are staggered by this much, over a page: the top of every lane's
// stack is what a barrier touches, and tops all at one page offset would
// compete for the same few cache sets.
constexpr size_t kStackColour = 128;

}  // namespace

Executor::Executor() {
  prepare_fault_handling();
  std::lock_guard<std::mutex> lock(registry_mutex());
  static gpusym_debug_executor overflow;
  uint32_t index = gpusym_debug.executor_count;
  record = index < kMaxExecutors ? &executor_records[index] : &overflow;
  record->os_thread = current_os_thread();
  if (index < kMaxExecutors) gpusym_debug.executor_count = index + 1;
  gpusym_debug.executors = executor_records;
  gpusym_debug.lane_stack_size = lane_stack_size();
}

namespace {

Executor &this_executor() {
  if (!gpusym_executor) gpusym_executor = new Executor;
  return *gpusym_executor;
}

}  // namespace

// The memory a fast form with barriers keeps its lanes' values in across
// them (device/passes/fast_form.cpp): the executor's, grown as needed.
extern "C" void *__gpusym_fast_lanes_memory(uint64_t bytes) {
  Executor &executor = this_executor();
  if (bytes > executor.lanes_memory_size) {
    size_t size = std::max<size_t>((bytes + 63) / 64 * 64, 2 * executor.lanes_memory_size);
    free(executor.lanes_memory);
    executor.lanes_memory = aligned_alloc(64, size);
    if (!executor.lanes_memory) {
      fprintf(stderr, "gpusym: out of memory for a block's %zu bytes of values kept across barriers\n", size);
      abort();
    }
    executor.lanes_memory_size = size;
  }
  return executor.lanes_memory;
}

// The lanes of a wavefront of the running kernel, for a fast form whose
// passes go a wavefront at a time.
extern "C" uint32_t __gpusym_fast_wave_size(void) { return this_executor().wave; }

// The meeting of a fast form's lanes of one wavefront (`count` lanes, their
// `states` and their `calls` of warp functions), each stopped at a barrier,
// a lockstep step or a warp function, or returned (device/passes/
// fast_form.cpp encodes the states): as meet() does, the lanes waiting at
// the first place go on, every step being one place before any warp
// function, and warp functions in the code's order; those at a warp function
// get their results.  Returns 0 when no lane goes on, else the mask of the
// regions they go on in (region r's bit r, the 62nd and later sharing bit
// 62), with bit 63 when every lane goes on in one region of a bit of its
// own (the loop of a region sharing one runs the lanes at that region alone).
extern "C" uint64_t __gpusym_fast_meet(WaveCall *calls, uint32_t *states, uint32_t count) {
  static constexpr uint32_t kAtWarpFunction = 1u << 28, kMeeting = 1u << 29, kSharedBit = 62;
  auto place = [&](uint32_t state) { return state & kAtWarpFunction ? state & ~kMeeting : 0; };
  auto region_bit = [](uint32_t state) { return uint64_t{1} << std::min(state & (kAtWarpFunction - 1), kSharedBit); };
  uint32_t first = UINT32_MAX, differs = 0;
  for (uint32_t i = 0; i < count; i++) {
    first = std::min(first, states[i] & kMeeting ? place(states[i]) : UINT32_MAX);
    differs |= states[i] ^ states[0];
  }
  if (first == UINT32_MAX) return 0;
  uint64_t active = 0, regions = 0;
  bool all = false;
  if (!differs) {  // the common meeting: every lane at one place, come from one region
    uint32_t state = states[0] & ~kMeeting;
    for (uint32_t i = 0; i < count; i++) states[i] = state;
    active = count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1;
    regions = region_bit(state);
    all = (state & (kAtWarpFunction - 1)) < kSharedBit;
  } else {
    uint32_t lowest = UINT32_MAX, highest = 0;
    for (uint32_t i = 0; i < count; i++)
      if ((states[i] & kMeeting) && place(states[i]) == first) {
        active |= uint64_t{1} << i;
        states[i] &= ~kMeeting;
        uint32_t region = states[i] & (kAtWarpFunction - 1);
        regions |= region_bit(states[i]);
        lowest = std::min(lowest, region);
        highest = std::max(highest, region);
      }
    all = lowest == highest && lowest < kSharedBit && active == (count >= 64 ? ~uint64_t{0} : (uint64_t{1} << count) - 1);
  }
  if (first != 0) resolve_wave(calls, count, active, this_executor().wave);
  return regions | (all ? uint64_t{1} << 63 : 0);
}

// A structured fast form's warp function (device/passes/fast_form.cpp):
// every lane of the block that has not returned (`gone`, a byte a lane) is
// at one warp function; each wavefront's lanes get their results.
extern "C" void __gpusym_fast_warp(WaveCall *calls, const uint8_t *gone, uint32_t lanes) {
  uint32_t wave = this_executor().wave;
  for (uint32_t first = 0; first < lanes; first += wave) {
    uint32_t count = std::min(wave, lanes - first);
    uint64_t active = 0;
    for (uint32_t i = 0; i < count; i++) active |= uint64_t{gone[first + i] == 0} << i;
    if (active) resolve_wave(calls + first, count, active, wave);
  }
}

// Whether a debugger wants every lane debuggable from now on.
bool debugger_wants_every_lane() {
  return __atomic_load_n(&gpusym_debug.flags, __ATOMIC_RELAXED) &
         (GPUSYM_DEBUG_DEBUGGABLE_FORM | GPUSYM_DEBUG_DEBUGGER_INTEREST);
}

bool fast_form_wanted() { return !__gpusym_checks && !debugger_wants_every_lane(); }

// Whether a debugger may stop a lane of the kernel whose debuggable form
// starts at `entry`: one of gpusym_debug.kernel_interest.
static bool debugger_wants_kernel(const void *entry) {
  uint32_t count = __atomic_load_n(&gpusym_debug.kernel_interest_count, __ATOMIC_ACQUIRE);
  for (uint32_t i = 0; i < count && i < GPUSYM_DEBUG_INTEREST_SLOTS; i++)
    if (__atomic_load_n(&gpusym_debug.kernel_interest[i], __ATOMIC_RELAXED) == reinterpret_cast<uintptr_t>(entry))
      return true;
  return false;
}

void replay_fast_block() {
  Executor *executor = gpusym_executor;
  if (!executor || !executor->replay_armed) return;
  executor->replay_armed = false;
  sigset_t faults;
  sigemptyset(&faults);
  sigaddset(&faults, SIGSEGV);
  sigaddset(&faults, SIGBUS);
  pthread_sigmask(SIG_UNBLOCK, &faults, nullptr);
  siglongjmp(executor->replay, 1);
}

WaveLanes wave_lanes(const gpusym_lane *lane) {
  Executor &executor = this_executor();
  uint32_t wave = executor.wave, first = lane->flat_thread / wave * wave;
  WaveLanes lanes{executor.met, 0, 0};
  for (uint32_t i = 0; i < wave && i < 64; i++) {
    const gpusym_lane *other = executor.lanes + first + i;
    if (other >= executor.end || other->state == GPUSYM_LANE_EXITED)
      lanes.exited |= uint64_t{1} << i;
    else if (other->state == GPUSYM_LANE_AT_BARRIER || other->state == GPUSYM_LANE_HELD_AT_BARRIER)
      lanes.at_barrier |= uint64_t{1} << i;
  }
  return lanes;
}

namespace {

// The stack of lane `index`: its top, staggered by the index.
void *new_stack(size_t index) {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t total = lane_stack_size() + 2 * page;  // a guard page, and a page for staggering
  void *base = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED) {
    warn("cannot allocate a lane stack of %zu bytes", total);
    abort();
  }
  mprotect(base, page, PROT_NONE);  // guard page: an overflow faults
  return static_cast<char *>(base) + total - index * kStackColour % page;  // stacks grow down from the top
}

// Makes `lane` the one running on this CPU thread.
inline void enter(Executor &executor, gpusym_lane &lane) {
  lane.state = GPUSYM_LANE_RUNNING;
  __gpusym_lane = &lane;
  executor.record->lane = &lane;
  if (__atomic_load_n(&gpusym_debug.watch_count, __ATOMIC_RELAXED)) gpusym_watch_lane_entered(&lane);
}

// The next lane after `from`, in order and around, that waits at the barrier,
// made the running one; null when none waits.
gpusym_lane *resume_next(Executor &executor, gpusym_lane *from) {
  if (!executor.waited) return nullptr;
  gpusym_lane *lane = from + 1;
  for (;; lane++) {
    if (lane == executor.end) lane = executor.lanes;
    if (lane == from) return nullptr;
    if (lane->state == GPUSYM_LANE_AT_BARRIER) break;
  }
  enter(executor, *lane);
  return lane;
}

// Makes `lane` the running one on its own stack, and returns the stack
// pointer of a suspended context that goes on at gpusym_fiber_entry there
// (see fiber_switch.S).
//
// Lanes start in order, each when the one before it waits or exits, so the
// lanes not started yet always follow the last one started.  A lane that
// exits hands its stack to the next one if that has not started; so the
// lanes that run on a stack are a run of consecutive ones, and the stack of
// the first of them is free for it.
void *start(Executor &executor, gpusym_lane &lane) {
  size_t index = &lane - executor.lanes;
  if (!executor.stacks[index]) executor.stacks[index] = new_stack(index);
  // rbp, then where to go on.
  auto *frame = static_cast<uint64_t *>(executor.stacks[index]) - 2;
  frame[0] = 0;
  frame[1] = reinterpret_cast<uint64_t>(&gpusym_fiber_entry);
  enter(executor, lane);
  return frame;
}

// ---- warp functions: a wavefront's lanes meet ----
//
// A lane calling a warp function waits (GPUSYM_LANE_AT_WAVE_OP) while the
// lanes after it in its wavefront run in turn, up to a warp function, a
// barrier or their end.  When every lane of the wavefront has stopped, the
// lanes waiting at one call site (the lowest address first: the branch a
// divergent wavefront takes first, before the code after it) are the
// active lanes: each gets its result (waves.cpp) and they go on in order
// (GPUSYM_LANE_WAVE_OP_DONE), the others staying where they are.  Only
// when no lane of the wavefront waits in a warp function any more does the
// next wavefront run.  Meanwhile every switch is decided here: the lanes
// the barrier's fast paths (lane_switch.h) could take wrongly, those of the
// wavefront waiting at the next barrier and the next wavefront's first
// lane, are held (GPUSYM_LANE_HELD_*), a state those paths leave alone, so
// kernels without warp functions pay nothing for them.

bool wave_busy(const Executor &executor) { return executor.wave_waiting != 0 || executor.releasing; }

void hold(gpusym_lane &lane) {
  if (lane.state == GPUSYM_LANE_AT_BARRIER) lane.state = GPUSYM_LANE_HELD_AT_BARRIER;
  if (lane.state == GPUSYM_LANE_UNSTARTED) lane.state = GPUSYM_LANE_HELD_UNSTARTED;
}

void unhold(gpusym_lane &lane) {
  if (lane.state == GPUSYM_LANE_HELD_AT_BARRIER) lane.state = GPUSYM_LANE_AT_BARRIER;
  if (lane.state == GPUSYM_LANE_HELD_UNSTARTED) lane.state = GPUSYM_LANE_UNSTARTED;
}

// Makes `lane`, which waits at a barrier or has its warp function's result,
// the running one; returns it.
gpusym_lane *resume(Executor &executor, gpusym_lane *lane) {
  if (lane->state == GPUSYM_LANE_WAVE_OP_DONE) executor.wave_waiting--;
  enter(executor, *lane);
  return lane;
}

// Makes a lane not started yet the running one; returns it, its context in saved_sp.
gpusym_lane *start_lane(Executor &executor, gpusym_lane *lane) {
  lane->saved_sp = start(executor, *lane);
  return lane;
}

// The lanes waiting at the lowest call site get their results; returns the
// first of them.  The lanes of the wavefront at a barrier are held: they
// wait for every lane of the block.
gpusym_lane *meet(Executor &executor, gpusym_lane *first, gpusym_lane *end) {
  const void *site = nullptr;
  for (gpusym_lane *lane = first; lane < end; lane++) {
    const void *here = executor.calls[lane - executor.lanes].site;
    if (lane->state == GPUSYM_LANE_AT_WAVE_OP && (!site || here < site)) site = here;
  }
  uint64_t active = 0;
  for (gpusym_lane *lane = first; lane < end; lane++) {
    if (lane->state == GPUSYM_LANE_AT_WAVE_OP && executor.calls[lane - executor.lanes].site == site)
      active |= uint64_t{1} << (lane - first);
    hold(*lane);
  }
  resolve_wave(&executor.calls[first - executor.lanes], static_cast<uint32_t>(end - first), active, executor.wave);
  executor.met = active;
  if ((__gpusym_checks & kCheckRaces) &&
      executor.calls[first - executor.lanes + __builtin_ctzll(active)].op == GPUSYM_WAVE_SYNC)
    note_warp_sync(first, active);
  gpusym_lane *going = nullptr;
  for (gpusym_lane *lane = first; lane < end; lane++) {
    if (!(active >> (lane - first) & 1)) continue;
    lane->state = GPUSYM_LANE_WAVE_OP_DONE;
    if (!going) going = lane;
  }
  executor.releasing = true;
  return going;
}

// The lane to run after `stopped` (now waiting at a barrier or in a warp
// function, or exited) while a wavefront's lanes meet; null when the block
// has no lane left to run.
gpusym_lane *after_stop(Executor &executor, gpusym_lane *stopped) {
  gpusym_lane *first = executor.lanes + ((stopped - executor.lanes) & -static_cast<ptrdiff_t>(executor.wave));
  gpusym_lane *end = std::min(first + executor.wave, executor.end);
  for (gpusym_lane *lane = stopped + 1; lane < end; lane++) {
    if (executor.releasing) {
      if (lane->state == GPUSYM_LANE_WAVE_OP_DONE) return resume(executor, lane);
    } else if (lane->state == GPUSYM_LANE_UNSTARTED) {
      return start_lane(executor, lane);
    } else if (lane->state == GPUSYM_LANE_AT_BARRIER) {
      return resume(executor, lane);
    }
  }
  executor.releasing = false;
  for (gpusym_lane *lane = first; lane < end; lane++) {
    if (lane->state == GPUSYM_LANE_AT_WAVE_OP) return resume(executor, meet(executor, first, end));
  }
  // The wavefront is done: its lanes and the next wavefront's first go on as usual.
  for (gpusym_lane *lane = first; lane <= end && lane < executor.end; lane++) unhold(*lane);
  gpusym_lane *last = end - 1;
  if (end != executor.end && end->state == GPUSYM_LANE_UNSTARTED) return start_lane(executor, end);
  if (gpusym_lane *next = resume_next(executor, last)) return next;
  return last->state == GPUSYM_LANE_AT_BARRIER ? resume(executor, last) : nullptr;
}

// The coordinates of block number `block` (in linear order) of a grid.
gpusym_dim3 block_index(const LaunchConfig &config, uint64_t block) {
  return {static_cast<uint32_t>(block % config.grid.x), static_cast<uint32_t>(block / config.grid.x % config.grid.y),
          static_cast<uint32_t>(block / config.grid.x / config.grid.y)};
}

// The lanes of `block`: their coordinates are written for each new dispatch,
// then only the block's index and the states of the lanes that run (all,
// or the first alone in the fast form).
void prepare_lanes(Executor &executor, const Op &dispatch, const gpusym_dim3 &block_idx) {
  const LaunchConfig &config = dispatch.config;
  gpusym_dim3 grid{config.grid.x, config.grid.y, config.grid.z};
  gpusym_dim3 dim{config.block.x, config.block.y, config.block.z};
  uint32_t count = dim.x * dim.y * dim.z;
  uint32_t running = executor.fast ? 1 : count;  // the fast form loops over the block in one lane
  if (executor.lanes_dispatch != dispatch.id) {
    for (uint32_t i = 0; i < count; i++) {
      executor.lanes[i] = gpusym_lane{{i % dim.x, i / dim.x % dim.y, i / dim.x / dim.y},
                                      block_idx, dim, grid, dispatch.id, i,
                                      GPUSYM_LANE_UNSTARTED, nullptr};
    }
    executor.lanes_dispatch = dispatch.id;
  } else {
    for (uint32_t i = 0; i < running; i++) {
      executor.lanes[i].block_idx = block_idx;
      executor.lanes[i].state = GPUSYM_LANE_UNSTARTED;
    }
  }
  executor.end = executor.lanes + running;
  for (gpusym_lane *past = executor.end; past < executor.end + kLanesPast; past++) {
    past->state = GPUSYM_LANE_EXITED;
    past->saved_sp = executor.lanes;  // an address to prefetch
  }
  executor.waited = 0;
  executor.wave_waiting = 0;
  executor.releasing = false;
  executor.record->lanes = executor.lanes;
  executor.record->lane_count = running;
  executor.record->fast = executor.fast;
}

// Runs every lane of the block.  Lanes hand over to each other: one that
// waits at a barrier switches to the next lane in order that has not started
// or waits at the barrier too (see __gpusym_barrier), so every lane runs
// up to the barrier before any of them goes past it; the last lane to exit
// switches back here.  In the fast form, one lane that loops over the
// block's threads and never waits for another runs on this stack, called
// directly.
void run_block(Executor &executor, Op &dispatch, uint64_t block);

// Runs `block` of a fast dispatch in the debuggable form, counted in
// `counter` of its record.
void run_debuggable(Executor &executor, Op &dispatch, uint64_t block, uint64_t &counter) {
  executor.not_fast++;
  __atomic_fetch_add(&counter, 1, __ATOMIC_RELAXED);
  executor.fast = false;
  executor.kernel_entry = dispatch.kernel->entry;
  run_block(executor, dispatch, block);
  executor.fast = true;
  executor.kernel_entry = dispatch.kernel->fast_entry;
}

void run_block(Executor &executor, Op &dispatch, uint64_t block) {
  const gpusym_dim3 block_idx = block_index(dispatch.config, block);
  if (executor.fast) {
    // A debugger's breakpoints stop lanes of the debuggable form only.
    if (debugger_wants_every_lane() || debugger_wants_kernel(dispatch.kernel->entry) ||
        watch_names_block(dispatch.kernel->entry, block_idx))
      return run_debuggable(executor, dispatch, block, dispatch.record->blocks_debuggable);
    if (sigsetjmp(executor.replay, 0))  // a thread faulted: the debuggable form names it
      return run_debuggable(executor, dispatch, block, dispatch.record->blocks_replayed);
    executor.replay_armed = true;
  }
  prepare_lanes(executor, dispatch, block_idx);
  executor.record->block = block;
  watch_block_started(block_idx);
  if (executor.fast) {  // one lane loops over the block's threads: no stack of its own
    enter(executor, executor.lanes[0]);
    gpusym_call_kernel(executor.call_image, executor.kernel_entry);
    executor.lanes[0].state = GPUSYM_LANE_EXITED;
  } else {
    gpusym_fiber_switch(&executor.scheduler_sp, start(executor, executor.lanes[0]));
  }
  watch_block_finished(block_idx);
  executor.replay_armed = false;
  __gpusym_lane = nullptr;
  executor.record->lane = nullptr;
  executor.record->lane_count = 0;
  executor.record->fast = 0;
  if (__gpusym_checks & kCheckBarriers) check_barriers_passed(executor.lanes);
}

void observe(const Op &dispatch, gpusym_dispatch_state state) {
  if (gpusym_dispatch_observer *observer = dispatch_observer.load(std::memory_order_acquire))
    observer(dispatch.id, state, dispatch.record->form);
}

void set_state(Op &dispatch, gpusym_dispatch_state state, gpusym_debug_event event) {
  {
    std::lock_guard<std::mutex> lock(registry_mutex());
    dispatch.record->state = state;
    notify(event, dispatch.record - dispatch_records);
  }
  observe(dispatch, state);
}

// Records for a debugger that this worker has claimed blocks up to `end`
// (exclusive): blocks past every worker's claim have not started.
void claimed(Executor &executor, Op &dispatch, uint64_t end) {
  end = std::min(end, dispatch.total_blocks);
  executor.record->run_end = end;
  uint64_t seen = __atomic_load_n(&dispatch.record->blocks_claimed, __ATOMIC_RELAXED);
  while (seen < end && !__atomic_compare_exchange_n(&dispatch.record->blocks_claimed, &seen, end, true,
                                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED)) {
  }
}

// Under the scheduler's mutex: `ran` blocks of the dispatch the executor
// took have run, in the fast form but for those run in the debuggable form.
void count_fast_blocks(const Executor &executor, Op &dispatch, uint64_t ran) {
  if (executor.fast) dispatch.record->blocks_fast += ran - executor.not_fast;
}

// Under the scheduler's mutex: `dispatch` has run every block and every
// child launched before now.  Its next child goes to the workers; without
// one, it completes: in its stream, or as its parent's child.
void settle(Op *dispatch) {
  Scheduler &s = scheduler();
  for (;;) {
    if (dispatch->children_started < dispatch->children.size()) {
      Op *child = dispatch->children[dispatch->children_started++];
      child->started = true;
      child->in_runnable = true;
      s.runnable.push_back(child);
      s.posted++;
      if (!s.worker_spins) s.work.notify_one();
      return;
    }
    Op *parent = dispatch->parent;
    if (!parent) {
      complete(dispatch);
      return;
    }
    // Workers that claim blocks without the lock leave a dispatch whose
    // blocks they took all of in the queue.
    if (dispatch->in_runnable) s.runnable.erase(std::find(s.runnable.begin(), s.runnable.end(), dispatch));
    delete dispatch;
    dispatch = parent;
  }
}

// Under the scheduler's mutex: every block of the dispatch has run.
void complete_dispatch(Op *dispatch) {
  set_state(*dispatch, GPUSYM_DISPATCH_COMPLETE, GPUSYM_EVENT_DISPATCH_COMPLETED);
  settle(dispatch);
}

// Under the scheduler's mutex, released meanwhile: one block of a cooperative
// dispatch runs on this thread, counted as a worker counts its own.
void run_one_block(Executor &executor, std::unique_lock<std::mutex> &lock, Op *dispatch, uint64_t block) {
  lock.unlock();
  set_current_device(stream_device(dispatch->stream));
  executor.take(dispatch);
  claimed(executor, *dispatch, block + 1);
  run_block(executor, *dispatch, block);
  lock.lock();
  count_fast_blocks(executor, *dispatch, 1);
  if (++dispatch->done_blocks == dispatch->total_blocks) complete_dispatch(dispatch);
}

// A helper: runs lent blocks, one at a time.
void helper_main(uint32_t index) {
  char name[16];
  snprintf(name, sizeof name, "gpusym-c%u", index);
  pthread_setname_np(pthread_self(), name);
  Executor &executor = this_executor();
  Scheduler &s = scheduler();
  Helpers &h = helpers();
  std::unique_lock<std::mutex> lock(s.mutex);
  for (;;) {
    h.work.wait(lock, [&h] { return !h.lent.empty(); });
    Lent job = h.lent.front();
    h.lent.pop_front();
    h.idle--;
    run_one_block(executor, lock, job.dispatch, job.block);
    h.idle++;
  }
}

// Under the scheduler's mutex: blocks [first, end) of a cooperative dispatch
// run now, each on a helper.
void lend_blocks(Op *dispatch, uint64_t first, uint64_t end) {
  Helpers &h = helpers();
  for (uint64_t block = first; block < end; block++) h.lent.push_back({dispatch, block});
  while (h.idle < h.lent.size()) {
    std::thread(helper_main, h.count++).detach();
    h.idle++;
  }
  h.work.notify_all();
}

// Under the scheduler's mutex, `dispatch` first in the runnable queue: a
// cooperative dispatch of more blocks than workers runs its block 0 on this
// worker and lends the others to helpers.
void run_cooperative(Executor &executor, std::unique_lock<std::mutex> &lock, Op *dispatch) {
  Scheduler &s = scheduler();
  s.runnable.pop_front();
  dispatch->in_runnable = false;
  dispatch->next_block = dispatch->total_blocks;  // no worker claims any
  if (!s.runnable.empty()) s.work.notify_one();
  set_state(*dispatch, GPUSYM_DISPATCH_RUNNING, GPUSYM_EVENT_DISPATCH_STARTED);
  lend_blocks(dispatch, 1, dispatch->total_blocks);
  run_one_block(executor, lock, dispatch, 0);
}

void worker_main(uint32_t index) {
  char name[16];
  snprintf(name, sizeof name, "gpusym-w%u", index);
  pthread_setname_np(pthread_self(), name);
  Executor &executor = this_executor();
  Scheduler &s = scheduler();
  std::unique_lock<std::mutex> lock(s.mutex);
  bool ran_something = false;
  for (;;) {
    if (s.runnable.empty()) {
      // Right after running something, one worker spins for more.
      if (ran_something && !s.worker_spins) {
        s.worker_spins = true;
        uint64_t seen = s.posted;
        lock.unlock();
        spin_while(s.posted, seen);
        relock(lock);
        s.worker_spins = false;
      } else {
        s.work.wait(lock);
      }
      ran_something = false;
      continue;
    }
    ran_something = true;
    Op *op = s.runnable.front();
    if (op->kind != Op::kKernel) {  // a transfer or a host function
      s.runnable.pop_front();
      op->in_runnable = false;
      if (!s.runnable.empty()) s.work.notify_one();
      lock.unlock();
      run_operation(*op);
      lock.lock();
      if (op->parent)
        settle(op);
      else
        complete(op);
      continue;
    }
    // Blocks are claimed in runs of consecutive ones, so that each worker
    // goes through memory in order.  The first run is claimed under the
    // lock: a dispatch completes only when every claimed block is counted, so
    // it stays alive until this worker has counted its own.  Other workers
    // claim runs without the lock, so the last one may already be gone.
    if (op->config.cooperative && op->total_blocks > worker_count) {
      run_cooperative(executor, lock, op);
      continue;
    }
    uint64_t run = std::clamp<uint64_t>(op->total_blocks / (16 * worker_count), 1, kMaxRun);
    uint64_t block = op->next_block.fetch_add(run);
    if (block + run >= op->total_blocks) {  // every block is taken: no more for the workers
      s.runnable.pop_front();
      op->in_runnable = false;
      if (block >= op->total_blocks) continue;
    }
    if (!s.runnable.empty()) s.work.notify_one();  // blocks or other work left
    if (op->record->state == GPUSYM_DISPATCH_QUEUED)
      set_state(*op, GPUSYM_DISPATCH_RUNNING, GPUSYM_EVENT_DISPATCH_STARTED);
    lock.unlock();
    set_current_device(stream_device(op->stream));
    executor.take(op);
    uint64_t ran = 0;
    do {
      claimed(executor, *op, block + run);
      for (uint64_t end = std::min(block + run, op->total_blocks); block < end; block++, ran++)
        run_block(executor, *op, block);
    } while ((block = op->next_block.fetch_add(run)) < op->total_blocks);
    lock.lock();
    count_fast_blocks(executor, *op, ran);
    op->done_blocks += ran;
    if (op->done_blocks == op->total_blocks) complete_dispatch(op);
  }
}

// The launching thread's return addresses, from the caller of the launch
// call outwards (the runtime's own frames left out).
__attribute__((noinline)) void capture_host_stack(gpusym_debug_dispatch &record) {
  void *frames[GPUSYM_DEBUG_HOST_FRAMES + 8];
  int count = backtrace(frames, GPUSYM_DEBUG_HOST_FRAMES + 8);
  Dl_info here, frame;
  dladdr(reinterpret_cast<void *>(&capture_host_stack), &here);
  int first = 0;
  while (first < count && dladdr(frames[first], &frame) && frame.dli_fbase == here.dli_fbase) first++;
  record.host_frame_count = 0;
  for (int i = first; i < count && record.host_frame_count < GPUSYM_DEBUG_HOST_FRAMES; i++)
    record.host_frames[record.host_frame_count++] = reinterpret_cast<uint64_t>(frames[i]);
}

// The record of a dispatch queued on `stream`, its host frames not captured.
gpusym_debug_dispatch describe_dispatch(const Op &dispatch, const ihipStream_t *stream) {
  const LaunchConfig &config = dispatch.config;
  const Kernel &kernel = *dispatch.kernel;
  return gpusym_debug_dispatch{
      .id = dispatch.id,
      .state = GPUSYM_DISPATCH_QUEUED,
      .kernel_index = kernel.index,
      .grid = {config.grid.x, config.grid.y, config.grid.z},
      .block = {config.block.x, config.block.y, config.block.z},
      .shared_mem = config.shared_mem,
      .stream = config.stream,
      .host_thread = current_os_thread(),
      .device = static_cast<uint32_t>(stream_device(stream)),
      .host_frame_count = 0,  // publish_dispatch fills the host frames, if captured
      .host_frames = {},
      .stream_id = stream_id(stream),
      .blocks_claimed = 0,
      .wave_size = kernel.wave_size,
      .form = !kernel.fast_entry ? GPUSYM_FORM_DEBUG_ONLY
              : fast_form_wanted() && !debugger_wants_kernel(kernel.entry) ? GPUSYM_FORM_FAST
                                   : GPUSYM_FORM_DEBUGGABLE,
      .blocks_fast = 0,
      .blocks_replayed = 0,
      .blocks_debuggable = 0,
      .parent_id = dispatch.parent ? dispatch.parent->id : 0,
  };
}

// Under the scheduler's mutex: shows the debugger a dispatch just queued on
// `stream`, in its record (the slot dispatch.record) and in gpusym_debug,
// with its launching thread's frames when a debugger asks for them (a
// lane's, of a launch by device code, are not taken).
void publish_dispatch(const Op &dispatch, const ihipStream_t *stream, bool host_frames = true) {
  gpusym_debug_dispatch &record = *dispatch.record;
  std::lock_guard<std::mutex> lock(registry_mutex());
  record = describe_dispatch(dispatch, stream);
  if (host_frames && (gpusym_debug.flags & GPUSYM_DEBUG_CAPTURE_HOST_STACKS)) capture_host_stack(record);
  gpusym_debug.dispatches = dispatch_records;
  gpusym_debug.dispatch_count = dispatch.id;
  gpusym_debug.kernels[dispatch.kernel->index].launch_count++;
  gpusym_launch_state.dispatch_id = dispatch.id;
  notify(GPUSYM_EVENT_DISPATCH_QUEUED, &record - dispatch_records);
}

}  // namespace

size_t lane_stack_size() {
  static const size_t size = static_cast<size_t>(env_long("GPUSYM_STACK_SIZE", 256 * 1024));
  return size;
}

const Kernel &running_kernel() { return *this_executor().dispatch->kernel; }

int running_device() { return stream_device(this_executor().dispatch->stream); }

namespace {

// Makes `lane`, whose `call` is a warp function, wait for its wavefront;
// returns the lane to run next (`lane` itself when it goes on at once), null
// for the scheduler.
gpusym_lane *meet_wavefront(Executor &executor, gpusym_lane *lane, const WaveCall &call) {
  executor.calls[lane - executor.lanes] = call;
  if (!wave_busy(executor)) {  // the first lane of its wavefront to meet: the next wavefront waits
    gpusym_lane *end = executor.lanes + ((lane - executor.lanes) & -static_cast<ptrdiff_t>(executor.wave)) + executor.wave;
    if (end < executor.end) hold(*end);
  }
  lane->state = GPUSYM_LANE_AT_WAVE_OP;
  executor.wave_waiting++;
  executor.waited = 1;
  return after_stop(executor, lane);
}

}  // namespace

// A warp function of device code (device_builtins.h): waits for the lanes
// of the wavefront, then returns this lane's result.
extern "C" __attribute__((visibility("default"), nodebug)) uint64_t __gpusym_wave_op(uint32_t op, uint64_t value,
                                                                           int64_t arg, int32_t width) {
  Executor &executor = *gpusym_executor;
  gpusym_lane *lane = __gpusym_lane;
  const void *site = op == GPUSYM_WAVE_STEP ? reinterpret_cast<const void *>(kStepSite) : __builtin_return_address(0);
  gpusym_lane *next = meet_wavefront(executor, lane, WaveCall{op, width, value, arg, site, 0});
  if (next != lane) gpusym_fiber_switch(&lane->saved_sp, next ? next->saved_sp : executor.scheduler_sp);
  return executor.calls[lane - executor.lanes].result;
}

// Called by __gpusym_wave_meet (a warp function) and __gpusym_wave_step (a
// lockstep access to __shared__ memory) in fiber_switch.S, when the next
// lane in order has no result of the last meeting to go on with; the lane's
// call is recorded and `sp` is its context.  Returns the context to
// switch to.
extern "C" __attribute__((visibility("hidden"))) void *gpusym_wave_meet_sp(void *sp) {
  Executor &executor = *gpusym_executor;
  gpusym_lane *lane = __gpusym_lane;
  lane->saved_sp = sp;
  gpusym_lane *next = meet_wavefront(executor, lane, executor.calls[lane - executor.lanes]);
  return next ? next->saved_sp : executor.scheduler_sp;
}

// The grid barrier of a cooperative launch (hip_cooperative_groups.h), for
// one lane of each block between two of its barriers: the last block to
// arrive lets them all go on.
extern "C" __attribute__((visibility("default"), nodebug)) void __gpusym_grid_arrive(void) {
  Op &op = *gpusym_executor->dispatch;
  uint64_t generation = op.grid_generation.load(std::memory_order_acquire);
  if (op.grid_arrived.fetch_add(1, std::memory_order_acq_rel) + 1 == op.total_blocks) {
    op.grid_arrived.store(0, std::memory_order_relaxed);
    op.grid_generation.fetch_add(1, std::memory_order_release);
    return;
  }
  while (!spin_while(op.grid_generation, generation)) std::this_thread::yield();
}

// Whether the running kernel was launched cooperatively (grid_group::is_valid).
extern "C" __attribute__((visibility("default"), nodebug)) int __gpusym_grid_is_cooperative(void) {
  return gpusym_executor->dispatch->config.cooperative;
}

// Called by __gpusym_barrier (fiber_switch.S) when the next lane in order
// does not simply wait at the barrier, with the stack pointer of the running
// lane, which waits there; and by gpusym_lane_exit for a lane that has
// exited.  Makes the next lane in order that has not started or waits at the
// barrier the running one and returns its stack pointer, so that every lane
// runs up to the barrier before any goes past it.  When no other lane is
// left, the waiting lane goes on, and after the last exit the scheduler does.
extern "C" __attribute__((visibility("hidden"))) void *gpusym_next_sp(void *sp) {
  Executor &executor = *gpusym_executor;
  gpusym_lane *lane = __gpusym_lane;
  if (wave_busy(executor)) {
    if (sp) {
      lane->saved_sp = sp;
      lane->state = GPUSYM_LANE_AT_BARRIER;
      executor.waited = 1;
    }
    gpusym_lane *next = after_stop(executor, lane);
    return next ? next->saved_sp : executor.scheduler_sp;
  }
  if (lane->state == GPUSYM_LANE_EXITED) {
    gpusym_lane *next = resume_next(executor, lane);
    return next ? next->saved_sp : executor.scheduler_sp;
  }
  gpusym_lane *next = lane + 1;
  if (next != executor.end && next->state == GPUSYM_LANE_UNSTARTED) {
    lane->saved_sp = sp;
    lane->state = GPUSYM_LANE_AT_BARRIER;
    executor.waited = 1;
    return start(executor, *next);
  }
  next = resume_next(executor, lane);
  if (!next) return sp;
  lane->saved_sp = sp;
  lane->state = GPUSYM_LANE_AT_BARRIER;
  return next->saved_sp;
}

bool launch_blocking() {
  static const bool blocking = env_long("GPUSYM_LAUNCH_BLOCKING", 0) != 0;
  return blocking;
}

void start_workers() {
  if (workers_started) return;
  long count = env_long("GPUSYM_WORKERS", std::thread::hardware_concurrency());
  worker_count = static_cast<uint64_t>(count < 1 ? 1 : count);
  for (uint32_t i = 0; i < worker_count; i++) std::thread(worker_main, i).detach();
  workers_started = true;
}

namespace {

// The dispatch of `kernel` with `config` and its arguments' call image, or
// null with `error` set when the kernel or its arguments cannot be launched.
std::unique_ptr<Op> new_dispatch(Kernel &kernel, const LaunchConfig &config, void **args, hipError_t &error) {
  const Signature &signature = kernel_signature(kernel);
  error = !signature.error.empty()                  ? hipErrorInvalidDeviceFunction
          : !args && !signature.params.empty() ? hipErrorInvalidValue
                                               : hipSuccess;
  if (error != hipSuccess) return nullptr;
  auto dispatch = std::make_unique<Op>(Op::kKernel);
  dispatch->kernel = &kernel;
  dispatch->config = config;
  dispatch->total_blocks = uint64_t{config.grid.x} * config.grid.y * config.grid.z;
  dispatch->call = call_image(signature, args);
  return dispatch;
}

}  // namespace

hipError_t launch(Kernel &kernel, const LaunchConfig &config, void **args) {
  hipError_t error;
  std::unique_ptr<Op> dispatch = new_dispatch(kernel, config, args, error);
  if (!dispatch) return error;
  if (config.cooperative) {  // a grid barrier waits for every block: each needs a thread
    start_workers();
    if (dispatch->total_blocks > std::max(worker_count, kMaxCooperativeBlocks)) return hipErrorCooperativeLaunchTooLarge;
  }
  if (captured(dispatch.get(), config.stream)) {  // recorded into the graph the stream captures
    dispatch.release();
    return hipSuccess;
  }
  return queue_dispatch(std::move(dispatch));
}

hipError_t queue_dispatch(std::unique_ptr<Op> dispatch) {
  const LaunchConfig &config = dispatch->config;
  Scheduler &s = scheduler();
  std::unique_lock<std::mutex> lock(s.mutex);
  // A full ring is a full hardware queue: wait for the oldest launch.  The id
  // is taken only then, so ids follow the order of the queue.
  s.done.wait(lock, [] {
    uint32_t state = dispatch_records[launches % GPUSYM_DEBUG_DISPATCH_SLOTS].state;
    return state == GPUSYM_DISPATCH_FREE || state == GPUSYM_DISPATCH_COMPLETE;
  });
  // As HIP (and CUDA): a launch on a stream of another device than the
  // current one fails.
  ihipStream_t *stream = find_stream(config.stream);
  if (!stream || stream_device(stream) != current_device()) return hipErrorInvalidHandle;
  dispatch->id = ++launches;
  dispatch->record = &dispatch_records[(dispatch->id - 1) % GPUSYM_DEBUG_DISPATCH_SLOTS];
  dispatch->caller_runs = launch_blocking() && !config.cooperative;
  publish_dispatch(*dispatch, stream);
  observe(*dispatch, GPUSYM_DISPATCH_QUEUED);

  Op *op = dispatch.release();
  if (!op->caller_runs) {
    start_workers();
    enqueue(op, stream);
    if (!config.cooperative || !launch_blocking()) return hipSuccess;
    lock.unlock();  // GPUSYM_LAUNCH_BLOCKING=1: the launch returns when done, its blocks on workers
    return synchronize_stream(config.stream);
  }
  // Run it here, once its turn has come in its stream, and return when done.
  enqueue(op, stream);
  wait_turn(lock, op);
  lock.unlock();
  set_state(*op, GPUSYM_DISPATCH_RUNNING, GPUSYM_EVENT_DISPATCH_STARTED);
  Executor &executor = this_executor();
  executor.take(op);
  op->next_block = op->total_blocks;  // no worker takes its blocks
  claimed(executor, *op, op->total_blocks);
  for (uint64_t block = 0; block < op->total_blocks; block++) run_block(executor, *op, block);
  lock.lock();
  count_fast_blocks(executor, *op, op->total_blocks);
  complete_dispatch(op);
  return hipSuccess;
}

bool in_device_code() { return __gpusym_lane && gpusym_executor && gpusym_executor->dispatch; }

namespace {

// A child (see Op::parent) of the running block's dispatch: a kernel gets
// its id and record, shown to a debugger unless the ring is full.
void adopt(std::unique_ptr<Op> child) {
  Op *parent = gpusym_executor->dispatch;
  child->parent = parent;
  child->stream = parent->stream;
  Scheduler &s = scheduler();
  std::lock_guard<std::mutex> lock(s.mutex);
  start_workers();  // the launching block may run on the thread that launched its dispatch
  if (child->kind == Op::kKernel) {
    child->config.stream = parent->config.stream;  // a stream of the device's own is its parent's
    child->id = ++launches;
    gpusym_debug_dispatch &slot = dispatch_records[(child->id - 1) % GPUSYM_DEBUG_DISPATCH_SLOTS];
    if (slot.state == GPUSYM_DISPATCH_FREE || slot.state == GPUSYM_DISPATCH_COMPLETE) {
      child->record = &slot;
      publish_dispatch(*child, child->stream, false);
    } else {  // the ring is full of dispatches not done, which may wait for this one
      child->own_record = std::make_unique<gpusym_debug_dispatch>(describe_dispatch(*child, child->stream));
      child->record = child->own_record.get();
    }
    observe(*child, GPUSYM_DISPATCH_QUEUED);
  }
  parent->children.push_back(child.release());
}

}  // namespace

hipError_t launch_child(Kernel &kernel, const LaunchConfig &config, void **args) {
  hipError_t error;
  std::unique_ptr<Op> child = new_dispatch(kernel, config, args, error);
  if (child) adopt(std::move(child));
  return error;
}

void transfer_child(const Transfer &transfer) {
  auto child = std::make_unique<Op>(Op::kTransfer);
  child->transfer = transfer;
  adopt(std::move(child));
}

}  // namespace gpusym

extern "C" void gpusym_observe_dispatches(gpusym_dispatch_observer *observer) {
  gpusym::dispatch_observer.store(observer, std::memory_order_release);
}
