"""Stepping stays on the lane: ``next``, ``step``, ``until``, ``advance``
and ``finish`` begun in a kernel end in the lane they began in, without
``set scheduler-locking``.

While gdb steps one thread it resumes the others, and the stepped lane's
own thread runs the other lanes of its block whenever it waits at a
barrier: any of them reaching a breakpoint would end the step in another
lane.  So while such a step is in progress, the breakpoints in device code
stop only in the stepped lane (their conditions get
``$_gpusym_stepped_lane()`` in front, and are given back at the stop), and
a breakpoint where a kernel returns to the runtime stops when the stepped
lane finishes, and says so, rather than stepping on through the runtime.
The runtime's lane switching has no line information, so ``step`` on
``__syncthreads()`` steps over it as over any function without lines.

``advance LOCATION`` stops at LOCATION in any frame of the stepped lane's
thread, and that thread runs the other lanes of the block whenever the
lane waits: gdb's breakpoints for it (momentary ones, which Python does not
see) would stop the first other lane to get there.  So while ``advance``
runs, a hardware watchpoint on the thread's ``__gpusym_lane``, which the
runtime writes at each lane switch, takes their traps out of the code while
the thread runs another lane, and puts them back when it runs the stepped
lane again.  ``until LOCATION`` needs none of this: gdb stops it only in
the frame it began in, which is the stepped lane's own.

The commands are followed through gdb's command hooks (``hook-next`` and so
on); a hook the user defined already is left as it is."""

from __future__ import annotations

import re

import gdb

from device.debug_interface import LaneState
from gdbext.frames.device_frames import UNWINDER, in_device_code, is_device_address, is_runtime
from gdbext.lanes import info_lanes, lane_record
from gdbext.runtime_view import runtime_state

COMMANDS = ("next", "step", "until", "advance", "finish")
GUARD = "$_gpusym_stepped_lane()"
#: call_kernel.S: where a lane's kernel has returned.
LANE_RETURNED = "gpusym_lane_returned"
#: The commands whose breakpoints stop in any frame of the thread (gdb's
#: ``until_break_command`` with no frame), which the lane switches guard.
ANYWHERE = ("advance",)
#: The commands refused in a lane that has finished (advance and until
#: LOCATION go on to their location, in another lane).
REFUSED_WHEN_FINISHED = ("next", "step", "finish")
#: The instruction gdb puts where it inserts a breakpoint (x86-64's int3).
TRAP = 0xCC
_ADDRESS = re.compile(r"0x[0-9a-f]+")

#: The stepped lane: its address, dispatch and block; None when no step is on.
_stepped: tuple[int, int, tuple[int, int, int]] | None = None
#: Breakpoint number -> its own condition, while the guard is in front.
_conditions: dict[int, str | None] = {}


def _key(current: gdb.Value) -> tuple[int, int, tuple[int, int, int]]:
    block = tuple(int(current["block_idx"][axis]) for axis in "xyz")
    return int(current.address), int(current["dispatch_id"]), block


def _on_stepped_lane() -> bool:
    current = runtime_state.lane()
    return _stepped is None or (current is not None and _key(current) == _stepped)


class SteppedLane(gdb.Function):
    """$_gpusym_stepped_lane(): false while a step begun in another lane is
    in progress (gpusym puts it in front of device breakpoints' conditions
    during a step), else true."""

    def __init__(self) -> None:
        super().__init__("_gpusym_stepped_lane")

    def invoke(self) -> bool:
        return _on_stepped_lane()


class LaneReturned(gdb.Breakpoint):
    """Where kernels return to the runtime: stops, during a step, when the
    stepped lane's kernel returns."""

    def __init__(self) -> None:
        super().__init__(f"*{LANE_RETURNED}", gdb.BP_BREAKPOINT, internal=True)
        self.silent = True
        self.finished: str | None = None  # the lane that finished, until said
        self.says_its_lane = True  # announce() names the lane: the stop's usual lane line is left out

    def stop(self) -> bool:
        if _stepped is None or not _on_stepped_lane():
            return False
        current = runtime_state.lane()
        self.finished = f"{runtime_state.lane_place(current)} of dispatch {int(current['dispatch_id'])}"
        return True


_returned: LaneReturned | None = None


