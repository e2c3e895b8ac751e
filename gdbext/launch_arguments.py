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


def by_abi(frame: gdb.Frame) -> tuple[int, str] | None:
    """(handle, configuration) of hipLaunchKernel(handle, dim3 grid, dim3
    block, args, shmem, stream) where the ABI passes them, for a runtime
    without debug information stopped near the entry: each dim3 in two
    registers (x and y, then z), the last two arguments on the stack at the
    caller's stack pointer."""
    def register(name: str) -> int:
        return int(frame.read_register(name)) & 0xFFFFFFFFFFFFFFFF

    def dim3(low: str, high: str) -> str:
        return runtime_state.dim3({"x": register(low) & 0xFFFFFFFF, "y": register(low) >> 32,
                                   "z": register(high) & 0xFFFFFFFF})  # fmt: skip

    caller = frame.older()
    if caller is None:
        return None
    stack = int(caller.read_register("rsp"))
    memory = gdb.selected_inferior().read_memory(stack, 16).tobytes()
    shared_mem, stream = int.from_bytes(memory[:8], "little"), int.from_bytes(memory[8:], "little")
    return register("rdi"), runtime_state.launch_text(dim3("rsi", "rdx"), dim3("rcx", "r8"), shared_mem, stream)


def launch_handle(frame: gdb.Frame) -> int:
    """The handle argument of a launch-entry frame stopped by kbreak -launch."""
    named = by_name(frame)
    return named[0] if named is not None else int(frame.read_register("rdi"))
