"""A CUDA program's failed device assert() behaves as on an NVIDIA GPU: each
failing thread prints CUDA's line on stderr, the kernel ends, the next
synchronising call returns cudaErrorAssert, and so do the CUDA calls after
it (but the device queries), while the program goes on and exits as it
chooses; the kernel queued behind the failing one and one launched after it
do not run, while another device goes on working
(tests/programs/cuda/device_assert.cu, whose expected output is what an
H100 printed with CUDA 13).  Under gdb the failing lane stops with
SIGABRT, explained, as a HIP program's does, and goes on when continued;
``gpusym capture`` records the stop as a crash with the failed assertion.

A HIP program's failed assert still ends the process with HIP's report
(tests/device/test_faults.py: test_a_failed_device_assert,
test_capture_explains_a_failed_assert)."""

from __future__ import annotations

import pytest
from conftest import TEST_PROGRAMS, describe, run
from fault_runs import capture, crash_of
from gdb_batch import gdb

pytestmark = [pytest.mark.toolchain]

SOURCE = TEST_PROGRAMS / "cuda" / "device_assert.cu"
FLAGS = {"O0": ("-G",), "O2": ("-O2",)}
#: Exits 3 when the synchronising call returned cudaErrorAssert: its own choice.
CHOSEN_EXIT = 3

#: What follows the synchronising call's line, on an H100 and here.
AFTER = """\
cudaGetLastError: cudaErrorAssert (710)
cudaGetLastError: cudaSuccess (0)
cudaPeekAtLastError: cudaSuccess (0)
cudaMalloc: cudaErrorAssert (710)
cudaMemcpy: cudaErrorAssert (710)
cudaStreamSynchronize: cudaErrorAssert (710)
launch: cudaErrorAssert (710)
cudaDeviceSynchronize: cudaErrorAssert (710)
queued kernel ran: 0, later kernel ran: 0
cudaGetDeviceCount: cudaSuccess (0)
cudaGetDevice: cudaSuccess (0)
device 0
"""

SYNCHRONISING_CALLS = {
    "device": "cudaDeviceSynchronize",
    "stream": "cudaStreamSynchronize",
    "memcpy": "cudaMemcpy",
}


def assert_line(thread: int) -> str:
    (line,) = [n for n, text in enumerate(SOURCE.read_text().splitlines(), 1) if "assert(data[i] == 0)" in text]
    return (
        f"{SOURCE}:{line}: void check(const int *): block: [1,0,0], thread: [{thread},0,0] "
        "Assertion `data[i] == 0` failed."
    )


@pytest.fixture(scope="module", params=sorted(FLAGS))
def program(request, build_program):
    return build_program("cuda/device_assert.cu", flags=FLAGS[request.param])


@pytest.mark.parametrize("blocking", ["0", "1"])
@pytest.mark.parametrize("mode", sorted(SYNCHRONISING_CALLS))
def test_the_failure_reaches_the_next_synchronising_call_and_every_call_after_it(program, mode, blocking):
    result = run([program, mode], env={"GPUSYM_LAUNCH_BLOCKING": blocking})
    assert result.returncode == CHOSEN_EXIT, describe(result)
    assert result.stdout == f"{SYNCHRONISING_CALLS[mode]}: cudaErrorAssert (710)\n{AFTER}", describe(result)
    # One line per failing thread, in CUDA's words (a GPU prints them in any order).
    assert sorted(result.stderr.splitlines()) == [assert_line(17), assert_line(40)], describe(result)


def test_another_devices_context_has_not_failed(program):
    result = run([program, "other-device"], env={"GPUSYM_DEVICES": "2"})
    assert result.returncode == CHOSEN_EXIT, describe(result)
    assert result.stdout == (
        f"cudaDeviceSynchronize: cudaErrorAssert (710)\n{AFTER}"
        "cudaSetDevice: cudaSuccess (0)\n"
        "cudaMallocManaged: cudaSuccess (0)\n"
        "cudaDeviceSynchronize: cudaSuccess (0)\n"
        "kernel ran on device 1: 1\n"
        "cudaSetDevice: cudaSuccess (0)\n"
        "cudaMalloc: cudaErrorAssert (710)\n"
    ), describe(result)


@pytest.mark.gdb
def test_gdb_stops_at_the_failing_lane_and_the_program_goes_on(build_program):
    program = build_program("cuda/device_assert.cu", flags=FLAGS["O0"])
    output = gdb(program, "run", "continue")
    # gdb's own lines keep their order; the program writes to the same pipe
    # unbuffered by gdb, so its lines are only looked for.
    stop = output.index("received signal SIGABRT")
    lane = output.index("[gpusym: block (1,0,0) thread (17,0,0) of dispatch 1, wavefront 0]", stop)
    assert output.index("Device-side assertion `data[i] == 0' failed.]", lane) > lane, output
    assert output.count("received signal SIGABRT") == 1, output  # the first failing thread only
    assert "cudaDeviceSynchronize: cudaErrorAssert (710)" in output, output
    assert output.index(f"exited with code 0{CHOSEN_EXIT}]", lane) > lane, output


@pytest.mark.gdb
def test_capture_records_the_failed_assertion(build_program):
    program = build_program("cuda/device_assert.cu", flags=FLAGS["O0"])
    result, events = capture(program, "device")
    crash = crash_of(result, events)
    assert (crash["signal"], crash["lane"]["block"], crash["lane"]["thread_index"]) == (
        "SIGABRT",
        [1, 0, 0],
        [17, 0, 0],
    )
    fault = crash["fault"]
    assert (fault["kind"], fault["assertion"], fault["file"], fault["function"]) == (
        "assertion",
        "data[i] == 0",
        str(SOURCE),
        "void check(const int *)",
    ), fault
    assert "check" in [frame["function"] for frame in crash["backtrace"]]
