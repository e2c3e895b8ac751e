"""``gpusym capture`` and ``gpusym check`` of a CUDA program built by
gpusym-nvcc (tests/programs/cuda/warp_sums.cu, whose last block writes past
the end of its output when run with "fault"): the launch and the crash are
captured with the kernel and lane, and memcheck names them as for HIP."""

from __future__ import annotations

import pytest
from capture_runs import capture, of_kind
from conftest import describe, run_gpusym

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

KERNEL = {"name": "_Z9warp_sumsIfEvPKT_PS0_i", "demangled": "void warp_sums<float>(float const*, float*, int)"}


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("cuda/warp_sums.cu", flags=("-g",))


def test_capture_records_the_launch_and_the_crash_of_a_cuda_kernel(program):
    result, events = capture("--", program, "fault")
    (launch,) = of_kind(events, "launch")
    assert launch["kernel"]["demangled"] == KERNEL["demangled"] and launch["block"] == [64, 1, 1], describe(result)
    (crash,) = of_kind(events, "crash")
    assert crash["signal"] == "SIGSEGV"
    assert crash["lane"]["kernel"] == KERNEL and crash["lane"]["block"] == [3, 0, 0]
    assert crash["fault"]["access"] == "write" and crash["fault"]["offset"] == 4024
    assert crash["fault"]["description"].endswith(
        f"past the end of a 32-byte allocation at {crash['fault']['allocation']['base']:#x} (cudaMalloc)"
    )


def test_memcheck_names_the_cuda_kernel_lane_and_line(program):
    result = run_gpusym("check", "--tool", "memcheck", program, "fault")
    assert result.returncode == 128 + 11, describe(result)
    assert (
        f"gpusym: kernel '{KERNEL['demangled']}' (dispatch 1) block (3,0,0) thread (0,0,0): invalid write of 4 bytes"
        in result.stderr
    ), describe(result)
    assert "allocation at 0x" in result.stderr and "(cudaMalloc), at " in result.stderr, describe(result)
    assert "warp_sums.cu:14 (memcheck)" in result.stderr, describe(result)
    clean = run_gpusym("check", "--tool", "memcheck,racecheck,initcheck,synccheck", program)
    assert clean.returncode == 0 and clean.stdout == "warp_sums: cudaSuccess, 0 wrong\n", describe(clean)
    assert "nothing to report" in clean.stderr, describe(clean)
