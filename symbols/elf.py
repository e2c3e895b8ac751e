"""A small, fast ELF reader: header, sections, symbols and notes.

Reads from any buffer (an mmap of a 150 MB library, or a code object inside
one) without copying section contents, unpacks symbol tables in bulk with
``struct.iter_unpack``, and checks every offset and size against the buffer.
32- and 64-bit, little- and big-endian.  Bad input raises ``FormatError``.
"""

from __future__ import annotations

import re
from functools import cache, cached_property
from typing import Iterator, NamedTuple

from symbols import elf_scan
from symbols.binary_layout import Layout, align_up, fits
from symbols.errors import FormatError

MAGIC = b"\x7fELF"

EM_X86_64 = 62
EM_CUDA = 190
EM_AMDGPU = 224

ET_REL, ET_EXEC, ET_DYN = 1, 2, 3

SHT_NOBITS = 8
SHT_SYMTAB = 2
SHT_STRTAB = 3
SHT_RELA = 4
SHT_DYNSYM = 11
SHT_NOTE = 7
SHF_ALLOC = 0x2
SHN_UNDEF = 0
SHN_LORESERVE = 0xFF00
SHN_XINDEX = 0xFFFF

STT_NAMES = {0: "NOTYPE", 1: "OBJECT", 2: "FUNC", 3: "SECTION", 4: "FILE", 5: "COMMON", 6: "TLS", 10: "GNU_IFUNC"}
STB_NAMES = {0: "LOCAL", 1: "GLOBAL", 2: "WEAK", 10: "GNU_UNIQUE"}

#: How many sections a file may declare before it is called corrupt.
MAX_SECTIONS = 1 << 20


class ElfLayouts(NamedTuple):
    """The structs of one ELF class and byte order, named as the System V
    ABI names their fields, less the ``e_``, ``sh_``, ``st_``, ``r_`` prefixes."""

    header: Layout  # the file header after e_ident
    section: Layout
    symbol: Layout
    relocation: Layout  # with addend (RELA)
    note: Layout  # a note's header; its name and descriptor follow, each padded to 4


@cache
def layouts(is64: bool, little: bool) -> ElfLayouts:
    """The structs of 64-bit (or 32-bit), little- (or big-) endian ELF files."""
    order = "<" if little else ">"
    word = "Q" if is64 else "I"  # addresses, offsets and sizes (ElfN_Addr, ElfN_Off, ElfN_Xword / Word)
    header = [
        ("type", "H"),
        ("machine", "H"),
        ("version", "I"),
        ("entry", word),
        ("phoff", word),
        ("shoff", word),
        ("flags", "I"),
        ("ehsize", "H"),
        ("phentsize", "H"),
        ("phnum", "H"),
        ("shentsize", "H"),
        ("shnum", "H"),
        ("shstrndx", "H"),
    ]
    section = [
        ("name", "I"),
        ("type", "I"),
        ("flags", word),
        ("addr", word),
        ("offset", word),
        ("size", word),
        ("link", "I"),
        ("info", "I"),
        ("addralign", word),
        ("entsize", word),
    ]
    if is64:
        symbol = [("name", "I"), ("info", "B"), ("other", "B"), ("shndx", "H"), ("value", "Q"), ("size", "Q")]
    else:
        symbol = [("name", "I"), ("value", "I"), ("size", "I"), ("info", "B"), ("other", "B"), ("shndx", "H")]
    relocation = [("offset", word), ("info", word), ("addend", word.lower())]
    note = [("namesz", "I"), ("descsz", "I"), ("type", "I")]
    return ElfLayouts(
        Layout("ElfHeader", header, order),
        Layout("SectionHeader", section, order),
        Layout("SymbolEntry", symbol, order),
        Layout("Relocation", relocation, order),
        Layout("NoteHeader", note, order),
    )


