"""Speed and memory of ``gpusym query`` on real libraries, each against a
baseline measured in the same run.  Wheels come from real_binaries/wheels.py's cache
(downloaded once; without network, a measurement is skipped, saying why).

1. The largest shared library with a ``.hip_fatbin`` section in CuPy's ROCm
wheel (cub), measured interleaved, each REPEAT times (median and min):

(a) ``gpusym query --json LIB > /dev/null``: wall time and peak RSS (from
    wait4, see `_MEASURE`);
(b) ``llvm-objcopy-19 --dump-section .hip_fatbin``, ``clang-offload-bundler-19
    --list`` then ``--unbundle`` per target, ``llvm-nm-19`` on each code
    object, ``llvm-nm-19`` and ``llvm-nm-19 -C`` on the host (mangled names
    tell stubs and handles, -C gives the demangled ones), outputs parsed into
    the same facts: wall time of the whole, peak RSS of its largest step;
(c) pyelftools over every symbol of the host and of each code object
    (bundle entries sliced by real_binaries/wheels.py): wall time and peak RSS;
(d) ``gpusym query --table LIB > /dev/null``: the table for people, against
    (a) (bar: at most 1.5x).

with (a) also with ``-j 1``: how reading code objects in several threads
scales.  Bar: (a) at most 0.1x (b)'s wall time.

2. cupy-cuda12x's thrust (12 LZ4-compressed cubins and a PTX): ``gpusym
query --json`` (and with ``-j 1``) against ``cuobjdump -symbols`` (the
PyPI wheel nvidia-cuda-cuobjdump), interleaved.  Bar: at most 1.0x.

3. jax-rocm7-pjrt's xla_rocm_plugin.so (438 MiB): peak memory of ``gpusym
query --json`` against the file's size, with ``-j 1`` (one process: its
peak RSS) and with every core (the peak of the RSS, and of the PSS, summed
over the process and its children (llvm-cxxfilt), sampled every 20 ms).
Bar: at most 1.0x.

Then files per second of ``gpusym query --json -r`` with ``-j 2`` and ``-j 1``
on a directory of 50 sample programs (sample_apps/programs, built once).

Met or missed is printed, not turned into a failure.  Exit status 1 when
something could not run; a wheel that cannot be downloaded is reported on
one line and the other measurements are still made (status 0).

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
from text_tables import table_lines

REPEAT = 5
BAR_RATIO, BAR_CUOBJDUMP, BAR_MEMORY = 0.1, 1.0, 1.0
BAR_TABLE_RATIO = 1.5  # --table against --json
JOBS = os.cpu_count() or 1
SAMPLE_FILES = 50
SUFFIX = ".cpython-311-x86_64-linux-gnu.so"
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
    tree_rss: int = 0  # bytes: peak of the RSS summed over the command and its descendants (when sampled)
    tree_pss: int = 0  # the same for the PSS (pages shared by N processes count 1/N in each)


#: Runs argv[3:], then writes [exit status, wall seconds, peak RSS in bytes,
#: peak summed RSS, peak summed PSS] to the file argv[1]; the sums are
#: sampled every 20 ms over the command's process tree when argv[2] is
#: "tree", else 0.  Linux hands a process the peak RSS of the memory it had
#: before exec, and a process that this one spawns starts with this one's
#: (vfork): measured from here, every command would seem as large as the
#: benchmark itself.  A small process in between forks the command from its
#: own memory, so the figure is the command's (or about 10 MB, if less).
_MEASURE = """
import json, os, sys, time
def tree(root):
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        try:
            for task in os.listdir(f"/proc/{pid}/task"):
                with open(f"/proc/{pid}/task/{task}/children") as listing:
                    todo += map(int, listing.read().split())
        except OSError:
            pass
    return found
def memory(pid):
    try:
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            fields = dict(line.split()[:2] for line in rollup if line.startswith(("Rss:", "Pss:")))
        return int(fields["Rss:"]) * 1024, int(fields["Pss:"]) * 1024
    except (OSError, KeyError, ValueError):
        return 0, 0
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[3], sys.argv[3:])
    finally:
        os._exit(127)
