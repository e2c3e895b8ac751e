"""Which host symbol each CUDA kernel is registered with: its handle, as the
registration code proves it.

nvcc's registration function (``__nv_cudaEntityRegisterCallback``, inlined
into ``__sti____cudaRegisterAll`` when optimised) and clang's
(``__cuda_register_globals``) call ``__cudaRegisterFunction(fatbin handle,
handle, device name, device name, ...)`` once per kernel: on x86-64 the
handle's address goes in %rsi, the name's in %rdx and %rcx.  Names cannot
tell the handle: nvcc's host function has the kernel's device name, but
with internal linkage for static kernels (``_ZL1sPi`` for ``_Z1sPi``) and,
from CUDA 13, for template instances (``_ZN1aL1tIiEEvPT_S1_``); clang
registers the stub.

The registration functions' bytes are searched for the instructions that
load those registers (``lea d(%rip)``, ``mov d(%rip)`` from the GOT, ``mov
$imm`` in code that is not position-independent) and for the calls to
``__cudaRegisterFunction`` (direct, through the PLT, or through the GOT);
the last load of each register before such a call is its argument.  A load
counts only when it resolves to a kernel's name or to a host symbol, so the
bytes of other instructions that look like one are not taken for it.  In a
relocatable object, the relocations say what loads and calls refer to.
"""

from __future__ import annotations

import re
import struct
from typing import Collection

from symbols import roles
from symbols.elf import EM_X86_64, ET_REL, SHF_ALLOC, SHT_NOBITS, SHT_RELA, ElfFile, Relocation, Symbol
from symbols.errors import FormatError
from symbols.model import Role

REGISTER_FUNCTION = "__cudaRegisterFunction"

R_X86_64_64, R_X86_64_PC32, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT, R_X86_64_RELATIVE = 1, 2, 6, 7, 8
R_X86_64_GOTPCREL, R_X86_64_32, R_X86_64_32S, R_X86_64_GOTPCRELX, R_X86_64_REX_GOTPCRELX = 9, 10, 11, 41, 42
_GOT_RELOCATIONS = {R_X86_64_GOTPCREL, R_X86_64_GOTPCRELX, R_X86_64_REX_GOTPCRELX}

#: Instruction starts: lea/mov rip-relative into rsi, rdx, rcx; mov $imm32
#: into esi, edx, ecx; call rel32; call *d(%rip).  A lookahead, so that
#: candidates may overlap.
_CANDIDATES = re.compile(rb"(?=(\x48[\x8d\x8b][\x35\x15\x0d]|[\xbe\xba\xb9]|\xe8|\xff\x15))")
_REGISTERS = {0x35: "rsi", 0x15: "rdx", 0x0D: "rcx", 0xBE: "rsi", 0xBA: "rdx", 0xB9: "rcx"}
_INT32 = struct.Struct("<i")
_UINT32 = struct.Struct("<I")


def registered_handles(elf: ElfFile, host: list[Symbol], kernels: Collection[str]) -> dict[str, Symbol]:
    """Kernel name (of `kernels`) -> the host symbol (of `host`) registered
    for it.  Empty for a file that is not x86-64, or without the symbols of
    its registration code (stripped).  Raises FormatError for a corrupt
    relocation or symbol table."""
    if elf.machine != EM_X86_64 or not elf.is64 or elf.endian != "<":
        return {}
    functions = [s for s in host if s.type == "FUNC" and s.size and roles.general_role(s) is Role.REGISTRATION]
    if not functions or not kernels:
        return {}
    reader = _Relocatable(elf, host) if elf.type == ET_REL else _Linked(elf, host)
    found: dict[str, Symbol] = {}
    for function in functions:
        code = reader.code(function)
        if code is not None:
            for name, handle in reader.registrations(function, code, kernels):
                found.setdefault(name, handle)
    return found


