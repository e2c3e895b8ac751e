"""The arguments of the runtime's launch entry (hipLaunchKernel) in a frame
stopped there: the kernel's handle and the launch configuration."""

from __future__ import annotations

import gdb

from gdbext import runtime_state

#: hipLaunchKernel's parameters as the runtime names them.
LAUNCH_PARAMETERS = ("function_address", "grid", "block", "shared_mem", "stream")


def by_name(frame: gdb.Frame) -> tuple[int, str] | None:
    """(handle, configuration) from the launch call's arguments read by name,
    with the runtime's debug information (kbreak -launch stops after the
    prologue, where they are valid); None without it."""
    try:
        handle, grid, block, shared_mem, stream = (frame.read_var(name) for name in LAUNCH_PARAMETERS)
        config = runtime_state.launch_text(runtime_state.dim3(grid), runtime_state.dim3(block), int(shared_mem),
                                           int(stream))  # fmt: skip
        return int(handle), config
    except (ValueError, gdb.error):
        return None


Dim3 = tuple[int, int, int]


def abi_values(frame: gdb.Frame) -> tuple[int, Dim3, Dim3, int, int] | None:
    """(handle, grid, block, shared memory, stream) of a call to
    hipLaunchKernel(handle, dim3 grid, dim3 block, args, shmem, stream), or
    cudaLaunchKernel (the same parameters), where the ABI passes them, for a
    runtime without debug information stopped near the entry: each dim3 in
    two registers (x and y, then z), the last two arguments on the stack at
    the caller's stack pointer.  None in the outermost frame."""
    def register(name: str) -> int:
        return int(frame.read_register(name)) & 0xFFFFFFFFFFFFFFFF

    def dim3(low: str, high: str) -> Dim3:
        return register(low) & 0xFFFFFFFF, register(low) >> 32, register(high) & 0xFFFFFFFF

    caller = frame.older()
    if caller is None:
        return None
    stack = int(caller.read_register("rsp"))
    memory = gdb.selected_inferior().read_memory(stack, 16).tobytes()
    shared_mem, stream = int.from_bytes(memory[:8], "little"), int.from_bytes(memory[8:], "little")
    return register("rdi"), dim3("rsi", "rdx"), dim3("rcx", "r8"), shared_mem, stream


def by_abi(frame: gdb.Frame) -> tuple[int, str] | None:
    """(handle, configuration) from the launch call's arguments where the
    ABI passes them (abi_values)."""
    values = abi_values(frame)
    if values is None:
        return None
    handle, grid, block, shared_mem, stream = values
    text = runtime_state.launch_text(runtime_state.dim3(dict(zip("xyz", grid))),
                                     runtime_state.dim3(dict(zip("xyz", block))), shared_mem, stream)  # fmt: skip
    return handle, text


def launch_handle(frame: gdb.Frame) -> int:
    """The handle argument of a launch-entry frame stopped by kbreak -launch."""
    named = by_name(frame)
    return named[0] if named is not None else int(frame.read_register("rdi"))
