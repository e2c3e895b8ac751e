"""Runtime compilation (hip/hiprtc.h): a template kernel compiled while the
program runs, its name expressions lowered, loaded with hipModuleLoadData
and launched; a compile error's log; the calls' errors
(tests/programs/hiprtc.hip); and in gdb, the kernel is one like any other."""

from __future__ import annotations

import re

import pytest
from conftest import describe, run
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("hiprtc.hip")


def test_a_program_compiled_at_run_time_loads_and_runs(program):
    result = run([program])
    checks = dict(re.findall(r"^hiprtc: ([^:]+): (ok|WRONG)$", result.stdout, re.M))
    assert len(checks) == 16 and set(checks.values()) == {"ok"}, describe(result)
    assert "hiprtc: scale<float> is _Z5scaleIfEvPT_S0_i" in result.stdout, describe(result)
    assert "hiprtc: log: broken.cu:2:10: error: use of undeclared identifier 'undeclared'" in result.stdout
    assert result.returncode == 0, describe(result)


def test_gdb_breaks_in_a_kernel_compiled_at_run_time(program):
    output = gdb(program, "kbreak -pending scale<float> -block 1 -thread 3", "run", "bt 2", "info kernels scale")
    assert "Breakpoint 2: kernel void scale<float>(float*, float, int) — device code (gpusym), set" in output, output
    assert re.search(r"hit Breakpoint 2, scale<float> \(data=0x[0-9a-f]+, factor=2, n=1000\) at \S*scale\.cu:5", output)
    assert "[gpusym: block (1,0,0) thread (3,0,0) of dispatch 1, wavefront 0]" in output, output
    assert re.search(
        r"^#1 .* in main .*\[kernel void scale<float>\(float\*, float, int\) <<<grid \(4,1,1\)", output, re.M
    )
    assert re.search(
        r"^void scale<float>\(float\*, float, int\)\s+image \(module 0\)\s+no\s+none\s+gpusym\s+1\s+(?:yes|no: .+|-)$",
        output,
        re.M,
    ), output
