"""Launch records (from the preloaded interposer) made into capture events.

Each process gets its own symbolizer, fed by its module-map records; a
launch's kernel is the symbol at the handle it passed (for a function of a
module loaded at run time, the name its function record gives; for a CUDA
kernel object, the handle its kernel record gives), else the kernel of the
stub that launched it (nvcc's <<<>>> when no kernel record named the object:
its inline launch function may come between them), and its host
stack the recorded return addresses, symbolized once per distinct address.

A launch is complete when its call's result is recorded: one the runtime
refused (an error result) carries the error and is counted apart from the
launches; one whose call never returned (the program ended in it) is
completed at the end without a result.  Counting covers every launch of a
selected kernel; events are sampled (`every`) and capped (`max_launches`) per
the options.  A refused launch is also an error event, unless gdb already
reported that very call (with the simulated runtime, api-error stops do).

With a timeline (``--trace``), copy and synchronisation records become call
events, and the dispatch records of a launch whose event was emitted become
its dispatch event, after it (a kernel may end before its launch call
returns), once the run ended, or at the end for a run that never did.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from capture.events import (
    DIRECTIONS,
    CallEvent,
    Configuration,
    DispatchEvent,
    ErrorEvent,
    Frame,
    HostThread,
    KernelLaunches,
    KernelName,
    LaunchEvent,
    Refusal,
)
from capture.records import Call, Dispatch, Function, KernelObject, Launch, Modules, Record, Result, Thread
from symbols.demangling.gnu import demangle
from symbols.mangling import parse_stub
from symbols.symbolize import HostFrame, Symbolizer

ENTRY_POINTS = (
    "hipLaunchKernel",
    "hipExtLaunchKernel",
    "hipLaunchCooperativeKernel",
    "hipModuleLaunchKernel",
    "cudaLaunchKernel",
    "__cudaLaunchKernel",
    "cudaLaunchKernelExC",
    "__gpusym_device_launch",
)
#: The copies and synchronisations the interposer records (its CALL_* order).
CALLS = (
    "hipMemcpy",
    "hipMemcpyAsync",
    "hipMemcpyWithStream",
    "hipMemcpyHtoD",
    "hipMemcpyDtoH",
    "hipMemcpyDtoD",
    "hipMemcpyHtoDAsync",
    "hipMemcpyDtoHAsync",
    "hipMemcpyDtoDAsync",
    "cudaMemcpy",
    "cudaMemcpyAsync",
    "hipDeviceSynchronize",
    "hipStreamSynchronize",
    "cudaDeviceSynchronize",
    "cudaStreamSynchronize",
)
DEVICE_SYNCHRONIZE = {"hipDeviceSynchronize", "cudaDeviceSynchronize"}
MODULE_LAUNCH = 3  # hipModuleLaunchKernel: the entry is a hipFunction_t, not a host handle
KERNEL_OBJECT_LAUNCH = 5  # __cudaLaunchKernel: the entry is a cudaKernel_t
DEVICE_LAUNCH = 7  # __gpusym_device_launch: a kernel's thread launched; the entry is the kernel's code
LogEvent = LaunchEvent | ErrorEvent | CallEvent | DispatchEvent
#: A launch's form by the simulated runtime's enum gpusym_dispatch_form: its
#: kernel has no fast form, the debuggable form was asked for, the fast form.
_FORMS = {0: "debug", 1: "debug", 2: "fast"}
#: How deep a launch's stub may be among its frames (nvcc's inline launch function before it).
STUB_DEPTH = 2


@dataclass
class Selection:
    """Which launches become events."""

    kernels: re.Pattern[str] | None = None
    every: int = 1
    max_launches: int | None = None
    backtraces: bool = True
    timeline: bool = False  # dispatch events for the launch events (--trace)


@dataclass
class KernelCount:
    name: str | None
    demangled: str | None
    launches: int = 0  # accepted ones
    refused: int = 0
    configurations: Counter = field(default_factory=Counter)  # of the accepted ones
    refused_configurations: Counter = field(default_factory=Counter)


def _stub(frames: list[HostFrame]) -> HostFrame | None:
    """The kernel stub that made the launch call, if one did."""
    return next((frame for frame in frames[:STUB_DEPTH] if frame.role == "kernel-stub"), None)


def frame_json(frame: HostFrame) -> Frame:
    """A recorded frame in the form of gdb's frames in other events:
    ``function`` as a backtrace shows it, ``symbol`` when that differs;
    unknown fields left out."""
    fields = {key: value for key, value in frame.to_json().items() if value is not None}
    symbol = fields.pop("function", None)
    fields["function"] = fields.pop("demangled", symbol)
    if symbol and symbol != fields["function"]:
        fields["symbol"] = symbol
    return fields


class LaunchLog:
    """Turns records into events, keeping per-kernel counts."""

    def __init__(self, selection: Selection):
        self.selection = selection
        self.symbolizers: dict[int, Symbolizer] = {}
        self.threads: dict[tuple[int, int], str] = {}
        self.functions: dict[tuple[int, int], Function] = {}  # by (pid, entry)
        self.kernel_objects: dict[tuple[int, int], int] = {}  # (pid, object) -> handle
        # The launch each (pid, tid) is in, with its event (None when not
        # selected): the call's result follows it.
        self.pending: dict[tuple[int, int], tuple[Launch, LaunchEvent | None]] = {}
        # With a timeline, by (pid, seq): launches whose event was emitted and
        # whose run has not ended; the last dispatch record of selected launches.
        self.awaiting: set[tuple[int, int]] = set()
        self.runs: dict[tuple[int, int], Dispatch] = {}
        self.counts: dict[str, KernelCount] = {}
        self.per_kernel: Counter = Counter()
        self.emitted = 0
        self.total = 0  # launches of selected kernels, refused ones left out
        self.refused = 0

    def events(self, records: list[Record], reported_errors: list[ErrorEvent]) -> list[LogEvent]:
        """Events for `records`; `reported_errors` are gdb's error events so far."""
        out: list[LogEvent] = []
        for record in records:
            if isinstance(record, Modules):
                symbolizer = self._symbolizer(record.pid)
                for module in record.modules:
                    symbolizer.add_module(module.path, module.base, module.segments)
            elif isinstance(record, Thread):
                self.threads[(record.pid, record.tid)] = record.name
            elif isinstance(record, Function):
                self.functions[(record.pid, record.entry)] = record
            elif isinstance(record, KernelObject):
                self.kernel_objects[(record.pid, record.object)] = record.entry
            elif isinstance(record, Launch):
                if (unfinished := self.pending.pop((record.pid, record.tid), None)) is not None:
                    out += self._complete(*unfinished, None, reported_errors)  # its call never returned
                self.pending[(record.pid, record.tid)] = (record, self._launch(record))
            elif isinstance(record, Result):
                launch, event = self.pending.get((record.pid, record.tid), (None, None))
                if launch is not None and launch.seq == record.seq:
                    del self.pending[(record.pid, record.tid)]
                    out += self._complete(launch, event, record, reported_errors)
            elif isinstance(record, Call):
                out.append(self._call(record))
            elif isinstance(record, Dispatch):
                out += self._dispatch(record)
        return out

    def unfinished(self, reported_errors: list[ErrorEvent]) -> list[LogEvent]:
        """At the end: events of the launches whose call never returned."""
        out: list[LogEvent] = []
        for launch, event in self.pending.values():
            out += self._complete(launch, event, None, reported_errors)
        self.pending.clear()
        out += [_run(self.runs.pop(key)) for key in self.awaiting if key in self.runs]  # runs that never ended
        self.awaiting.clear()
        return out

    def _symbolizer(self, pid: int) -> Symbolizer:
        if pid not in self.symbolizers:
            self.symbolizers[pid] = Symbolizer()
        return self.symbolizers[pid]

    def _function(self, launch: Launch) -> Function | None:
        """What names the function a module launch or a launch by device
        code starts: a kernel's code, not a host stub (the host side of a
        __host__ __device__ function launches through its stub)."""
        function = self.functions.get((launch.pid, launch.entry))
        if function is None or not function.name or parse_stub(function.name) is not None:
            return None
        return function

    def _kernel(self, launch: Launch, frames: list[HostFrame]) -> KernelName | None:
        """The launched kernel; None when nothing names it."""
        if launch.entry_point in (MODULE_LAUNCH, DEVICE_LAUNCH):
            function = self._function(launch)
            if function is not None:
                demangled = demangle(function.name) or function.name
                return KernelName(function.name, demangled, function.module)
            if launch.entry_point == MODULE_LAUNCH:
                return None
            # A __host__ __device__ function's launch from host code: the
            # entry is the kernel's host stub, named as a handle is.
        entry = launch.entry
        if launch.entry_point == KERNEL_OBJECT_LAUNCH:
            entry = self.kernel_objects.get((launch.pid, entry), 0)
        handle = self._symbolizer(launch.pid).data_symbol(entry) if entry else None
        if handle is not None and handle.function is not None:
            demangled = handle.kernel or handle.demangled or handle.function
            return KernelName(handle.function, demangled, handle.module)
        stub = _stub(frames)
        parsed = parse_stub(stub.function) if stub is not None and stub.function else None
        if parsed is None:
            return None
        return KernelName(parsed.kernel, stub.kernel or parsed.kernel, stub.module)

    def _selected(self, kernel: KernelName | None) -> bool:
        pattern = self.selection.kernels
        if pattern is None:
            return True
        return kernel is not None and bool(pattern.search(kernel.name) or pattern.search(kernel.demangled))

    def _launch(self, launch: Launch) -> LaunchEvent | None:
        """The launch's event, its result not known yet; None when its kernel
        is not selected.  Named now: the module map is the launch's own."""
        frames = self._frames(launch)
        kernel = self._kernel(launch, frames)
        if not self._selected(kernel):
            return None
        api = ENTRY_POINTS[launch.entry_point] if launch.entry_point < len(ENTRY_POINTS) else "unknown"
        thread = HostThread(launch.tid, self.threads.get((launch.pid, launch.tid)))
        backtrace = [frame_json(frame) for frame in frames] if self.selection.backtraces and launch.detailed else None
        return LaunchEvent(
            launch.time_ns,
            launch.pid,
            launch.seq,
            kernel,
            launch.entry,
            api,
            self._via(launch, frames),
            list(launch.grid),
            list(launch.block),
            launch.shmem,
            launch.stream,
            launch.device,
            thread,
            backtrace,
        )

    def _call(self, call: Call) -> CallEvent:
        name = CALLS[call.call] if call.call < len(CALLS) else "unknown"
        copy = call.direction >= 0
        return CallEvent(
            call.start_ns,
            call.time_ns,
            call.pid,
            name,
            None if name in DEVICE_SYNCHRONIZE else call.stream,
            HostThread(call.tid, self.threads.get((call.pid, call.tid))),
            Refusal(call.result, call.name) if call.result else None,
            call.bytes if copy else None,
            (DIRECTIONS[call.direction] if call.direction < len(DIRECTIONS) else "unknown") if copy else None,
        )

    def _dispatch(self, dispatch: Dispatch) -> list[DispatchEvent]:
        """The run's event once it ended, if its launch's event was emitted;
        kept for later while its launch is selected and its call has not returned."""
        key = (dispatch.pid, dispatch.seq)
        if not dispatch.start_ns:  # its start was lost: no honest run
            return []
        pending = any(event and (launch.pid, launch.seq) == key for launch, event in self.pending.values())
        if key in self.awaiting or pending:
            self.runs[key] = dispatch
        if key in self.awaiting and dispatch.end_ns:
            self.awaiting.discard(key)
            return [_run(self.runs.pop(key))]
        return []

    def _complete(
        self, launch: Launch, event: LaunchEvent | None, result: Result | None, reported: list[ErrorEvent]
    ) -> list[LogEvent]:
        """Counts the launch by its `result` (None: its call never returned);
        its event, when sampled, and an error event when it was refused."""
        if event is None:
            return []
        kernel = event.kernel
        key = kernel.name if kernel else f"{launch.entry:#x}"
        if key not in self.counts:
            self.counts[key] = KernelCount(kernel and kernel.name, kernel and kernel.demangled)
        count = self.counts[key]
        refused = result is not None and result.result != 0
        configuration = (tuple(launch.grid), tuple(launch.block), launch.shmem)
        if refused:
            count.refused += 1
            count.refused_configurations[configuration] += 1
            self.refused += 1
        else:
            count.launches += 1
            count.configurations[configuration] += 1
            self.total += 1
        if result is not None:
            event.returned = True
            event.error = Refusal(result.result, result.name) if refused else None
            event.form = _FORMS.get(result.form) if not refused else None
        index = self.per_kernel[key]
        self.per_kernel[key] += 1
        out: list[LogEvent] = []
        cap = self.selection.max_launches
        key = (launch.pid, launch.seq)
        run = self.runs.pop(key, None)
        if not (index % self.selection.every or (cap is not None and self.emitted >= cap)):
            self.emitted += 1
            out.append(event)
            if run is not None and (run.end_ns or result is None):
                out.append(_run(run))  # ended, or its call never returned: a crash in the kernel it ran
            elif self.selection.timeline and result is not None and not refused:
                self.awaiting.add(key)
                if run is not None:
                    self.runs[key] = run
        if refused and not self._reported(launch, result, reported):
            out.append(self._failure(event, result))
        return out

    def _via(self, launch: Launch, frames: list[HostFrame]) -> str:
        if launch.entry_point == MODULE_LAUNCH:
            return "module"
        if launch.entry_point == DEVICE_LAUNCH and self._function(launch) is not None:
            return "device"
        if launch.entry_point == KERNEL_OBJECT_LAUNCH:
            return "<<<>>>"  # nvcc's launch code alone calls __cudaLaunchKernel
        return "<<<>>>" if _stub(frames) is not None else "handle"

    def _frames(self, launch: Launch) -> list[HostFrame]:
        symbolizer = self._symbolizer(launch.pid)
        return [symbolizer.frame(address) for address in launch.frames]

    @staticmethod
    def _reported(launch: Launch, result: Result, reported: list[ErrorEvent]) -> bool:
        """Whether gdb stopped in this very call and said so already."""
        return any(
            error.thread.tid == result.tid and launch.time_ns <= error.time_ns <= result.time_ns for error in reported
        )

    @staticmethod
    def _failure(event: LaunchEvent, result: Result) -> ErrorEvent:
        return ErrorEvent(
            result.time_ns, event.api, result.result, result.name, event.thread, event.backtrace or [], event.kernel
        )

    def summary(self) -> list[KernelLaunches]:
        """Launch counts per kernel (refused launches apart), most launched first."""
        return [
            KernelLaunches(
                count.name,
                count.demangled or key,
                count.launches,
                count.refused,
                _configurations(count.configurations),
                _configurations(count.refused_configurations),
            )
            for key, count in sorted(self.counts.items(), key=lambda item: -item[1].launches)
        ]


def _run(dispatch: Dispatch) -> DispatchEvent:
    return DispatchEvent(dispatch.start_ns, dispatch.end_ns or None, dispatch.pid, dispatch.seq, dispatch.id)


def _configurations(counted: Counter) -> list[Configuration]:
    """The five most frequent configurations, with their launches."""
    return [Configuration(list(grid), list(block), shmem, n) for (grid, block, shmem), n in counted.most_common(5)]
