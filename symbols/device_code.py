"""The symbols of one device code object: kernels, device functions, device
variables, and kernel arguments where the code object describes them.

- AMDGPU: a kernel is a FUNC with a ``<name>.kd`` descriptor; its arguments
  come from the ``NT_AMDGPU_METADATA`` note.
- cubin (``EM_CUDA``): a kernel is a FUNC with the CUDA entry flag in
  ``st_other``; ptxas's subroutines (``__cuda_sm20_div_u64``) have a
  ``.nv.info.<name>`` section too, but not the flag.  Its parameters' sizes
  and offsets come from that section.
- PTX: ``.entry`` is a kernel, ``.func`` a function, ``.global``/``.const`` variables.
- SPIR-V (HIP on SPIR-V): an ``OpEntryPoint`` of execution model Kernel is
  a kernel; its arguments come from its function's parameters and their
  types (symbols.spirv).  A module has no addresses: kernels are at 0.
- the simulated device (x86-64): every exported function; its kernels are
  those it lists in ``__gpusym_kernels``, or, in a code object without that
  table, those that correlation with the host and other code objects finds.
"""

from __future__ import annotations

import re
from dataclasses import replace
from typing import Callable, NamedTuple

from symbols import amdgpu_metadata, dwarf_types, nv_info, spirv
from symbols.elf import (
    EM_AMDGPU,
    EM_CUDA,
    EM_X86_64,
    SHT_STRTAB,
    SHT_SYMTAB,
    STB_GLOBAL,
    STB_WEAK,
    STT_FUNC,
    STT_OBJECT,
    ElfFile,
    Section,
    SymbolRow,
)
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
_PTX_PATTERNS = (_PTX_ENTRY, _PTX_FUNC, _PTX_VARIABLE)  # kernels, functions, variables

#: (name, address, size) of a device symbol.
Place = tuple[str, int, int]


class ArgsSource(NamedTuple):
    """Where a code object describes its kernels' arguments, unread:
    ``amdgpu``, the descriptors of its metadata notes; ``cubin``, (kernel,
    section name, bytes) of each ``.nv.info.<kernel>`` section; ``spirv``,
    (kernel, its parameters) read with the module's kernels; ``error``, the
    message of the FormatError that reading them raises.  `image`: the
    code object's bytes when its DWARF gives argument types that neither
    the metadata nor the names give (kernels with C linkage)."""

    kind: str
    parts: list
    image: bytes | None = None


class DeviceContents(NamedTuple):
    """Device symbols of one code object, by role, as (name, address, size)
    places, and where its kernels' arguments are described: what analysing
    a binary needs of it, cheap to hold and pass between threads."""

    kernels: list[Place]
    functions: list[Place]
    variables: list[Place]
    exported_functions: list[Place]  # simulated device: roles decided later
    # Read on demand (`read_args`): the same kernels' metadata is in every
    # code object of a bundle, and usually one is enough.
    args_source: ArgsSource | None = None


def _defined(rows: list[SymbolRow], kind: int) -> list[Place]:
    """The places of the defined, named symbols of STT type `kind`."""
    return [(name, value, size) for name, value, size, info, _, shndx in rows if info & 0xF == kind and shndx and name]


def _unique(places: list[Place]) -> list[Place]:
    """One place per name (symtab can hold aliases of one definition)."""
    return list({place[0]: place for place in places}.values())


def _rows(elf: ElfFile, *sections: Section | None) -> list[SymbolRow]:
    """The symbols of the first of `sections` that has any."""
    for section in sections:
        if section is not None and (rows := list(elf.symbol_rows(section))):
            return rows
    return []


def _amdgpu(elf: ElfFile) -> DeviceContents:
    rows = _rows(elf, elf.symtab_section, elf.dynsym_section)
    descriptors = {row[0][:-3] for row in rows if row[0].endswith(".kd")}
    kernels, functions = [], []
    for place in _defined(rows, STT_FUNC):
        (kernels if place[0] in descriptors else functions).append(place)
    variables = [
        place
        for place in _defined(rows, STT_OBJECT)
        if not place[0].endswith(".kd") and not _AMDGPU_INTERNAL.match(place[0])
    ]
    notes = _deferring_errors(lambda: _amdgpu_notes(elf))
    if notes.kind == "amdgpu" and elf.section(".debug_info") and any(not k[0].startswith("_Z") for k in kernels):
        notes = notes._replace(image=bytes(elf.data))
    return DeviceContents(_unique(kernels), _unique(functions), _unique(variables), [], notes)


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
    if source.kind == "spirv":
        return _spirv_args(source.parts)
    if source.kind == "cubin":
        return _cubin_args(source.parts)
    args = _amdgpu_args(source.parts)
    return _with_dwarf_types(args, source.image) if source.image is not None else args


