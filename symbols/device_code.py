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
from typing import Callable, NamedTuple

from symbols import amdgpu_metadata, nv_info
from symbols.elf import EM_AMDGPU, EM_CUDA, EM_X86_64, ElfFile, Symbol
from symbols.errors import FormatError
from symbols.model import KernelArg

STO_CUDA_ENTRY = 0x10
#: See symbols.containers (which imports this module).
SIM_KERNEL_TABLE = "__gpusym_kernels"

# Symbols every code object of a kind carries that are not the program's own.
_AMDGPU_INTERNAL = re.compile(r"^(__hip_cuid_|__oclc_|__ockl_|__ocml_|llvm\.|\.)")
_SIM_INTERNAL = re.compile(
    r"^(__gpusym_|__hip_cuid_|_ZT[WH]|_init$|_fini$|_DYNAMIC$|_GLOBAL_OFFSET_TABLE_$|_end$|_edata$|__bss_start$)"
)
# One directive per line, as nvcc and LLVM write them: [ \t], never \s, so
# that no attempt reads past its line (\s* at each of a million blank lines'
# starts would read all the blank lines after it, the square of the text).
# Each is tried only where _PTX_DIRECTIVE_LINE finds a line that starts with
# one of their words: a pattern starting with ^ is tried at every byte.
_PTX_DIRECTIVE_LINE = re.compile(rb"\n[ \t]*\.(?:visible|weak|extern|entry|func|global|const)[ \t]")
_PTX_ENTRY = re.compile(rb"[ \t]*(?:\.(?:visible|weak|extern)[ \t]+)*\.entry[ \t]+([\w$]+)")
_PTX_FUNC = re.compile(rb"[ \t]*(?:\.(?:visible|weak)[ \t]+)*\.func[ \t]+(?:\([^)\n]*\)[ \t]*)?([\w$]+)")
_PTX_VARIABLE = re.compile(
    rb"[ \t]*(?:\.(?:visible|weak)[ \t]+)*\.(?:global|const)[ \t]+(?:\.align[ \t]+\d+[ \t]+)?\.\w+[ \t]+([\w$]+)"
)


#: (name, address, size) of a device symbol: code objects summed up this way
#: travel between processes cheaply.
Place = tuple[str, int, int]


class ArgsSource(NamedTuple):
    """Where a code object describes its kernels' arguments, unread:
    ``amdgpu``, the descriptors of its metadata notes; ``cubin``, (kernel,
    section name, bytes) of each ``.nv.info.<kernel>`` section; ``error``,
    the message of the FormatError that reading them raises."""

    kind: str
    parts: list


@dataclass
class DeviceContents:
    """Device symbols of one code object, by role."""

    kernels: list[Symbol] = field(default_factory=list)
    functions: list[Symbol] = field(default_factory=list)
    variables: list[Symbol] = field(default_factory=list)
    exported_functions: list[Symbol] = field(default_factory=list)  # simulated device: roles decided later
    # Read on first use: the same kernels' metadata is in every code object
    # of a bundle, and usually one is enough.
    args_source: ArgsSource | None = None
    _args: dict[str, list[KernelArg]] | None = None

    def kernel_args(self) -> dict[str, list[KernelArg]]:
        if self._args is None:
            self._args = read_args(self.args_source) if self.args_source else {}
        return self._args


class Summary(NamedTuple):
    """What analysing a binary needs of one code object's `DeviceContents`."""

    kernels: list[Place]
    functions: list[Place]
    variables: list[Place]
    exported_functions: list[Place]
    args_source: ArgsSource | None


def summarize(contents: DeviceContents) -> Summary:
    def places(symbols: list[Symbol]) -> list[Place]:
        return [(s.name, s.value, s.size) for s in symbols]

    return Summary(
        places(contents.kernels),
        places(contents.functions),
        places(contents.variables),
        places(contents.exported_functions),
        contents.args_source,
    )


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
    contents.args_source = _deferring_errors(lambda: _amdgpu_notes(elf))
    return contents


