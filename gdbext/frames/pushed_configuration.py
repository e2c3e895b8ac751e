"""The configuration of each host thread's last ``<<<>>>`` in a CUDA
program, for its stub's frame.

``kernel<<<grid, block, shmem, stream>>>(...)`` calls
``__cudaPushCallConfiguration(grid, block, shmem, stream)``, then the
kernel's host function and its stub, which pops it; the CUDA runtime keeps
it where no debugger can read.  A silent internal breakpoint on the push
reads its arguments where the ABI passes them.  It is set by the first
``kbreak -launch`` of a CUDA kernel, as it costs a stop at each launch."""

from __future__ import annotations

import gdb

from gdbext.frames.launch_arguments import pushed

PUSH = "__cudaPushCallConfiguration"

#: gdb's global thread number -> the text of that thread's last push.
_last: dict[int, str] = {}
_recorder: gdb.Breakpoint | None = None


class _Recorder(gdb.Breakpoint):
    def stop(self) -> bool:
        try:
            _last[gdb.selected_thread().global_num] = pushed(gdb.newest_frame())
        except (gdb.error, gdb.MemoryError):  # unreadable registers: that launch goes unannotated
            pass
        return False


def record() -> None:
    """Records pushes from now on (pending until the runtime is loaded)."""
    global _recorder
    if _recorder is None or not _recorder.is_valid():
        _recorder = _Recorder(PUSH, internal=True)


def last() -> str | None:
    """``<<<grid (..), block (..), shmem N, stream S>>>`` of the selected
    thread's last push, if recorded."""
    thread = gdb.selected_thread()
    return _last.get(thread.global_num) if thread is not None else None


def forget(event=None) -> None:
    """The program has ended: its threads' pushes with it."""
    _last.clear()