rss = pss = 0
while sys.argv[2] == "tree" and os.waitid(os.P_PID, pid, os.WEXITED | os.WNOHANG | os.WNOWAIT) is None:
    sizes = [memory(p) for p in tree(pid)]
    rss, pss = max(rss, sum(r for r, _ in sizes)), max(pss, sum(p for _, p in sizes))
    time.sleep(0.02)
_, status, usage = os.wait4(pid, 0)
seconds = time.perf_counter() - start
with open(sys.argv[1], "w") as out:
    json.dump([os.waitstatus_to_exitcode(status), seconds, usage.ru_maxrss * 1024, rss, pss], out)
"""


def spawn(command: list[str | Path], *, capture: bool = False, tree: bool = False) -> Run:
    """Runs `command`, measuring its wall time and its peak RSS (that of the
    process and of the children it waited for); with `tree`, also the peak
    memory of it and its descendants together."""
    with tempfile.TemporaryFile() as errors, tempfile.TemporaryDirectory(prefix="gpusym-bench-run-") as temporary:
        figures = Path(temporary, "figures.json")
        process = subprocess.Popen(
            [sys.executable, "-c", _MEASURE, figures, "tree" if tree else "-", *command],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if capture else subprocess.DEVNULL,
            stderr=errors,
            start_new_session=True,
        )
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
        status, seconds, max_rss, tree_rss, tree_pss = json.loads(figures.read_text())
    return Run(status, seconds, max_rss, stdout or b"", stderr, tree_rss, tree_pss)


def checked(command: list[str | Path], *, capture: bool = False, tree: bool = False) -> Run:
    run = spawn(command, capture=capture, tree=tree)
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
        text = (
            f"{len(self.pairs)} (target, kernel) pairs in {targets} targets, {self.stubs} stubs, {self.handles} handles"
        )
        return text + (f"; could not read {', '.join(self.unreadable)}" if self.unreadable else "")


# ---- (a) gpusym ----


def gpusym_once(library: Path, jobs: int = JOBS, tree: bool = False, output: str = "--json") -> Run:
    return checked([*wheels.gpusym_command(), "query", output, "-j", str(jobs), library], tree=tree)


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
        unbundled = step(
            [
                BUNDLER,
                "--unbundle",
                "--type=o",
                f"--input={bundle}",
                f"--targets={bundle_id}",
                f"--output={code_object}",
            ],
            allow_failure=True,
        )
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
        host = [
            (s.name, s["st_info"]["type"])
            for section in elf.iter_sections()
            if isinstance(section, SymbolTableSection)
            for s in section.iter_symbols()
        ]
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


def _scaling(one: Series, many: Series) -> str:
    return (
        f"-j {JOBS} against -j 1: {many.median / one.median:.2f}x the time "
        f"(median {many.median:.2f} s against {one.median:.2f} s)"
    )


def _methods_table(repeat: int, methods: list[tuple[str, Series, str]]) -> str:
    """Each method's median and least time, peak memory and what it found."""
    header = (f"method ({repeat} runs)", "median s", "min s", "peak MB", "facts")
    rows = [
        (label, f"{s.median:.2f}", f"{min(s.seconds):.2f}", f"{s.peak_mb:.0f}", facts) for label, s, facts in methods
    ]
    return "\n".join(table_lines([header, *rows], "lrrrl"))


