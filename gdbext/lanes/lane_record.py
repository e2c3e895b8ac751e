"""Running a lane backwards: gdb's ``record full`` on the lane in focus.

gdb's process record single-steps the program and logs what each
instruction changes.  When a command runs the program on (``next`` over a
call, ``finish``, ``continue``), gdb 13 steps in a loop of its own that
resumes every thread of the program at each instruction, behind gdb's
back: another worker reaching a breakpoint then leaves gdb waiting for
ever, and threads gdb believes stopped go on running.  So while a
recording is on, each command that runs the program forward (stepping.py's
and HOOKED) runs the lane's own thread alone (``scheduler-locking
on``; the other lanes of its block run on that thread) and has gdb step it
one instruction at a time itself (an internal software watchpoint on a
value that never changes makes gdb single-step, as a real one would).
Both go at the stop, and the user's scheduler-locking comes back.

gdb checks a hardware watchpoint only while the program runs, never while
it runs backwards from its log, so ``watch`` while recording makes a
software one (which gdb checks after each instruction, run or replayed):
``watch -l tile[5]`` then ``reverse-continue`` stops at the last write.

While the lane waits at a barrier or a warp function, its thread runs the
other lanes of its block, and every one of their instructions is logged
too: at each lane switch (a hardware watchpoint on ``__gpusym_lane``) the
log's room is checked, and the program stops, saying so, before a lane's
part would no longer fit (``set record full insn-number-max``).

On a host thread of a program that has other threads, the command is
refused: holding them could wait for ever on a kernel, and not holding
them hangs gdb.

Backwards, ``reverse-next``, ``reverse-step`` and ``reverse-finish`` step
the lane's own code from the log.  Where the lane went on after waiting at
a barrier or a warp function, the instructions logged before are its
block's other lanes' (run on the same thread): a reverse step that goes
back past that point stops there, in the runtime or another lane, and one
line says so and how to go back where it began (``record goto N``) or
further in the lane (a breakpoint on an earlier line for that lane, and
``reverse-continue``)."""

from __future__ import annotations

import re

import gdb

from gdbext.frames.device_frames import is_device
from gdbext.runtime_view import runtime_state

#: The commands that run the program forward, hooked here (stepping.py's
#: hooks of the others call begin() through hook_line()).
HOOKED = ("continue", "stepi", "nexti")
#: The command whose watchpoints are made software ones while recording.
WATCH = "watch"
#: The commands that step a lane backwards, followed to their stop.
REVERSE = ("reverse-next", "reverse-step", "reverse-finish")
#: The convenience variable the internal software watchpoint watches.
STEADY = "_gpusym_recording"
_COUNT = re.compile(r"Log contains (\d+) instructions")
_POSITION = re.compile(r"Current instruction number is (\d+)")
_MAX = re.compile(r"Max logged instructions is (\d+)")


def recording() -> bool:
    """Whether gdb's process record (full) is on."""
    current = gdb.current_recording()
    return current is not None and current.method == "full"


def replaying() -> bool:
    """Whether gdb runs the program from its log (backwards, or forwards
    over what it has logged) rather than running it."""
    return recording() and "Replay mode" in gdb.execute("info record", to_string=True)


def _log() -> tuple[int, int | None]:
    """(instructions logged, the most it holds; None: unlimited)."""
    text = gdb.execute("info record", to_string=True)
    count = _COUNT.search(text)
    limit = _MAX.search(text)
    return (int(count.group(1)) if count else 0), (int(limit.group(1)) if limit else None)


class LaneSwitches(gdb.Breakpoint):
    """A hardware watchpoint on the recorded thread's ``__gpusym_lane``:
    at each lane switch, stops when the log has no room left for a lane's
    part (the most instructions logged between two switches so far)."""

    def __init__(self, address: int, lane: str) -> None:
        super().__init__(f"*(long *) {address:#x}", gdb.BP_WATCHPOINT, gdb.WP_WRITE, internal=True)
        self.silent = True
        self.lane = lane
        self.last = _log()[0]
        self.longest = 0
        self.full: str | None = None  # what to say at the stop

    def stop(self) -> bool:
        try:
            count, limit = _log()
        except gdb.error:
            return False
        self.longest = max(self.longest, count - self.last)
        self.last = count
        if limit is None or limit == 0 or count + self.longest < limit:
            return False
        self.full = (
            f"[gpusym: record full's log is nearly full ({count} of {limit} instructions, "
            f"'set record full insn-number-max'): while {self.lane} waits, its thread runs the other "
            f"lanes of its block, and each of their instructions is logged; stopped before the next "
            f"lane's part]"
        )
        return True


class _State:
    """What begin() changed, until the stop."""

    def __init__(self) -> None:
        self.locking: str | None = None  # the user's scheduler-locking, while ours is on
        self.steady: gdb.Breakpoint | None = None
        self.switches: LaneSwitches | None = None
        self.hardware: str | None = None  # the user's can-use-hw-watchpoints, while ``watch`` runs
        #: While a reverse step runs: the command, the lane's address and
        #: place, and where in the log it began ("end" when not replaying).
        self.reverse: tuple[str, int, str, str] | None = None


_state = _State()


