"""cuda_fp8.h, CUDA's 8-bit floating point (device/include/cuda/cuda_fp8.h),
in a CUDA program's host code and kernels and in plain C++.

tests/programs/cuda/fp8_checks.cu decodes every E4M3 and E5M2 encoding and
compares it with a reference computed from the formats' definitions, converts
every finite value back from float, double, half and bfloat16, rounds the
midpoints between neighbouring values and their neighbours, saturates,
converts NaNs and subnormals, packs pairs and quadruples and converts the
classes to and from the other types; it prints a line a case, on the host
and then in a kernel, and ``fp8: N failed``.  Compiled as plain C++ it makes
the host's checks alone."""

from __future__ import annotations

import re

import pytest
from conftest import describe, run

pytestmark = [pytest.mark.toolchain]

#: The cases the program reports, each on the host and on the device.
CASES = [
    "E4M3 decoding",
    "E5M2 decoding",
    "E4M3 round trips",
    "E5M2 round trips",
    "rounding to nearest even",
    "saturation",
    "NaN",
    "subnormals and zero",
    "x2 and x4 packing",
    "class conversions",
]


def outcomes(result) -> dict[str, str]:
    """Case -> "ok" or "FAILED ...", from the program's output."""
    return dict(re.findall(r"^(.+): (ok|FAILED.*)$", result.stdout, re.M))


@pytest.mark.parametrize("optimization", ["-G", "-O2"])
def test_every_case_passes_on_the_host_and_in_a_kernel(build_program, optimization):
    program = build_program("cuda/fp8_checks.cu", flags=(optimization,), output=f"fp8_checks{optimization}")
    result = run([program])
    expected = {f"{where} {case}": "ok" for where in ("host", "device") for case in CASES}
    assert result.returncode == 0 and outcomes(result) == expected, describe(result)
    assert result.stdout.splitlines()[-1] == "fp8: 0 failed", describe(result)


def test_the_header_works_in_plain_cxx11_without_warnings(build_program):
    flags = ("-x", "c++", "-O2", "-std=c++11", "-Xcompiler", "-Wall,-Wextra,-Werror")
    program = build_program("cuda/fp8_checks.cu", flags=flags, output="fp8_checks_host")
    result = run([program])
    assert result.returncode == 0 and outcomes(result) == {f"host {case}": "ok" for case in CASES}, describe(result)
    assert result.stdout.splitlines()[-1] == "fp8: 0 failed", describe(result)
