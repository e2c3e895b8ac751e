/*
 * The debugger interface of the gpusym simulated runtime.
 *
 * In the spirit of glibc's r_debug/_dl_debug_state and GDB's JIT interface:
 * the runtime exports one structure, `gpusym_debug`, describing what is loaded
 * and running, and calls the empty function `gpusym_debug_state()` after each
 * change.  A debugger sets a breakpoint on that function, and on each hit (or
 * at any other stop) reads the structure; `last_event` says what changed.
 *
 * Layout rules: a debugger must check `version` first.  Fields are only ever
 * appended to the records; each array is (count, pointer) and the pointer may
 * change whenever `generation` changes.  Strings are NUL-terminated and live as
 * long as the record that points to them.
 *
 * Versions: 1 (code objects, kernels, dispatches, executors); 2 appended the
 * device memory range, the allocation table and the fault record; 3 appended
 * the devices and streams, each dispatch's stream id and gpusym_current_device,
 * and padded the executor records to 64 bytes; 4 appended each code object's
 * origin (modules loaded at run time by hipModuleLoad and hipModuleLoadData);
 * 5 appended the lane watches; 6 made two of each executor's padding words
 * its block and the end of the run of blocks it claimed, and appended each
 * dispatch's count of claimed blocks, and appended each watch's threads.
 * 9 made each dispatch's reserved word its form, and appended its counts of
 * blocks run in the fast form and replayed in the debuggable form.
 * An allocation's `freed_by` took the place of a reserved field that was
 * always 0, which it still means: hipFree.
 */
#ifndef GPUSYM_DEBUG_INTERFACE_H
#define GPUSYM_DEBUG_INTERFACE_H

#include <stdint.h>

#include "gpusym/lane.h"

