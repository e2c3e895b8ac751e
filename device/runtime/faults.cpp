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
// Only a fault of a thread while it runs a lane is the runtime's.  Any other
// goes to the handler installed before the runtime's (the runtime chains to
// it), or ends the process as it would have without the runtime.
//
// Under a debugger, the debugger sees the signal first, as an ordinary stop;
// the gdb extension explains it from the same allocation table.
#include <signal.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>

#include "internal.h"

extern "C" __thread __attribute__((tls_model("initial-exec"))) gpusym_lane *__gpusym_lane;

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
extern "C" [[noreturn]] void __gpusym_assert_fail(const char *assertion, const char *file, unsigned int line,
                                                  const char *function) {
  end_lane(GPUSYM_FAULT_ASSERTION, assertion, file, line, function);
}

extern "C" [[noreturn]] void __gpusym_abort(void) { end_lane(GPUSYM_FAULT_ABORT, nullptr, nullptr, 0, nullptr); }
