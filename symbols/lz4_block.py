"""LZ4 blocks (NVIDIA fatbins' ``-compress-mode=speed``) inflated by the
system's liblz4 through ctypes, without the interpreter lock: twice as
fast as the lz4 package, which does it where liblz4 cannot be loaded or
``GPUSYM_PURE_PYTHON`` is set.  Both give the same answers and errors.

liblz4 writes into a memory mapping that each thread reuses once nothing
holds a view of what it last wrote: thrust's 12 cubins are 232 MB, and
the kernel would otherwise fault in and zero every page of each."""

from __future__ import annotations

import ctypes
import mmap
import os
import threading
from collections.abc import Callable
from functools import cache

from native.buffers import address
from symbols.errors import FormatError

LIBRARY = "liblz4.so.1"
#: LZ4's sizes are C ints.
_INT_MAX = (1 << 31) - 1

_threads = threading.local()


@cache
def _decompress_safe() -> Callable[[int, int, int, int], int] | None:
    """liblz4's LZ4_decompress_safe, or None where it cannot be had."""
    if os.environ.get("GPUSYM_PURE_PYTHON"):
        return None
    try:
        function = ctypes.CDLL(LIBRARY).LZ4_decompress_safe
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_int, ctypes.c_int]
    function.restype = ctypes.c_int
    return function


def inflate(block: bytes | memoryview, size: int) -> bytes | memoryview:
    """The `size` bytes LZ4 `block` inflates to.  Raises FormatError when
    it is corrupt or inflates to more or fewer bytes."""
    if len(block) > _INT_MAX or size > _INT_MAX:
        raise FormatError(f"lz4 block of {len(block)} bytes inflating to {size} is larger than LZ4 allows")
    decompress = _decompress_safe()
    if decompress is None:
        written, result = _inflate_with_package(block, size)
    else:
        result = _output(size)
        with address(block) as source, address(result) as target:
            written = decompress(source, target, len(block), size)
    if written < 0:
        raise FormatError(f"corrupt lz4 block, or one inflating to more than the recorded {size} bytes")
    if written != size:
        raise FormatError(f"lz4 block does not inflate to the recorded {size} bytes")
    return result


def _output(size: int) -> memoryview:
    """`size` bytes to write into: this thread's last mapping again, grown
    if need be, when nothing holds a view of it; else a new one (a view
    still held keeps its mapping, and what was written there, alive).
    Grown in place, a mapping keeps the pages already faulted in."""
    mapping = getattr(_threads, "mapping", None)
    if mapping is not None:
        try:
            mapping.resize(max(size, len(mapping)))  # refused while a view of it is alive
            return memoryview(mapping)[:size]
        except (BufferError, OSError):
            pass
    # Private: shared anonymous memory is a file's, which growing it would not grow.
    mapping = _threads.mapping = mmap.mmap(-1, max(size, 1), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    return memoryview(mapping)[:size]


def _inflate_with_package(block: bytes | memoryview, size: int) -> tuple[int, bytes]:
    """(the bytes written, or -1 for an error; the result), by the lz4 package."""
    import lz4.block

    try:
        result = lz4.block.decompress(block, uncompressed_size=size)
    except lz4.block.LZ4BlockError:
        return -1, b""
    return len(result), result
