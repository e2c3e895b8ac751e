"""The module map of a running process, from /proc/PID/maps: each mapped ELF
file with its load bias and its mapped ranges, as the interposer's MODULES
record gives it."""

from __future__ import annotations

from capture.records import Module
from symbols.elf import ElfFile
from symbols.errors import FormatError

ET_DYN = 3  # e_type of a position-independent executable or a shared library
_HEADER_SIZE = 64


def _position_independent(path: str) -> bool | None:
    """Whether the ELF file at `path` is loaded anywhere (its addresses move
    by the load bias); None when it is not an ELF file."""
    try:
        with open(path, "rb") as stream:
            return ElfFile(stream.read(_HEADER_SIZE)).type == ET_DYN
    except (OSError, FormatError):
        return None


def modules(pid: int) -> list[Module]:
    """The ELF files mapped in process `pid`.  A position-independent file's
    load bias is where its first page is mapped: its first loadable segment
    starts at address 0, as every linker lays them out."""
    spans: dict[str, list[tuple[int, int, int]]] = {}
    with open(f"/proc/{pid}/maps", encoding="utf-8", errors="surrogateescape") as maps:
        for line in maps:
            fields = line.rstrip("\n").split(maxsplit=5)
            if len(fields) < 6 or not fields[5].startswith("/") or fields[5].endswith(" (deleted)"):
                continue
            start, end = (int(bound, 16) for bound in fields[0].split("-"))
            spans.setdefault(fields[5], []).append((start, end - start, int(fields[2], 16)))
    found = []
    for path, ranges in spans.items():
        moved = _position_independent(path)
        firsts = [start for start, _, offset in ranges if offset == 0]
        if moved is None or not firsts:
            continue
        base = min(firsts) if moved else 0
        found.append(Module(path, base, [(start, size) for start, size, _ in ranges]))
    return found
