"""gdb never wedges after a kernel fault: on a terminal, as a person types
it, the faulting program runs 20 times, each time stopped at the fault, then
continued to its end or killed there, and run again.  Each command gets its
prompt back within a bound; no command fails on a thread that is gone, and
no thread outlives its process in ``info threads``.

tests/programs/fault.hip faults in block 1 thread 17, on whichever worker
thread runs block 1: continuing a worker created before another one ends the
process while gdb still resumes the later one."""

from __future__ import annotations

import re

import pytest
from gdb_terminal import GdbTerminal

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

CYCLES = 20
#: Seconds a command may take: a wedged gdb fails the test at once.
STEP_TIMEOUT = 30
#: Every third cycle kills the program at the fault instead of continuing.
KILLED_EVERY = 3
EXPLANATION = re.compile(
    r"^\[gpusym: invalid write at 0x[0-9a-f]+: 0 bytes past the end of a 256-byte allocation "
    r"at 0x[0-9a-f]+ \(hipMalloc\)\]$",
    re.M,
)
RUNTIME_REPORT = re.compile(
    r"^gpusym: kernel 'void fault::poke<float>\(float\*, long\)' \(dispatch 1\) "
    r"block \(1,0,0\) thread \(17,0,0\): invalid write at ",
    re.M,
)
WEDGES = ("Couldn't get registers", "No unwaited-for children", "Traceback", "Python Exception", "(running)")


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("fault.hip")


def fault_cycle(session: GdbTerminal, kill: bool, lane_breakpoint: bool) -> None:
    """One run to the fault, then to the program's end."""
    transcript = []

    def command(line: str) -> str:
        transcript.append(f"(gdb) {line}\n{session.command(line, timeout=STEP_TIMEOUT)}")
        assert not [wedge for wedge in WEDGES if wedge in transcript[-1]], "".join(transcript)
        return transcript[-1]

    answer = command("run")
    if lane_breakpoint:
        assert "[gpusym: block (1,0,0) thread (1,0,0) of dispatch 1, wavefront 0]" in answer, answer
        answer = command("continue")
    assert "received signal SIGSEGV" in answer and EXPLANATION.search(answer), answer
    if kill:
        answer = command("kill")
        assert re.search(r"^\[Inferior 1 \(process \d+\) killed\]$", answer, re.M), answer
    else:
        answer = command("continue")  # the runtime reports it and faults again, with the default action
        assert RUNTIME_REPORT.search(answer) and EXPLANATION.search(answer), answer
        answer = command("continue")
        assert "Program terminated with signal SIGSEGV, Segmentation fault." in answer, answer
    assert command("info threads").endswith("\nNo threads.\n"), "".join(transcript)


@pytest.mark.parametrize("lane_breakpoint", [False, True], ids=["fault", "lane-breakpoint"])
def test_twenty_faults_continued_or_killed_then_run_again(program, lane_breakpoint):
    with GdbTerminal(program, "past-end") as session:
        if lane_breakpoint:  # stops block 1 before its thread 17 faults
            session.command("kbreak fault::poke<float> -block 1 -thread 1")
        for number in range(CYCLES):
            fault_cycle(session, number % KILLED_EVERY == KILLED_EVERY - 1, lane_breakpoint)
