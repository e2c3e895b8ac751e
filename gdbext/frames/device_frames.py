"""Backtraces inside kernels: device frames, then the host stack that
launched the dispatch, as real gdb frames.

A simulated GPU thread's real stack is the kernel's frames above the
runtime's (the kernel call, the lane scheduler, the fiber entry).  An
unwinder makes the kernel's caller the host frames the runtime recorded when
the kernel was launched (gpusym_debug.dispatches[].host_frames), so the
runtime's frames are not in the stack at all: ``bt`` numbers, ``frame N``,
``up``, ``frame function`` and MI's ``-stack-select-frame`` agree.  A
recorded frame has its function, file and line; its registers and variables
are gone with the moment it was recorded, and selecting it says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

import gdb
from gdb.unwinder import Unwinder

from capture import INTERPOSER
from device.debug_interface import (
    CAPTURE_HOST_STACKS,
    DEBUGGABLE_FORM,
    FAT_BINARY_CODE_OBJECT_MARK,
    MODULE_CODE_OBJECT_MARK,
    RUNTIME_LIBRARY,
    Version,
)
from gdbext.runtime_view import runtime_state
from gdbext.runtime_view.kernel_symbols import function_at
from symbols.errors import FormatError

if TYPE_CHECKING:
    from symbols.call_frames import CallFrames

#: In the file names of the code objects the runtime loads: from fat
#: binaries, and modules loaded at run time.
CODE_OBJECT_MARKS = (FAT_BINARY_CODE_OBJECT_MARK, MODULE_CODE_OBJECT_MARK)


#: Where a thread's stack starts (their call frame information ends every
#: stack): a record ending elsewhere was cut short.
OUTERMOST_FUNCTIONS = ("_start", "clone3", "clone", "__clone")
#: Above every user-space address of x86-64, and non-canonical: nothing reads there.
RECORDED_FRAMES_BASE = 1 << 63


def enable_capture() -> None:
    """Asks the simulated runtime of every program gdb starts to record each
    launch's host stack (through its environment: nothing is written into a
    program gdb starts).  Its kernels run in their fast form but for the
    blocks the debugger's breakpoints may stop in (lane_watch.py)."""
    gdb.execute("set environment GPUSYM_CAPTURE_STACKS 1", to_string=True)


def capture_when_attached(event=None) -> None:
    """A program gdb attached to did not get that environment: once its
    runtime is in view (at gdb.events.new_objfile, and when the extension is
    loaded after attaching), the flags are set in the runtime's debugger
    interface instead, so launches from then on record their stacks and
    run in the debuggable form."""
    inferior = gdb.selected_inferior()
    if not inferior.pid or not inferior.was_attached:
        return
    if not runtime_state.runtime_loaded():
        return
    try:
        flags = gdb.parse_and_eval("&gpusym_debug.flags")
        value = int(flags.dereference())
    except gdb.error:
        return  # a runtime without debug information: stacks stay unrecorded
    wanted = value | CAPTURE_HOST_STACKS | DEBUGGABLE_FORM
    if wanted != value:
        inferior.write_memory(int(flags), wanted.to_bytes(4, "little"))


def _library(frame: gdb.Frame) -> str:
    return gdb.solib_name(frame.pc()) or ""


def is_device_address(address: int | None) -> bool:
    """Whether `address` is in a code object of the simulated device."""
    library = (gdb.solib_name(address) or "") if address else ""
    return any(mark in library for mark in CODE_OBJECT_MARKS)


def in_device_code(breakpoint: gdb.Breakpoint) -> bool:
    """Whether a location of `breakpoint` is in device code."""
    return any(is_device_address(location.address) for location in breakpoint.locations)


def is_device(frame: gdb.Frame) -> bool:
    return is_device_address(frame.pc())


def is_runtime(frame: gdb.Frame) -> bool:
    return RUNTIME_LIBRARY in _library(frame)


class _FrameId:
    """A frame's identity for gdb: its CFA and its function (gdb reads
    them as gdb.Value objects only)."""

    def __init__(self, sp: int, pc: int):
        self.sp, self.pc = gdb.Value(sp), gdb.Value(pc)


