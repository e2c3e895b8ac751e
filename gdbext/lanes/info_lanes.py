"""``info lanes``: the simulated GPU threads of a dispatch, as cuda-gdb's
``info cuda threads`` lists a kernel's threads.

The lanes of the blocks on workers now are listed in runs of consecutive
lanes in one state at one place: running (where its worker is in device
code), at a barrier or meeting its wavefront (the call it waits in, from
its saved context), not started, or finished.  The grid's other blocks are
counted: claimed by no worker yet (not started) or run already (finished)."""

from __future__ import annotations

import os
import struct
from dataclasses import dataclass

import gdb

from device.debug_interface import DispatchState, LaneState, Version
from gdbext.commands import cuda_gdb
from gdbext.errors import one_line_errors
from gdbext.frames.device_frames import is_device_address
from gdbext.runtime_view import runtime_state
from gdbext.runtime_view.kernel_symbols import symbol_at

#: Lanes held at a barrier or not started while a wavefront's lanes meet (at
#: a warp function, or at an access to __shared__ memory the compiler made a
#: lockstep step: AT_WAVE_OP and WAVE_OP_DONE) read as at a barrier and not started.
STATES = {
    LaneState.UNSTARTED: "not started",
    LaneState.RUNNING: "running",
    LaneState.AT_BARRIER: "at a barrier",
    LaneState.EXITED: "finished",
    LaneState.AT_WAVE_OP: "meeting its wavefront",
    LaneState.WAVE_OP_DONE: "past its wavefront's meeting",
    LaneState.HELD_AT_BARRIER: "at a barrier",
    LaneState.HELD_UNSTARTED: "not started",
}
AT_BARRIER = (LaneState.AT_BARRIER, LaneState.HELD_AT_BARRIER)
NOT_STARTED = (LaneState.UNSTARTED, LaneState.HELD_UNSTARTED)
#: The states of a lane whose context is saved on its stack (saved_sp).
SUSPENDED = (*AT_BARRIER, LaneState.AT_WAVE_OP, LaneState.WAVE_OP_DONE)
#: What a lane whose context is saved on its stack waits for, by state.
WAITS = {
    LaneState.AT_BARRIER: "waits at a barrier",
    LaneState.HELD_AT_BARRIER: "waits at a barrier",
    LaneState.AT_WAVE_OP: "waits for its wavefront (a warp function or a lockstep __shared__ access)",
    LaneState.WAVE_OP_DONE: "waits for its turn after its wavefront's meeting",
}
RANGES_SHOWN = 6
#: fiber_switch.S: where a lane that waits in __gpusym_wave_meet goes on,
#: with its caller's return address in the word after.
WAVE_RESULT = "gpusym_wave_result"
#: Words of a lane's stack searched, above a context that goes on in the
#: runtime's C code (__gpusym_wave_op), for the return address into device code.
WORDS_SEARCHED = 32
#: Frames of a worker's stack walked for the innermost one in device code.
FRAMES_WALKED = 32
#: The instructions a return address follows: ``call rel32``, ``call *disp32(%rip)``.
CALLS = ((5, b"\xe8"), (6, b"\xff\x15"))


@dataclass(frozen=True)
class Resident:
    """A block on a worker: the worker's record, its gdb thread, its lanes."""

    executor: gdb.Value
    thread: gdb.InferiorThread | None
    block: tuple[int, int, int]
    linear: int
    lanes: gdb.Value
    count: int


def resident_blocks(debug: gdb.Value, dispatch: int) -> list[Resident]:
    """The blocks of `dispatch` on workers now."""
    threads = {t.ptid[1]: t for t in gdb.selected_inferior().threads()}
    found = []
    for index in range(int(debug["executor_count"])):
        executor = debug["executors"][index]
        count = int(executor["lane_count"])
        if not count or not int(executor["lanes"]):
            continue
        first = executor["lanes"][0]
        if int(first["dispatch_id"]) != dispatch:
            continue
        block = tuple(int(first["block_idx"][a]) for a in "xyz")
        grid = [int(first["grid_dim"][a]) for a in "xyz"]
        linear = linear_index(block, grid)
        found.append(
            Resident(executor, threads.get(int(executor["os_thread"])), block, linear, executor["lanes"], count)
        )
    return sorted(found, key=lambda r: r.linear)


