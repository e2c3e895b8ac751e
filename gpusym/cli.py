"""The ``gpusym`` command: one entry point, one subcommand per job."""

from __future__ import annotations

import argparse
import atexit
import gc
import os
import sys
from pathlib import Path
from typing import NoReturn

from gpusym import __version__

EXIT_USAGE = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE: a defect in gpusym itself
EXIT_GDB_MISSING = 69  # EX_UNAVAILABLE
EXIT_BROKEN_PIPE = 141  # as a program killed by SIGPIPE: the reader stopped reading (| head)
EXTENSION = Path(__file__).resolve().parent.parent / "gdbext" / "gpusym_gdb.py"


def _parser(command: str | None = None) -> argparse.ArgumentParser:
    """The command line's parser; with `command` (query or capture), only that
    subcommand's options are built: capture's import the gdb driver, which
    would cost ``gpusym query`` a tenth of a second at every start."""
    parser = argparse.ArgumentParser(
        prog="gpusym",
        description="GPU programs debuggable with ordinary tools.",
    )
    parser.add_argument("--version", action="version", version=f"gpusym {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.add_parser(
        "build",
        help="compile and link HIP, C and C++ sources for the simulated device",
        add_help=False,
    )
    if command in (None, "query"):
        from gpusym import query

        query.add_parser(commands)
    if command in (None, "capture"):
        from gpusym import capture

        capture.add_parser(commands)
    if command in (None, "check"):
        from gpusym import check

        check.add_parser(commands)
    commands.add_parser(
        "gdb",
        help="start gdb with the gpusym extension: gpusym gdb [GDB-OPTIONS] [-- PROGRAM ARGS...]",
        description="Starts gdb with gpusym's extension loaded; everything before -- goes to gdb, "
        "the program and its arguments after it.",
    )
    commands.add_parser("gdbinit", help="print the line that loads the gdb extension (for ~/.gdbinit)")
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
    demo = commands.add_parser("demo", help="build and run the sample programs, then report")
    demo.add_argument("--build-dir", default="build/samples", help="where the programs go (%(default)s)")
    return parser


def _run_gdb(arguments: list[str]) -> int:
    """Replaces this process with gdb, the extension loaded first."""
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


def _write_rocm_prefix(prefix: Path | None) -> int:
    from device import rocm_prefix, runtime_library

    try:
        written = rocm_prefix.write(prefix or rocm_prefix.default_prefix())
    except (rocm_prefix.PrefixError, runtime_library.RuntimeBuildError) as error:
        print(f"gpusym rocm-prefix: {error}", file=sys.stderr)
        return 1
    except OSError as error:
        print(f"gpusym rocm-prefix: cannot write {error.filename}: {error.strerror}", file=sys.stderr)
        return 1
    print(written)
    return 0


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["gdb"] and not set(argv[1:2]) & {"-h", "--help"}:
        return _run_gdb(argv[1:])  # gdb's own options: passed through, not parsed
    if argv[:1] == ["build"]:
        # Compiler-style flags: parsed by the driver, not by argparse.
        from device.compiler.driver import build

        return build(argv[1:])
    if argv[:1] == ["query"]:
        # Reading one binary makes no reference cycles, nor do the imports:
        # the collector would only walk their objects again and again (4 ms
        # of the imports' 50, 8% of reading xla's plugin).  The process
        # ends after the query; gpusym.query turns it back on for several files.
        gc.disable()
    parser = _parser(argv[0] if argv[:1] in (["query"], ["capture"], ["check"]) else None)
    args = parser.parse_args(argv)
    if args.command == "query":
        from gpusym import query

        _end_without_teardown(query.run(args))
    if args.command == "capture":
        from gpusym import capture

        return capture.run(args)
    if args.command == "check":
        from gpusym import check

        return check.run(args)
    if args.command == "gdbinit":
        print(f"source {EXTENSION}")
        return 0
    if args.command == "rocm-prefix":
        return _write_rocm_prefix(args.prefix)
    if args.command == "demo":
        from gpusym.demo import run_demo

        return run_demo(args.build_dir)
    parser.print_help()
    return EXIT_USAGE


def _hipcc(argv: list[str] | None = None) -> int:
    from device.compiler.driver import build

    return build(sys.argv[1:] if argv is None else argv, hipcc=True)


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
