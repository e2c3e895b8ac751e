/*
 * Launch-recording interposer for gpusym capture, loaded with LD_PRELOAD.
 *
 * Wraps HIP's kernel launch entry points, and those of CUDA's shared
 * runtime (libcudart.so), and forwards each call to the next definition (the
 * runtime's).  Inactive unless GPUSYM_CAPTURE_RECORDS names a
 * file; then every launch appends binary records to it (records.py reads
 * them), each with one write() so that records of concurrent threads and
 * processes never interleave and a killed program leaves all it wrote.
 *
 * Record: u32 size, u32 kind, u64 time_ns (CLOCK_MONOTONIC), u32 pid,
 * u32 tid, payload; little-endian, sizes multiples of 8.  Kinds: LAUNCH
 * (before the real call), RESULT (after it: the launch was refused unless it
 * says 0; a launch with no result never returned), MODULES
 * (the module map, before the first launch and after each change), THREAD
 * (a thread's name, at its first launch), FUNCTION (a module function's
 * name, from hipKernelNameRef, and its module's file when the runtime says
 * it, before its first launch through hipModuleLaunchKernel; a kernel's
 * symbol and file before its first launch by device code), KERNEL (the
 * host function a CUDA kernel object stands for, when __cudaGetKernel made
 * it: nvcc's <<<>>> launches the object).
 *
 * GPUSYM_CAPTURE_TIMELINE=1 also records, for a timeline: CALL (a copy or a
 * synchronisation: the call, when it began, its stream, bytes and direction,
 * what it returned; written when it returns) and DISPATCH (a launch's run on
 * the device: one when it starts, one when it ends, from the simulated
 * runtime's dispatch observer, gpusym_observe_dispatches; another runtime has
 * none).
 *
 * GPUSYM_CAPTURE_LINE_BUFFERED=1 makes the program's stdout line-buffered
 * from its start, as on a terminal: under capture it is a file, fully
 * buffered otherwise, and a program killed at a crash would lose it all.
 *
 * Sampling (read once): GPUSYM_CAPTURE_BACKTRACES=0 records no frames;
 * GPUSYM_CAPTURE_EVERY=N frames only for every Nth launch of an entry;
 * GPUSYM_CAPTURE_DETAIL_LIMIT=N at most N launches with frames per entry.
 *
 * No HIP or CUDA header: the ABI types are declared here, so one build
 * serves any HIP or CUDA runtime.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <link.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
  uint32_t x, y, z;
} dim3;
typedef void *hipStream_t;
typedef void *hipEvent_t;
typedef void *hipFunction_t;
typedef void *cudaKernel_t;
typedef int hipError_t;  // cudaError_t alike

#define EXPORT __attribute__((visibility("default")))
#define TLS __thread __attribute__((tls_model("initial-exec")))

enum { errorNotSupported = 801 };  // hipErrorNotSupported and cudaErrorNotSupported
enum {
  KIND_LAUNCH = 1,
  KIND_RESULT = 2,
  KIND_MODULES = 3,
  KIND_THREAD = 4,
  KIND_FUNCTION = 5,
  KIND_KERNEL = 6,
  KIND_CALL = 7,
  KIND_DISPATCH = 8,
};
enum {
  LAUNCH_KERNEL = 0,
  EXT_LAUNCH_KERNEL = 1,
  COOPERATIVE_LAUNCH_KERNEL = 2,
  MODULE_LAUNCH_KERNEL = 3,
  CUDA_LAUNCH_KERNEL = 4,
  CUDA_KERNEL_LAUNCH = 5,  // __cudaLaunchKernel, of a kernel object
  CUDA_LAUNCH_KERNEL_EX = 6,
  DEVICE_LAUNCH = 7,  // __gpusym_device_launch: a kernel's thread launches (dynamic parallelism)
};
/* The calls a CALL record names (launches.py CALLS, in this order). */
enum {
  CALL_HIP_MEMCPY,
  CALL_HIP_MEMCPY_ASYNC,
  CALL_HIP_MEMCPY_WITH_STREAM,
  CALL_HIP_MEMCPY_HTOD,
  CALL_HIP_MEMCPY_DTOH,
  CALL_HIP_MEMCPY_DTOD,
  CALL_HIP_MEMCPY_HTOD_ASYNC,
  CALL_HIP_MEMCPY_DTOH_ASYNC,
  CALL_HIP_MEMCPY_DTOD_ASYNC,
  CALL_CUDA_MEMCPY,
  CALL_CUDA_MEMCPY_ASYNC,
  CALL_HIP_DEVICE_SYNCHRONIZE,
  CALL_HIP_STREAM_SYNCHRONIZE,
  CALL_CUDA_DEVICE_SYNCHRONIZE,
  CALL_CUDA_STREAM_SYNCHRONIZE,
};
/* hipMemcpyKind and cudaMemcpyKind alike; NO_COPY for a synchronisation. */
enum { HOST_TO_DEVICE = 1, DEVICE_TO_HOST = 2, DEVICE_TO_DEVICE = 3, NO_COPY = -1 };
enum { MAX_FRAMES = 64, OWN_FRAMES_MAX = 4, TABLE_SLOTS = 4096, DISPATCH_SLOTS = 4096 };
enum { DISPATCH_QUEUED = 1, DISPATCH_RUNNING = 2, DISPATCH_COMPLETE = 3 };  // gpusym_dispatch_state

