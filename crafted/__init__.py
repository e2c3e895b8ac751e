"""ELF files written byte by byte, for inputs no compiler writes: any class and
byte order, any number of symbols, sections anywhere.  The layout is the
System V ABI's (header, section contents, the section name table, then the
section header table); symbols go in ``.symtab`` (or ``.dynsym``) with their
names in the string table it links to.

On top of it, code objects and host programs shaped like the ones clang and
``gpusym build`` write, with as many kernels as asked: an AMDGPU code object
(a FUNC and a ``.kd`` descriptor per kernel, an ``NT_AMDGPU_METADATA``
note), a simulated-device code object (exported functions and its
``__gpusym_kernels`` table) and a host program (a ``.hip_fatbin`` bundle,
``__device_stub__`` stubs and handle variables named like the kernels),
and a small valid container of each layout.  For the tests and the fuzzer's
seeds and regressions; gpusym itself never writes these.
"""

from __future__ import annotations

from dataclasses import dataclass

import msgpack

from symbols import compressed_bundle, nv_fatbin, offload_binary, offload_bundle
from symbols.binary_layout import padding
from symbols.elf import MAGIC, layouts

ET_REL, ET_EXEC, ET_DYN = 1, 2, 3
EM_X86_64, EM_AMDGPU = 62, 224
SHT_PROGBITS, SHT_SYMTAB, SHT_STRTAB, SHT_NOTE, SHT_NOBITS, SHT_DYNSYM = 1, 2, 3, 7, 8, 11
SHF_WRITE, SHF_ALLOC, SHF_EXECINSTR = 0x1, 0x2, 0x4
STT_OBJECT, STT_FUNC = 1, 2
STB_LOCAL, STB_GLOBAL = 0, 1


@dataclass
class Section:
    name: str
    type: int = SHT_PROGBITS
    data: bytes = b""
    flags: int = 0
    addr: int = 0
    link: int = 0
    info: int = 0
    entsize: int = 0
    align: int = 8
    size: int | None = None  # the recorded size, when it is not len(data)
    offset: int | None = None  # the recorded offset, when it is not where data went


@dataclass
class Sym:
    name: str
    value: int = 0
    size: int = 0
    type: int = STT_FUNC
    bind: int = STB_GLOBAL
    section: str | None = ".text"  # None: undefined
    other: int = 0


def string_table(names: list[str]) -> tuple[bytes, list[int]]:
    """A string table holding `names` (each once) and each name's offset."""
    table, offsets, positions = bytearray(b"\0"), [], {"": 0}
    for name in names:
        if name not in positions:
            positions[name] = len(table)
            table += name.encode() + b"\0"
        offsets.append(positions[name])
    return bytes(table), offsets


def write_elf(
    sections: list[Section],
    symbols: list[Sym] | None = None,
    *,
    machine: int = EM_X86_64,
    type: int = ET_DYN,
    is64: bool = True,
    little: bool = True,
    flags: int = 0,
    symbol_table: str = ".symtab",
) -> bytes:
    """An ELF file of `sections` (after the null section), with `symbols`
    in a symbol table named `symbol_table` (``.dynsym`` makes it DYNSYM)."""
    elf = layouts(is64, little)
    sections = list(sections)
    if symbols is not None:
        index = {s.name: i + 1 for i, s in enumerate(sections)}
        names, offsets = string_table([s.name for s in symbols])
        table = bytearray(elf.symbol.size)  # the null symbol
        for symbol, name in zip(symbols, offsets):
            table += elf.symbol.pack(
                name=name,
                info=symbol.bind << 4 | symbol.type,
                other=symbol.other,
                shndx=index[symbol.section] if symbol.section else 0,
                value=symbol.value,
                size=symbol.size,
            )
        dynamic = symbol_table == ".dynsym"
        strtab = len(sections) + 2
        sections.append(
            Section(
                symbol_table,
                SHT_DYNSYM if dynamic else SHT_SYMTAB,
                bytes(table),
                SHF_ALLOC if dynamic else 0,
                link=strtab,
                info=1,
                entsize=elf.symbol.size,
            )
        )
        sections.append(Section(".dynstr" if dynamic else ".strtab", SHT_STRTAB, names, align=1))
    shstrtab, name_offsets = string_table([s.name for s in sections] + [".shstrtab"])
    sections.append(Section(".shstrtab", SHT_STRTAB, shstrtab, align=1))
    ident = MAGIC + bytes([2 if is64 else 1, 1 if little else 2, 1]) + bytes(9)
    header_size = len(ident) + elf.header.size
    out = bytearray(header_size)
    offsets = []
    for section in sections:
        if section.type != SHT_NOBITS:
            out += padding(len(out), max(section.align, 1))
        offsets.append(len(out))
        if section.type != SHT_NOBITS:
            out += section.data
    out += padding(len(out), 8)
    shoff = len(out)
    out += bytes(elf.section.size)  # the null section
    for section, name, offset in zip(sections, name_offsets, offsets):
        out += elf.section.pack(
            name=name,
            type=section.type,
            flags=section.flags,
            addr=section.addr,
            offset=offset if section.offset is None else section.offset,
            size=len(section.data) if section.size is None else section.size,
            link=section.link,
            info=section.info,
            addralign=section.align,
            entsize=section.entsize,
        )
    out[:header_size] = ident + elf.header.pack(
        type=type,
        machine=machine,
        version=1,
        shoff=shoff,
        flags=flags,
        ehsize=header_size,
        shentsize=elf.section.size,
        shnum=len(sections) + 1,
        shstrndx=len(sections),
    )
    return bytes(out)


