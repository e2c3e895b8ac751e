"""A function called from gdb at a lane (``print tile.thread_rank()``,
``print grid.size()``, ``call scaled(5, 2)``) runs on that lane alone, as
cuda-gdb runs it.

gdb lets every thread run while it makes an inferior call (of
``set scheduler-locking``'s values only ``on`` holds the other threads
during one: ``step`` holds them during stepping commands only, and
``replay``, the default, in replay mode only), so the other workers' lanes ran too and
reached their breakpoints ("The program stopped in another thread while
making a function call from GDB").  And the called code hands the lane's
worker to other lanes itself: the simulated device's compile puts a wave
step (``__gpusym_wave_step``, a meeting of the wavefront) in front of loads
that may reach ``__shared__`` memory, loads through ``this`` included, so
even ``thread_group::thread_rank()`` met its wavefront, and the next lanes
ran on the same thread, to their breakpoints or on through the program.

So while a call made at a lane runs:

- ``scheduler-locking`` is ``on`` (the user's setting comes back after it):
  no other thread runs;
- the runtime's lane switches have breakpoints of the extension on the
  calling thread: a wave step returns at once (the call reads memory as it
  is now, as a debugger does), and a warp function, a barrier or a grid
  barrier, which need other lanes, stop the call before any other lane
  runs;
- with a lane waiting at a barrier in focus (``gpu focus``), the call runs
  as that lane (the thread's ``__gpusym_lane`` points at it meanwhile), and
  it stays in focus.

A call at a lane that stops before it returns (at such a lane switch, a
breakpoint or a signal in the called code) is undone at once: its dummy
frame is popped, which puts the lane's registers back, the frame the user
had selected is selected again, and one line says so.  Going on with it
later would run the rest of the call with the other lanes."""

from __future__ import annotations

import struct

import gdb

from gdbext.frames.device_frames import UNWINDER
from gdbext.runtime_view import runtime_state

#: The runtime's lane switches that device code calls (fiber_switch.S,
#: executor.cpp).  A wave step, in assembly or in C (__gpusym_wave_op with
#: GPUSYM_WAVE_STEP, gpusym/lane.h), orders a lane's accesses to
#: __shared__ memory with its wavefront's: alone, the lane goes straight on.
WAVE_STEP = "__gpusym_wave_step"
WAVE_OP = "__gpusym_wave_op"
STEP_OP = 17
#: The switches that need other lanes, and what they are to a user.
NEEDS_LANES = {
    "__gpusym_wave_meet": "a warp function, which needs the other lanes of its wavefront",
    "__gpusym_barrier": "a barrier, which needs the other lanes of its block",
    "__gpusym_grid_arrive": "a grid barrier, which needs the other blocks of its grid",
}
WARP_FUNCTION = NEEDS_LANES["__gpusym_wave_meet"]


class _Call:
    """A call made at a lane, while it runs."""

    def __init__(self, thread: gdb.InferiorThread, lane: gdb.Value, address: int) -> None:
        self.thread = thread
        self.lane = lane  # the lane the call runs as
        self.address = address  # the called function's
        self.frame: gdb.Frame | None = None  # the frame the user had selected
        self.scheduler_locking: str | None = None  # the user's setting, while "on" is ours
        self.waiting: gdb.Value | None = None  # the waiting lane in focus, when the call runs as it
        self.running_lane = 0  # __gpusym_lane's value meanwhile: the lane the thread runs
        self.return_instruction = 0
        self.switches: list[_Switch] = []
        self.refused: str | None = None  # the lane switch the call was stopped at


#: The calls in progress, innermost last; None for a call made during
#: another (a breakpoint condition's), which the outer one's arrangements cover.
_calls: list[_Call | None] = []


