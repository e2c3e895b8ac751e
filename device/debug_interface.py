"""The simulated runtime's debugger interface (include/gpusym/
debug_interface.h and lane.h) as Python names: its versions, its enums, its
constants, and the facts the runtime and a debugger share.  The records
themselves are read through the runtime's debug information, field by name;
tests/device/test_debug_interface.py checks every name here against the headers."""

from __future__ import annotations

from enum import IntEnum
from pathlib import Path

HEADERS = Path(__file__).resolve().parent / "include" / "gpusym"


class Version(IntEnum):
    """The interface versions (``gpusym_debug.version``), by what each appended."""

    FIRST = 1  # code objects, kernels, dispatches, executors
    FAULTS = 2  # device memory range, allocation table, fault record, lane stack size
    DEVICES = 3  # devices and streams, each dispatch's stream id
    MODULES = 4  # each code object's origin
    WATCHES = 5  # lane watches
    CLAIMS = 6  # executors' block and run end, dispatches' claimed blocks
    WATCH_THREADS = 6  # and watches' threads
    WAVE_SIZE = 7  # each dispatch's wave size
    MADE_BY = 8  # the call that made each allocation
    FORMS = 9  # each dispatch's form, its blocks run fast and replayed
    INTEREST = 10  # the debugger's interest in every lane, blocks a debugger wanted debuggable
    KERNEL_INTEREST = 11  # the kernels a debugger may stop any lane of
    WATCH_KERNEL = 12  # the kernel whose code holds a watch's addresses
    LAUNCHED_BY_DEVICE = 13  # the dispatch whose thread launched each dispatch


#: GPUSYM_RUNTIME_LIBRARY: the runtime's file name (and soname) starts so.
RUNTIME_LIBRARY = "libgpusym_runtime"
#: GPUSYM_FAT_BINARY_CODE_OBJECT_MARK: in the file names of the code objects
#: the runtime extracts from fat binaries (BASE.gpusym.ID.so), whose kernels
#: a debugger finds through the host binary.
FAT_BINARY_CODE_OBJECT_MARK = ".gpusym."
#: GPUSYM_MODULE_CODE_OBJECT_MARK: in those of modules loaded at run time
#: (BASE.gpusym-module.ID.so), their kernels' only source.
MODULE_CODE_OBJECT_MARK = ".gpusym-module."
#: GPUSYM_STREAM_NON_BLOCKING: a stream's flags bit (hipStreamNonBlocking).
STREAM_NON_BLOCKING = 0x1
#: GPUSYM_DEBUG_DISPATCH_SLOTS: the dispatch ring's records.
DISPATCH_SLOTS = 1024
#: GPUSYM_DEBUG_CAPTURE_HOST_STACKS: gpusym_debug.flags bit, record each launch's host stack.
CAPTURE_HOST_STACKS = 0x1
#: GPUSYM_DEBUG_DEBUGGABLE_FORM: gpusym_debug.flags bit, dispatches run in the debuggable form.
DEBUGGABLE_FORM = 0x2
#: GPUSYM_DEBUG_DEBUGGER_INTEREST: gpusym_debug.flags bit, a debugger's breakpoints may stop any lane.
DEBUGGER_INTEREST = 0x4
#: GPUSYM_WATCH_ANY: a watch's coordinate that matches any.
WATCH_ANY = 0xFFFFFFFF
#: GPUSYM_WAVE_SIZE: lanes of a wavefront unless the device code asked for 32.
WAVE_SIZE = 64


class DispatchState(IntEnum):
    """enum gpusym_dispatch_state"""

    FREE = 0
    QUEUED = 1
    RUNNING = 2
    COMPLETE = 3


class DispatchForm(IntEnum):
    """enum gpusym_dispatch_form"""

    DEBUG_ONLY = 0
    DEBUGGABLE = 1
    FAST = 2


class StreamState(IntEnum):
    """enum gpusym_stream_state"""

    FREE = 0
    LIVE = 1
    DESTROYED = 2


class CodeObjectOrigin(IntEnum):
    """enum gpusym_code_object_origin"""

    FAT_BINARY = 0
    MODULE_FILE = 1
    MODULE_IMAGE = 2


class AllocationState(IntEnum):
    """enum gpusym_allocation_state"""

    UNUSED = 0
    LIVE = 1
    FREED = 2


class FreedBy(IntEnum):
    """enum gpusym_allocation_freed_by"""

    FREE = 0
    RESET = 1


class MadeBy(IntEnum):
    """enum gpusym_allocation_made_by"""

    HIP_MALLOC = 0
    HIP_MALLOC_MANAGED = 1
    CUDA_MALLOC = 2
    CUDA_MALLOC_MANAGED = 3
    HIP_MALLOC_ASYNC = 4
    CUDA_MALLOC_ASYNC = 5
    HIP_MEM_MAP = 6
    CU_MEM_MAP = 7


class FaultKind(IntEnum):
    """enum gpusym_fault_kind"""

    NONE = 0
    MEMORY = 1
    ASSERTION = 2
    ABORT = 3
    STACK = 4


class Access(IntEnum):
    """enum gpusym_fault_access"""

    UNKNOWN = 0
    READ = 1
    WRITE = 2


class LaneState(IntEnum):
    """enum gpusym_lane_state (lane.h)"""

    UNSTARTED = 0
    RUNNING = 1
    AT_BARRIER = 2
    EXITED = 3
    AT_WAVE_OP = 4
    WAVE_OP_DONE = 5
    HELD_AT_BARRIER = 6
    HELD_UNSTARTED = 7


#: Each enum above: the C enum it mirrors, and the prefix of its constants.
ENUMS: dict[type[IntEnum], tuple[str, str]] = {
    DispatchState: ("gpusym_dispatch_state", "GPUSYM_DISPATCH_"),
    DispatchForm: ("gpusym_dispatch_form", "GPUSYM_FORM_"),
    StreamState: ("gpusym_stream_state", "GPUSYM_STREAM_"),
    CodeObjectOrigin: ("gpusym_code_object_origin", "GPUSYM_ORIGIN_"),
    AllocationState: ("gpusym_allocation_state", "GPUSYM_ALLOCATION_"),
    FreedBy: ("gpusym_allocation_freed_by", "GPUSYM_FREED_BY_"),
    MadeBy: ("gpusym_allocation_made_by", "GPUSYM_MADE_BY_"),
    FaultKind: ("gpusym_fault_kind", "GPUSYM_FAULT_"),
    Access: ("gpusym_fault_access", "GPUSYM_ACCESS_"),
    LaneState: ("gpusym_lane_state", "GPUSYM_LANE_"),
}
