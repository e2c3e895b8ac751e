"""``gpusym check``: a program run with the simulated device's checks of
device code turned on (the runtime reads GPUSYM_CHECK; docs/runtime.md,
"Checks").  The program's output and exit status are its own; a line on
stderr at the end says what the check found."""

from __future__ import annotations

import argparse
import json
import os
import signal
import subprocess
import sys
from pathlib import Path

from capture.sarif import parse_reports, sarif_log
from gpusym import __version__, foreign_device_code
from gpusym.output_files import EXIT_CANNOT_WRITE, open_output

#: The checks the runtime knows.
TOOLS = ("memcheck", "racecheck", "synccheck", "initcheck")
EXIT_NOT_FOUND = 127  # as a shell says of a program it cannot find
EXIT_NOT_EXECUTABLE = 126
EXIT_NOT_SIMULATED = 125  # device code the simulated device cannot run: nothing was checked


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "check",
        help="run a program with checks of its device code: gpusym check --tool memcheck|racecheck|synccheck|initcheck "
        "-- "
        "PROGRAM ARGS",
        description="Runs PROGRAM (built by gpusym build, gpusym-hipcc or gpusym-nvcc) with a check of its device code "
        "turned on. memcheck: every access to device memory must lie inside one live hipMalloc allocation, "
        "to the byte, and be aligned as the code assumes; the first that is not ends the program with a report "
        "naming the kernel, block, thread, source line, address and allocation; at exit, the allocations never "
        "freed are listed. racecheck: an access of __shared__ memory by one lane and a write of the same byte by "
        "another with no __syncthreads between them is reported once per pair of source lines, and the program "
        "goes on. synccheck: the lanes of a block waiting at different __syncthreads (divergent code) are reported "
        "once per pair of lines, and the program goes on. initcheck: a read by device code of hipMalloc'd memory "
        "that no copy, memset or kernel has written is reported once per line, and the program goes on. "
        "Several checks: --tool memcheck,racecheck. "
        "The exit status is the program's (128 + N for a signal N); 125 when its device code is NVIDIA's only "
        "(built by nvcc): the simulated device cannot run it; 73 when the SARIF file cannot be written.",
    )
    parser.add_argument(
        "--tool",
        type=_tools,
        default="memcheck",
        metavar="|".join(TOOLS),
        help="the check, or several separated by commas (default: %(default)s)",
    )
    parser.add_argument(
        "--sarif", metavar="FILE", help="also write the reports to FILE as a SARIF 2.1.0 log (for code scanning)"
    )
    parser.add_argument(
        "program", nargs=argparse.REMAINDER, metavar="-- PROGRAM ARGS", help="the program and its arguments"
    )


def _tools(text: str) -> str:
    """One check, or several separated by commas."""
    unknown = [tool for tool in text.split(",") if tool not in TOOLS]
    if unknown or not text:
        raise argparse.ArgumentTypeError(
            f"unknown check {unknown[0] if unknown else text!r} (known: {', '.join(TOOLS)})"
        )
    return text


def run(args: argparse.Namespace) -> int:
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        print("gpusym check: no program to run (gpusym check --tool memcheck -- PROGRAM ARGS)", file=sys.stderr)
        return 2
    foreign = foreign_device_code.nvidia_only(program[0])
    if foreign:
        print(f"gpusym check: {foreign}", file=sys.stderr)
        return EXIT_NOT_SIMULATED
    sarif = open_output(args.sarif, "gpusym check", "the SARIF log")
    if isinstance(sarif, int):
        return sarif
    environment = dict(os.environ, GPUSYM_CHECK=args.tool)
    try:
        child = subprocess.Popen(program, env=environment, stderr=subprocess.PIPE)
    except FileNotFoundError:
        print(f"gpusym check: {program[0]}: no such program", file=sys.stderr)
        return EXIT_NOT_FOUND
    except PermissionError:
        print(f"gpusym check: {program[0]}: not executable", file=sys.stderr)
        return EXIT_NOT_EXECUTABLE
    except OSError as error:  # not a program this system runs (ENOEXEC), and the like
        print(f"gpusym check: {program[0]}: cannot run: {error.strerror}", file=sys.stderr)
        return EXIT_NOT_EXECUTABLE
    findings = parse_reports(_pass_on(child))
    reports = len(findings)
    status = child.wait()
    if status in (-signal.SIGSEGV, -signal.SIGBUS) and reports:
        found = "ended at an invalid access (reported above)"
    elif reports:
        found = f"{reports} report{'s' if reports > 1 else ''} (above)"
    else:
        found = "nothing to report" + (" (it ended with a signal)" if status < 0 else "")
    print(f"gpusym check: {args.tool}: {program[0]}: {found}", file=sys.stderr)
    code = 128 - status if status < 0 else status
    if sarif is not None:
        exit_signal = signal.Signals(-status).name if status < 0 else None
        log = sarif_log(findings, version=__version__, command=program, root=Path.cwd(), exit_signal=exit_signal,
                        exit_code=None if exit_signal else status)  # fmt: skip
        try:
            with sarif:
                json.dump(log, sarif, indent=1)
        except OSError as error:
            print(f"gpusym check: {args.sarif}: cannot write the SARIF log: {error.strerror}", file=sys.stderr)
            return EXIT_CANNOT_WRITE
    return code


def _pass_on(child: subprocess.Popen) -> list[str]:
    """The child's standard error, passed on line by line as it comes; its
    lines of the runtime (``gpusym: ``), for the reports among them."""
    lines = []
    assert child.stderr is not None
    try:
        for line in child.stderr:
            sys.stderr.buffer.write(line)
            sys.stderr.buffer.flush()
            if line.startswith(b"gpusym: "):
                lines.append(line.decode("utf-8", "replace"))
    except KeyboardInterrupt:
        child.wait()
    return lines
