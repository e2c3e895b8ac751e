"""``gpusym demo``: builds the sample programs with the real toolchain, runs
them on the simulated device, stops plain gdb inside a kernel, and reports."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.table import Table

from sample_apps.samples import SAMPLES, BuildFailed, Sample, build_sample

RUN_TIMEOUT = 120


@dataclass
class Outcome:
    sample: Sample
    build_seconds: float
    passed: bool
    output: str  # the line that shows what it did
    blocking_passed: bool


def _run(program: Path, blocking: bool) -> subprocess.CompletedProcess:
    env = dict(os.environ, GPUSYM_LAUNCH_BLOCKING="1" if blocking else "0")
    return subprocess.run([program], capture_output=True, text=True, env=env, timeout=RUN_TIMEOUT)


def _as_expected(sample: Sample, run: subprocess.CompletedProcess) -> bool:
    """Exit 0, or for a sample that faults on purpose: the runtime's report
    and death by SIGSEGV."""
    if sample.faults:
        return run.returncode == -signal.SIGSEGV and "gpusym: kernel " in run.stderr
    return run.returncode == 0


def _summary_line(sample: Sample, run: subprocess.CompletedProcess) -> str:
    """The line that shows what the program did: its own verdict, or the fault report."""
    if sample.faults:
        return next((line for line in run.stderr.splitlines() if line.startswith("gpusym: kernel ")), "(no report)")
    output = (run.stdout + run.stderr).strip()
    return output.splitlines()[-1] if output else "(nothing)"


def _gdb_stop_in_kernel(program: Path) -> str | None:
    """The line plain gdb prints when `break vector_add` stops in the kernel."""
    command = [
        "gdb",
        "-nx",
        "-batch",
        "-ex",
        "set breakpoint pending on",
        "-ex",
        "break vector_add",
        "-ex",
        "run",
        "-ex",
        "kill",
        str(program),
    ]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT)
    except (OSError, subprocess.TimeoutExpired):
        return None
    match = re.search(r"hit Breakpoint 1, (vector_add \(.*?\)) at .*?(\w+\.hip:\d+)", result.stdout)
    return f"{match.group(1)} at {match.group(2)}" if match else None


def _capture_report(program: Path, console: Console, expected_exit: int = 0) -> bool:
    """``gpusym capture`` of `program`, its report printed; whether it ended
    with `expected_exit` (capture's status: 128 + N for death by signal N)."""
    from capture.events import Event
    from capture.report import render
    from gpusym.capture_under_gdb import CaptureFailed, Options, capture

    events: list[Event] = []
    try:
        exit_event = capture(Options(str(program.resolve()), []), events.append)
    except CaptureFailed as error:
        console.print(f"[red]gpusym capture failed: {error}[/red]")
        return False
    render(events, console)
    return exit_event.exit_code == expected_exit


def run_demo(build_dir: str) -> int:
    console = Console()
    out_dir = Path(build_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"gpusym demo: cannot use {out_dir} for the programs: {error.strerror or error}", file=sys.stderr)
        return 1
    outcomes: list[Outcome] = []
    for sample in SAMPLES:
        with console.status(f"building {sample.name} with gpusym build -g ..."):
            started = time.perf_counter()
            try:
                program = build_sample(sample, out_dir)
            except BuildFailed as error:
                console.print(f"[red]{error}[/red]")
                return 1
            seconds = time.perf_counter() - started
        with console.status(f"running {sample.name} on the simulated device ..."):
            run = _run(program, blocking=False)
            blocking = _run(program, blocking=True)
        outcomes.append(
            Outcome(
                sample, seconds, _as_expected(sample, run), _summary_line(sample, run), _as_expected(sample, blocking)
            )
        )

    table = Table(title=f"gpusym demo: sample programs built into {out_dir}/")
    table.add_column("program")
    table.add_column("shows")
    table.add_column("build", justify="right")
    table.add_column("async")
    table.add_column("blocking")
    verdict = {True: "[green]pass[/green]", False: "[red]FAIL[/red]"}
    for outcome in outcomes:
        table.add_row(
            outcome.sample.name,
            outcome.sample.summary,
            f"{outcome.build_seconds:.1f} s",
            verdict[outcome.passed],
            verdict[outcome.blocking_passed],
        )
    console.print(table)
    console.print("what each program printed (its own check of the device's results; fault: the runtime's report):")
    for outcome in outcomes:
        console.print(f"  {outcome.output}", highlight=False, soft_wrap=True)

    with console.status("plain gdb: break vector_add, run ..."):
        stop = _gdb_stop_in_kernel(out_dir / "vector_add")
    if stop:
        console.print("plain gdb, [bold]break vector_add[/bold] (pending until the runtime loads the code object):")
        console.print(f"  stopped in the device kernel: {stop}", highlight=False, soft_wrap=True)
    else:
        console.print("[red]plain gdb did not stop in the vector_add kernel[/red]")

    console.print(f"\n[bold]gpusym capture -- {out_dir}/templates[/bold] (every launch, with its host stack):")
    with console.status("gpusym capture: running templates under gdb ..."):
        captured = _capture_report(out_dir / "templates", console)

    console.print(f"\n[bold]gpusym capture -- {out_dir}/fault[/bold] (a kernel's out-of-bounds read, explained):")
    with console.status("gpusym capture: running fault under gdb ..."):
        fault_captured = _capture_report(out_dir / "fault", console, 128 + signal.SIGSEGV)

    ok = all(o.passed and o.blocking_passed for o in outcomes) and stop is not None and captured and fault_captured
    console.print("[bold green]all samples passed[/bold green]" if ok else "[bold red]some samples failed[/bold red]")
    return 0 if ok else 1