def note(owner: str, note_type: int, desc: bytes, little: bool = True) -> bytes:
    name = owner.encode() + b"\0"
    header = layouts(True, little).note.pack(
        namesz=len(name), descsz=len(desc), type=note_type
    )  # alike in both classes
    return header + name + padding(len(name), 4) + desc + padding(len(desc), 4)


def amdgpu_metadata(kernels: list[str], arch: str = "gfx90a") -> bytes:
    """The msgpack of an ``NT_AMDGPU_METADATA`` note: each kernel takes one
    pointer argument."""

    def kernel(name: str) -> dict:
        return {
            ".name": name,
            ".symbol": f"{name}.kd",
            ".kernarg_segment_size": 8,
            ".group_segment_fixed_size": 0,
            ".private_segment_fixed_size": 0,
            ".max_flat_workgroup_size": 1024,
            ".wavefront_size": 64,
            ".sgpr_count": 8,
            ".vgpr_count": 4,
            ".args": [
                {".name": "out", ".offset": 0, ".size": 8, ".value_kind": "global_buffer", ".address_space": "global"}
            ],
        }

    return msgpack.packb(
        {
            "amdhsa.version": [1, 2],
            "amdhsa.target": f"amdgcn-amd-amdhsa--{arch}",
            "amdhsa.kernels": [kernel(name) for name in kernels],
        }
    )


def amdgpu_code_object(kernels: list[str], arch: str = "gfx90a", *, metadata: bool = True, **elf) -> bytes:
    """An AMDGPU code object: per kernel a 16-byte FUNC and its 64-byte
    descriptor ``<kernel>.kd``; the metadata note unless `metadata` is false."""
    text = Section(".text", data=bytes(16 * len(kernels)), flags=SHF_ALLOC | SHF_EXECINSTR, addr=0x1000, align=256)
    rodata = Section(".rodata", data=bytes(64 * len(kernels)), flags=SHF_ALLOC, addr=0x1000 + 16 * len(kernels))
    sections = [text, rodata]
    if metadata:
        sections.append(
            Section(".note", SHT_NOTE, note("AMDGPU", 32, amdgpu_metadata(kernels, arch)), SHF_ALLOC, align=4)
        )
    symbols = []
    for index, name in enumerate(kernels):
        symbols.append(Sym(name, text.addr + 16 * index, 16, STT_FUNC, STB_GLOBAL, ".text"))
        symbols.append(Sym(f"{name}.kd", rodata.addr + 64 * index, 64, STT_OBJECT, STB_GLOBAL, ".rodata"))
    return write_elf(sections, symbols, machine=EM_AMDGPU, type=ET_DYN, **elf)


def sim_code_object(kernels: list[str], **elf) -> bytes:
    """A simulated-device code object: an x86-64 shared object exporting
    each kernel, which its ``__gpusym_kernels`` table lists."""
    listing = "\n".join(kernels).encode() + b"\0"
    text = Section(".text", data=bytes(16 * len(kernels)), flags=SHF_ALLOC | SHF_EXECINSTR, addr=0x1000, align=16)
    rodata = Section(".rodata", data=listing, flags=SHF_ALLOC, addr=0x1000 + 16 * len(kernels) + 16)
    symbols = [Sym(name, text.addr + 16 * index, 16) for index, name in enumerate(kernels)]
    symbols.append(Sym("__gpusym_kernels", rodata.addr, len(listing), STT_OBJECT, STB_GLOBAL, ".rodata"))
    return write_elf([text, rodata], symbols, machine=EM_X86_64, type=ET_DYN, symbol_table=".dynsym", **elf)


