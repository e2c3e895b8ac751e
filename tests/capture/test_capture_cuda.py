"""``gpusym capture`` of CUDA programs built by nvcc, with the static cudart
(nvcc's default: gdb breaks at its entry points) and the shared one (the
preloaded interposer wraps them).  Without a GPU every launch fails but the
host side runs, so each launch is recorded with its error; a do-nothing
runtime of the test's own accepts them."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from capture_runs import capture, of_kind, source_line, table_rows
from conftest import GPUSYM, TEST_PROGRAMS, describe, run

from native import toolchain

NVCC = shutil.which("nvcc")
SOURCE = TEST_PROGRAMS / "capture_cuda.cu"
KERNEL = {"name": "_Z1gPfi", "demangled": "g(float*, int)"}

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb, pytest.mark.skipif(NVCC is None, reason="nvcc is not installed")]


def nvcc(*arguments) -> None:
    built = run([NVCC, "-g", *map(str, arguments)])
    assert built.returncode == 0, describe(built)


@pytest.fixture(scope="module", params=["static", "shared"])
def program(request, tmp_path_factory) -> Path:
    """capture_cuda built with the static or the shared cudart."""
    program = tmp_path_factory.mktemp(f"cudart_{request.param}") / "capture_cuda"
    nvcc(*(["-cudart", "shared"] if request.param == "shared" else []), SOURCE, "-o", program)
    return program


@pytest.fixture(scope="module")
def captured(program) -> tuple[Path, list[dict]]:
    result, events = capture("--", program)
    assert result.returncode == 0, describe(result)
    return program, events


def test_each_launch_is_recorded_once_with_its_kernel_configuration_and_stack(captured):
    program, events = captured
    launches = of_kind(events, "launch")
    assert [(e["api"], e["via"], e["grid"], e["block"], e["shared_mem"]) for e in launches] == [
        ("__cudaLaunchKernel", "<<<>>>", [2, 1, 1], [32, 1, 1], 0),
        ("cudaLaunchKernel", "handle", [3, 1, 1], [64, 1, 1], 0),
        ("cudaLaunchKernelExC", "handle", [4, 1, 1], [16, 1, 1], 8),
    ]
    assert [e["kernel"] for e in launches] == [{**KERNEL, "module": str(program)}] * 3
    mains = [next(frame["line"] for frame in e["backtrace"] if frame["function"] == "main") for e in launches]
    assert mains == [
        source_line(SOURCE, "g<<<2, 32>>>(p, n)"),
        source_line(SOURCE, "cudaLaunchKernel((const void*)g"),
        source_line(SOURCE, "cudaLaunchKernelExC(&config"),
    ]


def test_each_launch_carries_the_result_the_program_got(captured):
    _, events = captured
    launches = of_kind(events, "launch")
    got = events[-1]["stdout"].split()  # what cudaGetLastError and the two launch calls said
    assert [e["error"]["name"] if e["error"] else "cudaSuccess" for e in launches] == got
    assert all(e["error"]["code"] > 0 for e in launches if e["error"])
    refused = sum(name != "cudaSuccess" for name in got)
    assert (events[-1]["launches"], events[-1]["refused_launches"]) == (3 - refused, refused)


def test_the_report_names_the_programs_line(program):
    result = run([GPUSYM, "capture", "--", program], env={"COLUMNS": "80"})
    assert result.returncode == 0, describe(result)
    (row,) = table_rows(result.stdout, "Kernel launches")
    assert (row[0], row[-1]) == ("g(float*, int)", f"main at {SOURCE.name}:{source_line(SOURCE, 'g<<<2, 32>>>(p, n)')}")


def test_kernel_objects_name_their_kernel_without_any_stack(tmp_path):
    """Through a runtime that accepts the launches: the kernel object of a
    <<<>>> launch is named by the handle __cudaGetKernel made it from."""
    runtime, program = tmp_path / "libothercuda.so", tmp_path / "capture_cuda"
    built = run([toolchain.tool("clang"), "-shared", "-fPIC", TEST_PROGRAMS / "other_cuda_runtime.c", "-o", runtime])
    assert built.returncode == 0, describe(built)
    nvcc("-cudart", "none", SOURCE, f"-L{tmp_path}", "-lothercuda", "-Xlinker", f"-rpath={tmp_path}", "-o", program)
    result, events = capture("--no-backtraces", "--", program)
    assert result.returncode == 0, describe(result)
    stub, handle, extended = of_kind(events, "launch")
    assert stub["kernel"] == handle["kernel"] == extended["kernel"] == {**KERNEL, "module": str(program)}
    assert stub["entry"] != handle["entry"] == extended["entry"]  # a kernel object, then the handle twice
    assert (stub["via"], stub["error"], handle["error"], extended["error"]) == ("<<<>>>", None, None, None)
    assert (events[-1]["launches"], events[-1]["refused_launches"]) == (3, 0)
