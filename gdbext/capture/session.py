"""The gdb side of ``gpusym capture``: runs the program once, unattended,
and writes what must be seen live as JSON lines: crashes (with device frames
and the launching host stack), failing API calls, stops in named kernels, a
timeout, and the exit.  Launches are not stopped for: the preloaded
interposer records them in the program itself (through a runtime linked
into the program, breakpoints write the same records: static_launches.py).

Started by gpusym/capture_under_gdb.py as ``gdb -batch ... -ex 'python ...session.main()'``
with GPUSYM_CAPTURE_SESSION naming a JSON file of settings (see gpusym/capture_under_gdb.py).
"""

from __future__ import annotations

import json
import os
import shlex
import signal
import threading
import time
from pathlib import Path
from typing import Any

import gdb
import gdb.frames

from capture import INTERPOSER
from capture.events import (
    CaptureErrorEvent,
    CheckEvent,
    CrashEvent,
    ErrorEvent,
    Frame,
    GdbEvent,
    HostThread,
    KernelStopEvent,
    Lane,
    LaneKernel,
    ProgramEnd,
    SessionEvent,
    StopEvent,
    ThreadStack,
)
from gdbext import extension
from gdbext.capture import pending_output
from gdbext.capture.static_launches import StaticLaunches
from gdbext.commands import checks
from gdbext.commands.checks import access_frame
from gdbext.lanes import lane_faults
from gdbext.runtime_view import runtime_state

#: Signals that end a program unless it handles them: each is a crash event.
CRASH_SIGNALS = ("SIGSEGV", "SIGBUS", "SIGFPE", "SIGILL", "SIGABRT", "SIGSYS")
#: Frames kept per backtrace.
FRAME_LIMIT = 64
#: After SIGINT on a timeout, how long the program may take to stop before SIGKILL.
KILL_GRACE_S = 3.0


