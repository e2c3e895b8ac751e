"""Every lane reachable in gdb: ``info lanes`` lists a dispatch's lanes
with their states and places, ``gpu focus`` selects a lane waiting at a
barrier (its frames and variables read from its saved context), ``gpu
run-to`` runs to a lane not started yet, worker threads are named by their
lanes, and the convenience variables follow the selected thread."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb
from gdb_terminal import GdbTerminal

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: lane_focus.hip: the line of __syncthreads in neighbour().
BARRIER_LINE = 9
#: A lane of block 1 stopped at the kernel's first line, with one worker:
#: block 0 has finished, lanes 0 and 1 of block 1 wait at the barrier,
#: lanes 3 to 63 and blocks 2 and 3 have not started.
STOP = ("set environment GPUSYM_WORKERS 1", "kbreak rotate -block 1 -thread 2", "run")


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("lane_focus.hip")


def _rows(output: str, block: str) -> list[tuple[str, str, str, str, str]]:
    """(selected mark, threads, lanes, state, place) of `block`'s rows."""
    pattern = rf"^(\*?)\s+\({block}\)\s+(\S+)\s+(\d+)\s+\S+\s+(running|at a barrier|not started|finished)[ \t]*(.*)$"
    return re.findall(pattern, output, re.M)


def test_info_lanes_lists_states_places_and_the_other_blocks(program):
    output = gdb(program, *STOP, "info lanes")
    assert "Dispatch 1: rotate(int*) <<<grid (4,1,1), block (64,1,1), shmem 0, stream 0x0>>>" in output, output
    rows = _rows(output, "1,0,0")
    assert rows[0] == ("", "(0,0,0)-(1,0,0)", "2", "at a barrier", f"neighbour at lane_focus.hip:{BARRIER_LINE}")
    assert rows[1][:4] == ("*", "(2,0,0)", "1", "running") and "rotate at lane_focus.hip:15" in rows[1][4], rows
    assert rows[2] == ("", "(3,0,0)-(63,0,0)", "61", "not started", ""), rows
    assert len(rows) == 3 and not re.search(r"^\*?\s+\([023],0,0\)\s", output, re.M), output
    assert "Blocks not started: 2: (2,0,0)-(3,0,0)\nBlocks finished: 1: (0,0,0)\n" in output, output


def test_focus_on_a_lane_at_a_barrier_reads_its_frames_and_variables(program):
    output = gdb(
        program,
        *STOP,
        "gpu focus thread 1",
        "bt",
        "print threadIdx.x",
        "print $_thread",
        "up",
        "print mine",
        "print t",
        "gpu focus thread 2",
        "print threadIdx.x",
        "bt 1",
    )
    assert re.search(
        r"\[gpusym: block \(1,0,0\) thread \(1,0,0\) of dispatch 1 waits at a barrier on thread \d+;", output
    ), output
    frames = re.findall(r"^#(\d+)\s+(.*)$", output, re.M)
    assert frames[1][1].startswith("[gpusym: block (1,0,0) thread (1,0,0) waits at a barrier; its frames follow]"), (
        frames
    )
    assert re.match(
        r"0x[0-9a-f]+ in neighbour .* \(tile=0x[0-9a-f]+, t=1, n=64\) at \S+lane_focus.hip:9", frames[2][1]
    ), frames
    assert "rotate" in frames[3][1] and "__device_stub__rotate" in frames[4][1], frames
    values = re.findall(r"^\$\d+ = (.*)$", output, re.M)
    assert values[:4] == ["1", "{x = 1, y = 0, z = 0}", "11", "1"], output
    # Focus back on the running lane: its own frame 0 again.
    assert re.search(r"\[gpusym: block \(1,0,0\) thread \(2,0,0\) of dispatch 1, on thread \d+\]", output), output
    assert values[4] == "2" and re.search(r"^#0\s+rotate .*lane_focus.hip:15$", output, re.M), output


def test_focus_says_where_a_lane_is_not(program):
    output = gdb(program, *STOP, "gpu focus thread 9", "gpu focus block 9", "gpu focus thread 64", "gpu focus block 3")
    assert "[gpusym: block (1,0,0) thread (9,0,0) has not started yet (gpu run-to block 1,0,0 thread 9,0,0)" in output
    assert "gpu focus: block (9,0,0) is outside the grid (4,1,1) of dispatch 1" in output
    assert "gpu focus: thread (64,0,0) is outside the block (64,1,1)" in output
    assert "gpu focus: block (3,0,0) of dispatch 1 has not started yet (gpu run-to block 3,0,0 runs to it)" in output


