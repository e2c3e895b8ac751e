// Faults in kernels: an access to memory outside every live allocation
// (SIGSEGV, SIGBUS), a lane's stack overflow, a failed device assert(), a
// device abort().
//
// The first one is reported once, on stderr, naming the kernel, the
// dispatch, the block and the thread and what went wrong; it is recorded in
// gpusym_debug.fault; then the process ends as a GPU program's does when its
// kernel fails: with SIGSEGV or SIGBUS for a memory fault (by the signal's
// default action, so that a core dump shows the faulting instruction), with
// SIGABRT for assert() and abort().  A lane that faults while another's
// fault is being reported waits for the end.
//
// A failed assert() of a CUDA program is CUDA's instead (end_cuda_lane):
// the program goes on, and its device's context has failed.
//
// Only a fault of a thread while it runs a lane is the runtime's.  Any other
// goes to the handler installed before the runtime's (the runtime chains to
// it), or ends the process as it would have without the runtime.
//
// Under a debugger, the debugger sees the signal first, as an ordinary stop;
// the gdb extension explains it from the same allocation table.
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "internal.h"

extern "C" __thread __attribute__((tls_model("initial-exec"))) gpusym_lane *__gpusym_lane;
// The lane switches of fiber_switch.S: the running lane waits at its block's
// barrier; the running lane, which has exited, leaves its stack for good.
extern "C" __attribute__((preserve_none)) void __gpusym_barrier(void);
extern "C" [[noreturn]] __attribute__((visibility("hidden"))) void gpusym_lane_exit(void);

namespace gpusym {

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS};
constexpr size_t kAltStackSize = 64 * 1024;
// A fault this close below a lane's stack pointer (or within a page above
// it) hit the guard page under the lane's stack: the stack overflowed.
constexpr uintptr_t kStackReach = 64 * 1024;

struct sigaction previous_actions[2];
uintptr_t page_size = 4096;

std::atomic<long> reporter{0};  // the thread reporting the first fault, 0 before
gpusym_debug_fault fault_record;
char message[2048];             // the report, without "gpusym: "
char line[sizeof message + 16];
char hint[256];                 // a line after the report, on stderr only; empty: none

const struct sigaction &previous_action(int signal) { return previous_actions[signal == SIGBUS ? 1 : 0]; }

// Waits a bounded time for a mutex that another thread holds briefly: a
// handler must not wait forever on a thread that may be stopped itself.
bool lock_briefly(std::mutex &mutex) {
  for (int attempt = 0; attempt < 1000; attempt++) {
    if (mutex.try_lock()) return true;
    timespec pause{0, 1000000};
    nanosleep(&pause, nullptr);
  }
  return false;
}

// Whether this thread reports: the first to fail does.  A thread failing
// while another reports waits until the process ends; the reporting thread
// failing again (in the report itself) gets false and ends at once.
bool claim_report() {
  long self = syscall(SYS_gettid);
  long expected = 0;
  if (reporter.compare_exchange_strong(expected, self)) return true;
  if (expected == self) return false;
  for (;;) pause();
}

// "kernel 'NAME' (dispatch N) block (x,y,z) thread (x,y,z): ", and the lane's fields of `fault`.
int lane_prefix(gpusym_lane *lane, gpusym_debug_fault &fault) {
  fault.os_thread = static_cast<uint64_t>(syscall(SYS_gettid));
  if (!lane) return snprintf(message, sizeof message, "device code: ");
  const Kernel &kernel = running_kernel();
  fault.dispatch_id = lane->dispatch_id;
  fault.kernel_index = kernel.index;
  fault.block = lane->block_idx;
  fault.thread = lane->thread_idx;
  return snprintf(message, sizeof message, "kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u) thread (%u,%u,%u): ",
                  kernel.display_name.c_str(), lane->dispatch_id, lane->block_idx.x, lane->block_idx.y,
                  lane->block_idx.z, lane->thread_idx.x, lane->thread_idx.y, lane->thread_idx.z);
}

// Prints the report in one write and hands the record to the debugger.
void publish(gpusym_debug_fault &fault) {
  fault.message = message;
  int length = snprintf(line, sizeof line, "gpusym: %s\n%s", message, hint);
  if (length > static_cast<int>(sizeof line) - 1) length = sizeof line - 1;
  for (int done = 0; done < length;) {
    ssize_t wrote = write(STDERR_FILENO, line + done, length - done);
    if (wrote <= 0 && errno != EINTR) break;
    if (wrote > 0) done += wrote;
  }
  bool locked = lock_briefly(registry_mutex());
  gpusym_debug.fault = &fault;
  if (locked) {
    notify(GPUSYM_EVENT_FAULT, 0);
    registry_mutex().unlock();
  }
}