class Session:
    def __init__(self, settings: dict[str, Any]):
        self.settings = settings
        self.events = open(settings["events"], "a", encoding="utf-8")
        self.exit: ProgramEnd | None = None
        self.last_stop: gdb.StopEvent | None = None
        self.timed_out = threading.Event()
        self.stopped = threading.Event()
        self.kernel_breakpoints: set[int] = set()
        self.last_crash: tuple | None = None
        self.static: StaticLaunches | None = None
        self.check_breakpoint: gdb.Breakpoint | None = None

    # -- output --------------------------------------------------------------
    def emit(self, event: GdbEvent) -> None:
        """One event, flushed at once: a killed run keeps every event so far."""
        self.events.write(json.dumps(event.to_json()) + "\n")
        self.events.flush()

    # -- set-up --------------------------------------------------------------
    def configure(self) -> None:
        for command in (
            "set pagination off",
            "set confirm off",
            "set width 0",
            "set print thread-events off",
            "set print inferior-events off",
            "set startup-with-shell on",
            # Every block in the debuggable form: a crash names its lane at once.
            "set environment GPUSYM_FORM debug",
            "handle SIGINT stop print nopass",  # (noprint would imply nostop)
            f"handle {' '.join(CRASH_SIGNALS)} {'stop print' if self.on('crash') else 'nostop noprint'} pass",
            "unset environment LINES",
            "unset environment COLUMNS",
        ):
            gdb.execute(command, to_string=True)
        for name, value in self.settings["environment"].items():
            gdb.execute(f"set environment {name}={value}", to_string=True)
        if self.on("error"):
            gdb.execute("set gpusym api-errors on", to_string=True)
        for kernel in self.settings["break"]:
            before = {b.number for b in gdb.breakpoints()}
            gdb.execute(f"kbreak {kernel} -block 0,0,0 -thread 0,0,0", to_string=True)
            self.kernel_breakpoints |= {b.number for b in gdb.breakpoints()} - before
        if "GPUSYM_CHECK" in self.settings["environment"] or "GPUSYM_CHECK" in os.environ:
            # The reports of checks the program goes on from, each an event.
            gdb.execute("set breakpoint pending on", to_string=True)
            self.check_breakpoint = gdb.Breakpoint(f"-qualified -function {checks.REPORTED}", internal=True)
            self.check_breakpoint.silent = True
        if self.settings.get("launches"):
            self.static = StaticLaunches(self.settings["launches"])
            self.static.watch()
        gdb.events.stop.connect(self.on_stop)
        gdb.events.exited.connect(self.on_exit)

    def on(self, kind: str) -> bool:
        return kind in self.settings["on"]

    # -- events from gdb -----------------------------------------------------
    def on_stop(self, event: gdb.StopEvent) -> None:
        self.last_stop = event
        self.stopped.set()

    def on_exit(self, event: gdb.ExitedEvent) -> None:
        if self.exit is not None:  # killed by the capture: already said why
            return
        code = getattr(event, "exit_code", None)
        died = gdb.convenience_variable("_exitsignal")
        self.exit = ProgramEnd(
            time.monotonic_ns(), None if code is None else int(code), None if died is None else _signal_name(int(died))
        )

    # -- the run -------------------------------------------------------------
    def run(self) -> None:
        arguments = " ".join(shlex.quote(a) for a in self.settings["args"])
        redirect = f"> {shlex.quote(self.settings['stdout'])} 2> {shlex.quote(self.settings['stderr'])}"
        timeout = self.settings.get("timeout")
        if timeout:
            threading.Thread(target=self._watchdog, args=(timeout,), daemon=True).start()
        self.emit(SessionEvent(time.monotonic_ns(), gdb.VERSION))
        command = f"run {arguments} {redirect}"
        while True:
            self.last_stop = None
            self.stopped.clear()
            try:
                gdb.execute(command, to_string=True)
            except gdb.error as error:
                if self.exit is None:
                    _kill()
                    raise CaptureError(f"gdb could not go on: {error}") from None
            if self.exit is not None or not _alive():
                break
            command = self.handle_stop()
        if self.timed_out.is_set() and not (self.exit and self.exit.killed_by):
            self.emit(StopEvent(time.monotonic_ns(), "timeout", []))  # it had to be killed: no stacks
            self.exit = ProgramEnd(time.monotonic_ns(), None, "SIGKILL", "timeout")
        self.emit(self.exit or ProgramEnd(time.monotonic_ns(), None, None))

    def handle_stop(self) -> str:
        """Records the stop; returns the command that goes on."""
        stop = self.last_stop
        if isinstance(stop, gdb.SignalEvent):
            if stop.stop_signal == "SIGINT":
                self.record_interrupt()
                pending_output.save(self.settings["stdout"])
                return "kill"
            # The same fault again on the same thread: a handler (the
            # runtime's, for a fault outside kernels) passed it on by
            # restoring the default action.
            crash = (gdb.selected_thread().num, stop.stop_signal, _fault_address(), _pc())
            if crash != self.last_crash:
                self.record_crash(stop.stop_signal)
            self.last_crash = crash
            # A kernel's fault ends the program, as on a GPU (the runtime's
            # handler would report it and end it: no need to let it run).
            in_kernel = runtime_state.lane() is not None
            if in_kernel or not _handles(gdb.selected_inferior().pid, stop.stop_signal):
                # It dies of it: say so now rather than resume a process whose
                # other threads may be faulting too (gdb can hang reaping it).
                self.exit = ProgramEnd(time.monotonic_ns(), None, stop.stop_signal)
                pending_output.save(self.settings["stdout"])
                return "kill"
        elif isinstance(stop, gdb.BreakpointEvent):
            if self.static is not None and self.static.handles(stop):
                return "continue"
            numbers = {b.number for b in stop.breakpoints}
            if self.check_breakpoint is not None and self.check_breakpoint in stop.breakpoints:
                self.record_check()
            elif numbers & self.kernel_breakpoints:
                self.record_kernel_stop()
            elif gdb.convenience_variable("_hiperr") is not None:
                self.record_error()
        return "continue"

    def record_error(self) -> None:
        code = int(gdb.convenience_variable("_hiperr"))
        call = gdb.convenience_variable("_hiperr_call").string()
        name = gdb.convenience_variable("_hiperr_name").string()
        frames = backtrace(skip=_runtime_reporter_frames())  # from the failing call
        self.emit(ErrorEvent(time.monotonic_ns(), call, code, name, _thread(), frames))
        gdb.set_convenience_variable("_hiperr", None)

    def record_crash(self, name: str) -> None:
        thread, lane = _thread(), _lane()
        fault = lane_faults.lane_fault(name) if lane is not None else None
        # A check's report: the runtime sent the signal, whose own address is no access's.
        address = fault.address if fault is not None and fault.address is not None else _fault_address()
        self.emit(
            CrashEvent(
                time.monotonic_ns(),
                name,
                address,
                thread,
                backtrace(skip=_check_frames()),  # a check's report: from the lane's access
                lane,
                fault.json() if fault is not None else None,
            )
        )

    def record_check(self) -> None:
        report = gdb.parse_and_eval(checks.REPORT).string()
        check = report.split(":", 1)[0]
        stack = ThreadStack(_thread(), _lane(), backtrace(skip=_check_frames()))
        self.emit(CheckEvent(time.monotonic_ns(), check, report, stack))

    def record_kernel_stop(self) -> None:
        self.emit(KernelStopEvent(time.monotonic_ns(), _thread_stack()))

    def record_interrupt(self) -> None:
        threads = []
        for thread in sorted(gdb.selected_inferior().threads(), key=lambda t: t.num):
            thread.switch()
            threads.append(_thread_stack())
        kind = "timeout" if self.timed_out.is_set() else "interrupt"
        self.emit(StopEvent(time.monotonic_ns(), kind, threads))
        self.exit = ProgramEnd(time.monotonic_ns(), None, "SIGKILL", kind)

    def _watchdog(self, seconds: float) -> None:
        """Stops the program after `seconds` (SIGINT, which gdb catches);
        SIGKILL if it does not stop (SIGINT blocked)."""
        time.sleep(seconds)
        if self.exit is not None:
            return
        self.timed_out.set()
        for pid in _children():
            os.kill(pid, signal.SIGINT)
        if not self.stopped.wait(KILL_GRACE_S) and self.exit is None:
            for pid in _children():
                os.kill(pid, signal.SIGKILL)


