"""The symbols of one device code object: kernels, device functions, device
variables, and kernel arguments where the code object describes them.

- AMDGPU: a kernel is a FUNC with a ``<name>.kd`` descriptor; its arguments
  come from the ``NT_AMDGPU_METADATA`` note.
- cubin (``EM_CUDA``): a kernel is a FUNC with the CUDA entry flag in
  ``st_other``; ptxas's subroutines (``__cuda_sm20_div_u64``) have a
  ``.nv.info.<name>`` section too, but not the flag.  Its parameters' sizes
  and offsets come from that section.
- PTX: ``.entry`` is a kernel, ``.func`` a function, ``.global``/``.const`` variables.
- the simulated device (x86-64): every exported function; its kernels are
  those it lists in ``__gpusym_kernels``, or, in a code object without that
  table, those that correlation with the host and other code objects finds.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from symbols import amdgpu_metadata, nv_info
from symbols.elf import EM_AMDGPU, EM_CUDA, EM_X86_64, SHT_NOTE, ElfFile, Symbol
from symbols.errors import FormatError
from symbols.model import KernelArg

STO_CUDA_ENTRY = 0x10
#: See symbols.containers (which imports this module).
SIM_KERNEL_TABLE = "__gpusym_kernels"

# Symbols every code object of a kind carries that are not the program's own.
_AMDGPU_INTERNAL = re.compile(r"^(__hip_cuid_|__oclc_|__ockl_|__ocml_|llvm\.|\.)")
_SIM_INTERNAL = re.compile(r"^(__gpusym_|__hip_cuid_|_ZT[WH]|_init$|_fini$|_DYNAMIC$|_GLOBAL_OFFSET_TABLE_$|_end$|_edata$|__bss_start$)")
# One directive per line, as nvcc and LLVM write them: [ \t], never \s, so
# that no attempt reads past its line (\s* at each of a million blank lines'
# starts would read all the blank lines after it, the square of the text).
_PTX_ENTRY = re.compile(r"^[ \t]*(?:\.(?:visible|weak|extern)[ \t]+)*\.entry[ \t]+([\w$]+)", re.M)
_PTX_FUNC = re.compile(r"^[ \t]*(?:\.(?:visible|weak)[ \t]+)*\.func[ \t]+(?:\([^)\n]*\)[ \t]*)?([\w$]+)", re.M)
_PTX_VARIABLE = re.compile(
    r"^[ \t]*(?:\.(?:visible|weak)[ \t]+)*\.(?:global|const)[ \t]+(?:\.align[ \t]+\d+[ \t]+)?\.\w+[ \t]+([\w$]+)", re.M
)


@dataclass
class DeviceContents:
    """Device symbols of one code object, by role."""

    kernels: list[Symbol] = field(default_factory=list)
    functions: list[Symbol] = field(default_factory=list)
    variables: list[Symbol] = field(default_factory=list)
    exported_functions: list[Symbol] = field(default_factory=list)  # simulated device: roles decided later
    # Reads the kernels' arguments on first use: the same kernels' metadata
    # is in every code object of a bundle, and usually one is enough.
    read_args: Callable[[], dict[str, list[KernelArg]]] | None = None
    _args: dict[str, list[KernelArg]] | None = None

    def kernel_args(self) -> dict[str, list[KernelArg]]:
        if self._args is None:
            self._args = self.read_args() if self.read_args else {}
        return self._args


def _defined(symbols: list[Symbol], kind: str) -> list[Symbol]:
    return [s for s in symbols if s.defined and s.type == kind and s.name]


def _amdgpu(elf: ElfFile) -> DeviceContents:
    symbols = elf.symtab or elf.dynsym
    descriptors = {s.name[:-3] for s in symbols if s.name.endswith(".kd")}
    contents = DeviceContents()
    for symbol in _defined(symbols, "FUNC"):
        (contents.kernels if symbol.name in descriptors else contents.functions).append(symbol)
    contents.variables = [
        s for s in _defined(symbols, "OBJECT") if not s.name.endswith(".kd") and not _AMDGPU_INTERNAL.match(s.name)
    ]
    contents.kernels = _unique(contents.kernels)
    contents.functions = _unique(contents.functions)
    contents.variables = _unique(contents.variables)
    contents.read_args = lambda: _amdgpu_args(elf)
    return contents


def _amdgpu_args(elf: ElfFile) -> dict[str, list[KernelArg]]:
    """Each kernel's explicit arguments, from the NT_AMDGPU_METADATA note."""
    args = {}
    for section in elf.disjoint([section for section in elf.sections if section.type == SHT_NOTE]):
        for owner, note_type, desc in elf.notes(section):
            if owner == "AMDGPU" and note_type == amdgpu_metadata.NT_AMDGPU_METADATA:
                for kernel in amdgpu_metadata.kernels(bytes(desc)):
                    name = kernel.symbol[:-3] if kernel.symbol.endswith(".kd") else kernel.name
                    args[name] = [
                        KernelArg(a.name, a.type_name, a.size, a.offset, a.value_kind)
                        for a in kernel.args
                        if not a.value_kind.startswith("hidden_")  # implicit: grid size, queue, printf buffer...
                    ]
    return args


