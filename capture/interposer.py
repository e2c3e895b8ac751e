"""The launch-recording interposer (interposer.c) as a shared library for
LD_PRELOAD, built on first use into the cache."""

from __future__ import annotations

import shutil
from pathlib import Path

from capture import INTERPOSER
from native import native_build, toolchain

SOURCE = Path(__file__).resolve().parent / "interposer.c"
_FLAGS = ["-O2", "-g", "-fvisibility=hidden", "-Wall", "-Wextra", "-Werror", "-pthread"]
_LIBS = ["-ldl"]


def _compiler() -> str:
    """LLVM 19's clang, else the system's ``cc``: the interposer is plain C
    on libc alone, and capture runs where programs run, which may have no
    LLVM.  Raises toolchain.ToolMissing when there is neither."""
    try:
        return toolchain.tool("clang")
    except toolchain.ToolMissing:
        system = shutil.which("cc")
        if system is None:
            raise toolchain.ToolMissing("no C compiler: neither clang-19 nor cc is installed") from None
        return system


def library_path(verbose: bool = False) -> Path:
    """``libgpusym_capture.so``, built if it is not in the cache yet.
    Raises native_build.BuildError, toolchain.ToolMissing."""
    return native_build.shared_library(
        INTERPOSER, [SOURCE], flags=_FLAGS, libs=_LIBS, compiler=_compiler(), verbose=verbose
    )
