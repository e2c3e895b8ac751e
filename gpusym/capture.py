"""``gpusym capture``: run a program under gdb unattended and record every
kernel launch, failing runtime call and crash (engine: capture/ and capture_under_gdb.py, which runs gdb)."""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path
from typing import IO

from capture.events import Event, ExitEvent, StartEvent
from capture.launches import Selection
from gpusym.capture_under_gdb import (
    EVENT_KINDS,
    EXIT_CAPTURE_FAILED,
    EXIT_EXTENSION_FAILED,
    EXIT_TIMEOUT,
    CaptureFailed,
    Options,
    capture,
    resolve_program,
)
from gpusym.output_files import EXIT_CANNOT_WRITE, open_output

EXIT_USAGE = 2

EPILOG = f"""exit status: the program's own; 128+N when signal N killed it; {EXIT_TIMEOUT} when --timeout
stopped it; {EXIT_CAPTURE_FAILED} when the capture itself failed (gdb missing, program not found or not
executable, gdb ended early); {EXIT_EXTENSION_FAILED} when gdb did not load gpusym's extension; {EXIT_USAGE} for a
usage error; {EXIT_CANNOT_WRITE} when the --sarif or --trace file cannot be written."""


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "capture",
        help="run a program under gdb and record its kernel launches, API errors and crashes",
        description="Runs PROGRAM under gdb with gpusym's extension, unattended, and records every kernel "
        "launch (in the program itself, through a preloaded interposer), every failing runtime call and any "
        "crash, with host and device backtraces. The program's stdout and stderr are kept apart and "
        "reported in the exit event; its stdin and environment are passed through.",
        epilog=EPILOG,
    )
    formats = parser.add_argument_group("output (default: --report)")
    formats.add_argument("--jsonl", action="store_true", help="stream one JSON event per line, flushed per event")
    formats.add_argument("--json", action="store_true", help="one JSON document at the end")
    formats.add_argument("--report", action="store_true", help="a human summary (on stderr when JSON goes to stdout)")
    formats.add_argument("-o", "--output", metavar="FILE", help="write the JSON or JSONL there instead of stdout")
    formats.add_argument(
        "--sarif", metavar="FILE", help="also write the crashes, check reports and failing calls to FILE as SARIF 2.1.0"
    )
    formats.add_argument(
        "--trace",
        metavar="FILE",
        help="also write a timeline to FILE as a Chrome trace (Perfetto, chrome://tracing): launches with their "
        "run on the device, copies, synchronisations, errors and crashes, per host thread and per stream",
    )
    chosen = parser.add_argument_group("what to record")
    chosen.add_argument(
        "--on",
        metavar="KINDS",
        default=",".join(EVENT_KINDS),
        help="comma-separated event kinds: launch, error, crash (default: all)",
    )
    chosen.add_argument(
        "--kernels", metavar="REGEX", help="only launches of kernels whose mangled or demangled name matches"
    )
    chosen.add_argument(
        "--max-launches", type=_count, metavar="N", help="at most N launch events (all launches are still counted)"
    )
    chosen.add_argument(
        "--every", type=_positive, default=1, metavar="N", help="a launch event for every Nth launch of each kernel"
    )
    chosen.add_argument(
        "--no-backtraces", action="store_true", help="no host stacks for launches: counting is all but free"
    )
    chosen.add_argument(
        "--break",
        dest="breaks",
        action="append",
        default=[],
        metavar="KERNEL",
        help="stop in KERNEL's first thread of each launch for its device backtrace (repeatable)",
    )
    run = parser.add_argument_group("running")
    run.add_argument(
        "--timeout",
        type=_seconds,
        metavar="S",
        help="stop the program after S seconds (a timeout event with every thread's stack)",
    )
    run.add_argument(
        "--env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set a variable in the program's environment (repeatable)",
    )
    parser.add_argument(
        "program", nargs=argparse.REMAINDER, metavar="-- PROGRAM [ARGS]", help="the program to run and its arguments"
    )


def _count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"not a count: {text}")
    return value


def _positive(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more: {text}")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be more than 0: {text}")
    return value


def _usage(message: str) -> int:
    print(f"gpusym capture: {message}", file=sys.stderr)
    return EXIT_USAGE


