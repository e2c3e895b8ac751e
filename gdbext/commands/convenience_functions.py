"""Convenience functions for breakpoint conditions: ``$_gpusym_lane_is``,
``$_gpusym_dispatch`` and ``$_gpusym_launching``; and the selected lane's
warp built-ins: ``$_gpusym_lane_id`` (``__lane_id()``, a gdb macro reading
it) and ``$_gpusym_activemask``.

Device code's ``__lane_id()`` and ``__activemask()`` are inlined helpers
without debug information and without an out-of-line copy, so gdb knows no
such functions.  ``__lane_id()`` is the lane's index in its wavefront,
which the runtime's lane record holds.  What ``__activemask()`` returns
depends on the branch each lane of the wavefront takes to its call, which a
stop cannot know; ``$_gpusym_activemask()`` is what the runtime knows: the
lanes of the wavefront that have not exited."""

from __future__ import annotations

import gdb

from gdbext.errors import one_line_errors
from gdbext.frames import launch_arguments
from gdbext.frames.device_frames import is_device
from gdbext.lane_coordinates import ArgumentError, wanted_lanes
from gdbext.runtime_view.kernel_symbols import called_by_stub, kernel_at
from gdbext.runtime_view.runtime_state import active_mask, lane, wave_size

#: Device code's warp built-ins as gdb macros reading the selected lane.
#: __activemask() names itself to $_gpusym_activemask, which then says why
#: it cannot be read and what can.
LANE_MACROS = {
    "__lane_id": "$_gpusym_lane_id()",
    "__activemask": '$_gpusym_activemask("__activemask")',
}


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


def _selected_lane(name: str) -> gdb.Value:
    """The selected lane, when a frame of device code is selected; else
    gdb's "No symbol" error for `name`, with a hint."""
    current = lane()
    try:
        in_kernel = current is not None and is_device(gdb.selected_frame())
    except gdb.error:
        in_kernel = False
    if not in_kernel:
        raise gdb.GdbError(
            f'No symbol "{name}" in current context (a built-in of device code: select a kernel\'s frame)'
        )
    return current


class LaneId(gdb.Function):
    """$_gpusym_lane_id(): __lane_id() as the selected lane reads it: its
    index in its wavefront (as $_lane).  The gpusym extension defines
    __lane_id() as a macro reading it."""

    def __init__(self) -> None:
        super().__init__("_gpusym_lane_id")

    def invoke(self) -> gdb.Value:
        current = _selected_lane("__lane_id")
        index = int(current["flat_thread"]) % wave_size(current)
        return gdb.Value(index).cast(gdb.lookup_type("unsigned int"))


class ActiveMask(gdb.Function):
    """$_gpusym_activemask(): the lanes of the selected lane's wavefront
    that have not exited, bit i for its lane i.  __activemask() in device
    code also leaves out the lanes a divergent branch keeps apart, which a
    stop cannot know: the gpusym extension defines __activemask() as a
    macro that says so."""

    def __init__(self) -> None:
        super().__init__("_gpusym_activemask")

    def invoke(self, *arguments: gdb.Value) -> gdb.Value:
        if arguments:
            name = arguments[0].string() if len(arguments) == 1 else "?"
            if name != "__activemask":
                raise gdb.GdbError("$_gpusym_activemask takes no arguments")
            raise gdb.GdbError(
                'No symbol "__activemask" in current context (what it returns depends on the branch each '
                "lane of the wavefront takes, which a stop cannot know; $_gpusym_activemask() is the "
                "lanes of the wavefront that have not exited)"
            )
        current = lane()
        if current is None:
            raise gdb.GdbError("$_gpusym_activemask: no lane is selected (select a thread that runs a kernel)")
        return gdb.Value(active_mask(current)).cast(gdb.lookup_type("unsigned long long"))


def register_lane_builtins(macros: bool) -> None:
    """$_gpusym_lane_id and $_gpusym_activemask, and with `macros` the
    macros __lane_id() and __activemask() (``info macros`` lists them)."""
    LaneId()
    ActiveMask()
    if macros:
        for name, meaning in LANE_MACROS.items():
            gdb.execute(f"macro define {name}() {meaning}", to_string=True)