def _with_dwarf_types(args: dict[str, list[KernelArg]], image: bytes) -> dict[str, list[KernelArg]]:
    """`args` with the types the DWARF of `image` gives the arguments of
    kernels with C linkage (their names say none), when it gives as many."""
    untyped = [
        name for name, listed in args.items() if not name.startswith("_Z") and any(a.type_name is None for a in listed)
    ]
    for name, types in dwarf_types.parameter_types(image, untyped).items():
        if len(types) == len(args[name]):
            args[name] = [
                arg if arg.type_name is not None else replace(arg, type_name=text)
                for arg, text in zip(args[name], types)
            ]
    return args


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
    # A cubin has a few sections per kernel; only these are made (and named).
    sections = elf.sections_named(nv_info.SECTION_PREFIX, (SHT_SYMTAB, SHT_STRTAB))
    rows = _rows(elf, next((s for s in sections if s.type == SHT_SYMTAB), None))
    kernels, functions = [], []
    for name, value, size, info, other, shndx in rows:
        if info & 0xF == STT_FUNC and shndx and name:
            (kernels if other & STO_CUDA_ENTRY else functions).append((name, value, size))
    variables = [place for place in _defined(rows, STT_OBJECT) if not place[0].startswith(("$", "."))]
    args = _deferring_errors(lambda: _nv_info_sections(elf, sections, kernels))
    return DeviceContents(kernels, functions, variables, [], args)


def _nv_info_sections(elf: ElfFile, sections: list[Section], kernel_places: list[Place]) -> ArgsSource:
    """(kernel, name, bytes) of the ``.nv.info.<kernel>`` section of each
    kernel, from `sections` (those named so among them)."""
    kernels = {place[0]: place[0] for place in kernel_places}
    prefix = nv_info.SECTION_PREFIX
    found = [s for s in sections if s.name.startswith(prefix) and s.name[len(prefix) :] in kernels]
    # The kernel's own name object: a summary holds each name once.
    return ArgsSource(
        "cubin", [(kernels[s.name[len(prefix) :]], s.name, bytes(elf.contents(s))) for s in elf.disjoint(found)]
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
    rows = _rows(elf, elf.dynsym_section, elf.symtab_section)
    exported = [row for row in rows if row[3] >> 4 in (STB_GLOBAL, STB_WEAK) and not _SIM_INTERNAL.match(row[0])]
    functions = _unique(_defined(exported, STT_FUNC))
    table = next((row for row in rows if row[0] == SIM_KERNEL_TABLE and row[5]), None)
    # Thread-local symbols are block-shared memory (extern __shared__), not variables.
    variables = _unique(_defined(exported, STT_OBJECT))
    if table is None:
        return DeviceContents([], [], variables, functions)
    listed = set(elf.cstring_at(table[1], max(table[2], 1)).split("\n"))
    kernels = [place for place in functions if place[0] in listed]
    return DeviceContents(kernels, [place for place in functions if place[0] not in listed], variables, [])


def _ptx(text: bytes | memoryview) -> DeviceContents:
    """Kernels, functions and variables declared in PTX (identifiers are
    ASCII, so the text is read as bytes)."""
    found: dict[re.Pattern, dict[str, None]] = {pattern: {} for pattern in _PTX_PATTERNS}
    starts = [0, *(match.start() + 1 for match in _PTX_DIRECTIVE_LINE.finditer(text))]
    for start in starts:
        for pattern, names in found.items():
            if match := pattern.match(text, start):
                names.setdefault(match.group(1).decode("ascii"))
    return DeviceContents(*([(name, 0, 0) for name in found[pattern]] for pattern in _PTX_PATTERNS), [])  # no addresses


def _spirv(image: bytes | memoryview) -> DeviceContents:
    """The kernels of a SPIR-V module (at address 0, size 0: a module has no
    addresses) and their parameters."""
    kernels = spirv.read(image).kernels
    source = ArgsSource("spirv", [(kernel.name, kernel.params) for kernel in kernels])
    return DeviceContents([(kernel.name, 0, 0) for kernel in kernels], [], [], [], source)


def _spirv_args(kernels: list[tuple[str, list[spirv.Param]]]) -> dict[str, list[KernelArg]]:
    return {
        name: [KernelArg(p.name, p.type_name, p.size, p.offset, p.value_kind) for p in params]
        for name, params in kernels
    }


def read(image: bytes | memoryview, image_format: str) -> DeviceContents:
    """The device symbols of a code object's bytes."""
    if image_format == "ptx":
        return _ptx(image)
    if image_format == "spirv":
        return _spirv(image)
    elf = ElfFile(image)
    if elf.machine == EM_AMDGPU:
        return _amdgpu(elf)
    if elf.machine == EM_CUDA:
        return _cubin(elf)
    if elf.machine == EM_X86_64:
        return _sim(elf)
    raise FormatError(f"device code object for unknown machine {elf.machine}")
