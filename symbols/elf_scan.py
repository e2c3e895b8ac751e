"""elf_scan.c through ctypes: the loops over an ELF file's section headers
and a symbol table's entries in C, without the interpreter lock, so that
Python makes objects only of the symbols kept and several code objects are
read at once.

Built on first use into the cache (``native.native_build``, LLVM 19's
clang; set-up builds it beforehand).  Where it cannot be built or loaded,
or ``GPUSYM_PURE_PYTHON`` is set, `scanner` is None and ElfFile runs its
Python loops, with the same answers."""

from __future__ import annotations

import ctypes
import os
import struct
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from symbols.errors import FormatError

SOURCE = Path(__file__).with_name("elf_scan.c")
#: struct kept_symbol: name offset, name length, value, size, info, other, shndx.
SYMBOL_RECORD = struct.Struct("<IIQQBBH4x")
#: struct section_record: name offset, name length, type, link, flags, addr,
#: offset, size, info, entsize.
SECTION_RECORD = struct.Struct("<IIIIQQQQI4xQ")
#: Symbols scanned per call: a large table's records are never all held.
CHUNK = 1 << 16
_TOO_LONG = "a name is over 4 GB long"  # the only input the C refuses that the caller has not checked


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


@contextmanager
def _address(view: memoryview) -> Iterator[int]:
    """The address of `view`'s first byte (read-only ones too: a file's
    mmap, bytes), held while in the block."""
    buffer = _PyBuffer()
    ctypes.pythonapi.PyObject_GetBuffer(ctypes.py_object(view), ctypes.byref(buffer), 0)  # PyBUF_SIMPLE
    try:
        yield buffer.buf or 0
    finally:
        ctypes.pythonapi.PyBuffer_Release(ctypes.byref(buffer))


class Scanner:
    """The C loops of one loaded library."""

    def __init__(self, library: ctypes.CDLL):
        size, flag, pointer = ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p
        self._symbols = library.gpusym_scan_symbols
        self._symbols.argtypes = [pointer, size, flag, flag, pointer, size, flag, size, size, pointer, pointer]
        self._sections = library.gpusym_scan_sections
        self._sections.argtypes = [pointer, size, size, flag, flag, pointer, size, pointer, pointer]
        self._symbols.restype = self._sections.restype = ctypes.c_long
        ctypes.pythonapi.PyObject_GetBuffer.argtypes = [ctypes.py_object, ctypes.c_void_p, ctypes.c_int]
        ctypes.pythonapi.PyBuffer_Release.argtypes = [ctypes.c_void_p]

    def sections(
        self, headers: memoryview, count: int, is64: bool, little: bool, names: memoryview
    ) -> tuple[Iterator[tuple], int]:
        """(the SECTION_RECORD fields of each of `count` headers, the total
        length of their names).  The caller has checked that `headers`
        holds them."""
        out = bytearray(SECTION_RECORD.size * count)
        name_bytes = ctypes.c_uint64()
        with _address(headers) as table, _address(names) as strings:
            target = (ctypes.c_char * len(out)).from_buffer(out) if out else None
            args = (table, len(headers), count, is64, little, strings, len(names), target, ctypes.byref(name_bytes))
            if self._sections(*args) < 0:
                raise FormatError(f"section name table: {_TOO_LONG}")
        return SECTION_RECORD.iter_unpack(out), name_bytes.value

    def symbols(
        self, entries: memoryview, is64: bool, little: bool, names: memoryview, every: bool
    ) -> Iterator[tuple[Iterator[tuple], int]]:
        """For each chunk of the table `entries` (less its null entry):
        (the SYMBOL_RECORD fields of the symbols ElfFile keeps, or of all
        with `every`; the total length of their names).  Each chunk's
        records are to be read before the next is asked for."""
        count = len(entries) // (24 if is64 else 16)
        out = bytearray(SYMBOL_RECORD.size * min(count, CHUNK))
        name_bytes = ctypes.c_uint64()
        with _address(entries) as table, _address(names) as strings:
            target = (ctypes.c_char * len(out)).from_buffer(out) if out else None
            for first in range(0, count, CHUNK):
                step = min(CHUNK, count - first)
                args = (table, len(entries), is64, little, strings, len(names), every, first, step)
                kept = self._symbols(*args, target, ctypes.byref(name_bytes))
                if kept < 0:
                    raise FormatError(f"symbol string table: {_TOO_LONG}")
                yield SYMBOL_RECORD.iter_unpack(memoryview(out)[: kept * SYMBOL_RECORD.size]), name_bytes.value


def build() -> Path:
    """The library's path, built if missing.  Raises
    native_build.BuildError, toolchain.ToolMissing."""
    from native import native_build

    return native_build.shared_library("gpusym_elf_scan", [SOURCE], flags=["-O2"])


@cache
def scanner() -> Scanner | None:
    """The C loops, or None where they cannot be had."""
    if os.environ.get("GPUSYM_PURE_PYTHON"):
        return None
    from native import native_build, toolchain

    try:
        return Scanner(ctypes.CDLL(str(build())))
    except (native_build.BuildError, toolchain.ToolMissing, OSError):
        return None
