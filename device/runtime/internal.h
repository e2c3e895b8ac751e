// Declarations shared by the runtime's translation units.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "gpusym/debug_interface.h"
#include "hip/hip_runtime_api.h"

struct _hiprtcProgram;

// A hipArray (arrays.cpp): its elements, dense, in rows of `width`, `height`
// rows to a slice, `depth` slices (or layers).
struct hipArray {
  unsigned char *data;          // a device allocation, so that the copies check it as one
  hipChannelFormatDesc desc;
  hipExtent extent;             // as given: 0 in the dimensions it lacks
  unsigned int flags;
  size_t element;               // bytes
  size_t width, height, depth;  // at least 1 each
  size_t pitch() const { return width * element; }
};

namespace gpusym {

// ---- errors (errors.cpp) ----
// A failed call: sets the calling thread's last error.  `call` is the API
// function that failed.  Debuggers break here to stop on failing calls
// (gdbext/commands/api_errors.py); it is reached only on failure, so a breakpoint on it
// costs nothing on the calls that succeed.
__attribute__((visibility("hidden"), noinline)) void api_call_failed(hipError_t error, const char *call);
// The name a failure of `call` is recorded under: the API function the
// program called, if an ApiCall names it, else `call`.
const char *api_call_name(const char *call);
// Whether the program's call now running is one of CUDA's API (an ApiCall
// named cuda*): what it makes is named as CUDA names it.
bool in_cuda_call();
// Returns `error`, recording it when it is a failure; `call` is the caller's name by default.
inline hipError_t record(hipError_t error, const char *call = __builtin_FUNCTION()) {
  if (error != hipSuccess) api_call_failed(error, api_call_name(call));
  return error;
}
// Returns `error`, a failure of the call `name` of CUDA's runtime or driver
// API (whose codes are HIP's), recorded.
template <typename Error>
Error fail(const char *name, Error error) {
  record(static_cast<hipError_t>(error), name);
  return error;
}
// While one lives, the calling thread is in the API function `name` (a
// CUDA function over its hip* twin, a HIP function over a CUDA one): a
// failure of the calls it makes is recorded under `name`, the function the
// program called.
class ApiCall {
 public:
  explicit ApiCall(const char *name);
  ~ApiCall();
  ApiCall(const ApiCall &) = delete;
  ApiCall &operator=(const ApiCall &) = delete;

