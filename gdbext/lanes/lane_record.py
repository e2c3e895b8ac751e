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

``watch`` while recording makes a software watchpoint (which gdb checks
after each instruction, run or replayed): ``watch -l tile[5]`` then
``reverse-continue`` stops at the last write.

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
block's other lanes' (run on the same thread), and gdb's reverse step
stops among them, in the runtime or another lane.  The step then goes on
back to the lane's own call that waited: the call is the instruction
before the return address in the lane's saved context, in the frame the
step began in; a breakpoint there for that lane alone and
``reverse-continue`` reach it, and the step ends at the start of its
line, as gdb's own would.  Where that cannot be done, one line says so and
how to go back where it began (``record goto N``).

gdb checks hardware watchpoints only while it runs the program, never
while it replays its log: at ``record full``, one line names those that
will not stop backwards."""

from __future__ import annotations

import re
from dataclasses import dataclass

import gdb

from gdbext.frames.device_frames import is_device, is_runtime
from gdbext.runtime_view import runtime_state

#: The commands that run the program forward, hooked here (stepping.py's
#: hooks of the others call begin() through hook_line()).
HOOKED = ("continue", "stepi", "nexti")
#: The command whose watchpoints are made software ones while recording.
WATCH = "watch"
#: The commands that step a lane backwards, followed to their stop.
REVERSE = ("reverse-next", "reverse-step", "reverse-finish")
#: The commands that start a recording, with their prefixes: ``record full`` and ``record``.
RECORD = (("record", "full"), ("", "record"))
#: gdb's watchpoints that use the processor's debug registers.
HARDWARE_WATCHPOINTS = (gdb.BP_HARDWARE_WATCHPOINT, gdb.BP_READ_WATCHPOINT, gdb.BP_ACCESS_WATCHPOINT)
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


@dataclass
class ReverseStep:
    """A reverse step begun in a lane."""

    command: str
    lane: gdb.Value  # the lane's record (its address and type)
    place: str
    where: str  # where in the log it began ("end" when not replaying)
    depth: int  # the frame it began in: how many device frames are outside it


class _State:
    """What begin() changed, until the stop."""

    def __init__(self) -> None:
        self.locking: str | None = None  # the user's scheduler-locking, while ours is on
        self.steady: gdb.Breakpoint | None = None
        self.switches: LaneSwitches | None = None
        self.hardware: str | None = None  # the user's can-use-hw-watchpoints, while ``watch`` runs
        #: While a reverse step runs: what it began from.
        self.reverse: ReverseStep | None = None
        #: A reverse step that stopped outside its lane, until its hook after it.
        self.strayed: ReverseStep | None = None
        #: While the step goes on back to the lane's call: its own commands
        #: are not followed.
        self.going_back = False


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
    _state.reverse = _state.strayed = None
    current = runtime_state.lane()
    if not recording() or current is None or _state.going_back:
        return
    position = _POSITION.search(gdb.execute("info record", to_string=True))
    where = position.group(1) if position else "end"
    try:
        depth = _outer_device_frames(gdb.selected_frame())
    except gdb.error:
        return
    place = runtime_state.lane_place(current)
    _state.reverse = ReverseStep(command, current.address, place, where, depth)


def _outer_device_frames(frame: gdb.Frame) -> int:
    """How many frames of device code are outside `frame`."""
    count = 0
    frame = frame.older()
    while frame is not None and is_device(frame):
        count += 1
        frame = frame.older()
    return count


def reverse_stopped(event) -> None:
    """At the stop of a reverse step: note one that went back past where
    its lane was resumed (in the runtime, or another lane), for
    after_reverse()."""
    step, _state.reverse = _state.reverse, None
    if step is None or not isinstance(event, gdb.StopEvent):
        return
    current = runtime_state.lane()
    try:
        in_lane = current is not None and int(current.address) == int(step.lane) and not is_runtime(gdb.newest_frame())
    except gdb.error:
        in_lane = False
    if not in_lane:
        _state.strayed = step


def after_reverse() -> None:
    """After a reverse step that stopped outside its lane: go on back to
    the lane's call that waited, and to the start of its line; or say why
    not.  Called by the step's hook after it, which runs after the stop
    when the command waits for it (batch mode, scripts, gdb.execute), and
    before the prompt, which comes after the stop when it does not (the
    interactive CLI)."""
    step, _state.strayed = _state.strayed, None
    if step is None or _state.going_back:
        return
    outermost = step.command == "reverse-finish" and step.depth == 0  # the kernel's caller is the runtime
    _state.going_back = True
    try:
        call = None if outermost else _waiting_call(step)
        if call is None or not _back_to(call, step):
            _say_strayed(step)
            return
        line = gdb.find_pc_line(call)
        if step.command == "reverse-finish" or (line.symtab is not None and line.pc != call):
            gdb.execute(step.command)  # from the call on, the lane's own code
        else:
            print(gdb.execute("frame", to_string=True).splitlines()[-1])  # its source line, as a step shows it
            runtime_state.tell_lane()
    finally:
        _state.going_back = False


def _waiting_call(step: ReverseStep) -> int | None:
    """The call at which the step's lane waited, in the frame the step
    began in, read from the lane's saved context; None when it cannot be."""
    thread = gdb.selected_thread()
    lane = gdb.Value(int(step.lane)).cast(step.lane.type).dereference()
    runtime_state.focus_waiting_lane(thread, lane)
    try:
        frames = []
        frame = gdb.newest_frame().older()  # frame 0 is the thread's own; the lane's follow
        while frame is not None and not is_device(frame):  # the runtime's, where the lane waits
            frame = frame.older()
        while frame is not None and is_device(frame):
            frames.append(frame)
            frame = frame.older()
        if len(frames) <= step.depth:
            return None
        returns_to = frames[len(frames) - 1 - step.depth].pc()
    except gdb.error:
        return None
    finally:
        runtime_state.focus_waiting_lane(thread, None)
    return _instruction_before(returns_to)


