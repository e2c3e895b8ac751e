"""The events of ``gpusym capture``, one class per kind.  ``to_json`` gives
the stable JSON form documented in the README ("Events", schema
``SCHEMA_VERSION``: fields are only ever added); ``from_json`` reads what
gdb's side (gdbext/capture/session.py) writes for gpusym/capture_under_gdb.py.

Frames and a crash's fault stay JSON objects: their fields depend on where
they come from (gdb's frames, recorded launch stacks; the kind of fault), and
unknown ones are left out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

SCHEMA_VERSION = 1

Json = dict[str, Any]
#: ``{function, address, file, line, ...}``, as the README lists them.
Frame = dict[str, Any]


@dataclass(slots=True)
class HostThread:
    """A host thread: gdb's number for the threads gdb saw stop, not for
    those only a launch record names."""

    tid: int
    name: str | None
    number: int | None = None

    def to_json(self) -> Json:
        out: Json = {} if self.number is None else {"number": self.number}
        return {**out, "tid": self.tid, "name": self.name}

    @classmethod
    def from_json(cls, data: Json) -> HostThread:
        return cls(data["tid"], data.get("name"), data.get("number"))


@dataclass(slots=True)
class KernelName:
    """A launched kernel: its device name, demangled, and the file it came
    from (None for a module loaded from memory)."""

    name: str
    demangled: str
    module: str | None

    def to_json(self) -> Json:
        return {"name": self.name, "demangled": self.demangled, "module": self.module}


@dataclass(slots=True)
class LaneKernel:
    """The kernel a simulated GPU thread runs, as the runtime names it."""

    name: str
    demangled: str

    def to_json(self) -> Json:
        return {"name": self.name, "demangled": self.demangled}


@dataclass(slots=True)
class Lane:
    """Where a simulated GPU thread was: its dispatch, block and thread, and,
    where the runtime still has the dispatch, its kernel and configuration."""

    dispatch: int
    block: list[int]
    thread_index: list[int]
    kernel: LaneKernel | None = None
    grid: list[int] | None = None
    block_dim: list[int] | None = None

    def to_json(self) -> Json:
        out: Json = {"dispatch": self.dispatch, "block": self.block, "thread_index": self.thread_index}
        if self.kernel is not None:
            out["kernel"] = self.kernel.to_json()
        if self.grid is not None:
            out["grid"] = self.grid
        if self.block_dim is not None:
            out["block_dim"] = self.block_dim
        return out

    @classmethod
    def from_json(cls, data: Json | None) -> Lane | None:
        if data is None:
            return None
        kernel = data.get("kernel")
        return cls(
            data["dispatch"],
            data["block"],
            data["thread_index"],
            LaneKernel(kernel["name"], kernel["demangled"]) if kernel else None,
            data.get("grid"),
            data.get("block_dim"),
        )


@dataclass(slots=True)
class ThreadStack:
    """A thread where a stop found it."""

    thread: HostThread
    lane: Lane | None
    backtrace: list[Frame]

    def to_json(self) -> Json:
        out: Json = {"thread": self.thread.to_json()}
        if self.lane is not None:
            out["lane"] = self.lane.to_json()
        return {**out, "backtrace": self.backtrace}

    @classmethod
    def from_json(cls, data: Json) -> ThreadStack:
        return cls(HostThread.from_json(data["thread"]), Lane.from_json(data.get("lane")), data["backtrace"])


@dataclass(slots=True)
class Refusal:
    """The error a runtime refused a launch with."""

    code: int
    name: str | None

    def to_json(self) -> Json:
        return {"code": self.code, "name": self.name}


@dataclass(slots=True)
class Configuration:
    """A launch configuration and how many launches had it."""

    grid: list[int]
    block: list[int]
    shared_mem: int
    launches: int

    def to_json(self) -> Json:
        return {"grid": self.grid, "block": self.block, "shared_mem": self.shared_mem, "launches": self.launches}


@dataclass(slots=True)
class KernelLaunches:
    """One kernel's launches, refused ones apart, with their most frequent
    configurations."""

    kernel: str | None  # None when nothing names the handle
    demangled: str  # the handle's address when nothing names it
    launches: int
    refused: int
    configurations: list[Configuration]
    refused_configurations: list[Configuration]

    def to_json(self) -> Json:
        return {
            "kernel": self.kernel,
            "demangled": self.demangled,
            "launches": self.launches,
            "refused": self.refused,
            "configurations": [c.to_json() for c in self.configurations],
            "refused_configurations": [c.to_json() for c in self.refused_configurations],
        }


# -- the events --------------------------------------------------------------


@dataclass(slots=True)
class StartEvent:
    KIND: ClassVar[str] = "start"
    time_ns: int
    program: str
    args: list[str]
    gdb: str  # its version
    schema: int = SCHEMA_VERSION

    def to_json(self) -> Json:
        return {
            "event": self.KIND,
            "time_ns": self.time_ns,
            "schema": self.schema,
            "program": self.program,
            "args": self.args,
            "gdb": self.gdb,
        }


@dataclass(slots=True)
class LaunchEvent:
    """A kernel launch; `returned` says whether its call returned, and then
    `error` is why the runtime refused it (None: it accepted it)."""

    KIND: ClassVar[str] = "launch"
    time_ns: int
    pid: int
    seq: int  # per process
    kernel: KernelName | None  # None when nothing names the handle
    entry: int
    api: str
    via: str  # <<<>>>, handle or module
    grid: list[int]
    block: list[int]
    shared_mem: int
    stream: int
    device: int
    thread: HostThread
    backtrace: list[Frame] | None = None  # None: not recorded
    returned: bool = False
    error: Refusal | None = None
    form: str | None = None  # "fast" or "debug" on the simulated device, None from another runtime

    def to_json(self) -> Json:
        out: Json = {
            "event": self.KIND,
            "time_ns": self.time_ns,
            "pid": self.pid,
            "seq": self.seq,
            "kernel": self.kernel.to_json() if self.kernel else None,
            "entry": self.entry,
            "api": self.api,
            "via": self.via,
            "grid": self.grid,
            "block": self.block,
            "shared_mem": self.shared_mem,
            "stream": self.stream,
            "device": self.device,
            "thread": self.thread.to_json(),
        }
        if self.backtrace is not None:
            out["backtrace"] = self.backtrace
        if self.returned:
            out["error"] = self.error.to_json() if self.error else None
        if self.form is not None:
            out["form"] = self.form
        return out


#: A copy's direction by its hipMemcpyKind (cudaMemcpyKind alike).
DIRECTIONS = ("host-to-host", "host-to-device", "device-to-host", "device-to-device", "default")


@dataclass(slots=True)
class CallEvent:
    """A copy or a synchronisation (recorded for ``--trace``): the call on
    its host thread, from `time_ns` to `end_ns`; `error` as a launch's."""

    KINDS: ClassVar[tuple[str, ...]] = ("copy", "sync")
    time_ns: int
    end_ns: int
    pid: int
    call: str
    stream: int | None  # None: the whole device (hipDeviceSynchronize)
    thread: HostThread
    error: Refusal | None
    bytes: int | None = None  # copies only
    direction: str | None = None  # copies only: one of DIRECTIONS

    @property
    def kind(self) -> str:
        return "sync" if self.bytes is None else "copy"

    def to_json(self) -> Json:
        out: Json = {"event": self.kind, "time_ns": self.time_ns, "end_ns": self.end_ns, "pid": self.pid,
                     "call": self.call, "stream": self.stream}  # fmt: skip
        if self.bytes is not None:
            out |= {"bytes": self.bytes, "direction": self.direction}
        error = self.error.to_json() if self.error else None
        return {**out, "thread": self.thread.to_json(), "error": error}


