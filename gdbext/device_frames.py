"""Backtraces inside kernels: device frames, then the host stack that
launched the dispatch.

A simulated GPU thread's real stack is the kernel's frames above the
runtime's (the kernel call, the lane scheduler, the fiber entry).  Those runtime
frames are replaced by the host frames the runtime recorded when the kernel
was launched (gpusym_debug.dispatches[].host_frames), symbolized here, the
first one marked with the launching host thread and dispatch.  gdb numbers a
frame after the real frame it decorates, so each host frame takes the place
of one runtime frame; host frames beyond those are elided under the last.
"""

from __future__ import annotations

import gdb
from gdb.FrameDecorator import FrameDecorator

from gdbext import runtime_state
from gdbext.capture import INTERPOSER
from gdbext.functions import STUB_MARK, kernel_of_stub, symbol_at
from symbols.lookup import qualified_name

RUNTIME_LIBRARIES = ("libgpusym_runtime",)
#: In the file names of the code objects the runtime loads: from fat
#: binaries, and modules loaded at run time.
CODE_OBJECT_MARKS = (".gpusym.", ".gpusym-module.")


#: gpusym_debug.flags bit: record each launch's host stack.
CAPTURE_HOST_STACKS = 0x1


def enable_capture() -> None:
    """Asks the simulated runtime of every program gdb starts to record each
    launch's host stack (through its environment: nothing is written into a
    program gdb starts)."""
    gdb.execute("set environment GPUSYM_CAPTURE_STACKS 1", to_string=True)


def capture_when_attached(event=None) -> None:
    """A program gdb attached to did not get that environment: once its
    runtime is in view (at gdb.events.new_objfile, and when the extension is
    loaded after attaching), the flag is set in the runtime's debugger
    interface instead, so launches from then on record their stacks."""
    inferior = gdb.selected_inferior()
    if not inferior.pid or not inferior.was_attached:
        return
    if not any(RUNTIME_LIBRARIES[0] in (objfile.filename or "") for objfile in gdb.objfiles()):
        return
    try:
        flags = gdb.parse_and_eval("&gpusym_debug.flags")
        value = int(flags.dereference())
    except gdb.error:
        return  # a runtime without debug information: stacks stay unrecorded
    if not value & CAPTURE_HOST_STACKS:
        inferior.write_memory(int(flags), (value | CAPTURE_HOST_STACKS).to_bytes(4, "little"))


def _library(frame: gdb.Frame) -> str:
    return gdb.solib_name(frame.pc()) or ""


def is_device(frame: gdb.Frame) -> bool:
    library = _library(frame)
    return any(mark in library for mark in CODE_OBJECT_MARKS)


def is_runtime(frame: gdb.Frame) -> bool:
    return any(name in _library(frame) for name in RUNTIME_LIBRARIES)


class _Fixed(FrameDecorator):
    """Prints given text in place of a runtime frame (keeping its level)."""

    def __init__(self, base, function: str, address: int | None, filename: str | None, line: int | None):
        super().__init__(base)
        self._function, self._address, self._filename, self._line = function, address, filename, line
        self._elided: list = []

    def function(self):
        return self._function

    def address(self):
        return self._address

    def filename(self):
        return self._filename

    def line(self):
        return self._line

    def frame_args(self):
        return None

    def frame_locals(self):
        return None

    def elided(self):
        return iter(self._elided) if self._elided else None


def host_frames(base) -> list[_Fixed]:
    """The recorded host stack of the current lane's dispatch, as frames
    printed in the place of `base` (a runtime frame's decorator)."""
    current = runtime_state.lane()
    debug = runtime_state.debug_state()
    if current is None or debug is None:
        return []
    record = runtime_state.dispatch_record(debug, int(current["dispatch_id"]))
    if record is None:
        return []
    frames = []
    for index in range(int(record["host_frame_count"])):
        address = int(record["host_frames"][index])
        if INTERPOSER in (gdb.solib_name(address) or ""):
            continue  # gpusym capture's launch wrapper, between the caller and the runtime
        call = address - 1  # the call instruction: the line that launched
        name = (symbol_at(call) or "??").split(" + ")[0]
        position = gdb.find_pc_line(call)
        if position.symtab is not None:  # named as bt names a function with debug information
            name = qualified_name(name)
        filename = position.symtab.filename if position.symtab else (gdb.solib_name(call) or None)
        frames.append(_Fixed(base, name, address, filename, position.line or None))
    if frames:
        launched = f"launched dispatch {int(record['id'])} from host thread {int(record['host_thread'])}"
        first = frames[0]
        if STUB_MARK in first._function:
            kernel = kernel_of_stub(first._function)
            launched = f"kernel {kernel} {runtime_state.record_launch_text(record)}; {launched}"
        first._function = f"{first._function}  [{launched}]"
    return frames


def lane_note() -> str | None:
    current = runtime_state.lane()
    return f"device gpusym, {runtime_state.lane_place(current)}" if current is not None else None


def stitch(decorated):
    """Device frames as they are (annotated), then the launching host stack
    in the place of the runtime's frames beneath them."""
    seen_device = False
    runtime: list = []
    for decorator in decorated:
        frame = decorator.inferior_frame()
        if seen_device and is_runtime(frame):
            runtime.append(decorator)
            continue
        if is_device(frame):
            seen_device = True
        yield decorator
    if not runtime:
        return
    try:
        recorded = host_frames(runtime[0])
    except (gdb.error, gdb.MemoryError):  # a runtime without the record (older), or unreadable
        recorded = []
    if not recorded:
        yield from runtime
        return
    if len(recorded) > len(runtime):  # before yielding: gdb asks for elided frames as it prints
        recorded[len(runtime) - 1]._elided = recorded[len(runtime) :]
    for slot, frame in zip(runtime, recorded):
        frame._base = slot  # print at the level of the runtime frame it replaces
        yield frame
