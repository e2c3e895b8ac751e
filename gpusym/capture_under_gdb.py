"""Runs a program under gdb for ``gpusym capture`` and streams its events.

gdb runs the program with the extension and the session
(gdbext/capture/session.py), which writes live stops as JSON lines; the
preloaded interposer writes launch records.  While the program runs, both files are tailed every
``POLL_S``; each batch is symbolized, merged by time and handed to the sink
at once.  The program's stdout and stderr go to files of their own and come
back in the exit event.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from capture import events, interposer
from capture.events import (
    CaptureErrorEvent,
    CrashEvent,
    ErrorEvent,
    Event,
    ExitEvent,
    GdbEvent,
    LaunchEvent,
    ProgramEnd,
    SessionEvent,
    StartEvent,
)
from capture.launches import LaunchLog, Selection
from capture.records import FileTail, RecordTail
from gdbext import gpusym_gdb
from native.native_build import BuildError
from native.toolchain import ToolMissing
from symbols.errors import FormatError

EXTENSION = Path(gpusym_gdb.__file__).resolve()
POLL_S = 0.05
#: Bytes of the program's stdout and of its stderr kept in the exit event.
OUTPUT_LIMIT = 1 << 20
EVENT_KINDS = ("launch", "error", "crash")

EXIT_TIMEOUT = 124
EXIT_CAPTURE_FAILED = 125
EXIT_EXTENSION_FAILED = 126


class CaptureFailed(Exception):
    """Capture itself could not run (not the program's failure)."""

    exit_code = EXIT_CAPTURE_FAILED


class ExtensionFailed(CaptureFailed):
    """gdb did not load the extension (or capture's session in it)."""

    exit_code = EXIT_EXTENSION_FAILED


@dataclass
class Options:
    program: str
    args: list[str]
    on: set[str] = field(default_factory=lambda: set(EVENT_KINDS))
    selection: Selection = field(default_factory=Selection)
    timeout: float | None = None
    environment: dict[str, str] = field(default_factory=dict)
    breaks: list[str] = field(default_factory=list)


def resolve_program(name: str) -> str:
    """The program's path, as a shell would find it; CaptureFailed if none."""
    path = name if "/" in name else shutil.which(name)
    if path is None or not os.path.exists(path):
        raise CaptureFailed(f"{name}: program not found")
    if os.path.isdir(path) or not os.access(path, os.X_OK):
        raise CaptureFailed(f"{name}: not an executable file")
    with open(path, "rb") as stream:
        if stream.read(4) != b"\x7fELF":
            raise CaptureFailed(
                f"{name}: not an ELF program (gdb runs those only: capture the program a script starts)"
            )
    return os.path.abspath(path)


def _new_events(tail: FileTail) -> list[GdbEvent]:
    """The events gdb's side completed since the last call."""
    *lines, rest = tail.read().split(b"\n")
    tail.keep(rest)
    return [events.from_json(json.loads(line)) for line in lines if line.strip()]


class _Run:
    """One capture: the gdb process, its files, and what was seen so far."""

    def __init__(self, options: Options, sink: Callable[[Event], None], workdir: Path):
        self.options, self.sink, self.workdir = options, sink, workdir
        self.log = LaunchLog(options.selection)
        self.gdb_events = FileTail(workdir / "events.jsonl")
        self.records = RecordTail(workdir / "launches.bin")
        self.errors: list[ErrorEvent] = []
        self.exit: ProgramEnd | None = None
        self.started = False  # the session in gdb said a word
        self.failure: CaptureErrorEvent | None = None
        self.counts: Counter[type] = Counter()  # events handed to the sink, by class

    def settings(self) -> dict[str, Any]:
        """The session's settings.  The interposer is preloaded to record
        launches and to make stdout line-buffered (a program killed at a
        crash keeps its lines); without launches, capture goes on without it
        where it cannot be built."""
        environment = dict(self.options.environment)
        try:
            preload = [str(interposer.library_path())]
        except (BuildError, ToolMissing) as error:
            if "launch" in self.options.on:
                raise CaptureFailed(f"cannot build the launch interposer: {error}") from None
            preload = []
        if preload:
            inherited = environment.get("LD_PRELOAD", os.environ.get("LD_PRELOAD", ""))
            environment["LD_PRELOAD"] = ":".join(preload + ([inherited] if inherited else []))
            environment["GPUSYM_CAPTURE_LINE_BUFFERED"] = "1"
        launches = None  # for the breakpoints at a runtime linked into the program
        if "launch" in self.options.on:
            selection = self.options.selection
            environment["GPUSYM_CAPTURE_RECORDS"] = str(self.workdir / "launches.bin")
            environment["GPUSYM_CAPTURE_BACKTRACES"] = "1" if selection.backtraces else "0"
            environment["GPUSYM_CAPTURE_EVERY"] = str(selection.every)
            if selection.max_launches is not None:  # a kernel never needs more detailed launches than this
                environment["GPUSYM_CAPTURE_DETAIL_LIMIT"] = str(selection.max_launches)
            launches = {
                "records": environment["GPUSYM_CAPTURE_RECORDS"],
                "backtraces": selection.backtraces,
                "every": selection.every,
                "detail_limit": selection.max_launches,
            }
        return {
            "launches": launches,
            "args": self.options.args,
            "on": sorted(self.options.on),
            "break": self.options.breaks,
            "timeout": self.options.timeout,
            "environment": environment,
            "events": str(self.workdir / "events.jsonl"),
            "stdout": str(self.workdir / "stdout"),
            "stderr": str(self.workdir / "stderr"),
        }

    def command(self, gdb: str) -> list[str]:
        return [
            gdb,
            "-nx",
            "-batch",
            "-iex",
            f"source {EXTENSION}",
            "-ex",
            "python from gdbext.capture import session; session.main()",
            self.options.program,
        ]

    def drain(self, final: bool = False) -> None:
        """Hands the sink every event that is complete: gdb's first (a failed
        call's gdb stop precedes its result record), then the launches whose
        call returned; at the `final` one, after the program, all the rest."""
        batch: list[Event] = []
        for event in _new_events(self.gdb_events):
            self.started = True
            if isinstance(event, SessionEvent):
                batch.append(StartEvent(event.time_ns, self.options.program, self.options.args, event.gdb))
            elif isinstance(event, ProgramEnd):
                self.exit = event
            elif isinstance(event, CaptureErrorEvent):
                self.failure = event
            else:
                if isinstance(event, ErrorEvent):
                    self.errors.append(event)
                batch.append(event)
        try:
            records = self.records.poll()
        except FormatError as error:
            raise CaptureFailed(f"launch records: {error}") from None
        batch += self.log.events(records, self.errors)
        if final:
            batch += self.log.unfinished(self.errors)
        for event in sorted(batch, key=lambda e: e.time_ns):
            self.counts[type(event)] += 1
            self.sink(event)

    def exit_event(self, duration_s: float) -> ExitEvent:
        end = self.exit or ProgramEnd(time.monotonic_ns(), None, None)
        stdout, stdout_cut = _read_limited(self.workdir / "stdout")
        stderr, stderr_cut = _read_limited(self.workdir / "stderr")
        return ExitEvent(
            time.monotonic_ns(),
            end.code,
            end.signal,
            end.killed_by,
            round(duration_s, 3),
            self.log.total,
            self.log.refused,
            self.counts[LaunchEvent],
            self.counts[ErrorEvent],
            self.counts[CrashEvent],
            self.log.summary(),
            stdout,
            stderr,
            exit_code(end),
            stdout_cut,
            stderr_cut,
        )


def exit_code(end: ProgramEnd) -> int:
    """capture's own status: the program's, 128+signal when one killed it,
    EXIT_TIMEOUT when the capture stopped it."""
    if end.killed_by == "timeout":
        return EXIT_TIMEOUT
    if end.signal:
        return 128 + signal.Signals[end.signal].value
    return end.code if end.code is not None else EXIT_CAPTURE_FAILED


def _read_limited(path: Path) -> tuple[str, bool]:
    try:
        with path.open("rb") as stream:
            data = stream.read(OUTPUT_LIMIT + 1)
    except FileNotFoundError:
        return "", False
    return data[:OUTPUT_LIMIT].decode("utf-8", "replace"), len(data) > OUTPUT_LIMIT


def _load_error(log: str) -> str:
    """What gdb said when the extension did not load: the extension's own
    line, a Python exception's last line (not its traceback), or gdb's
    first line (``Python scripting is not supported in this copy of GDB.``)."""
    lines = [line for line in log.splitlines() if line.strip()]
    if not lines:
        return "gdb said nothing"
    if lines[0].startswith("Traceback"):
        return next((line for line in lines[1:] if not line[0].isspace()), lines[0])
    return lines[0].removeprefix(gpusym_gdb.NOT_LOADED)


def capture(options: Options, sink: Callable[[Event], None]) -> ExitEvent:
    """Runs the program; every event goes to `sink` as soon as it is known,
    the exit event last, which is also returned.  Raises CaptureFailed."""
    gdb = shutil.which("gdb")
    if gdb is None:
        raise CaptureFailed("gdb is not installed (make demo installs it)")
    with tempfile.TemporaryDirectory(prefix="gpusym-capture-") as directory:
        workdir = Path(directory)
        run = _Run(options, sink, workdir)
        settings = workdir / "session.json"
        settings.write_text(json.dumps(run.settings()))
        started = time.monotonic()
        with open(workdir / "gdb.log", "wb") as log:
            process = subprocess.Popen(
                run.command(gdb),
                stdout=log,
                stderr=subprocess.STDOUT,
                env=dict(os.environ, GPUSYM_CAPTURE_SESSION=str(settings)),
            )
            try:
                while process.poll() is None:
                    time.sleep(POLL_S)
                    run.drain()
            except KeyboardInterrupt:
                process.wait()  # gdb saw the interrupt too: it records it and kills the program
            finally:
                if process.poll() is None:
                    process.kill()
                    process.wait()
        run.drain(final=True)
        log = (workdir / "gdb.log").read_text(errors="replace")
        if not run.started or (run.failure is not None and run.failure.cause == "extension"):
            raise ExtensionFailed(f"gdb did not load gpusym's extension: {_load_error(log)}")
        if run.failure is not None:
            raise CaptureFailed(" ".join(run.failure.message.split()))
        if run.exit is None:
            tail = log.strip().splitlines()[-1:]
            raise CaptureFailed(
                f"gdb ended (status {process.returncode}) before the program did" + (f": {tail[0]}" if tail else "")
            )
        event = run.exit_event(time.monotonic() - started)
        sink(event)
        return event
