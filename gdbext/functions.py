"""Convenience functions for breakpoint conditions."""

from __future__ import annotations

import functools
import re

import gdb

from gdbext import launch_arguments
from gdbext.runtime_state import lane
from symbols.demangle import demangle

STUB_MARK = "__device_stub_"
#: What nvcc's stubs call to launch, before cudaLaunchKernel.
NVCC_LAUNCH_HELPERS = ("__cudaLaunchKernel_helper", "__cudaLaunchKernel", "__cudaLaunchKernel_ptsz")
_INFO_SYMBOL = re.compile(r"^(.*?)(?: \+ \d+)? in section ")
_NVCC_STUB = re.compile(r"__device_stub__(Z\w+)")
_LANE_TEXT = re.compile(r"(block|thread) \((\d+),(\d+),(\d+)\)")


def kernel_of_stub(stub_name: str) -> str:
    """The kernel a stub's (demangled) name launches: clang's stub is the
    kernel's name with __device_stub__ before it; nvcc's embeds the kernel's
    mangled name."""
    nvcc = _NVCC_STUB.search(stub_name)
    if nvcc:
        mangled = "_" + nvcc.group(1)
        return demangle(mangled) or mangled
    return stub_name.replace("__device_stub__", "", 1)


def coordinates(text: str, what: str) -> tuple[int, int, int]:
    """X[,Y[,Z]] as three integers (missing ones are 0); a gdb error naming
    `what` otherwise."""
    parts = text.split(",")
    if not 1 <= len(parts) <= 3 or not all(p.strip().isdigit() for p in parts):
        raise gdb.GdbError(f"{what} takes X[,Y[,Z]] (non-negative integers), not '{text}'")
    values = [int(p) for p in parts] + [0] * (3 - len(parts))
    return values[0], values[1], values[2]


def lane_text(block: tuple[int, int, int] | None, thread: tuple[int, int, int] | None) -> str:
    """``block (3,4,0) thread (1,0,0)``: the lanes `block` and `thread`
    select (None: any), as $_gpusym_lane_is reads them."""
    parts = [f"{what} ({','.join(map(str, where))})" for what, where in (("block", block), ("thread", thread)) if where]
    return " ".join(parts)


@functools.lru_cache(maxsize=256)
def _wanted(text: str) -> tuple[int, ...]:
    """`lane_text`'s six coordinates back, -1 for any."""
    wanted = {"block": (-1, -1, -1), "thread": (-1, -1, -1)}
    for match in _LANE_TEXT.finditer(text):
        wanted[match[1]] = tuple(int(value) for value in match.groups()[1:])
    if _LANE_TEXT.sub("", text).strip():
        raise gdb.GdbError(f'$_gpusym_lane_is: "{text}" is not "block (X,Y,Z) thread (X,Y,Z)"')
    return wanted["block"] + wanted["thread"]


class LaneIs(gdb.Function):
    """$_gpusym_lane_is("block (X,Y,Z) thread (X,Y,Z)"): whether the
    selected thread runs that block and thread of a kernel (either may be
    left out: any).  Also $_gpusym_lane_is(BX, BY, BZ, TX, TY, TZ), -1 for
    any coordinate."""

    def __init__(self) -> None:
        super().__init__("_gpusym_lane_is")

    def invoke(self, *arguments: gdb.Value) -> bool:
        current = lane()
        if current is None:
            return False
        if len(arguments) == 1:
            wanted = _wanted(arguments[0].string())
        else:
            wanted = tuple(int(a) for a in arguments)
        actual = [int(current[group][axis]) for group in ("block_idx", "thread_idx") for axis in "xyz"]
        return all(w < 0 or w == a for w, a in zip(wanted, actual))


class Dispatch(gdb.Function):
    """$_gpusym_dispatch(): the dispatch the selected thread runs a lane of,
    0 outside kernels.  For breakpoint conditions: $_dispatch is only set
    once gdb has stopped."""

    def __init__(self) -> None:
        super().__init__("_gpusym_dispatch")

    def invoke(self) -> int:
        current = lane()
        return 0 if current is None else int(current["dispatch_id"])


def symbol_at(address: int) -> str | None:
    """The name gdb gives the minimal symbol at `address` (demangled), as
    ``info symbol`` says it; None when no symbol covers it."""
    try:
        text = gdb.execute(f"info symbol {address:#x}", to_string=True)
    except gdb.error:
        return None
    match = _INFO_SYMBOL.match(text.strip())
    return match.group(1) if match else None


def kernel_at(handle: int) -> str | None:
    """The kernel whose handle is at `handle`: the symbol there, or the
    kernel of the stub there (clang CUDA's handle is the stub)."""
    name = symbol_at(handle)
    return kernel_of_stub(name) if name and STUB_MARK in name else name


def called_by_stub(frame: gdb.Frame) -> bool:
    """Whether the launch call in `frame` comes from a kernel stub, directly
    or through nvcc's launch helper (``__cudaLaunchKernel_helper``, which
    goes on to ``cudaLaunchKernel``)."""
    caller = frame.older()
    while caller is not None and (caller.name() or "").split("(")[0] in NVCC_LAUNCH_HELPERS:
        caller = caller.older()
    return caller is not None and STUB_MARK in (caller.name() or "")


class Launching(gdb.Function):
    """$_gpusym_launching("KERNEL"): stopped in the launch call, whether its
    handle argument is the handle of KERNEL (its demangled name).  A
    launch from the kernel's own stub does not count: kbreak -launch stops
    there already.  (The handle's address is taken from the argument, not
    looked up by name: gdb would find the device function of the same name.)"""

    def __init__(self) -> None:
        super().__init__("_gpusym_launching")

    def invoke(self, kernel: gdb.Value) -> bool:
        frame = gdb.selected_frame()
        if called_by_stub(frame):
            return False
        return kernel_at(launch_arguments.launch_handle(frame)) == kernel.string()
