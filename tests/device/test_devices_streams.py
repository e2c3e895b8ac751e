"""Devices, streams and events of the simulated runtime, in real programs:
tests/programs/devices_streams.hip runs one case per process and prints
``name: value`` lines; the launch interposer and gdb (with the extension)
look at the same program's launches from two host threads on two devices."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import describe, run
from gdb_batch import gdb
from program_cases import case

from capture import interposer
from capture.records import Launch, Thread, read_records

pytestmark = [pytest.mark.toolchain, pytest.mark.gdb]

#: Cases whose kernels wait for each other need workers for both.
WORKERS = {"GPUSYM_WORKERS": "4"}


@pytest.fixture(scope="module")
def program(build_program) -> Path:
    return build_program("devices_streams.hip")


def test_each_host_thread_has_its_own_current_device(program):
    lines = case(program, "threads")
    # The second thread chose device 1 while the main thread stayed on 0, and
    # a thread started after the main thread chose device 1 starts on 0.
    assert lines["main thread"] == "0"
    assert lines["second thread"] == "1"
    assert lines["new thread"] == "0"
    assert lines["main thread after hipSetDevice(1)"] == "1"


def test_allocations_and_streams_belong_to_the_device_current_at_creation(program):
    lines = case(program, "threads")
    assert lines["allocation of the second thread"] == "device 1"  # a pointer inside it
    assert lines["allocation of the main thread"] == "device 0"
    assert lines["stream of the second thread"] == "device 1"
    assert lines["pointer that is no allocation"] == "hipErrorInvalidValue"


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_a_stream_or_event_of_another_device_is_an_invalid_handle(program, blocking):
    lines = case(program, "wrong-device", GPUSYM_LAUNCH_BLOCKING=blocking)
    assert lines["record device 1 event on device 1 stream"] == "hipSuccess"
    # HIP's choice (hipErrorInvalidResourceHandle is the same code, 400).
    assert lines["record device 1 event on device 0 stream"] == "hipErrorInvalidHandle"
    assert lines["record device 1 event on the null stream of device 1"] == "hipSuccess"
    assert lines["record device 0 event on the null stream of device 1"] == "hipErrorInvalidHandle"
    assert lines["launch on a device 0 stream from device 1"] == "hipErrorInvalidHandle"
    assert lines["launch on a device 0 stream from device 0"] == "hipSuccess"
    assert lines["elapsed time between devices"] == "hipErrorInvalidHandle"
    # Allowed across devices, as in HIP and CUDA: waiting for another
    # device's event, and a copy on another device's stream.
    assert lines["device 0 stream waits for a device 1 event"] == "hipSuccess"
    assert lines["copy on a device 1 stream from device 0"] == "hipSuccess"


def test_destroyed_handles_and_bad_flags(program):
    lines = case(program, "wrong-device")
    assert lines["record on a destroyed stream"] == "hipErrorInvalidHandle"
    assert lines["destroy a destroyed stream"] == "hipErrorInvalidHandle"
    assert lines["query a destroyed event"] == "hipErrorInvalidHandle"
    assert lines["stream flags 7"] == "hipErrorInvalidValue"
    assert lines["event flags 0x100"] == "hipErrorInvalidValue"


@pytest.mark.parametrize(
    "env",
    [{"GPUSYM_WORKERS": "1"}, WORKERS, {"GPUSYM_LAUNCH_BLOCKING": "1"}],
    ids=["1 worker", "4 workers", "blocking"],
)
def test_stream_wait_event_orders_a_kernel_after_another_streams(program, env):
    # Stream a: a slow kernel writes round + 100, then an event; stream b
    # waits for the event, copies the value with a kernel and reads it back.
    lines = case(program, "ordering", **env)
    assert [lines[f"round {r}"] for r in range(1, 5)] == [f"stream b read {100 + r}" for r in range(1, 5)]


def test_stream_query_is_not_ready_while_a_kernel_runs(program):
    lines = case(program, "query")
    assert lines["empty stream"] == "hipSuccess"
    assert lines["event never recorded"] == "hipSuccess"
    assert lines["stream while the kernel runs"] == "hipErrorNotReady"
    assert lines["event while the kernel runs"] == "hipErrorNotReady"
    # Not ready is an answer, not a failure: the last error stays clear.
    assert lines["last error after not ready"] == "hipSuccess"
    assert lines["stream after hipStreamSynchronize"] == "hipSuccess"
    assert lines["event after hipStreamSynchronize"] == "hipSuccess"


def test_event_elapsed_time_is_plausible(program):
    lines = case(program, "elapsed")
    elapsed, host = float(lines["elapsed ms"]), float(lines["host ms"])
    # The events bracket a kernel busy for tens of milliseconds; the host
    # timed from before the first record to after synchronizing the second.
    assert 0 < elapsed <= host + 0.5, lines
    assert elapsed >= 0.5 * host, lines
    assert lines["before completion"] == "hipErrorNotReady"
    assert lines["event and itself"] == "0.000"
    assert lines["event without timing"] == "hipErrorInvalidHandle"
    assert lines["event never recorded"] == "hipErrorInvalidHandle"
    assert lines["null result"] == "hipErrorInvalidValue"


def test_null_stream_waits_for_blocking_streams_and_not_for_non_blocking_ones(program):
    lines = case(program, "null-stream", **WORKERS)
    assert lines["flags of the non-blocking stream"] == "1"
    assert lines["null stream after a blocking stream"] == "7"
    assert lines["blocking stream after the null stream"] == "8"
    # A kernel on a non-blocking stream waits for a flag while the null
    # stream's later work completes; a copy on a third stream releases it.
    assert lines["null stream while a non-blocking stream waits"] == "hipSuccess"
    assert lines["non-blocking stream meanwhile"] == "hipErrorNotReady"
    assert lines["non-blocking stream after the flag"] == "hipSuccess, saw 1"
    assert lines["non-blocking stream after hipDeviceSynchronize"] == "hipSuccess"
    assert lines["non-blocking stream after hipFree of its buffer"] == "hipSuccess"


@pytest.mark.parametrize("blocking", ["0", "1"])
def test_memcpy_peer_copies_between_devices(program, blocking):
    lines = case(program, "peer", GPUSYM_LAUNCH_BLOCKING=blocking)
    assert lines["hipMemcpyPeer both ways around a kernel on device 1"] == "0 wrong"
    assert lines["hipMemcpyPeerAsync after a kernel in its stream"] == "0 wrong"
    assert lines["hipMemcpyPeer to device 9"] == "hipErrorInvalidDevice"
    assert lines["hipMemcpyPeer from a host array"] == "hipErrorInvalidValue"


def test_peer_access_between_distinct_devices(program):
    lines = case(program, "peer")
    assert lines["can access peer"] == "0->1 1, 1->0 1, 0->0 0"
    assert lines["can access peer of device 9"] == "hipErrorInvalidDevice"
    assert lines["enable 1 from 0"] == "hipSuccess"
    assert lines["enable 1 from 0 again"] == "hipErrorPeerAccessAlreadyEnabled"
    assert lines["enable 0 from 0"] == "hipErrorInvalidDevice"
    assert lines["enable with flags"] == "hipErrorInvalidValue"
    assert lines["disable 1 from 0"] == "hipSuccess"
    assert lines["disable 1 from 0 again"] == "hipErrorPeerAccessNotEnabled"


def test_two_devices_by_default_with_their_properties(program):
    lines = case(program, "devices")
    assert lines["count"] == "2"
    for device in (0, 1):
        assert lines[f"device {device}"] == (
            f"gpusym simulated device {device}, warpSize 64, maxThreadsPerBlock 1024, "
            "memory yes, multiProcessorCount yes, concurrentKernels 1"
        )
    assert lines["hipSetDevice(2)"] == "hipErrorInvalidDevice"
    assert lines["hipSetDevice(1)"] == "hipSuccess"
    assert lines["hipSetDevice(-1)"] == "hipErrorInvalidDevice"
    assert lines["current"] == "1"


def test_gpusym_devices_1_makes_device_1_invalid(program):
    lines = case(program, "devices", GPUSYM_DEVICES="1")
    assert lines["count"] == "1"
    assert lines["hipSetDevice(1)"] == "hipErrorInvalidDevice"
    assert lines["current"] == "0"
    assert lines["properties of device 1"] == "hipErrorInvalidDevice"


def test_gpusym_devices_out_of_range_is_ignored_with_a_warning(program):
    result = run([program, "devices"], env={"GPUSYM_DEVICES": "0"})
    assert result.returncode == 0, describe(result)
    assert "count: 2" in result.stdout
    assert result.stderr.strip() == "gpusym: ignoring GPUSYM_DEVICES=0: not between 1 and 64"


def test_interposer_records_a_launch_on_device_1_from_a_second_thread(program, tmp_path):
    path = tmp_path / "launches.bin"
    env = {"LD_PRELOAD": str(interposer.library_path()), "GPUSYM_CAPTURE_RECORDS": str(path)}
    result = run([program, "launches"], env=env)
    assert result.returncode == 0 and "launches: 0 wrong" in result.stdout, describe(result)
    records, _ = read_records(path.read_bytes())
    names = {record.tid: record.name for record in records if isinstance(record, Thread)}
    launches = [(names.get(record.tid), record.grid, record.device) for record in records if isinstance(record, Launch)]
    # The main thread launches on device 0, the thread "device1" on device 1.
    assert [(grid, device) for _, grid, device in launches] == [((1, 1, 1), 0), ((2, 1, 1), 1)]
    assert launches[1][0] == "device1" and launches[0][0] != "device1"


def test_info_devices_and_info_dispatches_in_gdb(program):
    # The thread "device1" stops before its launch, then a worker stops in
    # the kernel it launched on its stream (id 1) of device 1.
    output = gdb(
        program,
        "set args launches",
        "break on_device_1",
        "run",
        "info devices",
        "kbreak second_kernel",
        "continue",
        "info devices",
        "info dispatches",
        "thread 1",
        "info devices",
    )
    devices = re.findall(r"^([* ])\s+(\d)\s+gpusym simulated device (\d)\s+(\d+)\s+(\d+)\s+(\d+)\s+(.*)$", output, re.M)
    # (selected, ordinal, streams, queued, running, allocations), three times
    rows = [
        (star, ordinal, streams, queued, running, allocations)
        for star, ordinal, name, streams, queued, running, allocations in devices
        if ordinal == name
    ]
    assert rows == [
        # stopped in host thread "device1", after its hipSetDevice(1)
        (" ", "0", "1", "0", "0", "1 (256 bytes)"),
        ("*", "1", "2", "0", "0", "1 (256 bytes)"),
        # stopped in the kernel on device 1
        (" ", "0", "1", "0", "0", "1 (256 bytes)"),
        ("*", "1", "2", "0", "1", "1 (256 bytes)"),
        # the main thread never left device 0
        ("*", "0", "1", "0", "0", "1 (256 bytes)"),
        (" ", "1", "2", "0", "1", "1 (256 bytes)"),
    ], output
    streams = re.findall(r"^(null|\d+)\s+(\d)\s+(0x[0-9a-f]+)\s+(blocking|non-blocking)\s+(\d+)$", output, re.M)
    assert [(name, device, flags) for name, device, _, flags, _ in streams[:3]] == [
        ("null", "0", "blocking"),
        ("null", "1", "blocking"),
        ("1", "1", "non-blocking"),
    ]
    assert streams[0][2] == streams[1][2] == "0x0" and streams[2][2] != "0x0"
    assert [pending for *_, pending in streams[3:6]] == ["0", "0", "1"]  # the kernel runs on stream 1
    dispatches = re.findall(
        r"^([* ])\s+(\d+)\s+(\w+)\s+(\S+)\s+\(.*?\)\s+\(.*?\)\s+\d+\s+(\d+)\s+(\S+)\s+\d+\s+debug$", output, re.M
    )
    assert dispatches == [
        (" ", "1", "complete", "first_kernel(int*)", "0", "null"),
        ("*", "2", "running", "second_kernel(int*)", "1", "1"),
    ], output
