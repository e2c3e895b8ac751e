"""Warp functions on the simulated device: every shuffle, vote and
reduction checked lane by lane against HIP's semantics computed on the host
(tests/programs/warp_functions.hip), in full and partial wavefronts,
uniform and divergent (a shuffle inside a branch, an early return), after a
barrier, at -O0 and -O2, with one worker or several."""

from __future__ import annotations

import re

import pytest
from conftest import describe, run
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

UNIFORM = (
    "shfl from lane 5",
    "shfl from the next lane, around",
    "shfl_up",
    "shfl_down",
    "shfl_xor",
    "shfl within 16 lanes",
    "ballot",
    "any",
    "all",
    "activemask",
    "a shfl_down reduction",
    "__reduce_add_sync",
    "shfl of a double",
    "shfl_xor of a long long",
    "shfl after __syncthreads",
    "__lane_id",
)
DIVERGENT = (
    "shfl_down in a branch of 16 lanes",
    "activemask in that branch",
    "ballot after it",
    "shfl from a lane that returned",
    "activemask after the return",
    "__syncwarp, then any",
)


@pytest.fixture(scope="module", params=[("-g",), ("-O2",)], ids=["O0", "O2"])
def program(build_program, request):
    return build_program("warp_functions.hip", flags=request.param)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_every_warp_function_gives_each_lane_its_result(program, workers):
    result = run([program], env={"GPUSYM_WORKERS": workers})
    wrong = {
        (kind, int(case)): int(count)
        for kind, case, count in re.findall(r"^warp_functions: (\w+) case (\d+): (\d+) wrong$", result.stdout, re.M)
    }
    names = {"uniform": UNIFORM, "divergent": DIVERGENT + ("unused",) * (16 - len(DIVERGENT))}
    failing = {f"{kind}: {names[kind][case]}": count for (kind, case), count in wrong.items() if count}
    assert len(wrong) == 32 and not failing, (failing, describe(result))
    assert result.returncode == 0 and result.stdout.endswith("warp_functions: 0 wrong\n"), describe(result)


def test_launch_blocking_runs_them_on_the_launching_thread(program):
    result = run([program], env={"GPUSYM_LAUNCH_BLOCKING": "1"})
    assert result.returncode == 0 and result.stdout.endswith("warp_functions: 0 wrong\n"), describe(result)


def test_a_breakpoint_after_a_shuffle_stops_in_each_lane_with_its_own_values(build_program):
    output = gdb(
        build_program("warp_functions.hip"),
        "set breakpoint pending on",
        "break warp_functions.hip:19 if blockIdx.x == 0 && (threadIdx.x == 3 || threadIdx.x == 70)",
        "run",
        "print threadIdx.x",
        "print o[0]",
        "continue",
        "print threadIdx.x",
        "print o[0]",
    )
    values = re.findall(r"^\$\d+ = (.*)$", output, re.M)
    # __shfl(v, 5) reads lane 5 of each lane's own wavefront: thread 5, and thread 69.
    assert sorted(zip(values[0::2], values[1::2])) == [("3", "15"), ("70", "207")], output
    stops = re.findall(
        r"^\[gpusym: block \(0,0,0\) thread \((\d+),0,0\) of dispatch 1, wavefront (\d)\]$", output, re.M
    )
    assert sorted(stops) == [("3", "0"), ("70", "1")], output  # each stop names the lane's wavefront
