"""Host OpenMP (``-fopenmp``), as hipcc gives it: clang-19 compiles the host
side with OpenMP and links LLVM's OpenMP runtime, libomp; device code has no
OpenMP (clang's own HIP driver does not pass -fopenmp to device compiles, and
neither does gpusym's compile for the simulated device).

Debian's clang-19 links ``-lomp`` from LLVM's library directory, which is not
on the dynamic loader's path; the program needs libomp's soname
(``libomp.so.5``), which Debian's libomp5-19 also puts on that path.  The link
gets an rpath to libomp's directory only where the loader would not find it,
and says which package to install where there is no libomp at all.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from native import toolchain

#: The Debian 12 package with clang-19's OpenMP header (omp.h) and libomp.so
#: (it depends on libomp5-19, the runtime itself).
PACKAGE = "libomp-19-dev"
_LIBRARY = "libomp.so"
INSTALL_HINT = f"install Debian's {PACKAGE} (make setup does it)"


class OpenMPMissing(Exception):
    """-fopenmp, but clang-19 has no OpenMP runtime to link."""


def explain(diagnostics: str) -> str | None:
    """One line saying what a compile that found no omp.h lacks, or None."""
    if "'omp.h' file not found" in diagnostics:
        return f"omp.h (OpenMP) not found: {INSTALL_HINT}"
    return None


def link_flags(runtime: str | None, link_flags: list[str]) -> list[str]:
    """What a link with OpenMP `runtime` (``libomp`` for plain -fopenmp) adds
    to `link_flags`: an rpath to libomp's directory if the dynamic loader
    would not find it there by itself; raises OpenMPMissing if the link would
    find no libomp.  Other runtimes (-fopenmp=libgomp) are clang's business."""
    if runtime != "libomp":
        return []
    library = _library(tuple(flag[2:] for flag in link_flags if flag.startswith("-L")))
    if library is None:
        raise OpenMPMissing(f"-fopenmp: LLVM's OpenMP runtime ({_LIBRARY}) not found: {INSTALL_HINT}")
    if _loader_finds(library):
        return []
    return [f"-Wl,-rpath,{library.parent}"]


def _library(search: tuple[str, ...]) -> Path | None:
    """The libomp.so the link takes: from a -L directory, else where clang-19
    finds it (LLVM's library directory)."""
    for directory in search:
        if (Path(directory) / _LIBRARY).exists():
            return Path(directory) / _LIBRARY
    result = toolchain.run([toolchain.tool("clang++"), f"-print-file-name={_LIBRARY}"], capture=True)
    found = Path(result.stdout.strip())
    # clang answers the bare name when no directory of its has the file.
    return found if result.returncode == 0 and found.is_absolute() and found.exists() else None


def _loader_finds(library: Path) -> bool:
    """Whether the dynamic loader finds `library` by its soname with no rpath
    or LD_LIBRARY_PATH: whether its cache (``ldconfig -p``) names that file;
    False if the cache cannot be read, so that the link adds the rpath."""
    ldconfig = shutil.which("ldconfig") or "/sbin/ldconfig"
    try:
        listing = subprocess.run([ldconfig, "-p"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return False
    # "\tlibomp.so.5 (libc6,x86-64) => /lib/x86_64-linux-gnu/libomp.so.5"
    target = library.resolve()
    for line in listing.splitlines():
        name, arrow, path = line.strip().partition(" => ")
        if arrow and name.startswith(library.stem) and Path(path).resolve() == target:
            return True
    return False