class _Contexts:
    """Where lanes with saved contexts wait in device code, for one listing
    (what each address is, read once)."""

    def __init__(self) -> None:
        self.inferior = gdb.selected_inferior()
        self._device: dict[int, bool] = {}
        self._kinds: dict[int, str] = {}

    def words(self, address: int, count: int) -> tuple[int, ...]:
        return struct.unpack(f"<{count}Q", self.inferior.read_memory(address, 8 * count))

    def device(self, address: int) -> bool:
        if address not in self._device:
            self._device[address] = is_device_address(address)
        return self._device[address]

    def kind(self, address: int) -> str:
        """``restore``: gpusym_fiber_switch's code that pops six registers
        and returns; ``result``: gpusym_wave_result; else ``other``."""
        if address not in self._kinds:
            from gdbext.frames.waiting_lane import RESTORE_CODE  # it imports this module

            if self.inferior.read_memory(address, len(RESTORE_CODE)).tobytes() == RESTORE_CODE:
                self._kinds[address] = "restore"
            else:
                self._kinds[address] = "result" if symbol_at(address) == WAVE_RESULT else "other"
        return self._kinds[address]

    def after_call(self, address: int) -> bool:
        """Whether `address` follows a call instruction (a return address)."""
        try:
            code = self.inferior.read_memory(address - 6, 6).tobytes()
        except gdb.MemoryError:
            return False
        return any(code[len(code) - size :].startswith(opcode) for size, opcode in CALLS)

    def resume_address(self, saved_sp: int) -> int | None:
        """The return address in device code where the lane whose context
        is at `saved_sp` waits (fiber_switch.S): at a barrier or a lockstep
        step, the context's own; in __gpusym_wave_meet, the one after
        gpusym_wave_result; after gpusym_fiber_switch's saved registers,
        the first return address into device code above them."""
        resume = self.words(saved_sp + 8, 1)[0]
        if self.device(resume):
            return resume
        sp = saved_sp + 16
        if self.kind(resume) == "restore":
            resume = self.words(sp, 7)[6]
            sp += 56
            if self.device(resume):
                return resume
        if self.kind(resume) == "result":
            resume = self.words(sp, 1)[0]
            return resume if self.device(resume) else None
        for word in self.words(sp, WORDS_SEARCHED):
            if self.device(word) and self.after_call(word):
                return word
        return None


def place(pc: int, call: bool = False) -> str:
    """``function at file:line`` of `pc` (of the call before it, for a
    return address); without line information, ``function from library``,
    as gdb's ``bt`` says it."""
    line = gdb.find_pc_line(pc - 1 if call else pc)
    try:
        block = gdb.block_for_pc(pc - 1 if call else pc)
    except RuntimeError:
        block = None
    while block is not None and block.function is None:
        block = block.superblock
    name = _without_parameters(block.function.name) if block is not None else symbol_at(pc) or "??"
    if line.symtab is not None:
        return f"{name} at {os.path.basename(line.symtab.filename)}:{line.line}"
    library = gdb.solib_name(pc)
    return f"{name} from {os.path.basename(library)}" if library else name


#: What may follow a member function's parameters in its name.
QUALIFIERS = (" const", " volatile", " &&", " &", " noexcept")


def _without_parameters(name: str) -> str:
    """``ns::f<int>`` of ``ns::f<int>(int*, int)`` (and of ``ns::f<int>(int*)
    const``), as ``bt`` names frames."""
    end = len(name)
    while (qualifier := next((q for q in QUALIFIERS if name[:end].endswith(q)), None)) is not None:
        end -= len(qualifier)
    if not name[:end].endswith(")"):
        return name
    depth = 0
    for index in range(end - 1, -1, -1):
        depth += {")": 1, "(": -1}.get(name[index], 0)
        if depth == 0:
            return name[:index]
    return name


def _frame_pc(frame: gdb.Frame) -> int | None:
    """`frame`'s program counter; its frame's own idea of it when gdb cannot
    read the register (``value has been optimized out``)."""
    try:
        return int(frame.read_register("rip"))
    except gdb.error:
        pass
    try:
        return frame.pc()
    except gdb.error:
        return None


@dataclass(frozen=True)
class Running:
    """Where the lane a worker runs is: `where`, its innermost frame in
    device code (or, in none, the worker's innermost frame); `returned`:
    its kernel has returned, and the runtime has yet to mark it exited."""

    where: str
    returned: bool


