"""Shared libraries built from C or C++ sources on first use, into a cache.

Each build is content-addressed: its directory is named by a hash of the
sources, the headers they may include and the flags, so an edit rebuilds it,
concurrent builds do not collide (each writes a private file and renames it
into place), and programs linked against one build keep working.  A library's
soname is its full path, so a program linked against it loads that build with
no rpath or library path, however it was linked (a plain ``g++ -lamdhip64``
through a ROCm-shaped prefix included)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from native import toolchain

try:
    # hashlib's own BLAKE2, without the OpenSSL that importing hashlib loads
    # (3 ms of every query's start: the library is looked up at each one).
    from _blake2 import blake2b
except ImportError:  # an interpreter without it
    from hashlib import blake2b


class BuildError(Exception):
    """A library did not compile; the message holds the compiler's output."""


def cache_root() -> Path:
    """``$GPUSYM_CACHE_DIR``, else ``$XDG_CACHE_HOME/gpusym``, else ``~/.cache/gpusym``."""
    explicit = os.environ.get("GPUSYM_CACHE_DIR")
    if explicit:
        return Path(explicit).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "gpusym"


def _compiler(sources: Sequence[Path]) -> str:
    return "clang" if all(source.suffix == ".c" for source in sources) else "clang++"


def _inputs(sources: Sequence[Path], include_dirs: Sequence[Path]) -> list[Path]:
    """The sources and every header beside them or under an include directory."""
    headers = {header for directory in include_dirs for header in directory.rglob("*.h")}
    headers |= {header for source in sources for header in source.parent.glob("*.h")}
    return list(sources) + sorted(headers)


def _digest(command: Sequence[str], inputs: Sequence[Path]) -> str:
    hasher = blake2b(digest_size=8)
    for part in [*command, *(item for path in inputs for item in (path.name, path.read_bytes()))]:
        data = part if isinstance(part, bytes) else part.encode()
        hasher.update(len(data).to_bytes(8, "little") + data)
    return hasher.hexdigest()


def shared_library(
    name: str,
    sources: Sequence[Path],
    *,
    flags: Sequence[str],
    libs: Sequence[str] = (),
    include_dirs: Sequence[Path] = (),
    assembly_flags: Sequence[str] | None = None,
    compiler: str | None = None,
    verbose: bool = False,
) -> Path:
    """Path of ``lib<name>.so`` built from `sources` (C if all are ``.c``,
    else C++) with ``-fPIC -shared`` and `flags`, in ``<cache>/<name>-<hash>/``;
    built if missing.  With `assembly_flags`, the ``.S`` sources are
    assembled with those instead.  `compiler` (a path) builds it instead of
    LLVM 19's clang, which is then not needed.
    Raises BuildError with the compiler's output, toolchain.ToolMissing."""
    sources = sorted(sources)
    default = _compiler(sources)
    soname = f"lib{name}.so"
    includes = [f"-I{directory}" for directory in include_dirs]
    options = ["-fPIC", "-shared", *flags, *includes]
    assembly = [source for source in sources if source.suffix == ".S"] if assembly_flags is not None else []
    key = [compiler or default, *options, *libs, *(["assembly:", *assembly_flags] if assembly else [])]
    directory = cache_root() / f"{name}-{_digest(key, _inputs(sources, include_dirs))}"
    library = directory / soname
    tail = [*libs, "-Xlinker", "-soname", "-Xlinker", str(library)]
    if library.exists():
        return library
    directory.mkdir(parents=True, exist_ok=True)
    command = compiler or toolchain.tool(default)
    partials: list[Path] = []

    def partial(suffix: str) -> Path:
        import tempfile  # imported here: most calls find the library built

        with tempfile.NamedTemporaryFile(dir=directory, suffix=suffix, delete=False) as file:
            partials.append(Path(file.name))
        return partials[-1]

    try:
        objects = []
        for source in assembly:
            objects.append(partial(".o"))
            _compile(
                [command, "-c", "-fPIC", *assembly_flags, *includes, str(source), "-o", str(objects[-1])],
                soname,
                verbose,
            )
        output = partial(".so")
        others = [str(source) for source in sources if source not in assembly]
        _compile([command, *options, *others, *map(str, objects), *tail, "-o", str(output)], soname, verbose)
        output.rename(library)  # atomic: a concurrent build sees all or nothing
    finally:
        for path in partials:
            path.unlink(missing_ok=True)
    return library


def _compile(command: list[str], soname: str, verbose: bool) -> None:
    result = toolchain.run(command, verbose=verbose, capture=True)
    if result.returncode != 0:
        raise BuildError(f"{soname} did not compile:\n{result.stderr.strip()}")
