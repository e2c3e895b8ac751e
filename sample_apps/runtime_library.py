"""The simulated runtime as a shared library, built on first use.

The build is content-addressed: its directory is named by a hash of the
runtime's sources and flags, so an edit rebuilds it, concurrent builds do not
collide, and programs linked against one build keep working (their rpath
names that directory)."""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

from sample_apps import toolchain

RUNTIME_DIR = Path(__file__).resolve().parent / "runtime"
INCLUDE_DIR = RUNTIME_DIR / "include"
LIBRARY_NAME = "gpusym_runtime"
_FLAGS = ["-std=c++20", "-O2", "-g", "-fPIC", "-shared", "-Wall", "-Wextra", "-pthread"]
_LIBS = ["-lffi", "-ldl", "-lm"]


class RuntimeBuildError(Exception):
    """The runtime did not compile; the message holds the compiler's output."""


def cache_root() -> Path:
    explicit = os.environ.get("GPUSYM_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "gpusym"


def _sources() -> list[Path]:
    files = [p for p in (RUNTIME_DIR / "src").iterdir() if p.suffix in (".cpp", ".S")]
    return sorted(files)


def _digest() -> str:
    hasher = hashlib.sha256(" ".join(_FLAGS + _LIBS).encode())
    for path in sorted(_sources() + list(INCLUDE_DIR.rglob("*.h")) + list((RUNTIME_DIR / "src").glob("*.h"))):
        hasher.update(path.name.encode() + path.read_bytes())
    return hasher.hexdigest()[:16]


def runtime_directory(verbose: bool = False) -> Path:
    """Directory holding ``libgpusym_runtime.so``, built if it is not there yet."""
    directory = cache_root() / f"runtime-{_digest()}"
    library = directory / f"lib{LIBRARY_NAME}.so"
    if library.exists():
        return directory
    directory.mkdir(parents=True, exist_ok=True)
    with tempfile.NamedTemporaryFile(dir=directory, suffix=".so", delete=False) as partial:
        partial_path = Path(partial.name)
    command = [
        toolchain.tool("clang++"),
        *_FLAGS,
        f"-I{INCLUDE_DIR}",
        *map(str, _sources()),
        *_LIBS,
        f"-Wl,-soname,lib{LIBRARY_NAME}.so",
        "-o",
        str(partial_path),
    ]
    result = toolchain.run(command, verbose=verbose, capture=True)
    if result.returncode != 0:
        partial_path.unlink(missing_ok=True)
        raise RuntimeBuildError(result.stderr.strip())
    partial_path.rename(library)  # atomic: a concurrent build sees all or nothing
    return directory
