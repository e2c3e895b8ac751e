"""Backtraces that say which kernel a host frame launches.

A frame filter decorates, in ``bt``, ``bt full`` and MI stack listings alike:
- a kernel stub (``__device_stub__foo``): the kernel and, when the launch
  configuration is known, ``<<<grid, block, shmem, stream>>>``;
- a frame of the runtime's launch entry (``hipLaunchKernel``): the kernel the
  handle names, resolved through the handle symbol, with its configuration.

The configuration comes from the simulated runtime's per-thread launch state
(gpusym/debug_interface.h) or, at the entry of the launch call, from its
argument registers, so both work without debug information anywhere.
"""

from __future__ import annotations


import gdb
from gdb.FrameDecorator import FrameDecorator

from gdbext import device_frames
from gdbext import runtime_state
from gdbext.functions import STUB_MARK, kernel_of_stub, symbol_at

LAUNCH_ENTRIES = ("hipLaunchKernel",)


def _runtime_launch() -> gdb.Value | None:
    try:
        return gdb.parse_and_eval("gpusym_launch_state")
    except gdb.error:
        return None


def configuration() -> str | None:
    """``<<<grid (..), block (..), shmem N, stream S>>>`` of the selected
    thread's launch in progress, from the runtime's launch state."""
    state = _runtime_launch()
    if state is None or int(state["block"]["x"]) == 0:
        return None
    return runtime_state.record_launch_text(state)


def _at_entry(frame: gdb.Frame) -> bool:
    """Whether `frame` is the innermost one, stopped on its function's first
    instruction, where the argument registers still hold the arguments."""
    if frame.level() != 0:
        return False
    address = gdb.execute(f"info symbol {frame.pc():#x}", to_string=True)
    return " + " not in address.split(" in section ")[0]


def _entry_configuration(frame: gdb.Frame) -> str:
    """hipLaunchKernel(handle, dim3 grid, dim3 block, args, shmem, stream)
    at its first instruction: each dim3 in two registers (x and y, then z),
    the last two arguments on the stack above the return address."""
    def register(name: str) -> int:
        return int(frame.read_register(name)) & 0xFFFFFFFFFFFFFFFF

    def dim3(low: str, high: str) -> str:
        return runtime_state.dim3({"x": register(low) & 0xFFFFFFFF, "y": register(low) >> 32,
                                   "z": register(high) & 0xFFFFFFFF})  # fmt: skip

    stack = int(frame.read_register("rsp"))
    memory = gdb.selected_inferior().read_memory(stack + 8, 16).tobytes()
    shared_mem, stream = int.from_bytes(memory[:8], "little"), int.from_bytes(memory[8:], "little")
    return runtime_state.launch_text(dim3("rsi", "rdx"), dim3("rcx", "r8"), shared_mem, stream)


def launched_kernel(frame: gdb.Frame) -> tuple[str | None, str | None]:
    """The kernel a launch-entry frame launches, and its configuration: at
    the entry, from the arguments; deeper in the call, from the runtime's
    launch state."""
    if _at_entry(frame):
        return symbol_at(int(frame.read_register("rdi"))), _entry_configuration(frame)
    state = _runtime_launch()
    handle = int(state["handle"]) if state is not None else 0
    return (symbol_at(handle) if handle else None), configuration()


class _Named(FrameDecorator):
    """A frame named as plain ``bt`` names it (``vector_add``, not the full
    signature gdb's Python frame printing would show), with an optional note."""

    def __init__(self, base, note: str | None = None):
        super().__init__(base)
        self._note = note

    def function(self):
        frame = self.inferior_frame()
        if frame.type() != gdb.NORMAL_FRAME:
            return super().function()
        name = frame.name() or "??"
        return f"{name}  [{self._note}]" if self._note else name


class _Recorded(_Named):
    """A host frame recorded at the launch: its arguments and locals are
    gone with the moment it was recorded, so none are listed."""

    def frame_args(self):
        return None

    def frame_locals(self):
        return None


def decorate(frame_decorator):
    try:
        return _decorate(frame_decorator)
    except (gdb.error, gdb.MemoryError, ValueError):  # a frame gdb cannot fully read: show it plain
        return frame_decorator


def _decorate(frame_decorator):
    frame = frame_decorator.inferior_frame()
    name = frame.name() or ""
    if device_frames.is_device(frame):
        return _Named(frame_decorator, device_frames.lane_note())
    if (recorded := device_frames.UNWINDER.stack_of(frame)) is not None:
        stack, index = recorded
        launched = f"launched dispatch {stack.dispatch} from host thread {stack.host_thread}"
        return _Recorded(frame_decorator, f"kernel {stack.kernel} {stack.configuration}; {launched}" if index == 0 else None)
    if STUB_MARK in name:
        note = f"kernel {kernel_of_stub(name)}"
        if (config := configuration()) is not None:
            note += f" {config}"
        return _Named(frame_decorator, note)
    if name in LAUNCH_ENTRIES:
        kernel, config = launched_kernel(frame)
        if kernel:
            return _Named(frame_decorator, f"launching kernel {kernel}" + (f" {config}" if config else ""))
    return _Named(frame_decorator)


class KernelFrameFilter:
    """Names the kernels that stub and launch frames launch."""

    def __init__(self) -> None:
        self.name = "gpusym-kernels"
        self.priority = 100
        self.enabled = True

    def filter(self, frames):
        return map(decorate, frames)
