"""The simulated runtime as a shared library, built on first use into the
cache (content-addressed: see native_build)."""

from __future__ import annotations

import sys
from pathlib import Path

from native import native_build

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"
INCLUDE_DIR = RUNTIME_DIR / "include"
LIBRARY_NAME = "gpusym_runtime"
#: The HIP version the headers declare (HIP_VERSION_MAJOR/MINOR/PATCH).
HIP_VERSION = "6.2.0"
#: hiprtc compiles through the gpusym command beside the Python that builds
#: the runtime (the one gpusym itself runs in), else the one on PATH.
_GPUSYM = Path(sys.executable).with_name("gpusym")
_FLAGS = [
    "-std=c++20",
    "-O2",
    "-g",
    "-Wall",
    "-Wextra",
    "-pthread",
    f'-DGPUSYM_BUILD_COMMAND="{_GPUSYM if _GPUSYM.is_file() else "gpusym"}"',
]
#: The lane switching in assembly gets no line information: gdb's step and
#: next then never stop in it, and a kernel's frames are its callers' only.
_ASSEMBLY_FLAGS = ["-Wall"]
_LIBS = ["-ldl", "-lm"]

RuntimeBuildError = native_build.BuildError


def runtime_path(verbose: bool = False) -> Path:
    """Path of ``libgpusym_runtime.so`` (also its soname), built if it is not
    there yet."""
    sources = [path for path in (RUNTIME_DIR / "src").iterdir() if path.suffix in (".cpp", ".S")]
    return native_build.shared_library(
        LIBRARY_NAME,
        sources,
        flags=_FLAGS,
        libs=_LIBS,
        include_dirs=[INCLUDE_DIR],
        assembly_flags=_ASSEMBLY_FLAGS,
        verbose=verbose,
    )
