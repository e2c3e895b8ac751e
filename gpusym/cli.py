"""The ``gpusym`` command: one entry point, one subcommand per job."""

from __future__ import annotations

import argparse
import os
import sys

from gpusym import __version__

EXIT_USAGE = 2
EXIT_INTERNAL = 70  # EX_SOFTWARE: a defect in gpusym itself


def _parser() -> argparse.ArgumentParser:
    from gpusym import query

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
    query.add_parser(commands)
    demo = commands.add_parser("demo", help="build and run the sample programs, then report")
    demo.add_argument("--build-dir", default="build/samples", help="where the programs go (%(default)s)")
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["build"]:
        # Compiler-style flags: parsed by the driver, not by argparse.
        from sample_apps.driver.driver import build

        return build(argv[1:])
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command == "query":
        from gpusym import query

        return query.run(args)
    if args.command == "demo":
        from sample_apps.demo import run_demo

        return run_demo(args.build_dir)
    parser.print_help()
    return EXIT_USAGE


def entry_point() -> None:
    """The console script: no traceback reaches the user unless GPUSYM_DEBUG=1."""
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as error:  # noqa: BLE001 - the last line of defence
        if os.environ.get("GPUSYM_DEBUG") == "1":
            raise
        print(f"gpusym: internal error: {type(error).__name__}: {error} (GPUSYM_DEBUG=1 shows where)", file=sys.stderr)
        sys.exit(EXIT_INTERNAL)