def _options(args: argparse.Namespace) -> Options | str:
    """The options, or a usage error message."""
    command = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not command:
        return "no program given: gpusym capture [OPTIONS] -- PROGRAM [ARGS]"
    kinds = {kind.strip() for kind in args.on.split(",") if kind.strip()}
    if unknown := kinds - set(EVENT_KINDS):
        return f"--on: unknown event kind {', '.join(sorted(unknown))} (choose from {', '.join(EVENT_KINDS)})"
    try:
        pattern = re.compile(args.kernels) if args.kernels else None
    except re.error as error:
        return f"--kernels: not a regular expression: {error}"
    environment = {}
    for item in args.env:
        name, equals, value = item.partition("=")
        if not equals or not name:
            return f"--env takes NAME=VALUE, not '{item}'"
        environment[name] = value
    if args.trace:  # the interposer records copies, synchronisations and kernels' runs too
        environment["GPUSYM_CAPTURE_TIMELINE"] = "1"
    selection = Selection(pattern, args.every, args.max_launches, not args.no_backtraces, bool(args.trace))
    return Options(command[0], command[1:], kinds, selection, args.timeout, environment, args.breaks)


def run(args: argparse.Namespace) -> int:
    options = _options(args)
    if isinstance(options, str):
        return _usage(options)
    machine = "json" if args.json else "jsonl" if args.jsonl else None
    if args.json and args.jsonl:
        return _usage("--json and --jsonl: choose one")
    if args.output and machine is None:
        return _usage("--output needs --json or --jsonl")
    want_report = args.report or machine is None
    try:
        stream: IO[str] = open(args.output, "w", encoding="utf-8") if args.output else sys.stdout
    except OSError as error:
        return _usage(f"{args.output}: {error.strerror}")
    sarif = open_output(args.sarif, "gpusym capture", "the SARIF log")
    if isinstance(sarif, int):
        return sarif
    trace = open_output(args.trace, "gpusym capture", "the trace")
    if isinstance(trace, int):
        return trace
    events: list[Event] = []

    def sink(event: Event) -> None:
        events.append(event)
        if machine == "jsonl":
            stream.write(json.dumps(event.to_json()) + "\n")
            stream.flush()

    try:
        options.program = resolve_program(options.program)
        exit_event = capture(options, sink)
    except CaptureFailed as error:
        print(f"gpusym capture: {error}", file=sys.stderr)
        return error.exit_code
    finally:
        if machine == "json":
            schema = events[0].schema if events and isinstance(events[0], StartEvent) else None
            json.dump({"schema": schema, "events": [event.to_json() for event in events]}, stream, indent=1)
            stream.write("\n")
        if args.output:
            stream.close()
    if want_report:
        from rich.console import Console

        from capture.report import render

        render(events, Console(stderr=machine is not None and not args.output))
    if trace is not None and not _write_trace(trace, events):
        return EXIT_CANNOT_WRITE
    if sarif is not None:
        return _write_sarif(sarif, events, [options.program, *options.args], exit_event)
    return exit_event.exit_code


def _write_sarif(sarif: IO[str], events: list[Event], command: list[str], exit_event: ExitEvent) -> int:
    """Writes the capture's findings as a SARIF log; the exit status."""
    from capture.sarif import findings_of, sarif_log
    from gpusym import __version__

    log = sarif_log(findings_of(events), version=__version__, command=command, root=Path.cwd(),
                    exit_code=exit_event.status, exit_signal=exit_event.signal)  # fmt: skip
    try:
        with sarif:
            json.dump(log, sarif, indent=1)
    except OSError as error:
        print(f"gpusym capture: {sarif.name}: cannot write the SARIF log: {error.strerror}", file=sys.stderr)
        return EXIT_CANNOT_WRITE
    return exit_event.exit_code


def _write_trace(trace: IO[str], events: list[Event]) -> bool:
    """Writes the events as a Chrome trace; False (and says so) when it cannot."""
    from capture.trace import chrome_trace

    try:
        with trace:
            json.dump(chrome_trace(events), trace)
    except OSError as error:
        print(f"gpusym capture: {trace.name}: cannot write the trace: {error.strerror}", file=sys.stderr)
        return False
    return True