class Section(NamedTuple):  # tuples: a cubin has thousands, made in bulk
    index: int
    name: str
    type: int
    flags: int
    addr: int
    offset: int
    size: int
    link: int
    info: int
    entsize: int


class Symbol(NamedTuple):  # tuples: a library has millions, made in bulk
    name: str
    value: int
    size: int
    type: str  # "FUNC", "OBJECT", ...
    bind: str  # "LOCAL", "GLOBAL", "WEAK", ...
    other: int  # st_other: visibility in the low bits, processor flags above
    shndx: int

    @property
    def defined(self) -> bool:
        return self.shndx != SHN_UNDEF


#: (name, value, size, st_info, st_other, st_shndx) of a symbol.
SymbolRow = tuple[str, int, int, int, int, int]
STT_OBJECT, STT_FUNC = 1, 2
STB_GLOBAL, STB_WEAK = 1, 2


class Relocation(NamedTuple):
    offset: int  # where it applies: section offset (relocatable file) or address
    type: int
    symbol: int  # index in the symbol table the RELA section links to
    addend: int


class ElfFile:
    """An ELF image in `data` (bytes, mmap or memoryview)."""

    def __init__(self, data: bytes | memoryview):
        self.data = memoryview(data).cast("B") if not isinstance(data, memoryview) else data
        if len(self.data) < 16 or bytes(self.data[:4]) != MAGIC:
            raise FormatError("not an ELF file")
        ei_class, ei_data = self.data[4], self.data[5]
        if ei_class not in (1, 2) or ei_data not in (1, 2):
            raise FormatError(f"unknown ELF class {ei_class} or data encoding {ei_data}")
        self.is64 = ei_class == 2
        self.abi_version = self.data[8]
        self.endian = "<" if ei_data == 1 else ">"
        self.layouts = layouts(self.is64, ei_data == 1)
        self._header = header = self._read(self.layouts.header, 16, "ELF header")
        self.type, self.machine, self.entry, self.phoff, self.flags = (
            header.type,
            header.machine,
            header.entry,
            header.phoff,
            header.flags,
        )

    # ---- raw access ----

    def _read(self, layout: Layout, offset: int, what: str) -> NamedTuple:
        if offset < 0 or not fits(offset, layout.size, len(self.data)):
            raise FormatError(f"{what} at offset {offset} lies outside the file ({len(self.data)} bytes)")
        return layout.unpack_from(self.data, offset)

    def bytes_at(self, offset: int, size: int, what: str) -> memoryview:
        if offset < 0 or size < 0 or not fits(offset, size, len(self.data)):
            raise FormatError(
                f"{what} ({size} bytes at offset {offset}) lies outside the file ({len(self.data)} bytes)"
            )
        return self.data[offset : offset + size]

    # ---- sections ----

    @cached_property
    def _section_table(self) -> tuple[memoryview, int, memoryview] | None:
        """The section header table, its count of headers and the section
        name table; None when the file has no headers."""
        header, entry = self._header, self.layouts.section
        if header.shoff == 0:
            return None  # no section header table (stripped of it, or a core file)
        if header.shentsize != entry.size:
            raise FormatError(f"section header size {header.shentsize}, expected {entry.size}")
        count, names_index = header.shnum, header.shstrndx
        if count == 0 or names_index == SHN_XINDEX:
            first = self._read(entry, header.shoff, "section header 0")
            count = count or first.size
            names_index = first.link if names_index == SHN_XINDEX else names_index
        if count > MAX_SECTIONS:
            raise FormatError(f"{count} sections declared")
        table = self.bytes_at(header.shoff, count * entry.size, "section header table")
        if names_index >= count:
            raise FormatError(f"section name table index {names_index} out of range")
        names_header = entry.unpack_from(table, names_index * entry.size)
        names = (
            memoryview(b"")
            if names_header.type == SHT_NOBITS
            else self.bytes_at(names_header.offset, names_header.size, "section name table")
        )
        return table, count, names

    def _section_names(self) -> _StringTable:
        """The section name table, with a budget for one reading of every name."""
        table, _, names = self._section_table
        return _StringTable(names, len(table), "section name table")

    @cached_property
    def sections(self) -> list[Section]:
        if self._section_table is None:
            return []
        scan = elf_scan.scanner()
        if scan is not None:
            return self._scanned(scan)
        table, _, _ = self._section_table
        strings = self._section_names()
        return [
            _new(Section, (index, strings.at(name), type_, flags, addr, offset, size, link, info, entsize))
            for index, (name, type_, flags, addr, offset, size, link, info, _addralign, entsize) in enumerate(
                self.layouts.section.iter_fields(table)
            )
        ]

    def sections_named(self, prefix: str, types: tuple[int, ...] = ()) -> list[Section]:
        """The sections whose names start with `prefix`, and those of
        `types` (each under 32), as `sections` has them, with the same
        errors.  A cubin has thousands of sections and its reader wants a
        quarter: until `sections` is asked for, the others are neither
        made nor named.  `section_at` finds the sections this gave."""
        if not all(0 <= kind < 32 for kind in types):
            raise ValueError(f"section types {types}: each must be under 32")
        scan = elf_scan.scanner()
        if "sections" in self.__dict__ or scan is None or self._section_table is None or not prefix.isascii():
            return [s for s in self.sections if s.name.startswith(prefix) or s.type in types]
        found = self._scanned(scan, prefix.encode(), types)
        self._some_sections.update((section.index, section) for section in found)
        return found

    def _scanned(
        self, scan: elf_scan.Scanner, prefix: bytes | None = None, types: tuple[int, ...] = ()
    ) -> list[Section]:
        """The sections the C loop keeps: every one, or with `prefix` those
        `sections_named` gives."""
        table, count, names = self._section_table
        charge = self._section_names().charge
        indices, records, found = scan.sections(
            table, count, self.is64, self.endian == "<", names, charge, prefix, types
        )
        return [
            _new(Section, (index, name, type_, flags, addr, offset, size, link, info, entsize))
            for index, name, (type_, link, flags, addr, offset, size, info, entsize) in zip(indices, found, records)
        ]

    @cached_property
    def _some_sections(self) -> dict[int, Section]:
        """The sections `sections_named` gave, by index."""
        return {}

    @property
    def section_count(self) -> int:
        """How many section headers the file has, read without making them."""
        return 0 if self._section_table is None else self._section_table[1]

    def section_at(self, index: int) -> Section:
        """Section `index` (less than `section_count`)."""
        found = self._some_sections.get(index) if "sections" not in self.__dict__ else None
        return found if found is not None else self.sections[index]

    @cached_property
    def _sections_by_name(self) -> dict[str, Section]:
        by_name: dict[str, Section] = {}
        for section in self.sections:
            by_name.setdefault(section.name, section)
        return by_name

    def section(self, name: str) -> Section | None:
        return self._sections_by_name.get(name)

    def contents(self, section: Section) -> memoryview:
        """A section's bytes (empty for NOBITS), without copying."""
        if section.type == SHT_NOBITS:
            return memoryview(b"")
        return self.bytes_at(section.offset, section.size, f"section {section.name}")

    def disjoint(self, sections: list[Section]) -> list[Section]:
        """`sections`, checked to share no byte of the file (NOBITS ones take
        none): a reader parsing each would otherwise parse the same bytes
        once per section header naming them, as often as a hostile file
        repeats one."""
        check_disjoint([(s.offset, s.size, f"section {s.name}") for s in sections if s.type != SHT_NOBITS])
        return sections

    def file_offset(self, address: int) -> int | None:
        """The file offset of virtual `address` in an allocated section."""
        for section in self.sections:
            if (
                section.flags & SHF_ALLOC
                and section.type != SHT_NOBITS
                and section.addr <= address < section.addr + section.size
            ):
                return section.offset + address - section.addr
        return None

    def cstring_at(self, address: int, limit: int = 1 << 16) -> str:
        """The NUL-terminated string at virtual `address`."""
        offset = self.file_offset(address)
        if offset is None:
            raise FormatError(f"address {address:#x} is in no section of the file")
        window = bytes(self.data[offset : offset + limit])
        end = window.find(b"\0")
        if end < 0:
            raise FormatError(f"string at {address:#x} is not terminated")
        return window[:end].decode("utf-8", "replace")

    # ---- symbols ----

    def symbols(self, section: Section, every: bool = False) -> list[Symbol]:
        """The program's symbols in a SYMTAB or DYNSYM section: local labels
        (NOTYPE LOCAL, most of a GPU code object's table), section and file
        symbols are left out before their names are even read, unless
        `every` (then entry i + 1 of the table is item i)."""
        return list(self.iter_symbols(section, every))

    def iter_symbols(self, section: Section, every: bool = False) -> Iterator[Symbol]:
        """`symbols`, one at a time: a caller keeping few of a large table's
        symbols never holds them all."""
        for name, value, size, info, other, shndx in self.symbol_rows(section, every):
            yield _new(Symbol, (name, value, size, _TYPES[info & 0xF], _BINDS[info >> 4], other, shndx))

    def symbol_rows(self, section: Section, every: bool = False) -> Iterator[SymbolRow]:
        """`iter_symbols` as plain tuples, for tables of millions of entries."""
        entry = self.layouts.symbol
        if section.size % entry.size:
            raise FormatError(f"{section.name}: size {section.size} is not a multiple of {entry.size}")
        if section.link >= self.section_count:
            raise FormatError(f"{section.name}: string table index {section.link} out of range")
        names = _StringTable(self.contents(self.section_at(section.link)), section.size, section.name)
        table = self.contents(section)[entry.size :]
        scan = elf_scan.scanner()
        if scan is not None:
            little = self.endian == "<"
            for records, names_found in scan.symbols(table, self.is64, little, names.table, every, names.charge):
                for name, (value, size, info, other, shndx) in zip(names_found, records):
                    yield name, value, size, info, other, shndx
            return
        for name, info, other, shndx, value, size in entry.iter_fields(table, *_SYMBOL_FIELDS):
            if info in _LEFT_OUT and not every:
                continue
            yield names.at(name), value, size, info, other, shndx

    @cached_property
    def symtab_section(self) -> Section | None:
        return next((s for s in self.sections if s.type == SHT_SYMTAB), None)

    @cached_property
    def dynsym_section(self) -> Section | None:
        return next((s for s in self.sections if s.type == SHT_DYNSYM), None)

    @cached_property
    def symtab(self) -> list[Symbol]:
        """.symtab, or empty when the file is stripped of it."""
        return self.symbols(self.symtab_section) if self.symtab_section else []

    @cached_property
    def dynsym(self) -> list[Symbol]:
        return self.symbols(self.dynsym_section) if self.dynsym_section else []

    def relocations(self, section: Section) -> list[Relocation]:
        """The entries of a RELA section."""
        entry = self.layouts.relocation
        if section.size % entry.size:
            raise FormatError(f"{section.name}: size {section.size} is not a multiple of {entry.size}")
        shift, mask = (32, 0xFFFFFFFF) if self.is64 else (8, 0xFF)
        return [
            _new(Relocation, (offset, info & mask, info >> shift, addend))
            for offset, info, addend in entry.iter_fields(self.contents(section))
        ]

    # ---- notes ----

    def notes(self, section: Section) -> Iterator[tuple[str, int, memoryview]]:
        """(owner, type, descriptor) of each note in a NOTE section."""
        data = self.contents(section)
        header = self.layouts.note
        cursor = 0
        while fits(cursor, header.size, len(data)):
            name_size, desc_size, note_type = header.unpack_from(data, cursor)
            name_start = cursor + header.size
            desc_start = name_start + align_up(name_size, 4)
            end = desc_start + align_up(desc_size, 4)
            if desc_start + desc_size > len(data):
                raise FormatError(f"{section.name}: note at {cursor} runs past the section")
            owner = bytes(data[name_start : name_start + name_size]).rstrip(b"\0").decode("ascii", "replace")
            yield owner, note_type, data[desc_start : desc_start + desc_size]
            cursor = end

    def all_notes(self) -> Iterator[tuple[str, int, memoryview]]:
        """`notes` of every NOTE section, the sections checked not to overlap."""
        for section in self.disjoint([section for section in self.sections if section.type == SHT_NOTE]):
            yield from self.notes(section)


