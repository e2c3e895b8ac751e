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
from typing import NamedTuple

from symbols.errors import FormatError

SECTION_PREFIX = ".nv.info."
EIFMT_SVAL = 4
EIATTR_KPARAM_INFO = 0x17
_RECORD = struct.Struct("<BBH")
_KPARAM = struct.Struct("<IHHI")


class KernelParam(NamedTuple):
    ordinal: int
    offset: int
    size: int


def kernel_params(data: bytes | memoryview, what: str) -> list[KernelParam]:
    """A kernel's parameters, in order, from its ``.nv.info.<kernel>``
    section (`what` names it in errors)."""
    view = memoryview(data)
    params = []
    cursor, end = 0, len(view)
    unpack_record, unpack_param = _RECORD.unpack_from, _KPARAM.unpack_from
    while cursor + _RECORD.size <= end:
        kind, attribute, value = unpack_record(view, cursor)
        cursor += _RECORD.size
        if kind != EIFMT_SVAL:
            continue
        if cursor + value > end:
            raise FormatError(f"{what}: record at {cursor - _RECORD.size} runs past the section")
        if attribute == EIATTR_KPARAM_INFO:
            if value < _KPARAM.size:
                raise FormatError(f"{what}: EIATTR_KPARAM_INFO of {value} bytes, expected {_KPARAM.size}")
            _, ordinal, offset, packed = unpack_param(view, cursor)
            params.append(KernelParam(ordinal, offset, packed >> 18))
        cursor += value
    if cursor != end:
        raise FormatError(f"{what}: the section ends inside a record ({end - cursor} bytes left)")
    return sorted(params, key=lambda param: param.ordinal)
