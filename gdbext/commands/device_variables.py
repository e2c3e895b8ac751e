"""``threadIdx``, ``blockIdx``, ``blockDim``, ``gridDim`` and ``warpSize`` in
gdb's expressions and breakpoint conditions, as device code reads them.

In the program they are read-only properties (device_builtins.h) that gdb
cannot evaluate, so the extension defines each name as a gdb macro
(``macro define``: expanded in every expression).  ``threadIdx`` reads
``(*(dim3 *) $_gpusym_coordinates("threadIdx"))``: the function gives an
address, since gdb types a convenience function's result as int wherever
it only checks types (the right side of ``&&``), and a member of an int is
an error.  The address is the selected lane's coordinates in device code,
the program's own ``dim3`` of that name where one is in scope (host code
often has a ``dim3 blockDim``), and otherwise gdb's own "No symbol" error.
``warpSize`` is ``$_gpusym_warp_size()``, or the program's own variable.
``macro undef NAME`` gives a name back to the program."""

from __future__ import annotations

import gdb

from gdbext.frames.device_frames import is_device
from gdbext.runtime_view.runtime_state import in_fast_block, lane, wave_size

#: The built-in's name -> its field of struct gpusym_lane (None: a constant).
FIELDS = {
    "threadIdx": "thread_idx",
    "blockIdx": "block_idx",
    "blockDim": "block_dim",
    "gridDim": "grid_dim",
    "warpSize": None,
}
#: HIP's older spellings: hipThreadIdx_x is threadIdx.x.
SPELLINGS = {
    f"hip{name[0].upper()}{name[1:]}_{axis}": f"{name}.{axis}"
    for name in ("threadIdx", "blockIdx", "blockDim", "gridDim")
    for axis in "xyz"
}


def _program_variable(name: str) -> gdb.Value | None:
    """The program's own `name` in scope of the selected frame, if it has
    one (the headers' declarations of the built-ins are not variables)."""
    try:
        frame = gdb.selected_frame()
        symbol = gdb.lookup_symbol(name, frame.block())[0]
    except (gdb.error, RuntimeError):
        symbol = None
    if symbol is None or not symbol.is_variable or str(symbol.type.strip_typedefs()).startswith("__gpusym_"):
        return None
    return symbol.value(frame) if symbol.needs_frame else symbol.value()


def _in_kernel() -> bool:
    try:
        return lane() is not None and is_device(gdb.selected_frame())
    except gdb.error:
        return False


def _no_symbol(name: str) -> gdb.GdbError:
    return gdb.GdbError(f'No symbol "{name}" in current context (a built-in of device code: select a kernel\'s frame)')


class Coordinates(gdb.Function):
    """$_gpusym_coordinates("threadIdx"): the address of a dim3 built-in of
    device code (threadIdx, blockIdx, blockDim, gridDim) as the selected
    lane reads it, or of the program's own dim3 of that name in scope.
    The gpusym extension defines those names as macros reading it."""

    def __init__(self) -> None:
        super().__init__("_gpusym_coordinates")

    def invoke(self, name: gdb.Value) -> int:
        text = name.string()
        if text not in FIELDS or FIELDS[text] is None:
            raise gdb.GdbError(f"$_gpusym_coordinates: {text} is not one of threadIdx, blockIdx, blockDim, gridDim")
        own = _program_variable(text)
        if own is not None:
            fields = (
                [f.name for f in own.type.strip_typedefs().fields()]
                if own.type.strip_typedefs().code == gdb.TYPE_CODE_STRUCT
                else []
            )
            if fields[:3] != ["x", "y", "z"] or own.type.sizeof != 12 or own.address is None:
                raise gdb.GdbError(
                    f"{text} here is the program's {own.type}, not a dim3: 'macro undef {text}' reads it"
                )
            return int(own.address)
        if not _in_kernel():
            raise _no_symbol(text)
        if text == "threadIdx" and in_fast_block():
            raise gdb.GdbError(
                "threadIdx: this block runs in its kernel's fast form, its threads as one loop, "
                "so no one thread is selected (blockIdx, blockDim and gridDim can be read)"
            )
        return int(lane()[FIELDS[text]].address)


class WarpSize(gdb.Function):
    """$_gpusym_warp_size(): warpSize as device code reads it, or the
    program's own warpSize in scope.  The gpusym extension defines warpSize
    as a macro reading it."""

    def __init__(self) -> None:
        super().__init__("_gpusym_warp_size")

    def invoke(self) -> gdb.Value:
        own = _program_variable("warpSize")
        if own is not None:
            return own
        if not _in_kernel():
            raise _no_symbol("warpSize")
        return gdb.Value(wave_size(lane()))


def define_macros() -> None:
    """The built-ins' names as gdb macros (``info macros`` lists them)."""
    for name, field in FIELDS.items():
        meaning = "$_gpusym_warp_size()" if field is None else f'(*(dim3 *) $_gpusym_coordinates("{name}"))'
        gdb.execute(f"macro define {name} {meaning}", to_string=True)
    for spelling, meaning in SPELLINGS.items():
        gdb.execute(f"macro define {spelling} {meaning}", to_string=True)
