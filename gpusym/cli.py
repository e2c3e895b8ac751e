"""The ``gpusym`` command: one entry point, one subcommand per job."""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from gpusym import __version__

EXIT_USAGE = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE: a defect in gpusym itself
EXIT_GDB_MISSING = 69  # EX_UNAVAILABLE
EXIT_BROKEN_PIPE = 141  # as a program killed by SIGPIPE: the reader stopped reading (| head)
EXTENSION = Path(__file__).resolve().parent.parent / "gdbext" / "gpusym_gdb.py"


Subparsers = argparse._SubParsersAction


@dataclass(frozen=True)
class Subcommand:
    """One subcommand of ``gpusym``: `add_parser` builds its options, `run`
    runs it once parsed (without it, the help is printed), and `intercept`,
    given the arguments after the name before argparse sees them, returns the
    exit status to end there or None to have them parsed.  Each function
    imports what it needs when called: a command pays for its own imports only."""

    name: str
    add_parser: Callable[[Subparsers], None]
    run: Callable[[argparse.Namespace], int] | None = None
    intercept: Callable[[list[str]], int | None] | None = None


def _add_build(commands: Subparsers) -> None:
    commands.add_parser(
        "build",
        help="compile and link HIP, C and C++ sources for the simulated device",
        add_help=False,
    )


def _build(arguments: list[str]) -> int:
    """Compiler-style flags: parsed by the driver, not by argparse."""
    from device.compiler.driver import build

    return build(arguments)


def _add_query(commands: Subparsers) -> None:
    from gpusym import query

    query.add_parser(commands)


def _before_query(arguments: list[str]) -> None:
    """Reading one binary makes no reference cycles, nor do the imports: the
    collector would only walk their objects again and again (4 ms of the
    imports' 50, 8% of reading xla's plugin).  The process ends after the
    query; gpusym.query turns it back on for several files."""
    gc.disable()


def _query(args: argparse.Namespace) -> NoReturn:
    from gpusym import query

    _end_without_teardown(query.run(args))


def _add_capture(commands: Subparsers) -> None:
    from gpusym import capture

    capture.add_parser(commands)


def _capture(args: argparse.Namespace) -> int:
    from gpusym import capture

    return capture.run(args)


def _add_check(commands: Subparsers) -> None:
    from gpusym import check

    check.add_parser(commands)


def _check(args: argparse.Namespace) -> int:
    from gpusym import check

    return check.run(args)


def _add_gdb(commands: Subparsers) -> None:
    commands.add_parser(
        "gdb",
        help="start gdb with the gpusym extension: gpusym gdb [GDB-OPTIONS] [-- PROGRAM ARGS...]",
        description="Starts gdb with gpusym's extension loaded; everything before -- goes to gdb, "
        "the program and its arguments after it.",
    )


def _gdb(arguments: list[str]) -> int | None:
    """Replaces this process with gdb, the extension loaded first; gdb's own
    options are passed through, not parsed, except a help request."""
    if set(arguments[:1]) & {"-h", "--help"}:
        return None
    gdb_options, program = arguments, []
    if "--" in arguments:
        split = arguments.index("--")
        gdb_options, program = arguments[:split], arguments[split + 1 :]
    import shutil  # imported here: every query would pay for it

    gdb = shutil.which("gdb")
    if gdb is None:
        print("gpusym gdb: gdb is not installed (make demo installs it)", file=sys.stderr)
        return EXIT_GDB_MISSING
    command = [gdb, "-q", "-iex", f"source {EXTENSION}", *gdb_options]
    if program:
        command += ["--args", *program]
    os.execv(gdb, command)
    return 0  # not reached


def _add_gdbinit(commands: Subparsers) -> None:
    commands.add_parser("gdbinit", help="print the line that loads the gdb extension (for ~/.gdbinit)")


def _gdbinit(args: argparse.Namespace) -> int:
    print(f"source {EXTENSION}")
    return 0


def _add_rocm_prefix(commands: Subparsers) -> None:
    prefix = commands.add_parser(
        "rocm-prefix",
        help="write a ROCm-shaped prefix (hipcc, HIP's CMake packages, libamdhip64) "
        "that builds for the simulated device",
        description="Writes a directory laid out as a ROCm installation whose hipcc, clang++, headers, "
        "libamdhip64.so and CMake packages (hip, hip-lang) build for the gpusym simulated device. "
        "Makefiles: make ROCM_INSTALL_DIR=PREFIX (or ROCM_PATH=PREFIX). "
        "CMake: cmake -DCMAKE_TOOLCHAIN_FILE=PREFIX/gpusym-toolchain.cmake.",
    )
    prefix.add_argument(
        "prefix", nargs="?", type=Path, help="where to write it (default: rocm in this Python environment)"
    )