@dataclass(frozen=True)
class LaunchStack:
    """The host stack recorded when a dispatch was launched, as frames of
    the thread running one of its lanes: the kernel's frame is at level
    `kernel_level`, recorded frame i further out, with program counter
    ``pcs[i]``, at the level gdb gives it once unwound (`levels`, level ->
    index): functions inlined at a recorded program counter are frames of
    their own, so levels and indexes need not step together.  Their
    registers are gone with the moment
    they were recorded: a recorded frame has its program counter and an
    identity, nothing else.  That identity's stack address, which gdb also
    takes as the frame's base, is of gpusym's making: outer than every real
    frame, as gdb requires of callers, and a non-canonical address, so that
    what gdb would read from the frame is unreadable rather than whatever
    that thread's stack holds now."""

    dispatch: int
    host_thread: int
    kernel: str
    configuration: str
    kernel_entry: int
    kernel_cfa: int
    kernel_level: int
    pcs: tuple[int, ...]  # empty when the launch was not recorded (queued before recording was asked for)
    truncated: bool  # the record ends before the stack did (it holds a bounded number of frames, or none)
    parent: int = 0  # the dispatch a thread of which launched it (dynamic parallelism), else 0
    levels: dict[int, int] = field(default_factory=dict, compare=False)

    def sp(self, index: int) -> int:
        return RECORDED_FRAMES_BASE + 16 * (index + 1)

    def frame_id(self, index: int) -> _FrameId:
        return _FrameId(self.sp(index), self.pcs[index])

    def _last_level(self) -> int | None:
        """The level of the last recorded frame (the kernel's, when none
        was recorded), once unwound to."""
        return max(self.levels, default=self.kernel_level) if len(self.levels) == len(self.pcs) else None

    def ends_at(self, level: int, pc: int) -> bool:
        """Whether this is the frame after a record cut short."""
        last = self._last_level()
        return self.truncated and pc == 0 and last is not None and level == last + 1

    def past_end(self, level: int, pc: int) -> bool:
        """Whether gdb asks for a frame beyond that one (its Python frames
        look one frame further to learn whether the stack ends)."""
        last = self._last_level()
        return self.truncated and pc == 0 and last is not None and level > last + 1

    def unwinds(self, index: int) -> bool:
        """Whether gpusym unwinds recorded frame `index` (all but the last
        of a complete record)."""
        return index < len(self.pcs) - (0 if self.truncated else 1)

    def index_of(self, level: int, pc: int) -> int | None:
        """The index of the recorded frame gdb unwound to at `level`."""
        index = self.levels.get(level)
        return index if index is not None and self.pcs[index] == pc else None

    def claim(self, level: int, pc: int) -> int | None:
        """The index of the real (not inlined) frame at `level` that the
        unwinder is asked about: the next recorded frame, when its program
        counter is `pc` and it lies beyond those claimed so far."""
        if (index := self.index_of(level, pc)) is not None:
            return index
        index = len(self.levels)
        if index < len(self.pcs) and self.pcs[index] == pc and level > max(self.levels, default=self.kernel_level):
            self.levels[level] = index
            return index
        return None


@lru_cache(maxsize=64)
def _call_frames(path: str, stamp: tuple[int, int]) -> CallFrames:
    """`path`'s call frame information (`stamp`: its mtime and size, as a
    code object's path is reused by later processes)."""
    from symbols.call_frames import CallFrames  # imported at the first use: loading the extension stays cheap

    return CallFrames(Path(path))


def _host_pcs(record: gdb.Value) -> tuple[int, ...]:
    """The dispatch's recorded return addresses, gpusym capture's launch
    wrapper (between the caller and the runtime) left out."""
    addresses = (int(record["host_frames"][i]) for i in range(int(record["host_frame_count"])))
    return tuple(a for a in addresses if INTERPOSER not in (gdb.solib_name(a) or ""))


