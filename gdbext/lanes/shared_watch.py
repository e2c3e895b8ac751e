"""Watchpoints on ``__shared__`` memory watch one block's copy, until that
block finishes.

A ``__shared__`` variable of the simulated device is thread-local storage
of the worker that runs the block (device/include/hip/amd_detail/
host_defines.h): gdb reads the selected thread's copy, so ``print`` shows
the focused lane's block.  A watchpoint on such an expression, though,
would be evaluated again in whatever thread gdb resumes or stops: another
block's copy, or none at all in a thread that has not run device code (gdb
then fails in the middle of resuming the program).  So a ``watch``,
``rwatch`` or ``awatch`` whose expression names a ``__shared__`` variable
(``watch`` or MI's ``-break-watch``) is made, at once, a location
watchpoint (``watch -l``) on the copy of the block of the lane in focus,
and one given ``-l`` already is kept: either is told so in one line.  Its
condition lets it stop only in that dispatch's block.

A worker that finishes a block runs another in the same storage: when the
watched block's last lane returns, gdb stops, as it stops when a watched
local goes out of scope, and the watchpoint is deleted.  With no lane in
focus (a host thread, an idle worker), or on an expression that is not one
place in memory, the watchpoint is deleted, with one line that says why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import gdb

from device.debug_interface import FAT_BINARY_CODE_OBJECT_MARK, MODULE_CODE_OBJECT_MARK, LaneState
from gdbext.commands import cuda_gdb
from gdbext.lanes import lane_watch
from gdbext.runtime_view import runtime_state

WATCHPOINTS = {
    gdb.BP_WATCHPOINT: "watch",
    gdb.BP_HARDWARE_WATCHPOINT: "watch",
    gdb.BP_READ_WATCHPOINT: "rwatch",
    gdb.BP_ACCESS_WATCHPOINT: "awatch",
}
#: How gdb spells a location watchpoint's expression.
LOCATION = "-location "
#: call_kernel.S: where a lane's kernel has returned (its state still running).
LANE_RETURNED = "gpusym_lane_returned"
#: A name in an expression, not a member (after . or ->) nor part of a number or $variable.
_NAME = re.compile(r"(?<![\w$.])(?<!->)\s*((?:::)?[A-Za-z_]\w*(?:\s*::\s*[A-Za-z_]\w*)*)")
_LITERAL = re.compile(r"\"(?:\\.|[^\"\\])*\"|'(?:\\.|[^'\\])*'")
_THREAD_LOCAL = re.compile(r"is a thread-local variable at offset \S+ in\s+the thread-local storage for\s+`([^']*)'")
CODE_OBJECT_MARKS = (FAT_BINARY_CODE_OBJECT_MARK, MODULE_CODE_OBJECT_MARK)
#: Names looked up in one expression at most.
MOST_NAMES = 16


@dataclass
class Scope:
    """The block whose copy a watchpoint watches, and where it ends."""

    dispatch: int
    block: tuple[int, int, int]
    end: BlockEnd | None

    def place(self) -> str:
        return f"block ({self.block[0]},{self.block[1]},{self.block[2]}) of dispatch {self.dispatch}"


#: Watchpoint number -> its block.
_scopes: dict[int, Scope] = {}
#: Block ends whose watchpoint is gone, deleted at the next stop or exit.
_unwanted: list[BlockEnd] = []
#: While a watchpoint is made here: the breakpoints gdb creates meanwhile.
_making: list[gdb.Breakpoint] | None = None


class BlockEnd(gdb.Breakpoint):
    """Stops when the last lane of a watched block returns (the runtime's
    lane watches keep its trap in the code only while that block runs)."""

    def __init__(self, dispatch: int, block: tuple[int, int, int]) -> None:
        super().__init__(f"*{LANE_RETURNED}", gdb.BP_BREAKPOINT, internal=True)
        self.silent = True
        self.dispatch = dispatch
        self.block = block
        self.finished = False
        self.unwanted = False

    def stop(self) -> bool:
        if self.unwanted:
            return False
        try:
            current = runtime_state.lane()
            if current is None or int(current["dispatch_id"]) != self.dispatch:
                return False
            if tuple(int(current["block_idx"][axis]) for axis in "xyz") != self.block:
                return False
            self.finished = _last_lane(current)
        except (gdb.error, gdb.MemoryError):
            return False
        return self.finished


#: Lane states that go on in the block: the lane's return switches to the
#: next lane if it has not started or waits at a barrier, and the other
#: lanes that wait run when their turn comes.
_NEXT_GOES_ON = (LaneState.UNSTARTED, LaneState.AT_BARRIER)
_WAITING = tuple(state for state in LaneState if state not in (LaneState.UNSTARTED, LaneState.EXITED))


def _last_lane(current: gdb.Value) -> bool:
    """Whether the block of `current`, whose kernel has returned, ends with
    it: the next lane in order does not go on after it, and no other lane
    waits (lanes not started past the next one are not the block's in a
    kernel's fast form, where one lane runs the whole block; elsewhere
    they cannot follow a lane that has finished)."""
    size = current.type.sizeof
    count = 1
    for axis in "xyz":
        count *= int(current["block_dim"][axis])
    flat = int(current["flat_thread"])
    lanes = gdb.Value(int(current.address) - flat * size).cast(current.type.pointer())
    if flat + 1 < count and int(lanes[flat + 1]["state"]) in _NEXT_GOES_ON:
        return False  # read first: a lane's return mostly starts the next
    states = runtime_state.read_records(lanes, count, ("state",))
    return not any(record["state"] in _WAITING for position, record in enumerate(states) if position != flat)


def shared_names(expression: str) -> list[str]:
    """The names in `expression` of __shared__ variables of device code
    (thread-local variables of a code object), as gdb resolves them in the
    selected frame."""
    candidates = dict.fromkeys(m.group(1).replace(" ", "") for m in _NAME.finditer(_LITERAL.sub(" ", expression)))
    return [name for name in list(candidates)[:MOST_NAMES] if _shared(name)]


def _shared(name: str) -> bool:
    """Whether gdb says `name` is a thread-local variable of a code object:
    ``info address``, or for FUNCTION::NAME (a function's static, which it
    does not find) ``info scope FUNCTION``."""
    described = _described(f"info address {name}")
    if described is None and "::" in name:
        scope, _, variable = name.rpartition("::")
        text = _described(f"info scope {scope}") or ""
        described = next((line for line in text.splitlines() if line.startswith(f"Symbol {variable} is ")), None)
    match = _THREAD_LOCAL.search(described or "")
    return match is not None and any(mark in match.group(1) for mark in CODE_OBJECT_MARKS)


def _described(command: str) -> str | None:
    try:
        return gdb.execute(command, to_string=True)
    except gdb.error:
        return None


def created(breakpoint: gdb.Breakpoint) -> None:
    """A breakpoint was created: a watchpoint on __shared__ memory is
    scoped to the focused lane's block (made a location watchpoint if it
    is not one), or deleted with one line saying why.  Never raises."""
    if _making is not None:
        _making.append(breakpoint)
        return
    if breakpoint.type not in WATCHPOINTS or not breakpoint.is_valid():
        return
    try:
        _created(breakpoint)
    except (gdb.error, gdb.MemoryError, RuntimeError) as error:
        print(f"[gpusym: watchpoint {breakpoint.number} on __shared__ memory not scoped to a block: {error}]")


def _created(breakpoint: gdb.Breakpoint) -> None:
    if not runtime_state.runtime_loaded() or cuda_gdb.running():
        return
    text = breakpoint.expression or ""
    located = text.startswith(LOCATION)
    expression = text[len(LOCATION) :] if located else text
    names = shared_names(expression)
    if not names:
        return
    what = f"{', '.join(names)} {'is' if len(names) == 1 else 'are'} __shared__ memory, one copy per block"
    current = runtime_state.lane()
    if current is None:
        thread = gdb.selected_thread()
        runner = f"thread {thread.num}" if thread is not None else "the selected thread"
        _refuse(
            breakpoint,
            f"{what}, and {runner} runs no lane: watch it with a lane of the block in focus (kbreak "
            "-block -thread, gpu focus), which makes it a watch -l on that block's copy until the block finishes",
        )
        return
    scope = Scope(int(current["dispatch_id"]), tuple(int(current["block_idx"][axis]) for axis in "xyz"), None)
    if located:
        watch = breakpoint
        said = f"watchpoint {watch.number} watches the copy of {scope.place()}"
    else:
        watch = _location_watch(breakpoint, expression, what)
        if watch is None:
            return
        said = (
            f"watchpoint {watch.number} ({watch.expression}) replaces watchpoint {breakpoint.number} "
            f"and watches the copy of {scope.place()}"
        )
        breakpoint.delete()
    _limit(watch, scope)
    scope.end = _block_end(scope)
    _scopes[watch.number] = scope
    print(f"[gpusym: {what}: {said}, until that block finishes]")


def _refuse(breakpoint: gdb.Breakpoint, why: str) -> None:
    number = breakpoint.number
    breakpoint.delete()
    print(f"[gpusym: watchpoint {number} deleted: {why}]")


def _location_watch(breakpoint: gdb.Breakpoint, expression: str, what: str) -> gdb.Breakpoint | None:
    """A location watchpoint of `breakpoint`'s kind on `expression` where
    the selected lane's block has it; None, `breakpoint` deleted and the
    user told, when gdb cannot make one."""
    global _making
    _making = []
    try:
        gdb.execute(f"{WATCHPOINTS[breakpoint.type]} {LOCATION}{expression}", to_string=True)
        made = [watch for watch in _making if watch.type in WATCHPOINTS and watch.is_valid()]
    except gdb.error as error:
        reason = str(error).rstrip(".")
        _refuse(
            breakpoint,
            f"{what}, and gpusym watches it as a watch -l on the focused block's copy, which "
            f"'{expression}' cannot be ({reason}): watch each place it reads",
        )
        return None
    finally:
        _making = None
    if not made:
        return None
    watch = made[-1]
    watch.condition = breakpoint.condition
    watch.thread = breakpoint.thread
    if breakpoint.task is not None:
        watch.task = breakpoint.task
    watch.ignore_count = breakpoint.ignore_count
    return watch


def _limit(watch: gdb.Breakpoint, scope: Scope) -> None:
    """The watchpoint stops only in the scope's block (another block of the
    worker may write the same storage once the block has finished)."""
    x, y, z = scope.block
    limit = f'$_gpusym_dispatch() == {scope.dispatch} && $_gpusym_lane_is("block ({x},{y},{z})")'
    own = watch.condition
    watch.condition = f"{limit} && ({own})" if own else limit


def _block_end(scope: Scope) -> BlockEnd | None:
    """The breakpoint that stops at the end of the scope's block: one per
    block (two at one place would each make the other trap in every lane)."""
    for other in _scopes.values():
        if other.end is not None and (other.dispatch, other.block) == (scope.dispatch, scope.block):
            return other.end
    try:
        end = BlockEnd(scope.dispatch, scope.block)
    except gdb.error:
        return None  # a runtime without the symbol: the condition still keeps other blocks out
    lane_watch.gate(end, scope.block)
    return end


def _forget(number: int) -> Scope | None:
    """Watchpoint `number` no longer watches its block.  A block end no
    other watchpoint needs is left to _drop_ended: gdb may be iterating
    over its breakpoints while it deletes this one, the next perhaps that
    block end."""
    scope = _scopes.pop(number, None)
    if scope is not None and scope.end is not None and all(other.end is not scope.end for other in _scopes.values()):
        scope.end.unwanted = True
        _unwanted.append(scope.end)
    return scope


def _drop_ended() -> None:
    """Delete the block ends no watchpoint needs any more."""
    while _unwanted:
        end = _unwanted.pop()
        if end.is_valid():
            end.delete()


def deleted(breakpoint: gdb.Breakpoint) -> None:
    """A watchpoint was deleted: its block's end is no longer watched."""
    _forget(breakpoint.number)


