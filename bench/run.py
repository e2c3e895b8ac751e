"""The benchmarks: the simulated runtime (bench/programs built with
``gpusym build -O2``, each figure with its baseline from the same run and
the ratio), gpusym query on real GPU libraries against the LLVM tools,
cuobjdump and the file's size (bench/query_speed.py), the gdb extension
(bench/gdb_speed.py) and gpusym capture's cost per kernel launch
(bench/capture_speed.py).  The runtime's kernels are measured again with
each check on (memcheck, racecheck, synccheck, initcheck), against the
unchecked run.  The pairs (bench/programs/pairs) time four programs' HIP
kernels against the same computations as OpenMP loops, in the same run.

``bench/run.py runtime`` runs the runtime part alone, ``bench/run.py pairs``
the pairs alone."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from pathlib import Path

from device.compiler.driver import build
from text_tables import table_lines

sys.path.insert(0, str(Path(__file__).resolve().parent))
import capture_speed  # noqa: E402 (sibling scripts)
import gdb_speed  # noqa: E402
import query_speed  # noqa: E402

BENCH_DIR = Path(__file__).resolve().parent
OUT_DIR = Path("build/bench")

# (figure, baseline, what the ratio means)
COMPARISONS = [
    (
        "launch_latency_us",
        "condvar_round_trip_us",
        "empty-kernel launch + synchronize vs a condition-variable round trip",
    ),
    ("launch_chevron_us", "launch_handle_us", "one launch queued with <<<>>> vs hipLaunchKernel on the handle"),
    ("alloc_free_us", "host_alloc_free_us", "hipMalloc + hipFree of 256 bytes (guarded) vs malloc + free"),
    ("vector_add_us", "vector_add_loop_us", "vector add of 2^24 floats, 256-thread blocks, vs a serial loop"),
    ("block_sum_us", "block_sum_loop_us", "shared-memory block sums with __syncthreads vs a serial loop"),
    ("shuffle_sum_us", "block_sum_loop_us", "the same sums with warp shuffles (__shfl_down) vs that serial loop"),
    ("barriers_us", "block_sum_loop_us", "the same grid only waiting at 9 barriers vs that serial loop"),
    (
        "barrier_switch_ns",
        "stack_switch_ns",
        "one lane's wait at a barrier (9 barriers against 1) vs a bare switch of stacks",
    ),
]


def _value(value: float) -> str:
    """A figure with the digits that mean something: 0.153, 5.17, 62953."""
    return f"{value:.0f}" if value >= 1000 else f"{value:.2f}" if value >= 1 else f"{value:.3f}"


def _ratio(value: float, baseline: float) -> str:
    """value / baseline, or "-" where the baseline is too small to measure
    (a fast form's barrier costs nothing once LLVM removes its empty loops)."""
    return f"{value / baseline:.2f}x" if baseline > 0.001 else "-"


def runtime_speed() -> int:
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    program = OUT_DIR / "runtime_speed"
    sources = [str(BENCH_DIR / "programs" / name) for name in ("runtime_speed.hip", "stack_switch.cpp")]
    if build(["-O2", *sources, "-o", str(program)]) != 0:
        return 1
    figures = _figures(program)
    if figures is None:
        return 1
    rows = [
        (
            figure,
            _value(figures[figure]),
            _value(figures[baseline]),
            _ratio(figures[figure], figures[baseline]),
            what,
        )
        for figure, baseline, what in COMPARISONS
    ]
    print("\n".join(table_lines([("figure", "value", "baseline", "ratio", "what"), *rows], "lrrrl")))
    debuggable = _figures(program, {"GPUSYM_FORM": "debug"})
    if debuggable is None:
        return 1
    print("\nThe kernels in their debuggable form (GPUSYM_FORM=debug: each lane on its own stack), against the")
    print("same run's figures (each kernel in its fast form, its blocks' threads as loops, where it has one):")
    rows = [
        (figure, _value(debuggable[figure]), _value(figures[figure]), _ratio(debuggable[figure], figures[figure]))
        for figure in [*CHECKED, "barriers_us", "barrier_switch_ns"]
    ]
    print("\n".join(table_lines([("figure", "debuggable", "default", "ratio"), *rows], "lrrr")))
    for tool in ("memcheck", "racecheck", "synccheck", "initcheck"):
        checked = _figures(program, {"GPUSYM_CHECK": tool})
        if checked is None:
            return 1
        print(f"\nThe kernels with {tool} on (GPUSYM_CHECK={tool}), against the same run's figures without:")
        rows = [
            (figure, _value(checked[figure]), _value(figures[figure]), _ratio(checked[figure], figures[figure]))
            for figure in CHECKED
        ]
        print("\n".join(table_lines([("figure", tool, "unchecked", "ratio"), *rows], "lrrr")))
    return 0


#: Figures of kernels that access device and __shared__ memory, measured again with each check on.
CHECKED = ["vector_add_us", "block_sum_us", "shuffle_sum_us"]


def _figures(program: Path, environment: dict[str, str] | None = None) -> dict[str, float] | None:
    """The figures `program` prints, run with `environment` added to ours."""
    result = subprocess.run(
        [program], capture_output=True, text=True, timeout=600, env=dict(os.environ, **(environment or {}))
    )
    if result.returncode != 0:
        print(result.stdout + result.stderr, file=sys.stderr)
        return None
    return {name: float(value) for name, value in (line.split() for line in result.stdout.splitlines())}


#: The pairs (bench/programs/pairs/pairs.hip), each computation at its size.
PAIRS = [
    ("stencil", "100 5-point Jacobi steps on 2048x2048 floats, 16x16 tiles with halos in shared memory"),
    ("reduction", "sum of 2^25 floats: 1,024 blocks' trees in shared memory, then one block"),
    ("nbody", "one step of 16,384 bodies, tiles of 256 bodies in shared memory"),
    ("scan", "exclusive scan of 2^25 ints: blocks of 512 in shared memory, block sums, add-back"),
]


def pairs_speed() -> int:
    """Builds the pairs with ``gpusym build -O2 -fopenmp`` (the OpenMP side
    compiled by clang-19 as plain C++) and prints each pair's HIP time, its
    OpenMP time from the same run and their ratio; then the same with the
    kernels in their debuggable form, over fewer runs."""
    OUT_DIR.mkdir(parents=True, exist_ok=True)
    program = OUT_DIR / "pairs"
    sources = [str(BENCH_DIR / "programs" / "pairs" / name) for name in ("pairs.hip", "pairs_openmp.cpp")]
    if build(["-O2", "-fopenmp", *sources, "-o", str(program)]) != 0:
        return 1
    fast = _pair_times(program, ["time"])
    if fast is None:
        return 1
    workers, threads, times = fast
    print(
        f"Pairs: HIP kernels against the same computations as OpenMP loops, on {workers} device workers and "
        f"{threads} OpenMP threads;\nmedians of each side's runs (at least 5 and a second of them; runs: HIP's/"
        "OpenMP's), the two sides taking turns in one process:"
    )
    rows = []
    ratios = []
    for name, what in PAIRS:
        hip, openmp, hip_runs, openmp_runs = times[name]
        ratios.append(hip / openmp)
        rows.append((name, _ms(hip), _ms(openmp), f"{hip / openmp:.2f}x", f"{hip_runs}/{openmp_runs}", what))
    header = ("pair", "HIP", "OpenMP", "ratio", "runs", "what")
    print("\n".join(table_lines([header, *rows], "lrrrrl")))
    geometric_mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    largest = max(zip(ratios, (name for name, _ in PAIRS)))
    print(f"geometric mean of the ratios: {geometric_mean:.2f}x; largest: {largest[0]:.2f}x ({largest[1]})")
    debuggable = _pair_times(program, ["quick"], {"GPUSYM_FORM": "debug"})
    if debuggable is None:
        return 1
    print("\nThe kernels in their debuggable form (GPUSYM_FORM=debug: each lane on its own stack), 3 runs of")
    print("each side, against that run's OpenMP times and the fast form's times above:")
    rows = []
    ratios = []
    for name, _ in PAIRS:
        hip, openmp, _, _ = debuggable[2][name]
        ratios.append(hip / openmp)
        rows.append((name, _ms(hip), _ms(openmp), f"{hip / openmp:.2f}x", f"{hip / times[name][0]:.2f}x"))
    header = ("pair", "debuggable", "OpenMP", "ratio", "debuggable / fast")
    print("\n".join(table_lines([header, *rows], "lrrrr")))
    geometric_mean = math.exp(sum(map(math.log, ratios)) / len(ratios))
    print(f"geometric mean of the ratios: {geometric_mean:.2f}x; largest: {max(ratios):.2f}x")
    return 0


def _ms(microseconds: float) -> str:
    return f"{microseconds / 1000:.1f} ms"


def _pair_times(
    program: Path, arguments: list[str], environment: dict[str, str] | None = None
) -> tuple[int, int, dict[str, tuple[float, float, int, int]]] | None:
    """The device's workers, the OpenMP team and each pair's times (HIP µs,
    OpenMP µs, the runs of each) that `program` prints; None, with its
    output, when it fails (a check among them)."""
    result = subprocess.run(
        [program, *arguments],
        capture_output=True,
        text=True,
        timeout=1200,
        env=dict(os.environ, **(environment or {})),
    )
    if result.returncode != 0:
        print(result.stdout + result.stderr, file=sys.stderr)
        return None
    workers = threads = 0
    times = {}
    for line in result.stdout.splitlines():
        words = line.split()
        if words[0] == "workers":
            workers = int(words[1])
        elif words[0] == "openmp_threads":
            threads = int(words[1])
        elif words[0] == "time":
            times[words[1]] = (float(words[2]), float(words[3]), int(words[4]), int(words[5]))
    return workers, threads, times


#: The parts `bench/run.py PART` runs alone.
PARTS = {"runtime": runtime_speed, "pairs": pairs_speed}


def main(argv: list[str]) -> int:
    if len(argv) == 1 and argv[0] in PARTS:
        return PARTS[argv[0]]()
    status = runtime_speed()
    print()
    status = status or pairs_speed()
    print()
    status = status or query_speed.main([])
    print()
    status = status or gdb_speed.main([])
    print()
    return status or capture_speed.main([])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
