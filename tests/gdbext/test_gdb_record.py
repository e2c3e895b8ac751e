"""gdb's process record on one lane (gdbext/lanes/lane_record.py): ``record
full`` then ``next`` over a barrier and a warp function records the lane's
thread alone, without the hang of gdb's own; a watchpoint set while
recording runs backwards to another lane's write; reverse stepping goes
back over the lane's waits at barriers and shuffles, in the lane's own
code; what record full cannot follow is refused in one line."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb
from gdb_terminal import GdbTerminal

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: record_lane.hip: lane 3 of block 0, then recording.
STOP = ("kbreak record_lane -block 0 -thread 3", "run", "record full")
#: From line 15 to line 22: over two barriers (lines 18, 20).
TO_SHUFFLE = ("next",) * 7
LANE = "[gpusym: block (0,0,0) thread (3,0,0) of dispatch 1, wavefront 0]"


@pytest.fixture(scope="module", params=["-O0", "-O2"])
def program(request, build_program):
    return build_program("record_lane.hip", flags=("-g", request.param), output=f"record_lane{request.param}")


@pytest.fixture(scope="module")
def program_o0(build_program):
    return build_program("record_lane.hip", flags=("-g", "-O0"), output="record_lane-O0")


def _lines(output: str) -> list[int]:
    """The line numbers of gdb's source lines, in order."""
    return [int(number) for number in re.findall(r"^(?:0x[0-9a-f]+\s+)?(\d+)\t", output, re.MULTILINE)]


def test_next_over_barriers_and_a_shuffle_while_recording(program):
    steps = ("next",) * (8 if program.name.endswith("-O0") else 14)  # -O2 goes back to line 15 between
    output = gdb(program, *STOP, *steps, "info record", "show scheduler-locking", timeout=60)
    assert {18, 19, 20, 21, 22, 23} <= set(_lines(output)), output
    assert output.count(LANE) >= 8, output  # every stop in the lane
    count = int(re.search(r"Log contains (\d+) instructions", output).group(1))
    assert count > 1000, output  # the other lanes of the block, recorded
    assert '"replay"' in output, output  # the user's setting is back after each command


def test_watch_while_recording_runs_back_to_another_lanes_write(program_o0):
    output = gdb(
        program_o0, *STOP, *TO_SHUFFLE, "watch -l tile[5]", "reverse-continue", "print t", "reverse-continue",
        "print t", timeout=60,
    )  # fmt: skip
    hits = re.findall(r"Old value = (\d+)\nNew value = (\d+)\n.*\n.*\n\[gpusym: (block \S+ thread \S+) ", output)
    assert hits == [("110", "10", "block (0,0,0) thread (7,0,0)"), ("10", "0", "block (0,0,0) thread (5,0,0)")], output
    assert "$1 = 7" in output and "$2 = 5" in output, output


def test_reverse_continue_to_a_line_of_the_lane_then_reverse_step_and_finish(program_o0):
    output = gdb(
        program_o0, *STOP, *TO_SHUFFLE, "delete", 'break 17 if $_gpusym_lane_is("thread (3,0,0)")',
        "reverse-continue", "print t", "reverse-step", "reverse-step", "bt 1", "reverse-finish", "print x",
        "next", "next", "print x", timeout=60,
    )  # fmt: skip
    assert "Breakpoint 2, record_lane" in output and "$1 = 3" in output, output
    assert "in twice  [device gpusym, block (0,0,0) thread (3,0,0)] (v=3)" in output, output
    assert "Write memory" not in output, output  # nothing written into the program while replaying
    assert "$3 = 6" in output, output  # forwards again from the log: x = twice(3)


def test_reverse_next_goes_back_over_a_shuffle_and_barriers_in_the_lane(program):
    optimised = not program.name.endswith("-O0")
    forwards = ("next",) * (13 if optimised else 8)  # to line 23
    backwards = ("reverse-next",) * (7 if optimised else 4)  # to line 18, the first barrier
    output = gdb(program, *STOP, *forwards, *backwards, "print t", "print tile[3]", "print tile[4]", timeout=90)
    back = output[output.index("23\t") :]
    went_back = "[gpusym: reverse-next goes back over the wait of block (0,0,0) thread (3,0,0) at a barrier or a warp"
    assert back.count(went_back) == 3, output  # the shuffle, the second barrier, the first
    assert "went back past" not in output, output
    assert _lines(back)[-1] == 18 and {22, 21, 20} <= set(_lines(back)), output
    # Back in time: lane 3 wrote its element before the barrier, lane 4 had not run yet.
    assert re.search(r"\$\d+ = 3\n\$\d+ = 6\n\$\d+ = 0\n", output), output
    lanes = re.findall(r"^\[gpusym: (block \S+ thread \S+) of dispatch", back, re.MULTILINE)
    assert set(lanes) == {"block (0,0,0) thread (3,0,0)"}, output


def test_what_record_cannot_follow_is_refused_in_one_line(program_o0):
    output = gdb(
        program_o0, *STOP, "set record full insn-number-max 3000", "next", "next", "next", "next", "continue",
        "thread 1", "next", timeout=60,
    )  # fmt: skip
    assert "[gpusym: record full's log is nearly full (" in output, output
    assert "record full cannot follow 'continue' from block (0,0,0) thread (" in output, output
    assert "record full cannot follow thread 1 here: it runs no lane" in output, output
    assert "Do you want to auto delete" not in output, output


def test_reverse_next_goes_back_over_a_shuffle_on_a_terminal(program_o0):
    """Typed at gdb's prompt, a step's hook after it runs before its stop:
    going back on then waits for the prompt."""
    with GdbTerminal(program_o0) as session:
        for line in (*STOP, *("next",) * 8):
            session.command(line)
        back = session.command("reverse-next")
        assert "[gpusym: reverse-next goes back over the wait of block (0,0,0) thread (3,0,0)" in back, back
        assert _lines(back)[-1] == 22 and back.rstrip().endswith(LANE), session.transcript


def test_a_hardware_watchpoint_set_before_recording_is_named_as_stopping_only_forwards(program_o0):
    output = gdb(program_o0, *STOP[:2], "watch -l tile[5]", "record", "record stop", "watch -l tile[6]", "record full",
                 "watch -l tile[7]", "info watchpoints", timeout=60)  # fmt: skip
    named = re.findall(
        r"\[gpusym: hardware (watchpoints? [\d, ]+) will stop only while the program runs forwards", output
    )
    assert named == ["watchpoint 2", "watchpoints 2, 3"], output
    assert re.search(r"^4\s+watchpoint\s", output, re.MULTILINE), output  # made while recording: a software one
