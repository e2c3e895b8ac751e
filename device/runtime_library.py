"""The simulated runtime as a shared library, built on first use into the
cache (content-addressed: see native_build)."""

from __future__ import annotations

import sys
from pathlib import Path

from device.debug_interface import RUNTIME_LIBRARY
from native import native_build

DEVICE_DIR = Path(__file__).resolve().parent
RUNTIME_DIR = DEVICE_DIR / "runtime"
INCLUDE_DIR = DEVICE_DIR / "include"
#: CUDA's headers (cuda_runtime.h, ...), over HIP's: searched first in CUDA compiles.
CUDA_INCLUDE_DIR = INCLUDE_DIR / "cuda"
LIBRARY_NAME = RUNTIME_LIBRARY.removeprefix("lib")
#: The HIP version the headers declare (HIP_VERSION_MAJOR/MINOR/PATCH).
HIP_VERSION = "6.2.0"
#: hiprtc compiles through the gpusym command beside the Python that builds
#: the runtime (the one gpusym itself runs in), else the one on PATH.
_GPUSYM = Path(sys.executable).with_name("gpusym")
#: The lane switching in assembly gets no line information: gdb's step and
#: next then never stop in it, and a kernel's frames are its callers' only.
_ASSEMBLY_FLAGS = ["-Wall"]

RuntimeBuildError = native_build.BuildError


def runtime_path(verbose: bool = False) -> Path:
    """Path of ``libgpusym_runtime.so`` (also its soname), built if it is not
    there yet."""
    sources = [path for path in RUNTIME_DIR.iterdir() if path.suffix in (".cpp", ".S")]
    build_command = _GPUSYM if _GPUSYM.is_file() else "gpusym"
    flags = _flags("compile_flags.txt")
    return native_build.shared_library(
        LIBRARY_NAME,
        sources,
        flags=[flag for flag in flags if not flag.startswith("-I")] + [f'-DGPUSYM_BUILD_COMMAND="{build_command}"'],
        libs=_flags("link_flags.txt"),
        include_dirs=[(RUNTIME_DIR / flag[2:]).resolve() for flag in flags if flag.startswith("-I")],
        assembly_flags=_ASSEMBLY_FLAGS,
        verbose=verbose,
    )


def _flags(name: str) -> list[str]:
    """The flags in RUNTIME_DIR/`name`, one a line, as clangd reads
    compile_flags.txt (``-I`` relative to RUNTIME_DIR)."""
    return (RUNTIME_DIR / name).read_text().split()