def _cubin(elf: ElfFile) -> DeviceContents:
    symbols = elf.symtab
    contents = DeviceContents()
    for symbol in _defined(symbols, "FUNC"):
        (contents.kernels if symbol.other & STO_CUDA_ENTRY else contents.functions).append(symbol)
    contents.variables = [s for s in _defined(symbols, "OBJECT") if not s.name.startswith(("$", "."))]
    kernels = {symbol.name for symbol in contents.kernels}
    contents.read_args = lambda: _cubin_args(elf, kernels)
    return contents


def _cubin_args(elf: ElfFile, kernels: set[str]) -> dict[str, list[KernelArg]]:
    """Each kernel's parameters, from its ``.nv.info.<name>`` section: every
    one is passed by value in the parameter bank, and the cubin says neither
    names nor types (nor which are pointers)."""
    args = {}
    prefix = nv_info.SECTION_PREFIX
    sections = [s for s in elf.sections if s.name.startswith(prefix) and s.name[len(prefix) :] in kernels]
    for section in elf.disjoint(sections):
        params = nv_info.kernel_params(elf.contents(section), section.name)
        args[section.name[len(prefix) :]] = [
            KernelArg(None, None, param.size, param.offset, "by_value") for param in params
        ]
    return args


def _sim(elf: ElfFile) -> DeviceContents:
    symbols = elf.dynsym or elf.symtab
    exported = [s for s in symbols if s.bind in ("GLOBAL", "WEAK") and not _SIM_INTERNAL.match(s.name)]
    contents = DeviceContents()
    functions = _unique(_defined(exported, "FUNC"))
    table = next((s for s in symbols if s.name == SIM_KERNEL_TABLE and s.defined), None)
    if table is None:
        contents.exported_functions = functions
    else:
        kernels = set(elf.cstring_at(table.value, max(table.size, 1)).split("\n"))
        for symbol in functions:
            (contents.kernels if symbol.name in kernels else contents.functions).append(symbol)
    # Thread-local symbols are block-shared memory (extern __shared__), not variables.
    contents.variables = _unique(_defined(exported, "OBJECT"))
    return contents


def _ptx(text: str) -> DeviceContents:
    def fake(name: str) -> Symbol:  # PTX has no addresses
        return Symbol(name, 0, 0, "FUNC", "GLOBAL", 0, 1)

    contents = DeviceContents()
    contents.kernels = [fake(n) for n in dict.fromkeys(_PTX_ENTRY.findall(text))]
    contents.functions = [fake(n) for n in dict.fromkeys(_PTX_FUNC.findall(text))]
    contents.variables = [
        Symbol(n, 0, 0, "OBJECT", "GLOBAL", 0, 1) for n in dict.fromkeys(_PTX_VARIABLE.findall(text))
    ]
    return contents


def _unique(symbols: list[Symbol]) -> list[Symbol]:
    """One symbol per name (symtab can hold aliases of one definition)."""
    return list({s.name: s for s in symbols}.values())


def read(image: bytes | memoryview, image_format: str) -> DeviceContents:
    """The device symbols of a code object's bytes."""
    if image_format == "ptx":
        return _ptx(bytes(image).decode("utf-8", "replace"))
    elf = ElfFile(image)
    if elf.machine == EM_AMDGPU:
        return _amdgpu(elf)
    if elf.machine == EM_CUDA:
        return _cubin(elf)
    if elf.machine == EM_X86_64:
        return _sim(elf)
    raise FormatError(f"device code object for unknown machine {elf.machine}")
