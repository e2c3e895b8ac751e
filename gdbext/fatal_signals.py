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
"""

from __future__ import annotations

import gdb


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