class CaptureError(Exception):
    """The capture cannot go on; the message says why in one line."""


def backtrace(skip: int = 0) -> list[Frame]:
    """The selected thread's frames as gpusym's frame filter shows them."""
    frames = []
    try:
        decorated = gdb.frames.execute_frame_filters(gdb.newest_frame(), skip, skip + FRAME_LIMIT - 1)
    except gdb.error:
        return frames
    if decorated is None:  # frame filters disabled
        return frames
    for decorator in decorated:
        for item in (decorator, *(decorator.elided() or ())):
            if not _in_interposer(item):
                frames.append(_frame_json(item))
    return frames


def _in_interposer(decorator) -> bool:
    """Whether the frame is capture's own launch wrapper (not the program's)."""
    frame = decorator.inferior_frame()
    return frame is not None and INTERPOSER in (gdb.solib_name(frame.pc()) or "")


def _runtime_reporter_frames() -> int:
    """How many of the newest frames are the runtime's error reporting."""
    count, frame = 0, gdb.newest_frame()
    while frame is not None and (frame.name() or "").startswith("gpusym::"):
        count, frame = count + 1, frame.older()
    return count


def _check_frames() -> int:
    """How many of the newest frames are the runtime's check and its
    report, above the lane's access (none outside a check's stop)."""
    frame = access_frame()
    return frame.level() if frame is not None else 0


def _frame_json(decorator) -> Frame:
    function = decorator.function()
    note = None
    if isinstance(function, int):
        function = None
    elif function and "  [" in function and function.endswith("]"):
        function, note = function[:-1].split("  [", 1)
    address = decorator.address()
    frame = {"function": function, "address": None if address is None else int(address)}
    filename, line = decorator.filename(), decorator.line()
    if filename:
        frame["file"] = filename
    if line:
        frame["line"] = int(line)
    if note:
        frame["note"] = note
    return frame


def _thread() -> HostThread:
    thread = gdb.selected_thread()
    return HostThread(thread.ptid[1], thread.name, thread.num)


def _thread_stack() -> ThreadStack:
    return ThreadStack(_thread(), _lane(), backtrace())


def _lane() -> Lane | None:
    """Where a simulated GPU thread was, when the selected thread runs one."""
    current = runtime_state.lane()
    if current is None:
        return None
    lane = Lane(
        int(current["dispatch_id"]),
        [int(current["block_idx"][a]) for a in "xyz"],
        [int(current["thread_idx"][a]) for a in "xyz"],
    )
    debug = runtime_state.debug_state()
    record = runtime_state.dispatch_record(debug, lane.dispatch) if debug is not None else None
    if record is not None:
        index = int(record["kernel_index"])
        name = debug["kernels"][index]["device_name"].string()
        lane.kernel = LaneKernel(name, runtime_state.kernel_name(debug, index))
        lane.grid = [int(record["grid"][a]) for a in "xyz"]
        lane.block_dim = [int(record["block"][a]) for a in "xyz"]
    return lane


def _fault_address() -> int | None:
    try:
        return int(gdb.parse_and_eval("$_siginfo._sifields._sigfault.si_addr"))
    except gdb.error:
        return None


def _pc() -> int | None:
    try:
        return int(gdb.newest_frame().pc())
    except gdb.error:
        return None


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _alive() -> bool:
    return gdb.selected_inferior().pid != 0


def _kill() -> None:
    try:
        gdb.execute("kill", to_string=True)
    except gdb.error:
        pass  # not running any more


def _handles(pid: int, name: str) -> bool:
    """Whether process `pid` has a handler for signal `name` (SigCgt)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    caught = next((line.split()[1] for line in status.splitlines() if line.startswith("SigCgt:")), "0")
    return bool(int(caught, 16) >> (signal.Signals[name].value - 1) & 1)


def _children() -> list[int]:
    """gdb's child processes: the program (started through a shell that execs it)."""
    pids = []
    for task in Path(f"/proc/{os.getpid()}/task").iterdir():
        try:
            pids += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return pids


def main() -> None:
    """Runs the capture; any failure is one ``capture-error`` event."""
    settings = json.loads(Path(os.environ["GPUSYM_CAPTURE_SESSION"]).read_text())
    session = Session(settings)
    if not extension.registered():  # gdb's output says why
        session.emit(CaptureErrorEvent(time.monotonic_ns(), "the extension did not load", "extension"))
        return
    try:
        session.configure()
        session.run()
    except (CaptureError, gdb.error) as error:
        session.emit(CaptureErrorEvent(time.monotonic_ns(), str(error)))
    except Exception as error:  # noqa: BLE001 - reported, never a traceback
        if os.environ.get("GPUSYM_DEBUG") == "1":
            raise
        session.emit(CaptureErrorEvent(time.monotonic_ns(), f"internal error: {type(error).__name__}: {error}"))