class _Switch(gdb.Breakpoint):
    """A lane switch of the runtime, on the calling thread, while a call runs."""

    def __init__(self, function: str, call: _Call) -> None:
        super().__init__(f"-qualified {function}", gdb.BP_BREAKPOINT, internal=True)
        self.function = function
        self.call = call
        self.silent = True
        self.thread = call.thread.global_num

    def stop(self) -> bool:
        try:
            if self._skippable():
                self._return_now(0 if self.function == WAVE_OP else None)
                return False
        except gdb.error:
            pass  # stopped instead: a switch must not run
        self.call.refused = NEEDS_LANES.get(self.function, WARP_FUNCTION)
        return True

    def _skippable(self) -> bool:
        """Whether the switch is a wave step, which a lane alone goes on from."""
        if not self.call.return_instruction:
            return False
        if self.function == WAVE_STEP:
            return True
        return self.function == WAVE_OP and int(gdb.parse_and_eval("$rdi")) & 0xFFFFFFFF == STEP_OP

    def _return_now(self, value: int | None) -> None:
        """Makes the switch just entered return to its caller at once (with
        `value` in %rax): the thread goes on at a return instruction of the
        runtime, the return address on top of the stack as at the entry.
        Only the program counter moves, so the frames gdb finds again after
        each register written stay whole."""
        if value is not None:
            gdb.execute(f"set var $rax = {value}", to_string=True)
        gdb.execute(f"set var $pc = {self.call.return_instruction}", to_string=True)


def _return_instruction() -> int:
    """A return instruction of the runtime: one of __gpusym_wave_op, a
    compiled function, whose call frame information there says what every
    return instruction's does (the return address on top of the stack)."""
    start = int(gdb.parse_and_eval(f"(long) &{WAVE_OP}"))
    for instruction in gdb.selected_inferior().architecture().disassemble(start, count=256):
        if instruction["asm"].split()[:1] in (["ret"], ["retq"]):
            return instruction["addr"]
    raise gdb.error(f"no return instruction in {WAVE_OP}")


def _forget_frames() -> None:
    """The launch-stack unwinder keeps the frames of one stop (it forgets
    them when the program resumes, which gdb does not announce for a call):
    the call's frames are others, and so are those after it."""
    UNWINDER.forget()
    gdb.invalidate_cached_frames()


def _write_lane(address: int) -> None:
    """Points the selected thread's __gpusym_lane (thread-local) at `address`."""
    variable = int(gdb.parse_and_eval("(long) &__gpusym_lane"))
    gdb.selected_inferior().write_memory(variable, struct.pack("<Q", address))


def inferior_call(event) -> None:
    """gdb.events.inferior_call: before() at a call's start, after() at its end."""
    if isinstance(event, gdb.InferiorCallPreEvent):
        before(event)
    else:
        after(event)


def before(event: gdb.InferiorCallPreEvent) -> None:
    """At a call's start (gdb has read its arguments, and is about to push
    its frame): when the calling thread runs a lane, the call runs on that
    lane alone."""
    if _calls:
        _calls.append(None)
        return
    thread = gdb.selected_thread()
    try:
        current = runtime_state.lane() if thread is not None else None
    except gdb.error:
        current = None
    if current is None:
        _calls.append(None)  # a host thread, or a worker between lanes
        return
    call = _Call(thread, current, int(event.address))
    _calls.append(call)
    try:
        _arrange(call)
    except gdb.error as error:
        print(f"[gpusym: the call at {runtime_state.lane_place(current)} may run other lanes: {error}]")


def _arrange(call: _Call) -> None:
    try:
        call.frame = gdb.selected_frame()
    except gdb.error:
        call.frame = None
    setting = gdb.parameter("scheduler-locking")
    if setting != "on":
        gdb.execute("set scheduler-locking on", to_string=True)
        call.scheduler_locking = setting
    try:
        call.return_instruction = _return_instruction()
    except gdb.error:
        call.return_instruction = 0  # a wave step then stops the call too
    waiting = runtime_state.focused_waiting_lane(call.thread)
    if waiting is not None:
        # The call runs on the thread's registers: as the waiting lane,
        # whose frames its arguments were read from.
        call.running_lane = int(gdb.parse_and_eval("(long) __gpusym_lane"))
        _write_lane(int(waiting.address))
        call.waiting = waiting
        runtime_state.focus_waiting_lane(call.thread, None)  # the thread's own frames, during the call
    _forget_frames()
    for function in (WAVE_STEP, WAVE_OP, *NEEDS_LANES):
        try:
            call.switches.append(_Switch(function, call))
        except gdb.error:
            pass  # a runtime without it


