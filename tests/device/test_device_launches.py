"""Kernels that launch kernels (CUDA's dynamic parallelism): a program's
launches from device code, copies and device memory in every schedule the
runtime has, and the rewrite gpusym-nvcc compiles such a source with
(device/compiler/device_launches.py)."""

from __future__ import annotations

import re

import pytest
from capture_runs import capture, of_kind
from conftest import GPUSYM_NVCC, assert_checks_pass, describe, run
from gdb_batch import gdb

from device.compiler import device_launches

pytestmark = []  # the program's tests are marked toolchain (and gdb) one by one

CHECKS = 10


@pytest.mark.toolchain
@pytest.mark.parametrize("flags", [("-G",), ("-O2",)], ids=["G", "O2"])
@pytest.mark.parametrize(
    "env",
    [{}, {"GPUSYM_FORM": "debug"}, {"GPUSYM_WORKERS": "1"}, {"GPUSYM_LAUNCH_BLOCKING": "1"}],
    ids=["fast", "debug", "one_worker", "launch_blocking"],
)
def test_every_check_of_the_program_passes(build_program, flags, env):
    result = run([build_program("cuda/device_launches.cu", flags=flags)], env=env)
    assert_checks_pass(result, CHECKS)


@pytest.mark.toolchain
@pytest.mark.gdb
def test_gdb_stops_in_a_kernel_only_device_code_launches_and_names_its_launcher(build_program):
    """The template kernel has no host stub; its backtrace ends at the
    dispatch whose thread launched it, and its line is the source's."""
    output = gdb(build_program("cuda/device_launches.cu", flags=("-G",)), "kbreak scale", "run", "bt", "info lanes")
    assert re.search(r"hit Breakpoint 1, scale<int, 3> \(values=0x[0-9a-f]+\) at .*device_launches.cu:42\n", output)
    assert re.search(
        r"#1 .*\[dispatch \d+ was launched by device code: "
        r"a thread of dispatch \d+ \(void scale_all<int>\(int\*\)\)\]",
        output,
    ), output
    assert re.search(r"Dispatch \d+: void scale<int, 3>\(int\*\) <<<grid \(2,1,1\), block \(64,1,1\)", output), output


@pytest.mark.toolchain
@pytest.mark.gdb
def test_capture_records_launches_by_device_code_and_the_one_refused(build_program):
    result, events = capture("--", build_program("cuda/device_launches.cu", flags=("-O2",)))
    by_device = [launch for launch in of_kind(events, "launch") if launch["via"] == "device"]
    kernels = [launch["kernel"]["demangled"] for launch in by_device]
    assert kernels.count("tree_sum(Results*, int, int)") == 30, describe(result)  # all but the host's
    assert kernels.count("count_threads(Results*)") == 256 and "void scale<int, 3>(int*)" in kernels, kernels
    assert all(launch["api"] == "__gpusym_device_launch" for launch in by_device), by_device[0]
    (refused,) = [launch for launch in by_device if launch["error"]]
    assert refused["kernel"]["demangled"] == "add_one(int*)" and refused["block"] == [2048, 1, 1], refused
    assert refused["error"]["name"] == "cudaErrorInvalidConfiguration", refused
    (end,) = of_kind(events, "exit")
    assert end["status"] == 0 and end["refused_launches"] == 1, end


def test_launches_in_device_code_become_calls_and_host_launches_stay():
    source = (
        '# 1 "a.cu"\n'
        "__attribute__((global)) void leaf(int *p);\n"
        "template <int N> __attribute__((global)) void tree(int *p) {\n"
        "  const char *s = \"x<<<1, 1>>>(p)\"; char c = '{';\n"
        "  if (N) { ns::leaf<N, 2>\n"
        "      <<<N, 32, 0, s>>>(p); }\n"
        "}\n"
        "struct S { __attribute__((host)) __attribute__((device)) void f(int *p) { leaf<<<1, 1>>>(p); } };\n"
        "int main() { int *p; leaf<<<1, 2>>>(p); tree<3><<<1, 1>>>(p); }\n"
    )
    rewritten = device_launches.portable(source)
    assert rewritten == (
        '# 1 "a.cu"\n'
        "__attribute__((global)) void leaf(int *p);\n"
        "template <int N> __attribute__((global)) void tree(int *p) {\n"
        "  const char *s = \"x<<<1, 1>>>(p)\"; char c = '{';\n"
        "  if (N) { __gpusym_cdp::configure<&ns::leaf<N, 2>>\n"
        "      (N, 32, 0, s)(p); }\n"
        "}\n"
        "struct S { __attribute__((host)) __attribute__((device)) void f(int *p) "
        "{ __gpusym_cdp::configure<&leaf>(1, 1)(p); } };\n"
        "int main() { int *p; leaf<<<1, 2>>>(p); tree<3><<<1, 1>>>(p); }\n"
    )


def test_the_errors_of_a_launch_in_device_code_are_recognised():
    assert device_launches.failed_on_device_launch(
        "a.cu:6:3: error: reference to __global__ function 'leaf' in __global__ function"
    )
    assert device_launches.failed_on_device_launch(
        "a.cu:2:1: note: candidate function not viable: call to __global__ function from __device__ function"
    )
    assert not device_launches.failed_on_device_launch("a.cu:2:1: error: use of undeclared identifier 'leaf'")


@pytest.mark.toolchain
def test_a_launch_of_an_overloaded_kernel_in_device_code_fails_with_a_note(tmp_path):
    source = tmp_path / "overloaded.cu"
    source.write_text(
        "__global__ void work(int *p);\n"
        "__global__ void work(int *p, int depth) { if (depth) work<<<1, 1>>>(p, depth - 1); }\n"
        "int main() { work<<<1, 1>>>(nullptr, 2); return cudaDeviceSynchronize(); }\n"
    )
    result = run([GPUSYM_NVCC, str(source), "-o", str(tmp_path / "overloaded")])
    assert result.returncode != 0, describe(result)
    assert "overloaded.cu:2:" in result.stderr and "Traceback" not in result.stderr, describe(result)
    assert "gpusym: note: a launch in device code is compiled as" in result.stderr, describe(result)
