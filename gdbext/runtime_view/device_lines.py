"""``break FILE:LINE`` on a line of device code before the program runs.

A HIP source is compiled for the host and for the device, and a kernel's
body is only in the device's code object, which the runtime loads as the
program starts (its fat binaries register before ``main``).  Before that,
gdb resolves the line in the host's code of the same source, at the next
line with host code (``Breakpoint 1 at 0x1322: file scan.hip, line 40.``);
once the code object is loaded, gdb sets the breakpoint again, at the
first line from LINE with device code when that comes before (skipping a
function's prologue, as always), and it never stops at the host's line.
One line under gdb's says so.
"""

from __future__ import annotations

import os
import re
from functools import lru_cache

import gdb

from gdbext.frames.device_frames import is_device_address
from gdbext.runtime_view import program_analyses
from symbols.errors import FormatError

#: ``FILE:LINE`` or ``LINE``, as the breakpoint's location spec says it.
_LINE_SPEC = re.compile(r"^(?:(?P<file>[^:\s]+):)?(?P<line>\d+)$")


@lru_cache(maxsize=64)
def _lines(path: str, stamp: tuple[int, int], file_name: str) -> frozenset[int]:
    """The lines of `file_name` with device code in the simulated device's
    code objects of the binary at `path` (`stamp`: its mtime and size)."""
    from symbols import containers  # imported at the first use: loading the extension stays cheap
    from symbols.elf import ElfFile
    from symbols.lines import statement_lines
    from symbols.workers import map_file

    data = map_file(path)
    images = containers.simulated_device_images(data, containers.in_elf(ElfFile(data)))
    return frozenset(line for image in images for line in statement_lines(image, file_name))


def device_lines(file_name: str) -> set[int]:
    """The lines of source `file_name` with device code in the program's
    files (its code objects need not be loaded)."""
    lines: set[int] = set()
    for analysis in program_analyses.analyses():
        if not any(c.triple.startswith("x86_64") for c in analysis.report.code_objects):
            continue
        path = analysis.report.path
        stat = os.stat(path)
        lines |= _lines(path, (stat.st_mtime_ns, stat.st_size), file_name)
    return lines


def note_host_line(breakpoint: gdb.Breakpoint) -> None:
    """At gdb.events.breakpoint_created: when `breakpoint`, a FILE:LINE,
    resolved to another line in host code while device code not loaded yet
    has a line before that one, says where gdb will move it."""
    try:
        note = _note(breakpoint)
    except (gdb.error, OSError, FormatError):
        return
    if note:
        print(note)


def _note(breakpoint: gdb.Breakpoint) -> str | None:
    if breakpoint.type != gdb.BP_BREAKPOINT or (match := _LINE_SPEC.match(breakpoint.location or "")) is None:
        return None
    locations = breakpoint.locations
    sources = [location.source for location in locations if location.source is not None]
    if not sources or any(is_device_address(location.address) for location in locations):
        return None
    wanted, host_line = int(match["line"]), min(line for _, line in sources)
    if host_line <= wanted:
        return None
    moved = min((line for line in device_lines(sources[0][0]) if line >= wanted), default=None)
    if moved is None or moved >= host_line:
        return None
    name = os.path.basename(sources[0][0])
    where = (
        f"line {wanted} of {name} is device code"
        if moved == wanted
        else f"no code starts at line {wanted} of {name}; the next line with device code is {moved}"
    )
    return (
        f"[gpusym: {where}, loaded when the program starts: gdb then moves breakpoint {breakpoint.number} there, "
        f"and it does not stop at line {host_line} (host code)]"
    )
