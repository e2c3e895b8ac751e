"""Speed of ``gpusym capture`` (capture/) per kernel launch, against
the gdb script a user would otherwise write, measured in one run.

The program is tests/programs/capture_kernels.hip, built with ``gpusym build
-g`` into a temporary directory: ``capture_kernels loop N`` makes N ``<<<>>>``
launches, one ``hipLaunchKernelGGL`` and one ``hipLaunchKernel`` (N + 2 in
all), then synchronizes and checks the device's count.  Four modes:

1. the program alone;
2. ``gpusym capture --jsonl -o FILE -- PROG loop N``: a launch event with its
   symbolized host backtrace for every launch;
3. the same with ``--no-backtraces``: launches counted, no stacks;
4. the baseline: ``gdb -batch -nx -x SCRIPT --args PROG loop N``, where SCRIPT
   breaks on ``hipLaunchKernel`` with ``commands`` / ``bt`` / ``continue`` /
   ``end``, then ``run``s (output to a file).

Each mode runs with N = LAUNCHES and with N = 0; the per-launch overhead
leaves out every fixed cost (gdb's start-up, loading the extension, setting up
symbolization, the program's own start-up and exit) and the program's own
work per launch:

    (T_mode(LAUNCHES) - T_mode(0) - (T_alone(LAUNCHES) - T_alone(0))) / LAUNCHES

where each T is the median wall time of ROUNDS runs (the machine is shared
and noisy; modes and launch counts are interleaved round by round, after one
untimed warm-up run of each).  Every run is checked to have done its work, so
the benchmark cannot silently measure nothing: the program's own check passed,
the capture output holds N + 2 launch events (with backtraces, or without
any for ``--no-backtraces``) and its exit event counts N + 2 launches, the
gdb script's output holds N + 2 ``#0`` lines.  Capture notices the program's
end by polling every 50 ms, so each capture time carries up to 50 ms of
quantization: up to 0.025 ms per launch at 2,000 launches, before medians.

The issue's bars, printed as met or missed (not a failure): capture with
backtraces at least 3x faster per launch than the gdb script (aim 10x), and
counting only (``--no-backtraces``) under 0.05 ms per launch.  Exit status 1
when something could not be built or run, or a run did not do its work.

Usage: .venv/bin/python bench/capture_speed.py [--rounds N] [--launches N] [--keep DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from harness import GPUSYM, REPO, CouldNotRun, ms, preamble, verdict, work_directory  # noqa: E402 (a sibling)

from text_tables import table_lines

SOURCE = REPO / "tests" / "programs" / "capture_kernels.hip"

ROUNDS = 5
LAUNCHES = 2000
EXTRA_LAUNCHES = 2  # the program's hipLaunchKernelGGL and hipLaunchKernel after the loop
BAR_RATIO, AIM_RATIO = 3.0, 10.0
COUNTING_BAR_S = 0.05e-3
RUN_TIMEOUT = 600
BUILD_TIMEOUT = 600

#: The gdb script a user would write to get every launch's host stack.
GDB_SCRIPT = """\
break hipLaunchKernel
commands
bt
continue
end
run
"""


@dataclass
class Mode:
    key: str
    label: str
    #: the command for N launches, and the file its output is checked in (or None)
    command: Callable[[int], tuple[list[str], Path | None]]
    #: raises CouldNotRun unless the run recorded `expected` launches
    check: Callable[[subprocess.CompletedProcess, Path | None, int], None]


# --------------------------------------------------------------------------
# checks: each run did its work


def _tail(result: subprocess.CompletedProcess) -> str:
    return (result.stdout + result.stderr)[-3000:]


def _check_program(result: subprocess.CompletedProcess, what: str, stdout: str, launches: int) -> None:
    blocks = 2 * launches + 3 + 4  # what capture_kernels' own check expects
    if result.returncode != 0 or f"blocks {blocks} expected {blocks}" not in stdout:
        raise CouldNotRun(
            f"{what}: exit status {result.returncode}, the program's check did not pass:\n"
            f"{stdout[-1000:]}\n{_tail(result)}"
        )


def _check_alone(result: subprocess.CompletedProcess, output: Path | None, expected: int) -> None:
    _check_program(result, "the program alone", result.stdout, expected - EXTRA_LAUNCHES)


def _events(result: subprocess.CompletedProcess, output: Path) -> tuple[list[dict], dict]:
    if result.returncode != 0:
        raise CouldNotRun(f"gpusym capture: exit status {result.returncode}\n{_tail(result)}")
    events = [json.loads(line) for line in output.read_text().splitlines() if line.strip()]
    exits = [event for event in events if event["event"] == "exit"]
    if len(exits) != 1:
        raise CouldNotRun(f"gpusym capture: {len(exits)} exit events in {output}")
    return [event for event in events if event["event"] == "launch"], exits[0]


def _check_capture(backtraces: bool) -> Callable[[subprocess.CompletedProcess, Path | None, int], None]:
    def check(result: subprocess.CompletedProcess, output: Path | None, expected: int) -> None:
        assert output is not None
        launches, exit_event = _events(result, output)
        what = "gpusym capture" + ("" if backtraces else " --no-backtraces")
        _check_program(result, what, exit_event["stdout"], expected - EXTRA_LAUNCHES)
        if exit_event["launches"] != expected or len(launches) != expected:
            raise CouldNotRun(
                f"{what}: {len(launches)} launch events and {exit_event['launches']} launches counted, not {expected}"
            )
        if backtraces:
            bare = [event["seq"] for event in launches if not event.get("backtrace")]
            if bare:
                raise CouldNotRun(f"{what}: {len(bare)} launch events without a backtrace (seq {bare[:5]})")
            # the <<<>>> launches' stacks go through the kernel's stub and the loop
            stub = sum(1 for event in launches if any(f.get("role") == "kernel-stub" for f in event["backtrace"]))
            if stub < expected - EXTRA_LAUNCHES:
                raise CouldNotRun(f"{what}: only {stub} of {expected} backtraces show a kernel stub")
        elif any("backtrace" in event for event in launches):
            raise CouldNotRun(f"{what}: launch events carry backtraces")

    return check


def _check_gdb(result: subprocess.CompletedProcess, output: Path | None, expected: int) -> None:
    assert output is not None
    text = output.read_text(errors="replace")
    if result.returncode != 0 or "exited normally" not in text:
        raise CouldNotRun(
            f"the gdb script: exit status {result.returncode}, the program did not exit normally:\n{text[-3000:]}"
        )
    _check_program(result, "the gdb script", text, expected - EXTRA_LAUNCHES)
    stops = sum(1 for line in text.splitlines() if line.startswith("#0 "))
    if stops != expected:
        raise CouldNotRun(f"the gdb script: {stops} backtraces ('#0' lines), not {expected}:\n{text[-3000:]}")


# --------------------------------------------------------------------------
# running


def _modes(program: Path, work: Path) -> list[Mode]:
    script = work / "launches.gdb"
    script.write_text(GDB_SCRIPT)

    def alone(n: int) -> tuple[list[str], Path | None]:
        return [str(program), "loop", str(n)], None

    def capture(*options: str) -> Callable[[int], tuple[list[str], Path | None]]:
        def command(n: int) -> tuple[list[str], Path | None]:
            output = work / f"capture{''.join(options).replace('--', '-')}-{n}.jsonl"
            return [
                str(GPUSYM),
                "capture",
                "--jsonl",
                "-o",
                str(output),
                *options,
                "--",
                str(program),
                "loop",
                str(n),
            ], output

        return command

    def gdb(n: int) -> tuple[list[str], Path | None]:
        argv = ["gdb", "-batch", "-nx", "-x", str(script), "--args", str(program), "loop", str(n)]
        return argv, work / f"gdb-{n}.log"

    return [
        Mode("alone", "program alone", alone, _check_alone),
        Mode("capture", "gpusym capture --jsonl", capture(), _check_capture(True)),
        Mode("counting", "gpusym capture --jsonl --no-backtraces", capture("--no-backtraces"), _check_capture(False)),
        Mode("gdb", "plain gdb script (break, bt, continue)", gdb, _check_gdb),
    ]


def _environment(work: Path) -> dict[str, str]:
    """The runs' environment: Python's bytecode cache in the work directory
    (filled by the warm-up runs), so nothing is written into the repository."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env["PYTHONPYCACHEPREFIX"] = str(work / "pycache")
    return env