struct header {
  uint32_t size, kind;
  uint64_t time_ns;
  uint32_t pid, tid;
};

struct launch_record {
  struct header header;
  uint64_t entry;
  uint32_t grid[3], block[3];
  uint64_t shmem, stream;
  int32_t device;
  uint32_t entry_point;
  uint64_t seq, index;
  uint32_t frame_count, detailed;
  uint64_t frames[MAX_FRAMES];
};
_Static_assert(sizeof(struct header) == 24, "header layout");
_Static_assert(offsetof(struct launch_record, frames) == 104, "launch layout");

struct result_record {
  struct header header;
  uint64_t seq;
  int32_t result;
  uint32_t name_length;
  int32_t form;  // the simulated runtime's enum gpusym_dispatch_form for the dispatch queued; -1: none
  uint32_t pad;
  char name[64];  // the runtime's hipGetErrorName, empty without one
};

struct function_record {
  struct header header;
  uint64_t entry;
  uint32_t name_length, module_length;
  char text[2048];  // the name, then the module's file, each padded to 8 bytes
};

struct kernel_record {
  struct header header;
  uint64_t object, entry;
};

struct call_record {
  struct header header;  // time_ns: when the call returned
  uint64_t start_ns, stream, bytes;
  uint32_t call;
  int32_t direction;
  int32_t result;
  uint32_t name_length;
  char name[64];  // the runtime's error name, empty for 0 or without one
};

struct dispatch_record {
  struct header header;
  uint64_t seq;       // of the launch call that queued it
  uint64_t id;        // the runtime's dispatch id
  uint64_t start_ns;  // when its first block started; 0: unknown
  uint64_t end_ns;    // when its last block was done; 0 in the record of its start
};

struct thread_record {
  struct header header;
  uint32_t name_length, pad;
  char name[16];  // pthread names are at most 15 bytes and a NUL
};

extern const char __ehdr_start;  // this library's ELF header: where its own symbols live

/* Configuration and state, set once by activate(). */
static pthread_once_t activation = PTHREAD_ONCE_INIT;
static int records_fd = -1;
static int backtraces = 1;
static uint64_t every = 1;
static uint64_t detail_limit = UINT64_MAX;
static int timeline;

/* Per process (reset in a forked child). */
static _Atomic uint32_t process_id;
static _Atomic uint64_t next_seq;
static _Atomic unsigned long long seen_adds, seen_subs;  // of the last module map written
static struct {
  _Atomic uintptr_t key;  // ~entry; 0 = free
  _Atomic uint64_t count;
} table[TABLE_SLOTS];
static _Atomic uint64_t overflow_count;  // every entry's launches once the table is full
/* Dispatches by id: the launch that queued each and when it started. */
static struct {
  _Atomic uint64_t id, seq, start_ns;
} dispatches[DISPATCH_SLOTS];

/* Per thread. */
static TLS uint32_t thread_pid;  // the process this thread last announced itself in
static TLS uint32_t thread_id;
static TLS int in_launch;  // a runtime's entry point calling another is one launch
static TLS int in_call;    // likewise for copies and synchronisations
static TLS uint64_t launch_seq = UINT64_MAX;  // of the launch call in progress
static TLS int32_t launch_form = -1;        // of the dispatch the launch call in progress queued

static uint64_t env_number(const char *name, uint64_t fallback) {
  const char *text = getenv(name);
  if (!text || !*text) return fallback;
  char *end;
  unsigned long long value = strtoull(text, &end, 10);
  return *end ? fallback : value;
}

static void reset_process(void) {
  atomic_store(&process_id, (uint32_t)getpid());
  atomic_store(&next_seq, 0);
  atomic_store(&seen_adds, 0);
  atomic_store(&seen_subs, 0);
  for (size_t i = 0; i < TABLE_SLOTS; i++) {
    atomic_store(&table[i].key, 0);
    atomic_store(&table[i].count, 0);
  }
  atomic_store(&overflow_count, 0);
  for (size_t i = 0; i < DISPATCH_SLOTS; i++) atomic_store(&dispatches[i].id, 0);
}