// Ends the process with `signal` as its default action would: a fault the
// processor raised by returning to the faulting instruction with the default
// disposition, a signal some process sent by sending it again (it stays
// pending until the handler returns).
void end_with(int signal, siginfo_t *info) {
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, nullptr);
  if (info->si_code <= 0) raise(signal);
}

// A fault that is not a lane's: for the handler installed before ours.
void chain(int signal, siginfo_t *info, void *context) {
  const struct sigaction &previous = previous_action(signal);
  if (previous.sa_flags & SA_SIGINFO) {
    if (previous.sa_sigaction) previous.sa_sigaction(signal, info, context);
  } else if (previous.sa_handler == SIG_IGN && info->si_code <= 0) {
    // a sent signal the program ignores
  } else if (previous.sa_handler == SIG_DFL || previous.sa_handler == SIG_IGN) {
    end_with(signal, info);  // a fault cannot be ignored: the kernel kills for it
  } else {
    previous.sa_handler(signal);
  }
}

void report_memory_fault(int signal, siginfo_t *info, ucontext_t *context, gpusym_lane *lane) {
  gpusym_debug_fault &fault = fault_record;
  fault = {};
  fault.kind = GPUSYM_FAULT_MEMORY;
  fault.signal = static_cast<uint32_t>(signal);
  const greg_t *registers = context->uc_mcontext.gregs;
  // On x86-64 a page fault's error code says whether it was a write (bit 1).
  if (info->si_code > 0 && registers[REG_TRAPNO] == 14)
    fault.access = registers[REG_ERR] & 2 ? GPUSYM_ACCESS_WRITE : GPUSYM_ACCESS_READ;
  uintptr_t address = reinterpret_cast<uintptr_t>(info->si_addr);
  uintptr_t sp = static_cast<uintptr_t>(registers[REG_RSP]);
  fault.address = address;
  int used = lane_prefix(lane, fault);
  char *rest = message + used;
  size_t room = sizeof message - used;
  const char *access = fault.access == GPUSYM_ACCESS_WRITE ? "write" : fault.access == GPUSYM_ACCESS_READ ? "read" : "access";
  if (signal == SIGSEGV && info->si_code == SI_KERNEL) {
    // A general-protection fault: the processor does not say where.
    snprintf(rest, room, "invalid memory access at an unknown address (a general protection fault: a "
                         "non-canonical pointer?)");
  } else if (address < sp + page_size && address + kStackReach >= sp) {
    fault.kind = GPUSYM_FAULT_STACK;
    snprintf(rest, room, "stack overflow at 0x%" PRIxPTR ": the lane's stack of %zu bytes is exhausted (GPUSYM_STACK_SIZE)",
             address, lane_stack_size());
  } else {
    int written = snprintf(rest, room, "invalid %s at 0x%" PRIxPTR ": ", access, address);
    if (lock_briefly(device_memory_mutex())) {
      describe_address(address, fault, rest + written, room - written);
      device_memory_mutex().unlock();
      // Just past a live allocation's end: on a GPU, whose allocations are
      // coarser, the access may well go unnoticed.
      if (allocation_padding() == 0 && fault.allocation_state == GPUSYM_ALLOCATION_LIVE && address >= fault.allocation_base + fault.allocation_size &&
          address < fault.allocation_base + fault.allocation_size + page_size)
        snprintf(hint, sizeof hint,
                 "  (a GPU may not notice this access: its allocations end on coarser boundaries; "
                 "GPUSYM_ALLOCATION_PADDING=%zu gives each allocation that much room)\n",
                 static_cast<size_t>(page_size));
    } else {
      snprintf(rest + written, room - written, "the allocation table is busy");
    }
  }
  publish(fault);
}

void on_fault(int signal, siginfo_t *info, void *context) {
  int saved_errno = errno;
  gpusym_lane *lane = __gpusym_lane;
  if (!lane || lane->state != GPUSYM_LANE_RUNNING) {
    chain(signal, info, context);
  } else {
    replay_fast_block();
    if (claim_report()) report_memory_fault(signal, info, static_cast<ucontext_t *>(context), lane);
    end_with(signal, info);
  }
  errno = saved_errno;
}

// ---- a CUDA program's failed assert() ----
//
// As on an NVIDIA GPU (CUDA 13 on an H100: docs/cuda.md): each thread whose
// assertion fails prints a line on stderr,
//   FILE:LINE: FUNCTION: block: [x,y,z], thread: [x,y,z] Assertion `COND` failed.
// and ends; the dispatch's blocks that have not started never start, nor
// does any work queued after it on the device (streams.cpp), whose context
// has failed: the next synchronising call, and every CUDA call after it but
// the device queries, fail with cudaErrorAssert (cuda_errors.cpp).  The
// program goes on.  The first failure is recorded in gpusym_debug.fault for
// a debugger, and under one its lane stops with SIGABRT, as a HIP program's
// does: the runtime takes the signal when the debugger passes it on.

