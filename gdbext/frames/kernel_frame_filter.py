"""Backtraces that say which kernel a host frame launches.

A frame filter decorates, in ``bt``, ``bt full`` and MI stack listings alike:
- a kernel stub (``__device_stub__foo``): the kernel and, when the launch
  configuration is known, ``<<<grid, block, shmem, stream>>>``;
- nvcc's wrapper around a template kernel's stub
  (``a::__wrapper__device_stub_t<int>``): the kernel of the stub it calls;
- a frame of a runtime's launch entry (``hipLaunchKernel``,
  ``cudaLaunchKernel``, ``cudaLaunchKernelExC``): the kernel the handle
  names, resolved through the handle symbol, with its configuration.

The configuration comes from the launch call's arguments (gdbext/
launch_arguments.py: by name, or where the ABI passes them, so it works
without debug information anywhere), else from the simulated runtime's
per-thread launch state (gpusym/debug_interface.h), else from the CUDA
program's last ``<<<>>>`` push (gdbext/frames/pushed_configuration.py).
"""

from __future__ import annotations

import gdb
from gdb.FrameDecorator import FrameDecorator

from gdbext.commands.checks import CHECK_NAMES
from gdbext.frames import device_frames, launch_arguments, pushed_configuration, waiting_lane
from gdbext.runtime_view import runtime_state
from gdbext.runtime_view.kernel_symbols import STUB_MARK, kernel_at, kernel_of_stub
from symbols.demangling.gnu import demangle

LAUNCH_ENTRIES = launch_arguments.HIP_ENTRIES + launch_arguments.CUDA_ENTRIES
NVCC_WRAPPER = "__wrapper__device_stub_"


def _runtime_launch() -> gdb.Value | None:
    """The simulated runtime's launch state of the selected thread, read
    without the selected frame (runtime_state.variable)."""
    try:
        return runtime_state.variable("gpusym_launch_state")
    except gdb.error:
        return None


def configuration() -> str | None:
    """``<<<grid (..), block (..), shmem N, stream S>>>`` of the selected
    thread's launch in progress, from the runtime's launch state or the
    CUDA program's last push."""
    state = _runtime_launch()
    if state is None or int(state["block"]["x"]) == 0:
        return pushed_configuration.last()
    return runtime_state.record_launch_text(state)


def launched_kernel(frame: gdb.Frame) -> tuple[str | None, str | None]:
    """The kernel a launch-entry frame launches, and its configuration: from
    its arguments (by name, or, innermost and without debug information,
    where the ABI puts them); else from the runtime's launch state."""
    arguments = launch_arguments.by_name(frame)
    if arguments is None and frame.level() == 0:
        arguments = launch_arguments.by_abi(frame)
    if arguments is not None:
        return kernel_at(arguments[0]), arguments[1]
    state = _runtime_launch()
    handle = int(state["handle"]) if state is not None else 0
    return (kernel_at(handle) if handle else None), configuration()


def _signature(frame: gdb.Frame) -> str:
    """The frame's function with its parameters (its debug information,
    clang's for a CUDA stub, names it without them)."""
    function = frame.function()
    name = demangle(function.linkage_name) if function is not None and function.linkage_name else None
    return name or frame.name() or ""


_UNSET = object()


class _Named(FrameDecorator):
    """A frame named as plain ``bt`` names it (``vector_add``, not the full
    signature gdb's Python frame printing would show), with an optional note.

    A frame without line information in a library is ``from`` it in
    gdb's own ``bt``, after the arguments.  gdb prints a frame filter's
    frame with a source file there or nothing (gdb's base decorator gives
    the library as the file: ``at libgpusym_runtime.so``), so the library
    is said after the name and any note instead, and the frame has no file
    (nor in MI, where a front end would open it as a source file)::

        __gpusym_barrier  [from /path/libgpusym_runtime.so] ()
    """

    def __init__(self, base, note: str | None = None):
        super().__init__(base)
        self._note = note
        self._from: str | None | object = _UNSET

    def _library(self) -> str | None:
        """The library the frame is from, when it has no line information."""
        if self._from is _UNSET:
            frame = self.inferior_frame()
            sal = frame.find_sal()
            has_file = sal.symtab is not None and sal.symtab.filename
            self._from = None if has_file else gdb.solib_name(frame.pc())
        return self._from

    def function(self):
        frame = self.inferior_frame()
        if frame.type() not in (gdb.NORMAL_FRAME, gdb.INLINE_FRAME):
            return super().function()
        name = frame.name() or "??"
        text = f"{name}  [{self._note}]" if self._note else name
        library = self._library()
        return f"{text}  [from {library}]" if library else text

    def filename(self):
        name = super().filename()
        return None if name is not None and name == self._library() else name