@dataclass(slots=True)
class DispatchEvent:
    """A launch's run on the simulated device (recorded for ``--trace``):
    from its first block's start (`time_ns`) to its last block's end
    (`end_ns`; None when it did not end while the program ran)."""

    KIND: ClassVar[str] = "dispatch"
    time_ns: int
    end_ns: int | None
    pid: int
    seq: int  # the launch's
    dispatch: int  # the runtime's id

    def to_json(self) -> Json:
        return {"event": self.KIND, "time_ns": self.time_ns, "end_ns": self.end_ns, "pid": self.pid,
                "seq": self.seq, "dispatch": self.dispatch}  # fmt: skip


@dataclass(slots=True)
class ErrorEvent:
    """A failing runtime call, seen by gdb (an api-error stop) or in a
    launch's result record; `kernel` is the launch's kernel where the call
    was a launch recorded with its result, else None."""

    KIND: ClassVar[str] = "error"
    time_ns: int
    call: str
    code: int
    name: str | None
    thread: HostThread
    backtrace: list[Frame]  # from the failing call
    kernel: KernelName | None = None

    def to_json(self) -> Json:
        return {
            "event": self.KIND,
            "time_ns": self.time_ns,
            "call": self.call,
            "code": self.code,
            "name": self.name,
            "thread": self.thread.to_json(),
            "kernel": self.kernel.to_json() if self.kernel else None,
            "backtrace": self.backtrace,
        }

    @classmethod
    def from_json(cls, data: Json) -> ErrorEvent:
        kernel = data.get("kernel")
        return cls(
            data["time_ns"],
            data["call"],
            data["code"],
            data["name"],
            HostThread.from_json(data["thread"]),
            data["backtrace"],
            KernelName(**kernel) if kernel else None,
        )