def _run_once(mode: Mode, launches: int, env: dict[str, str]) -> float:
    """Wall seconds of one checked run of `mode` with `launches` loop launches."""
    argv, output = mode.command(launches)
    if output is not None:
        output.unlink(missing_ok=True)
    run = {"env": env, "stdin": subprocess.DEVNULL, "text": True, "timeout": RUN_TIMEOUT}
    if mode.key == "gdb":  # the script's output goes to a file, as a user would keep it
        with open(output, "w") as log:
            start = time.perf_counter()
            result = subprocess.run(argv, stdout=log, stderr=subprocess.STDOUT, **run)
            seconds = time.perf_counter() - start
        result.stdout, result.stderr = "", ""
    else:
        start = time.perf_counter()
        result = subprocess.run(argv, capture_output=True, **run)
        seconds = time.perf_counter() - start
    mode.check(result, output, launches + EXTRA_LAUNCHES)
    return seconds


def _build(program: Path) -> float:
    start = time.perf_counter()
    arguments = [str(GPUSYM), "build", "-g", str(SOURCE), "-o", str(program)]
    result = subprocess.run(arguments, capture_output=True, text=True, timeout=BUILD_TIMEOUT)
    if result.returncode != 0:
        raise CouldNotRun(f"gpusym build -g {SOURCE.name}: exit status {result.returncode}\n{_tail(result)}")
    return time.perf_counter() - start


