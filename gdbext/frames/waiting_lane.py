"""Frames of a lane waiting at a barrier or for its wavefront, selected
with ``gpu focus``.

Its CPU thread runs another lane; the waiting lane's context is two words
on its own stack (fiber_switch.S): its frame pointer, then where it goes
on.  A lane in a warp function was suspended by gpusym_fiber_switch: where
it goes on pops six callee-saved registers pushed above those two words,
and returns.  An unwinder makes that context the caller of the thread's innermost
frame, so frame 1 is the waiting lane's call of the barrier and every
frame above it is the lane's own: ``bt``, ``frame N``, ``info locals`` and
``print`` read them as usual.  Frame 0 stays the thread's real frame;
``bt`` marks it as the switch."""

from __future__ import annotations

import struct

import gdb
from gdb.FrameDecorator import FrameDecorator
from gdb.unwinder import Unwinder

from gdbext.lanes import info_lanes
from gdbext.runtime_view import runtime_state

#: Frame 0's identity: below every real stack address, so that the waiting
#: lane's frames, on their own stack, are outer than it as gdb requires.
MARKER_SP = 0x1000
#: Where gpusym_fiber_switch's contexts go on: pop r15, r14, r13, r12, rbx,
#: rbp; ret.
RESTORE_CODE = bytes.fromhex("415f415e415d415c5b5dc3")
RESTORED = ("r15", "r14", "r13", "r12", "rbx", "rbp")


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
        inferior = gdb.selected_inferior()
        try:
            saved = int(waiting["saved_sp"])
            rbp, rip = struct.unpack("<QQ", inferior.read_memory(saved, 16))
            registers = {"rbp": rbp}
            sp = saved + 16
            if inferior.read_memory(rip, len(RESTORE_CODE)).tobytes() == RESTORE_CODE:
                *values, rip = struct.unpack("<7Q", inferior.read_memory(sp, 56))
                registers = dict(zip(RESTORED, values))
                sp += 56
            pc = int(pending.read_register("rip"))
        except (gdb.error, gdb.MemoryError):
            return None
        info = pending.create_unwind_info(_FrameId(MARKER_SP, pc))
        info.add_saved_register("rip", gdb.Value(rip))
        info.add_saved_register("rsp", gdb.Value(sp))
        for name, value in registers.items():
            info.add_saved_register(name, gdb.Value(value))
        return info


class Marker(FrameDecorator):
    """Frame 0 of a thread with a waiting lane in focus: says that the
    frames after it are that lane's."""

    def __init__(self, base, waiting: gdb.Value):
        super().__init__(base)
        waits = info_lanes.WAITS.get(int(waiting["state"]), "waits")
        self._text = f"[gpusym: {runtime_state.lane_place(waiting)} {waits}; its frames follow]"

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