#ifdef __cplusplus
extern "C" {
#endif

#define GPUSYM_DEBUG_VERSION 13
/* Kernels a debugger can name in gpusym_debug.kernel_interest (version 11). */
#define GPUSYM_DEBUG_INTEREST_SLOTS 32

/*
 * The bundle entry id of the simulated device's code object in a fat binary:
 * an x86-64 ELF shared object built from the program's own device code.  It is
 * the form clang-offload-bundler writes for target
 * hipv4-x86_64-unknown-linux-gnu-gpusym (note the trailing dash).
 */
#define GPUSYM_SIM_BUNDLE_ID "hipv4-x86_64-unknown-linux-gnu-gpusym-"

/* The runtime's shared library: its file name, and soname, start so. */
#define GPUSYM_RUNTIME_LIBRARY "libgpusym_runtime"

/*
 * In the file names of the code objects the runtime writes and loads: a fat
 * binary's is BASE.gpusym.ID.so (a debugger finds its kernels through the
 * host binary), a module's BASE.gpusym-module.ID.so (its only source).
 */
#define GPUSYM_FAT_BINARY_CODE_OBJECT_MARK ".gpusym."
#define GPUSYM_MODULE_CODE_OBJECT_MARK ".gpusym-module."

/* Capacity of the dispatch ring: launches beyond it wait for a free slot. */
#define GPUSYM_DEBUG_DISPATCH_SLOTS 1024

enum gpusym_debug_event {
  GPUSYM_EVENT_NONE = 0,
  GPUSYM_EVENT_CODE_OBJECT_LOADED = 1,   /* event_index: code object */
  GPUSYM_EVENT_CODE_OBJECT_UNLOADED = 2, /* event_index: code object */
  GPUSYM_EVENT_KERNEL_REGISTERED = 3,    /* event_index: kernel */
  GPUSYM_EVENT_DISPATCH_QUEUED = 4,      /* event_index: dispatch slot */
  GPUSYM_EVENT_DISPATCH_STARTED = 5,     /* event_index: dispatch slot */
  GPUSYM_EVENT_DISPATCH_COMPLETED = 6,   /* event_index: dispatch slot */
  GPUSYM_EVENT_ALLOCATED = 7,            /* event_index: allocation slot (version 2) */
  GPUSYM_EVENT_FREED = 8,                /* event_index: allocation slot (version 2) */
  GPUSYM_EVENT_FAULT = 9,                /* a kernel faulted: see gpusym_debug.fault (version 2) */
  GPUSYM_EVENT_STREAM_CREATED = 10,      /* event_index: stream slot (version 3) */
  GPUSYM_EVENT_STREAM_DESTROYED = 11,    /* event_index: stream slot, freed once drained (version 3) */
};

enum gpusym_code_object_origin {
  GPUSYM_ORIGIN_FAT_BINARY = 0,    /* __hipRegisterFatBinary: one per HIP translation unit */
  GPUSYM_ORIGIN_MODULE_FILE = 1,   /* hipModuleLoad */
  GPUSYM_ORIGIN_MODULE_IMAGE = 2,  /* hipModuleLoadData(Ex) */
};

/* One code object: a fat binary registered by the program, or a module it
 * loaded.  The same kernel in two of them is two kernels. */
struct gpusym_debug_code_object {
  uint32_t module_id;           /* order of registration, from 0 */
  uint32_t loaded;              /* 1 while registered, 0 after unregistration */
  const void *fatbin_wrapper;   /* the program's __hip_fatbin_wrapper; the hipModule_t of a module */
  const char *host_path;        /* host binary holding the fat binary; the file a module was loaded from ("" for an image) */
  const char *path;             /* file of the simulated code object, or NULL */
  uintptr_t load_address;       /* its load bias (link_map l_addr), or 0 */
  uint32_t origin;              /* enum gpusym_code_object_origin (version 4) */
  uint32_t reserved;
};

/* One kernel registered with __hipRegisterFunction, or found in a module. */
struct gpusym_debug_kernel {
  const void *handle;           /* host address naming the kernel; the hipFunction_t of a module's */
  const char *device_name;      /* mangled name in the device code objects */
  uintptr_t device_entry;       /* entry in the simulated code object, or 0 */
  uint32_t module_id;
  uint32_t reserved;
  uint64_t launch_count;
};

enum gpusym_dispatch_state {
  GPUSYM_DISPATCH_FREE = 0,       /* slot unused */
  GPUSYM_DISPATCH_QUEUED = 1,
  GPUSYM_DISPATCH_RUNNING = 2,
  GPUSYM_DISPATCH_COMPLETE = 3,   /* kept until the slot is reused */
};

/* Host frames recorded per dispatch when GPUSYM_DEBUG_CAPTURE_HOST_STACKS is set. */
#define GPUSYM_DEBUG_HOST_FRAMES 32

/* Bits of gpusym_debug.flags, set by a debugger (or by GPUSYM_CAPTURE_STACKS=1
 * and GPUSYM_FORM=debug). */
#define GPUSYM_DEBUG_CAPTURE_HOST_STACKS 0x1
/* Dispatches launched from now run in the debuggable form (a kernel's fast
 * form runs a block's threads as one loop, where no lane can be stopped). */
#define GPUSYM_DEBUG_DEBUGGABLE_FORM 0x2
/* A debugger has breakpoints (or watchpoints) that any lane may reach: blocks
 * that start from now run in the debuggable form (version 10).  Without it,
 * a fast dispatch runs in the debuggable form only the blocks a watch names. */
#define GPUSYM_DEBUG_DEBUGGER_INTEREST 0x4

/* The form a dispatch's blocks run in (version 9), decided at its launch. */
enum gpusym_dispatch_form {
  GPUSYM_FORM_DEBUG_ONLY = 0,   /* its kernel has no fast form: the debuggable form */
  GPUSYM_FORM_DEBUGGABLE = 1,   /* the debuggable form, as a debugger or a check wants */
  GPUSYM_FORM_FAST = 2,         /* the fast form: a block's threads as one loop, no lane to stop, but
                                   for the blocks a debugger wants (blocks_debuggable) */
};

/* One kernel launch. */
struct gpusym_debug_dispatch {
  uint64_t id;                  /* 1, 2, ... in launch order */
  uint32_t state;               /* enum gpusym_dispatch_state */
  uint32_t kernel_index;        /* index into gpusym_debug.kernels */
  struct gpusym_dim3 grid;
  struct gpusym_dim3 block;
  uint64_t shared_mem;          /* dynamic shared memory in bytes */
  const void *stream;           /* hipStream_t, NULL for the null stream */
  uint64_t host_thread;         /* kernel thread id (gettid) of the launcher */
  uint32_t device;
  uint32_t host_frame_count;    /* return addresses in host_frames, 0 unless captured */
  uint64_t host_frames[GPUSYM_DEBUG_HOST_FRAMES];  /* innermost first, from the launch call */
  uint64_t stream_id;           /* gpusym_debug_stream.id of its stream, 0 for the null stream (version 3) */
  uint64_t blocks_claimed;      /* blocks (in linear order) taken by workers so far: the rest have not started (version 6) */
  uint32_t wave_size;           /* lanes of a wavefront of its kernel's code, 32 or 64 (version 7) */
  uint32_t form;                /* enum gpusym_dispatch_form (version 9) */
  uint64_t blocks_fast;         /* blocks run to their end in the fast form, counted as each worker's run of them ends (version 9) */
  uint64_t blocks_replayed;     /* fast blocks that faulted and ran again in the debuggable form (version 9) */
  uint64_t blocks_debuggable;   /* blocks of a fast dispatch run in the debuggable form as a debugger wanted
                                   (GPUSYM_DEBUG_DEBUGGER_INTEREST, a watch naming the block; version 10) */
  uint64_t parent_id;           /* the dispatch a thread of which launched this one (dynamic parallelism),
                                   0 for a launch by host code (version 13) */
};

/* One simulated device (GPUSYM_DEVICES of them, ordinals 0, 1, ...). */
struct gpusym_debug_device {
  uint32_t ordinal;
  uint32_t stream_count;        /* live streams of the device, its null stream included */
  const char *name;             /* as hipGetDeviceProperties reports it */
  uint64_t allocation_count;    /* live hipMalloc allocations made while it was current */
  uint64_t allocated_bytes;     /* their sizes, summed */
};

enum gpusym_stream_state {
  GPUSYM_STREAM_FREE = 0,       /* slot unused */
  GPUSYM_STREAM_LIVE = 1,
  GPUSYM_STREAM_DESTROYED = 2,  /* hipStreamDestroy called; its work still runs */
};

/* A stream's flags bit: it does not wait for the null stream (hipStreamNonBlocking). */
#define GPUSYM_STREAM_NON_BLOCKING 0x1

/* One stream: each device's null stream, then every hipStreamCreate*. */
struct gpusym_debug_stream {
  uint64_t id;                  /* 0 for a device's null stream, then 1, 2, ... in creation order */
  const void *handle;           /* hipStream_t, NULL for the null stream */
  uint32_t device;
  uint32_t flags;               /* 0, or GPUSYM_STREAM_NON_BLOCKING */
  uint32_t state;               /* enum gpusym_stream_state */
  uint32_t reserved;
  uint64_t pending;             /* operations queued or running: kernels, copies, event records and waits */
};

/* One CPU thread that runs lanes: a worker, or a launching thread when
 * GPUSYM_LAUNCH_BLOCKING=1. */
struct gpusym_debug_executor {
  uint64_t os_thread;           /* kernel thread id (gettid) */
  struct gpusym_lane *lane;     /* lane running now, or NULL */
  struct gpusym_lane *lanes;    /* the lanes of the block it runs */
  uint32_t lane_count;          /* lanes in that block, 0 when idle */
  uint32_t fast;                /* 1 while the block runs in its kernel's fast form (version 10) */
  uint64_t block;               /* linear index of the block it runs, while lane_count != 0 (version 6) */
  uint64_t run_end;             /* its claimed blocks not run yet are block + 1 to run_end - 1 (version 6) */
  uint64_t padding[2];          /* to 64 bytes (version 3): each record on its own cache line */
};

enum gpusym_allocation_state {
  GPUSYM_ALLOCATION_UNUSED = 0,   /* slot unused */
  GPUSYM_ALLOCATION_LIVE = 1,
  GPUSYM_ALLOCATION_FREED = 2,    /* freed; its addresses are not handed out again yet */
};

enum gpusym_allocation_freed_by {
  GPUSYM_FREED_BY_FREE = 0,       /* hipFree */
  GPUSYM_FREED_BY_RESET = 1,      /* hipDeviceReset of the device it was made on */
};

/* The call that made an allocation (version 8): HIP's or CUDA's, plain or
 * managed; then stream-ordered (from a memory pool or a graph's allocation
 * node, freed by hipFreeAsync or a graph's free node) and virtual memory
 * mappings (hipMemMap, the driver API's cuMemMap), from version 11. */
enum gpusym_allocation_made_by {
  GPUSYM_MADE_BY_HIP_MALLOC = 0,
  GPUSYM_MADE_BY_HIP_MALLOC_MANAGED = 1,
  GPUSYM_MADE_BY_CUDA_MALLOC = 2,
  GPUSYM_MADE_BY_CUDA_MALLOC_MANAGED = 3,
  GPUSYM_MADE_BY_HIP_MALLOC_ASYNC = 4,
  GPUSYM_MADE_BY_CUDA_MALLOC_ASYNC = 5,
  GPUSYM_MADE_BY_HIP_MEM_MAP = 6,
  GPUSYM_MADE_BY_CU_MEM_MAP = 7,
};

/* One device allocation: every live one, and the most recently freed. */
struct gpusym_debug_allocation {
  uint64_t base;                /* the pointer hipMalloc returned */
  uint64_t size;                /* the bytes asked for */
  uint32_t state;               /* enum gpusym_allocation_state */
  uint16_t freed_by;            /* enum gpusym_allocation_freed_by, when freed */
  uint16_t made_by;             /* enum gpusym_allocation_made_by (version 8) */
  uint64_t serial;              /* 1, 2, ... in allocation order */
};

enum gpusym_fault_kind {
  GPUSYM_FAULT_NONE = 0,
  GPUSYM_FAULT_MEMORY = 1,      /* SIGSEGV or SIGBUS in a lane */
  GPUSYM_FAULT_ASSERTION = 2,   /* a failed assert() in device code */
  GPUSYM_FAULT_ABORT = 3,       /* abort() in device code */
  GPUSYM_FAULT_STACK = 4,       /* a lane overflowed its stack */
};

enum gpusym_fault_access {
  GPUSYM_ACCESS_UNKNOWN = 0,
  GPUSYM_ACCESS_READ = 1,
  GPUSYM_ACCESS_WRITE = 2,
};

/* The first fault in a kernel, written by the runtime before it ends the
 * process (for a memory fault: after the debugger has seen the signal). */
struct gpusym_debug_fault {
  uint32_t kind;                /* enum gpusym_fault_kind */
  uint32_t signal;              /* the signal the process ends with */
  uint64_t os_thread;           /* kernel thread id (gettid) of the lane's CPU thread */
  uint64_t dispatch_id;
  uint32_t kernel_index;        /* index into gpusym_debug.kernels */
  uint32_t access;              /* enum gpusym_fault_access */
  struct gpusym_dim3 block;
  struct gpusym_dim3 thread;
  uint64_t address;             /* the faulting address (memory and stack faults) */
  uint64_t allocation_base;     /* the allocation it was in or near, or 0 */
  uint64_t allocation_size;
  uint32_t allocation_state;    /* enum gpusym_allocation_state of that allocation */
  uint32_t line;                /* assertion: source line */
  const char *assertion;        /* assertion: the condition's text, else NULL */
  const char *file;             /* assertion: source file, else NULL */
  const char *function;         /* assertion: function, else NULL */
  const char *message;          /* the report printed on stderr, without "gpusym: " */
};

/*
 * A breakpoint gated by lane (version 5).  A debugger's breakpoint that
 * stops only in some lanes would otherwise trap in every lane, each trap a
 * round trip through the debugger.  So the runtime keeps the breakpoint's
 * trap instructions in the code only while a block holding such a lane
 * runs: when a worker starts a block matching `block` (a coordinate of
 * GPUSYM_WATCH_ANY matches any), it writes `trap` (0xCC on x86-64) at each
 * address, and when no matching block runs any more it writes back
 * `original`, the byte the debugger's trap replaced.  The debugger still
 * checks the lane at each stop (other lanes of the block, and other
 * workers' lanes while the block runs, may trap); it fills a watch only
 * for addresses no other breakpoint uses, and clears it (`active` 0)
 * before the breakpoint is removed.
 *
 * A watch whose `thread` is not all GPUSYM_WATCH_ANY (version 6) arms the
 * trap only while a matching lane runs (a lane of a matching block, with
 * matching thread coordinates): the runtime looks at each lane switch while
 * `watch_count` is nonzero, and `armed_blocks` counts the matching lanes
 * running.
 */
#define GPUSYM_DEBUG_WATCH_SLOTS 8
#define GPUSYM_DEBUG_WATCH_ADDRESSES 4
#define GPUSYM_WATCH_ANY 0xffffffffu

struct gpusym_debug_watch {
  uint32_t active;              /* 1 when the debugger has filled it */
  uint32_t address_count;       /* addresses in use, at most GPUSYM_DEBUG_WATCH_ADDRESSES */
  struct gpusym_dim3 block;     /* the blocks it arms the trap for */
  uint32_t armed_blocks;        /* written by the runtime: matching blocks running now */
  uint64_t addresses[GPUSYM_DEBUG_WATCH_ADDRESSES];
  uint8_t original[GPUSYM_DEBUG_WATCH_ADDRESSES];
  uint8_t trap;
  uint8_t reserved[3];
  struct gpusym_dim3 thread;    /* the threads it arms the trap for (version 6) */
  uint32_t reserved_thread;
  uint64_t kernel;              /* version 12: the entry of the kernel whose code holds the
                                 * addresses, whose matching blocks run in the debuggable
                                 * form; 0: any kernel's */
};

struct gpusym_debug {
  uint32_t version;             /* GPUSYM_DEBUG_VERSION */
  uint32_t last_event;          /* enum gpusym_debug_event */
  uint64_t event_index;
  uint64_t generation;          /* bumped on every change */

  uint32_t code_object_count;
  uint32_t kernel_count;
  struct gpusym_debug_code_object *code_objects;
  struct gpusym_debug_kernel *kernels;

  struct gpusym_debug_dispatch *dispatches;  /* GPUSYM_DEBUG_DISPATCH_SLOTS */
  uint64_t dispatch_count;                   /* launches so far */

  uint32_t executor_count;
  uint32_t flags;               /* GPUSYM_DEBUG_* bits, written by a debugger */
  struct gpusym_debug_executor *executors;

  /* version 2 */
  uint64_t device_memory_base;  /* the address range hipMalloc allocates from */
  uint64_t device_memory_size;  /* 0 before the first allocation */
  uint32_t allocation_count;    /* slots in allocations (some may be unused) */
  uint32_t reserved;
  struct gpusym_debug_allocation *allocations;
  struct gpusym_debug_fault *fault;          /* NULL until a kernel faults */
  uint64_t lane_stack_size;     /* bytes of each lane's stack, 0 before the first launch */

  /* version 3 */
  uint32_t device_count;
  uint32_t stream_count;        /* slots in `streams`, free ones included */
  struct gpusym_debug_device *devices;
  struct gpusym_debug_stream *streams;

  /* version 5 */
  uint32_t watch_count;         /* active watches: the runtime looks at `watches` only when nonzero */
  uint32_t reserved_watch;
  struct gpusym_debug_watch watches[GPUSYM_DEBUG_WATCH_SLOTS];

  /* version 11: the kernels a debugger may stop any lane of (a breakpoint
   * in their code that no watch gates), by their entries in the simulated
   * code object: their blocks run in the debuggable form, the others' in
   * the fast form.  GPUSYM_DEBUG_DEBUGGER_INTEREST still means every
   * kernel (a watchpoint, a breakpoint in code of no known kernel, more
   * kernels than the slots). */
  uint32_t kernel_interest_count;
  uint32_t reserved_interest;
  uint64_t kernel_interest[GPUSYM_DEBUG_INTEREST_SLOTS];
};

/*
 * Per host thread: the launch in progress, or the last one.  Set by
 * __hipPushCallConfiguration (handle still NULL: the stub has not launched
 * yet) and by hipLaunchKernel, so that a debugger stopped in a kernel stub or
 * in the launch call can show what is being launched.
 */
struct gpusym_launch_state {
  const void *handle;           /* kernel handle, NULL before hipLaunchKernel */
  struct gpusym_dim3 grid;
  struct gpusym_dim3 block;
  uint64_t shared_mem;
  const void *stream;
  uint64_t dispatch_id;         /* of the last dispatch queued, 0 before any */
};

extern struct gpusym_debug gpusym_debug;
extern __thread struct gpusym_launch_state gpusym_launch_state;

/* Per host thread: its current device (hipSetDevice; 0 in a new thread).  A
 * worker running a block has the device of that block's dispatch. */
extern __thread int gpusym_current_device;

/* Called after every change to gpusym_debug; a breakpoint target. */
void gpusym_debug_state(void);

/* For tools in the process (such as gpusym capture's launch recorder): the
 * file a kernel's code object came from, given its handle or hipFunction_t:
 * the host binary of a fat binary, the file given to hipModuleLoad, "" for a
 * module loaded from memory; NULL for an unknown handle. */
const char *gpusym_function_module(const void *function);

/* For tools in the process (gpusym capture's timeline): `observer`, when not
 * NULL, is called with a dispatch's id and its new state (enum
 * gpusym_dispatch_state): QUEUED on the launching thread before the launch
 * call returns, RUNNING when its first block starts and COMPLETE when its
 * last block is done, on the thread that runs them; with the form its blocks
 * run in (enum gpusym_dispatch_form).  NULL removes it. */
typedef void gpusym_dispatch_observer(uint64_t id, uint32_t state, uint32_t form);
void gpusym_observe_dispatches(gpusym_dispatch_observer *observer);

#ifdef __cplusplus
}
#endif

#endif
