"""The members of a Unix ``ar`` archive (a static library), read in place."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

MAGIC = b"!<arch>\n"
_HEADER_SIZE = 60


class ArchiveError(Exception):
    """The file starts like an archive but its members do not fit in it."""


def is_archive(data: bytes) -> bool:
    return data.startswith(MAGIC)


def members(data: bytes, path: Path) -> Iterator[tuple[str, bytes]]:
    """(name, contents) of each member, the symbol index and the GNU long
    name table left out."""
    offset, long_names = len(MAGIC), b""
    while offset + _HEADER_SIZE <= len(data):
        header = data[offset : offset + _HEADER_SIZE]
        if header[58:60] != b"`\n":
            raise ArchiveError(f"{path}: bad member header at offset {offset}")
        name = header[:16].rstrip(b" ").decode("latin-1")
        try:
            size = int(header[48:58].decode("ascii").strip() or "0")
        except ValueError:
            raise ArchiveError(f"{path}: bad member size at offset {offset}") from None
        start = offset + _HEADER_SIZE
        if start + size > len(data):
            raise ArchiveError(f"{path}: member at offset {offset} runs past the end")
        contents = data[start : start + size]
        offset = start + size + (size & 1)
        if name == "//":
            long_names = contents
        elif name.startswith("/") and name[1:].isdigit():
            at = int(name[1:])
            yield long_names[at : long_names.find(b"/\n", at)].decode("latin-1"), contents
        elif name not in ("/", "/SYM64/"):
            yield name.rstrip("/"), contents