static void activate(void) {
  const char *path = getenv("GPUSYM_CAPTURE_RECORDS");
  if (!path || !*path) return;
  int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) {
    dprintf(2, "gpusym capture: launches not recorded: %s: %s\n", path, strerror(errno));
    return;
  }
  backtraces = env_number("GPUSYM_CAPTURE_BACKTRACES", 1) != 0;
  every = env_number("GPUSYM_CAPTURE_EVERY", 1);
  if (every == 0) every = 1;
  detail_limit = env_number("GPUSYM_CAPTURE_DETAIL_LIMIT", UINT64_MAX);
  void *warm[1];
  backtrace(warm, 1);  // loads the unwinder now rather than inside a record
  reset_process();
  pthread_atfork(NULL, NULL, reset_process);
  timeline = env_number("GPUSYM_CAPTURE_TIMELINE", 0) != 0;
  records_fd = fd;
}

__attribute__((constructor)) static void line_buffered_stdout(void) {
  const char *value = getenv("GPUSYM_CAPTURE_LINE_BUFFERED");
  if (value && strcmp(value, "1") == 0) setvbuf(stdout, NULL, _IOLBF, 0);
}

static uint64_t now_ns(void) {
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

static void emit(void *record, uint32_t size, uint32_t kind) {
  struct header *header = record;
  *header = (struct header){size, kind, now_ns(), atomic_load_explicit(&process_id, memory_order_relaxed), thread_id};
  while (write(records_fd, record, size) < 0 && errno == EINTR) {
  }
}

/* The module map: a growing buffer filled by dl_iterate_phdr. */
struct modules {
  char *data;
  size_t size, capacity;
  uint32_t count;
  int failed;
};

static void append(struct modules *map, const void *bytes, size_t length) {
  if (map->failed) return;
  if (map->size + length > map->capacity) {
    size_t capacity = (map->size + length) * 2;
    char *grown = realloc(map->data, capacity);
    if (!grown) {
      map->failed = 1;
      return;
    }
    map->data = grown;
    map->capacity = capacity;
  }
  memcpy(map->data + map->size, bytes, length);
  map->size += length;
}

static int add_module(struct dl_phdr_info *info, size_t info_size, void *context) {
  (void)info_size;
  struct modules *map = context;
  char exe[4096];
  const char *path = info->dlpi_name ? info->dlpi_name : "";
  if (map->count == 0 && !*path) {  // the main program
    ssize_t length = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[length > 0 ? length : 0] = 0;
    path = exe;
  }
  uint32_t segments = 0;
  for (size_t i = 0; i < info->dlpi_phnum; i++) segments += info->dlpi_phdr[i].p_type == PT_LOAD;
  struct {
    uint64_t base;
    uint32_t segment_count, path_length;
  } head = {info->dlpi_addr, segments, (uint32_t)strlen(path)};
  append(map, &head, sizeof head);
  for (size_t i = 0; i < info->dlpi_phnum; i++) {
    const ElfW(Phdr) *phdr = &info->dlpi_phdr[i];
    if (phdr->p_type != PT_LOAD) continue;
    uint64_t range[2] = {info->dlpi_addr + phdr->p_vaddr, phdr->p_memsz};
    append(map, range, sizeof range);
  }
  static const char zeros[8];
  append(map, path, head.path_length);
  append(map, zeros, -head.path_length & 7);
  map->count++;
  return 0;
}

struct counters {
  unsigned long long adds, subs;
};

static int first_module(struct dl_phdr_info *info, size_t info_size, void *context) {
  (void)info_size;
  *(struct counters *)context = (struct counters){info->dlpi_adds, info->dlpi_subs};
  return 1;
}

/* Writes the module map if it changed since the last one written. */
static void check_modules(void) {
  struct counters now = {0, 0};
  dl_iterate_phdr(first_module, &now);
  if (now.adds == atomic_load_explicit(&seen_adds, memory_order_acquire) &&
      now.subs == atomic_load_explicit(&seen_subs, memory_order_acquire))
    return;
  struct modules map = {0};
  uint64_t preamble[4] = {0};  // header and u32 count, u32 pad
  append(&map, preamble, sizeof preamble);
  dl_iterate_phdr(add_module, &map);
  if (!map.failed) {
    memcpy(map.data + sizeof(struct header), &map.count, sizeof map.count);
    emit(map.data, (uint32_t)map.size, KIND_MODULES);
    // Only now: a thread that sees these values finds the map already written.
    atomic_store_explicit(&seen_adds, now.adds, memory_order_release);
    atomic_store_explicit(&seen_subs, now.subs, memory_order_release);
  }
  free(map.data);
}

static void announce_thread(uint32_t pid) {
  thread_pid = pid;
  thread_id = (uint32_t)gettid();
  struct thread_record record = {0};
  pthread_getname_np(pthread_self(), record.name, sizeof record.name);
  record.name_length = (uint32_t)strlen(record.name);
  emit(&record, (uint32_t)(offsetof(struct thread_record, name) + ((record.name_length + 7) & ~7u)),
       KIND_THREAD);
}

/* How many launches of `entry` this process made before this one. */
static uint64_t launch_index(const void *entry) {
  uintptr_t key = ~(uintptr_t)entry;
  if (key == 0) return atomic_fetch_add_explicit(&overflow_count, 1, memory_order_relaxed);
  size_t slot = (size_t)((((uint64_t)(uintptr_t)entry >> 4) * 0x9E3779B97F4A7C15ull) >> 52);
  for (size_t probe = 0; probe < TABLE_SLOTS; probe++, slot = (slot + 1) % TABLE_SLOTS) {
    uintptr_t current = atomic_load_explicit(&table[slot].key, memory_order_acquire);
    if (current == 0 && atomic_compare_exchange_strong(&table[slot].key, &current, key)) current = key;
    if (current == key) return atomic_fetch_add_explicit(&table[slot].count, 1, memory_order_relaxed);
  }
  return atomic_fetch_add_explicit(&overflow_count, 1, memory_order_relaxed);
}

/* Records the launch; returns its sequence number, or -1 when nothing is
 * recorded (inactive, or nested in another launch).  `caller` is the
 * wrapper's return address: the frames above it are the interposer's own. */
/* A runtime loaded by a library that was itself dlopen'ed (RTLD_LOCAL) is
 * not in the global scope RTLD_NEXT searches: then each loaded object is
 * asked in turn, skipping this library. */
struct search {
  const char *name;
  void *found;
};

static int search_module(struct dl_phdr_info *info, size_t info_size, void *context) {
  (void)info_size;
  struct search *search = context;
  if (!info->dlpi_name || !*info->dlpi_name) return 0;
  void *handle = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
  if (!handle) return 0;
  void *symbol = dlsym(handle, search->name);
  dlclose(handle);
  Dl_info origin;
  if (!symbol || !dladdr(symbol, &origin) || origin.dli_fbase == (void *)&__ehdr_start) return 0;
  search->found = symbol;
  return 1;
}

/* The next definition of `name` (the runtime's), looked up until found. */
static void *next_symbol(_Atomic(void *) *cache, const char *name) {
  void *symbol = atomic_load_explicit(cache, memory_order_acquire);
  if (!symbol) {
    int saved_errno = errno;
    symbol = dlsym(RTLD_NEXT, name);
    if (!symbol) {
      struct search search = {name, NULL};
      dl_iterate_phdr(search_module, &search);
      symbol = search.found;
    }
    atomic_store_explicit(cache, symbol, memory_order_release);
    errno = saved_errno;
  }
  return symbol;
}

static uint32_t append_text(char *to, uint32_t room, const char *text) {
  uint32_t length = text ? (uint32_t)strnlen(text, room - 8) : 0;
  memcpy(to, text ? text : "", length);
  memset(to + length, 0, ((length + 7) & ~7u) - length);
  return length;
}

/* A FUNCTION record: the function at `entry` is `name`, of the file `module`
 * (either may be unknown: null). */
static void emit_function(const void *entry, const char *name, const char *module) {
  struct function_record record = {.entry = (uintptr_t)entry};
  record.name_length = append_text(record.text, 1024, name);
  uint32_t at = (record.name_length + 7) & ~7u;
  record.module_length = append_text(record.text + at, 1024, module);
  at += (record.module_length + 7) & ~7u;
  emit(&record, (uint32_t)(offsetof(struct function_record, text) + at), KIND_FUNCTION);
}

/* Names a module's function for the records, before its first launch. */
static void describe_function(const void *entry) {
  static _Atomic(void *) name_ref, module_path;
  const char *(*name_of)(const void *) = (const char *(*)(const void *))next_symbol(&name_ref, "hipKernelNameRef");
  const char *(*module_of)(const void *) =
      (const char *(*)(const void *))next_symbol(&module_path, "gpusym_function_module");
  emit_function(entry, name_of ? name_of(entry) : NULL, module_of ? module_of(entry) : NULL);
}

/* Names the function at `entry` by its symbol, before its first launch by
 * device code: the kernel's code in the simulated code object (or, from the
 * host side of a __host__ __device__ function, its host stub). */
static void describe_symbol(const void *entry) {
  Dl_info symbol;
  int found = dladdr(entry, &symbol);
  emit_function(entry, found ? symbol.dli_sname : NULL, found ? symbol.dli_fname : NULL);
}

/* The runtime's own calls a record uses, HIP's or CUDA's. */
struct runtime {
  const char *get_device, *error_name;
  _Atomic(void *) get_device_function, error_name_function;
};
static struct runtime hip = {.get_device = "hipGetDevice", .error_name = "hipGetErrorName"};
static struct runtime cuda = {.get_device = "cudaGetDevice", .error_name = "cudaGetErrorName"};

/* Whether records are written (the first call activates them); the calling
 * thread is announced before its first record. */
static int recording(void) {
  pthread_once(&activation, activate);
  if (records_fd < 0) return 0;
  uint32_t pid = atomic_load_explicit(&process_id, memory_order_relaxed);
  if (thread_pid != pid) announce_thread(pid);
  return 1;
}

/* The simulated runtime's dispatch observer: QUEUED on the launching thread
 * inside its launch call, RUNNING and COMPLETE where the dispatch runs. */
static void observe_dispatch(uint64_t id, uint32_t state, uint32_t form) {
  int saved_errno = errno;
  size_t slot = id % DISPATCH_SLOTS;
  if (state == DISPATCH_QUEUED) launch_form = (int32_t)form;
  if (!timeline) {
    errno = saved_errno;
    return;
  }
  if (state == DISPATCH_QUEUED) {
    atomic_store(&dispatches[slot].seq, launch_seq);
    atomic_store(&dispatches[slot].start_ns, 0);
    atomic_store(&dispatches[slot].id, id);
  } else if (atomic_load(&dispatches[slot].id) == id) {
    uint64_t seq = atomic_load(&dispatches[slot].seq), now = now_ns();
    if (state == DISPATCH_RUNNING) atomic_store(&dispatches[slot].start_ns, now);
    if (seq != UINT64_MAX && (state == DISPATCH_RUNNING || state == DISPATCH_COMPLETE)) {
      struct dispatch_record record = {.seq = seq, .id = id, .start_ns = atomic_load(&dispatches[slot].start_ns),
                                       .end_ns = state == DISPATCH_COMPLETE ? now : 0};
      emit(&record, sizeof record, KIND_DISPATCH);
    }
  }
  errno = saved_errno;
}

/* Registers the observer, at the first launch, when the runtime launching is
 * the simulated one: for each launch's form, and with a timeline for when
 * its kernel runs.  Another runtime is looked at once. */
static void observe_dispatches(void) {
  static _Atomic(void *) observe;
  static _Atomic int looked;
  if (atomic_load_explicit(&looked, memory_order_relaxed) || atomic_exchange(&looked, 1)) return;
  void (*observe_with)(void (*)(uint64_t, uint32_t, uint32_t)) =
      (void (*)(void (*)(uint64_t, uint32_t, uint32_t)))next_symbol(&observe, "gpusym_observe_dispatches");
  if (observe_with) observe_with(observe_dispatch);
}

/* The runtime's name of error `result` in `name` (empty without one); its length. */
static uint32_t error_name(hipError_t result, struct runtime *runtime, char *name, size_t size) {
  if (result == 0) return 0;
  const char *(*name_of)(hipError_t) =
      (const char *(*)(hipError_t))next_symbol(&runtime->error_name_function, runtime->error_name);
  const char *text = name_of ? name_of(result) : NULL;
  if (!text) return 0;
  strncpy(name, text, size - 1);
  return (uint32_t)strlen(name);
}

static __attribute__((noinline)) int64_t begin_launch(const void *entry, dim3 grid, dim3 block, uint64_t shmem,
                                                        void *stream, uint32_t entry_point, struct runtime *runtime,
                                                        void *caller) {
  if (in_launch) return -1;
  int saved_errno = errno;
  if (!recording()) {
    errno = saved_errno;
    return -1;
  }
  in_launch = 1;
  launch_form = -1;
  observe_dispatches();
  check_modules();
  struct launch_record record;
  record.entry = (uintptr_t)entry;
  memcpy(record.grid, &grid, sizeof grid);
  memcpy(record.block, &block, sizeof block);
  record.shmem = shmem;
  record.stream = (uintptr_t)stream;
  int device;
  hipError_t (*current_device)(int *) =
      (hipError_t(*)(int *))next_symbol(&runtime->get_device_function, runtime->get_device);
  record.device = current_device && current_device(&device) == 0 ? device : -1;
  record.entry_point = entry_point;
  record.seq = atomic_fetch_add_explicit(&next_seq, 1, memory_order_relaxed);
  record.index = launch_index(entry);
  if (entry_point == MODULE_LAUNCH_KERNEL && record.index == 0) describe_function(entry);
  if (entry_point == DEVICE_LAUNCH && record.index == 0) describe_symbol(entry);
  record.detailed = backtraces && record.index % every == 0 && record.index / every < detail_limit;
  record.frame_count = 0;
  if (record.detailed) {
    void *frames[MAX_FRAMES + OWN_FRAMES_MAX];
    int count = backtrace(frames, MAX_FRAMES + OWN_FRAMES_MAX);
    int own = 0;
    while (own < OWN_FRAMES_MAX && own < count && frames[own] != caller) own++;
    own = own < count && frames[own] == caller ? own : 2;  // this function's frame and the wrapper's
    for (int i = own; i < count && record.frame_count < MAX_FRAMES; i++)
      record.frames[record.frame_count++] = (uintptr_t)frames[i];
  } else {
    record.frames[record.frame_count++] = (uintptr_t)caller;  // free: says whether a stub launched
  }
  emit(&record, (uint32_t)(offsetof(struct launch_record, frames) + record.frame_count * sizeof(uint64_t)),
       KIND_LAUNCH);
  launch_seq = record.seq;
  errno = saved_errno;
  return (int64_t)record.seq;
}

/* Records the call's result, whether it accepted the launch or not: a
 * launch is only counted as one once its result says so. */
static hipError_t end_launch(int64_t seq, hipError_t result, struct runtime *runtime) {
  if (seq < 0) return result;
  in_launch = 0;
  launch_seq = UINT64_MAX;
  int saved_errno = errno;
  struct result_record record = {.seq = (uint64_t)seq, .result = result, .form = launch_form};
  launch_form = -1;
  record.name_length = error_name(result, runtime, record.name, sizeof record.name);
  emit(&record, (uint32_t)(offsetof(struct result_record, name) + ((record.name_length + 7) & ~7u)), KIND_RESULT);
  errno = saved_errno;
  return result;
}

typedef hipError_t launch_kernel_fn(const void *, dim3, dim3, void **, size_t, hipStream_t);
typedef hipError_t ext_launch_kernel_fn(const void *, dim3, dim3, void **, size_t, hipStream_t, hipEvent_t,
                                        hipEvent_t, int);
typedef hipError_t cooperative_launch_kernel_fn(const void *, dim3, dim3, void **, unsigned int, hipStream_t);
typedef hipError_t module_launch_kernel_fn(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned,
                                           unsigned, unsigned, hipStream_t, void **, void **);

EXPORT hipError_t hipLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem,
                                  hipStream_t stream) {
  static _Atomic(void *) next;
  launch_kernel_fn *real = (launch_kernel_fn *)next_symbol(&next, "hipLaunchKernel");
  if (!real) return errorNotSupported;
  int64_t seq = begin_launch(f, grid, block, shmem, stream, LAUNCH_KERNEL, &hip, __builtin_return_address(0));
  return end_launch(seq, real(f, grid, block, args, shmem, stream), &hip);
}