@dataclass(slots=True)
class CrashEvent:
    """A fatal signal; in a kernel, with the lane and why it stopped."""

    KIND: ClassVar[str] = "crash"
    time_ns: int
    signal: str
    address: int | None
    thread: HostThread
    backtrace: list[Frame]
    lane: Lane | None = None
    fault: Json | None = None  # README: memory, stack, assertion or abort

    def to_json(self) -> Json:
        out: Json = {
            "event": self.KIND,
            "time_ns": self.time_ns,
            "signal": self.signal,
            "address": self.address,
            "thread": self.thread.to_json(),
        }
        if self.lane is not None:
            out["lane"] = self.lane.to_json()
        if self.fault is not None:
            out["fault"] = self.fault
        return {**out, "backtrace": self.backtrace}

    @classmethod
    def from_json(cls, data: Json) -> CrashEvent:
        return cls(
            data["time_ns"],
            data["signal"],
            data["address"],
            HostThread.from_json(data["thread"]),
            data["backtrace"],
            Lane.from_json(data.get("lane")),
            data.get("fault"),
        )


@dataclass(slots=True)
class KernelStopEvent:
    """A stop at a kernel breakpoint (``--break``)."""

    KIND: ClassVar[str] = "kernel-stop"
    time_ns: int
    stack: ThreadStack

    def to_json(self) -> Json:
        return {"event": self.KIND, "time_ns": self.time_ns, **self.stack.to_json()}

    @classmethod
    def from_json(cls, data: Json) -> KernelStopEvent:
        return cls(data["time_ns"], ThreadStack.from_json(data))


@dataclass(slots=True)
class CheckEvent:
    """A report of a check the program goes on from (racecheck, synccheck,
    initcheck: docs/runtime.md, "Checks"), at the lane that made it."""

    KIND: ClassVar[str] = "check"
    time_ns: int
    check: str  # racecheck, synccheck or initcheck
    report: str  # the runtime's, without "gpusym: "
    stack: ThreadStack

    def to_json(self) -> Json:
        return {"event": self.KIND, "time_ns": self.time_ns, "check": self.check, "report": self.report,
                **self.stack.to_json()}  # fmt: skip

    @classmethod
    def from_json(cls, data: Json) -> CheckEvent:
        return cls(data["time_ns"], data["check"], data["report"], ThreadStack.from_json(data))


@dataclass(slots=True)
class StopEvent:
    """The program stopped by a timeout or an interrupt, with every
    thread's stack (none when it had to be killed)."""

    KINDS: ClassVar[tuple[str, ...]] = ("timeout", "interrupt")
    time_ns: int
    reason: str  # one of KINDS
    threads: list[ThreadStack]

    def to_json(self) -> Json:
        return {"event": self.reason, "time_ns": self.time_ns, "threads": [t.to_json() for t in self.threads]}

    @classmethod
    def from_json(cls, data: Json) -> StopEvent:
        return cls(data["time_ns"], data["event"], [ThreadStack.from_json(t) for t in data["threads"]])


