"""Convenience functions for breakpoint conditions: ``$_gpusym_lane_is``,
``$_gpusym_dispatch`` and ``$_gpusym_launching``."""

from __future__ import annotations

import gdb

from gdbext.errors import one_line_errors
from gdbext.frames import launch_arguments
from gdbext.lane_coordinates import ArgumentError, wanted_lanes
from gdbext.runtime_view.kernel_symbols import called_by_stub, kernel_at
from gdbext.runtime_view.runtime_state import lane


class LaneIs(gdb.Function):
    """$_gpusym_lane_is("block (X,Y,Z) thread (X,Y,Z)"): whether the
    selected thread runs that block and thread of a kernel (either may be
    left out: any).  Also $_gpusym_lane_is(BX, BY, BZ, TX, TY, TZ), -1 for
    any coordinate."""

    def __init__(self) -> None:
        super().__init__("_gpusym_lane_is")

    def invoke(self, *arguments: gdb.Value) -> bool:
        current = lane()
        if current is None:
            return False
        with one_line_errors("$_gpusym_lane_is"):
            wanted = _wanted(arguments)
        actual = [int(current[group][axis]) for group in ("block_idx", "thread_idx") for axis in "xyz"]
        return all(w < 0 or w == a for w, a in zip(wanted, actual))


def _wanted(arguments: tuple[gdb.Value, ...]) -> tuple[int, ...]:
    """$_gpusym_lane_is's arguments as six coordinates, -1 for any."""
    usage = '$_gpusym_lane_is takes "block (X,Y,Z) thread (X,Y,Z)" or six integers (-1: any)'
    if len(arguments) == 6:
        return tuple(int(a) for a in arguments)
    if len(arguments) != 1:
        raise ArgumentError(f"{usage}, not {len(arguments)} arguments")
    try:
        text = arguments[0].string()
    except gdb.error:
        raise ArgumentError(f"{usage}, not {arguments[0].type}") from None
    return wanted_lanes(text)


class Dispatch(gdb.Function):
    """$_gpusym_dispatch(): the dispatch the selected thread runs a lane of,
    0 outside kernels.  For breakpoint conditions: $_dispatch is only set
    once gdb has stopped."""

    def __init__(self) -> None:
        super().__init__("_gpusym_dispatch")

    def invoke(self) -> int:
        current = lane()
        return 0 if current is None else int(current["dispatch_id"])


class Launching(gdb.Function):
    """$_gpusym_launching("KERNEL"): stopped in the launch call, whether its
    handle argument is the handle of KERNEL (its demangled name).  A
    launch from the kernel's own stub does not count: kbreak -launch stops
    there already.  (The handle's address is taken from the argument, not
    looked up by name: gdb would find the device function of the same name.)"""

    def __init__(self) -> None:
        super().__init__("_gpusym_launching")

    def invoke(self, kernel: gdb.Value) -> bool:
        frame = gdb.selected_frame()
        if called_by_stub(frame):
            return False
        return kernel_at(launch_arguments.launch_handle(frame)) == kernel.string()
