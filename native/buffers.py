"""The address of a Python buffer's bytes, for C called through ctypes."""

from __future__ import annotations

import ctypes
from collections.abc import Iterator
from contextlib import contextmanager


class _PyBuffer(ctypes.Structure):
    """CPython's Py_buffer (in the stable ABI since 3.11)."""

    _fields_ = [
        ("buf", ctypes.c_void_p),
        ("obj", ctypes.c_void_p),
        ("len", ctypes.c_ssize_t),
        ("itemsize", ctypes.c_ssize_t),
        ("readonly", ctypes.c_int),
        ("ndim", ctypes.c_int),
        ("format", ctypes.c_char_p),
        ("shape", ctypes.c_void_p),
        ("strides", ctypes.c_void_p),
        ("suboffsets", ctypes.c_void_p),
        ("internal", ctypes.c_void_p),
    ]


# Private function objects: setting argtypes on ctypes.pythonapi's own would
# change them for every other user in the process.
_api = ctypes.PyDLL(None)
_get_buffer = _api.PyObject_GetBuffer
_get_buffer.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
_get_buffer.restype = ctypes.c_int
_release_buffer = _api.PyBuffer_Release
_release_buffer.argtypes = [ctypes.c_void_p]
_release_buffer.restype = None


@contextmanager
def address(view: bytes | bytearray | memoryview) -> Iterator[int]:
    """The address of `view`'s first byte (read-only ones too: a file's
    mmap, bytes), held while in the block; 0 for an empty one.  `view` is
    one contiguous run of bytes."""
    buffer = _PyBuffer()
    _get_buffer(view, ctypes.byref(buffer), 0)  # PyBUF_SIMPLE; raises for a non-contiguous view
    try:
        yield buffer.buf or 0
    finally:
        _release_buffer(ctypes.byref(buffer))
