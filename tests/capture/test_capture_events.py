"""Capture's events: what gdb's side writes reads back the same, and both
sources of an error event give it the same fields."""

from __future__ import annotations

import pytest

from capture import events
from capture.events import (
    CaptureErrorEvent,
    CrashEvent,
    ErrorEvent,
    HostThread,
    KernelName,
    KernelStopEvent,
    Lane,
    LaneKernel,
    ProgramEnd,
    SessionEvent,
    StopEvent,
    ThreadStack,
)

pytestmark = []  # no toolchain, no gdb: seconds (make check)

THREAD = HostThread(tid=41, name="worker", number=2)
LANE = Lane(3, [0, 1, 0], [5, 0, 0], LaneKernel("_Z1kPi", "k(int*)"), [2, 2, 1], [64, 1, 1])
FRAMES = [{"function": "main", "address": 4096, "file": "main.cpp", "line": 7}]
GDB_EVENTS = [
    SessionEvent(1, "13.1"),
    ErrorEvent(2, "hipMalloc", 2, "hipErrorOutOfMemory", THREAD, FRAMES),
    CrashEvent(3, "SIGSEGV", 0x1000, THREAD, FRAMES, LANE, {"kind": "abort", "description": "abort() called"}),
    CrashEvent(4, "SIGABRT", None, HostThread(40, None, 1), []),
    KernelStopEvent(5, ThreadStack(THREAD, LANE, FRAMES)),
    StopEvent(6, "timeout", [ThreadStack(THREAD, None, FRAMES)]),
    StopEvent(7, "interrupt", []),
    ProgramEnd(8, None, "SIGKILL", "timeout"),
    CaptureErrorEvent(9, "the extension did not load", "extension"),
]


@pytest.mark.parametrize("event", GDB_EVENTS, ids=lambda event: type(event).__name__)
def test_what_gdb_writes_reads_back_the_same(event):
    assert events.from_json(event.to_json()) == event


def test_every_event_starts_with_its_kind_and_time():
    for event in GDB_EVENTS:
        assert list(event.to_json())[:2] == ["event", "time_ns"]


def test_an_error_has_the_same_fields_from_gdb_and_from_a_refused_launch():
    from_gdb = ErrorEvent(1, "hipLaunchKernel", 9, "hipErrorInvalidConfiguration", THREAD, FRAMES)
    from_launch = ErrorEvent(
        1,
        "hipLaunchKernel",
        9,
        "hipErrorInvalidConfiguration",
        HostThread(41, "worker"),
        FRAMES,
        KernelName("_Z1kPi", "k(int*)", "/bin/program"),
    )
    assert list(from_gdb.to_json()) == list(from_launch.to_json())
    assert from_gdb.to_json()["kernel"] is None
    assert from_launch.to_json()["kernel"] == {"name": "_Z1kPi", "demangled": "k(int*)", "module": "/bin/program"}
    assert "number" not in from_launch.to_json()["thread"]  # only gdb numbers threads