def _instruction_before(address: int) -> int | None:
    """The instruction that ends where `address` begins, in its line."""
    line = gdb.find_pc_line(address - 1)
    if line.symtab is None or line.pc >= address:
        return None
    architecture = gdb.selected_frame().architecture()
    for instruction in architecture.disassemble(line.pc, address - 1):
        if instruction["addr"] + instruction["length"] == address:
            return instruction["addr"]
    return None


def _back_to(call: int, step: ReverseStep) -> bool:
    """Run back to `call` in the step's lane; whether it got there."""
    print(
        f"[gpusym: {step.command} goes back over the wait of {step.place} at a barrier or a warp function, "
        "while its thread ran the other lanes of its block, to its call]"
    )
    stop = gdb.Breakpoint(f"*{call:#x}", internal=True, temporary=True)
    stop.silent = True
    stop.condition = f'$_gpusym_lane_is("{step.place}")'
    try:
        gdb.execute("reverse-continue", to_string=True)
    except gdb.error:
        return False
    finally:
        if stop.is_valid():
            stop.delete()
    current = runtime_state.lane()
    try:
        return current is not None and int(current.address) == int(step.lane) and gdb.newest_frame().pc() == call
    except gdb.error:
        return False


def _say_strayed(step: ReverseStep) -> None:
    current = runtime_state.lane()
    try:
        device = is_device(gdb.newest_frame())
    except gdb.error:
        device = False
    here = f"{runtime_state.lane_place(current)}'s" if device and current is not None else "the runtime's lane switch"
    print(
        f"[gpusym: {step.command} went back past where {step.place} went on after waiting at a barrier or a warp "
        f"function: the instructions logged before are its block's other lanes' (this is {here}); "
        f"'record goto {step.where}' goes back to where it began, and a breakpoint on an earlier line with "
        f"$_gpusym_lane_is(\"{step.place}\") then 'reverse-continue' goes further back in the lane]"
    )


def announce(event) -> None:
    """At a stop because the log is nearly full: say so."""
    switches = _state.switches
    if switches is not None and switches.full is not None and switches in getattr(event, "breakpoints", ()):
        print(switches.full)


def before_record() -> None:
    """Before ``record full`` (or ``record``): name the hardware watchpoints
    that will not stop while gdb replays its log."""
    if gdb.current_recording() is not None:
        return
    hardware = [
        breakpoint
        for breakpoint in gdb.breakpoints()
        if breakpoint.type in HARDWARE_WATCHPOINTS and breakpoint.is_valid() and breakpoint.enabled
    ]
    if not hardware:
        return
    numbers = ", ".join(str(breakpoint.number) for breakpoint in hardware)
    print(
        f"[gpusym: hardware watchpoint{'s' if len(hardware) > 1 else ''} {numbers} will stop only while the "
        "program runs forwards: gdb checks hardware watchpoints when it runs the program, never when it replays "
        "its log (reverse-continue, reverse-next); 'watch' while recording makes a software watchpoint, which "
        "stops both ways]"
    )


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


def hooked(command: str, prefix: str = "") -> bool:
    """Whether gdb has a user hook for `command` (hook-COMMAND), a
    subcommand of `prefix` if given."""
    try:
        gdb.execute(f"show user {prefix} hook-{command}".replace("  ", " "), to_string=True)
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
        if not hooked(f"post-{command}"):
            gdb.execute(f"define hookpost-{command}\n{_call('after_reverse')}()\nend")
    for prefix, command in RECORD:
        if not hooked(command, prefix):
            gdb.execute(f"define {prefix} hook-{command}\n{_call('before_record')}()\nend".replace("  ", " "))
    if not hooked(WATCH):
        gdb.execute(f"define hook-{WATCH}\n{_call('before_watch')}()\nend")
        gdb.execute(f"define hookpost-{WATCH}\n{_call('after_watch')}()\nend")
