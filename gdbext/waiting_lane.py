"""Frames of a lane waiting at a barrier, selected with ``gpu focus``.

Its CPU thread runs another lane; the waiting lane's context is two words
on its own stack (fiber_switch.S): its frame pointer, then where it goes
on.  An unwinder makes that context the caller of the thread's innermost
frame, so frame 1 is the waiting lane's call of the barrier and every
frame above it is the lane's own: ``bt``, ``frame N``, ``info locals`` and
``print`` read them as usual.  Frame 0 stays the thread's real frame;
``bt`` marks it as the switch."""

from __future__ import annotations

import struct

import gdb
from gdb.FrameDecorator import FrameDecorator
from gdb.unwinder import Unwinder

from gdbext import runtime_state

#: Frame 0's identity: below every real stack address, so that the waiting
#: lane's frames, on their own stack, are outer than it as gdb requires.
MARKER_SP = 0x1000


class _FrameId:
    def __init__(self, sp: int, pc: int):
        self.sp, self.pc = gdb.Value(sp), gdb.Value(pc)


def focused() -> gdb.Value | None:
    thread = gdb.selected_thread()
    return runtime_state.focused_waiting_lane(thread) if thread is not None else None


class WaitingLaneUnwinder(Unwinder):
    """Unwinds the innermost frame of a thread with a waiting lane in focus
    to that lane's saved context."""

    def __init__(self) -> None:
        super().__init__("gpusym-waiting-lane")

    def __call__(self, pending):
        if pending.level() != 0 or (waiting := focused()) is None:
            return None
        try:
            saved = int(waiting["saved_sp"])
            rbp, rip = struct.unpack("<QQ", gdb.selected_inferior().read_memory(saved, 16))
            pc = int(pending.read_register("rip"))
        except (gdb.error, gdb.MemoryError):
            return None
        info = pending.create_unwind_info(_FrameId(MARKER_SP, pc))
        info.add_saved_register("rip", gdb.Value(rip))
        info.add_saved_register("rsp", gdb.Value(saved + 16))
        info.add_saved_register("rbp", gdb.Value(rbp))
        return info


class Marker(FrameDecorator):
    """Frame 0 of a thread with a waiting lane in focus: says that the
    frames after it are that lane's."""

    def __init__(self, base, waiting: gdb.Value):
        super().__init__(base)
        self._text = f"[gpusym: {runtime_state.lane_place(waiting)} waits at a barrier; its frames follow]"

    def function(self):
        return self._text

    def address(self):
        return None

    def filename(self):
        return None

    def line(self):
        return None

    def frame_args(self):
        return None

    def frame_locals(self):
        return None


UNWINDER = WaitingLaneUnwinder()