def _rocm_prefix(args: argparse.Namespace) -> int:
    from device import host_libraries, rocm_prefix, runtime_library

    try:
        written = rocm_prefix.write(args.prefix or rocm_prefix.default_prefix())
    except (rocm_prefix.PrefixError, runtime_library.RuntimeBuildError, host_libraries.LibraryBuildError) as error:
        print(f"gpusym rocm-prefix: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"gpusym rocm-prefix: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    print(written)
    return 0


def _add_demo(commands: Subparsers) -> None:
    demo = commands.add_parser("demo", help="build and run the sample programs, then report")
    demo.add_argument("--build-dir", default="build/samples", help="where the programs go (%(default)s)")


def _demo(args: argparse.Namespace) -> int:
    from gpusym.demo import run_demo

    return run_demo(args.build_dir)


SUBCOMMANDS = (
    Subcommand("build", _add_build, intercept=_build),
    Subcommand("query", _add_query, _query, intercept=_before_query),
    Subcommand("capture", _add_capture, _capture),
    Subcommand("check", _add_check, _check),
    Subcommand("gdb", _add_gdb, intercept=_gdb),
    Subcommand("gdbinit", _add_gdbinit, _gdbinit),
    Subcommand("rocm-prefix", _add_rocm_prefix, _rocm_prefix),
    Subcommand("demo", _add_demo, _demo),
)
"""Every subcommand, in the order of ``gpusym --help``."""
_BY_NAME = {subcommand.name: subcommand for subcommand in SUBCOMMANDS}


def _parser(only: Subcommand | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, no other subcommand is built:
    capture's options import what runs gdb, which would cost ``gpusym query``
    a tenth of a second at every start."""
    parser = argparse.ArgumentParser(
        prog="gpusym",
        description="GPU programs debuggable with ordinary tools.",
    )
    parser.add_argument("--version", action="version", version=f"gpusym {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for subcommand in SUBCOMMANDS if only is None else (only,):
        subcommand.add_parser(commands)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    named = _BY_NAME.get(argv[0]) if argv else None
    if named is not None and named.intercept is not None:
        status = named.intercept(argv[1:])
        if status is not None:
            return status
    parser = _parser(named)
    args = parser.parse_args(argv)
    subcommand = _BY_NAME.get(args.command)
    if subcommand is None or subcommand.run is None:
        parser.print_help()
        return EXIT_USAGE
    return subcommand.run(args)


def _hipcc(argv: list[str] | None = None) -> int:
    from device.compiler.driver import build

    return build(sys.argv[1:] if argv is None else argv, hipcc=True)


def _nvcc(argv: list[str] | None = None) -> int:
    from device.compiler.driver import build

    return build(sys.argv[1:] if argv is None else argv, nvcc=True)


def _end_without_teardown(status: int) -> NoReturn:
    """Ends the process with `status` once its output is flushed and its
    atexit handlers have run, skipping the interpreter's teardown, which
    frees a large report's objects one at a time (10 ms of reading cub)."""
    sys.stdout.flush()  # a BrokenPipeError goes to entry_point, as any other
    sys.stderr.flush()
    atexit._run_exitfuncs()
    os._exit(status)


def entry_point(main_function=main) -> None:
    """The console script: no traceback reaches the user unless GPUSYM_DEBUG=1."""
    try:
        sys.exit(main_function())
    except KeyboardInterrupt:
        sys.exit(130)
    except BrokenPipeError:  # not an error of gpusym's: what is still buffered goes nowhere
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        sys.exit(EXIT_BROKEN_PIPE)
    except Exception as error:  # noqa: BLE001 - the last line of defence
        if os.environ.get("GPUSYM_DEBUG") == "1":
            raise
        print(f"gpusym: internal error: {type(error).__name__}: {error} (GPUSYM_DEBUG=1 shows where)", file=sys.stderr)
        sys.exit(EXIT_INTERNAL)


def hipcc_entry_point() -> None:
    """``gpusym-hipcc``: ``gpusym build`` with hipcc's defaults, for the
    Makefiles and CMake projects of existing HIP programs."""
    entry_point(_hipcc)


def nvcc_entry_point() -> None:
    """``gpusym-nvcc``: ``gpusym build`` for CUDA sources with nvcc's command
    line, for the Makefiles of existing CUDA programs."""
    entry_point(_nvcc)