def measure_library(repeat: int) -> int:
    try:
        wheel_path, library = wheels.library(wheels.CUPY_ROCM, ".hip_fatbin", "largest")
    except wheels.Unavailable as error:
        print(f"skipped the library measurements: {error}")
        return 0
    except LookupError as error:
        raise CouldNotRun(str(error)) from None
    facts_a, binary = gpusym_facts(library)
    facts_c = Facts(
        **{
            k: (set(map(tuple, v)) if k == "pairs" else v)
            for k, v in json.loads(pyelftools_once(library, capture=True).stdout).items()
        }
    )
    for line in _describe_library(wheel_path, library, binary):
        print(line)
    series = {"a": Series(), "a1": Series(), "b": Series(), "c": Series(), "d": Series()}
    with tempfile.TemporaryDirectory(prefix="gpusym-bench-") as temporary:
        facts_b = Facts()
        for _ in range(repeat):  # interleaved, so that the machine's noise falls on all alike
            run = gpusym_once(library)
            series["a"].add(run.seconds, run.max_rss)
            facts_b, seconds, peak = llvm_pipeline(library, Path(temporary))
            series["b"].add(seconds, peak)
            run = gpusym_once(library, jobs=1)
            series["a1"].add(run.seconds, run.max_rss)
            run = pyelftools_once(library)
            series["c"].add(run.seconds, run.max_rss)
            run = gpusym_once(library, output="--table")
            series["d"].add(run.seconds, run.max_rss)
    a, b, c, d = series["a"], series["b"], series["c"], series["d"]
    methods = (
        ("a", f"(a) gpusym query --json -j {JOBS}", facts_a),
        ("b", "(b) LLVM tools pipeline", facts_b),
        ("c", "(c) pyelftools loop", facts_c),
        ("a1", "(a) with -j 1", facts_a),
        ("d", "(d) gpusym query --table", facts_a),
    )
    print()
    print(_methods_table(repeat, [(label, series[key], facts.summary()) for key, label, facts in methods]))
    missing = (facts_b.pairs | facts_c.pairs) - facts_a.pairs
    if missing:
        print(
            f"warning: {len(missing)} (target, kernel) pairs the other methods see are not in gpusym's report, "
            f"e.g. {sorted(missing)[:3]}"
        )
    ratio_b, ratio_c = a.median / b.median, a.median / c.median
    print(f"ratio a/b: {ratio_b:.3f}x  (bar <= {BAR_RATIO}x: {_verdict(ratio_b <= BAR_RATIO)})")
    print(f"ratio a/c: {ratio_c:.3f}x")
    print(f"scaling: {_scaling(series['a1'], a)}")
    ratio_table = d.median / a.median
    print(
        f"ratio d/a: {ratio_table:.2f}x  (--table against --json, bar <= {BAR_TABLE_RATIO}x: "
        f"{_verdict(ratio_table <= BAR_TABLE_RATIO)})"
    )
    return 0


def _cuobjdump_pairs(text: str) -> set[tuple[str, str]]:
    """(arch, kernel) of each entry function ``cuobjdump -symbols`` lists."""
    pairs, arch = set(), ""
    for line in text.splitlines():
        if line.startswith("arch = "):
            arch = line.split("=", 1)[1].strip()
        elif line.startswith("FUNC") and len(fields := line.split()) >= 5 and fields[3] == "ENTRY":
            pairs.add((arch, fields[4]))
    return pairs


def measure_cuda(repeat: int) -> int:
    try:
        cuobjdump = wheels.cuobjdump()
        wheel_path, library = wheels.library(wheels.CUPY_CUDA, ".nv_fatbin", "cupy/cuda/thrust" + SUFFIX)
    except wheels.Unavailable as error:
        print(f"skipped the cuobjdump comparison: {error}")
        return 0
    except LookupError as error:
        raise CouldNotRun(str(error)) from None
    _, binary = gpusym_facts(library)
    cubins = {c["index"] for c in binary["code_objects"] if c["format"] == "elf"}
    ours = {(d["target"], d["symbol"]) for k in binary["kernels"] for d in k["device"] if d["code_object"] in cubins}
    theirs = _cuobjdump_pairs(checked([cuobjdump, "-symbols", library], capture=True).stdout.decode(errors="replace"))
    formats = ", ".join(f"{sum(c['format'] == f for c in binary['code_objects'])} {f}" for f in ("elf", "ptx"))
    print(
        f"\nwheel:   {wheel_path.name}\nlibrary: cupy/cuda/thrust{SUFFIX} ({library.stat().st_size / 1e6:.1f} MB, "
        f"{len(binary['code_objects'])} code objects: {formats}); {cuobjdump.parent.parent.parent.parent.name}"
    )
    series = {"a": Series(), "a1": Series(), "d": Series()}
    for _ in range(repeat):  # interleaved
        run = gpusym_once(library)
        series["a"].add(run.seconds, run.max_rss)
        run = checked([cuobjdump, "-symbols", library])
        series["d"].add(run.seconds, run.max_rss)
        run = gpusym_once(library, jobs=1)
        series["a1"].add(run.seconds, run.max_rss)
    methods = (
        ("a", f"(a) gpusym query --json -j {JOBS}", ours),
        ("d", "(d) cuobjdump -symbols", theirs),
        ("a1", "(a) with -j 1", ours),
    )
    print()
    print(
        _methods_table(
            repeat,
            [(label, series[key], f"{len(facts)} (arch, kernel) pairs in the cubins") for key, label, facts in methods],
        )
    )
    if ours != theirs:
        print(f"warning: the pairs differ: {len(theirs - ours)} only cuobjdump's, {len(ours - theirs)} only gpusym's")
    ratio = series["a"].median / series["d"].median
    print(f"ratio a/d: {ratio:.3f}x  (bar <= {BAR_CUOBJDUMP}x: {_verdict(ratio <= BAR_CUOBJDUMP)})")
    print(f"scaling: {_scaling(series['a1'], series['a'])}")
    return 0