def measure(work: Path, rounds: int, launches: int, keep: bool = False) -> list[str]:
    program = work / "capture_kernels"
    seconds = _build(program)
    modes = _modes(program, work)
    env = _environment(work)
    counts = (launches, 0)
    for mode in modes:  # warm-up: caches (the interposer and runtime libraries, bytecode, the page cache)
        _run_once(mode, launches, env)
    times: dict[tuple[str, int], list[float]] = {(mode.key, n): [] for mode in modes for n in counts}
    for _ in range(rounds):
        for mode in modes:
            for n in counts:
                times[(mode.key, n)].append(_run_once(mode, n, env))
    median = {key: statistics.median(values) for key, values in times.items()}
    alone = median[("alone", launches)] - median[("alone", 0)]
    per_launch = {
        mode.key: (median[(mode.key, launches)] - median[(mode.key, 0)] - alone) / launches
        for mode in modes
        if mode.key != "alone"
    }

    print(
        f"capture_kernels loop {launches} ({launches + EXTRA_LAUNCHES} launches) and loop 0 "
        f"({EXTRA_LAUNCHES} launches), gpusym build -g ({seconds:.1f} s to build); "
        f"medians of {rounds} runs each"
    )
    headers = ("mode", f"N={launches}", "N=0", "per launch", "gdb script / this")
    rows = []
    for mode in modes:
        total, fixed = median[(mode.key, launches)], median[(mode.key, 0)]
        if mode.key == "alone":
            rows.append((mode.label, f"{total:.3f} s", f"{fixed:.3f} s", f"({ms(alone / launches, 3)})", ""))
            continue
        own = per_launch[mode.key]
        ratio = f"{per_launch['gdb'] / own:.1f}x" if own > 0 else "n/a"
        rows.append((mode.label, f"{total:.3f} s", f"{fixed:.3f} s", ms(own, 3), ratio))
    print("\n".join(table_lines([headers, *rows], "lrrrr", indent="  ")))
    print("  per launch: (T(N) - T(0) - the program's own (T(N) - T(0))) / N, its own in parentheses")
    print()
    where = f"in {work}" if keep else "in a temporary directory, removed at the end; --keep DIR keeps it"
    print(f"The commands, for N = {launches} ({where}):")
    for mode in modes:
        argv, output = mode.command(launches)
        line = shlex.join(argv) + (f" > {shlex.quote(str(output))} 2>&1" if mode.key == "gdb" else "")
        print(f"  {mode.label}:\n    {line}")
    print("  where the gdb script is: " + " / ".join(GDB_SCRIPT.splitlines()))

    capture, counting, gdb = per_launch["capture"], per_launch["counting"], per_launch["gdb"]
    if capture > 0:
        ratio = gdb / capture
        ratio_text = f"{ratio:.1f}x"
    else:  # at or below zero: within the noise of the measurement
        ratio, ratio_text = float("inf"), f"capture's overhead within the noise ({ms(capture, 3)})"
    return [
        verdict(
            ratio >= BAR_RATIO,
            f"capture with backtraces at least {BAR_RATIO:.0f}x faster per launch than "
            f"the plain gdb script: {ms(capture, 3)} vs {ms(gdb, 3)}, {ratio_text}",
        ),
        verdict(ratio >= AIM_RATIO, f"  aim: at least {AIM_RATIO:.0f}x ({ratio_text})"),
        verdict(
            counting < COUNTING_BAR_S,
            f"counting only (--no-backtraces) under {ms(COUNTING_BAR_S, 3)} per launch: {ms(counting, 3)}",
        ),
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=ROUNDS, help="timed runs of each mode and launch count")
    parser.add_argument("--launches", type=int, default=LAUNCHES, help="<<<>>> launches in the loop (at least 1)")
    parser.add_argument("--keep", type=Path, help="build the program and keep every output in this directory")
    options = parser.parse_args(argv)
    if options.rounds < 1 or options.launches < 1:
        parser.error("--rounds and --launches take at least 1")
    if not preamble(
        "capture_speed", "per-launch overhead of gpusym capture against a plain gdb script, from the same run"
    ):
        return 1
    started = time.perf_counter()
    try:
        with work_directory(options.keep, "gpusym-capture-speed-") as work:
            verdicts = measure(work, options.rounds, options.launches, keep=options.keep is not None)
    except (CouldNotRun, subprocess.TimeoutExpired, OSError) as error:
        print(f"capture_speed: could not run: {error}", file=sys.stderr)
        return 1
    print()
    print("The issue's bars:")
    print("\n".join(verdicts))
    print(f"({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
