"""``advance`` begun in a lane ends in that lane, though the lanes its
thread runs while it waits reach the location first; ``until LOCATION``
does too.  In ``bt``, a frame without line information in a library says
it is from that library, never that the library is its source file."""

from __future__ import annotations

import re

import pytest
from conftest import TEST_PROGRAMS
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

SOURCE = TEST_PROGRAMS / "lane_calls.hip"
#: The kernel's line after its barrier.
AFTER_BARRIER = next(
    number for number, line in enumerate(SOURCE.read_text().splitlines(), 1) if "// after the barrier" in line
)
LANE = "block (2,0,0) thread (21,0,0)"
#: At the kernel's first line, before the barrier: the lanes of block 2 before
#: lane 21 wait at the barrier, those after it have not started.
STOP = ("kbreak lanes -block 2 -thread 21", "run")
RIGHT = "lane_calls: 256 lanes, 0 wrong"


@pytest.fixture(scope="module", params=["-O0", "-O2"])
def program(request, build_program):
    return build_program("lane_calls.hip", flags=("-g", request.param), output=f"lane_calls{request.param}")


def _values(output: str) -> list[str]:
    return re.findall(r"^\$\d+ = (.*)$", output, re.M)


def _stopped_lanes(output: str) -> list[str]:
    return re.findall(r"^\[gpusym: (block \S+ thread \S+) of dispatch 1, wavefront \d+\]$", output, re.M)


def test_advance_to_a_function_stays_on_the_lane(program):
    # Every lane of the block calls gather after the barrier, lane 0 first:
    # gdb's breakpoint for advance, which stops in any frame of the stepped
    # lane's thread, stopped lane 0.
    output = gdb(program, *STOP, "advance gather", "print value", "print $_thread", "bt 1", "delete", "continue")
    assert _stopped_lanes(output) == [LANE, LANE], output
    assert re.search(
        r"^gather \(tile=\.\.\., grid=\.\.\., value=(value@entry=)?149\) at \S+lane_calls\.hip:\d+$", output, re.M
    ), output
    assert _values(output) == ["149", "{x = 21, y = 0, z = 0}"], output  # 2 * 64 + 21
    assert re.search(rf"^#0  (0x[0-9a-f]+ in )?gather  \[device gpusym, {re.escape(LANE)}\] ", output, re.M), output
    assert RIGHT in output and "exited normally" in output, output  # the code is as it was


def test_advance_and_until_to_a_line_stay_on_the_lane(program):
    output = gdb(program, *STOP, f"advance {AFTER_BARRIER}", "print $_thread", "kill", "run", f"until {AFTER_BARRIER}")
    assert _stopped_lanes(output) == [LANE] * 4, output
    at_line = rf"^(0x[0-9a-f]+ in )?lanes \(.*\) at \S+lane_calls\.hip:{AFTER_BARRIER}$"
    assert len(re.findall(at_line, output, re.M)) == 2, output
    assert _values(output) == ["{x = 21, y = 0, z = 0}"], output


def test_a_frame_without_line_information_is_from_its_library(program):
    # The first lane to reach the barrier stops in the runtime's barrier,
    # assembly without line information, under its kernel's frames.
    output = gdb(
        program, *STOP, "break __gpusym_barrier", "continue", "echo --bt\\n", "bt", "echo --plain\\n", "bt -no-filters"
    )
    sections = dict(re.findall(r"^--(\S+)\n(.*?)(?=^--|\Z)", output, re.M | re.S))
    plain = re.search(
        r"^#0  0x[0-9a-f]+ in __gpusym_barrier \(\) from (\S+libgpusym_runtime\.so)$", sections["plain"], re.M
    )
    assert plain, sections["plain"]
    library = re.escape(plain.group(1))
    assert re.search(rf"^#0  0x[0-9a-f]+ in __gpusym_barrier  \[from {library}\] \(\)$", sections["bt"], re.M), output
    assert not re.search(r" at \S+\.so\b", sections["bt"]), sections["bt"]
    # The kernel's frames under it keep their notes and source lines.
    kernel = r"^#\d+  (0x[0-9a-f]+ in )?lanes  \[device gpusym, block \(\d+,0,0\) thread \(\d+,0,0\)\] "
    assert re.search(kernel + r".* at \S+lane_calls\.hip:\d+$", sections["bt"], re.M), sections["bt"]


def test_a_frame_without_line_information_in_mi_has_no_file(program):
    output = gdb(
        program,
        *STOP,
        "break __gpusym_barrier",
        "continue",
        'interpreter-exec mi "-enable-frame-filters"',
        'interpreter-exec mi "-stack-list-frames 0 0"',
    )
    frame = re.search(r'\^done,stack=\[frame=\{level="0",addr="0x[0-9a-f]+",func="([^"]*)"([^}]*)\}', output)
    assert frame, output
    assert re.fullmatch(r"__gpusym_barrier  \[from \S+libgpusym_runtime\.so\]", frame.group(1)), output
    assert "file=" not in frame.group(2), output