def measure_memory() -> int:
    try:
        wheel_path, library = wheels.library(wheels.JAX_ROCM7_PJRT, ".hip_fatbin", "largest")
    except wheels.Unavailable as error:
        print(f"skipped the memory measurement: {error}")
        return 0
    except LookupError as error:
        raise CouldNotRun(str(error)) from None
    size = library.stat().st_size
    member = library.relative_to(wheel_path.parent / wheel_path.name.removesuffix(".whl"))
    fatbin = wheels.describe_elf_sections(library)[".hip_fatbin"][1]
    print(
        f"\nwheel:   {wheel_path.name}\nlibrary: {member} "
        f"({size / 2**20:.0f} MiB; .hip_fatbin {fatbin / 2**20:.0f} MiB)"
    )
    one = gpusym_once(library, jobs=1)
    many = gpusym_once(library, tree=True)
    rows = (
        ("-j 1", one.seconds, one.max_rss, "RSS of its one process"),
        (f"-j {JOBS}", many.seconds, many.tree_rss, "RSS summed over it and llvm-cxxfilt"),
        (f"-j {JOBS}", many.seconds, many.tree_pss, "PSS summed (shared pages counted once)"),
    )
    cells = [
        (label, f"{seconds:.1f}", f"{peak / 2**20:.0f}", f"{peak / size:.2f}x", what)
        for label, seconds, peak, what in rows
    ]
    print(
        "\n".join(
            table_lines(
                [("gpusym query --json (1 run each)", "s", "peak MiB", "x size", "what the peak is"), *cells], "lrrrl"
            )
        )
    )
    for label, peak in (("-j 1", one.max_rss), (f"-j {JOBS}, RSS summed", many.tree_rss)):
        print(f"peak memory {label}: {peak / size:.2f}x the file  (bar <= {BAR_MEMORY}x: {_verdict(peak <= size)})")
    print(f"scaling: -j {JOBS} against -j 1: {many.seconds / one.seconds:.2f}x the time")
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
        print(
            f"\n{SAMPLE_FILES} sample programs ({', '.join(p.name for p in programs)}; {total_mb:.1f} MB), "
            f"gpusym query --json -r DIR, {repeat} runs:"
        )
        rates = {}
        for jobs in (2, 1):
            times = [
                checked([*wheels.gpusym_command(), "query", "--json", "-j", str(jobs), "-r", directory]).seconds
                for _ in range(repeat)
            ]
            rates[jobs] = SAMPLE_FILES / statistics.median(times)
            print(
                f"  -j {jobs}: {rates[jobs]:7.1f} files/s (median {statistics.median(times):.2f} s, "
                f"min {min(times):.2f} s)"
            )
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
    for measurement in (measure_library, measure_cuda, lambda _: measure_memory(), measure_files_per_second):
        try:
            status |= measurement(max(1, args.repeat))
        except CouldNotRun as error:
            print(f"query_speed: could not run: {error}", file=sys.stderr)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())
