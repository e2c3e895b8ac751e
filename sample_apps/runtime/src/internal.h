// Declarations shared by the runtime's translation units.
#pragma once

#include <ffi.h>

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

#include "gpusym/debug_interface.h"
#include "hip/hip_runtime_api.h"

namespace gpusym {

// ---- errors (errors.cpp) ----
// A failed call: sets the calling thread's last error.  `call` is the API
// function that failed.  Debuggers break here to stop on failing calls
// (gdbext/api_errors.py); it is reached only on failure, so a breakpoint on it
// costs nothing on the calls that succeed.
__attribute__((visibility("hidden"), noinline)) void api_call_failed(hipError_t error, const char *call);
// Returns `error`, recording it when it is a failure; `call` is the caller's name by default.
inline hipError_t record(hipError_t error, const char *call = __builtin_FUNCTION()) {
  if (error != hipSuccess) api_call_failed(error, call);
  return error;
}
// Prints one diagnostic line on stderr, prefixed with "gpusym: ".
void warn(const char *format, ...) __attribute__((format(printf, 1, 2)));
// Reads an integer setting from the environment.
long env_long(const char *name, long fallback);

// ---- the debugger interface (debug_interface.cpp) ----
// Serialises every change to gpusym_debug and the tables behind it.
std::mutex &registry_mutex();
// Publishes a change: bumps the generation, sets the event, calls gpusym_debug_state().
void notify(gpusym_debug_event event, uint64_t index);
uint64_t current_os_thread();

// ---- kernel signatures (signature.cpp) ----
// A kernel's parameter list as libffi sees it, built from the descriptor the
// driver embeds in the simulated code object (see sample_apps/driver/signatures.py).
struct Signature {
  ffi_cif cif{};
  std::vector<ffi_type *> params;
  std::vector<size_t> offsets;  // where each argument is copied in a dispatch's buffer
  size_t buffer_size = 0;
  std::string error;            // why the kernel cannot be called, or empty
};
// Parses `descriptor` (e.g. "p,i32,{16,8:IS}") into `out`; false with out.error set on failure.
bool parse_signature(const std::string &descriptor, Signature &out);

// ---- code objects and registration (registry.cpp) ----
struct Module;

struct Kernel {
  const void *handle;
  std::string device_name;
  Module *module;
  void *entry;                  // in the simulated code object, or null
  uint32_t index;               // into gpusym_debug.kernels
  std::once_flag signature_once;
  Signature signature;
  std::string display_name;     // demangled, set with the signature (before its first launch)
};

struct Variable {
  const void *host_shadow;
  std::string device_name;
  Module *module;
  void *device_address;
  size_t size;
};

// Looks a kernel up by its host handle; null when none is registered.
Kernel *find_kernel(const void *handle);
// Looks a device variable up by its host shadow; null when none is registered.
Variable *find_variable(const void *host_shadow);
// The kernel's libffi signature, prepared on first use.
const Signature &kernel_signature(Kernel &kernel);

// ---- memory (memory.cpp) ----
// True when [pointer, pointer + size) lies inside one live device allocation.
bool is_device_range(const void *pointer, size_t size);
// Guards the allocation table that describe_address() reads.
std::mutex &device_memory_mutex();
// With device_memory_mutex() held: what `address` is in or near (the
// allocation, or "far from any", "not device memory"), as text for a fault
// report, and the allocation's fields of `fault`.  Allocates nothing.
void describe_address(uintptr_t address, gpusym_debug_fault &fault, char *text, size_t size);

// ---- execution (executor.cpp) ----
struct LaunchConfig {
  dim3 grid;
  dim3 block;
  size_t shared_mem;
  hipStream_t stream;
};
// Queues (or, with GPUSYM_LAUNCH_BLOCKING=1, runs) one dispatch.
hipError_t launch(Kernel &kernel, const LaunchConfig &config, void **args);
// Waits until every queued dispatch has completed.
void synchronize();
// The limit on dynamic shared memory.
constexpr size_t kMaxDynamicShared = 64 * 1024;
// The size of each lane's stack (GPUSYM_STACK_SIZE).
size_t lane_stack_size();
// The kernel the calling thread runs a lane of; only while __gpusym_lane is set.
const Kernel &running_kernel();

// ---- faults in kernels (faults.cpp) ----
// On each CPU thread that runs lanes, before the first: installs the
// runtime's SIGSEGV/SIGBUS handler (once) and an alternate signal stack, so
// that a fault in a kernel, even a lane's stack overflow, is reported.
void prepare_fault_handling();

}  // namespace gpusym
