"""Launch records (from the preloaded interposer) made into capture events.

Each process gets its own symbolizer, fed by its module-map records; a
launch's kernel is the symbol at the handle it passed (for a function of a
module loaded at run time, the name its function record gives), and its host
stack the recorded return addresses, symbolized once per distinct address.  Counting
covers every launch of a selected kernel; events are sampled (`every`) and
capped (`max_launches`) per the options.  A launch call that failed becomes an
error event, unless gdb already reported that very call (with the simulated
runtime, api-error stops do).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from gdbext.capture.records import Function, Launch, Modules, Record, Result, Thread
from symbols.demangle import demangle
from symbols.symbolize import HostFrame, Symbolizer

ENTRY_POINTS = ("hipLaunchKernel", "hipExtLaunchKernel", "hipLaunchCooperativeKernel", "hipModuleLaunchKernel")
MODULE_LAUNCH = 3  # hipModuleLaunchKernel: the entry is a hipFunction_t, not a host handle


@dataclass
class Selection:
    """Which launches become events."""

    kernels: re.Pattern[str] | None = None
    every: int = 1
    max_launches: int | None = None
    backtraces: bool = True


@dataclass
class KernelCount:
    name: str | None
    demangled: str | None
    launches: int = 0
    configurations: Counter = field(default_factory=Counter)


def frame_json(frame: HostFrame) -> dict[str, Any]:
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
        # The last launch of each (pid, tid): a failed call's result follows it.
        self.pending: dict[tuple[int, int], tuple[Launch, dict[str, Any] | None]] = {}
        self.counts: dict[str, KernelCount] = {}
        self.per_kernel: Counter = Counter()
        self.emitted = 0
        self.total = 0

    def events(self, records: list[Record], reported_errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Events for `records`; `reported_errors` are gdb's error events so far."""
        out = []
        for record in records:
            if isinstance(record, Modules):
                symbolizer = self._symbolizer(record.pid)
                for module in record.modules:
                    symbolizer.add_module(module.path, module.base, module.segments)
            elif isinstance(record, Thread):
                self.threads[(record.pid, record.tid)] = record.name
            elif isinstance(record, Function):
                self.functions[(record.pid, record.entry)] = record
            elif isinstance(record, Launch):
                event = self._launch(record)
                if event is not None:
                    out.append(event)
            elif isinstance(record, Result):
                event = self._failure(record, reported_errors)
                if event is not None:
                    out.append(event)
        return out

    def _symbolizer(self, pid: int) -> Symbolizer:
        return self.symbolizers.setdefault(pid, Symbolizer())

    def _kernel(self, launch: Launch) -> dict[str, Any] | None:
        """``name``, ``demangled`` and ``module`` (the file it came from) of
        the launched kernel; None when nothing names it."""
        if launch.entry_point == MODULE_LAUNCH:
            function = self.functions.get((launch.pid, launch.entry))
            if function is None or not function.name:
                return None
            demangled = demangle(function.name) or function.name
            return {"name": function.name, "demangled": demangled, "module": function.module}
        handle = self._symbolizer(launch.pid).data_symbol(launch.entry)
        if handle.function is None:
            return None
        demangled = handle.kernel or handle.demangled or handle.function
        return {"name": handle.function, "demangled": demangled, "module": handle.module}

    def _selected(self, kernel: dict[str, Any] | None) -> bool:
        pattern = self.selection.kernels
        if pattern is None:
            return True
        return kernel is not None and bool(pattern.search(kernel["name"]) or pattern.search(kernel["demangled"]))

    def _launch(self, launch: Launch) -> dict[str, Any] | None:
        kernel = self._kernel(launch)
        if not self._selected(kernel):
            self.pending[(launch.pid, launch.tid)] = (launch, None)
            return None
        key = kernel["name"] if kernel else f"{launch.entry:#x}"
        count = self.counts.setdefault(key, KernelCount(kernel and kernel["name"], kernel and kernel["demangled"]))
        count.launches += 1
        count.configurations[(tuple(launch.grid), tuple(launch.block), launch.shmem)] += 1
        self.total += 1
        index = self.per_kernel[key]
        self.per_kernel[key] += 1
        frames = self._frames(launch)
        event = {
            "event": "launch",
            "time_ns": launch.time_ns,
            "pid": launch.pid,
            "seq": launch.seq,
            "kernel": kernel,
            "entry": launch.entry,
            "api": ENTRY_POINTS[launch.entry_point] if launch.entry_point < len(ENTRY_POINTS) else "unknown",
            "via": self._via(launch, frames),
            "grid": list(launch.grid),
            "block": list(launch.block),
            "shared_mem": launch.shmem,
            "stream": launch.stream,
            "device": launch.device,
            "thread": {"tid": launch.tid, "name": self.threads.get((launch.pid, launch.tid))},
        }
        if self.selection.backtraces and launch.detailed:
            event["backtrace"] = [frame_json(frame) for frame in frames]
        self.pending[(launch.pid, launch.tid)] = (launch, event)
        cap = self.selection.max_launches
        if index % self.selection.every or (cap is not None and self.emitted >= cap):
            return None
        self.emitted += 1
        return event

    @staticmethod
    def _via(launch: Launch, frames: list[HostFrame]) -> str:
        if launch.entry_point == MODULE_LAUNCH:
            return "module"
        return "<<<>>>" if frames and frames[0].role == "kernel-stub" else "handle"

    def _frames(self, launch: Launch) -> list[HostFrame]:
        symbolizer = self._symbolizer(launch.pid)
        return [symbolizer.frame(address) for address in launch.frames]

    def _failure(self, result: Result, reported: list[dict[str, Any]]) -> dict[str, Any] | None:
        launch, event = self.pending.get((result.pid, result.tid), (None, None))
        if launch is None or event is None or launch.seq != result.seq:
            return None
        for error in reported:
            if error["thread"]["tid"] == result.tid and launch.time_ns <= error["time_ns"] <= result.time_ns:
                return None  # gdb stopped in this very call and said so already
        return {
            "event": "error",
            "time_ns": result.time_ns,
            "call": event["api"],
            "code": result.result,
            "name": result.name,
            "thread": event["thread"],
            "kernel": event["kernel"],
            "backtrace": event.get("backtrace", []),
        }

    def summary(self) -> list[dict[str, Any]]:
        """Launch counts per kernel, most launched first."""
        rows = []
        for key, count in sorted(self.counts.items(), key=lambda item: -item[1].launches):
            rows.append({
                "kernel": count.name,
                "demangled": count.demangled or key,
                "launches": count.launches,
                "configurations": [
                    {"grid": list(grid), "block": list(block), "shared_mem": shmem, "launches": n}
                    for (grid, block, shmem), n in count.configurations.most_common(5)
                ],
            })  # fmt: skip
        return rows
