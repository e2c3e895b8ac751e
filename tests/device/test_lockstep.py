"""Warp-synchronous code on the simulated device: lanes of a wavefront that
exchange values through __shared__ memory with no barrier and no warp
function (tests/programs/lockstep.hip: the reduction of rocm-examples'
reduction tutorial v5, the classic volatile warp sum in a function of its
own, a wavefront scan, a divergent shift, the 8x8 DCT's transposes through
pointers, directly and through inlined device functions, and four stores a
vectoriser merges into one) get the answers a GPU's lockstep
wavefront gives, at -O0 and -O2; and gdb reads lanes waiting for their
wavefront."""

from __future__ import annotations

import re

import pytest
from conftest import describe, run
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

CASES = (
    "max_reduce",
    "classic_sum",
    "wave_scan",
    "half_shift",
    "row_column",
    "row_column_calls",
    "pair_swap",
    "stride_shift",
    "stride_swap",
    "lane_strides",
    "counted_strides",
    "branch_strides",
    "stride_trips",
)


@pytest.fixture(scope="module", params=[("-g",), ("-O2",)], ids=["O0", "O2"])
def program(build_program, request):
    return build_program("lockstep.hip", flags=request.param)


@pytest.mark.parametrize("workers", ["1", "2"])
def test_warp_synchronous_code_gets_the_lockstep_answer(program, workers):
    result = run([program], env={"GPUSYM_WORKERS": workers})
    wrong = dict(re.findall(r"^lockstep: (\w+): (\d+) wrong$", result.stdout, re.M))
    assert sorted(wrong) == sorted(CASES), describe(result)
    assert all(count == "0" for count in wrong.values()), (wrong, describe(result))
    assert result.returncode == 0, describe(result)


def test_a_lane_waiting_at_a_lockstep_access_can_be_focused(build_program):
    output = gdb(
        build_program("lockstep.hip"),
        "set breakpoint pending on",
        "kbreak wave_scan -block 0 -thread 5",
        "run",
        "break lockstep.hip:54 if blockIdx.x == 0 && threadIdx.x == 5 && offset == 2",
        "continue",
        "info lanes",
        "gpu focus thread 3",
        "print lane",
        "print offset",
        "bt 2",
    )
    # Lane 0 adds nothing and has finished; lanes 2 to 4 wait at the step of
    # line 54, lane 1 (too low to add at offset 2) at the one before line 55's load.
    assert re.search(
        r"\(0,0,0\)\s+\(1,0,0\)\s+1\s+0\s+meeting its wavefront\s+wave_scan at lockstep\.hip:55", output
    ), output
    assert re.search(
        r"\(0,0,0\)\s+\(2,0,0\)-\(4,0,0\)\s+3\s+0\s+meeting its wavefront\s+wave_scan at lockstep\.hip:54", output
    ), output
    assert "thread (3,0,0) of dispatch 3 waits for its wavefront" in output, output
    values = re.findall(r"^\$\d+ = (.*)$", output, re.M)
    assert values == ["3", "2"], output  # lane 3, waiting at the step of offset 2
    assert re.search(r"^#1 .* wave_scan .*block \(0,0,0\) thread \(3,0,0\).* at .*lockstep\.hip:54$", output, re.M), (
        output
    )


def test_a_lane_inside_a_warp_function_can_be_focused(build_program):
    output = gdb(
        build_program("warp_functions.hip"),
        "set breakpoint pending on",
        "break warp_functions.hip:19 if blockIdx.x == 0 && threadIdx.x == 3",
        "run",
        "gpu focus thread 10",
        "print t",
        "print v",
        "gpu focus thread 1",
        "print t",
        "print o[0]",
    )
    # Thread 10 waits for its turn after __shfl(v, 5), in the runtime's warp
    # function: its frame of device code is selected, at line 18.
    assert "thread (10,0,0) of dispatch 1 waits for its turn after its wavefront's meeting" in output, output
    assert re.search(r"^#\d+ .* in uniform .* at .*warp_functions\.hip:18$", output, re.M), output
    # Thread 1 went on, to the next shuffle, and waits there.
    assert "thread (1,0,0) of dispatch 1 waits for its wavefront" in output, output
    assert re.findall(r"^\$\d+ = (.*)$", output, re.M) == ["10", "30", "1", "15"], output


@pytest.mark.parametrize(
    ("flags", "wave"),
    [
        ((), 64),
        (("-mno-wavefrontsize64",), 32),
        (("--offload-arch=gfx1100",), 32),
        (("--offload-arch=gfx1100", "-mwavefrontsize64"), 64),
    ],
)
def test_wavefronts_of_32_lanes_on_request_and_everything_agrees(build_program, flags, wave):
    result = run([build_program("wave_size.hip", flags=flags)])
    assert result.stdout == (
        f"warpSize {wave} __AMDGCN_WAVEFRONT_SIZE {wave} lane of thread 40 {40 % wave} "
        f"first wavefront's sum {sum(range(wave))} ballot lanes {wave} prop {wave} attribute {wave}\n"
    ), describe(result)
    assert result.returncode == 0 and not result.stderr, describe(result)


def test_warp_synchronous_code_written_for_32_lanes(build_program):
    result = run([build_program("lockstep.hip", flags=("-O2", "-mno-wavefrontsize64"))])
    wrong = dict(re.findall(r"^lockstep: (\w+): (\d+) wrong$", result.stdout, re.M))
    assert sorted(wrong) == sorted(CASES) and set(wrong.values()) == {"0"}, describe(result)


def test_a_stop_names_the_wavefront_of_32_lanes(build_program):
    output = gdb(
        build_program("wave_size.hip", flags=("-g", "-mno-wavefrontsize64")),
        "kbreak wave_facts -block 0 -thread 40",
        "run",
        "print warpSize",
        "print $_gpusym_warp_size()",
    )
    assert "[gpusym: block (0,0,0) thread (40,0,0) of dispatch 1, wavefront 1]" in output, output
    assert re.findall(r"^\$\d+ = (.*)$", output, re.M) == ["32", "32"], output


def test_only_warp_synchronous_code_gets_lockstep_steps(tmp_path):
    bundle = tmp_path / "steps.co"
    result = run([".venv/bin/gpusym", "build", "-O2", "--genco", "tests/programs/lockstep_steps.hip", "-o", bundle])
    assert result.returncode == 0, describe(result)
    image = tmp_path / "sim.so"
    unbundle = run(
        [
            "clang-offload-bundler-19",
            "--unbundle",
            "--type=o",
            f"--input={bundle}",
            "--targets=hipv4-x86_64-unknown-linux-gnu-gpusym",
            f"--output={image}",
        ]
    )
    assert unbundle.returncode == 0, describe(unbundle)
    listing = run(["llvm-objdump-19", "-d", "--no-show-raw-insn", image]).stdout
    functions = dict(re.findall(r"^[0-9a-f]+ <(\w+)>:\n(.*?)(?=\n\n|\Z)", listing, re.M | re.S))
    steps = {
        name: body.count("<__gpusym_wave_step")
        for name, body in functions.items()
        if name in ("_Z9block_sumPKfPf", "_Z4spinPil", "_Z8warp_sumPKiPi", "_Z9gems_scanPiii")
    }
    # The sum's loads after its first step each follow a store: one step in
    # the loop, whatever the unrolling, and none in the other three.
    assert steps["_Z9block_sumPKfPf"] == 0 and steps["_Z4spinPil"] == 0, steps
    assert steps["_Z9gems_scanPiii"] == 0, steps
    assert steps["_Z8warp_sumPKiPi"] >= 1, steps
