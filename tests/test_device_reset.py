"""hipDeviceReset (tests/programs/device_reset.hip): the current device's
work is waited for, its streams, events and allocations are destroyed, each
later use of one returns HIP's error, a kernel reading a freed allocation is
a fault, and the device takes new work while another device is untouched."""

from __future__ import annotations

import signal

import pytest

from conftest import describe, run
from test_faults import report

EXPECTED = [
    ("reset", "hipSuccess"),
    ("free of an allocation the reset freed", "hipErrorInvalidValue"),
    ("copy from an allocation the reset freed", "hipErrorInvalidValue"),
    ("launch on a stream the reset destroyed", "hipErrorInvalidHandle"),
    ("synchronize of a stream the reset destroyed", "hipErrorInvalidHandle"),
    ("destroy of a stream the reset destroyed", "hipErrorInvalidHandle"),
    ("query of an event the reset destroyed", "hipErrorInvalidHandle"),
    ("record of an event the reset destroyed", "hipErrorInvalidHandle"),
    ("malloc after the reset", "hipSuccess"),
]


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("device_reset.hip")


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_handles_the_reset_destroyed_give_hip_errors_and_the_devices_work_after_it(program, blocking):
    result = run([program], env={"GPUSYM_LAUNCH_BLOCKING": blocking})
    assert (result.returncode, result.stderr) == (0, ""), describe(result)
    lines = result.stdout.splitlines()
    assert [tuple(line.split(": ")) for line in lines[:-1]] == EXPECTED, describe(result)
    assert lines[-1] == "device_reset: 0 wrong after the reset on device 0, 0 wrong on device 1", describe(result)


def test_a_kernel_reading_an_allocation_the_reset_freed_faults(program):
    result = run([program, "stale-kernel"])
    assert result.returncode == -signal.SIGSEGV, describe(result)
    kernel, dispatch, block, thread, what = report(result)
    assert (kernel, dispatch, block, thread) == ("copy(int const*, int*, int)", "3", "0,0,0", "0,0,0"), describe(result)
    assert what.startswith("invalid read at ") and "0 bytes into a freed 4096-byte allocation" in what, what
