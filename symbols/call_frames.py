"""Where a function's frame is: the canonical frame address (CFA) rule of an
x86-64 ELF's call frame information (``.eh_frame``), as a debugger's DWARF
unwinder computes it.

The gdb extension builds the frame under a kernel itself (the host stack
that launched it, in place of the runtime's); the kernel frame's identity
must then be the one gdb's own unwinder would give it, its CFA.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass
from pathlib import Path

from elftools.common.exceptions import ELFError
from elftools.dwarf.callframe import FDE
from elftools.elf.elffile import ELFFile

from symbols.errors import FormatError

#: DWARF register numbers of x86-64 (System V psABI), those a CFA rule names.
X86_64_REGISTERS = {6: "rbp", 7: "rsp"}


@dataclass(frozen=True)
class CfaRule:
    """CFA = the value of `register` + `offset`, at addresses from `start`
    (`register` None: a rule this reader does not follow, such as a DWARF
    expression)."""

    start: int
    register: str | None
    offset: int


@dataclass(frozen=True)
class FunctionFrames:
    """One function's address range and its CFA rules, in file addresses."""

    start: int
    end: int
    rules: tuple[CfaRule, ...]

    def rule_at(self, address: int) -> CfaRule | None:
        """The CFA rule in force at `address`, or None when it is not one
        this reader follows."""
        index = bisect.bisect_right([rule.start for rule in self.rules], address) - 1
        rule = self.rules[index] if index >= 0 else None
        return rule if rule is not None and rule.register is not None else None


class CallFrames:
    """The ``.eh_frame`` of one ELF file, by function, and its exported
    functions' addresses (read on creation)."""

    def __init__(self, path: Path):
        try:
            with open(path, "rb") as stream:
                elf = ELFFile(stream)
                dwarf = elf.get_dwarf_info(relocate_dwarf_sections=False)
                entries = dwarf.EH_CFI_entries() if dwarf.has_EH_CFI() else []
                functions = [_function(entry) for entry in entries if isinstance(entry, FDE)]
                dynsym = elf.get_section_by_name(".dynsym")
                exported = {
                    symbol.name: symbol["st_value"]
                    for symbol in (dynsym.iter_symbols() if dynsym is not None else [])
                    if symbol["st_info"]["type"] == "STT_FUNC" and symbol["st_shndx"] != "SHN_UNDEF"
                }
        except (ELFError, ValueError, KeyError, IndexError, AssertionError) as error:
            raise FormatError(f"{path}: unreadable call frame information: {error}") from None
        self._functions = sorted(functions, key=lambda function: function.start)
        self._starts = [function.start for function in self._functions]
        self._exported = exported

    def exported_function(self, name: str) -> int | None:
        """File address of the exported (``.dynsym``) function `name`."""
        return self._exported.get(name)

    def function_at(self, address: int) -> FunctionFrames | None:
        """The function whose code holds file address `address`, or None."""
        index = bisect.bisect_right(self._starts, address) - 1
        if index < 0:
            return None
        function = self._functions[index]
        return function if address < function.end else None


def _function(fde: FDE) -> FunctionFrames:
    start = fde.header["initial_location"]
    rules = []
    for row in fde.get_decoded().table:
        cfa = row["cfa"]
        register = X86_64_REGISTERS.get(cfa.reg) if cfa.expr is None else None
        rules.append(CfaRule(row["pc"], register, cfa.offset or 0))
    return FunctionFrames(start, start + fde.header["address_range"], tuple(rules))