 private:
  const char *outer_;
};
// CUDA's name of an error code (cudaErrorMemoryAllocation for 2; cuda_errors.cpp).
const char *cuda_error_name(hipError_t error);
// Whether the program speaks CUDA: a source of it was built by gpusym-nvcc
// (whose headers define __gpusym_cuda_arch), or it has called CUDA's API.
// A failed device assert() then ends its lane, not the process (faults.cpp).
bool speaks_cuda();
// The program has called a function of CUDA's API (ApiCall, for cu* names).
void note_cuda_call();
// A device's context that has failed for good, as a CUDA program's does
// after a device assert() (cudaErrorAssert, hipErrorAssert's number): its
// error, hipSuccess while it has not failed.  Lock-free.
hipError_t device_failure(int device);
void fail_device(int device, hipError_t error);
// What the CUDA API function `call` (as its __func__ names it) returns in
// place of its own result, before and after it runs: the failure of the
// current device's context, unless `call` is one a failed context still
// answers (the device queries and versions); hipSuccess when none.
hipError_t context_failure(const char *call);
// Makes `hip_call` (returning a hipError_t) for the CUDA API function `call`
// and returns its error; on a device whose context has failed, that
// failure instead, recorded: before the call, which is not made, or after
// it (met while it waited).
template <typename Call>
hipError_t unless_failed(const char *call, Call hip_call) {
  if (hipError_t failure = context_failure(call)) return record(failure, call);
  auto error = hip_call();
  if (hipError_t failure = context_failure(call)) return record(failure, call);
  return static_cast<hipError_t>(error);
}
// The compute capability CUDA sources were compiled for, as 10 * major +
// minor (80 for sm_80; cuda_runtime_api.cpp).
int cuda_compute_capability();
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
// A kernel's parameters, from the descriptor the driver embeds in the
// simulated code object (see device/compiler/signatures.py), and where the
// System V ABI puts each of them in a call.
//
// A dispatch lays its arguments out once in a call image, which every lane's
// call loads (gpusym_run_lanes, call_kernel.S): words of the image.  Its call
// area, the six integer registers and then the stack arguments, is copied to
// the lane's stack and the registers popped from there, so that the stack
// pointer at the call is 64-byte aligned and words holding an address on that
// stack (of a by-reference argument's copy) can be fixed up in place.
constexpr uint32_t kCallWords = 0;      // words of the call area (6 + a multiple of 8)
constexpr uint32_t kCallUsesSse = 1;    // nonzero when xmm0-xmm7 carry arguments
constexpr uint32_t kCallRelatives = 2;  // call-area words holding an offset from the stack pointer at the call
constexpr uint32_t kCallSse = 4;        // xmm0-xmm7, two words each
constexpr uint32_t kCallGpr = 20;       // the call area: rdi, rsi, rdx, rcx, r8, r9,
constexpr uint32_t kCallStack = 26;     // then the stack arguments, from the lowest address
// After the call area: the index in it of each of the kCallRelatives words.
//
// `size` bytes at byte `from` of argument `param` go to byte `to` of the image.
struct CallMove {
  uint32_t param, from, to, size;
  bool sign_extend;  // a signed integer narrower than its eightbyte
};
struct Parameter {
  size_t size, alignment;  // of the C type
};
struct Signature {
  std::vector<Parameter> params;
  std::vector<CallMove> moves;
  // Call-area words holding the address of a by-reference argument's copy:
  // the copy's offset from the stack pointer at the call, added to it by each call.
  std::vector<std::pair<uint32_t, uint64_t>> relatives;
  uint32_t stack_words = 0;  // a multiple of 8: the stack pointer at the call stays 64-byte aligned
  bool uses_sse = false;
  std::string error;  // why the kernel cannot be called, or empty
};
// Parses `descriptor` (e.g. "p,i32,{16,8:IS}") into `out`; false with out.error set on failure.
bool parse_signature(const std::string &descriptor, Signature &out);
// The call image of a call with the arguments `args` (one pointer to each).
std::vector<uint64_t> call_image(const Signature &signature, void **args);

// ---- code objects and registration (registry.cpp) ----
struct Module;

// Lanes of a wavefront of the program's device code: what its first code
// object was compiled for (GPUSYM_WAVE_SIZE), 64 before any (warpSize).
uint32_t device_wave_size();

// The AMDGPU target its device code was compiled as, as gcnArchName names it:
// the target id the headers keep in each simulated code object
// (__gpusym_target_id, hip/hip_common.h), that of the build's first
// --offload-arch, whose macros (__amdgcn_processor__, __gfx90a__, ...) the
// same compile defined, so device code choosing by those macros and host
// code choosing by gcnArchName see one target.  Like warpSize, the first
// code object's; kDefaultTarget before any, or for one built without it.
constexpr const char *kDefaultTarget = "gfx90a";  // gpusym build's default --offload-arch
std::string device_target_id();

struct Kernel {
  const void *handle;
  std::string device_name;
  Module *module;
  void *entry;                  // in the simulated code object, or null
  void *fast_entry;             // its fast form (device/passes/fast_form.cpp), or null
  uint32_t index;               // into gpusym_debug.kernels
  uint32_t wave_size;           // lanes of a wavefront its code was compiled for
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
  bool managed = false;  // a __managed__ variable: device_address is its allocation
};

// The following four are called with registry_mutex() held.
// Registers a code object and loads its simulated-device image, when given
// one; a module's kernels (origin other than a fat binary) come from the
// code object's own kernel table.
Module &register_module(gpusym_code_object_origin origin, const std::string &host_path, const void *fatbin_wrapper,
                        const uint8_t *image, size_t size);
// Registers a kernel of `module` under `handle` (null: a handle of its own).
Kernel &register_kernel(Module &module, const void *handle, const std::string &device_name);
// The __shared__ variable of `kernel`'s code object holding `address` in the
// calling thread's storage, as "name+offset", or "" (registry.cpp).
std::string shared_variable_at(const Kernel &kernel, uintptr_t address);
// Unregisters (unloads) a code object: its kernels and variables are gone.
void unregister_module(Module &module);
// A module loaded by hipModuleLoad* and not unloaded, or null.
Module *find_loaded_module(const void *handle);
// Allocates, for the calling thread, the thread-local storage of the
// kernel's code object (where __shared__ variables live), which the dynamic
// linker does only on first access: a debugger stopped at the kernel's
// first line reads them then.
void allocate_thread_storage(const Kernel &kernel);
// Whether the module's simulated-device code object loaded.
bool has_code(const Module &module);
Kernel *find_module_kernel(Module &module, const char *device_name);
// A device variable of the module, registered on first use; null if none.
Variable *find_module_global(Module &module, const char *name);
// The simulated device's entry in the clang offload bundle of at most `size`
// bytes at `bundle`, or {null, 0}.
std::pair<const uint8_t *, size_t> find_sim_entry(const uint8_t *bundle, size_t size);
// The simulated code object in `image` (a bundle or the object itself), or
// {null, 0} with `error` set (modules.cpp).
std::pair<const uint8_t *, size_t> sim_code_object(const uint8_t *image, size_t size, hipError_t &error);

// Looks a kernel up by its host handle; null when none is registered.
Kernel *find_kernel(const void *handle);
// Looks a kernel up by its debuggable form's address; null when none is registered.
Kernel *find_kernel_by_entry(const void *entry);
// Looks a device variable up by its host shadow; null when none is registered.
Variable *find_variable(const void *host_shadow);
// The kernel's signature, prepared on first use.
const Signature &kernel_signature(Kernel &kernel);

struct LaunchConfig {
  dim3 grid;
  dim3 block;
  size_t shared_mem;
  hipStream_t stream;
  bool cooperative = false;  // hipLaunchCooperativeKernel: every block runs at once, on a worker of its own
};

// ---- launches (launch.cpp) ----
// Checks a launch of the kernel named by `handle` and queues it.
hipError_t checked_launch(const void *handle, const LaunchConfig &config, void **args);
// The same with the arguments in one buffer, as hipModuleLaunchKernel's
// `extra` gives them (modules.cpp).
hipError_t checked_launch_from_buffer(const void *handle, const LaunchConfig &config, void **extra);
// Checks a launch by device code of the kernel whose debuggable form is at
// `entry`, and queues it as a child of the running block's dispatch.
hipError_t checked_launch_from_device(const void *entry, const LaunchConfig &config, void **args);

// ---- devices (devices.cpp) ----
// GPUSYM_DEVICES (default 2), read once.
int device_count();
// The device's hipLimitMallocHeapSize: the bytes device code may malloc (device_queries.cpp).
size_t malloc_heap_size(int device);
inline bool valid_device(int device) { return device >= 0 && device < device_count(); }
// "gpusym simulated device N".
const char *device_name(int device);
// The calling thread's current device (hipSetDevice; 0 in a new thread).
int current_device();
void set_current_device(int device);
// Device ownership of allocations: hipMalloc reports each allocation, made on
// the current device (or on `device`), and hipFree each one it releases.
void own_allocation(const void *pointer, size_t size);
void own_allocation(const void *pointer, size_t size, int device);
void disown_allocation(const void *pointer);
// The device owning the allocation that holds `pointer`, or -1.
int allocation_device(const void *pointer);
// Waits for every stream of the device owning the allocation that holds
// `pointer` (as HIP's hipFree does); for nothing when no allocation holds it.
void synchronize_owner(const void *pointer);

// True when [pointer, pointer + size) lies inside one device variable of a
// code object still loaded.
bool is_device_variable_range(const void *pointer, size_t size);

// ---- memory (memory.cpp) ----
// A guarded allocation on the current device (hipMalloc; hipMallocManaged
// when `managed`); records no error.
hipError_t allocate(void **ptr, size_t size, bool managed);
// Whether a copy of `dst_span` bytes at dst from `src_span` bytes at src is
// valid for `kind` (each side device memory when the kind says so).
hipError_t check_copy(const void *dst, size_t dst_span, const void *src, size_t src_span, hipMemcpyKind kind);
// How the allocation at `base` (live or remembered freed) was made and
// freed, as "hipMalloc" or "cudaMallocManaged, then cudaFree"; "" if none is.
std::string allocation_origin(uintptr_t base);
// Whether `pointer` is in a live hipMallocManaged allocation.
bool is_managed(const void *pointer);

// ---- arrays (arrays.cpp) ----
// Whether textures and arrays take the format: 1, 2 or 4 channels of 8, 16
// or 32 bits, all of one size and kind (float: 16 or 32 bits).
bool texel_format(const hipChannelFormatDesc &desc, unsigned &channels, unsigned &channel_bytes);
// The live array the handle names, or null.
hipArray *find_array(hipArray_const_t handle);

// ---- pinned and registered host memory (host_memory.cpp) ----
// True when [pointer, pointer + size) lies inside one pinned or registered range.
bool is_host_mapped_range(const void *pointer, size_t size);
// The pinned or registered range holding `pointer`: its start and
// hipHostMalloc/hipHostRegister flags; false when none holds it.
bool find_host_mapped(const void *pointer, void **start, unsigned *flags, bool *registered);
// What freed pinned host memory (one of the ranges remembered) holds
// `address`, as text for a report; false when none does, or its table is
// busy.  Allocates nothing, waits for no lock.
bool describe_freed_host_memory(uintptr_t address, char *text, size_t size);

// ---- malloc() and free() in device code (device_heap.cpp) ----
// memcheck: the live block of device malloc whose bytes or redzones hold
// `address`, as [start, end) of its bytes, or {0, 0}.
std::pair<uintptr_t, uintptr_t> heap_block_at(uintptr_t address);
// memcheck: how many blocks have been freed so far: a block found live stays
// so while this stays the same.  Lock-free.
uint64_t device_heap_frees();

// True when [pointer, pointer + size) lies inside one live device allocation
// (managed ones too), device variable, or pinned or registered host range.
bool is_device_range(const void *pointer, size_t size);
// hipDeviceReset: frees every live allocation of `device`, as hipFree does.
void free_device_allocations(int device);
// Guards the allocation table that describe_address() reads.
std::mutex &device_memory_mutex();
// Accessible bytes after each guarded allocation's end (GPUSYM_ALLOCATION_PADDING).
size_t allocation_padding();
// With device_memory_mutex() held: what `address` is in or near (the
// allocation, or "far from any", "not device memory"), as text for a fault
// report, and the allocation's fields of `fault`.  Allocates nothing.
void describe_address(uintptr_t address, gpusym_debug_fault &fault, char *text, size_t size);
// With device_memory_mutex() held: the live allocation holding `address`,
// as [start, end), or {0, 0}.  Allocates nothing.
std::pair<uintptr_t, uintptr_t> live_allocation_at(uintptr_t address);
// How many live allocations have been freed so far: an allocation found
// live stays so while this stays the same.  Lock-free.
uint64_t device_memory_releases();

// ---- allocations placed by their owner (memory.cpp) ----
// Memory pools (memory_pools.cpp), graphs' allocations (graph_memory.cpp)
// and virtual memory mappings (virtual_memory.cpp) take spans of the range
// hipMalloc allocates from and place allocations in them: the table, the
// checks and the pointer queries know those as they know hipMalloc's.
enum class Placement : uint8_t { kMalloc, kPool, kGraph, kMapping };
// The bytes of a page of that range.
size_t device_page();
// Takes `size` bytes (a multiple of the page) of the range at an address
// aligned to `alignment` (a power of two), inaccessible; 0 when no free span
// is that large.  give_back_span returns one, inaccessible and empty.
uintptr_t take_span(size_t size, size_t alignment);
void give_back_span(uintptr_t start, size_t size);
// Maps pages of a span its caller holds fresh (zeros) and accessible, or
// inaccessible again (their memory goes back to the system).
bool map_fresh_pages(uintptr_t start, size_t size);
void map_inaccessible_pages(uintptr_t start, size_t size);
// Makes [base, base + size), accessible in a span the caller holds, a live
// allocation of `device` made by `made_by`; `written`: initcheck counts its
// bytes as written (memory another mapping may have written).
void place_allocation(uintptr_t base, size_t size, int device, Placement placement,
                      gpusym_allocation_made_by made_by, bool written);
// Ends the placed allocation at `base`, remembered as freed (by a free, or
// by hipDeviceReset); its pages stay as they are.
void remove_allocation(uintptr_t base, gpusym_allocation_freed_by by = GPUSYM_FREED_BY_FREE);
// The placement of the live allocation that starts at `base`; false when none does.
bool live_placement(const void *base, Placement &placement);

// ---- memory pools (memory_pools.cpp) ----
// Frees the pool allocation at `pointer`: now (hipFree, which has waited for
// its device's work), or once the work queued so far on `stream` is done.
hipError_t free_pool_allocation(void *pointer, hipStream_t stream, bool async);
// At a stream's, an event's or a device's synchronisation: each pool gives
// back the memory it holds unused beyond its release threshold.
void release_pool_memory();
// hipDeviceReset: the pools of `device` free their allocations and give back their memory.
void reset_device_pools(int device);

// ---- graphs' allocations (graph_memory.cpp) ----
// Frees the graph allocation at `pointer`, now or in the order of `stream`
// (as free_pool_allocation; then also one whose node is yet to run).
hipError_t free_graph_allocation(void *pointer, hipStream_t stream, bool async);
// Whether [pointer, pointer + size) lies in the address of one graph
// allocation: device memory for the work queued after its allocation node.
bool is_graph_range(const void *pointer, size_t size);
// While `stream` captures: hipMallocFromPoolAsync from a pool of `props` and
// hipFreeAsync become the graph's allocation and free nodes.  False when the
// stream does not capture; else true with `error` set.
bool capture_allocation(void **pointer, size_t size, const hipMemPoolProps &props, hipStream_t stream,
                        hipError_t &error);
bool capture_free(void *pointer, hipStream_t stream, hipError_t &error);

// ---- streams, events and their ordering (streams.cpp) ----
//
// Each stream is an in-order queue of operations.  An operation starts when
// it is at the front of its stream and every operation it depends on has
// completed: the event record a hipStreamWaitEvent waits for, and the null
// stream's legacy ordering (work on a device's null stream waits for the work
// queued before it on the device's blocking streams, and theirs waits for the
// null stream's).  Kernels and copies whose turn has come go to the workers;
// records and waits complete at once.  One mutex guards it all.

// Completion of the operation numbered `ticket` (1, 2, ...) in the stream
// whose serial number is `stream`.  A stream that no longer exists has
// completed everything.
struct Dependency {
  uint64_t stream;
  uint64_t ticket;
};

// A copy (src set) or memset (src null) of `depth` slices of `height` rows
// of `width` bytes each; pitches and slices are the strides in bytes.
struct Transfer {
  void *dst = nullptr;
  const void *src = nullptr;
  size_t width = 0, height = 1, depth = 1;
  size_t dst_pitch = 0, src_pitch = 0;
  size_t dst_slice = 0, src_slice = 0;
  uint32_t value = 0;   // memset: each element of `element` bytes (1, 2 or 4) gets it
  uint8_t element = 1;
  // The bytes from dst (or src) to the end of the last row.
  size_t dst_span() const { return (depth - 1) * dst_slice + (height - 1) * dst_pitch + width; }
  size_t src_span() const { return (depth - 1) * src_slice + (height - 1) * src_pitch + width; }
};
// Copies or sets it, now, on the calling thread.
void run_transfer(const Transfer &transfer);
// A copy of `t`'s shape, checked (rows wider than their pitch are
// hipErrorInvalidPitchValue), run now or queued on `stream` (transfers.cpp);
// records no error.
hipError_t copy_shaped(const Transfer &t, hipMemcpyKind kind, bool async, hipStream_t stream);

struct Op {
  enum Kind : uint8_t { kKernel, kTransfer, kHost, kRecord, kWait };
  Kind kind;
  bool caller_runs = false;   // run by the thread that queued it (GPUSYM_LAUNCH_BLOCKING=1)
  bool started = false;       // its turn has come
  bool in_runnable = false;   // offered to the workers
  ihipStream_t *stream = nullptr;
  uint64_t ticket = 0;
  std::vector<Dependency> after;

