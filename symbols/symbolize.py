"""Host addresses recorded in a running program, named after it has ended.

A `Symbolizer` knows the program's module map (each loaded ELF file, its
load bias and its loaded segments) and turns an address into a `HostFrame`:
the module, the symbol containing it with its GPU role (the stub of a kernel
launch names the kernel), and the source position from DWARF.  The runtime
address minus the module's load bias is the ELF virtual address, for PIE
executables and shared libraries alike (the bias of other executables is 0).

Each module is read once, when an address first falls in it; a module that
cannot be read gives frames that name only the module.  Nothing raises for a
bad address or an unreadable file.
"""

from __future__ import annotations

import bisect
from dataclasses import asdict, dataclass
from typing import NamedTuple

from symbols.analysis import AddressIndex, analyze, pretty
from symbols.demangling.gnu import demangle
from symbols.errors import FormatError
from symbols.lines import LineTable


@dataclass(frozen=True)
class HostFrame:
    """What is known of one host address; None where nothing is."""

    address: int
    module: str | None = None
    offset: int | None = None  # address - the module's load bias
    function: str | None = None  # the containing symbol, mangled (a variable's, for data)
    demangled: str | None = None  # None when `function` is not a C++ name
    function_offset: int | None = None
    file: str | None = None
    line: int | None = None
    role: str | None = None  # a symbols.model.Role value: kernel-stub, host-code...
    kernel: str | None = None  # demangled: the kernel of a stub or handle

    def to_json(self) -> dict:
        return asdict(self)


class _Module(NamedTuple):
    path: str
    base: int


class _Reader(NamedTuple):
    """A readable module's symbols and lines."""

    symbols: AddressIndex
    lines: LineTable


class Symbolizer:
    """Names addresses of one process from its module map."""

    def __init__(self) -> None:
        self._segments: list[tuple[int, int, _Module]] = []  # start, end, module; sorted
        self._starts: list[int] = []
        self._readers: dict[str, _Reader | None] = {}
        self._frames: dict[tuple[int, bool, bool], HostFrame] = {}

    def add_module(self, path: str, base: int, segments: list[tuple[int, int]]) -> None:
        """A loaded ELF file: its load bias and its segments as absolute
        (start, size) pairs."""
        module = _Module(path, base)
        self._segments += [(start, start + size, module) for start, size in segments if size > 0]
        self._segments.sort(key=lambda segment: segment[:2])
        self._starts = [start for start, _, _ in self._segments]
        self._frames.clear()  # an address outside every module may be in this one

    def frame(self, address: int, *, return_address: bool = True) -> HostFrame:
        """The code at `address`.  A return address is looked up one byte
        earlier, in the call instruction, and reported as given."""
        return self._cached(address, code=True, before=return_address)

    def data_symbol(self, address: int) -> HostFrame:
        """The variable at `address` (a kernel's handle: role kernel-handle,
        `kernel` naming the kernel), without source position."""
        return self._cached(address, code=False, before=False)

    def _cached(self, address: int, *, code: bool, before: bool) -> HostFrame:
        key = (address, code, before)
        if key not in self._frames:
            self._frames[key] = self._resolve(address, address - 1 if before else address, code)
        return self._frames[key]

    def _resolve(self, address: int, lookup: int, code: bool) -> HostFrame:
        module = self._module(lookup)
        if module is None:
            return HostFrame(address)
        offset = address - module.base
        reader = self._reader(module.path)
        if reader is None:
            return HostFrame(address, module.path, offset)
        vaddr = lookup - module.base
        position = self._position(reader.lines, vaddr) if code else None
        file, line = position or (None, None)
        found = reader.symbols.lookup(vaddr)
        if found is None:
            return HostFrame(address, module.path, offset, file=file, line=line)
        return HostFrame(
            address,
            module.path,
            offset,
            function=found.name,
            demangled=demangle(found.name),
            function_offset=offset - found.start,
            file=file,
            line=line,
            role=found.role.value,
            kernel=pretty(found.kernel) if found.kernel else None,
        )

    def _module(self, address: int) -> _Module | None:
        index = bisect.bisect_right(self._starts, address) - 1
        if index >= 0 and address < self._segments[index][1]:
            return self._segments[index][2]
        return None

    def _reader(self, path: str) -> _Reader | None:
        if path not in self._readers:
            try:
                # Every host symbol is indexed whatever roles the report lists:
                # it need list none.
                symbols = analyze(path, host_roles=set(), with_args=False).addresses
            except (FormatError, OSError):
                self._readers[path] = None
            else:
                self._readers[path] = _Reader(symbols, LineTable(path))
        return self._readers[path]

    @staticmethod
    def _position(lines: LineTable, vaddr: int) -> tuple[str, int] | None:
        try:
            return lines.position(vaddr)
        except OSError:  # the file went away since its symbols were read
            return None