def bundle(code_objects: dict[str, bytes]) -> bytes:
    """A clang offload bundle: the empty host entry, then each code object
    under its entry id."""
    return offload_bundle.write([(offload_bundle.HOST_ID, b""), *code_objects.items()])


def nested_bundles(depth: int) -> bytes:
    """`depth` bundles, each the id of the one entry of the one before."""
    inner = b""
    for _ in range(depth):
        entry_id = b"x" + inner
        inner = (
            offload_bundle.HEADER.pack(magic=offload_bundle.MAGIC, count=1)
            + offload_bundle.ENTRY.pack(id_size=len(entry_id))
            + entry_id
        )
    return inner


def host_program(kernels: list[str], fatbin: bytes, **elf) -> bytes:
    """A host program with `fatbin` in ``.hip_fatbin`` and, per kernel (a C
    identifier), clang's stub ``__device_stub__<kernel>`` and its handle, a
    variable named like the kernel."""
    text = Section(".text", data=bytes(16 * len(kernels)), flags=SHF_ALLOC | SHF_EXECINSTR, addr=0x1000, align=16)
    fatbin_section = Section(".hip_fatbin", data=fatbin, flags=SHF_ALLOC, addr=0x1000 + len(text.data), align=4096)
    data = Section(
        ".data",
        data=bytes(8 * len(kernels)),
        flags=SHF_ALLOC | SHF_WRITE,
        addr=fatbin_section.addr + len(fatbin) + 4096,
    )
    symbols = [Sym("hipLaunchKernel", section=None)]
    for index, name in enumerate(kernels):
        symbols.append(Sym(f"__device_stub__{name}", text.addr + 16 * index, 16))
        symbols.append(Sym(name, data.addr + 8 * index, 8, STT_OBJECT, STB_GLOBAL, ".data"))
    return write_elf([text, fatbin_section, data], symbols, machine=EM_X86_64, type=ET_EXEC, **elf)


def hip_program(kernels: list[str], arch: str = "gfx90a", **elf) -> bytes:
    """A whole program: host, and a bundle of an AMDGPU and a simulated
    code object defining the same kernels."""
    fatbin = bundle(
        {
            offload_bundle.amdgpu_id(arch): amdgpu_code_object(kernels, arch),
            offload_bundle.SIM_ID: sim_code_object(kernels),
        }
    )
    return host_program(kernels, fatbin, **elf)


def pairs_name(depth: int) -> str:
    """The mangled name of ``f(P1, ..., Pdepth)`` where P1 is std::pair<int,
    int> and each next P std::pair<P, P> of the one before, written with
    substitutions (``S_I S0_ S0_ E``): 10 characters more per level, twice
    as long demangled (24 levels: 245 characters, 553 MB demangled)."""
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    assert 1 <= depth <= len(digits)
    return "_Z1fSt4pairIiiE" + "".join(f"S_IS{digits[level]}_S{digits[level]}_E" for level in range(depth - 1))


# Small valid containers, one of each layout.
BUNDLE = offload_bundle.write(
    [(offload_bundle.HOST_ID, b""), (offload_bundle.amdgpu_id("gfx90a"), b"\x7fELF" + bytes(200))]
)
COMPRESSED = {(v, m): compressed_bundle.write(BUNDLE, v, m) for v in (1, 2, 3) for m in ("zlib", "zstd")}
OFFLOAD_BINARY = offload_binary.write(b"\x7fELF" + bytes(60), 1, 3, {"triple": "amdgcn-amd-amdhsa", "arch": "gfx90a"})
FATBIN = nv_fatbin.write([(2, 90, b"\x7fELF" + bytes(100), False), (1, 80, b".version 9.0\n.target sm_80\n" * 4, True)])
METADATA = {
    "amdhsa.version": [1, 2],
    "amdhsa.target": "amdgcn-amd-amdhsa--gfx90a",
    "amdhsa.kernels": [
        {
            ".name": "k",
            ".symbol": "k.kd",
            ".args": [
                {".name": "p", ".offset": 0, ".size": 8, ".value_kind": "global_buffer", ".address_space": "global"},
                {".offset": 8, ".size": 4, ".value_kind": "by_value", ".type_name": "int"},
            ],
            ".kernarg_segment_size": 16,
            ".group_segment_fixed_size": 0,
            ".private_segment_fixed_size": 0,
            ".max_flat_workgroup_size": 1024,
            ".wavefront_size": 64,
            ".sgpr_count": 10,
            ".vgpr_count": 4,
        }
    ],
}
METADATA_BYTES = msgpack.packb(METADATA)