  // kKernel
  uint64_t id = 0;
  Kernel *kernel = nullptr;
  LaunchConfig config{};
  std::vector<uint64_t> call;            // the call image of its arguments (see Signature)
  uint64_t total_blocks = 1;
  // Claimed by every worker at each block: padded onto a cache line of its
  // own, apart from what the lanes read.
  char pad_before[64];
  std::atomic<uint64_t> next_block{0};
  char pad_after[64];
  uint64_t done_blocks = 0;              // under the scheduler's mutex
  // A cooperative launch's grid barrier: blocks arrived, and barriers passed.
  std::atomic<uint64_t> grid_arrived{0};
  std::atomic<uint64_t> grid_generation{0};
  gpusym_debug_dispatch *record = nullptr;
  // Dynamic parallelism: a kernel (or copy) launched by a thread of
  // `parent` runs once the parent's blocks are done, after the launches
  // made before it, and the parent completes after all of them (the children are under the
  // scheduler's mutex).  One launched while the ring of dispatch records
  // was full keeps its record here, out of a debugger's sight.
  Op *parent = nullptr;
  std::vector<Op *> children;
  size_t children_started = 0;
  std::unique_ptr<gpusym_debug_dispatch> own_record;

  // kTransfer
  Transfer transfer;

  // kHost: host_fn(user_data), or callback(handle, hipSuccess, user_data)
  hipHostFn_t host_fn = nullptr;
  hipStreamCallback_t callback = nullptr;
  void *user_data = nullptr;
  hipStream_t handle = nullptr;
  std::shared_ptr<void> keep;  // what user_data points to, kept with the operation (a graph node's)

