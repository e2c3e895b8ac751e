"""``gpu focus``: switch to another simulated GPU thread of the dispatch."""

from __future__ import annotations

import gdb

from device.debug_interface import LaneState
from gdbext.commands.kbreak import break_at
from gdbext.errors import one_line_errors
from gdbext.frames import device_frames
from gdbext.lane_coordinates import coordinates
from gdbext.lanes import info_lanes, lane_watch
from gdbext.runtime_view import runtime_state
from gdbext.runtime_view.runtime_state import lane

LANE_STATES = {
    LaneState.UNSTARTED: "has not started yet",
    LaneState.RUNNING: "is running",
    LaneState.AT_BARRIER: "is waiting at __syncthreads",
    LaneState.EXITED: "has finished",
    LaneState.AT_WAVE_OP: "waits for its wavefront",
    LaneState.WAVE_OP_DONE: "goes on after its wavefront's meeting",
    LaneState.HELD_AT_BARRIER: "is waiting at __syncthreads",
    LaneState.HELD_UNSTARTED: "has not started yet",
}


class GpuPrefix(gdb.Command):
    """Commands for simulated GPU threads (gpusym): gpu focus ..."""

    def __init__(self) -> None:
        super().__init__("gpu", gdb.COMMAND_RUNNING, gdb.COMPLETE_NONE, True)


def _parse(argument: str, command: str = "gpu focus") -> tuple[tuple | None, tuple]:
    words = gdb.string_to_argv(argument)
    block, thread = None, (0, 0, 0)
    while words:
        key = words.pop(0)
        if key not in ("block", "thread") or not words:
            raise gdb.GdbError(f"usage: {command} [block X,Y,Z] [thread X,Y,Z]")
        value = coordinates(words.pop(0), f"{command}: {key}")
        if key == "block":
            block = value
        else:
            thread = value
    return block, thread


def _find(debug: gdb.Value, dispatch: int, block: tuple) -> info_lanes.Resident | None:
    """The worker's record of `block` of `dispatch`, if a worker runs it."""
    return next((r for r in info_lanes.resident_blocks(debug, dispatch) if r.block == block), None)


def _text(coordinates: tuple) -> str:
    return f"({','.join(map(str, coordinates))})"


def _grid(record: gdb.Value) -> tuple[int, int, int]:
    return tuple(int(record["grid"][a]) for a in "xyz")


def _outside(block: tuple, record: gdb.Value, dispatch: int, command: str) -> None:
    """An error for a block outside the dispatch's grid."""
    if any(b >= g for b, g in zip(block, _grid(record))):
        raise gdb.GdbError(
            f"{command}: block {_text(block)} is outside the grid {_text(_grid(record))} of dispatch {dispatch}"
        )


def _not_on_a_worker(debug: gdb.Value, record: gdb.Value, block: tuple) -> str | None:
    """``not started`` or ``finished`` for a block no worker runs, as far as
    the runtime says."""
    others = info_lanes.other_blocks(debug, record, info_lanes.resident_blocks(debug, int(record["id"])))
    linear = info_lanes.linear_index(block, _grid(record))
    if others is not None and info_lanes.in_ranges(linear, others[0]):
        return "not started"
    if others is not None and info_lanes.in_ranges(linear, others[1]):
        return "finished"
    return None


def _absent_block(debug: gdb.Value, record: gdb.Value, dispatch: int, block: tuple, command: str) -> gdb.GdbError:
    """Why `block` of `dispatch` is on no worker."""
    where = f"{command}: block {_text(block)} of dispatch {dispatch}"
    state = _not_on_a_worker(debug, record, block)
    if state == "not started":
        return gdb.GdbError(f"{where} has not started yet (gpu run-to block {','.join(map(str, block))} runs to it)")
    if state == "finished":
        return gdb.GdbError(f"{where} has finished")
    return gdb.GdbError(f"{where} is not on a worker now (not started yet, or finished)")