EXPORT hipError_t hipExtLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem,
                                     hipStream_t stream, hipEvent_t start, hipEvent_t stop, int flags) {
  static _Atomic(void *) next;
  ext_launch_kernel_fn *real = (ext_launch_kernel_fn *)next_symbol(&next, "hipExtLaunchKernel");
  if (!real) return errorNotSupported;
  int64_t seq = begin_launch(f, grid, block, shmem, stream, EXT_LAUNCH_KERNEL, &hip, __builtin_return_address(0));
  return end_launch(seq, real(f, grid, block, args, shmem, stream, start, stop, flags), &hip);
}

EXPORT hipError_t hipLaunchCooperativeKernel(const void *f, dim3 grid, dim3 block, void **args, unsigned int shmem,
                                             hipStream_t stream) {
  static _Atomic(void *) next;
  cooperative_launch_kernel_fn *real =
      (cooperative_launch_kernel_fn *)next_symbol(&next, "hipLaunchCooperativeKernel");
  if (!real) return errorNotSupported;
  int64_t seq =
      begin_launch(f, grid, block, shmem, stream, COOPERATIVE_LAUNCH_KERNEL, &hip, __builtin_return_address(0));
  return end_launch(seq, real(f, grid, block, args, shmem, stream), &hip);
}

EXPORT hipError_t hipModuleLaunchKernel(hipFunction_t f, unsigned gx, unsigned gy, unsigned gz, unsigned bx,
                                        unsigned by, unsigned bz, unsigned shmem, hipStream_t stream, void **params,
                                        void **extra) {
  static _Atomic(void *) next;
  module_launch_kernel_fn *real = (module_launch_kernel_fn *)next_symbol(&next, "hipModuleLaunchKernel");
  if (!real) return errorNotSupported;
  int64_t seq = begin_launch(f, (dim3){gx, gy, gz}, (dim3){bx, by, bz}, shmem, stream, MODULE_LAUNCH_KERNEL, &hip,
                             __builtin_return_address(0));
  return end_launch(seq, real(f, gx, gy, gz, bx, by, bz, shmem, stream, params, extra), &hip);
}