class _Reader:
    """The scan, over a file whose places (an address, or a section index
    and offset) `operand` and `is_registration` resolve."""

    def __init__(self, elf: ElfFile, host: list[Symbol]):
        self.elf = elf
        self.symbols: dict[object, Symbol] = {}
        for symbol in host:
            if symbol.defined and symbol.type == "FUNC":
                self.symbols.setdefault(self.place_of(symbol), symbol)

    def registrations(self, function: Symbol, code: memoryview, kernels: Collection[str]):
        """(kernel name, handle) of each call to __cudaRegisterFunction in
        `code` that registers one of `kernels`."""
        longest = max(map(len, kernels)) + 1

        def kernel(place: object) -> str | None:
            name = self.string(place, longest)
            return name if name in kernels else None

        loads: list[tuple[str, int, int]] = []  # (register, position, its kind's first byte) since the last call
        for match in _CANDIDATES.finditer(code):
            position, opcode = match.start(), code[match.start()]
            if opcode in (0xE8, 0xFF):
                field = position + (1 if opcode == 0xE8 else 2)
                if field + 4 <= len(code) and self.is_registration(function, code, field, opcode == 0xFF):
                    handle = self._last(loads, "rsi", lambda place: self.symbols.get(place), function, code)
                    name = self._last(loads, "rdx rcx", kernel, function, code)
                    if handle is not None and name is not None:
                        yield name, handle
                    loads = []
            else:
                register = _REGISTERS[code[position + 2] if opcode == 0x48 else opcode]
                loads.append((register, position, opcode if opcode != 0x48 else code[position + 1]))

    def _last(self, loads, registers: str, resolve, function: Symbol, code: memoryview):
        """The last of `loads` into one of `registers` that resolves."""
        for register, position, kind in reversed(loads):
            if register not in registers:
                continue
            field = position + (3 if kind in (0x8D, 0x8B) else 1)
            if field + 4 > len(code):
                continue
            place = self.operand(function, code, field, kind)
            value = resolve(place) if place is not None else None
            if value is not None:
                return value
        return None

    def place_of(self, symbol: Symbol) -> object:
        raise NotImplementedError

    def code(self, function: Symbol) -> memoryview | None:
        raise NotImplementedError

    def operand(self, function: Symbol, code: memoryview, field: int, kind: int) -> object | None:
        """Where the register points after the load whose 32-bit field is at
        `field`: lea (0x8D), mov from memory (0x8B), mov $imm (other)."""
        raise NotImplementedError

    def is_registration(self, function: Symbol, code: memoryview, field: int, through_got: bool) -> bool:
        raise NotImplementedError

    def string(self, place: object, longest: int) -> str | None:
        raise NotImplementedError