class LaunchStackUnwinder(Unwinder):
    """Unwinds the outermost frame of a kernel running on a simulated GPU
    thread to the host stack that launched its dispatch, so that the frames
    ``bt`` prints are those ``frame N``, ``up``, ``frame function`` and MI
    select: no runtime frame between the kernel and its stub.  The kernel
    frame keeps the identity gdb's DWARF unwinder gives it (its CFA); the
    host frames carry only their program counters."""

    def __init__(self) -> None:
        super().__init__("gpusym-launch-stack")
        self._stacks: dict[int, LaunchStack] = {}  # by gdb's global thread number

    def forget(self, event=None) -> None:
        """On each resume (gdb.events.cont): the stacks describe the frames
        of one stop only, so that a thread that has left its kernel since
        (a launching thread running lanes itself, then back in its stub)
        never has its real frames taken for recorded ones."""
        self._stacks.clear()

    def ends_record(self, frame: gdb.Frame) -> LaunchStack | None:
        """The launch stack whose cut-short record `frame` ends."""
        stack = self._stacks.get(gdb.selected_thread().global_num)
        return stack if stack is not None and stack.ends_at(frame.level(), frame.pc()) else None

    def stack_of(self, frame: gdb.Frame) -> tuple[LaunchStack, int] | None:
        """(the launch stack, the index) of a recorded host frame, or of a
        function inlined into one."""
        stack = self._stacks.get(gdb.selected_thread().global_num)
        if stack is None:
            return None
        real = frame
        while real is not None and real.type() == gdb.INLINE_FRAME:
            real = real.older()
        index = stack.index_of(real.level(), real.pc()) if real is not None else None
        return (stack, index) if index is not None else None

    def __call__(self, pending):
        try:
            return self._unwind(pending)
        except (gdb.error, gdb.MemoryError, FormatError, OSError):
            return None  # left to gdb's own unwinders

    def _unwind(self, pending):
        pc = int(pending.read_register("rip"))
        thread = gdb.selected_thread().global_num
        stack = self._stacks.get(thread)
        if stack is not None and (index := stack.claim(pending.level(), pc)) is not None:
            return self._caller(pending, stack, index) if stack.unwinds(index) else None
        if stack is not None and (stack.ends_at(pending.level(), pc) or stack.past_end(pending.level(), pc)):
            return self._record_end(pending, stack)  # beyond it: the same frame again, where gdb stops
        path = gdb.solib_name(pc) or ""
        if not any(mark in path for mark in CODE_OBJECT_MARKS):
            return None
        stack = self._kernel_frame(pending, path, pc)
        if stack is None:
            return None
        self._stacks[thread] = stack
        return self._caller(pending, stack, -1)

    def _kernel_frame(self, pending, path: str, pc: int) -> LaunchStack | None:
        """The launch stack under `pending` when it is the kernel's own
        frame (not a device function it called), else None."""
        current = runtime_state.lane()
        debug = runtime_state.debug_state()
        if current is None or debug is None:
            return None
        record = runtime_state.dispatch_record(debug, int(current["dispatch_id"]))
        if record is None:
            return None
        kernel = debug["kernels"][int(record["kernel_index"])]
        entry = int(kernel["device_entry"])
        name = kernel["device_name"].string()
        stat = os.stat(path)
        frames = _call_frames(path, (stat.st_mtime_ns, stat.st_size))
        file_entry = frames.exported_function(name)
        if file_entry is None:
            return None
        bias = entry - file_entry
        function = frames.function_at(pc - bias)
        if function is None or function.start != file_entry:
            return None
        rule = function.rule_at(pc - bias)
        if rule is None:
            return None
        cfa = int(pending.read_register(rule.register)) + rule.offset
        pcs = _host_pcs(record)  # none for a dispatch queued before gdb attached: the stack ends at the kernel
        return LaunchStack(
            dispatch=int(record["id"]),
            host_thread=int(record["host_thread"]),
            kernel=runtime_state.kernel_name(debug, int(record["kernel_index"])),
            configuration=runtime_state.record_launch_text(record),
            kernel_entry=entry,
            kernel_cfa=cfa,
            kernel_level=pending.level(),
            pcs=pcs,
            truncated=not pcs or (function_at(pcs[-1] - 1) or "") not in OUTERMOST_FUNCTIONS,
            parent=int(record["parent_id"]) if runtime_state.supports(debug, Version.LAUNCHED_BY_DEVICE) else 0,
        )

    def _caller(self, pending, stack: LaunchStack, index: int):
        """The frame `pending` (the kernel's at index -1, else recorded host
        frame `index`), whose caller is the next recorded frame: its program
        counter, and no other register (those gdb reads say "not saved"
        rather than show what the stack holds now).  The last recorded frame
        (``_start``, or ``clone3`` for a launch from a thread) is left to
        gdb's own unwinder, which ends the stack there, so it gets a stack
        pointer too; after the last frame of a record cut short comes a
        frame at program counter 0, where gdb ends a stack."""
        is_kernel = index < 0
        frame_id = _FrameId(stack.kernel_cfa, stack.kernel_entry) if is_kernel else stack.frame_id(index)
        info = pending.create_unwind_info(frame_id)
        caller = index + 1
        if caller < len(stack.pcs):
            info.add_saved_register("rip", gdb.Value(stack.pcs[caller]))
            if not stack.unwinds(caller):
                info.add_saved_register("rsp", gdb.Value(stack.sp(caller)))
        else:  # a record cut short: a last frame that ends the stack
            info.add_saved_register("rip", gdb.Value(0))
        return info

    def _record_end(self, pending, stack: LaunchStack):
        """The frame after a record cut short (program counter 0), where gdb
        stops unwinding."""
        info = pending.create_unwind_info(_FrameId(stack.sp(len(stack.pcs)), 0))
        info.add_saved_register("rip", gdb.Value(0))  # read while gdb checks where the stack ends
        return info


UNWINDER = LaunchStackUnwinder()
_announced: tuple | None = None  # the recorded frame last explained, until the next stop


def explain_recorded_frame() -> None:
    """Before the prompt, when the selected frame is a recorded host frame
    newly selected: say why its variables cannot be read."""
    global _announced
    try:
        frame = gdb.selected_frame()
    except gdb.error:
        return
    recorded = UNWINDER.stack_of(frame)
    key = (gdb.selected_thread().global_num, frame.level(), recorded[0].dispatch) if recorded else None
    if recorded is None or key == _announced:
        return
    _announced = key
    stack = recorded[0]
    print(
        f"[gpusym: frame {frame.level()} was recorded when dispatch {stack.dispatch} was launched; host thread "
        f"{stack.host_thread} has moved on since, so its registers, arguments and locals cannot be read]"
    )


def forget_explanations(event=None) -> None:
    global _announced
    _announced = None


def lane_note() -> str | None:
    current = runtime_state.lane()
    if current is None:
        return None
    if runtime_state.in_fast_block():
        return f"device gpusym, block {runtime_state.dim3(current['block_idx'])} in its fast form"
    return f"device gpusym, {runtime_state.lane_place(current)}"
