"""The gdb extension in plain gdb on CUDA programs, built at test time from
tests/programs/cuda_query/handles.cu by nvcc and by clang-19: without a GPU
the host side runs and each launch fails, so launches are where gdb stops.

``kbreak -launch`` stops at a kernel's stub for ``<<<>>>`` and at
``cudaLaunchKernel`` and ``cudaLaunchKernelExC`` when their handle argument
is the kernel's; backtraces name the kernel and its configuration there;
``kbreak`` without ``-launch`` says plain gdb cannot stop in an NVIDIA GPU,
and what it does in cuda-gdb runs under a stand-in ``cuda`` command.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from clang_cuda import CLANG_CUDA, HEADERLESS
from conftest import TEST_PROGRAMS, describe, run
from gdb_batch import gdb

from symbols import nv_fatbin

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

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
    assert all(re.search(r"\s+yes\s+function\s+compute_90, sm_90\s+-\s+-$", row) for row in rows.values()), output
    assert (
        "Breakpoints 1, 2, 3: launch of kernel g(float*, int) (at its stub, and at cudaLaunchKernel and "
        "cudaLaunchKernelExC on its handle)"
    ) in output
    # The launch through the handle, then g<<<2, 64>>>; the stub's own call
    # of cudaLaunchKernel (through nvcc's helper) is not a second stop.
    assert stopped_in(output) == [
        "cudaLaunchKernel",
        "__device_stub__Z1gPfi" + ("" if style == "debug" else "(float*, int)"),
    ], output
    listed = frames(output)
    assert re.match(
        r"#0 .*cudaLaunchKernel  \[launching kernel g\(float\*, int\) <<<grid \(1,1,1\), block \(32,1,1\), "
        r"shmem 0, stream 0x0>>>\]",
        listed[0],
    ), output
    assert re.match(r"#1 .* in main \(\)", listed[1]), output
    if style == "debug":
        assert listed[1].endswith(f"handles.cu:{line_of('cudaLaunchKernel((const void*)g')}"), output
    assert re.match(
        r"#0 .*__device_stub__Z1gPfi(\(float\*, int\))?  \[kernel g\(float\*, int\) <<<grid \(2,1,1\), "
        r"block \(64,1,1\), shmem 0, stream 0x0>>>\]",
        listed[2],
    ), output
    assert "exited normally" in output, output


def test_static_and_template_kernels_at_their_stubs_and_cuda_launch_kernel_ex(nvcc_builds):
    output = gdb(
        nvcc_builds("debug"),
        "kbreak -launch s",
        "kbreak -launch t",
        "run",
        "bt 2",
        "continue",
        "bt 3",
        "continue",
        "bt 2",
        "continue",
    )
    assert stopped_in(output) == ["__device_stub__Z1sPi", "__device_stub__ZN1a1tIiEEvPT_S1_", "cudaLaunchKernelExC"], (
        output
    )
    listed = frames(output)
    assert re.match(
        r"#0  __device_stub__Z1sPi  \[kernel s\(int\*\) <<<grid \(3,2,1\), block \(32,1,1\), shmem 128, "
        r"stream 0x0>>>\]",
        listed[0],
    ), output
    assert re.match(r"#1 .* in s \(", listed[1]), output
    template = r"\[kernel void a::t<int>\(int\*, int\) <<<grid \(4,1,1\), block \(8,4,1\), shmem 0, stream 0x2>>>\]"
    assert re.match(rf"#0  __device_stub__ZN1a1tIiEEvPT_S1_  {template}", listed[2]), output
    assert re.match(rf"#1 .* in a::__wrapper__device_stub_t<int>  {template}", listed[3]), output
    assert re.match(r"#2 .* in a::t<int> \(out=0x0, value=1\)", listed[4]), output
    assert re.match(
        r"#0 .*cudaLaunchKernelExC  \[launching kernel s\(int\*\) <<<grid \(5,1,1\), block \(16,1,1\), "
        r"shmem 256, stream 0x0>>>\]",
        listed[5],
    ), output
    assert listed[6].endswith(f"handles.cu:{line_of('cudaLaunchKernelExC(&config')}"), output
    assert "exited normally" in output, output


def test_kbreak_without_launch_says_plain_gdb_cannot_stop_on_the_gpu(nvcc_builds):
    output = gdb(nvcc_builds("debug"), "kbreak g", "kbreak a::t<int> -thread 3", "info breakpoints")
    assert (
        "kbreak: g(float*, int) runs on an NVIDIA GPU, where plain gdb cannot stop (cuda-gdb can); "
        "'kbreak -launch g' stops at its launches on the host\n"
    ) in output, output
    assert "kbreak: void a::t<int>(int*, int) runs on an NVIDIA GPU" in output, output
    assert "No breakpoints or watchpoints." in output, output


@pytest.fixture(scope="module")
def clang_cuda(tmp_path_factory) -> Path:
    """handles.cu as clang-19 compiles CUDA, with tests/programs/mangling/
    cuda_shim.h for CUDA's headers (clang-19 reads no CUDA 13 header): its
    cubin in a fat binary made here (clang-19 cannot drive CUDA 13's
    fatbinary), the host object linked by nvcc with the static cudart."""
    if shutil.which("nvcc") is None:
        pytest.skip("no CUDA toolkit for ptxas and cudart")
    root = tmp_path_factory.mktemp("gdb_clang_cuda")
    clang = [*CLANG_CUDA, *HEADERLESS]
    cubin, fatbin, host, program = root / "handles.cubin", root / "handles.fatbin", root / "handles.o", root / "handles"
    result = run([*clang, "--cuda-device-only", "-c", SOURCE, "-o", cubin])
    assert result.returncode == 0, describe(result)
    fatbin.write_bytes(nv_fatbin.write([(2, 90, cubin.read_bytes(), False)]))
    for command in (
        [
            *clang,
            "--cuda-host-only",
            "-g",
            "-Xclang",
            "-fcuda-include-gpubinary",
            "-Xclang",
            fatbin,
            "-c",
            SOURCE,
            "-o",
            host,
        ],
        ["nvcc", host, "-o", program],
    ):
        result = run(command)
        assert result.returncode == 0, describe(result)
    return program


def test_clang_cuda_launches_through_the_stub_that_is_the_handle(clang_cuda):
    """clang's stub is the kernel's handle: cudaLaunchKernel((const void*)g, ...)
    passes the stub, and the stub itself calls cudaLaunchKernel."""
    output = gdb(
        clang_cuda,
        "info kernels",
        "kbreak -launch g",
        "kbreak -launch s",
        "kbreak -launch t",
        "kbreak s",
        "run",
        *["bt 1", "continue"] * 5,
    )
    rows = [re.split(r"\s{2,}", line) for line in output.splitlines() if "  yes  " in line]
    assert sorted(row[0] for row in rows) == ["g(float*, int)", "s(int*)", "void a::t<int>(int*, int)"], output
    assert all(row[3:5] == ["stub", "sm_90"] for row in rows), output
    assert "kbreak: s(int*) runs on an NVIDIA GPU" in output, output
    assert stopped_in(output) == [
        "cudaLaunchKernel",
        "__device_stub__g",
        "__device_stub__s",
        "a::__device_stub__t<int>",
        "cudaLaunchKernelExC",
    ], output
    notes = [re.search(r"  \[(.*)\]", line).group(1) for line in frames(output)]
    assert notes == [
        "launching kernel g(float*, int) <<<grid (1,1,1), block (32,1,1), shmem 0, stream 0x0>>>",
        "kernel g(float*, int) <<<grid (2,1,1), block (64,1,1), shmem 0, stream 0x0>>>",
        "kernel s(int*) <<<grid (3,2,1), block (32,1,1), shmem 128, stream 0x0>>>",
        "kernel void a::t<int>(int*, int) <<<grid (4,1,1), block (8,4,1), shmem 0, stream 0x2>>>",
        "launching kernel s(int*) <<<grid (5,1,1), block (16,1,1), shmem 256, stream 0x0>>>",
    ], output
    assert "exited normally" in output, output


#: A stand-in for cuda-gdb's ``cuda`` command, by which the extension knows it runs there.
CUDA_COMMAND = 'python type("Cuda", (gdb.Command,), {"invoke": lambda *arguments: None})("cuda", gdb.COMMAND_DATA)'


def test_under_a_cuda_command_kbreak_is_on_the_device_name_and_never_on_the_host(nvcc_builds):
    """What runs in cuda-gdb, exercised in plain gdb: the breakpoint is on
    the kernel's device name, -block and -thread are conditions on blockIdx
    and threadIdx, and the host functions of the same name (g's, and the
    internal ones of the static s and of a::t<int>) keep no enabled location,
    before the run and after gdb sets the locations anew."""
    output = gdb(
        nvcc_builds("debug"),
        "kbreak a::t<int> -thread 3",
        "kbreak s -block 1,2 if p != 0",
        "kbreak g",
        "info breakpoints",
        "info macro threadIdx",
        "run",
        "info breakpoints",
        before=(CUDA_COMMAND,),
    )
    for kernel in ("void a::t<int>(int*, int)", "s(int*)", "g(float*, int)"):
        assert f": kernel {kernel} — device code (compute_90, sm_90), pending until its code object is loaded" in output
    assert "\tstop only if threadIdx.x == 3 && threadIdx.y == 0 && threadIdx.z == 0\n" in output, output
    assert "\tstop only if blockIdx.x == 1 && blockIdx.y == 2 && blockIdx.z == 0 && (p != 0)\n" in output, output
    locations = re.findall(r"^\d+\.\d+\s+(\S+)\s+0x[0-9a-f]+ in (\S+)\(", output, re.M)
    assert sorted(function for _, function in locations) == sorted(["a::t<int>", "s", "g"] * 2), output
    assert all(enabled in ("n", "N*") for enabled, _ in locations), output
    assert "has no definition as a C/C++ preprocessor macro" in output, output  # cuda-gdb's own threadIdx
    assert stopped_in(output) == [] and "exited normally" in output, output


def test_under_a_cuda_command_info_lanes_points_to_cuda_gdb_s_own(nvcc_builds):
    output = gdb(nvcc_builds("debug"), "break main", "run", "info lanes", before=(CUDA_COMMAND,))
    assert "info lanes: the program runs on an NVIDIA GPU: cuda-gdb's 'info cuda lanes' shows its lanes" in output


def test_the_cubins_cuda_gdb_makes_of_what_the_driver_loaded_are_not_read_for_kernels():
    """cuda-gdb names an object file for each cubin the CUDA driver loads
    (elf.ADDRESS.ADDRESS.o.XXXXXX); on an H100 `info kernels` listed the
    driver's own 73 memcpy and scheduler kernels from them."""
    output = gdb(
        None,
        "python from gdbext.runtime_view.program_analyses import may_hold_kernels as m",
        'python print("driver:", m("elf.555555682260.5555562e3850.o.z3OGKq"), m("/tmp/elf.5555.5555.o.LBVBFA"))',
        'python print("program:", m("/home/user/app/elf.cubin"), m("/home/user/app/warp_sums"))',
    )
    assert "driver: False False\n" in output and "program: True True\n" in output, output