class _Linked(_Reader):
    """An executable or shared library: places are addresses."""

    def __init__(self, elf: ElfFile, host: list[Symbol]):
        super().__init__(elf, host)
        self.got: dict[int, tuple[str, int | None]] = {}  # slot -> (symbol name, the address it holds)
        for section in elf.sections:
            if section.type == SHT_RELA and section.link < len(elf.sections) and section.flags & SHF_ALLOC:
                table = elf.symbols(elf.sections[section.link], every=True) if section.link else []
                for relocation in elf.relocations(section):
                    self.got[relocation.offset] = _slot(relocation, table)
        self.targets = {s.value for s in host if s.defined and s.name == REGISTER_FUNCTION}
        for section in elf.sections:
            if section.name in (".plt", ".plt.sec", ".plt.got") and section.type != SHT_NOBITS:
                size = section.entsize or 16
                data = elf.contents(section)
                for jump in re.finditer(rb"\xff\x25", data):
                    if jump.start() + 6 <= len(data):
                        slot = section.addr + jump.start() + 6 + _INT32.unpack_from(data, jump.start() + 2)[0]
                        if self.got.get(slot, ("", None))[0] == REGISTER_FUNCTION:
                            self.targets.add(section.addr + jump.start() // size * size)

    def place_of(self, symbol: Symbol) -> int:
        return symbol.value

    def code(self, function: Symbol) -> memoryview | None:
        offset = self.elf.file_offset(function.value)
        if offset is None or offset + function.size > len(self.elf.data):
            return None
        return self.elf.data[offset : offset + function.size]

    def _slot_value(self, slot: int) -> int | None:
        if slot in self.got:
            return self.got[slot][1]
        offset = self.elf.file_offset(slot)  # not relocated at load time: the slot holds the address
        if offset is None or offset + 8 > len(self.elf.data):
            return None
        return struct.unpack_from("<Q", self.elf.data, offset)[0]

    def operand(self, function: Symbol, code: memoryview, field: int, kind: int) -> int | None:
        if kind not in (0x8D, 0x8B):
            return _UINT32.unpack_from(code, field)[0]
        target = function.value + field + 4 + _INT32.unpack_from(code, field)[0]
        return target if kind == 0x8D else self._slot_value(target)

    def is_registration(self, function: Symbol, code: memoryview, field: int, through_got: bool) -> bool:
        target = function.value + field + 4 + _INT32.unpack_from(code, field)[0]
        if through_got:
            return self.got.get(target, ("", None))[0] == REGISTER_FUNCTION
        return target in self.targets

    def string(self, place: int, longest: int) -> str | None:
        try:
            return self.elf.cstring_at(place, longest)
        except FormatError:
            return None


class _Relocatable(_Reader):
    """A relocatable object: places are (section index, offset), and the
    relocations of the registration code name what it refers to."""

    def __init__(self, elf: ElfFile, host: list[Symbol]):
        super().__init__(elf, host)
        # Section -> offset -> relocation and its symbol, read for the sections of registration code only.
        self.relocations: dict[int, dict[int, tuple[Relocation, Symbol | None]]] = {}

    def _relocations_of(self, index: int) -> dict[int, tuple[Relocation, Symbol | None]]:
        if index not in self.relocations:
            self.relocations[index] = {}
            for section in self.elf.sections:
                if section.type == SHT_RELA and section.info == index and 0 < section.link < len(self.elf.sections):
                    table = self.elf.symbols(self.elf.sections[section.link], every=True)
                    self.relocations[index].update(
                        (r.offset, (r, table[r.symbol - 1] if 0 < r.symbol <= len(table) else None))
                        for r in self.elf.relocations(section)
                    )
        return self.relocations[index]

    def place_of(self, symbol: Symbol) -> tuple[int, int]:
        return (symbol.shndx, symbol.value)

    def code(self, function: Symbol) -> memoryview | None:
        if function.shndx >= len(self.elf.sections):
            return None
        data = self.elf.contents(self.elf.sections[function.shndx])
        end = function.value + function.size
        return data[function.value : end] if end <= len(data) else None

    def _relocation(self, function: Symbol, field: int) -> tuple[Relocation, Symbol | None] | None:
        return self._relocations_of(function.shndx).get(function.value + field)

    def operand(self, function: Symbol, code: memoryview, field: int, kind: int) -> tuple[int, int] | None:
        found = self._relocation(function, field)
        if found is None:  # the assembler resolved it: rip-relative within the section
            if kind != 0x8D:
                return None
            return (function.shndx, function.value + field + 4 + _INT32.unpack_from(code, field)[0])
        relocation, symbol = found
        if symbol is None or not symbol.defined:
            return None
        if kind == 0x8D and relocation.type == R_X86_64_PC32:
            return (symbol.shndx, symbol.value + relocation.addend + 4)
        if kind == 0x8B and relocation.type in _GOT_RELOCATIONS:
            return (symbol.shndx, symbol.value)
        if kind not in (0x8D, 0x8B) and relocation.type in (R_X86_64_32, R_X86_64_32S):
            return (symbol.shndx, symbol.value + relocation.addend)
        return None

    def is_registration(self, function: Symbol, code: memoryview, field: int, through_got: bool) -> bool:
        found = self._relocation(function, field)
        return found is not None and found[1] is not None and found[1].name == REGISTER_FUNCTION

    def string(self, place: tuple[int, int], longest: int) -> str | None:
        index, offset = place
        if index >= len(self.elf.sections):
            return None
        window = bytes(self.elf.contents(self.elf.sections[index])[offset : offset + longest])
        end = window.find(b"\0")
        return window[:end].decode("utf-8", "replace") if end >= 0 else None


def _slot(relocation: Relocation, table: list[Symbol]) -> tuple[str, int | None]:
    """(symbol name, address held) of the GOT slot a dynamic relocation fills."""
    if relocation.type == R_X86_64_RELATIVE:
        return ("", relocation.addend)
    symbol = table[relocation.symbol - 1] if 0 < relocation.symbol <= len(table) else None
    if symbol is None:
        return ("", None)
    held = (
        symbol.value + relocation.addend
        if symbol.defined and relocation.type in (R_X86_64_64, R_X86_64_GLOB_DAT, R_X86_64_JUMP_SLOT)
        else None
    )
    return (symbol.name, held)