def _selected_dispatch(command: str) -> tuple[gdb.Value, gdb.Value, gdb.Value]:
    """(the selected lane, the runtime's debugger interface, the lane's dispatch record)."""
    current = lane()
    debug = runtime_state.debug_state()
    record = None
    if current is not None and debug is not None:
        record = runtime_state.dispatch_record(debug, int(current["dispatch_id"]))
    if record is None:
        raise gdb.GdbError(f"{command}: the selected thread runs no simulated GPU thread (stop in a kernel first)")
    return current, debug, record


def _check_thread(current: gdb.Value, thread: tuple, command: str) -> int:
    """The flat index of `thread` in the block, or an error outside it."""
    size = [int(current["block_dim"][a]) for a in "xyz"]
    if any(t >= s for t, s in zip(thread, size)):
        raise gdb.GdbError(f"{command}: thread {_text(thread)} is outside the block {_text(size)}")
    return thread[0] + size[0] * (thread[1] + size[1] * thread[2])


def _select_device_frame() -> None:
    """Selects the waiting lane's innermost frame of device code (frame 1,
    or past the runtime's frames of a warp function)."""
    frame = gdb.newest_frame().older()
    while frame is not None and not device_frames.is_device(frame) and frame.older() is not None:
        frame = frame.older()
    (frame if frame is not None and device_frames.is_device(frame) else gdb.newest_frame().older()).select()
    gdb.execute("frame")


def focus(argument: str) -> None:
    current, debug, record = _selected_dispatch("gpu focus")
    block, thread = _parse(argument)
    block = block or tuple(int(current["block_idx"][a]) for a in "xyz")
    dispatch = int(current["dispatch_id"])
    flat = _check_thread(current, thread, "gpu focus")
    _outside(block, record, dispatch, "gpu focus")
    resident = _find(debug, dispatch, block)
    if resident is None:
        raise _absent_block(debug, record, dispatch, block, "gpu focus")
    target = resident.lanes[flat]
    gdb_thread = resident.thread
    if gdb_thread is None:
        raise gdb.GdbError(f"gpu focus: no gdb thread for worker {int(resident.executor['os_thread'])}")
    gdb_thread.switch()
    device_frames.UNWINDER.forget()
    where = f"block {_text(block)} thread {_text(thread)}"
    state = int(target["state"])
    if int(resident.executor["lane"]) == int(target.address):
        runtime_state.focus_waiting_lane(gdb_thread, None)
        runtime_state.set_lane_variables(target)
        print(f"[gpusym: {where} of dispatch {dispatch}, on thread {gdb_thread.num}]")
        gdb.execute("frame 0")
    elif state in info_lanes.WAITS:
        runtime_state.focus_waiting_lane(gdb_thread, target)
        runtime_state.set_lane_variables(target)
        print(
            f"[gpusym: {where} of dispatch {dispatch} {info_lanes.WAITS[state]} on thread {gdb_thread.num}; "
            "its frames are read from its saved context until the program goes on]"
        )
        _select_device_frame()
    else:
        runtime_state.focus_waiting_lane(gdb_thread, None)
        run_to = f"gpu run-to block {','.join(map(str, block))} thread {','.join(map(str, thread))}"
        hint = f" ({run_to})" if state in info_lanes.NOT_STARTED else ""
        print(
            f"[gpusym: {where} {LANE_STATES.get(state, 'is in an unknown state')}{hint}; "
            f"thread {gdb_thread.num} runs that block, now at:]"
        )
        gdb.execute("frame 0")
    runtime_state.shown(gdb_thread, runtime_state.lane())


