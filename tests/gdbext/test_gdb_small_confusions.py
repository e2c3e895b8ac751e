"""What gdb says where a user was left guessing: ``info lanes`` after the
program has gone, a ``gpu run-to`` cut short by another breakpoint."""

from __future__ import annotations

import os
import re
import time

import pytest
from gdb_batch import gdb
from gdb_terminal import GdbTerminal

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: lane_focus.hip: a lane of block 1 stopped at the kernel's first line, with one worker.
STOP = ("set environment GPUSYM_WORKERS 1", "kbreak rotate -block 1 -thread 2", "run")


@pytest.fixture(scope="module")
def lane_focus(build_program):
    return build_program("lane_focus.hip")


def test_info_lanes_after_kill_says_no_program_is_being_run(lane_focus):
    output = gdb(lane_focus, *STOP, "kill", "info lanes")
    assert "info lanes: the program is not being run" in output, output
    assert "not running on the gpusym runtime" not in output, output


def test_run_to_interrupted_by_another_breakpoint_says_so(lane_focus):
    output = gdb(lane_focus, *STOP, "kbreak rotate -block 2", "gpu run-to block 3 thread 5")
    assert "[gpusym: running to block (3,0,0) thread (5,0,0) of dispatch 1]" in output, output
    assert (
        "[gpusym: gpu run-to was interrupted by breakpoint 2 at block (2,0,0) thread (0,0,0); "
        "the run-to is cancelled]" in output
    ), output


def test_run_to_reaching_its_lane_says_nothing_more(lane_focus):
    output = gdb(lane_focus, *STOP, "gpu run-to block 3 thread 5")
    assert "[gpusym: block (3,0,0) thread (5,0,0) of dispatch 1, wavefront 0]" in output, output
    assert "interrupted" not in output, output


def test_memcheck_backtrace_names_the_check_frame_without_its_arguments(build_program):
    """The runtime's check keeps its caller's registers: gdb cannot read its
    arguments, so the frame says whose access it checks instead."""
    program = build_program("memcheck.hip", flags=("-g",))
    output = gdb(program, "set gpusym check memcheck", "run past-end", "bt")
    check = re.search(r"^#(\d+)\s+0x[0-9a-f]+ in __gpusym_check_access  \[(.*?)\] \(\)", output, re.M)
    assert check, output
    caller = int(check.group(1)) + 1
    assert (
        check.group(2) == f"gpusym's memcheck/initcheck of the access in frame #{caller}; its arguments are not shown"
    )
    assert re.search(rf"^#{caller}\s+0x[0-9a-f]+ in scale  \[device gpusym, .*\] \(data=0x", output, re.M), output
    assert "pointer=" not in output, output


def test_ctrl_c_while_a_kernel_runs_names_the_threads_of_its_lanes(build_program):
    """Ctrl-C stops the program on the thread that gets SIGINT (the host's
    main thread): one line says where the dispatch's lanes run."""
    program = build_program("spin.hip", flags=("-g",))
    with GdbTerminal(program) as session:
        session.command("set environment GPUSYM_WORKERS 2")
        os.write(session.fd, b"run\n")
        time.sleep(3)  # the kernel spins by now
        os.write(session.fd, b"\x03")
        stop = session.read_to_prompt()
        assert "received signal SIGINT" in stop, session.transcript
        line = re.search(
            r"\[gpusym: dispatch 1 is running on threads? ([\d, ]+): 'info lanes' lists its lanes, "
            r"'gpu focus' selects one\]",
            stop,
        )
        assert line, session.transcript
        threads = [int(n) for n in line.group(1).split(", ")]
        assert 1 not in threads and len(threads) == 2, session.transcript
        listing = session.command("info lanes")
        assert "Dispatch 1: spin(" in listing, session.transcript
        switched = session.command(f"thread {threads[0]}")
        assert "[gpusym: thread" in switched and "of dispatch 1]" in switched, session.transcript