def begin(command: str = "") -> None:
    """Before a command that runs the program forward: while recording,
    only the selected thread runs, one instruction at a time.  Raises
    gdb.GdbError (the command is refused) on a host thread with others."""
    if not recording() or replaying():
        return
    current = runtime_state.lane()
    if current is None and len(gdb.selected_inferior().threads()) > 1:
        thread = gdb.selected_thread()
        raise gdb.GdbError(
            f"record full cannot follow thread {thread.num if thread else '?'} here: it runs no lane, and gdb's "
            "record resumes every other thread behind gdb's back while it runs the program on (gdb then waits "
            "for ever); select a lane of a kernel ('gpu focus', 'thread N'), or 'record stop'"
        )
    if command == "continue" and current is not None:
        raise gdb.GdbError(
            f"record full cannot follow 'continue' from {runtime_state.lane_place(current)}: while recording, "
            "its thread runs alone, and once its block is done it would wait for ever for work from the threads "
            "held; step with next, step, until, advance or finish, or 'record stop' first"
        )
    end()
    locking = gdb.parameter("scheduler-locking")
    if locking != "on":
        gdb.execute("set scheduler-locking on", to_string=True)
        _state.locking = locking
    gdb.set_convenience_variable(STEADY, 1)
    _state.steady = gdb.Breakpoint(f"${STEADY}", gdb.BP_WATCHPOINT, gdb.WP_WRITE, internal=True)
    _state.steady.silent = True
    if current is not None:
        _watch_switches(runtime_state.lane_place(current))


def _watch_switches(lane: str) -> None:
    try:
        address = int(runtime_state.variable("__gpusym_lane").address)
        switches = LaneSwitches(address, lane)
    except gdb.error:
        return  # no hardware watchpoint left: the log's limit is gdb's own
    if switches.type == gdb.BP_HARDWARE_WATCHPOINT:
        _state.switches = switches
    else:
        switches.delete()  # a software one would check at every instruction


def before_watch() -> None:
    """Before ``watch`` while recording: it makes a software watchpoint."""
    if recording() and _state.hardware is None:
        _state.hardware = str(gdb.parameter("can-use-hw-watchpoints"))
        gdb.execute("set can-use-hw-watchpoints 0", to_string=True)


def after_watch() -> None:
    """After ``watch`` (or at the prompt, when it failed): the user's setting is back."""
    if _state.hardware is not None:
        gdb.execute(f"set can-use-hw-watchpoints {_state.hardware}", to_string=True)
        _state.hardware = None


def end(event=None) -> None:
    """At the stop: the watchpoints go, the user's scheduler-locking comes back."""
    after_watch()
    for breakpoint in (_state.steady, _state.switches):
        if breakpoint is not None and breakpoint.is_valid():
            breakpoint.delete()
    _state.steady = _state.switches = None
    if _state.locking is not None:
        gdb.execute(f"set scheduler-locking {_state.locking}", to_string=True)
        _state.locking = None


def begin_reverse(command: str) -> None:
    """Before a reverse step in a lane: note the lane and where it began."""
    _state.reverse = None
    current = runtime_state.lane()
    if not recording() or current is None:
        return
    position = _POSITION.search(gdb.execute("info record", to_string=True))
    where = position.group(1) if position else "end"
    _state.reverse = (command, int(current.address), runtime_state.lane_place(current), where)


def reverse_stopped(event) -> None:
    """At the stop of a reverse step that went back past where its lane was
    resumed (in the runtime, or another lane): say so."""
    if _state.reverse is None or not isinstance(event, gdb.StopEvent):
        return
    command, address, place, where = _state.reverse
    _state.reverse = None
    current = runtime_state.lane()
    try:
        in_lane = current is not None and int(current.address) == address and is_device(gdb.newest_frame())
    except gdb.error:
        in_lane = False
    if in_lane:
        return
    try:
        device = is_device(gdb.newest_frame())
    except gdb.error:
        device = False
    here = f"{runtime_state.lane_place(current)}'s" if device and current is not None else "the runtime's lane switch"
    print(
        f"[gpusym: {command} went back past where {place} went on after waiting at a barrier or a warp "
        f"function: the instructions logged before are its block's other lanes' (this is {here}); "
        f"'record goto {where}' goes back to where it began, and a breakpoint on an earlier line with "
        f"$_gpusym_lane_is(\"{place}\") then 'reverse-continue' goes further back in the lane]"
    )


def announce(event) -> None:
    """At a stop because the log is nearly full: say so."""
    switches = _state.switches
    if switches is not None and switches.full is not None and switches in getattr(event, "breakpoints", ()):
        print(switches.full)


def _call(function: str) -> str:
    return f"python __import__('gdbext.lanes.lane_record', fromlist=['{function}']).{function}"


class RecordBegins(gdb.Function):
    """$_gpusym_record_begins("COMMAND"): begin() for the hook of COMMAND,
    false; a command record full cannot follow is an error (one line, and
    the command does not run)."""

    def __init__(self) -> None:
        super().__init__("_gpusym_record_begins")

    def invoke(self, command: gdb.Value) -> bool:
        begin(command.string())
        return False


def hook_line(command: str) -> str:
    """The line of COMMAND's hook that calls begin() (``if`` makes its error the command's)."""
    return f'if $_gpusym_record_begins("{command}")\nend'


def hooked(command: str) -> bool:
    """Whether gdb has a user hook for `command` (hook-COMMAND)."""
    try:
        gdb.execute(f"show user hook-{command}", to_string=True)
    except gdb.error:
        return False
    return True


def hook_commands() -> None:
    """Hook the forward commands stepping.py leaves (HOOKED), and ``watch``."""
    RecordBegins()
    for command in HOOKED:
        if not hooked(command):
            gdb.execute(f"define hook-{command}\n{hook_line(command)}\nend")
    for command in REVERSE:
        if not hooked(command):
            gdb.execute(f"define hook-{command}\n{_call('begin_reverse')}('{command}')\nend")
    if not hooked(WATCH):
        gdb.execute(f"define hook-{WATCH}\n{_call('before_watch')}()\nend")
        gdb.execute(f"define hookpost-{WATCH}\n{_call('after_watch')}()\nend")
