"""The ``.nv.info.<kernel>`` sections of a cubin: a kernel's attributes,
among them its parameters.

NVIDIA does not document the layout; other public readers of it and
``cuobjdump -elf`` on nvcc 13's cubins agree (little-endian): a sequence of
records, each u8 format, u8 attribute, then for format 4 (``EIFMT_SVAL``) a
u16 size and that many bytes, for the others (``EIFMT_NVAL``,
``EIFMT_BVAL``, ``EIFMT_HVAL``) a u16 value.  ``EIATTR_KPARAM_INFO`` (0x17)
describes one parameter: u32 index, u16 ordinal, u16 offset in the
parameter bank, u32 whose top 14 bits are the size.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from symbols.errors import FormatError

SECTION_PREFIX = ".nv.info."
EIFMT_SVAL = 4
EIATTR_KPARAM_INFO = 0x17
_RECORD = struct.Struct("<BBH")
_KPARAM = struct.Struct("<IHHI")


@dataclass(frozen=True)
class KernelParam:
    ordinal: int
    offset: int
    size: int


def records(data: bytes | memoryview) -> list[tuple[int, int, memoryview]]:
    """(format, attribute, value) of each record; a value is the bytes of an
    ``EIFMT_SVAL`` record, the u16 of the others."""
    view = memoryview(data)
    found = []
    cursor = 0
    while cursor + _RECORD.size <= len(view):
        kind, attribute, value = _RECORD.unpack_from(view, cursor)
        cursor += _RECORD.size
        if kind == EIFMT_SVAL:
            if cursor + value > len(view):
                raise FormatError(f"record at {cursor - _RECORD.size} runs past the section")
            found.append((kind, attribute, view[cursor : cursor + value]))
            cursor += value
        else:
            found.append((kind, attribute, view[cursor - 2 : cursor]))
    if cursor != len(view):
        raise FormatError(f"the section ends inside a record ({len(view) - cursor} bytes left)")
    return found


def kernel_params(data: bytes | memoryview, what: str) -> list[KernelParam]:
    """A kernel's parameters, in order, from its ``.nv.info.<kernel>``
    section (`what` names it in errors)."""
    try:
        found = records(data)
    except FormatError as error:
        raise FormatError(f"{what}: {error}") from None
    params = []
    for kind, attribute, value in found:
        if kind == EIFMT_SVAL and attribute == EIATTR_KPARAM_INFO:
            if len(value) < _KPARAM.size:
                raise FormatError(f"{what}: EIATTR_KPARAM_INFO of {len(value)} bytes, expected {_KPARAM.size}")
            _, ordinal, offset, packed = _KPARAM.unpack_from(value)
            params.append(KernelParam(ordinal, offset, packed >> 18))
    return sorted(params, key=lambda param: param.ordinal)
