"""Builds CUDA programs of HeCBench (a checkout of its repository) for the
simulated device, each through its own Makefile with ``gpusym-nvcc``, runs
it, and prints one line per program: passed (exit status 0 and no failure
in its output), ran (exit status 0, no check of its own printed), failed
(exit status, last output line), timed out, or not built (the first
error).  The docs' account of HeCBench is made from its output:

    .venv/bin/python scripts/try_hecbench.py CHECKOUT [NAME...] [--sample N --seed S]

NAMEs are folders of CHECKOUT/src, such as stencil1d-cuda; --sample picks N
of its CUDA programs at random (the seed makes the pick again) among those
whose Makefile names no MPI and no library outside the simulated device.
A program runs with its Makefile's `run` target, or with the arguments
hecbench_arguments.txt gives it (smaller sizes, fewer repeats: HeCBench
sizes its runs for a GPU).  Exit status: 0, or 2 when CHECKOUT has no src
folder, or 3 when a NAME is not a program there (the others still run).
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NVCC = ROOT / ".venv" / "bin" / "gpusym-nvcc"
ARGUMENTS = Path(__file__).with_name("hecbench_arguments.txt")
#: What rules a program out of a sample: MPI, or a library the simulated
#: device does not stand in for.
_OUTSIDE = re.compile(r"(?i:\b(mpi|mpicxx|mpicc)\b|-lmpi\b)|-l(gsl\w*|gdal|boost\w*|z|bz2|gfortran|mpi_cxx)\b")
#: Seconds a program may take to build, and to run.
_LIMITS = {"build": 900, "run": 150}
_ERROR = re.compile(r"(error:.*|undefined reference to .*)")
_FAILURE = re.compile(r"\b(FAIL(ED)?|mismatch|incorrect)\b", re.I)
_CHECKED = re.compile(r"\b(PASS(ED)?|all results match|error\b.*:\s*0(\.0+)?\b)", re.I)


def _run(command: list[str], cwd: Path, limit: int) -> subprocess.CompletedProcess:
    """`command` in a session of its own, which is killed whole when it
    runs past `limit` seconds (make's program with it)."""
    with subprocess.Popen(
        command, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace",
        start_new_session=True,
    ) as process:  # fmt: skip
        try:
            out, err = process.communicate(timeout=limit)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.communicate()
            return subprocess.CompletedProcess(command, 124, "", f"timed out after {limit} s")
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def _arguments() -> dict[str, list[str]]:
    """Each program's arguments in place of its `run` target's."""
    table = {}
    for line in ARGUMENTS.read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, arguments = line.partition(" ")
            table[name] = arguments.split()
    return table


def _eligible(source: Path) -> list[str]:
    names = []
    for folder in sorted(source.glob("*-cuda")):
        makefile = folder / "Makefile"
        if makefile.is_file() and not _OUTSIDE.search(makefile.read_text(errors="replace")):
            names.append(folder.name)
    return names


def _copy(source: Path, name: str, work: Path) -> Path:
    """The program's folder, with src/include and the sibling folders its
    files name (../other-folder), as the repository lays them out."""
    wanted = {name, "include"}
    for path in (source / name).rglob("*"):
        if path.is_file() and path.stat().st_size < 1 << 20:
            wanted |= set(re.findall(r"\.\./([A-Za-z0-9_+-][A-Za-z0-9_+.-]*)", path.read_text(errors="replace")))
    for folder in wanted:
        if (source / folder).is_dir():
            shutil.copytree(source / folder, work / folder, symlinks=True, dirs_exist_ok=True)
    return work / name


def _outcome(name: str, source: Path, arguments: dict[str, list[str]]) -> str:
    with tempfile.TemporaryDirectory(prefix="hecbench-") as scratch:
        folder = _copy(source, name, Path(scratch))
        built = _run(["make", f"CC={NVCC}"], folder, _LIMITS["build"])
        if built.returncode != 0:
            found = _ERROR.search(built.stdout + built.stderr)
            return f"not built: {(found[1] if found else built.stderr.strip()[-160:])[:160]}"
        if name in arguments:
            program = next(path for path in (folder / "main", folder / name) if path.exists())
            ran = _run([str(program), *arguments[name]], folder, _LIMITS["run"])
            how = " ".join(arguments[name])
        else:
            ran = _run(["make", "run", f"CC={NVCC}"], folder, _LIMITS["run"])
            how = "make run"
        output = ran.stdout + ran.stderr
        said = [line for line in output.splitlines() if line.strip() and not line.startswith("make")]
        last = (said or ["no output"])[-1].strip()[:160]
        if ran.returncode == 124:
            return f"timed out ({how})"
        if ran.returncode != 0 or _FAILURE.search(output):
            return f"failed ({how}): status {ran.returncode}: {last}"
        return f"{'passed' if _CHECKED.search(output) else 'ran'} ({how})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("checkout", type=Path, help="HeCBench's repository")
    parser.add_argument("names", nargs="*", help="program folders under src, such as scan-cuda (default: --sample's)")
    parser.add_argument("--sample", type=int, default=0, help="how many programs to pick at random")
    parser.add_argument("--seed", type=int, default=0, help="the random pick's seed")
    options = parser.parse_args()
    source = options.checkout / "src"
    if not source.is_dir():
        print(f"try_hecbench: {options.checkout}: no src folder (not a HeCBench checkout)", file=sys.stderr)
        return 2
    names = options.names
    if options.sample:
        eligible = _eligible(source)
        random.Random(options.seed).shuffle(eligible)
        names = names + eligible[: options.sample]
    arguments = _arguments()
    missing = 0
    for name in names:
        if not (source / name / "Makefile").is_file():
            print(f"try_hecbench: {name}: no such program (no src/{name}/Makefile)", file=sys.stderr, flush=True)
            missing += 1
            continue
        print(f"{name}: {_outcome(name, source, arguments)}", flush=True)
    return 3 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
