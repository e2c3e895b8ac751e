"""Turns gdb 13's displaced stepping off while a breakpoint sits where it
can corrupt a register.

To step a thread over a breakpoint while the others run, gdb copies the
instruction elsewhere and steps it there.  An instruction addressing memory
relative to %rip is rewritten to address through a scratch register, which
gdb saves before the step and restores after it.  gdb 13 (Debian 12's)
restores it only when the step completes: a thread whose step is interrupted,
because another thread reported a stop, keeps gdb's value in that register,
often a callee-saved one its callers rely on.  Every lane steps over a
kernel breakpoint that does not stop it, so with a lane condition such a
stop comes soon.

Kernels' own breakpoint sites (``kbreak``) are a `nop` (the simulated
device's build puts one at each kernel's ``prologue_end``), so kernel
breakpoints keep fast displaced stepping.  While any other enabled
breakpoint location is on a %rip-relative instruction, the extension sets
``displaced-stepping off`` (gdb then steps over breakpoints with the other
threads stopped: correct, and slower, the more threads the slower), and back
to ``auto`` when none is left.  A setting the user made is never changed.
"""

from __future__ import annotations

import re

import gdb

FIXED_IN = 14  # the first gdb major version restoring the register

_turned_off = False  # whether "off" is the extension's doing
_rip_relative_at: dict[int, bool] = {}  # by address, until code is loaded or unloaded


def major_version(version: str) -> int:
    """The major version in a gdb version string ("13.1" -> 13), 0 if none."""
    match = re.match(r"(\d+)", version)
    return int(match.group(1)) if match else 0


def _rip_relative(address: int) -> bool:
    """Whether the instruction at `address` addresses memory relative to %rip."""
    if address not in _rip_relative_at:
        try:
            instruction = gdb.selected_inferior().architecture().disassemble(address)[0]["asm"]
        except (gdb.error, gdb.MemoryError, IndexError):
            return False  # not readable yet: decided when it is
        _rip_relative_at[address] = "(%rip)" in instruction or "[rip" in instruction
    return _rip_relative_at[address]


def _risky_location(ignored: gdb.Breakpoint | None) -> bool:
    return any(
        location.enabled and location.address is not None and _rip_relative(location.address)
        for breakpoint in gdb.breakpoints()
        if breakpoint.enabled and breakpoint.type == gdb.BP_BREAKPOINT and breakpoint != ignored
        for location in breakpoint.locations
    )


def update(ignored: gdb.Breakpoint | None = None) -> None:
    """Sets displaced stepping for the breakpoint locations there are now
    (but `ignored`, one being deleted)."""
    global _turned_off
    if major_version(gdb.VERSION) >= FIXED_IN:
        return
    setting = gdb.parameter("displaced-stepping")  # None: auto
    if setting is not False:
        _turned_off = False  # "on" is the user's choice; "auto" is nobody's
    if setting is None and _risky_location(ignored):
        gdb.execute("set displaced-stepping off", to_string=True)
        _turned_off = True
    elif _turned_off and not _risky_location(ignored):
        gdb.execute("set displaced-stepping auto", to_string=True)
        _turned_off = False


def breakpoint_changed(_breakpoint: gdb.Breakpoint) -> None:
    """A breakpoint was created, or its locations changed."""
    update()


def code_changed(_event: object) -> None:
    """An object file was loaded or freed: the instructions read are stale."""
    _rip_relative_at.clear()
    update()
