"""``gpusym check``: a program run with the simulated device's checks of
device code turned on (the runtime reads GPUSYM_CHECK; docs/runtime.md,
"Checks").  The program's output and exit status are its own; a line on
stderr at the end says what the check found."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import sys

#: The checks the runtime knows.
TOOLS = ("memcheck",)
EXIT_NOT_FOUND = 127  # as a shell says of a program it cannot find
EXIT_NOT_EXECUTABLE = 126


def add_parser(commands: argparse._SubParsersAction) -> None:
    parser = commands.add_parser(
        "check",
        help="run a program with checks of its device code: gpusym check --tool memcheck -- PROGRAM ARGS",
        description="Runs PROGRAM (built by gpusym build or gpusym-hipcc) with a check of its device code "
        "turned on. memcheck: every access to device memory must lie inside one live hipMalloc allocation, "
        "to the byte, and be aligned as the code assumes; the first that is not ends the program with a report "
        "naming the kernel, block, thread, source line, address and allocation; at exit, the allocations never "
        "freed are listed. The exit status is the program's (128 + N for a signal N).",
    )
    parser.add_argument("--tool", choices=TOOLS, default="memcheck", help="the check (default: %(default)s)")
    parser.add_argument(
        "program", nargs=argparse.REMAINDER, metavar="-- PROGRAM ARGS", help="the program and its arguments"
    )


def run(args: argparse.Namespace) -> int:
    program = args.program[1:] if args.program[:1] == ["--"] else args.program
    if not program:
        print("gpusym check: no program to run (gpusym check --tool memcheck -- PROGRAM ARGS)", file=sys.stderr)
        return 2
    environment = dict(os.environ, GPUSYM_CHECK=args.tool)
    try:
        status = subprocess.run(program, env=environment).returncode
    except FileNotFoundError:
        print(f"gpusym check: {program[0]}: no such program", file=sys.stderr)
        return EXIT_NOT_FOUND
    except PermissionError:
        print(f"gpusym check: {program[0]}: not executable", file=sys.stderr)
        return EXIT_NOT_EXECUTABLE
    except KeyboardInterrupt:
        return 130
    if status in (-signal.SIGSEGV, -signal.SIGBUS):
        print(f"gpusym check: {args.tool}: {program[0]} ended at an invalid access (reported above)", file=sys.stderr)
    else:
        print(f"gpusym check: {args.tool}: no invalid access in the kernels {program[0]} ran", file=sys.stderr)
    return 128 - status if status < 0 else status