def run_to(argument: str) -> None:
    """Continue until the lane `argument` names runs, in the selected dispatch."""
    current, debug, record = _selected_dispatch("gpu run-to")
    block, thread = _parse(argument, "gpu run-to")
    block = block or tuple(int(current["block_idx"][a]) for a in "xyz")
    dispatch = int(current["dispatch_id"])
    flat = _check_thread(current, thread, "gpu run-to")
    _outside(block, record, dispatch, "gpu run-to")
    resident = _find(debug, dispatch, block)
    state = int(resident.lanes[flat]["state"]) if resident is not None else None
    if state is not None and state not in info_lanes.NOT_STARTED:
        raise gdb.GdbError(
            f"gpu run-to: block {_text(block)} thread {_text(thread)} has started already "
            f"({LANE_STATES.get(state)}): gpu focus selects it"
        )
    if resident is None and _not_on_a_worker(debug, record, block) == "finished":
        raise gdb.GdbError(f"gpu run-to: block {_text(block)} of dispatch {dispatch} has finished")
    name = debug["kernels"][int(record["kernel_index"])]["device_name"].string()
    condition = f'$_gpusym_dispatch() == {dispatch} && $_gpusym_lane_is("block {_text(block)} thread {_text(thread)}")'
    breakpoint = break_at(name, condition)  # after the prologue: arguments readable
    lane_watch.gate(breakpoint, block, thread)
    print(f"[gpusym: running to block {_text(block)} thread {_text(thread)} of dispatch {dispatch}]")
    target = breakpoint.number
    before = _hit_counts()
    stops: list[str | None] = []

    def note(event: gdb.StopEvent) -> None:
        stops.append(_stop_cause(event, target, before))

    gdb.events.stop.connect(note)
    try:
        gdb.execute("continue")
    finally:
        gdb.events.stop.disconnect(note)
        if breakpoint.is_valid():
            breakpoint.delete()
    if stops and stops[-1] is not None:
        current = runtime_state.lane()
        where = f"at {runtime_state.lane_place(current)}" if current is not None else "on the host"
        print(f"[gpusym: gpu run-to was interrupted by {stops[-1]} {where}; the run-to is cancelled]")


def _hit_counts() -> dict[int, int]:
    return {b.number: b.hit_count for b in gdb.breakpoints() if b.is_valid()}


def _stop_cause(event: gdb.StopEvent, target: int, before: dict[int, int]) -> str | None:
    """What stopped a run-to short of its lane (another breakpoint, a
    signal), or None at its own breakpoint.  gdb's event lists every
    breakpoint at the stop's address, its condition true or not: those
    that stopped are those whose hit counts went up."""
    if isinstance(event, gdb.BreakpointEvent):
        hit = [n for n, count in _hit_counts().items() if count > before.get(n, 0)]
        if target in hit or not hit:
            return None
        return f"breakpoint {', '.join(map(str, hit))}"
    if isinstance(event, gdb.SignalEvent):
        return f"signal {event.stop_signal}"
    return None


class GpuFocus(gdb.Command):
    """Switch to a simulated GPU thread of the current dispatch (gpusym):
    gpu focus [block X,Y,Z] [thread X,Y,Z]

    The block defaults to the current one, the thread to (0,0,0).  When that GPU
    thread is running, gdb switches to the CPU thread running it.  When it waits
    at a barrier, its frames are read from its saved context: bt, frame, up,
    info locals and print show that lane until the program goes on (frame 0
    marks the switch).  A lane that has not started or has finished is said so
    (gpu run-to runs to one not started).  $_kernel, $_dispatch, $_block,
    $_thread and threadIdx, blockIdx follow the focus.  info lanes lists the
    lanes."""

    def __init__(self) -> None:
        super().__init__("gpu focus", gdb.COMMAND_RUNNING)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("gpu focus"):
            focus(argument)


class GpuRunTo(gdb.Command):
    """Continue until a simulated GPU thread of the current dispatch starts (gpusym):
    gpu run-to [block X,Y,Z] [thread X,Y,Z]

    The block defaults to the current one, the thread to (0,0,0).  gdb stops
    at the kernel's first line in that lane, as a temporary kernel breakpoint
    with that lane filter would (only that block traps).  A lane that has
    started already is selected with gpu focus instead."""

    def __init__(self) -> None:
        super().__init__("gpu run-to", gdb.COMMAND_RUNNING)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("gpu run-to"):
            run_to(argument)
