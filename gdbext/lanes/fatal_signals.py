"""Continuing from a signal that ends a program of several threads.

In all-stop mode gdb resumes the stopped threads one at a time, in the order
they were created, and passes the signal when its thread's turn comes.  A
signal that ends the program (a kernel fault after the runtime's report, a
device assert's abort) ends every thread while gdb is still resuming those
created after its own.  gdb reads a thread's registers as it resumes it, and
gdb 13 gives up at the first thread it cannot read: ``continue`` fails with
"Couldn't get registers: No such process.", the threads it did not resume
stay listed as running, and the next ``run`` fails with "No unwaited-for
children left."  Resuming a thread that has just ended is otherwise harmless
(gdb's Linux target ignores it).  So at each stop by a signal, every thread's
registers are read: gdb keeps them until it resumes the thread, and does not
need to read them again then.

Another thread may have reached a breakpoint just before such a stop; its
trap waits in gdb until the program goes on, and gdb 13 steps it over the
breakpoint while the program ends, and fails the same ways.  So at the stop
after the runtime has reported a fault (the signal is then delivered with
its default action: the program ends), the kernel breakpoints are disabled
until the program has ended; gdb then drops the waiting traps.
"""

from __future__ import annotations

import gdb

from device.debug_interface import Version
from gdbext.frames.device_frames import in_device_code
from gdbext.runtime_view import runtime_state


def read_registers(event: gdb.StopEvent) -> None:
    """At a stop by a signal (gdb.events.stop): the registers of every
    stopped thread, read now; the selected thread and frame stay."""
    if not isinstance(event, gdb.SignalEvent):
        return
    thread, frame = gdb.selected_thread(), gdb.selected_frame()
    for other in gdb.selected_inferior().threads():
        if other.is_stopped():
            other.switch()
            gdb.newest_frame().read_register("pc")
    thread.switch()
    frame.select()


#: Breakpoints disabled at a fatal stop, enabled again when the program has ended.
_disabled: list[gdb.Breakpoint] = []


def _reported_fault() -> bool:
    """Whether the runtime has reported a fault of the selected thread (it
    then lets the signal end the program)."""
    debug = runtime_state.debug_state()
    try:
        return (
            debug is not None
            and runtime_state.supports(debug, Version.FAULTS)
            and int(debug["fault"]) != 0
            and int(debug["fault"]["os_thread"]) == gdb.selected_thread().ptid[1]
        )
    except gdb.error:
        return False


def disarm_at_the_end(event: gdb.StopEvent) -> None:
    """At the stop where a reported fault ends the program: its kernel
    breakpoints off until it has ended."""
    if not isinstance(event, gdb.SignalEvent) or not _reported_fault():
        return
    for breakpoint in gdb.breakpoints():
        if breakpoint.enabled and in_device_code(breakpoint):
            breakpoint.enabled = False
            _disabled.append(breakpoint)
    if _disabled:
        numbers = ", ".join(str(breakpoint.number) for breakpoint in _disabled)
        which = f"breakpoints {numbers} are" if len(_disabled) > 1 else f"breakpoint {numbers} is"
        print(f"[gpusym: the program ends when it goes on; kernel {which} disabled until it has]")


def rearm(event=None) -> None:
    """When the program has ended: the breakpoints disabled for its end back on."""
    for breakpoint in _disabled:
        if breakpoint.is_valid():
            breakpoint.enabled = True
    _disabled.clear()
