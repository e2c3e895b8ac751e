"""Speed and memory of ``gpusym query`` on a real library, against the LLVM
tools pipeline a user would otherwise script, and a plain pyelftools loop.

The library is the largest shared library with a ``.hip_fatbin`` section in
CuPy's ROCm wheel (see real_binaries/wheels.py for the cache).  Measured in one run,
interleaved, each REPEAT times (median and min reported):

(a) ``gpusym query --json LIB > /dev/null``: wall time and peak RSS (from
    wait4, see `_MEASURE`);
(b) ``llvm-objcopy-19 --dump-section .hip_fatbin``, ``clang-offload-bundler-19
    --list`` then ``--unbundle`` per target, ``llvm-nm-19`` on each code
    object, ``llvm-nm-19`` and ``llvm-nm-19 -C`` on the host (mangled names
    tell stubs and handles, -C gives the demangled ones), outputs parsed into
    the same facts: wall time of the whole, peak RSS of its largest step;
(c) pyelftools over every symbol of the host and of each code object
    (bundle entries sliced by real_binaries/wheels.py): wall time and peak RSS.

Then files per second of ``gpusym query --json -r`` with ``-j 2`` and ``-j 1``
on a directory of 50 sample programs (sample_apps/programs, built once).

The issue's bar: (a) at most 0.2x (b)'s wall time (aim 0.1x) and a peak RSS
under 400 MB; met or missed is printed, not turned into a failure.  Exit
status 1 when something could not run; a wheel that cannot be downloaded is
reported on one line and the other measurements are still made (status 0).

Usage: .venv/bin/python bench/query_speed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import io
import json
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from real_binaries import wheels

REPEAT = 5
BAR_RATIO, AIM_RATIO, BAR_MEMORY_MB = 0.2, 0.1, 400
SAMPLE_FILES = 50
OBJCOPY, BUNDLER, NM = "llvm-objcopy-19", "clang-offload-bundler-19", "llvm-nm-19"
STEP_TIMEOUT = 600


class CouldNotRun(Exception):
    """A measurement could not be made: the reason."""


@dataclass
class Run:
    status: int
    seconds: float
    max_rss: int  # bytes
    stdout: bytes
    stderr: str


#: Runs argv[2:], then writes [exit status, wall seconds, peak RSS in bytes]
#: to the file argv[1].  Linux hands a process the peak RSS of the memory it
#: had before exec, and a process that this one spawns starts with this
#: one's (vfork): measured from here, every command would seem as large as
#: the benchmark itself.  A small process in between forks the command from
#: its own memory, so the figure is the command's (or about 10 MB, if less).
_MEASURE = """
import json, os, sys, time
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    json.dump([os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss * 1024], out)
"""


def spawn(command: list[str | Path], *, capture: bool = False) -> Run:
    """Runs `command`, measuring its wall time and its peak RSS (that of the
    process and of the children it waited for)."""
    with tempfile.TemporaryFile() as errors, tempfile.TemporaryDirectory(prefix="gpusym-bench-run-") as temporary:
        figures = Path(temporary, "figures.json")
        process = subprocess.Popen([sys.executable, "-c", _MEASURE, figures, *command], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.PIPE if capture else subprocess.DEVNULL, stderr=errors,
                                   start_new_session=True)  # fmt: skip
        try:
            stdout, _ = process.communicate(timeout=STEP_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the measuring process's group: it and the command
            process.communicate()
            raise CouldNotRun(f"{' '.join(map(str, command))} took over {STEP_TIMEOUT} s") from None
        errors.seek(0)
        stderr = errors.read().decode(errors="replace")
        if process.returncode != 0 or not figures.exists():
            raise CouldNotRun(f"measuring {' '.join(map(str, command))} failed: {stderr.strip()[-300:]}")
        status, seconds, max_rss = json.loads(figures.read_text())
    return Run(status, seconds, max_rss, stdout or b"", stderr)


def checked(command: list[str | Path], *, capture: bool = False) -> Run:
    run = spawn(command, capture=capture)
    if run.status != 0:
        last = (run.stderr.strip().splitlines() or ["no message"])[-1]
        raise CouldNotRun(f"{' '.join(map(str, command))}: exit status {run.status}: {last}")
    return run


@dataclass
class Facts:
    """What each method found: (target, kernel) pairs, stubs, handles."""

    pairs: set[tuple[str, str]] = field(default_factory=set)
    stubs: int = 0
    handles: int = 0
    unreadable: list[str] = field(default_factory=list)  # targets a method could not read

    def summary(self) -> str:
        targets = len({t for t, _ in self.pairs})
        text = (f"{len(self.pairs)} (target, kernel) pairs in {targets} targets, {self.stubs} stubs, "
                f"{self.handles} handles")  # fmt: skip
        return text + (f"; could not read {', '.join(self.unreadable)}" if self.unreadable else "")


# ---- (a) gpusym ----


def gpusym_once(library: Path) -> Run:
    return checked([*wheels.gpusym_command(), "query", "--json", library])


def gpusym_facts(library: Path) -> tuple[Facts, dict]:
    report = json.loads(checked([*wheels.gpusym_command(), "query", "--json", library], capture=True).stdout)
    if report["errors"]:
        raise CouldNotRun(f"gpusym query: {report['errors'][0]['error']}")
    binary = report["binaries"][0]
    facts = Facts(
        {(d["target"], d["symbol"]) for k in binary["kernels"] for d in k["device"]},
        sum(1 for k in binary["kernels"] if k["stub"]),
        sum(1 for k in binary["kernels"] if k["handle"]),
    )
    return facts, binary


# ---- (b) the LLVM tools ----


def _nm_symbols(text: str) -> dict[str, str]:
    """name -> type (FUNC, OBJECT...) from ``llvm-nm -f sysv``."""
    symbols = {}
    for line in text.splitlines():
        parts = line.split("|")
        if len(parts) == 7:
            symbols[parts[0].strip()] = parts[3].strip()
    return symbols


def llvm_pipeline(library: Path, workdir: Path) -> tuple[Facts, float, int]:
    """(facts, wall seconds, peak RSS of the largest step) of the LLVM tools
    getting what gpusym reports.  The seconds are the commands' own and this
    process's parsing of their output, not the measuring processes'."""
    start = time.perf_counter()
    peak, measuring = 0, 0.0  # measuring: time spent starting and ending the measuring processes

    def step(command, capture=False, allow_failure=False) -> Run:
        nonlocal peak, measuring
        before = time.perf_counter()
        run = spawn(command, capture=capture) if allow_failure else checked(command, capture=capture)
        measuring += time.perf_counter() - before - run.seconds
        peak = max(peak, run.max_rss)
        return run

    bundle = workdir / "hip_fatbin"
    step([OBJCOPY, f"--dump-section=.hip_fatbin={bundle}", library, "/dev/null"])
    ids = step([BUNDLER, "--list", "--type=o", f"--input={bundle}"], capture=True).stdout.decode().split()
    facts = Facts()
    for bundle_id in ids:
        if bundle_id.startswith("host-"):
            continue
        target = bundle_id.split("-", 5)[5]
        code_object = workdir / f"{target.replace(':', '_')}.co"
        unbundled = step([BUNDLER, "--unbundle", "--type=o", f"--input={bundle}", f"--targets={bundle_id}",
                          f"--output={code_object}"], allow_failure=True)  # fmt: skip
        if unbundled.status != 0:
            facts.unreadable.append(target)
            continue
        symbols = _nm_symbols(step([NM, "-f", "sysv", code_object], capture=True).stdout.decode())
        facts.pairs |= {(target, n) for n, t in symbols.items() if t == "FUNC" and f"{n}.kd" in symbols}
    # Mangled names tell stubs and handles (variables named like the kernel);
    # -C gives the demangled names gpusym reports beside them.
    host = _nm_symbols(step([NM, "-f", "sysv", library], capture=True).stdout.decode(errors="replace"))
    device_names = {k for _, k in facts.pairs}
    facts.stubs = sum(1 for n, t in host.items() if t == "FUNC" and "__device_stub__" in n)
    facts.handles = sum(1 for n, t in host.items() if t == "OBJECT" and n in device_names)
    step([NM, "-C", library], capture=True).stdout.decode(errors="replace").splitlines()  # read, as a script would
    seconds = time.perf_counter() - start - measuring
    for path in workdir.iterdir():
        path.unlink()
    return facts, seconds, peak


# ---- (c) pyelftools ----


def pyelftools_loop(library: str) -> dict:
    """Every symbol of the host and of each AMDGPU code object, with
    pyelftools; the facts as JSON-able counts."""
    from elftools.elf.elffile import ELFFile
    from elftools.elf.sections import SymbolTableSection

    with open(library, "rb") as stream:
        elf = ELFFile(stream)
        host = [(s.name, s["st_info"]["type"]) for section in elf.iter_sections()
                if isinstance(section, SymbolTableSection) for s in section.iter_symbols()]  # fmt: skip
        bundle = elf.get_section_by_name(".hip_fatbin").data()
    pairs = set()
    for entry in wheels.bundle_entries(bundle):
        if not entry.target:
            continue
        code_object = ELFFile(io.BytesIO(entry.data))
        symbols = {s.name: s["st_info"]["type"] for s in code_object.get_section_by_name(".symtab").iter_symbols()}
        pairs |= {(entry.target, n) for n, t in symbols.items() if t == "STT_FUNC" and f"{n}.kd" in symbols}
    kernels = {k for _, k in pairs}
    return {
        "pairs": sorted(pairs),
        "stubs": sum(1 for n, t in host if t == "STT_FUNC" and "__device_stub__" in n),
        "handles": len({n for n, t in host if t == "STT_OBJECT" and n in kernels}),
    }


def pyelftools_once(library: Path, capture: bool = False) -> Run:
    return checked([sys.executable, Path(__file__).resolve(), "--pyelftools-loop", library], capture=capture)


# ---- reporting ----


@dataclass
class Series:
    seconds: list[float] = field(default_factory=list)
    rss: list[int] = field(default_factory=list)

    def add(self, seconds: float, rss: int) -> None:
        self.seconds.append(seconds)
        self.rss.append(rss)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def peak_mb(self) -> float:
        return max(self.rss) / 1e6


def _describe_library(wheel_path: Path, library: Path, binary: dict) -> list[str]:
    sections = wheels.describe_elf_sections(library)
    fatbin_offset, fatbin_size = sections[".hip_fatbin"]
    code_objects = binary["code_objects"]
    containers = sorted({c["container"] for c in code_objects})
    compressed = sorted({c["compressed"] for c in code_objects})
    per_target: dict[str, int] = {}
    for kernel in binary["kernels"]:
        for device in kernel["device"]:
            per_target[device["target"]] = per_target.get(device["target"], 0) + 1
    counts = sorted(set(per_target.values()))
    count_text = f"{counts[0]} each" if len(counts) == 1 else ", ".join(f"{t} {n}" for t, n in per_target.items())
    member = library.relative_to(wheel_path.parent / wheel_path.name.removesuffix(".whl"))
    return [
        f"wheel:   {wheel_path.name} ({wheel_path.stat().st_size / 1e6:.1f} MB)",
        f"library: {member} ({library.stat().st_size / 1e6:.1f} MB)",
        f"  .hip_fatbin: {fatbin_size / 1e6:.1f} MB at {fatbin_offset:#x}; {', '.join(containers)}; "
        f"compressed: {', '.join(map(str, compressed))}",
        f"  {len(code_objects)} code objects: {', '.join(c['target'] for c in code_objects)}",
        f"  kernels per target: {count_text}; {len(binary['kernels'])} kernels, "
        f"{len(binary['device_functions'])} device functions, {len(binary['device_variables'])} device variables",
    ]


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def measure_library(repeat: int) -> int:
    try:
        wheel_path, library = wheels.library(wheels.CUPY_ROCM, ".hip_fatbin", "largest")
    except wheels.Unavailable as error:
        print(f"skipped the library measurements: {error}")
        return 0
    except LookupError as error:
        raise CouldNotRun(str(error)) from None
    facts_a, binary = gpusym_facts(library)
    facts_c = Facts(**{k: (set(map(tuple, v)) if k == "pairs" else v)
                       for k, v in json.loads(pyelftools_once(library, capture=True).stdout).items()})  # fmt: skip
    for line in _describe_library(wheel_path, library, binary):
        print(line)
    series = {"a": Series(), "b": Series(), "c": Series()}
    with tempfile.TemporaryDirectory(prefix="gpusym-bench-") as temporary:
        facts_b = Facts()
        for _ in range(repeat):  # interleaved, so that the machine's noise falls on all three alike
            run = gpusym_once(library)
            series["a"].add(run.seconds, run.max_rss)
            facts_b, seconds, peak = llvm_pipeline(library, Path(temporary))
            series["b"].add(seconds, peak)
            run = pyelftools_once(library)
            series["c"].add(run.seconds, run.max_rss)
    a, b, c = series["a"], series["b"], series["c"]
    print(f"\n{'method (' + str(repeat) + ' runs)':<34}{'median s':>10}{'min s':>9}{'peak MB':>9}  facts")
    for key, label, facts in (("a", "(a) gpusym query --json", facts_a), ("b", "(b) LLVM tools pipeline", facts_b),
                              ("c", "(c) pyelftools loop", facts_c)):  # fmt: skip
        s = series[key]
        print(f"{label:<34}{s.median:>10.2f}{min(s.seconds):>9.2f}{s.peak_mb:>9.0f}  {facts.summary()}")
    missing = (facts_b.pairs | facts_c.pairs) - facts_a.pairs
    if missing:
        print(f"warning: {len(missing)} (target, kernel) pairs the other methods see are not in gpusym's report, "
              f"e.g. {sorted(missing)[:3]}")  # fmt: skip
    ratio_b, ratio_c = a.median / b.median, a.median / c.median
    print(f"ratio a/b: {ratio_b:.3f}x  (bar <= {BAR_RATIO}x: {_verdict(ratio_b <= BAR_RATIO)}; "
          f"aim <= {AIM_RATIO}x: {_verdict(ratio_b <= AIM_RATIO)})")  # fmt: skip
    print(f"ratio a/c: {ratio_c:.3f}x")
    print(f"gpusym peak memory: {a.peak_mb:.0f} MB  (bar < {BAR_MEMORY_MB} MB: {_verdict(a.peak_mb < BAR_MEMORY_MB)})")
    return 0


def measure_files_per_second(repeat: int) -> int:
    from sample_apps.samples import SAMPLES, BuildFailed, build_sample

    with tempfile.TemporaryDirectory(prefix="gpusym-bench-samples-") as temporary:
        root = Path(temporary)
        try:
            programs = [build_sample(sample, root / "build" / sample.name) for sample in SAMPLES]
        except BuildFailed as error:
            raise CouldNotRun(str(error)) from None
        directory = root / "binaries"
        directory.mkdir()
        for number in range(SAMPLE_FILES):
            program = programs[number % len(programs)]
            shutil.copy2(program, directory / f"{number:02d}-{program.name}")
        total_mb = sum(p.stat().st_size for p in directory.iterdir()) / 1e6
        print(f"\n{SAMPLE_FILES} sample programs ({', '.join(p.name for p in programs)}; {total_mb:.1f} MB), "
              f"gpusym query --json -r DIR, {repeat} runs:")  # fmt: skip
        rates = {}
        for jobs in (2, 1):
            times = [checked([*wheels.gpusym_command(), "query", "--json", "-j", str(jobs), "-r", directory]).seconds
                     for _ in range(repeat)]  # fmt: skip
            rates[jobs] = SAMPLE_FILES / statistics.median(times)
            print(f"  -j {jobs}: {rates[jobs]:7.1f} files/s (median {statistics.median(times):.2f} s, "
                  f"min {min(times):.2f} s)")  # fmt: skip
        print(f"  -j 2 / -j 1: {rates[2] / rates[1]:.2f}x")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=REPEAT, help="runs of each measurement (default: %(default)s)")
    # Method (c) runs in a process of its own, as this script with:
    parser.add_argument("--pyelftools-loop", metavar="LIB", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.pyelftools_loop:
        json.dump(pyelftools_loop(args.pyelftools_loop), sys.stdout)
        return 0
    for tool in (OBJCOPY, BUNDLER, NM):
        if shutil.which(tool) is None:
            print(f"query_speed: {tool} is not installed (make setup installs it)", file=sys.stderr)
            return 1
    status = 0
    for measurement in (measure_library, measure_files_per_second):
        try:
            status |= measurement(max(1, args.repeat))
        except CouldNotRun as error:
            print(f"query_speed: could not run: {error}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