gpusym_debug_fault assert_record;  // the first failed assertion's, apart from the fault being reported
std::atomic<bool> assert_recorded{false};
char assert_message[2048];

// Whether a debugger traces the process.
bool traced() {
  int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  char status[1024];  // TracerPid is on its eighth line
  ssize_t length = read(fd, status, sizeof status - 1);
  close(fd);
  if (length <= 0) return false;
  status[length] = '\0';
  const char *field = strstr(status, "TracerPid:");
  return field && strtol(field + strlen("TracerPid:"), nullptr, 10) != 0;
}

// A stop for the debugger at the failing lane: SIGABRT, taken by a handler
// that does nothing once the debugger passes it on.  Not while the thread
// blocks SIGABRT: it would stay pending for the program's own action.
void stop_for_debugger() {
  sigset_t blocked;
  if (pthread_sigmask(SIG_BLOCK, nullptr, &blocked) != 0 || sigismember(&blocked, SIGABRT)) return;
  struct sigaction ignore {}, previous {};
  ignore.sa_handler = +[](int) {};
  sigemptyset(&ignore.sa_mask);
  if (sigaction(SIGABRT, &ignore, &previous) != 0) return;
  raise(SIGABRT);
  sigaction(SIGABRT, &previous, nullptr);
}

// Records the first failed assertion, as end_lane does, for a debugger.
void record_assertion(gpusym_lane *lane, const char *assertion, const char *file, unsigned line_number,
                      const char *function, const char *reported) {
  gpusym_debug_fault &fault = assert_record;
  fault = {};
  fault.kind = GPUSYM_FAULT_ASSERTION;
  fault.signal = SIGABRT;
  fault.os_thread = static_cast<uint64_t>(syscall(SYS_gettid));
  const Kernel &kernel = running_kernel();
  fault.dispatch_id = lane->dispatch_id;
  fault.kernel_index = kernel.index;
  fault.block = lane->block_idx;
  fault.thread = lane->thread_idx;
  fault.assertion = assertion;
  fault.file = file;
  fault.line = line_number;
  fault.function = function;
  snprintf(assert_message, sizeof assert_message,
           "kernel '%s' (dispatch %" PRIu64 ") block (%u,%u,%u) thread (%u,%u,%u): %s", kernel.display_name.c_str(),
           lane->dispatch_id, lane->block_idx.x, lane->block_idx.y, lane->block_idx.z, lane->thread_idx.x,
           lane->thread_idx.y, lane->thread_idx.z, reported);
  fault.message = assert_message;
  bool locked = lock_briefly(registry_mutex());
  gpusym_debug.fault = &fault;
  if (locked) {
    notify(GPUSYM_EVENT_FAULT, 0);
    registry_mutex().unlock();
  }
}

[[noreturn]] void end_cuda_lane(gpusym_lane *lane, const char *assertion, const char *file, unsigned line_number,
                                const char *function) {
  char text[2048];
  int length;
  if (function && *function)
    length = snprintf(text, sizeof text, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.",
                      file, line_number, function, lane->block_idx.x, lane->block_idx.y, lane->block_idx.z,
                      lane->thread_idx.x, lane->thread_idx.y, lane->thread_idx.z, assertion);
  else
    length = snprintf(text, sizeof text, "%s:%u: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.", file,
                      line_number, lane->block_idx.x, lane->block_idx.y, lane->block_idx.z, lane->thread_idx.x,
                      lane->thread_idx.y, lane->thread_idx.z, assertion);
  length = std::min(length, static_cast<int>(sizeof text) - 2);
  fflush(stdout);  // what device printf wrote so far comes before the line
  text[length] = '\n';
  for (int done = 0; done <= length;) {
    ssize_t wrote = write(STDERR_FILENO, text + done, length + 1 - done);
    if (wrote <= 0 && errno != EINTR) break;
    if (wrote > 0) done += wrote;
  }
  text[length] = '\0';
  fail_device(running_device(), hipErrorAssert);
  if (!assert_recorded.exchange(true)) {
    record_assertion(lane, assertion, file, line_number, function, text);
    if (traced()) stop_for_debugger();
  }
  end_dispatch(lane->dispatch_id);
  // The lane ends as if it returned from its kernel: it waits at the block's
  // barrier first, so that the lanes after it that have not started start
  // (on stacks of their own: this one is still in use), then exits.
  __gpusym_barrier();
  lane->state = GPUSYM_LANE_EXITED;
  gpusym_lane_exit();
}