@dataclass(slots=True)
class ExitEvent:
    """The last event: how the program ended, the counts, its output."""

    KIND: ClassVar[str] = "exit"
    time_ns: int
    status: int | None
    signal: str | None
    killed_by: str | None  # timeout or interrupt: the capture stopped it
    duration_s: float
    launches: int  # accepted ones
    refused_launches: int
    launch_events: int
    errors: int
    crashes: int
    kernels: list[KernelLaunches]
    stdout: str
    stderr: str
    exit_code: int  # capture's own
    stdout_truncated: bool = False
    stderr_truncated: bool = False

    def to_json(self) -> Json:
        out: Json = {
            "event": self.KIND,
            "time_ns": self.time_ns,
            "status": self.status,
            "signal": self.signal,
            "killed_by": self.killed_by,
            "duration_s": self.duration_s,
            "launches": self.launches,
            "refused_launches": self.refused_launches,
            "launch_events": self.launch_events,
            "errors": self.errors,
            "crashes": self.crashes,
            "kernels": [k.to_json() for k in self.kernels],
            "stdout": self.stdout,
        }
        if self.stdout_truncated:
            out["stdout_truncated"] = True
        out["stderr"] = self.stderr
        if self.stderr_truncated:
            out["stderr_truncated"] = True
        return {**out, "exit_code": self.exit_code}


# -- what only gdb's side writes, for the runner -------------------------------


@dataclass(slots=True)
class SessionEvent:
    """gdb's side started: capture_under_gdb.py makes it the start event."""

    KIND: ClassVar[str] = "session"
    time_ns: int
    gdb: str

    def to_json(self) -> Json:
        return {"event": self.KIND, "time_ns": self.time_ns, "gdb": self.gdb}

    @classmethod
    def from_json(cls, data: Json) -> SessionEvent:
        return cls(data["time_ns"], data["gdb"])


@dataclass(slots=True)
class ProgramEnd:
    """How the program ended, as gdb saw it: capture_under_gdb.py makes it the exit event."""

    KIND: ClassVar[str] = "exit"
    time_ns: int
    code: int | None
    signal: str | None
    killed_by: str | None = None

    def to_json(self) -> Json:
        return {
            "event": self.KIND,
            "time_ns": self.time_ns,
            "code": self.code,
            "signal": self.signal,
            "killed_by": self.killed_by,
        }

    @classmethod
    def from_json(cls, data: Json) -> ProgramEnd:
        return cls(data["time_ns"], data["code"], data["signal"], data.get("killed_by"))


@dataclass(slots=True)
class CaptureErrorEvent:
    """gdb's side could not go on; `cause` is "extension" when the
    extension did not load."""

    KIND: ClassVar[str] = "capture-error"
    time_ns: int
    message: str
    cause: str | None = None

    def to_json(self) -> Json:
        return {"event": self.KIND, "time_ns": self.time_ns, "message": self.message, "cause": self.cause}

    @classmethod
    def from_json(cls, data: Json) -> CaptureErrorEvent:
        return cls(data["time_ns"], data["message"], data.get("cause"))


Event = (
    StartEvent
    | LaunchEvent
    | CallEvent
    | DispatchEvent
    | ErrorEvent
    | CrashEvent
    | KernelStopEvent
    | CheckEvent
    | StopEvent
    | ExitEvent
)
GdbEvent = (
    SessionEvent | ErrorEvent | CrashEvent | KernelStopEvent | CheckEvent | StopEvent | ProgramEnd | CaptureErrorEvent
)

_GDB_EVENTS = {
    kind.KIND: kind
    for kind in (SessionEvent, ErrorEvent, CrashEvent, KernelStopEvent, CheckEvent, ProgramEnd, CaptureErrorEvent)
}
_GDB_EVENTS.update(dict.fromkeys(StopEvent.KINDS, StopEvent))


def from_json(data: Json) -> GdbEvent:
    """The event of a JSON line gdb's side wrote."""
    return _GDB_EVENTS[data["event"]].from_json(data)
