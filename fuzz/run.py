"""Fuzzes every parser of ``symbols/`` for a while and says what it found.

    python -m fuzz.run [--seconds N] [--jobs N] [--out DIR] [--no-nvcc] [TARGET...]

(``make fuzz`` runs it with ``FUZZ_SECONDS`` per target, default 300; the
test suite runs it for a few seconds per target, tests/fuzz/test_fuzz.py.)

Each target (fuzz/targets.py) runs under atheris, the coverage-guided
libFuzzer for Python, in a process of its own, for `--seconds`, starting
from seeds made at run time (fuzz/seeds.py), the inputs of earlier findings
kept in fuzz/regressions/TARGET/, and the corpus earlier runs grew in
DIR/corpus/TARGET/ (DIR: ``build/fuzz`` unless ``--out``).  A finding is
an exception other than FormatError, a broken invariant, one input taking
more than ``--timeout`` seconds (default 10; a normal parse of the largest
seed takes milliseconds) or the process growing past ``--rss-limit-mb``
(default 2048); its input is written to DIR/findings/TARGET/.

Prints one line per target (executions, corpus, findings) and writes them to
DIR/summary.json.  Exit status 1 when something was found or a target could
not run, 0 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
REGRESSIONS = REPO / "fuzz" / "regressions"
TARGETS = [
    "elf",
    "offload_bundle",
    "compressed_bundle",
    "offload_binary",
    "nv_fatbin",
    "amdgpu_metadata",
    "device_code",
    "spirv",
    "names",
    "analyze",
]
_STAT = re.compile(r"^stat::(\w+):\s+(\d+)", re.M)
_WRITTEN = re.compile(r"Test unit written to (\S+)")


@dataclass
class Result:
    target: str
    seconds: float
    executions: int = 0
    executions_per_second: int = 0
    new_units: int = 0
    corpus: int = 0
    peak_rss_mb: int = 0
    findings: list[str] = field(default_factory=list)
    problem: str = ""  # why the run failed, with the end of its output

    @property
    def ok(self) -> bool:
        return not self.findings and not self.problem


def fuzz(target: str, seconds: float, out: Path, seeds: Path, timeout: int, rss_limit_mb: int) -> Result:
    corpus = out / "corpus" / target
    findings = out / "findings" / target
    corpus.mkdir(parents=True, exist_ok=True)
    findings.mkdir(parents=True, exist_ok=True)
    inputs = [corpus] + [d for d in (seeds / target, REGRESSIONS / target) if d.is_dir()]
    command = [
        sys.executable,
        "-m",
        "fuzz.worker",
        target,
        f"-max_total_time={max(1, round(seconds))}",
        f"-timeout={timeout}",
        f"-rss_limit_mb={rss_limit_mb}",
        f"-artifact_prefix={findings}/",
        "-print_final_stats=1",
        *map(str, inputs),
    ]
    started = time.monotonic()
    try:
        process = subprocess.run(
            command, cwd=REPO, capture_output=True, text=True, errors="replace", timeout=seconds + timeout + 300
        )
    except subprocess.TimeoutExpired:
        return Result(target, time.monotonic() - started, problem="the fuzzer did not stop on time")
    result = Result(target, time.monotonic() - started)
    stats = {name: int(value) for name, value in _STAT.findall(process.stderr)}
    result.executions = stats.get("number_of_executed_units", 0)
    result.executions_per_second = stats.get("average_exec_per_sec", 0)
    result.new_units = stats.get("new_units_added", 0)
    result.peak_rss_mb = stats.get("peak_rss_mb", 0)
    result.corpus = sum(1 for _ in corpus.iterdir())
    result.findings = _WRITTEN.findall(process.stderr)
    if process.returncode != 0 and not result.findings:
        result.problem = f"exit status {process.returncode}"
    if not result.ok:
        result.problem += "\n" + process.stderr[-6000:]
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fuzz.run", description=__doc__.split("\n\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET", help=f"some of: {', '.join(TARGETS)} (default: all)")
    parser.add_argument(
        "--seconds",
        type=float,
        default=float(os.environ.get("FUZZ_SECONDS", 300)),
        help="per target (default: $FUZZ_SECONDS or 300)",
    )
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="targets fuzzed at once")
    parser.add_argument("--out", type=Path, default=REPO / "build" / "fuzz", help="corpus, findings, summary")
    parser.add_argument("--timeout", type=int, default=10, help="seconds one input may take")
    parser.add_argument("--rss-limit-mb", type=int, default=2048, help="memory a target process may use")
    parser.add_argument("--no-nvcc", action="store_true", help="make no seeds with nvcc (it is slow)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.targets) - set(TARGETS))
    if unknown:
        parser.error(f"unknown targets: {', '.join(unknown)}")
    targets = args.targets or TARGETS
    try:
        import atheris  # noqa: F401
    except ImportError:
        print("fuzz: atheris is not installed (pip install -e '.[test]')", file=sys.stderr)
        return 1

    from fuzz import seeds as seed_maker

    args.out.mkdir(parents=True, exist_ok=True)
    seed_dir = Path(tempfile.mkdtemp(prefix="gpusym-fuzz-"))
    try:
        count = seed_maker.write(seed_dir, nvcc=not args.no_nvcc)
        print(
            f"fuzz: {count} seeds; {len(targets)} targets, {args.seconds:g} s each, {args.jobs} at a time", flush=True
        )
        with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
            results = list(
                pool.map(lambda t: fuzz(t, args.seconds, args.out, seed_dir, args.timeout, args.rss_limit_mb), targets)
            )
    finally:
        shutil.rmtree(seed_dir, ignore_errors=True)
    for result in results:
        status = "ok" if result.ok else (f"{len(result.findings)} finding(s)" if result.findings else "FAILED")
        print(
            f"{result.target:18} {result.executions:>10,} executions {result.executions_per_second:>7,}/s"
            f"  corpus {result.corpus:>5}  peak {result.peak_rss_mb:>4} MB  {status}"
        )
        for finding in result.findings:
            print(f"  input: {finding}")
            print(f"  reproduce: python -m fuzz.worker {result.target} {finding}")
        if result.problem:
            print("  " + result.problem.strip().replace("\n", "\n  "))
    total = sum(result.executions for result in results)
    print(f"fuzz: {total:,} executions in all; {sum(len(r.findings) for r in results)} findings")
    summary = {"seconds_per_target": args.seconds, "executions": total, "targets": [asdict(r) for r in results]}
    (args.out / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return 0 if all(result.ok for result in results) else 1


if __name__ == "__main__":
    sys.exit(main())
