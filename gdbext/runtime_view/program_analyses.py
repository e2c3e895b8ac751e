"""What the symbols library knows of the program being debugged: one
analysis per object file with GPU code (the executable and its shared
libraries), made on first use and kept while the file is unchanged."""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

import gdb

from device.debug_interface import FAT_BINARY_CODE_OBJECT_MARK
from symbols.errors import FormatError

if TYPE_CHECKING:
    from symbols.analysis import Analysis

# Files never worth reading: the system's libraries, and the code objects
# the runtime extracts from fat binaries (NAME.gpusym.ID.so: their kernels are
# found through their host binary).  Modules loaded at run time
# (NAME.gpusym-module.ID.so) are read: they are their kernels' only source.
_SKIPPED_PREFIXES = ("/lib/", "/lib64/", "/usr/lib/", "/usr/lib64/")
# cuda-gdb's object files for the cubins the CUDA driver has loaded
# (elf.ADDRESS.ADDRESS.o.XXXXXX): the program's kernels in them are found
# through its fat binaries, and the rest are the driver's own (its memcpy
# and graph-scheduler kernels), which `info cuda kernels` shows as they run.
_DRIVER_CUBIN = re.compile(r"elf\.[0-9a-f]+\.[0-9a-f]+\.o\.\w+")
_cache: dict[str, tuple[tuple[int, int], Analysis | None]] = {}


def may_hold_kernels(path: str) -> bool:
    """Whether the object file at `path` is worth analysing for kernels."""
    name = os.path.basename(path)
    return (
        bool(path)
        and not path.startswith(_SKIPPED_PREFIXES)
        and FAT_BINARY_CODE_OBJECT_MARK not in name
        and not _DRIVER_CUBIN.fullmatch(name)
    )


def _is_runtime(path: str) -> bool:
    """Whether `path` is the simulated runtime, which defines the debugger
    interface and holds no GPU code (reading its symbols would cost more
    than every other check of a session)."""
    objfile = next((o for o in gdb.objfiles() if o.filename == path), None)
    return objfile is not None and objfile.lookup_global_symbol("gpusym_debug") is not None


def _analysis(path: str) -> Analysis | None:
    try:
        stat = os.stat(path)
    except OSError:
        return None
    key = (stat.st_mtime_ns, stat.st_size)
    cached = _cache.get(path)
    if cached and cached[0] == key:
        return cached[1]
    from symbols.analysis import analyze  # imported at the first use: loading the extension stays cheap

    try:
        result = None if _is_runtime(path) else analyze(path, with_args=False)  # names and places only
    except (FormatError, OSError):
        result = None
    if result is not None and not (result.report.kernels or result.report.code_objects):
        result = None  # no GPU code: nothing to remember but that
    _cache[path] = (key, result)
    return result


def analyses() -> list[Analysis]:
    """Analyses of the object files of the current program that hold GPU code."""
    paths = [objfile.filename for objfile in gdb.objfiles() if objfile.filename]
    if not paths and gdb.current_progspace().filename:
        paths = [gdb.current_progspace().filename]
    found = []
    for path in dict.fromkeys(paths):
        if may_hold_kernels(path) and (analysis := _analysis(path)) is not None:
            found.append(analysis)
    return found