def _device_place(frame: gdb.Frame) -> str | None:
    """The place of the innermost frame in device code from `frame` out:
    a lane spinning in the runtime (a grid barrier's wait) or in the C
    library it calls is at its call of the runtime."""
    for _ in range(FRAMES_WALKED):
        pc = _frame_pc(frame)
        if pc is not None and is_device_address(pc):
            newer = frame.newer()
            return place(pc, call=newer is not None and newer.type() == gdb.NORMAL_FRAME)
        try:
            frame = frame.older()
        except gdb.error:
            return None
        if frame is None:
            return None
    return None


def running_place(thread: gdb.InferiorThread | None) -> Running | None:
    """Where the lane `thread` runs is, the selection left as it was; None
    when the thread cannot be read.  The walk reads the thread's own frames:
    a waiting lane ``gpu focus`` selected there is set aside meanwhile."""
    if thread is None or not thread.is_valid():
        return None
    selected_thread, selected_frame = gdb.selected_thread(), gdb.selected_frame()
    waiting = runtime_state.focused_waiting_lane(thread)
    try:
        thread.switch()
        newest = gdb.newest_frame()
        pc = _frame_pc(newest)
        if pc is None:
            return None
        if is_device_address(pc):
            return Running(place(pc), False)
        if waiting is not None:
            _set_focus(thread, None)
            newest = gdb.newest_frame()
        where = _device_place(newest)
        if where is not None:
            return Running(where, False)
        return Running(place(pc), runtime_state.kernel_returned(pc))
    finally:
        if waiting is not None and runtime_state.focused_waiting_lane(thread) is None:
            _set_focus(thread, waiting)
        selected_thread.switch()
        selected_frame.select()


def _set_focus(thread: gdb.InferiorThread, waiting: gdb.Value | None) -> None:
    """`thread`'s focus on a waiting lane set or set aside, the frames
    gdb and the launch-stack unwinder know of the thread forgotten."""
    from gdbext.frames.device_frames import UNWINDER

    runtime_state.focus_waiting_lane(thread, waiting)
    UNWINDER.forget()


@dataclass
class Run:
    """Consecutive lanes of a block in one state at one place."""

    first: int
    last: int
    state: str
    where: str
    selected: bool


def _coordinates(flat: int, size: tuple[int, int, int]) -> str:
    return f"({flat % size[0]},{flat // size[0] % size[1]},{flat // size[0] // size[1]})"


def lane_runs(resident: Resident, selected: int, contexts: _Contexts | None = None) -> list[Run]:
    """The lanes of a resident block in runs; `selected`: the address of the
    selected lane (it gets a run of its own)."""
    contexts = contexts or _Contexts()
    stride = resident.lanes.dereference().type.strip_typedefs().sizeof
    records = runtime_state.read_records(resident.lanes, resident.count, ("state", "saved_sp"))
    running: Running | None = None
    places: dict[int, str] = {}  # by return address: the lanes of a block wait at a few calls
    runs: list[Run] = []
    for flat, record in enumerate(records):
        state = record["state"]
        text = STATES.get(state, f"state {state}")
        if state in SUSPENDED:
            try:
                call = contexts.resume_address(record["saved_sp"])
            except gdb.MemoryError:
                call = None
            where = (places.get(call) or places.setdefault(call, place(call, call=True))) if call else "??"
        elif state == LaneState.RUNNING:
            running = running or running_place(resident.thread) or Running("??", False)
            if running.returned:
                text, where = STATES[LaneState.EXITED], ""
            else:
                where = running.where + (f" (thread {resident.thread.num})" if resident.thread is not None else "")
        else:
            where = ""
        is_selected = int(resident.lanes) + flat * stride == selected
        last = runs[-1] if runs else None
        if last and not is_selected and not last.selected and (last.state, last.where) == (text, where):
            last.last = flat
        else:
            runs.append(Run(flat, flat, text, where, is_selected))
    return runs


def linear_index(block: tuple[int, ...], grid: tuple[int, ...]) -> int:
    return block[0] + grid[0] * (block[1] + grid[1] * block[2])


Ranges = list[tuple[int, int]]  # (first, last) linear block indices, inclusive


def _merged(ranges: Ranges) -> Ranges:
    """`ranges` sorted, with touching ones joined."""
    merged: Ranges = []
    for first, last in sorted(ranges):
        if merged and first <= merged[-1][1] + 1:
            merged[-1] = (merged[-1][0], max(last, merged[-1][1]))
        else:
            merged.append((first, last))
    return merged


