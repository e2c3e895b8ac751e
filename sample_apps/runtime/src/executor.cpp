// Execution of dispatches and copies on CPU threads.
//
// Every stream is an in-order queue (streams.cpp); one pool of worker threads
// serves them all, so kernels of different streams may run at once.  Workers
// take blocks of the oldest started dispatch that has blocks left (and the
// copies whose turn has come); each block runs wholly on one worker, its
// lanes (simulated GPU threads) one after another on their own small stacks.
// A lane that calls __syncthreads() switches back to the block's scheduler,
// which runs every other lane up to the barrier before resuming any of them.
// A lane that never waits finishes in one go and hands its stack to the next.
#include <dlfcn.h>
#include <execinfo.h>
#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <thread>

#include "internal.h"

extern "C" {
__thread __attribute__((tls_model("initial-exec"), visibility("default")))
gpusym_lane *__gpusym_lane = nullptr;

void gpusym_fiber_switch(void **save_sp, void *load_sp);
void gpusym_fiber_entry(void);
void gpusym_call_kernel(const uint64_t *image, void *kernel);
}
static_assert(gpusym::kCallStackWords == 0 && gpusym::kCallUsesSse == 1 && gpusym::kCallGpr == 2 &&
                  gpusym::kCallSse == 8 && gpusym::kCallStack == 16,
              "call_kernel.S reads the call image at these words");

namespace gpusym {

namespace {

constexpr uint32_t kMaxLanes = 1024;
constexpr uint32_t kMaxExecutors = 256;

// Kernel launches so far (under the scheduler's mutex): the next dispatch id.
uint64_t launches = 0;
bool workers_started = false;

gpusym_debug_dispatch dispatch_records[GPUSYM_DEBUG_DISPATCH_SLOTS];
// Each worker writes its record at every lane it starts: one cache line each,
// or workers slow each other down.
alignas(64) gpusym_debug_executor executor_records[kMaxExecutors];
static_assert(sizeof(gpusym_debug_executor) == 64);


// A CPU thread that runs lanes: its lanes, their stacks, its scheduler context.
struct Executor {
  gpusym_debug_executor *record;
  gpusym_lane lanes[kMaxLanes];
  std::vector<void *> free_stacks;
  void *fiber_stack = nullptr;   // stack of the fiber being started
  void *scheduler_sp = nullptr;
  Op *dispatch = nullptr;         // the kernel whose block runs
  uint32_t lane_count = 0;       // lanes in the block being run
  uint32_t next_unstarted = 0;   // first lane not started yet

