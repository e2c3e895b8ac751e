"""Source positions of machine addresses, from DWARF ``.debug_line``.

A `LineTable` reads an ELF file's compilation units' address ranges when
first asked, and decodes the line program of a unit only when an address
falls in it (units that name no ranges are decoded on a miss, once).  DWARF
4 and 5 (clang 19's default).  A file without ``.debug_line`` costs a look
at its section headers and nothing more.

Positions read as LLVM's symbolizer reads them: the last row at or before
the address, in the sequence that contains it; the file is the line table's
name joined to its directory and the compilation directory.  A row of line 0
(code no source line stands for) gives no position, as in gdb.
"""

from __future__ import annotations

import bisect
import io
import posixpath
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator, Mapping, NamedTuple

from elftools.dwarf.compileunit import CompileUnit
from elftools.dwarf.dwarfinfo import DWARFInfo
from elftools.dwarf.ranges import BaseAddressEntry
from elftools.elf.elffile import ELFFile

#: How many sequences or ranges starting before an address are searched for
#: one that contains it (more only when that many overlap, as for code
#: discarded by the linker and left at address 0).
_OVERLAP_WINDOW = 64


class _Sequence(NamedTuple):
    """Consecutive rows: ``addresses[i]`` up to the next row, or to `end`,
    is at ``positions[i]``."""

    start: int
    end: int
    addresses: list[int]
    positions: list[tuple[str, int] | None]


class _Spans(NamedTuple):
    """Sorted ``(start, end, item)`` triples, searchable by address."""

    starts: list[int]
    entries: list[tuple[int, int, object]]

    @classmethod
    def of(cls, entries: list[tuple[int, int, object]]) -> _Spans:
        entries = sorted(entries, key=lambda entry: (entry[0], entry[1]))
        return cls([entry[0] for entry in entries], entries)

    def containing(self, address: int) -> list:
        """The items of the spans containing `address`, the last-starting first."""
        position = bisect.bisect_right(self.starts, address)
        window = self.entries[max(0, position - _OVERLAP_WINDOW) : position]
        return [item for start, end, item in reversed(window) if address < end]


class LineTable:
    """The line information of one ELF file, given by path or as an open
    binary file (which must stay open until the first `position` call)."""

    def __init__(self, source: str | Path | BinaryIO):
        self._source = source
        self._dwarf: DWARFInfo | None = None
        self._units: _Spans | None = None  # CU ranges -> CompileUnit
        self._unranged: list[CompileUnit] = []  # units naming no ranges
        self._decoded: dict[int, _Spans] = {}  # CU offset -> its sequences

    def position(self, address: int) -> tuple[str, int] | None:
        """(file, line) of the ELF virtual `address`, or None when no row
        covers it.  Raises OSError when the file cannot be opened; corrupt
        or absent DWARF reads as no positions."""
        if self._units is None:
            self._load()
        if self._dwarf is None:
            return None
        return next(self._rows(address), None)

    def _rows(self, address: int) -> Iterator[tuple[str, int] | None]:
        """The positions of `address` in every sequence that contains it,
        looking in the units that claim it before the ones that claim nothing."""
        for unit in self._units.containing(address) + self._unranged:
            for sequence in self._sequences(unit).containing(address):
                yield sequence.positions[bisect.bisect_right(sequence.addresses, address) - 1]

    # ---- reading ----

    def _load(self) -> None:
        self._units = _Spans.of([])
        if isinstance(self._source, (str, Path)):
            with open(self._source, "rb") as stream:
                self._read_units(stream)
        else:
            self._read_units(self._source)

    def _read_units(self, stream: BinaryIO) -> None:
        # pyelftools reports corrupt input with many exception types; any of
        # them here means that the file has no usable line information.
        try:
            elf = ELFFile(stream)
            if elf.get_section_by_name(".debug_line") is None and elf.get_section_by_name(".zdebug_line") is None:
                return
            dwarf = elf.get_dwarf_info()  # copies the debug sections: the stream may close after
            ranges: list[tuple[int, int, object]] = []
            for unit in dwarf.iter_CUs():
                try:
                    unit_ranges = _unit_ranges(dwarf, unit)
                except Exception:  # as below: a unit whose ranges are unreadable claims none
                    unit_ranges = None
                if unit_ranges is None:
                    self._unranged.append(unit)
                else:
                    ranges += [(start, end, unit) for start, end in unit_ranges if start < end]
        except Exception:
            return
        self._units = _Spans.of(ranges)
        self._dwarf = dwarf

    def _sequences(self, unit: CompileUnit) -> _Spans:
        if unit.cu_offset not in self._decoded:
            try:
                sequences = _decode(self._dwarf, unit)
            except Exception:  # corrupt line program: see _read_units
                sequences = []
            self._decoded[unit.cu_offset] = _Spans.of([(s.start, s.end, s) for s in sequences])
        return self._decoded[unit.cu_offset]


