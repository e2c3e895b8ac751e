"""The gdb extension in plain gdb on CUDA programs, built at test time from
tests/programs/cuda_query/handles.cu by nvcc: without a GPU the host side
runs and each launch fails, so launches are where gdb stops.

``kbreak -launch`` stops at a kernel's stub for ``<<<>>>`` and at
``cudaLaunchKernel`` and ``cudaLaunchKernelExC`` when their handle argument
is the kernel's; backtraces name the kernel and its configuration there.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from conftest import TEST_PROGRAMS, describe, run
from test_gdbext import gdb

SOURCE = TEST_PROGRAMS / "cuda_query" / "handles.cu"
#: The builds the launches are caught in: nvcc's default (static cudart,
#: host code without optimisation), optimised host code without debug
#: information, and the shared cudart.
BUILDS = {"debug": ["-g"], "optimised": ["-Xcompiler", "-O2"], "shared-cudart": ["-cudart", "shared"]}


def line_of(text: str) -> int:
    return next(n for n, line in enumerate(SOURCE.read_text().splitlines(), 1) if text in line)


@pytest.fixture(scope="module")
def nvcc_builds(tmp_path_factory):
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc is not installed")
    root, built = tmp_path_factory.mktemp("gdb_cuda"), {}

    def build(style: str) -> Path:
        if style not in built:
            target = root / f"handles-{style}"
            result = run(["nvcc", "-arch=sm_90", *BUILDS[style], SOURCE, "-o", target])
            assert result.returncode == 0, describe(result)
            built[style] = target
        return built[style]

    return build


def stopped_in(output: str) -> list[str]:
    """The function of each breakpoint stop, as gdb names it."""
    return [stop.split(" (")[0] for stop in re.findall(r"^Breakpoint \d+, (?:0x[0-9a-f]+ in )?(.*)", output, re.M)]


def frames(output: str) -> list[str]:
    return [line for line in output.splitlines() if line.startswith("#")]


@pytest.mark.parametrize("style", BUILDS)
def test_kbreak_launch_stops_at_cuda_launch_kernel_on_the_handle_then_at_the_stub(nvcc_builds, style):
    output = gdb(nvcc_builds(style), "info kernels", "kbreak -launch g", "run", "bt 2", "continue", "bt 2", "continue")
    rows = {re.split(r"\s{2,}", line)[0]: line for line in output.splitlines() if "  yes  " in line}
    assert set(rows) == {"g(float*, int)", "s(int*)", "void a::t<int>(int*, int)"}, output
    assert all(re.search(r"\s+yes\s+function\s+compute_90, sm_90\s+-$", row) for row in rows.values()), output
    assert ("Breakpoints 1, 2, 3: launch of kernel g(float*, int) (at its stub, and at cudaLaunchKernel and "
            "cudaLaunchKernelExC on its handle)") in output  # fmt: skip
    # The launch through the handle, then g<<<2, 64>>>; the stub's own call
    # of cudaLaunchKernel (through nvcc's helper) is not a second stop.
    assert stopped_in(output) == [
        "cudaLaunchKernel", "__device_stub__Z1gPfi" + ("" if style == "debug" else "(float*, int)")], output
    listed = frames(output)
    assert re.match(r"#0 .*cudaLaunchKernel  \[launching kernel g\(float\*, int\) <<<grid \(1,1,1\), block \(32,1,1\), "
                    r"shmem 0, stream 0x0>>>\]", listed[0]), output  # fmt: skip
    assert re.match(r"#1 .* in main \(\)", listed[1]), output
    if style == "debug":
        assert listed[1].endswith(f"handles.cu:{line_of('cudaLaunchKernel((const void*)g')}"), output
    assert re.match(r"#0 .*__device_stub__Z1gPfi(\(float\*, int\))?  \[kernel g\(float\*, int\) <<<grid \(2,1,1\), "
                    r"block \(64,1,1\), shmem 0, stream 0x0>>>\]", listed[2]), output  # fmt: skip
    assert "exited normally" in output, output


def test_static_and_template_kernels_at_their_stubs_and_cuda_launch_kernel_ex(nvcc_builds):
    output = gdb(nvcc_builds("debug"), "kbreak -launch s", "kbreak -launch t", "run", "bt 2", "continue", "bt 3",
                 "continue", "bt 2", "continue")  # fmt: skip
    assert stopped_in(output) == [
        "__device_stub__Z1sPi", "__device_stub__ZN1a1tIiEEvPT_S1_", "cudaLaunchKernelExC"], output
    listed = frames(output)
    assert re.match(r"#0  __device_stub__Z1sPi  \[kernel s\(int\*\) <<<grid \(3,2,1\), block \(32,1,1\), shmem 128, "
                    r"stream 0x0>>>\]", listed[0]), output  # fmt: skip
    assert re.match(r"#1 .* in s \(", listed[1]), output
    template = r"\[kernel void a::t<int>\(int\*, int\) <<<grid \(4,1,1\), block \(8,4,1\), shmem 0, stream 0x2>>>\]"
    assert re.match(rf"#0  __device_stub__ZN1a1tIiEEvPT_S1_  {template}", listed[2]), output
    assert re.match(rf"#1 .* in a::__wrapper__device_stub_t<int>  {template}", listed[3]), output
    assert re.match(r"#2 .* in a::t<int> \(out=0x0, value=1\)", listed[4]), output
    assert re.match(r"#0 .*cudaLaunchKernelExC  \[launching kernel s\(int\*\) <<<grid \(5,1,1\), block \(16,1,1\), "
                    r"shmem 256, stream 0x0>>>\]", listed[5]), output  # fmt: skip
    assert listed[6].endswith(f"handles.cu:{line_of('cudaLaunchKernelExC(&config')}"), output
    assert "exited normally" in output, output