  Executor() {
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
};

Executor &this_executor() {
  static thread_local Executor *executor = new Executor;
  return *executor;
}

void *new_stack() {
  size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  size_t total = lane_stack_size() + page;
  void *base = mmap(nullptr, total, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED) {
    warn("cannot allocate a lane stack of %zu bytes", total);
    abort();
  }
  mprotect(base, page, PROT_NONE);  // guard page: an overflow faults
  return static_cast<char *>(base) + total;  // stacks grow down from the top
}

// Makes `lane` the one running on this CPU thread.
void enter(Executor &executor, gpusym_lane &lane) {
  lane.state = GPUSYM_LANE_RUNNING;
  __gpusym_lane = &lane;
  executor.record->lane = &lane;
}

// Runs lanes from the start on one stack: when a lane exits without having
// waited at a barrier, the next unstarted lane of the block takes over its
// stack directly.  Switches back to the scheduler when the lane running waits
// at a barrier (it keeps the stack) or when no unstarted lane is left.
[[noreturn]] void lane_main(gpusym_lane *lane) {
  Executor &executor = this_executor();
  Op &dispatch = *executor.dispatch;
  void *stack = executor.fiber_stack;
  for (;;) {
    gpusym_call_kernel(dispatch.call.data(), dispatch.kernel->entry);
    lane->state = GPUSYM_LANE_EXITED;
    if (executor.next_unstarted == executor.lane_count) break;
    lane = &executor.lanes[executor.next_unstarted++];
    enter(executor, *lane);
  }
  executor.free_stacks.push_back(stack);
  gpusym_fiber_switch(&lane->saved_sp, executor.scheduler_sp);
  __builtin_unreachable();
}

// Starts the next unstarted lane on a fresh stack.
void start_next(Executor &executor) {
  gpusym_lane &lane = executor.lanes[executor.next_unstarted++];
  if (executor.free_stacks.empty()) executor.free_stacks.push_back(new_stack());
  void *top = executor.free_stacks.back();
  executor.free_stacks.pop_back();
  executor.fiber_stack = top;
  // The frame gpusym_fiber_switch pops: MXCSR and x87 control word, r15,
  // r14, r13 (function), r12 (lane), rbx, rbp, then the return address.
  auto *frame = static_cast<uint64_t *>(top) - 8;
  frame[0] = 0x1f80 | (uint64_t{0x037f} << 32);
  frame[1] = frame[2] = 0;
  frame[3] = reinterpret_cast<uint64_t>(&lane_main);
  frame[4] = reinterpret_cast<uint64_t>(&lane);
  frame[5] = frame[6] = 0;
  frame[7] = reinterpret_cast<uint64_t>(&gpusym_fiber_entry);
  enter(executor, lane);
  gpusym_fiber_switch(&executor.scheduler_sp, frame);
}

// Resumes a lane waiting at a barrier until it waits again or exits.
void resume(Executor &executor, gpusym_lane &lane) {
  enter(executor, lane);
  gpusym_fiber_switch(&executor.scheduler_sp, lane.saved_sp);
}

void run_block(Executor &executor, Op &dispatch, uint64_t block) {
  const LaunchConfig &config = dispatch.config;
  gpusym_dim3 grid{config.grid.x, config.grid.y, config.grid.z};
  gpusym_dim3 dim{config.block.x, config.block.y, config.block.z};
  gpusym_dim3 block_idx{static_cast<uint32_t>(block % grid.x),
                        static_cast<uint32_t>(block / grid.x % grid.y),
                        static_cast<uint32_t>(block / grid.x / grid.y)};
  uint32_t count = dim.x * dim.y * dim.z;
  for (uint32_t i = 0; i < count; i++) {
    executor.lanes[i] = gpusym_lane{{i % dim.x, i / dim.x % dim.y, i / dim.x / dim.y},
                                    block_idx, dim, grid, dispatch.id, i,
                                    GPUSYM_LANE_UNSTARTED, nullptr};
  }
  executor.lane_count = count;
  executor.next_unstarted = 0;
  executor.record->lanes = executor.lanes;
  executor.record->lane_count = count;
  // First round: every lane runs up to its first barrier (or to its end).
  while (executor.next_unstarted < count) start_next(executor);
  // Each further round releases the barrier: every waiting lane runs on to
  // its next barrier before any of them is resumed again.
  for (bool waiting = true; waiting;) {
    waiting = false;
    for (uint32_t i = 0; i < count; i++) {
      gpusym_lane &lane = executor.lanes[i];
      if (lane.state != GPUSYM_LANE_AT_BARRIER) continue;
      resume(executor, lane);
      waiting |= lane.state == GPUSYM_LANE_AT_BARRIER;
    }
  }
  __gpusym_lane = nullptr;
  executor.record->lane = nullptr;
  executor.record->lane_count = 0;
}

void set_state(Op &dispatch, gpusym_dispatch_state state, gpusym_debug_event event) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  dispatch.record->state = state;
  notify(event, dispatch.record - dispatch_records);
}

// Under the scheduler's mutex: every block of the dispatch has run.
void complete_dispatch(Op *dispatch) {
  set_state(*dispatch, GPUSYM_DISPATCH_COMPLETE, GPUSYM_EVENT_DISPATCH_COMPLETED);
  complete(dispatch);
}

void worker_main(uint32_t index) {
  char name[16];
  snprintf(name, sizeof name, "gpusym-w%u", index);
  pthread_setname_np(pthread_self(), name);
  Executor &executor = this_executor();
  Scheduler &s = scheduler();
  std::unique_lock<std::mutex> lock(s.mutex);
  for (;;) {
    s.work.wait(lock, [&s] { return !s.runnable.empty(); });
    Op *op = s.runnable.front();
    if (op->kind != Op::kKernel) {  // a copy or a memset
      s.runnable.pop_front();
      op->in_runnable = false;
      lock.unlock();
      run_transfer(*op);
      lock.lock();
      complete(op);
      continue;
    }
    // The first block is claimed under the lock: a dispatch completes only
    // when every claimed block is counted, so it stays alive until this
    // worker has counted its own.  Other workers claim blocks without the
    // lock, so the last one may already be gone.
    uint64_t block = op->next_block.fetch_add(1);
    if (block + 1 >= op->total_blocks) {  // every block is taken: no more for the workers
      s.runnable.pop_front();
      op->in_runnable = false;
      if (block >= op->total_blocks) continue;
    }
    if (op->record->state == GPUSYM_DISPATCH_QUEUED)
      set_state(*op, GPUSYM_DISPATCH_RUNNING, GPUSYM_EVENT_DISPATCH_STARTED);
    lock.unlock();
    set_current_device(stream_device(op->stream));
    executor.dispatch = op;
    uint64_t ran = 0;
    do {
      run_block(executor, *op, block);
      ran++;
    } while ((block = op->next_block.fetch_add(1)) < op->total_blocks);
    lock.lock();
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

}  // namespace

size_t lane_stack_size() {
  static const size_t size = static_cast<size_t>(env_long("GPUSYM_STACK_SIZE", 256 * 1024));
  return size;
}

const Kernel &running_kernel() { return *this_executor().dispatch->kernel; }

// Called by device code: wait at the block's barrier.
extern "C" void __gpusym_syncthreads(void) {
  gpusym_lane *lane = __gpusym_lane;
  lane->state = GPUSYM_LANE_AT_BARRIER;
  gpusym_fiber_switch(&lane->saved_sp, this_executor().scheduler_sp);
}

bool launch_blocking() {
  static const bool blocking = env_long("GPUSYM_LAUNCH_BLOCKING", 0) != 0;
  return blocking;
}

void start_workers() {
  if (workers_started) return;
  long count = env_long("GPUSYM_WORKERS", std::thread::hardware_concurrency());
  for (uint32_t i = 0; i < static_cast<uint32_t>(count < 1 ? 1 : count); i++)
    std::thread(worker_main, i).detach();
  workers_started = true;
}

hipError_t launch(Kernel &kernel, const LaunchConfig &config, void **args) {
  const Signature &signature = kernel_signature(kernel);
  if (!signature.error.empty()) return hipErrorInvalidDeviceFunction;
  if (!args && !signature.params.empty()) return hipErrorInvalidValue;

  auto dispatch = std::make_unique<Op>(Op::kKernel);
  dispatch->kernel = &kernel;
  dispatch->config = config;
  dispatch->total_blocks = uint64_t{config.grid.x} * config.grid.y * config.grid.z;
  dispatch->call = call_image(signature, args);

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
  gpusym_debug_dispatch *record = &dispatch_records[(dispatch->id - 1) % GPUSYM_DEBUG_DISPATCH_SLOTS];
  dispatch->record = record;
  dispatch->caller_runs = launch_blocking();
  {
    std::lock_guard<std::mutex> registry_lock(registry_mutex());
    *record = gpusym_debug_dispatch{dispatch->id, GPUSYM_DISPATCH_QUEUED, kernel.index,
                                    {config.grid.x, config.grid.y, config.grid.z},
                                    {config.block.x, config.block.y, config.block.z},
                                    config.shared_mem, config.stream, current_os_thread(),
                                    static_cast<uint32_t>(stream_device(stream)), 0, {}, stream_id(stream)};
    if (gpusym_debug.flags & GPUSYM_DEBUG_CAPTURE_HOST_STACKS) capture_host_stack(*record);
    gpusym_debug.dispatches = dispatch_records;
    gpusym_debug.dispatch_count = dispatch->id;
    gpusym_debug.kernels[kernel.index].launch_count++;
    gpusym_launch_state.dispatch_id = dispatch->id;
    notify(GPUSYM_EVENT_DISPATCH_QUEUED, record - dispatch_records);
  }

  Op *op = dispatch.release();
  if (!op->caller_runs) {
    start_workers();
    enqueue(op, stream);
    return hipSuccess;
  }
  // Run it here, once its turn has come in its stream, and return when done.
  enqueue(op, stream);
  wait_turn(lock, op);
  lock.unlock();
  set_state(*op, GPUSYM_DISPATCH_RUNNING, GPUSYM_EVENT_DISPATCH_STARTED);
  Executor &executor = this_executor();
  executor.dispatch = op;
  op->next_block = op->total_blocks;  // no worker takes its blocks
  for (uint64_t block = 0; block < op->total_blocks; block++) run_block(executor, *op, block);
  lock.lock();
  complete_dispatch(op);
  return hipSuccess;
}

}  // namespace gpusym