def statement_lines(image: bytes | memoryview, file_name: str) -> set[int]:
    """The lines of source file `file_name` where the line program of the
    ELF `image` starts a statement (where gdb puts a breakpoint on a line).
    A path matches by its last components (``scan.hip`` and
    ``src/scan.hip`` match ``/home/me/src/scan.hip``).  Corrupt or absent
    DWARF has none."""
    lines: set[int] = set()
    wanted = posixpath.normpath(file_name)
    try:  # any exception from pyelftools: no usable line information (see LineTable._read_units)
        elf = ELFFile(io.BytesIO(bytes(image)))
        if elf.get_section_by_name(".debug_line") is None:
            return lines
        dwarf = elf.get_dwarf_info()
        for unit in dwarf.iter_CUs():
            program = dwarf.line_program_for_CU(unit)
            if program is None:
                continue
            file_path = _file_names(program.header, _text(unit.get_top_DIE().attributes.get("DW_AT_comp_dir")))
            matches: dict[int, bool] = {}
            for entry in program.get_entries():
                state = entry.state
                if state is None or state.end_sequence or not state.is_stmt or not state.line:
                    continue
                if state.file not in matches:
                    path = file_path(state.file) or ""
                    matches[state.file] = path == wanted or path.endswith("/" + wanted)
                if matches[state.file]:
                    lines.add(state.line)
    except Exception:
        return set()
    return lines


def _unit_ranges(dwarf: DWARFInfo, unit: CompileUnit) -> list[tuple[int, int]] | None:
    """A unit's address ranges from its DW_AT_low_pc/high_pc or DW_AT_ranges;
    None when it names none (or they cannot be read) but has a line program."""
    attributes = unit.get_top_DIE().attributes
    if "DW_AT_stmt_list" not in attributes:
        return []
    low = attributes.get("DW_AT_low_pc")
    base = low.value if low else 0
    if "DW_AT_ranges" in attributes:
        lists = dwarf.range_lists()
        if lists is None:
            return None
        ranges = []
        for entry in lists.get_range_list_at_offset(attributes["DW_AT_ranges"].value, cu=unit):
            if isinstance(entry, BaseAddressEntry):
                base = entry.base_address
            elif entry.is_absolute:
                ranges.append((entry.begin_offset, entry.end_offset))
            else:
                ranges.append((base + entry.begin_offset, base + entry.end_offset))
        return ranges
    high = attributes.get("DW_AT_high_pc")
    if low is None or high is None:
        return None
    return [(low.value, high.value if high.form.startswith("DW_FORM_addr") else low.value + high.value)]


def _decode(dwarf: DWARFInfo, unit: CompileUnit) -> list[_Sequence]:
    program = dwarf.line_program_for_CU(unit)
    if program is None:
        return []
    rows: list[tuple[int, int, int]] = []  # address, file index, line
    sequences: list[tuple[int, list[tuple[int, int, int]]]] = []  # end address, rows
    for entry in program.get_entries():
        state = entry.state
        if state is None:
            continue
        if state.end_sequence:
            if rows:
                sequences.append((state.address, rows))
            rows = []
        else:
            rows.append((state.address, state.file, state.line))
    # After decoding: DWARF 4 programs may define files as they go.
    file_path = _file_names(program.header, _text(unit.get_top_DIE().attributes.get("DW_AT_comp_dir")))
    return [
        _Sequence(
            rows[0][0],
            end,
            [address for address, _, _ in rows],
            [(name, line) if line and (name := file_path(file)) else None for _, file, line in rows],
        )
        for end, rows in sequences
    ]


def _file_names(header: Mapping[str, Any], comp_dir: str) -> Callable[[int], str | None]:
    """A function from a row's file index to the file's path."""
    version = header["version"]
    files = header["file_entry"]
    directories = header["include_directory"]
    cache: dict[int, str | None] = {}

    def directory(index: int) -> str:
        if version >= 5:
            return _text(directories[index]) if index < len(directories) else ""
        return comp_dir if index == 0 else _text(directories[index - 1]) if index <= len(directories) else ""

    def name_of(index: int) -> str | None:
        if index not in cache:
            position = index if version >= 5 else index - 1
            if 0 <= position < len(files) and files[position].name:
                entry = files[position]
                cache[index] = posixpath.join(comp_dir, directory(entry.dir_index or 0), _text(entry.name))
            else:
                cache[index] = None
        return cache[index]

    return name_of


def _text(value: Any) -> str:
    """A DWARF string (bytes from pyelftools, or an attribute holding them)."""
    value = getattr(value, "value", value)
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return value if isinstance(value, str) else ""