class _Recorded(_Named):
    """A host frame recorded at the launch: its arguments and locals are
    gone with the moment it was recorded, so none are listed."""

    def frame_args(self):
        return None

    def frame_locals(self):
        return None


class _Check(_Recorded):
    """A check of the runtime called before a lane's access (memcheck's
    ``__gpusym_check_access``, ``__gpusym_check_shared``,
    ``__gpusym_check_barrier``): it keeps every register its caller had, so
    gdb cannot read its arguments (they would show as garbage); it is named
    as the check of the access in the frame under it, without them."""


def _dispatch_named(number: int) -> str:
    """'dispatch N (kernel)', without the kernel once its record is gone."""
    debug = runtime_state.debug_state()
    record = runtime_state.dispatch_record(debug, number) if debug is not None else None
    if record is None:
        return f"dispatch {number}"
    return f"dispatch {number} ({runtime_state.kernel_name(debug, int(record['kernel_index']))})"


def decorate(frame_decorator):
    try:
        return _decorate(frame_decorator)
    except (gdb.error, gdb.MemoryError, ValueError):  # a frame gdb cannot fully read: show it plain
        return frame_decorator


def _decorate(frame_decorator):
    frame = frame_decorator.inferior_frame()
    if frame.level() == 0 and (waiting := waiting_lane.focused()) is not None:
        return waiting_lane.Marker(frame_decorator, waiting)
    name = frame.name() or ""
    if (check := CHECK_NAMES.get(name)) is not None:
        caller = frame.older()
        access = f" in frame #{caller.level()}" if caller is not None else ""
        return _Check(frame_decorator, f"gpusym's {check} of the access{access}; its arguments are not shown")
    if device_frames.is_device(frame):
        return _Named(frame_decorator, device_frames.lane_note())
    if (cut := device_frames.UNWINDER.ends_record(frame)) is not None:
        if cut.pcs:
            note = f"the host stack recorded at the launch ends here: its first {len(cut.pcs)} frames"
        elif cut.parent:
            note = f"dispatch {cut.dispatch} was launched by device code: a thread of {_dispatch_named(cut.parent)}"
        else:
            note = f"dispatch {cut.dispatch} was launched before gdb asked the runtime to record launches' host stacks"
        return _Recorded(frame_decorator, note)
    if (recorded := device_frames.UNWINDER.stack_of(frame)) is not None:
        stack, index = recorded
        launched = f"launched dispatch {stack.dispatch} from host thread {stack.host_thread}"
        first = index == 0 and frame.level() == stack.kernel_level + 1  # inlined functions there come after
        return _Recorded(frame_decorator, f"kernel {stack.kernel} {stack.configuration}; {launched}" if first else None)
    if STUB_MARK in name:
        stub = frame.newer() if NVCC_WRAPPER in name else frame
        stub_name = _signature(stub) if stub is not None else ""
        if STUB_MARK not in stub_name:  # a wrapper innermost
            return _Named(frame_decorator)
        note = f"kernel {kernel_of_stub(stub_name)}"
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
        return _to_the_end(map(decorate, frames))


def _to_the_end(frames):
    """The frames up to where gdb cannot unwind further (a launch record cut
    short, an unreadable stack): there the listing ends, as gdb's own
    ``bt`` ends, rather than with a Python exception."""
    iterator = iter(frames)
    while True:
        try:
            yield next(iterator)
        except StopIteration:
            return
        except gdb.error:
            return
