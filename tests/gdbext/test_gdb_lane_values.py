"""The lane's own values in gdb's expressions (``__lane_id()``, ``$_lane``,
``$_wavefront``, ``$_gpusym_activemask()``), and ``info lanes`` placing
every lane that is in its kernel at its line of device code: lanes meeting
their wavefront at a warp function, a lane spinning in a grid barrier's
wait, a lane whose kernel has just returned, and a worker whose program
counter gdb cannot read.  At -O0 and -O2."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: States of a lane that is in its kernel: each has a place in device code.
IN_KERNEL = ("running", "at a barrier", "meeting its wavefront", "past its wavefront's meeting")
STATE = "|".join(re.escape(state) for state in (*IN_KERNEL, "not started", "finished"))
#: What no lane in its kernel is placed at: the runtime's functions, the C
#: library's, and gdb's "??".
NOT_DEVICE_CODE = re.compile(r"gpusym_run_lanes|__gpusym_|gpusym_wave|libgpusym_runtime|sched_yield|libc|syscall|\?\?")
#: warp_functions.hip: the lines of the kernel uniform.
UNIFORM_LINES = range(14, 38)
#: One worker, stopped in lane 70 of block 1 as it starts: lanes 64 to 69
#: meet their wavefront (the first __shfl), 71 to 99 have not started.
UNIFORM_STOP = ("set environment GPUSYM_WORKERS 1", "kbreak uniform -block 1 -thread 70", "run")


@pytest.fixture(scope="module", params=["-O0", "-O2"])
def warp_functions(request, build_program):
    return build_program("warp_functions.hip", flags=("-g", request.param), output=f"warp_functions{request.param}")


@pytest.fixture(scope="module", params=["-O0", "-O2"])
def cooperative_groups(request, build_program):
    return build_program(
        "cooperative_groups.hip", flags=("-g", request.param), output=f"cooperative_groups{request.param}"
    )


def _values(output: str) -> list[str]:
    return re.findall(r"^\$\d+ = (.*)$", output, re.M)


def _rows(output: str) -> list[tuple[str, str, str, str, str]]:
    """(selected mark, block, threads, state, location) of each row of each
    ``info lanes`` in `output`."""
    pattern = rf"^(\*?)\s+(\(\d+,\d+,\d+\))\s+(\S+)\s+\d+\s+\S+\s+({STATE})[ \t]*(.*)$"
    return re.findall(pattern, output, re.M)


def _check_places(rows: list[tuple[str, str, str, str, str]], output: str) -> None:
    """Every lane in its kernel is at a place in device code; the others have none."""
    assert rows, output
    for _, _, _, state, where in rows:
        if state in IN_KERNEL:
            assert where and not NOT_DEVICE_CODE.search(where), (where, output)
        else:
            assert where == "", (where, output)


def test_the_lane_values_read_in_expressions(warp_functions):
    output = gdb(
        warp_functions,
        *UNIFORM_STOP,
        "print __lane_id()",
        "print $_lane",
        "print $_wavefront",
        "print/x $_gpusym_activemask()",
        "print __activemask()",
        "gpu focus thread 66",  # a lane meeting its wavefront
        "print __lane_id()",
        "print $_lane",
        "print $_wavefront",
        "kbreak divergent -block 0 -thread 1",
        "continue",
        "print $_lane",
        "print $_wavefront",
        "advance 51",  # lanes 40 to 63 have returned early: the program's __activemask() here is 40 lanes
        "print/x $_gpusym_activemask()",
        "continue",  # to the program's end
        "print $_lane",
        "print $_wavefront",
        "print __lane_id()",
    )
    values = _values(output)
    # Lane 70 of block 1 is lane 6 of wavefront 1, whose 36 lanes have not exited.
    assert values[:4] == ["6", "6", "1", "0xfffffffff"], output
    assert (
        'No symbol "__activemask" in current context (what it returns depends on the branch each lane of the '
        "wavefront takes, which a stop cannot know; $_gpusym_activemask() is the lanes of the wavefront that "
        "have not exited)" in output
    ), output
    assert values[4:7] == ["2", "2", "1"], output  # the focused lane 66
    assert values[7:9] == ["1", "0"], output  # lane 1 of block 0
    assert values[9] == "0xffffffffff", output
    assert values[10:12] == ["void", "void"], output
    assert 'No symbol "__lane_id" in current context (a built-in of device code: select a kernel\'s frame)' in output


def test_lanes_meeting_their_wavefront_are_at_their_warp_function(warp_functions):
    output = gdb(warp_functions, *UNIFORM_STOP, "info lanes")
    rows = _rows(output)
    _check_places(rows, output)
    meeting = [row for row in rows if row[3] == "meeting its wavefront"]
    assert [row[2] for row in meeting] == ["(64,0,0)-(69,0,0)"], output
    place = re.fullmatch(r"uniform at warp_functions\.hip:(\d+)", meeting[0][4])
    assert place and int(place.group(1)) in UNIFORM_LINES, output


def test_a_lane_whose_kernel_returned_has_finished(warp_functions):
    output = gdb(warp_functions, *UNIFORM_STOP, "finish", "info lanes", "print/x $_gpusym_activemask()")
    assert "[gpusym: block (1,0,0) thread (70,0,0) of dispatch 1 has finished" in output, output
    rows = _rows(output)
    _check_places(rows, output)
    assert [row for row in rows if row[0] == "*"] == [("*", "(1,0,0)", "(70,0,0)", "finished", "")], output
    # Lanes 64 to 70 have exited: the wavefront's other 29 are left.
    assert _values(output) == ["0xfffffff80"], output


def test_lanes_at_a_grid_barrier_are_at_its_call(cooperative_groups):
    """Two workers each run a block of grid_exchange: the first lane 0 to
    reach the grid barrier's wait spins in the C library's sched_yield
    while the other block's lane 0 is held at the wait's entry (only one
    thread runs on), their blocks' other lanes at the barrier before it.
    With a lane waiting at that barrier in focus on the spinning lane's
    thread, the listing reads that thread's own frames and leaves the focus
    as it was."""
    output = gdb(
        cooperative_groups,
        "set environment GPUSYM_WORKERS 2",
        "kbreak grid_exchange",
        "run",
        "info lanes",
        "delete",
        "break __gpusym_grid_arrive",
        "continue",
        "set scheduler-locking on",
        "python first = gdb.selected_thread()",
        "python workers = [t for t in gdb.selected_inferior().threads() if (t.name or '').startswith('gpusym-w')]",
        "python [t for t in workers if t != first][0].switch()",
        "continue",
        "python first.switch()",
        "delete",
        "tbreak sched_yield",
        "continue",
        "gpu focus thread 5",  # a lane of the spinning lane's block, at the barrier
        "info lanes",
        "frame",
    )
    first, spinning = output.split("Temporary breakpoint 3, ")
    # Another worker may be between two lanes in the runtime: only the C
    # library is never a place.
    for _, _, _, state, where in _rows(first):
        assert state not in IN_KERNEL or (where and not re.search(r"sched_yield|libc|syscall", where)), first
    selected = [row for row in _rows(first) if row[0] == "*"]
    assert len(selected) == 1 and selected[0][3] == "running", first
    assert re.fullmatch(r"grid_exchange at cooperative_groups\.hip:\d+ \(thread \d+\)", selected[0][4]), first
    rows = _rows(spinning)
    _check_places(rows, output)
    running = sorted(row[1] for row in rows if row[3] == "running" and row[2] == "(0,0,0)")
    assert running == ["(0,0,0)", "(1,0,0)"], spinning
    assert all(row[3] == "at a barrier" for row in rows if row[2] != "(0,0,0)"), spinning
    assert [row[2:4] for row in rows if row[0] == "*"] == [("(5,0,0)", "at a barrier")], spinning
    for _, _, _, _, where in rows:
        assert re.fullmatch(
            r"cooperative_groups::grid_group::sync at hip_cooperative_groups\.h:\d+( \(thread \d+\))?", where
        ), spinning
    # The focus on lane 5 stays as it was: its frame is still the one selected.
    frame = spinning[spinning.rindex("Dispatch 2: ") :]
    assert re.search(r"^#1\s+0x[0-9a-f]+ in cooperative_groups::grid_group::sync ", frame, re.M), spinning


#: Makes gdb.newest_frame()'s frames fail to read rip, as gdb did at -O2.
UNREADABLE_PC = """
import gdb

class _UnreadablePc:
    def __init__(self, frame):
        self._frame = frame

    def read_register(self, name):
        if name == "rip":
            raise gdb.error("value has been optimized out")
        return self._frame.read_register(name)

    def __getattr__(self, name):
        return getattr(self._frame, name)

_newest_frame = gdb.newest_frame
gdb.newest_frame = lambda: _UnreadablePc(_newest_frame())
"""


def test_a_worker_whose_pc_cannot_be_read(warp_functions, tmp_path):
    script = tmp_path / "unreadable_pc.py"
    script.write_text(UNREADABLE_PC)
    output = gdb(warp_functions, *UNIFORM_STOP, f"source {script}", "info lanes")
    assert "optimized out" not in output, output
    rows = _rows(output)
    _check_places(rows, output)
    selected = [row for row in rows if row[0] == "*"]
    assert len(selected) == 1 and selected[0][3] == "running", output
    assert re.fullmatch(r"uniform at warp_functions\.hip:\d+ \(thread \d+\)", selected[0][4]), output