def _without(span: tuple[int, int], holes: Ranges) -> Ranges:
    """`span` less the ranges `holes` (sorted, disjoint)."""
    first, last = span
    left: Ranges = []
    for hole_first, hole_last in holes:
        if hole_last < first or hole_first > last:
            continue
        if hole_first > first:
            left.append((first, hole_first - 1))
        first = max(first, hole_last + 1)
    if first <= last:
        left.append((first, last))
    return left


def other_blocks(debug: gdb.Value, record: gdb.Value, resident: list[Resident]) -> tuple[Ranges, Ranges] | None:
    """(not started, finished) blocks of the dispatch that are not on a
    worker, as ranges of linear indices (a grid may hold billions of
    blocks); None for a runtime that does not say."""
    if not runtime_state.supports(debug, Version.CLAIMS):
        return None
    total = int(record["grid"]["x"]) * int(record["grid"]["y"]) * int(record["grid"]["z"])
    if int(record["state"]) == DispatchState.COMPLETE:
        return [], [(0, total - 1)]
    claimed = min(int(record["blocks_claimed"]), total)
    # Claimed in a worker's run, not run yet: after the block it runs, up to the run's end.
    waiting = sorted((r.linear + 1, min(int(r.executor["run_end"]), total) - 1) for r in resident)
    waiting = [(a, b) for a, b in waiting if a <= b]
    not_started = _merged(waiting + ([(claimed, total - 1)] if claimed < total else []))
    holes = sorted(waiting + [(r.linear, r.linear) for r in resident])
    finished = _without((0, claimed - 1), holes) if claimed else []
    return not_started, finished


def in_ranges(block: int, ranges: Ranges) -> bool:
    return any(first <= block <= last for first, last in ranges)


def _block_ranges(ranges: Ranges, grid: tuple[int, int, int]) -> str:
    """The first few runs of blocks, each within one row of the grid (so
    that ``(a,y,z)-(b,y,z)`` reads as what it is), and how many more."""
    row = grid[0]
    count = sum(last // row - first // row + 1 for first, last in ranges)
    shown = []
    for first, last in ranges:
        start = first
        while start <= last and len(shown) < RANGES_SHOWN:
            end = min(last, start - start % row + row - 1)
            shown.append(
                _coordinates(start, grid) if start == end else f"{_coordinates(start, grid)}-{_coordinates(end, grid)}"
            )
            start = end + 1
    more = f", and {count - len(shown)} more ranges" if count > len(shown) else ""
    return ", ".join(shown) + more


def _dispatch_of_selection(debug: gdb.Value) -> int:
    current = runtime_state.lane()
    if current is not None:
        return int(current["dispatch_id"])
    running = [r for r in runtime_state.dispatches(debug) if int(r["state"]) == DispatchState.RUNNING]
    if not running:
        raise gdb.GdbError("info lanes: no dispatch is running (stop in a kernel, or name a dispatch: info lanes N)")
    return int(running[-1]["id"])


def info_lanes(argument: str) -> None:
    if not gdb.selected_inferior().pid:
        raise gdb.GdbError("info lanes: the program is not being run")
    debug = runtime_state.debug_state()
    if debug is None:
        if cuda_gdb.running():
            raise gdb.GdbError(
                "info lanes: the program runs on an NVIDIA GPU: cuda-gdb's 'info cuda lanes' shows its lanes"
            )
        raise gdb.GdbError("info lanes: the program is not running on the gpusym runtime")
    text = argument.strip()
    if text and not (text.isascii() and text.isdigit()):
        raise gdb.GdbError(f"info lanes: '{text}' is not a dispatch number; usage: info lanes [DISPATCH]")
    number = int(text) if text else _dispatch_of_selection(debug)
    record = runtime_state.dispatch_record(debug, number)
    if record is None:
        raise gdb.GdbError(f"info lanes: no dispatch {number} (see info dispatches)")
    kernel = runtime_state.kernel_name(debug, int(record["kernel_index"]))
    form = runtime_state.form_phrase(debug, record)
    print(f"Dispatch {number}: {kernel} {runtime_state.record_launch_text(record)}{form}")
    resident = resident_blocks(debug, number)
    wave = runtime_state.record_wave_size(debug, record)
    current = runtime_state.lane()
    selected = int(current.address) if current is not None else 0
    size = tuple(int(record["block"][a]) for a in "xyz")
    grid = tuple(int(record["grid"][a]) for a in "xyz")
    if resident:
        rows = [("", "Block", "Threads", "Lanes", "Wavefronts", "State", "Location")]
        contexts = _Contexts()
        for block in resident:
            for run in lane_runs(block, selected, contexts):
                threads = _coordinates(run.first, size)
                if run.last != run.first:
                    threads += f"-{_coordinates(run.last, size)}"
                first, last = run.first // wave, run.last // wave
                waves = f"{first}" + (f"-{last}" if last != first else "")
                rows.append(
                    (
                        "*" if run.selected else "",
                        _coordinates(block.linear, grid),
                        threads,
                        str(run.last - run.first + 1),
                        waves,
                        run.state,
                        run.where,
                    )
                )
        widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
        for row in rows:
            print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip())
    else:
        print("No block of it is on a worker now.")
    others = other_blocks(debug, record, resident)
    if others is not None:
        for label, ranges in zip(("not started", "finished"), others):
            if ranges:
                count = sum(last - first + 1 for first, last in ranges)
                print(f"Blocks {label}: {count}: {_block_ranges(ranges, grid)}")