def check_disjoint(regions: list[tuple[int, int, str]]) -> None:
    """Raises FormatError when two of the (offset, size, name) `regions`
    overlap; empty ones never do."""
    end, last = -1, ""
    for offset, size, name in sorted(region for region in regions if region[1] > 0):
        if offset < end:
            raise FormatError(f"{last} and {name} overlap")
        if offset + size > end:
            end, last = offset + size, name


#: A NamedTuple made from a tuple of its fields, 10 times faster than a call.
_new = tuple.__new__
#: The fields of a symbol `iter_symbols` reads, in the order of a 64-bit file's.
_SYMBOL_FIELDS = ("name", "info", "other", "shndx", "value", "size")
_TYPES = [STT_NAMES.get(i, str(i)) for i in range(16)]
# st_info values of local labels, and of section and file symbols (any binding).
_LEFT_OUT = frozenset([0x00] + [(bind << 4) | kind for bind in range(16) for kind in (3, 4)])
_BINDS = [STB_NAMES.get(i, str(i)) for i in range(16)]


#: The names read from a string table may together be this many times as
#: long as that table and the table of entries naming into it (plus
#: NAME_SLACK) before the file is called corrupt.  Names may overlap:
#: symbols named by offsets 0, 1, 2... of one long string would otherwise
#: cost the square of the table's size in time and memory.
NAME_BUDGET = 4
NAME_SLACK = 1 << 20


