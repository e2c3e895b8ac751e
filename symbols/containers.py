"""Finding the device code objects in a file: the sections of a host ELF that
hold them (``.hip_fatbin``, ``.llvm.offloading``, ``.nv_fatbin``, bundler
``__CLANG_OFFLOAD_BUNDLE__*`` sections), or a container given as a file."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable

from symbols import amdgpu_metadata, compressed_bundle, nv_fatbin, offload_binary, offload_bundle
from symbols.elf import EM_AMDGPU, EM_CUDA, EM_X86_64, SHT_NOBITS, SHT_NOTE, ElfFile, Section, check_disjoint
from symbols.elf import MAGIC as ELF_MAGIC
from symbols.errors import FormatError
from symbols.device_code import SIM_KERNEL_TABLE
from symbols.model import CodeObject

#: Decompression limits: never more than this in all, nor this many times the
#: compressed size (code objects compress well, but not a thousandfold).
MAX_DECOMPRESSED = 1 << 31
MAX_RATIO = 256

_BUNDLE_START = re.compile(re.escape(offload_bundle.MAGIC) + b"|CCOB")
_FATBIN_MAGIC = b"\x50\xed\x55\xba"
_OFFLOAD_BINARY_MAGIC = b"\x10\xff\x10\xad"
_BUNDLER_SECTION = "__CLANG_OFFLOAD_BUNDLE__"
#: ptxas's command line in a cubin's ``.note.nv.tkinfo`` (type 2000) note.
_NT_CUDA_TKINFO = 2000
_TKINFO_ARCH = re.compile(rb"-arch (sm_[0-9]+[af]?)\b")


@dataclass
class Found:
    code_object: CodeObject
    # The code object's bytes, made on demand (inflating a compressed entry),
    # so that only one inflated image need be alive at a time; None when it
    # is compressed in a format nobody reads.
    load: Callable[[], bytes | memoryview | None]


class _Collector:
    def __init__(self) -> None:
        self.found: list[Found] = []

    def add(self, target: str, triple: str, container: str, offset: int, size: int, compressed: bool,
            image: bytes | memoryview | None, image_format: str,
            load: Callable[[], bytes | memoryview | None] | None = None) -> None:  # fmt: skip
        index = len(self.found)
        code_object = CodeObject(index, target, triple, container, offset, size, compressed, image_format)
        self.found.append(Found(code_object, load or (lambda: image)))

    def bundle_entries(self, bundle: bytes | memoryview, file_offset: int, compressed: bool) -> None:
        container = "compressed-offload-bundle" if compressed else "offload-bundle"
        entries = [entry for entry in offload_bundle.read_entries(bundle) if entry.size]
        check_disjoint([(entry.offset, entry.size, f"bundle entry {entry.id}") for entry in entries])
        for entry in entries:
            kind, triple, target = offload_bundle.split_id(entry.id)
            if kind == "host":
                continue
            image = memoryview(bundle)[entry.offset : entry.offset + entry.size]
            offset = file_offset if compressed else file_offset + entry.offset
            self.add(target, triple, container, offset, entry.size, compressed, image, "elf")

    def bundles(self, data: memoryview, file_offset: int) -> None:
        """Every bundle in `data` (a .hip_fatbin section or a bundle file):
        uncompressed or compressed, one after another, zero padding between."""
        cursor = 0
        while (match := _BUNDLE_START.search(data, cursor)) is not None:
            start = match.start()
            piece = data[start : start + compressed_bundle.bundle_length(data[start:])]
            if match.group() == b"CCOB":
                limit = min(MAX_DECOMPRESSED, MAX_RATIO * len(piece))
                self.bundle_entries(compressed_bundle.decompress(piece, max_output=limit), file_offset + start, True)
            else:
                self.bundle_entries(piece, file_offset + start, False)
            cursor = start + len(piece)  # past its header at least: the next bundle is not inside this one

    def offload_binaries(self, data: memoryview, file_offset: int) -> None:
        for image in offload_binary.read_images(data):
            image_format = {"elf": "elf", "object": "elf", "cubin": "elf", "ptx": "ptx"}.get(image.image_kind, "unknown")
            view = data[image.offset : image.offset + image.size]
            self.add(image.arch, image.triple, "offload-binary", file_offset + image.offset, image.size, False,
                     view if image_format != "unknown" else None, image_format)  # fmt: skip

    def nv_fatbins(self, data: memoryview, file_offset: int) -> None:
        for entry in nv_fatbin.read_entries(data):
            limit = min(MAX_DECOMPRESSED, MAX_RATIO * max(entry.size, 1))
            readable = not entry.compressed or entry.compression in nv_fatbin.INFLATABLE
            image_format = "unknown" if not readable else ("elf" if entry.kind == "cubin" else "ptx")
            self.add(entry.target, "nvptx64-nvidia-cuda", "nv-fatbin", file_offset + entry.offset, entry.size,
                     entry.compressed, None, image_format,
                     lambda entry=entry, limit=limit: nv_fatbin.payload(data, entry, max_output=limit))  # fmt: skip


def in_elf(elf: ElfFile) -> list[Found]:
    """The code objects held by the sections of a host ELF file."""
    collector = _Collector()
    for section in elf.disjoint([section for section in elf.sections if _holds_code_objects(section)]):
        data = elf.contents(section)
        if section.name == ".hip_fatbin":
            collector.bundles(data, section.offset)
        elif section.name.startswith(_BUNDLER_SECTION) and section.size:
            kind, triple, target = offload_bundle.split_id(section.name[len(_BUNDLER_SECTION) :])
            if kind != "host":
                collector.add(target, triple, "offload-bundle", section.offset, section.size, False, data, "elf")
        elif section.name == ".llvm.offloading":
            collector.offload_binaries(data, section.offset)
        elif section.name == ".nv_fatbin":
            collector.nv_fatbins(data, section.offset)
    return collector.found


def _holds_code_objects(section: Section) -> bool:
    """Whether `in_elf` reads `section` (only those: the others' contents may
    lie anywhere, even outside the file, without harm).  A NOBITS section
    holds nothing, whatever size it records."""
    name = section.name
    return section.type != SHT_NOBITS and (
        name in (".hip_fatbin", ".llvm.offloading", ".nv_fatbin")
        or (name.startswith(_BUNDLER_SECTION) and section.size > 0)
    )


def in_container_file(data: memoryview) -> list[Found] | None:
    """The code objects of a file that is itself a container or a code
    object; None when it is neither (a host ELF, or not a known format)."""
    head = bytes(data[:24])
    collector = _Collector()
    if head.startswith((offload_bundle.MAGIC, b"CCOB")):
        collector.bundles(data, 0)
    elif head.startswith(_FATBIN_MAGIC):
        collector.nv_fatbins(data, 0)
    elif head.startswith(_OFFLOAD_BINARY_MAGIC):
        collector.offload_binaries(data, 0)
    elif head.startswith(ELF_MAGIC):
        elf = ElfFile(data)
        if elf.machine == EM_AMDGPU:
            collector.add(_amdgpu_target(elf), "amdgcn-amd-amdhsa", "file", 0, len(data), False, data, "elf")
        elif elf.machine == EM_CUDA:
            collector.add(_cubin_target(elf), "nvptx64-nvidia-cuda", "file", 0, len(data), False, data, "elf")
        elif elf.machine == EM_X86_64 and any(s.name == SIM_KERNEL_TABLE and s.defined for s in elf.dynsym):
            # A simulated-device code object, standing alone: its kernel table says so.
            _, triple, target = offload_bundle.split_id(offload_bundle.SIM_ID)
            collector.add(target, triple, "file", 0, len(data), False, data, "elf")
        else:
            return None
    else:
        raise FormatError("neither an ELF file nor a known GPU container")
    return collector.found


def _amdgpu_target(elf: ElfFile) -> str:
    """The processor named by the code object's metadata (``amdhsa.target``)."""
    for section in elf.disjoint([section for section in elf.sections if section.type == SHT_NOTE]):
        for owner, note_type, desc in elf.notes(section):
            if owner == "AMDGPU" and note_type == amdgpu_metadata.NT_AMDGPU_METADATA:
                return amdgpu_metadata.target(bytes(desc))
    return ""


def _cubin_target(elf: ElfFile) -> str:
    """The SM architecture a cubin is for, as ptxas was told it (``-arch
    sm_90a`` in its tkinfo note), else from e_flags: their low byte up to
    ELF ABI version 7, the byte above it from version 8 (CUDA 13)."""
    for section in elf.disjoint([section for section in elf.sections if section.type == SHT_NOTE]):
        for _, note_type, desc in elf.notes(section):
            if note_type == _NT_CUDA_TKINFO and (match := _TKINFO_ARCH.search(desc)):
                return match.group(1).decode()
    return f"sm_{(elf.flags >> 8 if elf.abi_version >= 8 else elf.flags) & 0xFF}"
