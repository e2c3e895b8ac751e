"""A function called from gdb at a lane runs on that lane alone
(gdbext/lanes/lane_calls.py): cooperative-groups methods and ordinary
device functions return the focused lane's values, no other lane runs (the
other workers stay stopped, and the wave steps in the called code do not
switch lanes), the focus and the thread's name stay on the lane, and a
call that needs other lanes (a warp function, a barrier) or stops inside
is undone with one line.  At -O0 and -O2."""

from __future__ import annotations

import re

import pytest
from conftest import TEST_PROGRAMS
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

SOURCE = TEST_PROGRAMS / "lane_calls.hip"
#: The kernel's line after its barrier, where the tile and the grid group exist.
AFTER_BARRIER = next(
    number for number, line in enumerate(SOURCE.read_text().splitlines(), 1) if "// after the barrier" in line
)
LANE = "block (2,0,0) thread (21,0,0)"
#: `until` steps in the lane, over the wave steps and the barrier before the line.
STOP = ("kbreak lanes -block 2 -thread 21", "run", f"until {AFTER_BARRIER}")
#: What the program prints when every lane's results are right.
RIGHT = "lane_calls: 256 lanes, 0 wrong"
UNDONE = "the call is undone"


@pytest.fixture(scope="module", params=["-O0", "-O2"])
def program(request, build_program):
    return build_program("lane_calls.hip", flags=("-g", request.param), output=f"lane_calls{request.param}")


def _values(output: str) -> list[str]:
    return re.findall(r"^\$\d+ = (.*)$", output, re.M)


def _announced(output: str) -> list[str]:
    """The lanes the stop lines and the selection lines name."""
    return re.findall(r"^\[gpusym: (?:thread \d+ runs )?(block \S+ thread \S+) of dispatch 1", output, re.M)


def _finished_normally(output: str) -> None:
    assert RIGHT in output and "exited normally" in output, output


def test_calls_at_a_lane_run_on_that_lane_alone(program):
    output = gdb(
        program,
        *STOP,
        "break tile_leader",  # every lane goes there next: a lane a call ran would stop
        "print tile.thread_rank()",
        "print tile.size()",
        "print grid.size()",
        "print grid.thread_rank()",
        "print scaled(grid.thread_rank(), 3)",
        "print flat_lane()",
        "print $_thread",
        "info threads",
        "show scheduler-locking",
        "delete",
        "continue",
    )
    # Lane 21 of block 2: rank 5 in its tile of 16, 2 * 64 + 21 in the grid of 4 blocks of 64.
    assert _values(output) == ["5", "16", "256", "149", "454", "149", "{x = 21, y = 0, z = 0}"], output
    assert "function call from GDB" not in output and "function called from GDB" not in output, output
    assert "hit Breakpoint 2" not in output, output
    assert set(_announced(output)) == {LANE}, output
    assert re.search(rf'^\* +\d+ +Thread \S+ \(LWP \d+\) "gpusym-w\d {re.escape(LANE)}"', output, re.M), output
    assert 'Mode for locking scheduler during execution is "replay".' in output, output
    _finished_normally(output)


def test_a_call_that_needs_other_lanes_or_stops_inside_is_undone(program):
    output = gdb(
        program,
        *STOP,
        "break tile_leader",
        "print tile_leader(tile, 4)",  # stops at breakpoint 2, in the lane
        "delete 2",
        "print tile_leader(tile, 4)",  # a warp function
        "print cooperative_groups::thread_block::sync()",  # the block's barrier
        "print tile.thread_rank()",
        "bt 1",
        "delete",
        "continue",
    )
    assert re.search(
        rf'^Thread \d+ "gpusym-w\d {re.escape(LANE)}" hit Breakpoint 2, tile_leader \(tile=\.\.\., value=4\)',
        output,
        re.M,
    ), output
    tile_leader = r"tile_leader\(cooperative_groups::thread_block_tile<16u, void> const&, int\)"
    assert re.search(
        rf"^\[gpusym: {tile_leader} stopped before it returned, and going on with it would run the other "
        rf"lanes: {UNDONE}, {re.escape(LANE)} is where it was\]$",
        output,
        re.M,
    ), output
    for function, needs in (
        (tile_leader, "a warp function, which needs the other lanes of its wavefront"),
        (r"cooperative_groups::thread_block::sync\(\)", "a barrier, which needs the other lanes of its block"),
    ):
        assert re.search(
            rf"^\[gpusym: {function} calls {needs}, and a function called from gdb runs on {re.escape(LANE)} "
            rf"alone: {UNDONE}, the lane is where it was\]$",
            output,
            re.M,
        ), output
    assert output.count(UNDONE) == 3, output
    assert "stopped in another thread" not in output, output
    # The lane is where it was: its frame, its values; the program ends as it would have.
    assert _values(output) == ["5"], output
    assert re.search(
        rf"^#0 +lanes +\[device gpusym, {re.escape(LANE)}\] .*lane_calls.hip:{AFTER_BARRIER}$", output, re.M
    )
    assert set(_announced(output)) == {LANE}, output
    _finished_normally(output)


def test_a_call_with_an_outer_frame_selected_keeps_that_frame(program):
    # After a call gdb finds the frame that was selected again, unwinding
    # through the kernel's frame: the launch stack's unwinder then reads the
    # runtime without the selected frame (gdb 13 failed an assertion or
    # crashed when it did).
    output = gdb(
        program,
        *STOP,
        "step",  # into gather
        "up",
        "print scaled(1, 2)",
        "frame",
        "print $_thread",
        "frame function main",  # a recorded host frame
        "print scaled(3, 2)",
        "frame",
        "delete",
        "continue",
    )
    assert _values(output) == ["9", "{x = 21, y = 0, z = 0}", "13"], output
    kernel = rf"^#1  0x[0-9a-f]+ in lanes \(out=0x[0-9a-f]+\) at \S+lane_calls\.hip:{AFTER_BARRIER}$"
    assert len(re.findall(kernel, output, re.M)) == 2, output  # up, and after the call
    assert len(re.findall(r"^#\d+  0x[0-9a-f]+ in main \(\) at \S+lane_calls\.hip:\d+$", output, re.M)) == 2, output
    assert "internal-error" not in output and "Fatal signal" not in output, output
    assert set(_announced(output)) == {LANE}, output
    _finished_normally(output)


def test_a_call_at_a_lane_waiting_at_the_barrier_runs_as_that_lane(program):
    # Lane 30 waits at the barrier while lane 21, which its thread runs, is
    # past it; its focus selects its own frame, an outer one.
    output = gdb(
        program,
        *STOP,
        "gpu focus thread 30",
        "print flat_lane()",
        "print cooperative_groups::thread_block::sync()",
        "print flat_lane()",
        "frame",
        "print $_thread",
        "info lanes",
        "continue",
    )
    waiting = "block (2,0,0) thread (30,0,0)"
    assert _values(output) == ["158", "158", "{x = 30, y = 0, z = 0}"], output  # 2 * 64 + 30
    # Its frame at the barrier, selected by the focus and again after the calls.
    barrier = r"^#1  0x[0-9a-f]+ in cooperative_groups::thread_block::sync \(\) at \S+hip_cooperative_groups\.h:\d+$"
    assert len(re.findall(barrier, output, re.M)) == 2, output
    assert f"runs on {waiting} alone: {UNDONE}" in output, output
    assert re.search(r"^\*\s+\(2,0,0\)\s+\(30,0,0\)\s+1\s+0\s+at a barrier ", output, re.M), output
    assert "function call from GDB" not in output, output
    _finished_normally(output)
