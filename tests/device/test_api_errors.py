"""Misused HIP API calls return HIP's own error codes and the program goes on.

tests/programs/api_errors.hip makes each bad call and prints
``<case>: <hipGetErrorName of the result> survived`` right after it returns;
at the end a valid launch must still work.  In gdb, ``set gpusym api-errors
on`` stops at each failing call, in the program's frame."""

from __future__ import annotations

import re

import pytest
from conftest import describe, run
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain]

EXPECTED = {
    "launch of a host variable": "hipErrorInvalidDeviceFunction",
    "block of 2048 threads": "hipErrorInvalidConfiguration",
    "block dimension 0": "hipErrorInvalidConfiguration",
    "memcpy host to device into a stack array": "hipErrorInvalidValue",
    "memcpy device to host from a host pointer": "hipErrorInvalidValue",
    "free of a host pointer": "hipErrorInvalidValue",
    "double free": "hipErrorInvalidValue",
    "memcpy from freed memory": "hipErrorInvalidValue",
    "memcpy past the end of an allocation": "hipErrorInvalidValue",
    "memset past the end of an allocation": "hipErrorInvalidValue",
    "grid with a zero dimension": "hipErrorInvalidConfiguration",
    "malloc of 2^62 bytes": "hipErrorOutOfMemory",
    "malloc into a null pointer": "hipErrorInvalidValue",
    "memcpy to a non-symbol": "hipErrorInvalidSymbol",
    # hipGetLastError returns the last error, then clears it.
    "last error": "hipErrorInvalidSymbol",
    "last error after reading it": "hipSuccess",
}


@pytest.fixture(scope="module", params=["queued", "blocking"])
def api_errors_run(request, build_program):
    env = {"GPUSYM_LAUNCH_BLOCKING": "1"} if request.param == "blocking" else {}
    return run([build_program("api_errors.hip")], env=env)


@pytest.fixture(scope="module")
def reported(api_errors_run) -> dict[str, str]:
    """case -> the rest of its line."""
    cases = {}
    for line in api_errors_run.stdout.splitlines():
        case, sep, rest = line.partition(": ")
        if sep:
            cases[case] = rest
    return cases


def test_program_survives_every_bad_call_and_exits_0(api_errors_run):
    assert api_errors_run.returncode == 0, describe(api_errors_run)
    # Errors are answers, not complaints: nothing on stderr (an impossible
    # allocation does not give up guarding later ones either).
    assert api_errors_run.stderr == "", describe(api_errors_run)


@pytest.mark.parametrize("case", EXPECTED)
def test_bad_call_returns_the_hip_error_code(reported, api_errors_run, case):
    assert case in reported, f"no line for {case!r}: the program stopped before it\n{describe(api_errors_run)}"
    assert reported[case] == f"{EXPECTED[case]} survived"


def test_valid_launch_still_works_after_the_errors(reported, api_errors_run):
    assert reported.get("valid launch afterwards") == "hipSuccess, 0 wrong", describe(api_errors_run)


def test_every_case_is_reported_once_in_order(api_errors_run):
    cases = [line.partition(": ")[0] for line in api_errors_run.stdout.splitlines()]
    assert cases == [*EXPECTED, "valid launch afterwards"], describe(api_errors_run)


@pytest.mark.gdb
def test_api_errors_stop_names_the_failing_call(build_program):
    program = build_program("api_errors.hip")
    output = gdb(
        program,
        "set gpusym api-errors on",
        "run",
        "print $_hiperr",
        "print $_hiperr_name",
        "continue",
        "set gpusym api-errors off",
        "continue",
    )
    assert "[gpusym: hipLaunchKernel failed: hipErrorInvalidDeviceFunction (98)]" in output
    assert "= 98\n" in output and '= "hipErrorInvalidDeviceFunction"' in output
    assert "[gpusym: hipLaunchKernel failed: hipErrorInvalidConfiguration (9)]" in output
    assert "exited normally" in output and output.count("failed: ") == 2
    # Each stop shows the program's call, selected, not the runtime's reporting function.
    callers = re.findall(
        r"failed: \w+ \(\d+\)\]\n#(\d+) +0x[0-9a-f]+ in (\w+) \(\) at \S+api_errors\.hip:(\d+)\n", output
    )
    assert [name for _, name, _ in callers] == ["main", "main"], output
    assert "Breakpoint -" not in output and "api_call_failed" not in output, output
