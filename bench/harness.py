"""What the gdb and capture benchmarks share: where gpusym is, the checks
and header before measuring, a work directory, and how verdicts read."""

from __future__ import annotations

import contextlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parent.parent
GPUSYM = REPO / ".venv" / "bin" / "gpusym"


class CouldNotRun(Exception):
    """A measurement could not be made, or a run did not do its work: the reason."""


def preamble(name: str, what: str) -> bool:
    """Prints the benchmark's header line (gdb and Python versions, CPUs);
    False, with a one-line reason, when gdb or gpusym is missing."""
    for tool, hint in ((shutil.which("gdb"), "gdb"), (GPUSYM.exists() or None, str(GPUSYM))):
        if not tool:
            print(f"{name}: {hint} is missing: run 'make setup'", file=sys.stderr)
            return False
    gdb_version = subprocess.run(["gdb", "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    print(f"{name}: {gdb_version}, Python {platform.python_version()}, {os.cpu_count()} CPUs; {what}")
    print()
    return True


@contextlib.contextmanager
def work_directory(keep: Path | None, prefix: str) -> Iterator[Path]:
    """`keep` (created, kept), or a temporary directory removed at the end."""
    if keep:
        keep.mkdir(parents=True, exist_ok=True)
        yield keep.resolve()
        return
    with tempfile.TemporaryDirectory(prefix=prefix) as temporary:
        yield Path(temporary)


def ms(seconds: float, places: int | None = None) -> str:
    """Milliseconds with `places` decimals (default: 1 from 1 ms up, else 3)."""
    if places is None:
        places = 1 if seconds >= 0.001 else 3
    return f"{seconds * 1000:.{places}f} ms"


def verdict(met: bool, text: str) -> str:
    return f"  {'MET   ' if met else 'MISSED'} {text}"