def _momentary_addresses() -> list[int]:
    """The addresses in device code of gdb's ``until`` breakpoints (those
    ``advance`` and ``until LOCATION`` set), read from ``maint info
    breakpoints``: Python's list has no momentary breakpoint."""
    text = gdb.execute("maint info breakpoints", to_string=True)
    addresses: set[int] = set()
    until = False
    for line in text.splitlines():
        fields = line.split()
        if not fields or line[0].isspace():
            continue  # a condition, a thread, a hit count
        if "." not in fields[0]:  # a breakpoint's row; its locations' rows follow ("0.1")
            until = fields[0] == "0" and fields[1:2] == ["until"]
        if until and (address := next((f for f in fields if _ADDRESS.fullmatch(f)), None)) is not None:
            addresses.add(int(address, 16))
    return sorted(address for address in addresses if is_device_address(address))


def _write_code(address: int, value: int) -> None:
    """Writes one byte of the program's code past gdb, whose own writes keep
    its breakpoints' traps in (as the runtime writes its lane watches')."""
    with open(f"/proc/{gdb.selected_inferior().pid}/mem", "r+b", buffering=0) as memory:
        memory.seek(address)
        memory.write(bytes([value]))


class LaneSwitches(gdb.Breakpoint):
    """While ``advance`` begun in a lane runs: a hardware watchpoint on
    `address`, the stepped lane's thread's ``__gpusym_lane``.  At each lane
    switch of that thread, the traps of gdb's breakpoints for the command
    come out of the code when it runs another lane, and go back in when it
    runs the stepped lane again."""

    def __init__(self, address: int) -> None:
        super().__init__(f"*(long *) {address:#x}", gdb.BP_WATCHPOINT, gdb.WP_WRITE, internal=True)
        self.silent = True
        self.trapping = True  # gdb's traps are in the code
        self.traps: list[tuple[int, int]] | None = None  # (address, the byte gdb's trap replaced)

    def stop(self) -> bool:
        try:
            self._follow()
        except (gdb.error, gdb.MemoryError, OSError):
            pass  # the traps stay as they are
        return False

    def _follow(self) -> None:
        trapping = _on_stepped_lane()
        if trapping == self.trapping:
            return
        if self.traps is None:
            memory = gdb.selected_inferior()
            self.traps = [(a, memory.read_memory(a, 1).tobytes()[0]) for a in _momentary_addresses()]
        for address, original in self.traps:
            _write_code(address, TRAP if trapping else original)
        self.trapping = trapping


_switches: LaneSwitches | None = None


def _watch_lane_switches() -> None:
    """Makes the lane switches of the selected thread guard ``advance``
    (LaneSwitches), with a hardware watchpoint only: a software one would
    single-step the program."""
    global _switches
    address = int(runtime_state.variable("__gpusym_lane").address)
    _switches = LaneSwitches(address)
    if _switches.type != gdb.BP_HARDWARE_WATCHPOINT:
        _switches.delete()
        _switches = None


def begin(command: str = "") -> None:
    """Before a stepping command (its hook): when the selected thread runs a
    lane, the step stays on it.  Never raises: the step goes on as gdb's own."""
    try:
        _begin(command)
    except (gdb.error, gdb.MemoryError):
        end()


def _begin(command: str) -> None:
    global _stepped, _returned
    end()
    thread = gdb.selected_thread()
    if thread is not None and (waiting := runtime_state.focused_waiting_lane(thread)) is not None:
        _unfocus(thread, waiting)
    current = runtime_state.lane()
    if current is None or int(current["state"]) != LaneState.RUNNING or is_runtime(gdb.newest_frame()):
        return  # outside kernels, or a lane that has finished
    _stepped = _key(current)
    for breakpoint in gdb.breakpoints():
        if (
            breakpoint.is_valid()
            and breakpoint.enabled
            and breakpoint.type == gdb.BP_BREAKPOINT
            and not breakpoint.pending
            and in_device_code(breakpoint)
        ):
            own = breakpoint.condition
            _conditions[breakpoint.number] = own
            _set_condition(breakpoint, f"{GUARD} && ({own})" if own else GUARD)
    try:
        _returned = LaneReturned()
    except gdb.error:
        _returned = None  # a runtime without the symbol: lanes finish unannounced
    if command in ANYWHERE:
        try:
            _watch_lane_switches()
        except gdb.error:
            pass  # no hardware watchpoint: gdb's breakpoints stop in every lane of the thread


