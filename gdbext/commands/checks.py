"""``set gpusym check memcheck`` (or ``racecheck``, or both: ``memcheck,
racecheck``): the next run of the program checks its device code (the
runtime's GPUSYM_CHECK, as ``gpusym check`` sets it).  An invalid access
ends the program: gdb stops at the lane's access with the runtime's report
(gdbext/lanes/lane_faults.py).  A hazard on ``__shared__`` memory does not: the
runtime reports it and calls gpusym_check_reported(), where a silent
breakpoint stops and selects the lane's access, printed as a stop."""

from __future__ import annotations

import gdb

from gdbext.errors import one_line_errors
from gdbext.runtime_view import runtime_state

#: What the runtime checks (device/runtime/checks.cpp), and off.
CHOICES = [
    "off",
    "memcheck",
    "racecheck",
    "synccheck",
    "initcheck",
    "memcheck,racecheck",
    "racecheck,synccheck",
    "memcheck,racecheck,synccheck",
    "memcheck,racecheck,synccheck,initcheck",
]
#: The runtime's function called after each report the program goes on
#: from, and the text of that report (device/runtime/checks.cpp).
REPORTED = "gpusym_check_reported"
REPORT = "gpusym_check_report"
#: The runtime's checks, whose caller is the lane's access, and what each is.
CHECK_NAMES = {
    "__gpusym_check_shared": "racecheck",
    "__gpusym_check_access": "memcheck/initcheck",
    "__gpusym_check_barrier": "synccheck",
}
_CHECKS = tuple(CHECK_NAMES)


def access_frame() -> gdb.Frame | None:
    """The frame of device code whose access (or barrier) a check of the
    runtime reported, at the stop its report ends in; None elsewhere."""
    frame = gdb.newest_frame()
    while frame is not None and frame.name() not in _CHECKS:
        frame = frame.older()
    return frame.older() if frame is not None else None


class ReportBreakpoint(gdb.Breakpoint):
    """Stops after each report that the program goes on from."""

    def __init__(self) -> None:
        super().__init__(f"-qualified -function {REPORTED}", gdb.BP_BREAKPOINT, internal=True)
        self.silent = True
        self.stopped = False

    def stop(self) -> bool:
        self.stopped = True
        return True

    def announce(self, event) -> None:
        """At its stop: the lane's access selected and printed as a stop's."""
        if not self.stopped or self not in getattr(event, "breakpoints", ()):
            return
        self.stopped = False
        print("[gpusym: the check's report is above; continue goes on to the next]")
        frame = access_frame()
        if frame is not None:
            frame.select()
            gdb.execute("frame")


class Check(gdb.Parameter):
    """Which checks of device code the next run of the program makes: off,
    memcheck (every access to device memory inside one live allocation, to
    the byte, and aligned as the code assumes), racecheck (hazards on
    __shared__ memory between lanes with no barrier between), synccheck
    (lanes of a block waiting at different barriers), initcheck (reads of
    device memory nothing has written), or several."""

    set_doc = (
        "Set the checks gpusym makes of device code at the next run (off, memcheck, racecheck, synccheck, initcheck)."
    )
    show_doc = "Show the checks gpusym makes of device code at the next run."

    def __init__(self) -> None:
        super().__init__("gpusym check", gdb.COMMAND_RUNNING, gdb.PARAM_ENUM, CHOICES)
        self.value = "off"
        self._breakpoint: ReportBreakpoint | None = None

    def get_set_string(self) -> str:
        with one_line_errors("set gpusym check"):
            if self.value == "off":
                gdb.execute("unset environment GPUSYM_CHECK", to_string=True)
                if self._breakpoint is not None:
                    self._breakpoint.delete()
                    self._breakpoint = None
            else:
                gdb.execute(f"set environment GPUSYM_CHECK={self.value}", to_string=True)
                self.arm()
        return "" if self.value == "off" else f"The next run checks device code: {self.value}."

    def arm(self, event=None) -> None:
        """The breakpoint, once the runtime that defines its function is
        loaded; also called on each new object file (gdb.events.new_objfile)."""
        if self.value != "off" and self._breakpoint is None and runtime_state.runtime_loaded():
            self._breakpoint = ReportBreakpoint()

    def announce(self, event) -> None:
        """At each stop (gdb.events.stop): the access, if the report stopped there."""
        if self._breakpoint is not None:
            self._breakpoint.announce(event)

    def get_show_string(self, value: str) -> str:
        return f"The checks of device code for the next run: {value}."