EXPORT hipError_t cudaLaunchKernel(const void *f, dim3 grid, dim3 block, void **args, size_t shmem,
                                   hipStream_t stream) {
  static _Atomic(void *) next;
  launch_kernel_fn *real = (launch_kernel_fn *)next_symbol(&next, "cudaLaunchKernel");
  if (!real) return errorNotSupported;
  int64_t seq = begin_launch(f, grid, block, shmem, stream, CUDA_LAUNCH_KERNEL, &cuda, __builtin_return_address(0));
  return end_launch(seq, real(f, grid, block, args, shmem, stream), &cuda);
}

/* cudaLaunchConfig_t's first fields, the ones a launch record keeps. */
typedef struct {
  dim3 grid, block;
  size_t shmem;
  hipStream_t stream;
} launch_config;

typedef hipError_t launch_kernel_ex_fn(const launch_config *, const void *, void **);

EXPORT hipError_t cudaLaunchKernelExC(const launch_config *config, const void *f, void **args) {
  static _Atomic(void *) next;
  launch_kernel_ex_fn *real = (launch_kernel_ex_fn *)next_symbol(&next, "cudaLaunchKernelExC");
  if (!real) return errorNotSupported;
  if (!config) return real(config, f, args);  // the runtime's own error, and no launch
  int64_t seq = begin_launch(f, config->grid, config->block, config->shmem, config->stream, CUDA_LAUNCH_KERNEL_EX,
                             &cuda, __builtin_return_address(0));
  return end_launch(seq, real(config, f, args), &cuda);
}

