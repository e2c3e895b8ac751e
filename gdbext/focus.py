"""``gpu focus``: switch to another simulated GPU thread of the dispatch."""

from __future__ import annotations

import gdb

from gdbext import runtime_state
from gdbext.errors import one_line_errors
from gdbext.functions import coordinates
from gdbext.runtime_state import lane

LANE_STATES = {0: "has not started yet", 1: "is running", 2: "is waiting at __syncthreads", 3: "has finished"}


class GpuPrefix(gdb.Command):
    """Commands for simulated GPU threads (gpusym): gpu focus ..."""

    def __init__(self) -> None:
        super().__init__("gpu", gdb.COMMAND_RUNNING, gdb.COMPLETE_NONE, True)


def _parse(argument: str) -> tuple[tuple | None, tuple]:
    words = gdb.string_to_argv(argument)
    block, thread = None, (0, 0, 0)
    while words:
        key = words.pop(0)
        if key not in ("block", "thread") or not words:
            raise gdb.GdbError("usage: gpu focus [block X,Y,Z] [thread X,Y,Z]")
        value = coordinates(words.pop(0), f"gpu focus: {key}")
        if key == "block":
            block = value
        else:
            thread = value
    return block, thread


def _find(debug: gdb.Value, dispatch: int, block: tuple) -> tuple[gdb.Value, gdb.Value] | None:
    """(executor, its lanes) of the worker running `block` of `dispatch`."""
    for index in range(int(debug["executor_count"])):
        executor = debug["executors"][index]
        if int(executor["lane_count"]) == 0:
            continue
        first = executor["lanes"][0]
        here = tuple(int(first["block_idx"][a]) for a in "xyz")
        if int(first["dispatch_id"]) == dispatch and here == block:
            return executor, executor["lanes"]
    return None


def focus(argument: str) -> None:
    current = lane()
    debug = runtime_state.debug_state()
    if current is None or debug is None:
        raise gdb.GdbError("gpu focus: the selected thread runs no simulated GPU thread (stop in a kernel first)")
    block, thread = _parse(argument)
    block = block or tuple(int(current["block_idx"][a]) for a in "xyz")
    dispatch = int(current["dispatch_id"])
    found = _find(debug, dispatch, block)
    if found is None:
        raise gdb.GdbError(f"gpu focus: block ({','.join(map(str, block))}) of dispatch {dispatch} is not on a "
                           "worker now (not started yet, or finished)")  # fmt: skip
    executor, lanes = found
    size = [int(current["block_dim"][a]) for a in "xyz"]
    if any(t >= s for t, s in zip(thread, size)):
        raise gdb.GdbError(f"gpu focus: thread ({','.join(map(str, thread))}) is outside the block "
                           f"({size[0]},{size[1]},{size[2]})")  # fmt: skip
    flat = thread[0] + size[0] * (thread[1] + size[1] * thread[2])
    target = lanes[flat]
    os_thread = int(executor["os_thread"])
    gdb_thread = next((t for t in gdb.selected_inferior().threads() if t.ptid[1] == os_thread), None)
    if gdb_thread is None:
        raise gdb.GdbError(f"gpu focus: no gdb thread for worker {os_thread}")
    gdb_thread.switch()
    where = f"block ({','.join(map(str, block))}) thread ({','.join(map(str, thread))})"
    if int(executor["lane"]) == int(target.address):
        gdb.execute("frame 0", to_string=True)
        runtime_state.set_lane_variables(target)
        print(f"[gpusym: {where} of dispatch {dispatch}, on thread {gdb_thread.num}]")
        gdb.execute("frame 0")
    else:
        state = LANE_STATES.get(int(target["state"]), "is in an unknown state")
        print(f"[gpusym: {where} {state}; thread {gdb_thread.num} runs that block, now at:]")
        gdb.execute("frame 0")


class GpuFocus(gdb.Command):
    """Switch to a simulated GPU thread of the current dispatch (gpusym):
gpu focus [block X,Y,Z] [thread X,Y,Z]

The block defaults to the current one, the thread to (0,0,0).  When that GPU
thread is running, gdb switches to the CPU thread running it; when it waits
at a barrier, has not started or has finished, gpusym says so and shows the
CPU thread running its block.  $_kernel, $_dispatch, $_block and $_thread
follow the focus."""

    def __init__(self) -> None:
        super().__init__("gpu focus", gdb.COMMAND_RUNNING)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("gpu focus"):
            focus(argument)
