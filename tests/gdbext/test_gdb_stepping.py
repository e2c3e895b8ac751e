"""Stepping stays on the lane: next, step, until and finish begun in a
kernel end in the same lane though a breakpoint stops every lane and two
workers run blocks, step goes over __syncthreads, and stepping off the end
of a kernel says the lane finished instead of landing in the runtime."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: Every lane of every block reaches this breakpoint.
STOP = ("kbreak rotate", "run")


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("lane_focus.hip")


def _lanes(output: str) -> list[str]:
    return re.findall(
        r"^\[gpusym: (block \(\d+,\d+,\d+\) thread \(\d+,\d+,\d+\)) of dispatch 1, wavefront \d+\]$", output, re.M
    )


def _lines(output: str) -> list[int]:
    return [int(line) for line in re.findall(r"^(\d+)\t", output, re.M)]


def test_next_stays_on_the_lane_while_other_lanes_reach_the_breakpoint(program):
    output = gdb(program, *STOP, "next", "next", "next", "info breakpoints")
    assert len(set(_lanes(output))) == 1 and len(_lanes(output)) == 4, output
    assert _lines(output) == [15, 16, 17, 18], output
    assert "hit Breakpoint" in output and output.count("hit Breakpoint") == 1, output
    # The lane guard is gone from the breakpoint once the step is over.
    assert "stepped_lane" not in output and "breakpoint already hit 1 time" in output, output


def test_step_goes_over_syncthreads_and_stays_on_the_lane(program):
    output = gdb(program, *STOP, "until 18", "step", "step", "print t", "print $_thread")
    assert len(set(_lanes(output))) == 1, output
    assert _lines(output) == [15, 18, 9, 10], output
    assert re.search(r"^neighbour \(tile=0x[0-9a-f]+, t=(\d+), n=64\) at \S+lane_focus.hip:9$", output, re.M), output
    assert "fiber_switch" not in output and "__gpusym_barrier" not in output, output
    thread = re.search(r"thread \((\d+),0,0\)", _lanes(output)[0]).group(1)
    assert re.findall(r"^\$\d+ = (.*)$", output, re.M) == [thread, f"{{x = {thread}, y = 0, z = 0}}"], output


def test_finish_and_next_off_the_end_of_a_kernel_say_the_lane_finished(program):
    output = gdb(program, *STOP, "finish", "continue", "until 20", "next", "next", "finish", "info lanes")
    finished = re.findall(
        r"^\[gpusym: (block .*) of dispatch 1 has finished: its kernel returned; continue runs the "
        r"other lanes\]$",
        output,
        re.M,
    )
    lanes = _lanes(output)
    assert len(finished) == 2 and finished[0] == lanes[0] and finished[1] == lanes[-1], output
    assert "call_kernel.S" not in output and "Single stepping until exit" not in output, output
    assert len(lanes) == 3, output  # the stops at the breakpoint and at line 20: a lane that finished is said once
    for command in ("next", "finish"):  # refused, rather than stepping out of the runtime to the program's end
        assert (
            f"{lanes[-1]} of dispatch 1 has finished: its kernel returned, and '{command}' has no line of it to go "
            "to; continue runs the other lanes\n" in output
        ), output
    assert "exited normally" not in output and "Dispatch 1: rotate" in output, output


def test_stepping_with_a_waiting_lane_in_focus_steps_the_running_lane(program):
    output = gdb(
        program,
        "set environment GPUSYM_WORKERS 1",
        "kbreak rotate -block 1 -thread 2",
        "run",
        "gpu focus thread 1",
        "next",
        "print threadIdx.x",
        "bt 1",
    )
    assert re.search(
        r"^\[gpusym: block \(1,0,0\) thread \(1,0,0\) waits at a barrier and cannot be stepped; stepping "
        r"block \(1,0,0\) thread \(2,0,0\), which thread \d+ runs\]$",
        output,
        re.M,
    ), output
    assert _lines(output)[-2:] == [9, 16] and re.findall(r"^\$\d+ = (.*)$", output, re.M) == ["2"], output
    assert re.search(r"^#0\s+rotate .*lane_focus.hip:16$", output, re.M), output


def test_a_rerun_after_stepping_in_a_kernel_re_sets_every_breakpoint_quietly(program):
    # The lane-end breakpoint a step sets in the runtime goes with the step:
    # a new run, before the runtime is loaded, has nothing to re-set.
    output = gdb(program, *STOP, "next", "kill", "run", "info lanes")
    assert "Error in re-setting breakpoint" not in output, output
    assert output.count("hit Breakpoint") == 2, output
