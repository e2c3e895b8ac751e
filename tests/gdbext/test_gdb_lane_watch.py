"""Kernel breakpoints filtered to lanes trap only while a matching lane runs
(a matching block, with -block alone; gdbext/lanes/lane_watch.py and the
runtime's lane watches), and never leave a trap behind when they change."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb, stops

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: Counts the evaluations of kbreak's lane condition: one per trap.
COUNT_TRAPS = (
    "python from gdbext.commands.convenience_functions import LaneIs; calls = [0]; wrapped = LaneIs.invoke; "
    "LaneIs.invoke = lambda self, *a: (calls.__setitem__(0, calls[0] + 1), wrapped(self, *a))[1]"
)
LANES_PER_BLOCK = 256
BLOCKS = 256
#: Traps other workers' lanes may add while a watched lane runs and gdb stops.
CONCURRENT = 64


@pytest.fixture(scope="module")
def lane_grid(build_program):
    return build_program("lane_grid.hip")


def _traps(output: str) -> int:
    return int(re.search(r"traps: (\d+)", output).group(1))


def test_a_lane_filter_traps_in_that_lane_only(lane_grid):
    output = gdb(
        lane_grid,
        COUNT_TRAPS,
        "kbreak scale -block 200 -thread 17",
        "run",
        "continue",
        "continue",
        'python print("traps:", calls[0])',
    )
    lanes = re.findall(r"\[gpusym: (.*) of dispatch (\d), wavefront 0\]", output)
    assert lanes == [("block (200,0,0) thread (17,0,0)", "1"), ("block (200,0,0) thread (17,0,0)", "2")], output
    assert "exited normally" in output, output
    # 2 x 65,536 lanes: unfiltered, every one of them traps; gated by block,
    # the 256 lanes of block 200 too.  Gated by lane: the lane, and those
    # other workers run meanwhile.
    assert _traps(output) <= 2 * CONCURRENT, output


def test_a_thread_filter_alone_traps_in_that_thread_of_each_block(lane_grid):
    output = gdb(
        lane_grid,
        COUNT_TRAPS,
        "kbreak scale -thread 17 if blockIdx.x == 200",
        "run",
        "continue",
        "continue",
        'python print("traps:", calls[0])',
    )
    lanes = re.findall(r"\[gpusym: (.*) of dispatch (\d), wavefront 0\]", output)
    assert lanes == [("block (200,0,0) thread (17,0,0)", "1"), ("block (200,0,0) thread (17,0,0)", "2")], output
    assert "exited normally" in output, output
    # Ungated, 2 x 65,536; gated, each block's lane 17, and the lanes other
    # workers run while one traps (about one each).
    assert _traps(output) <= 2 * 4 * BLOCKS, output


def test_a_block_filter_traps_in_that_block_only(lane_grid):
    output = gdb(
        lane_grid,
        COUNT_TRAPS,
        "kbreak scale -block 200 if threadIdx.x == 17",
        "run",
        "continue",
        "continue",
        'python print("traps:", calls[0])',
    )
    lanes = re.findall(r"\[gpusym: (.*) of dispatch (\d), wavefront 0\]", output)
    assert lanes == [("block (200,0,0) thread (17,0,0)", "1"), ("block (200,0,0) thread (17,0,0)", "2")], output
    # Block 200's lanes, and those other workers run while gdb handles a trap
    # (more on a loaded machine): far fewer than the 2 x 65,536 ungated.
    assert _traps(output) <= 2 * (LANES_PER_BLOCK + 8 * CONCURRENT), output


def test_a_shared_location_still_stops_in_every_lane_it_asks_for(lane_grid):
    output = gdb(
        lane_grid,
        "kbreak scale -block 200 -thread 17",
        "set breakpoint pending on",
        'break _Z5scalePffi if $_gpusym_lane_is("block (5,0,0) thread (2,0,0)")',
        "run",
        "continue",
        "continue",
        "continue",
        "continue",
    )
    lanes = re.findall(r"\[gpusym: block \((\d+),0,0\) thread \((\d+),0,0\)", output)
    assert lanes == [("5", "2"), ("200", "17")] * 2, output
    assert len(stops(output)) == 4 and "exited normally" in output, output


@pytest.mark.parametrize("change", ["delete 1", "disable 1", "condition 1 0"])
def test_a_changed_breakpoint_leaves_no_trap_behind(lane_grid, change):
    output = gdb(lane_grid, "kbreak scale -block 200 -thread 17", "run", change, "continue")
    assert len(stops(output)) == 1 and "SIGTRAP" not in output and "exited normally" in output, output


def test_a_new_process_gets_the_watch_again(lane_grid):
    output = gdb(
        lane_grid, COUNT_TRAPS, "kbreak scale -block 9", "run", "kill", "run", 'python print("traps:", calls[0])'
    )
    assert re.findall(r"\[gpusym: (block \(\d+,0,0\)) thread \(0,0,0\)", output) == ["block (9,0,0)"] * 2, output
    assert _traps(output) <= 2 * 4 * LANES_PER_BLOCK, output
