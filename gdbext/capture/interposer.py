"""The launch-recording interposer (interposer.c) as a shared library for
LD_PRELOAD, built on first use into the cache."""

from __future__ import annotations

from pathlib import Path

from gdbext.capture import INTERPOSER
from sample_apps import native_build

SOURCE = Path(__file__).resolve().parent / "interposer.c"
_FLAGS = ["-O2", "-g", "-fvisibility=hidden", "-Wall", "-Wextra", "-Werror", "-pthread"]
_LIBS = ["-ldl"]


def library_path(verbose: bool = False) -> Path:
    """``libgpusym_capture.so``, built if it is not in the cache yet.
    Raises native_build.BuildError, toolchain.ToolMissing."""
    return native_build.shared_library(INTERPOSER, [SOURCE], flags=_FLAGS, libs=_LIBS, verbose=verbose)