class StepRefused(gdb.Function):
    """$_gpusym_step_refused("COMMAND"): false, or an error (one line, and
    the command does not run) for COMMAND in a lane that has finished."""

    def __init__(self) -> None:
        super().__init__("_gpusym_step_refused")

    def invoke(self, command: gdb.Value) -> bool:
        if (name := command.string()) in REFUSED_WHEN_FINISHED:
            _refuse_finished(name)
        return False


def _refuse_finished(command: str) -> None:
    """`command` is an error in a lane whose kernel has returned: gdb's own
    would step out of the runtime's loop over lanes, to the program's end."""
    current = runtime_state.lane()
    if current is None or runtime_state.focused_waiting_lane(gdb.selected_thread()) is not None:
        return
    try:
        finished = int(current["state"]) == LaneState.EXITED or runtime_state.kernel_returned(gdb.newest_frame().pc())
    except gdb.error:
        return
    if finished:
        raise gdb.GdbError(
            f"{runtime_state.lane_place(current)} of dispatch {int(current['dispatch_id'])} has finished: its "
            f"kernel returned, and '{command}' has no line of it to go to; continue runs the other lanes"
        )


def _unfocus(thread: gdb.InferiorThread, waiting: gdb.Value) -> None:
    """A waiting lane cannot be stepped: it goes on only when the lanes
    before it wait too.  gdb steps the lane its thread runs."""
    runtime_state.focus_waiting_lane(thread, None)
    UNWINDER.forget()
    gdb.newest_frame().select()
    running = runtime_state.lane()
    if running is None:
        return
    runtime_state.set_lane_variables(running)
    runtime_state.shown(thread, running)
    waits = info_lanes.WAITS.get(int(waiting["state"]), "waits")
    print(
        f"[gpusym: {runtime_state.lane_place(waiting)} {waits} and cannot be stepped; stepping "
        f"{runtime_state.lane_place(running)}, which thread {thread.num} runs]"
    )


def _set_condition(breakpoint: gdb.Breakpoint, condition: str | None) -> None:
    try:
        breakpoint.condition = condition
    except gdb.error:
        pass  # a condition gdb cannot parse at one of its locations now: it keeps the one it has


def end(event=None) -> None:
    """At the stop (or the prompt, after a command that failed): the
    conditions go back to what they were, and the lane-end breakpoint goes
    (kept, gdb would re-set it at each new run, before the runtime that has
    its symbol is loaded, and say it cannot)."""
    global _stepped, _returned, _switches
    if _stepped is None:
        return
    _stepped = None
    if _switches is not None and _switches.is_valid():
        # Traps it took out stay out: gdb takes its own out at the stop,
        # writing back the same bytes.
        _switches.delete()
    _switches = None
    by_number = {breakpoint.number: breakpoint for breakpoint in gdb.breakpoints()}
    for number, own in _conditions.items():
        breakpoint = by_number.get(number)
        if breakpoint is not None and breakpoint.is_valid():
            _set_condition(breakpoint, own)
    _conditions.clear()
    if _returned is not None and _returned.is_valid():
        _returned.delete()
    _returned = None


def announce(event) -> None:
    """At a stop where the stepped lane finished: say so."""
    if _returned is None or _returned.finished is None or _returned not in getattr(event, "breakpoints", ()):
        return
    print(f"[gpusym: {_returned.finished} has finished: its kernel returned; continue runs the other lanes]")
    _returned.finished = None


def hook_commands() -> None:
    """Hook the stepping commands (each step ends at its stop: announce, end;
    while gdb's process record is on, lane_record.begin runs first)."""
    SteppedLane()
    StepRefused()
    for command in COMMANDS:
        if not lane_record.hooked(command):
            begin = f"__import__('gdbext.lanes.stepping', fromlist=['begin']).begin('{command}')"
            refused = f'if $_gpusym_step_refused("{command}")\nend'
            gdb.execute(f"define hook-{command}\n{refused}\n{lane_record.hook_line(command)}\npython {begin}\nend")