def _deferring_errors(find: Callable[[], ArgsSource]) -> ArgsSource:
    """`find`'s source, or one raising its FormatError when read: a code
    object whose arguments nobody reads is not refused for them."""
    try:
        return find()
    except FormatError as error:
        return ArgsSource("error", [str(error)])


def _amdgpu_notes(elf: ElfFile) -> ArgsSource:
    """The descriptors of the code object's NT_AMDGPU_METADATA notes."""
    return ArgsSource("amdgpu", list(amdgpu_metadata.notes(elf)))


def read_args(source: ArgsSource) -> dict[str, list[KernelArg]]:
    """Each kernel's arguments, from where `source` says they are described."""
    if source.kind == "error":
        raise FormatError(source.parts[0])
    return _amdgpu_args(source.parts) if source.kind == "amdgpu" else _cubin_args(source.parts)


def _amdgpu_args(descriptors: list[bytes]) -> dict[str, list[KernelArg]]:
    """Each kernel's explicit arguments, from the NT_AMDGPU_METADATA notes."""
    args = {}
    for desc in descriptors:
        for kernel in amdgpu_metadata.kernels(desc):
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
    contents.args_source = _deferring_errors(lambda: _nv_info_sections(elf, contents.kernels))
    return contents


def _nv_info_sections(elf: ElfFile, kernel_symbols: list[Symbol]) -> ArgsSource:
    """(kernel, name, bytes) of the ``.nv.info.<kernel>`` section of each kernel."""
    kernels = {symbol.name: symbol.name for symbol in kernel_symbols}
    prefix = nv_info.SECTION_PREFIX
    sections = [s for s in elf.sections if s.name.startswith(prefix) and s.name[len(prefix) :] in kernels]
    # The kernel's own name object: a summary sent between processes holds each name once.
    return ArgsSource(
        "cubin", [(kernels[s.name[len(prefix) :]], s.name, bytes(elf.contents(s))) for s in elf.disjoint(sections)]
    )


def _cubin_args(sections: list[tuple[str, str, bytes]]) -> dict[str, list[KernelArg]]:
    """Each kernel's parameters, from its ``.nv.info.<name>`` section: every
    one is passed by value in the parameter bank, and the cubin says neither
    names nor types (nor which are pointers)."""
    args = {}
    for kernel, name, data in sections:
        params = nv_info.kernel_params(data, name)
        args[kernel] = [KernelArg(None, None, param.size, param.offset, "by_value") for param in params]
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


def _ptx(text: bytes | memoryview) -> DeviceContents:
    """Kernels, functions and variables declared in PTX (identifiers are
    ASCII, so the text is read as bytes)."""
    found: dict[re.Pattern, dict[str, None]] = {pattern: {} for pattern in (_PTX_ENTRY, _PTX_FUNC, _PTX_VARIABLE)}
    starts = [0, *(match.start() + 1 for match in _PTX_DIRECTIVE_LINE.finditer(text))]
    for start in starts:
        for pattern, names in found.items():
            if match := pattern.match(text, start):
                names.setdefault(match.group(1).decode("ascii"))

    def fake(name: str, kind: str) -> Symbol:  # PTX has no addresses
        return Symbol(name, 0, 0, kind, "GLOBAL", 0, 1)

    return DeviceContents(
        kernels=[fake(name, "FUNC") for name in found[_PTX_ENTRY]],
        functions=[fake(name, "FUNC") for name in found[_PTX_FUNC]],
        variables=[fake(name, "OBJECT") for name in found[_PTX_VARIABLE]],
    )


def _unique(symbols: list[Symbol]) -> list[Symbol]:
    """One symbol per name (symtab can hold aliases of one definition)."""
    return list({s.name: s for s in symbols}.values())


def read(image: bytes | memoryview, image_format: str) -> DeviceContents:
    """The device symbols of a code object's bytes."""
    if image_format == "ptx":
        return _ptx(image)
    elf = ElfFile(image)
    if elf.machine == EM_AMDGPU:
        return _amdgpu(elf)
    if elf.machine == EM_CUDA:
        return _cubin(elf)
    if elf.machine == EM_X86_64:
        return _sim(elf)
    raise FormatError(f"device code object for unknown machine {elf.machine}")
