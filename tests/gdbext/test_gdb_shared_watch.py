"""Watchpoints on ``__shared__`` memory (gdbext/lanes/shared_watch.py):
``watch`` on a __shared__ variable watches the copy of the focused lane's
block, as a location watchpoint that stops only in that block, until the
block finishes; it never leaves gdb unable to resume the program."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: block_scan.hip: its blocks, their lanes and wavefronts, and each lane's value.
BLOCK, LANES, WAVE = 3, 256, 64
STOP = ("kbreak block_scan -block 3 -thread 130", "run")
#: block_scan.hip: the line of main's printf, after the kernel.
PRINTF_LINE = 55
#: What gdb says when it evaluates a __shared__ variable where its storage is not.
NO_STORAGE = "has not yet allocated storage for thread-local variables"


def value_at(index: int) -> int:
    return index % 7 + 1


def wave_total(wave: int) -> int:
    """Block 3's sum over the lanes of `wave`: what its last lane stores in wave_prefix[wave]."""
    first = BLOCK * LANES + wave * WAVE
    return sum(value_at(first + lane) for lane in range(WAVE))


def wave_prefix(wave: int) -> int:
    """What lane 0 of block 3 stores in wave_prefix[wave]: the waves before it, summed."""
    return sum(wave_total(before) for before in range(wave))


@pytest.fixture(scope="module", params=["-O0", "-O2"])
def program(request, build_program):
    return build_program("block_scan.hip", flags=("-g", request.param), output=f"block_scan{request.param}")


def _hits(output: str, number: int, expression: str) -> list[tuple[int, int, str]]:
    """(old value, new value, lane) of each stop of watchpoint `number`."""
    pattern = (
        rf"hit Hardware watchpoint {number}: {re.escape(expression)}\n\n"
        r"Old value = (-?\d+)\nNew value = (-?\d+)\n(?:.*\n){1,2}?\[gpusym: (block \S+ thread \S+) of dispatch 1"
    )
    return [(int(old), int(new), lane) for old, new, lane in re.findall(pattern, output)]


def _resumed_cleanly(output: str) -> None:
    assert "exited normally" in output, output
    assert "(running)" not in output and "Command aborted" not in output, output
    assert NO_STORAGE not in output, output


def test_watch_on_shared_memory_stops_where_the_block_writes_it(program):
    output = gdb(
        program,
        *STOP,
        "watch wave_prefix[2]",
        "info breakpoints",
        "continue",
        "continue",
        "print wave_prefix[2]",
        "continue",
        "info breakpoints",
        "continue",
        "info threads",
    )
    assert (
        "[gpusym: wave_prefix is __shared__ memory, one copy per block: watchpoint 3 (-location wave_prefix[2]) "
        "replaces watchpoint 2 and watches the copy of block (3,0,0) of dispatch 1, until that block finishes]"
    ) in output, output
    assert re.search(
        r"^3\s+hw watchpoint\s+keep y\s+-location wave_prefix\[2\]\n\s+stop only if \$_gpusym_dispatch\(\) == 1 "
        r'&& \$_gpusym_lane_is\("block \(3,0,0\)"\)$',
        output,
        re.M,
    ), output
    # The wavefront's last lane stores its total, then lane 0 the prefix,
    # each stop in the lane that wrote, with the value before and after.
    hits = _hits(output, 3, "-location wave_prefix[2]")
    assert [(new, lane) for _, new, lane in hits] == [
        (wave_total(2), "block (3,0,0) thread (191,0,0)"),
        (wave_prefix(2), "block (3,0,0) thread (0,0,0)"),
    ], output
    assert hits[1][0] == wave_total(2), output
    assert f"$1 = {wave_prefix(2)}" in output, output
    # The block's end: the watchpoint goes, and the program runs to its end.
    assert (
        "[gpusym: block (3,0,0) of dispatch 1 has finished: watchpoint 3 (-location wave_prefix[2]) deleted "
        "with its copy of __shared__ memory, which its worker's next block reuses]"
    ) in output, output
    last_table = output.rsplit("Num     Type", 1)[1]
    assert "watchpoint" not in last_table.split("block_scan: ")[0], output
    assert "block_scan: 8 blocks, 0 wrong" in output, output
    _resumed_cleanly(output)


def test_a_location_watch_is_kept_to_its_block_and_an_expression_of_no_place_is_refused(program):
    output = gdb(
        program,
        *STOP,
        "watch wave_prefix[0] + wave_prefix[1]",
        "watch -l wave_prefix[3]",
        "info breakpoints",
        "continue",
        "delete 3",
        "continue",
    )
    refusal = re.search(r"^\[gpusym: watchpoint 2 deleted: (.*)\]$", output, re.M)
    assert refusal and "wave_prefix is __shared__ memory, one copy per block" in refusal.group(1), output
    assert "watch -l" in refusal.group(1) and "'wave_prefix[0] + wave_prefix[1]'" in refusal.group(1), output
    assert (
        "[gpusym: wave_prefix is __shared__ memory, one copy per block: watchpoint 3 watches the copy of "
        "block (3,0,0) of dispatch 1, until that block finishes]"
    ) in output, output
    assert not re.search(r"^2\s+hw watchpoint", output, re.M), output
    hits = _hits(output, 3, "-location wave_prefix[3]")
    assert [(new, lane) for _, new, lane in hits] == [(wave_total(3), "block (3,0,0) thread (255,0,0)")], output
    assert "has finished" not in output, output  # deleted by the user before
    _resumed_cleanly(output)


def test_a_watch_with_no_lane_in_focus_is_refused(build_program):
    program = build_program("block_scan.hip", flags=("-g", "-O0"), output="block_scan-O0")
    output = gdb(
        program,
        "set environment GPUSYM_WORKERS 1",  # the one worker has run every block: its storage is there
        f"break block_scan.hip:{PRINTF_LINE}",
        "run",
        "thread 2",
        "watch block_scan::wave_prefix[2]",
        "thread 1",
        "watch block_scan::wave_prefix[2]",
        "info breakpoints",
        "continue",
        "info threads",
    )
    refusal = re.findall(r"^\[gpusym: watchpoint 2 deleted: (.*)\]$", output, re.M)
    assert refusal == [
        "block_scan::wave_prefix is __shared__ memory, one copy per block, and thread 2 runs no lane: watch it "
        "with a lane of the block in focus (kbreak -block -thread, gpu focus), which makes it a watch -l on that "
        "block's copy until the block finishes"
    ], output
    # On the host thread gdb itself cannot read it, and makes no watchpoint.
    assert NO_STORAGE in output, output
    assert not re.search(r"^\d+\s+(hw |acc |read )?watchpoint", output, re.M), output
    assert "exited normally" in output and "(running)" not in output, output
