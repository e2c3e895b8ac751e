"""hip/hip_fp16.h and hip/hip_bf16.h: every function of both headers against
an exact reference, on the simulated device, in a HIP program's host code and
in plain C++.

tests/programs/half_types.hip (with half_types_checks.h and
half_types_reference.h) sends every 16-bit pattern through the unary
functions and the conversions to integers, floats, doubles and integers
around every 16-bit value, tie and power of two through the conversions in
the four rounding directions, special, random and nearby pairs and triples
through the arithmetic, comparisons and fused multiply-adds, then checks the
warp shuffles, atomics and amd_mixed_dot on the device.  It prints one line
per failing check and ``ok N`` when all N pass; half_types_host.cpp does the
same in plain C++ (no HIP compile), as C++11 with -Werror too; both check
HIP's older hip_bfloat16 (gpusym_detail/legacy_bfloat16.h)."""

from __future__ import annotations

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain]

#: Checks each program makes: a check skipped by mistake changes the count.
HIP_PROGRAM_CHECKS = 64090038  # on the device and in the host code, and the device-only ones
PLAIN_CXX_CHECKS = 32044685


@pytest.mark.parametrize("optimization", ["-O0", "-O2"])
def test_every_function_matches_the_exact_reference_on_the_device(build_program, optimization):
    program = build_program("half_types.hip", flags=(optimization,), output=f"half_types{optimization}")
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.splitlines()[-1] == f"ok {HIP_PROGRAM_CHECKS}", describe(result)


@pytest.mark.parametrize(
    "flags",
    [("-O0",), ("-O2", "-std=c++11", "-Werror", "-Wall", "-Wextra")],
    ids=["O0", "O2-cxx11-Werror"],
)
def test_headers_work_in_plain_cxx_host_code(build_program, flags):
    program = build_program("half_types_host.cpp", flags=flags, output=f"half_types_host{flags[0]}")
    result = run([program])
    assert result.returncode == 0, describe(result)
    assert result.stdout.splitlines()[-1] == f"ok {PLAIN_CXX_CHECKS}", describe(result)
