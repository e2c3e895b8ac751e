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
from collections.abc import Callable, Iterator
from functools import cache, partial
from pathlib import Path

from native.buffers import address
from symbols.errors import FormatError

SOURCE = Path(__file__).with_name("elf_scan.c")
#: struct kept_symbol: value, size, info, other, shndx.
SYMBOL_RECORD = struct.Struct("<QQBBH4x")
#: struct section_record: type, link, flags, addr, offset, size, info, entsize.
SECTION_RECORD = struct.Struct("<IIQQQQI4xQ")
#: Symbols scanned per call: a large table's records are never all held.
CHUNK = 1 << 13
#: Bytes of names first made room for, per entry: more is asked for when needed.
NAME_ROOM = 512


#: Counts names' bytes against a table's budget; raises FormatError past it.
Charge = Callable[[int], None]


class Scanner:
    """The C loops of one loaded library.  Each gives records and names:
    the names of a call's records are decoded in one piece and split."""

    def __init__(self, library: ctypes.CDLL):
        size, flag, pointer = ctypes.c_uint64, ctypes.c_int, ctypes.c_void_p
        self._symbols = library.gpusym_scan_symbols
        self._symbols.argtypes = [pointer, size, flag, flag, pointer, size, flag, size, size, pointer, pointer, size]
        self._symbols.argtypes += [pointer]
        self._sections = library.gpusym_scan_sections
        self._sections.argtypes = [pointer, size, size, flag, flag, pointer, size, flag, pointer, size, ctypes.c_uint32]
        self._sections.argtypes += [pointer, pointer, pointer, pointer, size, pointer]
        self._symbols.restype = self._sections.restype = ctypes.c_long

    def sections(
        self,
        headers: memoryview,
        count: int,
        is64: bool,
        little: bool,
        names: memoryview,
        charge: Charge,
        prefix: bytes | None = None,
        types: tuple[int, ...] = (),
    ) -> tuple[list[int], Iterator[tuple], list[str]]:
        """(the indices, SECTION_RECORD fields and names of the headers
        kept) of `count` headers: every one, or with `prefix` those whose
        names start with it and those of `types` (each under 32).  The
        length of every header's name, kept or not, is given to `charge`
        first.  The caller has checked that `headers` holds them."""
        out = bytearray(SECTION_RECORD.size * count)
        indices = bytearray(4 * count)
        every_name = ctypes.c_uint64()
        with address(headers) as table, address(names) as strings:
            filtered = (prefix is not None, prefix or None, len(prefix or b""), sum(1 << kind for kind in set(types)))
            call = partial(self._sections, table, len(headers), count, is64, little, strings, len(names), *filtered)
            call = partial(call, _pointer(out), _pointer(indices), ctypes.byref(every_name))
            # Charged with every header's name, which the first call counts.
            kept, found, _ = _with_names(
                call, min(len(names), NAME_ROOM * count) + count, lambda _: charge(every_name.value)
            )
        return (
            memoryview(indices).cast("I")[:kept].tolist(),
            SECTION_RECORD.iter_unpack(memoryview(out)[: kept * SECTION_RECORD.size]),
            found,
        )

    def symbols(
        self, entries: memoryview, is64: bool, little: bool, names: memoryview, every: bool, charge: Charge
    ) -> Iterator[tuple[Iterator[tuple], list[str]]]:
        """For each chunk of the table `entries` (less its null entry):
        (the SYMBOL_RECORD fields of the symbols ElfFile keeps, or of all
        with `every`; their names), the names' total length given to
        `charge` first.  Each chunk's records are to be read before the
        next is asked for."""
        count = len(entries) // (24 if is64 else 16)
        out = bytearray(SYMBOL_RECORD.size * min(count, CHUNK))
        room = min(len(names), NAME_ROOM * min(count, CHUNK)) + min(count, CHUNK)
        with address(entries) as table, address(names) as strings:
            target = _pointer(out)
            for first in range(0, count, CHUNK):
                step = min(CHUNK, count - first)
                args = (table, len(entries), is64, little, strings, len(names), every, first, step, target)
                kept, found, used = _with_names(partial(self._symbols, *args), room, charge)
                room = max(room, used)
                yield SYMBOL_RECORD.iter_unpack(memoryview(out)[: kept * SYMBOL_RECORD.size]), found


def _pointer(buffer: bytearray) -> ctypes.Array | None:
    return (ctypes.c_char * len(buffer)).from_buffer(buffer) if buffer else None


def _with_names(call: Callable[..., int], room: int, charge: Charge) -> tuple[int, list[str], int]:
    """`call(names, room, size)`'s result (how many records it wrote), their
    names, and the bytes those took, after `charge` of the names' total
    length (less the NUL that ends each), which raises before more room
    than `room` is made."""
    size = ctypes.c_uint64()
    buffer = bytearray(room)
    found = call(_pointer(buffer), room, ctypes.byref(size))
    if found < 0:
        raise FormatError("a table is shorter than its count")  # the caller checked
    charge(size.value - found)
    if size.value > room:
        buffer = bytearray(size.value)
        call(_pointer(buffer), size.value, ctypes.byref(size))
    names = str(memoryview(buffer)[: size.value], "utf-8", "replace").split("\0")
    names.pop()  # after the last NUL
    return found, names, size.value


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
