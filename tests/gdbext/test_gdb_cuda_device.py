"""gdb on a CUDA program built by gpusym-nvcc, running on the simulated
device (tests/programs/cuda/warp_sums.cu): kbreak on a template kernel
stops on the lane asked for, the backtrace goes from the kernel through
clang's stub to main, lanes come in 32-lane warps, and the built-in
variables read as CUDA has them."""

from __future__ import annotations

import re

import pytest
from gdb_batch import gdb, stops

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

KERNEL = "void warp_sums<float>(float const*, float*, int)"


@pytest.fixture(scope="module", params=["-G", "-O2"])
def program(request, build_program):
    return build_program("cuda/warp_sums.cu", flags=("-g", request.param), output=f"warp_sums{request.param}")


def test_kbreak_on_a_cuda_template_kernel_stops_on_the_lane_asked_for(program):
    output = gdb(
        program,
        "kbreak warp_sums<float> -block 1 -thread 33",
        "run",
        "bt",
        "print warpSize",
        "print threadIdx",
        "print blockIdx.x",
    )
    assert re.match(r"warp_sums<float> \(values=0x[0-9a-f]+, sums=0x[0-9a-f]+, past_the_end=0\)", stops(output)[0])
    assert "[gpusym: block (1,0,0) thread (33,0,0) of dispatch 1, wavefront 1]" in output, output
    # The stub's frame, annotated with the launch, then main's; at -O2 clang
    # inlines the stub into main, whose frame is annotated instead.
    frames = re.findall(r"^#\d .*", output, re.M)
    assert len(frames) in (2, 3) and re.match(r"#\d .* in main .* at .*warp_sums.cu:\d+", frames[-1]), output
    launch = f"[kernel {KERNEL} <<<grid (4,1,1), block (64,1,1), shmem 0, stream 0x0>>>"
    assert launch in frames[1], output
    if len(frames) == 3:
        assert "in void __device_stub__warp_sums<float>(float const*, float*, int)" in frames[1], output
    assert "$1 = 32" in output and "$2 = {x = 33, y = 0, z = 0}" in output and "$3 = 1" in output, output


def test_info_lanes_shows_warps_of_32_lanes(program):
    output = gdb(
        program, "set environment GPUSYM_WORKERS 1", "kbreak warp_sums -block 0 -thread 40", "run", "info lanes"
    )
    assert f"Dispatch 1: {KERNEL} <<<grid (4,1,1), block (64,1,1)" in output, output
    # Threads 0-31 are wavefront 0, 32-63 wavefront 1.
    assert re.search(r"^\s+\(0,0,0\)\s+\(0,0,0\)-\(31,0,0\)\s+32\s+0\s", output, re.M), output
    assert re.search(r"^\*\s+\(0,0,0\)\s+\(40,0,0\)\s+1\s+1\s+running", output, re.M), output