def after(event: gdb.InferiorCallPostEvent) -> None:
    """At a call's end, before gdb pops its frame (or says why it stopped):
    a call that did not return is undone, and what before() arranged is
    put back."""
    call = _calls.pop() if _calls else None
    if call is None:
        return
    undone = False
    try:
        _forget_frames()
        undone = _undo_unless_returned(call)
    except gdb.error as error:
        print(f"[gpusym: after the call at {runtime_state.lane_place(call.lane)}: {error}]")
    finally:
        _release(call)
    if not undone:
        return
    if call.frame is not None and call.frame.is_valid():
        call.frame.select()
    place = runtime_state.lane_place(call.lane)
    if call.refused is not None:
        why = f"calls {call.refused}, and a function called from gdb runs on {place} alone"
        print(f"[gpusym: {_name(call.address)} {why}: the call is undone, the lane is where it was]")
    else:
        why = "stopped before it returned, and going on with it would run the other lanes"
        print(f"[gpusym: {_name(call.address)} {why}: the call is undone, {place} is where it was]")


def settle(event=None) -> None:
    """Before a prompt, and at the program's end, no call runs: what a call
    left arranged (gdb failed between its start and its end) is put back."""
    while _calls:
        call = _calls.pop()
        if call is not None:
            _release(call)


def _undo_unless_returned(call: _Call) -> bool:
    """Pops the frame of a call that stopped before it returned.  Whether it did."""
    if not call.thread.is_valid():
        return False  # the program has exited
    call.thread.switch()  # the calling thread: gdb may have stopped another
    if gdb.newest_frame().type() == gdb.DUMMY_FRAME:
        return False  # at the call's end: gdb pops it
    _pop_dummy_frame()
    return True


def _release(call: _Call) -> None:
    """Puts back what before() arranged: the runtime's lane switches run
    again, the lane the thread runs is its lane again (the waiting one in
    focus), and the user's scheduler-locking is back."""
    for switch in call.switches:
        if switch.is_valid():
            switch.delete()
    call.switches.clear()
    if call.waiting is not None and call.thread.is_valid():
        try:
            call.thread.switch()
            _write_lane(call.running_lane)
            runtime_state.focus_waiting_lane(call.thread, call.waiting)
        except gdb.error as error:
            print(f"[gpusym: {runtime_state.lane_place(call.lane)} cannot be put back in focus: {error}]")
    call.waiting = None
    if call.scheduler_locking is not None:
        gdb.execute(f"set scheduler-locking {call.scheduler_locking}", to_string=True)
        call.scheduler_locking = None
    _forget_frames()  # those read during the call, some with the waiting lane out of focus


def _pop_dummy_frame() -> None:
    """Pops the call's dummy frame, as ``return`` in it does: gdb puts back
    the registers from before the call."""
    frame = gdb.newest_frame()
    while frame is not None and frame.type() != gdb.DUMMY_FRAME:
        frame = frame.older()
    if frame is None:
        raise gdb.error("the call's frame is not on the stack")
    frame.select()
    gdb.execute("return", to_string=True)


def _name(address: int) -> str:
    """The called function, as gdb names it (not a function inlined into it)."""
    block = gdb.block_for_pc(address)
    function = None
    while block is not None and not block.is_static and not block.is_global:
        function = block.function or function
        block = block.superblock
    return function.print_name if function is not None else f"the function at {address:#x}"