class _StringTable:
    """The NUL-terminated strings of `table`, named by offset (an offset
    past the end names ""), for the `entries_size` bytes of entries
    (symbols, section headers) of `what`.  Looking names up (`at`), a table
    of up to WHOLE_TABLE bytes, in ASCII, is decoded once and sliced; a
    larger one (a library's, of 100 MB) is neither copied nor decoded
    whole: each name is decoded alone, from the table as it lies in the
    file.  The C loops (elf_scan) find names themselves, and only `charge`."""

    def __init__(self, table: memoryview, entries_size: int, what: str):
        self.table, self.what = table, what
        self.budget = NAME_BUDGET * (len(table) + entries_size) + NAME_SLACK
        self._text: str | None | bool = False  # decoded on first `at`; None: not ASCII, or too large

    def charge(self, length: int) -> None:
        """Counts `length` bytes of names read against the budget."""
        self.budget -= length
        if self.budget < 0:
            raise FormatError(f"{self.what}: names overlap, together over {NAME_BUDGET} times the size of the tables")

    def at(self, offset: int) -> str:
        """The string at `offset`, charged."""
        size = len(self.table)
        if offset >= size:
            return ""
        if self._text is False:
            whole = bytes(self.table) if size <= WHOLE_TABLE else b""
            self._text = whole.decode("ascii") if whole and whole.isascii() else None
        if self._text is not None:
            end = self._text.find("\0", offset)
        else:
            found = _NUL.search(self.table, offset)
            end = found.start() if found else -1
        end = size if end < 0 else end
        self.charge(end - offset)
        if self._text is not None:
            return self._text[offset:end]
        return str(self.table[offset:end], "utf-8", "replace")


#: String tables up to this size are decoded whole.
WHOLE_TABLE = 4 << 20


_NUL = re.compile(b"\0")