def ended(event) -> None:
    """At a stop, where a watched block's last lane returned: its
    watchpoints are deleted, as gdb deletes a watchpoint whose local has
    gone out of scope.  (And at any stop, the block ends no watchpoint
    needs any more.)"""
    finished = [(number, scope) for number, scope in _scopes.items() if scope.end is not None and scope.end.finished]
    by_number = {breakpoint.number: breakpoint for breakpoint in gdb.breakpoints()} if finished else {}
    for number, scope in finished:
        _forget(number)
        watch = by_number.get(number)
        if watch is not None and watch.is_valid():
            what = watch.expression
            watch.delete()
            print(
                f"[gpusym: {scope.place()} has finished: watchpoint {number} ({what}) deleted with its copy "
                "of __shared__ memory, which its worker's next block reuses]"
            )
    _drop_ended()


def exited(event) -> None:
    """The program ended: the watched copies are gone (their addresses
    would mean other memory in the next run)."""
    by_number = {breakpoint.number: breakpoint for breakpoint in gdb.breakpoints()} if _scopes else {}
    for number, scope in list(_scopes.items()):
        _forget(number)
        watch = by_number.get(number)
        if watch is not None and watch.is_valid():
            watch.delete()
            print(f"[gpusym: watchpoint {number} deleted: the program ended before {scope.place()} finished]")
    _drop_ended()