/* nvcc's <<<>>>: the stub gets its kernel's object once from __cudaGetKernel,
 * then launches the object with __cudaLaunchKernel. */
EXPORT hipError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 grid, dim3 block, void **args, size_t shmem,
                                     hipStream_t stream) {
  static _Atomic(void *) next;
  launch_kernel_fn *real = (launch_kernel_fn *)next_symbol(&next, "__cudaLaunchKernel");
  if (!real) return errorNotSupported;
  int64_t seq =
      begin_launch(kernel, grid, block, shmem, stream, CUDA_KERNEL_LAUNCH, &cuda, __builtin_return_address(0));
  return end_launch(seq, real(kernel, grid, block, args, shmem, stream), &cuda);
}

typedef hipError_t device_launch_fn(const void *, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, size_t,
                                    hipStream_t, void **);

/* A launch by a kernel's thread (gpusym-nvcc's rewrite of a <<<>>> in device code). */
EXPORT hipError_t __gpusym_device_launch(const void *kernel, uint32_t gx, uint32_t gy, uint32_t gz, uint32_t bx,
                                         uint32_t by, uint32_t bz, size_t shmem, hipStream_t stream, void **args) {
  static _Atomic(void *) next;
  device_launch_fn *real = (device_launch_fn *)next_symbol(&next, "__gpusym_device_launch");
  if (!real) return errorNotSupported;
  int64_t seq = begin_launch(kernel, (dim3){gx, gy, gz}, (dim3){bx, by, bz}, shmem, stream, DEVICE_LAUNCH, &cuda,
                             __builtin_return_address(0));
  return end_launch(seq, real(kernel, gx, gy, gz, bx, by, bz, shmem, stream, args), &cuda);
}

