"""In NVIDIA's cuda-gdb, which stops in device code on a GPU: kbreak's
breakpoints on a kernel's device name, kept off the host.  (Written from
cuda-gdb's documented behaviour; this project's tests run plain gdb, where
a stand-in ``cuda`` command exercises this code, never a GPU.)

A kernel's device name is also the name, demangled, of its host function
(nvcc's ``g(float*, int)``; ``s(int*)`` of ``static`` kernels and template
instances, whose host functions are internal): ``break`` finds both.
cuda-gdb disables the host location only where the mangled names agree,
so each location in one of the program's host files is disabled, again
whenever gdb sets the locations anew (a run, a library or cubin loaded)."""

from __future__ import annotations

import functools
import os
import re

import gdb

_SECTION_OF = re.compile(r" in section \S+(?: of (.+))?$")
#: Breakpoint number -> the host files whose locations it must not keep.
_host_files: dict[int, frozenset[str]] = {}


@functools.cache
def running() -> bool:
    """cuda-gdb has a ``cuda`` command (``cuda block (1,0,0)``); plain gdb none."""
    try:
        gdb.execute("help cuda", to_string=True)
    except gdb.error:
        return False
    return True


def lane_condition(block: tuple[int, int, int] | None, thread: tuple[int, int, int] | None) -> str | None:
    """kbreak's -block and -thread on cuda-gdb's blockIdx and threadIdx."""
    tests = [
        f"{name}.{axis} == {value}"
        for name, where in (("blockIdx", block), ("threadIdx", thread))
        if where
        for axis, value in zip("xyz", where)
    ]
    return " && ".join(tests) or None


def keep_off_host(breakpoint: gdb.Breakpoint, host_files: set[str]) -> None:
    """Disables `breakpoint`'s locations in `host_files`, now and at each re-set."""
    _host_files[breakpoint.number] = frozenset(os.path.realpath(path) for path in host_files)
    disable_host_locations(breakpoint)


def disable_host_locations(breakpoint: gdb.Breakpoint) -> None:
    """On gdb's breakpoint_modified: also each time its locations change."""
    files = _host_files.get(breakpoint.number)
    if not files or not breakpoint.is_valid():
        return
    for location in breakpoint.locations:
        if location.enabled and _file_of(location.address) in files:
            location.enabled = False  # modifies the breakpoint again: then none is left to disable


def forget(breakpoint: gdb.Breakpoint) -> None:
    """On gdb's breakpoint_deleted."""
    _host_files.pop(breakpoint.number, None)


def _file_of(address: int) -> str | None:
    """The object file whose section holds `address`, as ``info symbol`` says."""
    try:
        text = gdb.execute(f"info symbol {address:#x}", to_string=True).strip()
    except gdb.error:
        return None
    match = _SECTION_OF.search(text)
    path = (match.group(1) or gdb.current_progspace().filename) if match else None
    return os.path.realpath(path) if path else None
