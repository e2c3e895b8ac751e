"""Convenience functions for breakpoint conditions."""

from __future__ import annotations

import re

import gdb

STUB_MARK = "__device_stub_"
_INFO_SYMBOL = re.compile(r"^(.*?)(?: \+ \d+)? in section ")


def coordinates(text: str, what: str) -> tuple[int, int, int]:
    """X[,Y[,Z]] as three integers (missing ones are 0); a gdb error naming
    `what` otherwise."""
    parts = text.split(",")
    if not 1 <= len(parts) <= 3 or not all(p.strip().isdigit() for p in parts):
        raise gdb.GdbError(f"{what} takes X[,Y[,Z]] (non-negative integers), not '{text}'")
    values = [int(p) for p in parts] + [0] * (3 - len(parts))
    return values[0], values[1], values[2]


def lane() -> gdb.Value | None:
    """The simulated GPU thread running on the selected thread, or None."""
    try:
        value = gdb.parse_and_eval("__gpusym_lane")
    except gdb.error:
        return None
    return None if int(value) == 0 else value.dereference()


class LaneIs(gdb.Function):
    """$_gpusym_lane_is(BX, BY, BZ, TX, TY, TZ): whether the selected thread
    runs that block and thread of a kernel (-1: any coordinate)."""

    def __init__(self) -> None:
        super().__init__("_gpusym_lane_is")

    def invoke(self, *coordinates: gdb.Value) -> bool:
        current = lane()
        if current is None:
            return False
        wanted = [int(c) for c in coordinates]
        actual = [int(current[group][axis]) for group in ("block_idx", "thread_idx") for axis in "xyz"]
        return all(w < 0 or w == a for w, a in zip(wanted, actual))


def symbol_at(address: int) -> str | None:
    """The name gdb gives the minimal symbol at `address` (demangled), as
    ``info symbol`` says it; None when no symbol covers it."""
    try:
        text = gdb.execute(f"info symbol {address:#x}", to_string=True)
    except gdb.error:
        return None
    match = _INFO_SYMBOL.match(text.strip())
    return match.group(1) if match else None


class Launching(gdb.Function):
    """$_gpusym_launching("KERNEL"): at the entry of the launch call, whether
    its handle argument is the handle of KERNEL (its demangled name).  A
    launch from the kernel's own stub does not count: kbreak -launch stops
    there already.  (The handle's address is taken from the argument, not
    looked up by name: gdb would find the device function of the same name.)"""

    def __init__(self) -> None:
        super().__init__("_gpusym_launching")

    def invoke(self, kernel: gdb.Value) -> bool:
        frame = gdb.selected_frame()
        caller = frame.older()
        if caller is not None and STUB_MARK in (caller.name() or ""):
            return False
        return symbol_at(int(frame.read_register("rdi"))) == kernel.string()


def announce_lane(event) -> None:
    """On a stop in a simulated GPU thread, say which block and thread."""
    if not isinstance(event, gdb.StopEvent):
        return
    current = lane()
    if current is None:
        return
    block = ",".join(str(int(current["block_idx"][a])) for a in "xyz")
    thread = ",".join(str(int(current["thread_idx"][a])) for a in "xyz")
    print(f"[gpusym: block ({block}) thread ({thread}) of dispatch {int(current['dispatch_id'])}]")
    from gdbext.runtime_state import set_lane_variables  # (runtime_state imports this module)

    set_lane_variables()