  // kRecord
  ihipEvent_t *event = nullptr;
  uint64_t generation = 0;

  explicit Op(Kind k) : kind(k) {}
};

// Waiting threads spin briefly before they sleep: a worker that has just run
// something, for more work; a host thread, for what it waits for.  Each
// watches a counter without the lock.  A thread woken from its sleep waits
// for a system call and the kernel's scheduler, several microseconds.
struct Scheduler {
  std::mutex mutex;
  std::condition_variable work;   // `runnable` has something for the workers
  std::condition_variable done;   // an operation completed, or became its caller's to run
  std::deque<Op *> runnable;      // started kernels and copies, oldest first
  std::atomic<uint64_t> posted{0};    // bumped when `runnable` gets work
  std::atomic<uint64_t> finished{0};  // bumped when an operation completes
  bool worker_spins = false;      // a worker watches `posted`: nobody needs waking
};
Scheduler &scheduler();
// Spins, without the lock, until `counter` is no longer `seen` (true) or the
// thread's spin budget has passed (false).  The budget is the longest after
// a spin that saw the change, and halves after each that did not: on a busy
// machine the thread waited for may have no processor while this one spins.
bool spin_while(const std::atomic<uint64_t> &counter, uint64_t seen);
// Takes the lock, trying for a moment before sleeping on it: the thread that
// changed a counter still holds it briefly.
void relock(std::unique_lock<std::mutex> &lock);
// cv.wait(lock, done), spinning first on `counter`, which changes whenever `done` may have.
template <typename Predicate>
void await(std::unique_lock<std::mutex> &lock, std::condition_variable &cv, const std::atomic<uint64_t> &counter,
           Predicate done) {
  while (!done()) {
    uint64_t seen = counter.load();
    lock.unlock();
    bool changed = spin_while(counter, seen);
    relock(lock);
    if (!changed) return cv.wait(lock, done);
  }
}

// The following are called with scheduler().mutex held.
// The stream a handle names for work from the calling thread: its current
// device's null stream for NULL; null when the handle is no live stream.
ihipStream_t *find_stream(hipStream_t handle);
int stream_device(const ihipStream_t *stream);
uint64_t stream_id(const ihipStream_t *stream);
// Queues `op` at the end of `stream` (taking ownership of it).
void enqueue(Op *op, ihipStream_t *stream);
// Waits until an operation the caller runs has its turn.
void wait_turn(std::unique_lock<std::mutex> &lock, Op *op);
// The operation, started, has finished: the next ones may start.
void complete(Op *op);
// Runs a transfer or a host function (on a worker: not a kernel).
void run_operation(const Op &op);

// Queues a transfer on the stream `handle` (as hipMemcpyAsync does): it
// runs on a worker, or on the caller with GPUSYM_LAUNCH_BLOCKING=1.
hipError_t queue_transfer(const Transfer &transfer, hipStream_t handle);
// Waits (taking the mutex) for everything queued so far on `handle`;
// hipErrorInvalidHandle when it is no live stream.
hipError_t synchronize_stream(hipStream_t handle);
// Takes (with the mutex) the blocks of dispatch `id` that no worker has
// claimed yet, counted as done without running: a lane of it has ended the
// dispatch (a CUDA program's failed assert).  Not a cooperative one's, whose
// blocks run at once.  Kernels whose turn comes on a device whose context
// has failed (device_failure) are not run either.
void end_dispatch(uint64_t id);

// Waits (taking the mutex) for the work queued so far: on the current
// device's null stream and its blocking streams, as synchronous calls do;
// on every stream of a device; on every stream of every device.
void synchronize();
void synchronize_device(int device);
void synchronize_all();
// hipDeviceReset: destroys every stream (but the null stream) and every event
// of `device`, as hipStreamDestroy and hipEventDestroy do.
void destroy_device_streams(int device);

// Queues an operation (a transfer or host function) on the stream `handle`,
// or records it into the graph the stream captures; takes it.
hipError_t queue_operation(Op *op, hipStream_t handle);

// ---- runtime compilation (hiprtc.cpp) ----
// Has the program compile as CUDA (NVRTC's), by gpusym-nvcc.
void compile_as_cuda(_hiprtcProgram *program);

// ---- stream capture (cuda_graphs.cpp) ----
// Whether `op`, a kernel, transfer or host function about to be queued on
// the stream `handle`, was recorded into the graph the stream captures (which
// then takes it) instead.  Lock-free while no stream captures.
bool captured(Op *op, hipStream_t handle);

// ---- execution (executor.cpp) ----
// Queues (or, with GPUSYM_LAUNCH_BLOCKING=1, runs) one dispatch, or records
// it into the graph its stream captures.
hipError_t launch(Kernel &kernel, const LaunchConfig &config, void **args);
// Queues (or runs) a dispatch `launch` prepared: its kernel, configuration,
// blocks and call image set.
hipError_t queue_dispatch(std::unique_ptr<Op> dispatch);
// A launch by a thread of the running block (dynamic parallelism): the
// dispatch becomes a child of the block's (see Op::parent).
hipError_t launch_child(Kernel &kernel, const LaunchConfig &config, void **args);
// A copy or set by a thread of the running block, in order with its launches.
void transfer_child(const Transfer &transfer);
// Whether this thread runs a block's threads now.
bool in_device_code();
// GPUSYM_LAUNCH_BLOCKING=1: kernels and copies run inside the call that queues them.
bool launch_blocking();
// Starts the worker threads, the first time (with scheduler().mutex held).
void start_workers();
// The limit on dynamic shared memory.
constexpr size_t kMaxDynamicShared = 64 * 1024;
// The size of each lane's stack (GPUSYM_STACK_SIZE).
size_t lane_stack_size();
// The kernel the calling thread runs a lane of, and its device; only while __gpusym_lane is set.
const Kernel &running_kernel();
int running_device();

// ---- warp functions (waves.cpp) ----
// One lane's call of a warp function (gpusym/lane.h: gpusym_wave_op).
struct WaveCall {
  uint32_t op;
  int32_t width;
  uint64_t value;
  int64_t arg;
  const void *site;  // where it was called: lanes meet at one call site
  uint64_t result;
};
// Fills the result of each lane of a wavefront's `calls` (`count` lanes)
// whose bit is set in `active`: the lanes that met at one warp function.
// `wave` is the wavefront's size (a shuffle's source lane is modulo it).
void resolve_wave(WaveCall *calls, uint32_t count, uint64_t active, uint32_t wave);
// The same for a matrix multiply (GPUSYM_WAVE_MMA, warp_mma.cpp); `active` is not 0.
void resolve_mma(WaveCall *calls, uint32_t count, uint64_t active);

// ---- breakpoints gated by lane (lane_watch.cpp) ----
// Around each block a worker runs: arms the debugger's watches whose blocks
// it matches, and disarms them when their last matching block has run.
// Whether an active watch in the code of the kernel whose debuggable form
// starts at `kernel` (or in any kernel's) names `block` (or every block): a
// fast dispatch runs it in the debuggable form, where the watch's lanes can
// stop.
bool watch_names_block(const void *kernel, const gpusym_dim3 &block);
void watch_block_started(const gpusym_dim3 &block);
void watch_block_finished(const gpusym_dim3 &block);
// At each lane switch while any watch is active: arms the watches with
// threads for `lane`, the one this thread runs now.  C linkage: the lane
// assembly calls it (lane_switch.h).
extern "C" __attribute__((visibility("hidden"))) void gpusym_watch_lane_entered(const gpusym_lane *lane);

// ---- faults in kernels (faults.cpp) ----
// On each CPU thread that runs lanes, before the first: installs the
// runtime's SIGSEGV/SIGBUS handler (once) and an alternate signal stack, so
// that a fault in a kernel, even a lane's stack overflow, is reported.
void prepare_fault_handling();
// The lanes of `lane`'s wavefront (bit i: its ith) at its last meeting,
// which `lane` took part in, on the thread running it (executor.cpp): the
// others wait at another warp function unless they have exited (or are past
// the end of the block) or wait at a barrier.
struct WaveLanes {
  uint64_t met, exited, at_barrier;
};
WaveLanes wave_lanes(const gpusym_lane *lane);
// Reports an access of device code that a check found invalid (checks.cpp):
// outside its allocation (or as `described`, when given), or `misaligned`
// for the `alignment` the code assumes, at the source line `file`:`line`
// (null, 0: unknown), and ends the process as a memory fault does
// (SIGSEGV; SIGBUS when misaligned).
[[noreturn]] void end_lane_for_access(uintptr_t address, size_t size, bool write, bool misaligned, size_t alignment,
                                      const char *file, unsigned line, const char *described = nullptr);

// ---- checks of device code (checks.cpp) ----
// Which checks GPUSYM_CHECK turned on (bits of kCheck*); device code reads
// it before each access that may reach device memory (access_checks.cpp).
extern "C" uint8_t __gpusym_checks;
// Whether dispatches may run in their kernels' fast forms: not with
// GPUSYM_FORM=debug, a check on, or a debugger asking for the debuggable form.
bool fast_form_wanted();
// In a signal handler for a fault of a lane running a block in its fast
// form, or in a failed assert() there: runs the block again in the
// debuggable form (never returns).  Returns at once otherwise.
void replay_fast_block();
constexpr uint8_t kCheckMemory = 1;  // memcheck
constexpr uint8_t kCheckRaces = 2;   // racecheck
constexpr uint8_t kCheckBarriers = 4;  // synccheck
constexpr uint8_t kCheckInit = 8;      // initcheck
// initcheck: hipMalloc made [base, base + size) (managed memory, which the
// host writes unseen, counts as written); hipFree or a reset freed it; a
// copy or memset wrote [address, address + size).  No-ops with it off.
void note_allocated(uintptr_t base, size_t size, bool managed);
void note_released(uintptr_t base);
void note_written(uintptr_t address, size_t size);
// memcheck: reports an error of the running lane that the program goes on
// from (an invalid free: `what`, at file:line), as an invalid access is
// reported, once per line; at exit, they are counted.
void report_memcheck_error(const char *what, const char *file, unsigned line);
// racecheck: the lanes `met` (bit i: the ith of `first`'s wavefront) met at a
// __syncwarp, which orders their accesses before it with those after it.
void note_warp_sync(const gpusym_lane *first, uint64_t met);
// synccheck: the block of `lane` has run; lanes that waited at a barrier
// the others ran to their end without reaching are reported.
void check_barriers_passed(const gpusym_lane *lane);

}  // namespace gpusym
