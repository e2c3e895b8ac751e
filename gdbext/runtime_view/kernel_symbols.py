"""The names gdb gives the addresses of kernels' stubs and handles: which
kernel a stub launches, which kernel a handle names, and whether a launch
call comes from a stub."""

from __future__ import annotations

import re

import gdb

from symbols.demangling.gnu import demangle

STUB_MARK = "__device_stub_"
#: What nvcc's stubs call to launch, before cudaLaunchKernel.
NVCC_LAUNCH_HELPERS = ("__cudaLaunchKernel_helper", "__cudaLaunchKernel", "__cudaLaunchKernel_ptsz")
_INFO_SYMBOL = re.compile(r"^(.*?)(?: \+ \d+)? in section ")
#: gdb.format_address's ``0x... <NAME+OFFSET>`` (`` at FILE:LINE`` inside
#: with ``set print symbol-filename on``).
_FORMATTED = re.compile(r"^0x[0-9a-f]+ <(.*?)(?:\+\d+)?(?: at [^>]*)?>$")
_NVCC_STUB = re.compile(r"__device_stub__(Z\w+)")


def kernel_of_stub(stub_name: str) -> str:
    """The kernel a stub's (demangled) name launches: clang's stub is the
    kernel's name with __device_stub__ before it; nvcc's embeds the kernel's
    mangled name."""
    nvcc = _NVCC_STUB.search(stub_name)
    if nvcc:
        mangled = "_" + nvcc.group(1)
        return demangle(mangled) or mangled
    return stub_name.replace("__device_stub__", "", 1)


def symbol_at(address: int) -> str | None:
    """The name gdb gives the minimal symbol at `address` (demangled), as
    ``info symbol`` says it; None when no symbol covers it."""
    try:
        text = gdb.execute(f"info symbol {address:#x}", to_string=True)
    except gdb.error:
        return None
    match = _INFO_SYMBOL.match(text.strip())
    return match.group(1) if match else None


def function_at(address: int) -> str | None:
    """The function at `address` as gdb names it in an address it prints
    (``print/a``, ``x/i``): its debug information's name, else its minimal
    symbol's linkage name; None when no symbol covers it.  Unlike
    symbol_at, it reads nothing through the selected frame (``info symbol``
    evaluates its argument in that frame's scope), so an unwinder may ask
    while gdb is looking frames up."""
    try:
        text = gdb.format_address(address)
    except (gdb.error, ValueError):
        return None
    match = _FORMATTED.match(text)
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