[[noreturn]] void end_lane(gpusym_fault_kind kind, const char *assertion, const char *file, unsigned line_number,
                           const char *function) {
  if (claim_report()) {
    gpusym_debug_fault &fault = fault_record;
    fault = {};
    fault.kind = kind;
    fault.signal = SIGABRT;
    int used = lane_prefix(__gpusym_lane, fault);
    if (kind == GPUSYM_FAULT_ASSERTION) {
      // As HIP's device assert prints it.
      snprintf(message + used, sizeof message - used, "%s:%u: %s: Device-side assertion `%s' failed.", file,
               line_number, function, assertion);
      fault.assertion = assertion;
      fault.file = file;
      fault.line = line_number;
      fault.function = function;
    } else {
      snprintf(message + used, sizeof message - used, "abort() called in device code");
    }
    fflush(stdout);  // what device printf wrote so far comes before the report
    publish(fault);
  }
  abort();
}

}  // namespace

[[noreturn]] void end_lane_for_access(uintptr_t address, size_t size, bool write, bool misaligned, size_t alignment,
                                      const char *file, unsigned line_number, const char *described) {
  int signal = misaligned ? SIGBUS : SIGSEGV;
  if (claim_report()) {
    gpusym_debug_fault &fault = fault_record;
    fault = {};
    fault.kind = GPUSYM_FAULT_MEMORY;
    fault.signal = static_cast<uint32_t>(signal);
    fault.access = write ? GPUSYM_ACCESS_WRITE : GPUSYM_ACCESS_READ;
    fault.address = address;
    fault.file = file;
    fault.line = line_number;
    int used = lane_prefix(__gpusym_lane, fault);
    used += snprintf(message + used, sizeof message - used, "%s %s of %zu %s at 0x%" PRIxPTR ": ",
                     misaligned ? "misaligned" : "invalid", write ? "write" : "read", size, size == 1 ? "byte" : "bytes",
                     address);
    if (described) {
      used += snprintf(message + used, sizeof message - used, "%s", described);
    } else if (misaligned) {
      used += snprintf(message + used, sizeof message - used, "not aligned to the %zu bytes the code assumes", alignment);
    } else if (lock_briefly(device_memory_mutex())) {
      describe_address(address, fault, message + used, sizeof message - used);
      device_memory_mutex().unlock();
      used += static_cast<int>(strlen(message + used));
    }
    if (file && used < static_cast<int>(sizeof message))
      snprintf(message + used, sizeof message - used, ", at %s:%u (memcheck)", file, line_number);
    else if (used < static_cast<int>(sizeof message))
      snprintf(message + used, sizeof message - used, " (memcheck)");
    fflush(stdout);  // what device printf wrote so far comes before the report
    publish(fault);
  }
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  sigaction(signal, &action, nullptr);
  raise(signal);
  abort();
}

void prepare_fault_handling() {
  static std::once_flag once;
  std::call_once(once, [] {
    page_size = static_cast<uintptr_t>(sysconf(_SC_PAGESIZE));
    allocation_padding();  // read now: the handler must not be the first to read the environment
    struct sigaction action {};
    action.sa_sigaction = on_fault;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < 2; i++) sigaction(kSignals[i], &action, &previous_actions[i]);
  });
  // Its own stack for the handler: a lane that overflowed its stack has no
  // room left for it.  A thread that has one already keeps it.
  stack_t current{};
  if (sigaltstack(nullptr, &current) != 0 || !(current.ss_flags & SS_DISABLE)) return;
  void *base = mmap(nullptr, kAltStackSize + page_size, PROT_READ | PROT_WRITE,
                    MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1, 0);
  if (base == MAP_FAILED) return;
  mprotect(base, page_size, PROT_NONE);
  stack_t stack{};
  stack.ss_sp = static_cast<char *>(base) + page_size;
  stack.ss_size = kAltStackSize;
  sigaltstack(&stack, nullptr);
}

}  // namespace gpusym

using namespace gpusym;

// Device assert() and abort() (hip/gpusym_detail/device_builtins.h).
// A CUDA program's failed assertion ends only its lane (end_cuda_lane).  In
// a block's fast form, which cannot name the lane, the block runs again in
// the debuggable form, whose lane reports it.
extern "C" [[noreturn]] void __gpusym_assert_fail(const char *assertion, const char *file, unsigned int line,
                                                  const char *function) {
  replay_fast_block();
  gpusym_lane *lane = __gpusym_lane;
  if (lane && lane->state == GPUSYM_LANE_RUNNING && speaks_cuda()) end_cuda_lane(lane, assertion, file, line, function);
  end_lane(GPUSYM_FAULT_ASSERTION, assertion, file, line, function);
}

extern "C" [[noreturn]] void __gpusym_abort(void) {
  replay_fast_block();
  end_lane(GPUSYM_FAULT_ABORT, nullptr, nullptr, 0, nullptr);
}
