"""hipDeviceReset: the current device's allocations, streams and events are
gone, and using them is a HIP error, not a crash; the device works again
afterwards and the other device keeps what it had.

tests/programs/device_reset.hip runs one case per process: ``after`` prints
``name: value`` lines, ``fault`` makes a kernel read memory freed by the reset."""

from __future__ import annotations

import re
import signal
from pathlib import Path

import pytest
from conftest import describe, run
from fault_runs import base_of, capture, crash_of, report
from gdb_batch import gdb
from program_cases import case

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: A handle destroyed by the reset is answered as one destroyed by its own
#: call (hipFree, hipStreamDestroy, hipEventDestroy).
AFTER_RESET = {
    "hipFree of a pre-reset pointer": "hipErrorInvalidValue",
    "hipMemcpy from a pre-reset pointer": "hipErrorInvalidValue",
    "hipMemcpy to a pre-reset pointer": "hipErrorInvalidValue",
    "hipMemset of a pre-reset pointer": "hipErrorInvalidValue",
    "hipMemcpyAsync from a pre-reset pointer": "hipErrorInvalidValue",
    "hipPointerGetAttributes of a pre-reset pointer": "hipErrorInvalidValue",
    "hipStreamSynchronize of a pre-reset stream": "hipErrorInvalidHandle",
    "hipStreamQuery of a pre-reset stream": "hipErrorInvalidHandle",
    "hipMemcpyAsync on a pre-reset stream": "hipErrorInvalidHandle",
    "launch on a pre-reset stream": "hipErrorInvalidHandle",
    "hipStreamDestroy of a pre-reset stream": "hipErrorInvalidHandle",
    "hipEventQuery of a pre-reset event": "hipErrorInvalidHandle",
    "hipEventSynchronize of a pre-reset event": "hipErrorInvalidHandle",
    "hipEventRecord of a pre-reset event": "hipErrorInvalidHandle",
    "hipStreamWaitEvent on a pre-reset event": "hipErrorInvalidHandle",
    "hipEventDestroy of a pre-reset event": "hipErrorInvalidHandle",
}


@pytest.fixture(scope="module")
def program(build_program) -> Path:
    return build_program("device_reset.hip")


@pytest.fixture(scope="module", params=["0", "1"], ids=["queued", "blocking"])
def after(request, program) -> dict[str, str]:
    return case(program, "after", GPUSYM_LAUNCH_BLOCKING=request.param)


def test_reset_waits_for_the_work_queued_on_the_device(after):
    assert after["reset"] == "hipSuccess"
    assert after["work queued before the reset"] == "0 wrong"


@pytest.mark.parametrize("call", AFTER_RESET)
def test_a_handle_made_before_the_reset_is_a_hip_error(after, call):
    assert after[call] == AFTER_RESET[call]


def test_the_errors_are_answers_with_nothing_on_stderr(program):
    result = run([program, "after"])
    assert (result.returncode, result.stderr) == (0, ""), describe(result)


def test_the_device_works_again_after_the_reset(after):
    assert after["enable peer access to device 1 again"] == "hipSuccess"  # peer access starts disabled
    assert after["allocation and launch after the reset"] == "0 wrong"
    assert after["stream and event after the reset"] == "0 wrong"
    assert after["hipFree of a post-reset pointer"] == "hipSuccess"


def test_the_other_devices_allocation_and_stream_survive_until_its_own_reset(after):
    assert after["device 1 allocation"] == "device 1"
    assert after["launch on the device 1 stream"] == "hipSuccess"
    assert after["device 1 allocation after its kernel"] == "0 wrong"
    assert after["reset of device 1"] == "hipSuccess"
    assert after["hipFree of device 1's pre-reset pointer"] == "hipErrorInvalidValue"
    assert after["hipStreamQuery of device 1's pre-reset stream"] == "hipErrorInvalidHandle"


def test_a_kernel_reading_memory_freed_by_the_reset_is_a_reported_fault(program):
    result = run([program, "fault"])
    assert result.returncode == -signal.SIGSEGV, describe(result)
    base = base_of(result.stdout)
    assert report(result) == (
        "peek(float const*, float*)",
        "1",
        "1,0,0",
        "17,0,0",
        f"invalid read at {base + 20:#x}: 20 bytes into a freed 256-byte allocation at "
        f"{base:#x} (hipMalloc, then hipDeviceReset)",
    )
    assert "not reached" not in result.stdout


def test_capture_explains_the_fault_in_the_runtimes_words(program):
    result, events = capture(program, "fault")
    assert result.returncode == 128 + signal.SIGSEGV, describe(result)
    fault = crash_of(result, events)["fault"]
    base = base_of(events[-1]["stdout"])
    assert fault["allocation"] == {"base": base, "size": 256, "state": "freed"}
    assert fault["description"] == (
        f"invalid read at {base + 20:#x}: 20 bytes into a freed 256-byte allocation at "
        f"{base:#x} (hipMalloc, then hipDeviceReset)"
    )


def test_info_devices_before_and_after_the_reset(program):
    output = gdb(
        program,
        "set args after",
        "break before_reset",
        "break after_reset",
        "run",
        "info devices",
        "continue",
        "info devices",
    )
    devices = re.findall(r"^[* ]\s+(\d)\s+gpusym simulated device \d\s+(\d+)\s+\d+\s+\d+\s+(.*)$", output, re.M)
    # (ordinal, streams, allocations): device 0 loses its stream and allocation, device 1 keeps its own.
    assert devices == [
        ("0", "2", "1 (256 bytes)"),
        ("1", "2", "1 (256 bytes)"),
        ("0", "1", "0"),
        ("1", "2", "1 (256 bytes)"),
    ], output
    streams = re.findall(r"^(null|\d+)\s+(\d)\s+0x[0-9a-f]+\s+blocking\s+\d+$", output, re.M)
    assert streams == [
        ("null", "0"),
        ("2", "0"),
        ("null", "1"),
        ("1", "1"),
        ("null", "0"),
        ("null", "1"),
        ("1", "1"),
    ], output
