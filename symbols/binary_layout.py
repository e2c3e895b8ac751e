"""What the readers and writers of binary formats in symbols/ share: each
struct declared once as a named `Layout`, bounds checks, alignment and the
zero padding between containers."""

from __future__ import annotations

import re
import struct
from collections import namedtuple
from collections.abc import Iterator, Sequence
from operator import itemgetter
from typing import Any, NamedTuple


class Layout:
    """A packed struct of named fields, each a `struct` code (``"I"``,
    ``"Q"``, ``"4s"``), in byte order `order` (``"<"`` or ``">"``): its records
    are NamedTuples named `name`; fields a writer leaves out pack as 0."""

    def __init__(self, name: str, fields: Sequence[tuple[str, str]], order: str = "<"):
        self.names = tuple(field for field, _ in fields)
        self.struct = struct.Struct(order + "".join(code for _, code in fields))
        self.size = self.struct.size
        self.record = namedtuple(name, self.names, defaults=(0,) * len(self.names))

    def unpack_from(self, data: bytes | memoryview, offset: int = 0) -> NamedTuple:
        """The record at `offset`; the caller has checked that it lies in `data`."""
        return self.record._make(self.struct.unpack_from(data, offset))

    def iter_unpack(self, data: bytes | memoryview) -> Iterator[NamedTuple]:
        """The records `data` is made of (its size a multiple of `size`)."""
        return map(self.record._make, self.struct.iter_unpack(data))

    def iter_fields(self, data: bytes | memoryview, *names: str) -> Iterator[tuple]:
        """The fields `names` (all when none are given), in that order, of
        each record `data` is made of: plain tuples, for tables of millions of
        records; as fast as `struct.iter_unpack` when `names` are all the
        fields in order."""
        rows = self.struct.iter_unpack(data)
        if not names or names == self.names:
            return rows
        return map(itemgetter(*map(self.names.index, names)), rows)

    def pack(self, **fields: Any) -> bytes:
        return self.struct.pack(*self.record(**fields))


def fits(offset: int, size: int, limit: int) -> bool:
    """Whether `size` bytes at `offset` (both at least 0) end by `limit`."""
    return offset <= limit and size <= limit - offset


def align_up(value: int, alignment: int) -> int:
    """`value` rounded up to a multiple of `alignment`."""
    return -(-value // alignment) * alignment


def padding(length: int, alignment: int) -> bytes:
    """The zeros that take `length` bytes up to a multiple of `alignment`."""
    return bytes(-length % alignment)


def skip_zero_padding(data: bytes | memoryview, offset: int) -> int | None:
    """The offset of the first non-zero byte of `data` from `offset` on;
    None when only zero padding follows."""
    found = _NOT_ZERO.search(data, offset)
    return None if found is None else found.start()


_NOT_ZERO = re.compile(rb"[^\x00]")
