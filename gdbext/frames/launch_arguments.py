"""The arguments of a runtime's launch entry in a frame stopped there: the
kernel's handle and the launch configuration.

HIP's ``hipLaunchKernel`` and CUDA's ``cudaLaunchKernel`` take ``(handle,
dim3 grid, dim3 block, void** args, size_t shmem, stream)``;
``cudaLaunchKernelExC`` takes ``(const cudaLaunchConfig_t* config, handle,
void** args)``, the configuration being ``{dim3 grid; dim3 block; size_t
shmem; cudaStream_t stream; ...}``.  ``cuLaunchKernel`` takes a
``CUfunction``, which no symbol names: it is not read.  CUDA's runtime has
no debug information, so its arguments are read where the x86-64 ABI
passes them."""

from __future__ import annotations

import gdb

from gdbext.runtime_view import runtime_state
from symbols.model import Kernel

HIP_ENTRIES = ("hipLaunchKernel",)
CUDA_ENTRIES = ("cudaLaunchKernel", "cudaLaunchKernelExC")
#: Entries whose configuration is a cudaLaunchConfig_t* in %rdi and whose handle is in %rsi.
_CONFIG_FIRST = ("cudaLaunchKernelExC",)
#: hipLaunchKernel's parameters as the simulated runtime names them.
LAUNCH_PARAMETERS = ("function_address", "grid", "block", "shared_mem", "stream")


def is_cuda(kernel: Kernel) -> bool:
    """Whether `kernel` is nvcc's or clang's CUDA kernel: its handle is a
    host function or the stub (HIP's is a variable)."""
    return kernel.handle is not None and kernel.handle.kind in ("function", "stub")


def entries(kernel: Kernel) -> tuple[str, ...]:
    """The launch entries that take `kernel`'s handle."""
    return CUDA_ENTRIES if is_cuda(kernel) else HIP_ENTRIES


def by_name(frame: gdb.Frame) -> tuple[int, str] | None:
    """(handle, configuration) from the launch call's arguments read by name,
    with the runtime's debug information (kbreak -launch stops after the
    prologue, where they are valid); None without it."""
    try:
        handle, grid, block, shared_mem, stream = (frame.read_var(name) for name in LAUNCH_PARAMETERS)
        config = runtime_state.launch_text(
            runtime_state.dim3(grid), runtime_state.dim3(block), int(shared_mem), int(stream)
        )
        return int(handle), config
    except (ValueError, gdb.error):
        return None


Dim3 = tuple[int, int, int]


def _register(frame: gdb.Frame, name: str) -> int:
    return int(frame.read_register(name)) & 0xFFFFFFFFFFFFFFFF


def _dim3_in(frame: gdb.Frame, low: str, high: str) -> Dim3:
    """A dim3 passed in two registers: x and y in `low`, z in `high`."""
    low_value, high_value = _register(frame, low), _register(frame, high)
    return low_value & 0xFFFFFFFF, low_value >> 32, high_value & 0xFFFFFFFF


def _words(address: int, count: int) -> list[int]:
    memory = gdb.selected_inferior().read_memory(address, 8 * count).tobytes()
    return [int.from_bytes(memory[i : i + 8], "little") for i in range(0, len(memory), 8)]


def _text(grid: Dim3, block: Dim3, shared_mem: int, stream: int) -> str:
    return runtime_state.launch_text(
        runtime_state.dim3(dict(zip("xyz", grid))), runtime_state.dim3(dict(zip("xyz", block))), shared_mem, stream
    )


def abi_values(frame: gdb.Frame) -> tuple[int, Dim3, Dim3, int, int] | None:
    """(handle, grid, block, shared memory, stream) of a launch call where
    the ABI passes them, for a runtime without debug information stopped
    near the entry: hipLaunchKernel(handle, dim3 grid, dim3 block, args,
    shmem, stream) and cudaLaunchKernel (the same parameters) with each dim3
    in two registers (x and y, then z) and the last two arguments on the
    stack at the caller's stack pointer; cudaLaunchKernelExC's configuration
    in the memory its first argument points at.  None in the outermost frame."""
    if (frame.name() or "") in _CONFIG_FIRST:
        grid_xy, grid_z_block_x, block_yz, shared_mem, stream = _words(_register(frame, "rdi"), 5)
        grid = (grid_xy & 0xFFFFFFFF, grid_xy >> 32, grid_z_block_x & 0xFFFFFFFF)
        block = (grid_z_block_x >> 32, block_yz & 0xFFFFFFFF, block_yz >> 32)
        return _register(frame, "rsi"), grid, block, shared_mem, stream
    caller = frame.older()
    if caller is None:
        return None
    shared_mem, stream = _words(int(caller.read_register("rsp")), 2)
    return _register(frame, "rdi"), _dim3_in(frame, "rsi", "rdx"), _dim3_in(frame, "rcx", "r8"), shared_mem, stream


def by_abi(frame: gdb.Frame) -> tuple[int, str] | None:
    """(handle, configuration) from the launch call's arguments where the
    ABI passes them (abi_values)."""
    values = abi_values(frame)
    if values is None:
        return None
    handle, grid, block, shared_mem, stream = values
    return handle, _text(grid, block, shared_mem, stream)


def pushed(frame: gdb.Frame) -> str:
    """The configuration of ``__cudaPushCallConfiguration(dim3 grid, dim3
    block, size_t shmem, stream)`` stopped at its entry: all six registers."""
    return _text(
        _dim3_in(frame, "rdi", "rsi"), _dim3_in(frame, "rdx", "rcx"), _register(frame, "r8"), _register(frame, "r9")
    )


def launch_handle(frame: gdb.Frame) -> int:
    """The handle argument of a launch-entry frame stopped by kbreak -launch."""
    named = by_name(frame)
    if named is not None:
        return named[0]
    return _register(frame, "rsi" if (frame.name() or "") in _CONFIG_FIRST else "rdi")
