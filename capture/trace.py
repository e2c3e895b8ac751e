"""``gpusym capture --trace``: the events as a Chrome trace, the JSON Trace
Event Format that Perfetto and chrome://tracing open.  Pure: no I/O.

The program's processes keep their pids, with a trace thread per host thread
(its tid): launch calls and errors, checks and crashes as instant events,
copies and synchronisations as complete events over their calls.  Each
device of a process is a process of its own, with a trace thread per stream:
a launch is a complete event over its run on the device (the simulated
device's dispatch events), else an instant event at the start of a run that
did not end, or at the launch where the runtime does not report runs, its args
saying so.  Times are CLOCK_MONOTONIC, in microseconds as the format
wants them."""

from __future__ import annotations

from typing import Any

from capture.events import (
    CallEvent,
    CheckEvent,
    CrashEvent,
    DispatchEvent,
    ErrorEvent,
    Event,
    ExitEvent,
    HostThread,
    Json,
    LaunchEvent,
    StartEvent,
    StopEvent,
)

#: Device processes are numbered from here: above any Linux pid (pid_max is at most 2**22).
DEVICE_PIDS = 1 << 30


def _us(time_ns: int) -> float:
    return time_ns / 1000


class _Trace:
    """The trace events, and the processes and threads named so far."""

    def __init__(self, program: str):
        self.program = program
        self.events: list[Json] = []
        self.named: set[tuple[int, int | None]] = set()  # (pid, None) for a process
        self.pid_of: dict[int, int] = {}  # host tid -> pid
        self.devices: dict[tuple[int, int], int] = {}  # (pid, device) -> trace pid
        self.streams: dict[int, dict[int, int]] = {}  # trace pid -> stream handle -> tid

    def meta(self, name: str, pid: int, tid: int, args: Json) -> None:
        self.events.append({"name": name, "ph": "M", "pid": pid, "tid": tid, "args": args})

    def process(self, pid: int, name: str, order: int) -> None:
        if (pid, None) not in self.named:
            self.named.add((pid, None))
            self.meta("process_name", pid, 0, {"name": name})
            self.meta("process_sort_index", pid, 0, {"sort_index": order})

    def host(self, thread: HostThread, pid: int | None = None) -> tuple[int, int]:
        """The trace pid and tid of a host thread (its process: `pid`, else
        the one its launches and calls name, else the program's first)."""
        pid = pid or self.pid_of.get(thread.tid) or next(iter(self.pid_of.values()), thread.tid)
        self.process(pid, f"{self.program} (pid {pid})", 0)
        if (pid, thread.tid) not in self.named:
            self.named.add((pid, thread.tid))
            self.meta("thread_name", pid, thread.tid, {"name": f"{thread.name or 'thread'} ({thread.tid})"})
        return pid, thread.tid

    def stream(self, pid: int, device: int, stream: int) -> tuple[int, int]:
        """The trace pid and tid of a stream of a process's device."""
        trace_pid = self.devices.setdefault((pid, device), DEVICE_PIDS + len(self.devices))
        self.process(trace_pid, f"device {device} of pid {pid}", 1)
        streams = self.streams.setdefault(trace_pid, {})
        if stream not in streams:
            streams[stream] = tid = len(streams) + 1
            name = "null stream" if stream == 0 else f"stream {stream:#x}"
            self.meta("thread_name", trace_pid, tid, {"name": name})
            self.meta("thread_sort_index", trace_pid, tid, {"sort_index": tid})
        return trace_pid, streams[stream]

    def add(self, where: tuple[int, int], ph: str, name: str, cat: str, time_ns: int, args: Json, **more: Any) -> None:
        pid, tid = where
        self.events.append(
            {"name": name, "cat": cat, "ph": ph, "ts": _us(time_ns), "pid": pid, "tid": tid, **more, "args": args}
        )

    def instant(self, where: tuple[int, int], name: str, cat: str, time_ns: int, args: Json) -> None:
        self.add(where, "i", name, cat, time_ns, args, s="t")

    def span(self, where: tuple[int, int], name: str, cat: str, start_ns: int, end_ns: int, args: Json) -> None:
        self.add(where, "X", name, cat, start_ns, args, dur=_us(end_ns - start_ns))


def _kernel(launch: LaunchEvent) -> str:
    return launch.kernel.demangled if launch.kernel else f"kernel at {launch.entry:#x}"