typedef hipError_t get_kernel_fn(cudaKernel_t *, const void *);

EXPORT hipError_t __cudaGetKernel(cudaKernel_t *kernel, const void *f) {
  static _Atomic(void *) next;
  get_kernel_fn *real = (get_kernel_fn *)next_symbol(&next, "__cudaGetKernel");
  if (!real) return errorNotSupported;
  hipError_t result = real(kernel, f);
  int saved_errno = errno;
  if (result == 0 && *kernel && recording()) {
    struct kernel_record record = {.object = (uintptr_t)*kernel, .entry = (uintptr_t)f};
    emit(&record, sizeof record, KIND_KERNEL);
  }
  errno = saved_errno;
  return result;
}

/* When a copy or synchronisation began; 0 when it is not recorded (no
 * timeline, or nested in another). */
static uint64_t begin_call(void) {
  if (in_call) return 0;
  int saved_errno = errno;
  pthread_once(&activation, activate);
  uint64_t start = timeline && recording() ? now_ns() : 0;
  in_call = start != 0;
  errno = saved_errno;
  return start;
}

/* Records the call begun at `start`, now that it returned `result`. */
static hipError_t end_call(uint64_t start, hipError_t result, uint32_t call, void *stream, uint64_t bytes,
                           int32_t direction, struct runtime *runtime) {
  if (!start) return result;
  in_call = 0;
  int saved_errno = errno;
  struct call_record record = {
      .start_ns = start, .stream = (uintptr_t)stream, .bytes = bytes, .call = call, .direction = direction,
      .result = result};
  record.name_length = error_name(result, runtime, record.name, sizeof record.name);
  emit(&record, (uint32_t)(offsetof(struct call_record, name) + ((record.name_length + 7) & ~7u)), KIND_CALL);
  errno = saved_errno;
  return result;
}

/* The body of a copy's or synchronisation's wrapper: the runtime's `name`
 * of type `type`, called with the arguments after `runtime`, recorded. */
#define CALL_THROUGH(type, name, call, stream, bytes, direction, runtime, ...)        \
  static _Atomic(void *) next;                                                        \
  type *real = (type *)next_symbol(&next, name);                                      \
  if (!real) return errorNotSupported;                                                \
  uint64_t start = begin_call();                                                      \
  return end_call(start, real(__VA_ARGS__), call, stream, bytes, direction, runtime)

typedef hipError_t memcpy_fn(void *, const void *, size_t, int);
typedef hipError_t memcpy_stream_fn(void *, const void *, size_t, int, hipStream_t);
typedef hipError_t memcpy_typed_fn(void *, const void *, size_t);
typedef hipError_t memcpy_typed_stream_fn(void *, const void *, size_t, hipStream_t);
typedef hipError_t synchronize_fn(void);
typedef hipError_t synchronize_stream_fn(hipStream_t);

