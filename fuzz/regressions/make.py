"""Writes the kept inputs of fuzz/regressions/TARGET/: small reproductions of
what the fuzzer and the hardening found (each a few KB at most), read by
tests/fuzz/test_fuzz.py and given to the fuzzer as seeds.

    python fuzz/regressions/make.py

Larger versions of the same inputs, measured for time and memory, are in
tests/symbols/test_resource_bounds.py.
"""

from __future__ import annotations

import struct
from pathlib import Path

import crafted
import crafted.spirv as spirv_words
from crafted import SHT_NOBITS, SHT_NOTE, Section, Sym
from symbols import compressed_bundle, nv_fatbin, offload_binary, offload_bundle

HERE = Path(__file__).resolve().parent

GFX90A = offload_bundle.amdgpu_id("gfx90a")
SPIRV = "hip-spirv64----generic"


def overlapping_names() -> bytes:
    """Symbols named by offsets 0, 1, 2... of one string."""
    symbols = bytearray(24)
    for index in range(40):
        symbols += struct.pack("<IBBHQQ", 1 + index, 0x12, 0, 1, 0x1000 + index, 1)
    return crafted.write_elf(
        [
            Section(".text", data=bytes(16), flags=6, addr=0x1000),
            Section(".symtab", 2, bytes(symbols), link=3, info=1, entsize=24),
            Section(".strtab", 3, b"\0" + b"a" * 200, align=1),
        ],
        type=2,
    )


def section_names_without_nul() -> bytes:
    data = bytearray(
        crafted.write_elf(
            [Section(".names", 3, b"\0" + b"s" * 300, align=1)] + [Section("x", size=0) for _ in range(8)]
        )
    )
    struct.pack_into("<H", data, 62, 1)  # .names is the section name table
    return bytes(data)


def overlapping_notes() -> bytes:
    image = crafted.amdgpu_code_object(["k"])
    sections = [Section(".image", data=image, align=64)]
    note = next(s for s in crafted_sections(image) if s[0] == SHT_NOTE)
    sections += [Section(".note", SHT_NOTE, offset=64 + note[1], size=note[2]) for _ in range(3)]
    symbols = [Sym("k", 0x1000, section=".image"), Sym("k.kd", 0x1000, section=".image")]
    return crafted.write_elf(sections, symbols, machine=crafted.EM_AMDGPU)


def crafted_sections(image: bytes) -> list[tuple[int, int, int]]:
    """(type, offset, size) of each section of an ELF64 little-endian file."""
    (shoff,) = struct.unpack_from("<Q", image, 40)
    (count,) = struct.unpack_from("<H", image, 60)
    return [struct.unpack_from("<4xI16xQQ", image, shoff + 64 * index) for index in range(count)]


def overlapping_entries() -> bytes:
    image = crafted.amdgpu_code_object(["k"], metadata=False)
    entry_id = GFX90A.encode()
    start = 512
    table = b"".join(struct.pack("<QQQ", start, len(image), len(entry_id)) + entry_id for _ in range(3))
    head = offload_bundle.MAGIC + struct.pack("<Q", 3) + table
    return head + bytes(start - len(head)) + image


def nested_bundles() -> bytes:
    return crafted.nested_bundles(20)


def compressed_back_to_back() -> bytes:
    empty = offload_bundle.write([(offload_bundle.HOST_ID, b"")])
    return compressed_bundle.write(empty, 2, "zlib") * 8 + compressed_bundle.write(empty, 1, "zstd") * 2


def nobits_bundler_section() -> bytes:
    """Found by the fuzzer: a NOBITS section named like a bundler's, of
    2**62 bytes, was reported as a code object of that size."""
    return crafted.write_elf(
        [Section(f"__CLANG_OFFLOAD_BUNDLE__{GFX90A}", SHT_NOBITS, size=1 << 62, flags=2)], type=crafted.ET_REL
    )


def spirv_cyclic_types() -> bytes:
    """A kernel whose parameters' types contain themselves (a pointer to
    itself, a struct holding itself), and a chain of 300 pointers: every
    name and size is worked out, to a bounded depth."""
    a = spirv_words.Assembler()
    a(spirv_words.OP_MEMORY_MODEL, spirv_words.PHYSICAL64, spirv_words.OPENCL)
    a(spirv_words.OP_ENTRY_POINT, spirv_words.KERNEL, "%kernel", "cyclic")
    a(spirv_words.OP_TYPE_VOID, "%void")
    a(spirv_words.OP_TYPE_POINTER, "%self", spirv_words.CROSS_WORKGROUP, "%self")
    a(spirv_words.OP_TYPE_STRUCT, "%loop", "%loop", "%self")
    a(spirv_words.OP_TYPE_POINTER, "%p0", spirv_words.CROSS_WORKGROUP, "%void")
    for index in range(1, 300):
        a(spirv_words.OP_TYPE_POINTER, f"%p{index}", spirv_words.CROSS_WORKGROUP, f"%p{index - 1}")
    a(spirv_words.OP_TYPE_FUNCTION, "%type", "%void", "%self", "%loop", "%p299")
    spirv_words.function(a, "%kernel", "%type", [("%x", "%self"), ("%y", "%loop"), ("%z", "%p299")])
    return a.module()


def ptx(text: bytes) -> bytes:
    return nv_fatbin.write([(1, 80, text, False)])


OFFLOAD_BINARY = offload_binary.write(b"\x7fELF" + bytes(60), 1, 3, {"arch": "gfx90a"})
BLANK_PTX = b"\n" * 2000 + b".visible .entry kernel()\n"
OPEN_PTX = b".func (\n" * 300
BOMB = crafted.pairs_name(12)  # demangled: 134,000 characters

INPUTS = {
    "elf/overlapping-names": overlapping_names,
    "elf/section-names-without-nul": section_names_without_nul,
    "device_code/overlapping-notes": overlapping_notes,
    "device_code/ptx-blank-lines": lambda: BLANK_PTX,
    "device_code/ptx-unclosed-parameter-lists": lambda: OPEN_PTX,
    "offload_bundle/nested-in-entry-ids": nested_bundles,
    "offload_bundle/overlapping-entries": overlapping_entries,
    "compressed_bundle/back-to-back": compressed_back_to_back,
    "offload_binary/two-and-padding": lambda: OFFLOAD_BINARY * 2 + bytes(16),
    "nv_fatbin/ptx-blank-lines": lambda: ptx(BLANK_PTX),
    "nv_fatbin/ptx-unclosed-parameter-lists": lambda: ptx(OPEN_PTX),
    "amdgpu_metadata/deeply-nested": lambda: b"\x81\xaeamdhsa.kernels" + b"\x91" * 3000 + b"\xc0",
    "names/dots": lambda: b"_Z" + b"." * 2000,
    "names/pair-of-pairs": lambda: BOMB.encode(),
    "analyze/nobits-bundler-section": nobits_bundler_section,
    "analyze/overlapping-entries": overlapping_entries,
    "analyze/kernel-named-pair-of-pairs": lambda: crafted.bundle({GFX90A: crafted.amdgpu_code_object([BOMB])}),
    "analyze/spirv-in-bundle": lambda: crafted.bundle({SPIRV: spirv_words.two_kernels()}),
    "spirv/cyclic-types": spirv_cyclic_types,
    "spirv/big-endian-wrapper-entry-points": lambda: spirv_words.two_kernels(little=False, wrapper=True),
}


def main() -> None:
    for name, make in INPUTS.items():
        path = HERE / name
        path.parent.mkdir(exist_ok=True)
        path.write_bytes(make())


if __name__ == "__main__":
    main()