def test_run_to_a_lane_not_started(program):
    output = gdb(
        program,
        *STOP,
        "gpu run-to block 3 thread 5",
        "print threadIdx",
        "print blockIdx.x",
        "info breakpoints",
        "gpu run-to block 3 thread 5",
        "gpu run-to block 0 thread 1",
    )
    assert "[gpusym: running to block (3,0,0) thread (5,0,0) of dispatch 1]" in output, output
    assert "[gpusym: block (3,0,0) thread (5,0,0) of dispatch 1, wavefront 0]" in output, output
    values = re.findall(r"^\$\d+ = (.*)$", output, re.M)
    assert values[:2] == ["{x = 5, y = 0, z = 0}", "3"], output
    assert re.findall(r"^(\d+)\s+breakpoint\s", output, re.M) == ["1"], output  # the temporary one is gone
    assert "gpu run-to: block (3,0,0) thread (5,0,0) has started already (is running): gpu focus selects it" in output
    assert "gpu run-to: block (0,0,0) of dispatch 1 has finished" in output, output


def test_worker_threads_are_named_by_their_lanes(program):
    output = gdb(program, *STOP, "info threads", "continue", "print $_block", "print $_kernel")
    assert re.search(r'^\* \d+\s+Thread .* "gpusym-w\d block \(1,0,0\) thread \(2,0,0\)"\s+rotate', output, re.M), (
        output
    )
    # The process has ended: the variables no longer name a lane.
    assert re.findall(r"^\$\d+ = (.*)$", output, re.M) == ["void", "void"], output


def test_selecting_a_thread_says_its_lane_and_moves_the_variables(program):
    with GdbTerminal(program) as session:
        for command in STOP:
            session.command(command)
        worker = re.search(r"^\* (\d+)\s+Thread", session.command("info threads"), re.M).group(1)
        host = session.command("thread 1")
        assert "[gpusym:" not in host and session.command("print $_block").strip().endswith("= void"), (
            session.transcript
        )
        back = session.command(f"thread {worker}")
        assert re.search(rf"\[gpusym: thread {worker} runs block \(1,0,0\) thread \(2,0,0\) of dispatch 1\]", back), (
            back
        )
        assert session.command("print $_block").strip().endswith("= {x = 1, y = 0, z = 0}"), session.transcript
        # Focus on a waiting lane moves them too; a resume ends the focus.
        session.command("gpu focus thread 1")
        assert session.command("print $_thread").strip().endswith("= {x = 1, y = 0, z = 0}"), session.transcript


def test_gpu_focus_within_the_running_block_and_errors_outside_it(samples):
    output = gdb(
        samples["templates"],
        "kbreak ns::fill<int> -block 2 -thread 5",
        "run",
        "gpu focus thread 9",
        "gpu focus thread 2000",
        "gpu focus block 15,0,0",
    )
    assert re.search(
        r"\[gpusym: block \(2,0,0\) thread \(9,0,0\) has not started yet \(gpu run-to block 2,0,0 "
        r"thread 9,0,0\); thread \d+ runs that block",
        output,
    ), output
    assert "gpu focus: thread (2000,0,0) is outside the block (64,1,1)" in output
    assert re.search(
        r"gpu focus: block \(15,0,0\) of dispatch 2 has (not started yet \(gpu run-to block 15,0,0 runs "
        r"to it\)|finished)",
        output,
    ), output


def test_lane_arguments_gdb_cannot_read_are_one_line_errors(program):
    """$_gpusym_lane_is with the wrong count or kind of arguments, and a
    dispatch number in another script's digits, get one usage line each."""
    output = gdb(
        program,
        *STOP,
        "print $_gpusym_lane_is(5)",
        "print $_gpusym_lane_is(1, 0, 0)",
        "print $_gpusym_lane_is(1, -1, -1, 2, -1, -1)",
        "info lanes ²",
    )
    usage = '$_gpusym_lane_is takes "block (X,Y,Z) thread (X,Y,Z)" or six integers (-1: any)'
    assert f"{usage}, not int\n" in output and f"{usage}, not 3 arguments\n" in output, output
    assert re.search(r"^\$1 = true$", output, re.M), output
    assert "info lanes: '²' is not a dispatch number; usage: info lanes [DISPATCH]" in output, output
    assert "Python Exception" not in output and "internal error" not in output, output