EXPORT hipError_t hipMemcpy(void *dst, const void *src, size_t bytes, int kind) {
  CALL_THROUGH(memcpy_fn, "hipMemcpy", CALL_HIP_MEMCPY, NULL, bytes, kind, &hip, dst, src, bytes, kind);
}

EXPORT hipError_t hipMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, hipStream_t stream) {
  CALL_THROUGH(memcpy_stream_fn, "hipMemcpyAsync", CALL_HIP_MEMCPY_ASYNC, stream, bytes, kind, &hip, dst, src, bytes,
               kind, stream);
}

EXPORT hipError_t hipMemcpyWithStream(void *dst, const void *src, size_t bytes, int kind, hipStream_t stream) {
  CALL_THROUGH(memcpy_stream_fn, "hipMemcpyWithStream", CALL_HIP_MEMCPY_WITH_STREAM, stream, bytes, kind, &hip, dst,
               src, bytes, kind, stream);
}

EXPORT hipError_t hipMemcpyHtoD(void *dst, const void *src, size_t bytes) {
  CALL_THROUGH(memcpy_typed_fn, "hipMemcpyHtoD", CALL_HIP_MEMCPY_HTOD, NULL, bytes, HOST_TO_DEVICE, &hip, dst, src,
               bytes);
}

EXPORT hipError_t hipMemcpyDtoH(void *dst, const void *src, size_t bytes) {
  CALL_THROUGH(memcpy_typed_fn, "hipMemcpyDtoH", CALL_HIP_MEMCPY_DTOH, NULL, bytes, DEVICE_TO_HOST, &hip, dst, src,
               bytes);
}

EXPORT hipError_t hipMemcpyDtoD(void *dst, const void *src, size_t bytes) {
  CALL_THROUGH(memcpy_typed_fn, "hipMemcpyDtoD", CALL_HIP_MEMCPY_DTOD, NULL, bytes, DEVICE_TO_DEVICE, &hip, dst, src,
               bytes);
}

EXPORT hipError_t hipMemcpyHtoDAsync(void *dst, const void *src, size_t bytes, hipStream_t stream) {
  CALL_THROUGH(memcpy_typed_stream_fn, "hipMemcpyHtoDAsync", CALL_HIP_MEMCPY_HTOD_ASYNC, stream, bytes,
               HOST_TO_DEVICE, &hip, dst, src, bytes, stream);
}

EXPORT hipError_t hipMemcpyDtoHAsync(void *dst, const void *src, size_t bytes, hipStream_t stream) {
  CALL_THROUGH(memcpy_typed_stream_fn, "hipMemcpyDtoHAsync", CALL_HIP_MEMCPY_DTOH_ASYNC, stream, bytes,
               DEVICE_TO_HOST, &hip, dst, src, bytes, stream);
}

EXPORT hipError_t hipMemcpyDtoDAsync(void *dst, const void *src, size_t bytes, hipStream_t stream) {
  CALL_THROUGH(memcpy_typed_stream_fn, "hipMemcpyDtoDAsync", CALL_HIP_MEMCPY_DTOD_ASYNC, stream, bytes,
               DEVICE_TO_DEVICE, &hip, dst, src, bytes, stream);
}

EXPORT hipError_t cudaMemcpy(void *dst, const void *src, size_t bytes, int kind) {
  CALL_THROUGH(memcpy_fn, "cudaMemcpy", CALL_CUDA_MEMCPY, NULL, bytes, kind, &cuda, dst, src, bytes, kind);
}

EXPORT hipError_t cudaMemcpyAsync(void *dst, const void *src, size_t bytes, int kind, hipStream_t stream) {
  CALL_THROUGH(memcpy_stream_fn, "cudaMemcpyAsync", CALL_CUDA_MEMCPY_ASYNC, stream, bytes, kind, &cuda, dst, src,
               bytes, kind, stream);
}

EXPORT hipError_t hipDeviceSynchronize(void) {
  CALL_THROUGH(synchronize_fn, "hipDeviceSynchronize", CALL_HIP_DEVICE_SYNCHRONIZE, NULL, 0, NO_COPY, &hip);
}

EXPORT hipError_t hipStreamSynchronize(hipStream_t stream) {
  CALL_THROUGH(synchronize_stream_fn, "hipStreamSynchronize", CALL_HIP_STREAM_SYNCHRONIZE, stream, 0, NO_COPY, &hip,
               stream);
}

EXPORT hipError_t cudaDeviceSynchronize(void) {
  CALL_THROUGH(synchronize_fn, "cudaDeviceSynchronize", CALL_CUDA_DEVICE_SYNCHRONIZE, NULL, 0, NO_COPY, &cuda);
}

EXPORT hipError_t cudaStreamSynchronize(hipStream_t stream) {
  CALL_THROUGH(synchronize_stream_fn, "cudaStreamSynchronize", CALL_CUDA_STREAM_SYNCHRONIZE, stream, 0, NO_COPY,
               &cuda, stream);
}