def _launch_args(launch: LaunchEvent) -> Json:
    return {
        "kernel": launch.kernel.name if launch.kernel else None,
        "grid": launch.grid,
        "block": launch.block,
        "shared_mem": launch.shared_mem,
        "stream": f"{launch.stream:#x}",
        "device": launch.device,
        "seq": launch.seq,
        "api": launch.api,
        "via": launch.via,
        "host_thread": launch.thread.tid,
    }


def _device_launch(trace: _Trace, launch: LaunchEvent, run: DispatchEvent | None) -> None:
    """The launch on its stream's trace thread: over its run, else at its
    start or at the launch."""
    where = trace.stream(launch.pid, launch.device, launch.stream)
    args = _launch_args(launch)
    if run is None:
        args["device_duration"] = "not known: the runtime does not say when kernels run (the simulated device does)"
        trace.instant(where, _kernel(launch), "kernel", launch.time_ns, args)
    elif run.end_ns is None:
        args |= {"dispatch": run.dispatch, "device_duration": "not known: the kernel did not end while the program ran"}
        trace.instant(where, _kernel(launch), "kernel", run.time_ns, args)
    else:
        args |= {"dispatch": run.dispatch, "device_duration": "measured on the simulated device"}
        trace.span(where, _kernel(launch), "kernel", run.time_ns, run.end_ns, args)


def _call(trace: _Trace, call: CallEvent) -> None:
    args: Json = {"stream": None if call.stream is None else f"{call.stream:#x}"}
    if call.bytes is not None:
        args |= {"bytes": call.bytes, "direction": call.direction}
    args["error"] = call.error.to_json() if call.error else None
    trace.span(trace.host(call.thread, call.pid), call.call, call.kind, call.time_ns, call.end_ns, args)


def _crash(trace: _Trace, crash: CrashEvent) -> None:
    args: Json = {"signal": crash.signal, "address": None if crash.address is None else f"{crash.address:#x}"}
    if crash.lane is not None:
        lane = crash.lane
        kernel = lane.kernel.demangled if lane.kernel else None
        args |= {"kernel": kernel, "dispatch": lane.dispatch, "block": lane.block, "thread": lane.thread_index}
    if crash.fault is not None:
        args["fault"] = crash.fault.get("description")
    trace.instant(trace.host(crash.thread), crash.signal, "crash", crash.time_ns, args)


def chrome_trace(events: list[Event]) -> Json:
    """The trace of a capture's events, as a JSON object."""
    start = next((e for e in events if isinstance(e, StartEvent)), None)
    trace = _Trace(start.program.rsplit("/", 1)[-1] if start else "program")
    runs = {(e.pid, e.seq): e for e in events if isinstance(e, DispatchEvent)}
    for event in events:
        if isinstance(event, (LaunchEvent, CallEvent)):
            trace.pid_of.setdefault(event.thread.tid, event.pid)
    for event in events:
        if isinstance(event, LaunchEvent):
            host = trace.host(event.thread, event.pid)
            refused = event.error is not None
            args = _launch_args(event) | {"error": event.error.to_json() if refused else None}
            trace.instant(host, f"launch {_kernel(event)}", "launch", event.time_ns, args)
            if not refused:
                _device_launch(trace, event, runs.get((event.pid, event.seq)))
        elif isinstance(event, CallEvent):
            _call(trace, event)
        elif isinstance(event, ErrorEvent):
            args = {"call": event.call, "code": event.code, "name": event.name}
            if event.kernel is not None:
                args["kernel"] = event.kernel.demangled
            trace.instant(trace.host(event.thread), f"{event.call}: {event.name or event.code}", "error",
                          event.time_ns, args)  # fmt: skip
        elif isinstance(event, CrashEvent):
            _crash(trace, event)
        elif isinstance(event, CheckEvent):
            trace.instant(trace.host(event.stack.thread), event.check, "check", event.time_ns, {"report": event.report})
        elif isinstance(event, (StopEvent, ExitEvent)):
            kind = event.reason if isinstance(event, StopEvent) else "exit"
            args = {"status": event.status, "signal": event.signal} if isinstance(event, ExitEvent) else {}
            trace.add((next(iter(trace.pid_of.values()), 0), 0), "i", kind, kind, event.time_ns, args, s="g")
    other = {"program": start.program if start else None, "clock": "CLOCK_MONOTONIC"}
    return {"traceEvents": trace.events, "displayTimeUnit": "ns", "otherData": other}