#: Workers gdb names by the lane they run, until the program goes on.
_named: list[gdb.InferiorThread] = []


def name_workers(event=None) -> None:
    """At a stop: each worker thread's name says the lane it runs
    (``gpusym-w0 block (1,0,0) thread (4,0,0)``), or the block it runs in
    its kernel's fast form (``gpusym-w0 block (1,0,0) in its fast form``),
    in ``info threads`` and in MI's thread lists alike."""
    if not isinstance(event, gdb.StopEvent) or (debug := runtime_state.debug_state()) is None:
        return
    threads = {t.ptid[1]: t for t in gdb.selected_inferior().threads()}
    try:
        for index in range(int(debug["executor_count"])):
            executor = debug["executors"][index]
            thread = threads.get(int(executor["os_thread"]))
            if thread is None or not int(executor["lane"]):
                continue
            running = executor["lane"].dereference()
            place = (
                f"block {runtime_state.dim3(running['block_idx'])} in its fast form"
                if runtime_state.in_fast_block(executor)
                else runtime_state.lane_place(running)
            )
            thread.name = None  # the name the program gave it
            thread.name = f"{thread.name} {place}"
            _named.append(thread)
    except gdb.error:
        pass  # a runtime mid-update: names stay as they are


def name_running_dispatches(event=None) -> None:
    """At a stop by Ctrl-C (SIGINT) on a thread running no lane: which
    threads run the lanes of each dispatch running, to select one of."""
    if not isinstance(event, gdb.SignalEvent) or event.stop_signal != "SIGINT":
        return
    if runtime_state.lane() is not None or (debug := runtime_state.debug_state()) is None:
        return
    try:
        running = [int(r["id"]) for r in runtime_state.dispatches(debug) if int(r["state"]) == DispatchState.RUNNING]
        for number in running:
            threads = sorted({r.thread.num for r in resident_blocks(debug, number) if r.thread is not None})
            if threads:
                listed = ", ".join(map(str, threads))
                print(
                    f"[gpusym: dispatch {number} is running on thread{'s' if len(threads) > 1 else ''} {listed}: "
                    "'info lanes' lists its lanes, 'gpu focus' selects one]"
                )
    except gdb.error:
        pass  # a runtime mid-update: nothing said


def unname_workers(event=None) -> None:
    """On resume: the lanes the names said move on."""
    for thread in _named:
        if thread.is_valid():
            thread.name = None
    _named.clear()


class InfoLanes(gdb.Command):
    """List the simulated GPU threads (lanes) of a dispatch (gpusym): info lanes [DISPATCH]

    The dispatch defaults to the one the selected thread runs a lane of.  For
    each block on a worker: its lanes in runs of consecutive ones with one
    state (running, at a barrier, not started, finished) at one place, with
    their wavefronts; * marks the selected lane.  Then the grid's blocks that
    have not started and those that have finished.  gpu focus selects a lane."""

    def __init__(self) -> None:
        super().__init__("info lanes", gdb.COMMAND_STATUS)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("info lanes"):
            info_lanes(argument)
