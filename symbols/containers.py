"""Finding the device code objects in a file: the sections of a host ELF that
hold them (``.hip_fatbin``, ``.llvm.offloading``, ``.nv_fatbin``, bundler
``__CLANG_OFFLOAD_BUNDLE__*`` sections), or a container given as a file.
A code object is an ELF file, PTX, or a SPIR-V module (told by its magic
number, whatever its entry id says).

Finding reads the containers' headers only, and gives `Job`s: a code object
stored as it is, an NVIDIA fatbin entry (inflated if compressed), or every
entry of a compressed bundle (known only once it is inflated).  `read` reads
one job, in any process that has the file's bytes, and gives each code
object's summary: one inflated image at a time is alive, never the file's.
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass
from typing import Iterator, NamedTuple

from symbols import (
    amdgpu_metadata,
    compressed_bundle,
    device_code,
    nv_fatbin,
    offload_binary,
    offload_bundle,
    spirv,
)
from symbols.device_code import SIM_KERNEL_TABLE, DeviceContents
from symbols.elf import EM_AMDGPU, EM_CUDA, EM_X86_64, SHT_NOBITS, ElfFile, Section, check_disjoint
from symbols.elf import MAGIC as ELF_MAGIC
from symbols.errors import FormatError
from symbols.model import CodeObject

#: Decompression limits: never more than this in all, nor this many times the
#: compressed size (code objects compress well, but not a thousandfold).
MAX_DECOMPRESSED = 1 << 31
MAX_RATIO = 256

_FATBIN_MAGIC = nv_fatbin.MAGIC.to_bytes(4, "little")  # as a (little-endian) fatbin starts
#: What a file gpusym reads starts with: ELF's magic, or a container's.
MAGICS = (
    ELF_MAGIC,
    offload_bundle.MAGIC,
    compressed_bundle.MAGIC,
    _FATBIN_MAGIC,
    offload_binary.MAGIC,
    *spirv.MAGIC_BYTES,
)
#: How many bytes from its start tell whether a file starts with one of MAGICS.
MAGIC_SIZE = max(map(len, MAGICS))
_BUNDLE_START = re.compile(re.escape(offload_bundle.MAGIC) + b"|" + re.escape(compressed_bundle.MAGIC))
_BUNDLER_SECTION = "__CLANG_OFFLOAD_BUNDLE__"
#: ptxas's command line in a cubin's ``.note.nv.tkinfo`` (type 2000) note.
_NT_CUDA_TKINFO = 2000
_TKINFO_ARCH = re.compile(rb"-arch (sm_[0-9]+[af]?)\b")


@dataclass(frozen=True)
class Job:
    """Code objects read in one go: `code_object`, stored in the file (an
    ``image``, or a ``fatbin`` `entry`), or the entries of the compressed
    bundle of `size` bytes at `offset` (``compressed-bundle``, `code_object`
    None).  Offsets are the file's."""

    kind: str
    offset: int
    size: int
    code_object: CodeObject | None = None
    entry: nv_fatbin.FatbinEntry | None = None

    @property
    def inflates(self) -> bool:
        return self.code_object is None or self.code_object.compressed


class Read(NamedTuple):
    """A code object read: its summary, or None and why (`error`; None when
    it is compressed in a format nobody reads).  Its index is unset."""

    code_object: CodeObject
    summary: DeviceContents | None
    error: str | None


def _code_object(
    target: str, triple: str, container: str, offset: int, size: int, compressed: bool, image_format: str
) -> CodeObject:
    return CodeObject(
        -1, _listed_target(target, triple, image_format), triple, container, offset, size, compressed, image_format
    )


def _listed_target(target: str, triple: str, image_format: str) -> str:
    """The target a code object is listed under: the processor its entry
    names (``gfx90a``); for a SPIR-V module whose entry names none, or only
    ``generic`` (HIPSPV's ``hip-spirv64----generic``), the architecture of
    its triple (``spirv64``)."""
    if image_format == "spirv" and target in ("", "generic"):
        return triple.partition("-")[0] or "spirv"
    return target


def _bundled_format(image: bytes | memoryview) -> str:
    """The format of a bundle entry's (or bundler section's) bytes: a SPIR-V
    module by its magic number, else ELF."""
    return "spirv" if spirv.has_magic(image) else "elf"


class _Planner:
    def __init__(self) -> None:
        self.jobs: list[Job] = []

    def image(self, target: str, triple: str, container: str, offset: int, size: int, image_format: str) -> None:
        code_object = _code_object(target, triple, container, offset, size, False, image_format)
        self.jobs.append(Job("image", offset, size, code_object))

    def bundles(self, data: memoryview, file_offset: int) -> None:
        """Every bundle in `data` (a .hip_fatbin section or a bundle file):
        uncompressed or compressed, one after another, zero padding between."""
        cursor = 0
        while (match := _BUNDLE_START.search(data, cursor)) is not None:
            start = match.start()
            piece = data[start : start + compressed_bundle.bundle_length(data[start:])]
            if match.group() == compressed_bundle.MAGIC:
                self.jobs.append(Job("compressed-bundle", file_offset + start, len(piece)))
            else:
                for entry in _device_entries(piece):
                    _, triple, target = offload_bundle.split_id(entry.id)
                    image_format = _bundled_format(piece[entry.offset : entry.offset + 4])
                    offset = file_offset + start + entry.offset
                    self.image(target, triple, "offload-bundle", offset, entry.size, image_format)
            cursor = start + len(piece)  # past its header at least: the next bundle is not inside this one

    def offload_binaries(self, data: memoryview, file_offset: int) -> None:
        for image in offload_binary.read_images(data):
            image_format = {"elf": "elf", "object": "elf", "cubin": "elf", "ptx": "ptx", "spirv": "spirv"}.get(
                image.image_kind, "unknown"
            )
            self.image(image.arch, image.triple, "offload-binary", file_offset + image.offset, image.size, image_format)

    def nv_fatbins(self, data: memoryview, file_offset: int) -> None:
        for entry in nv_fatbin.read_entries(data):
            readable = not entry.compressed or entry.compression in nv_fatbin.INFLATABLE
            image_format = "unknown" if not readable else ("elf" if entry.kind == "cubin" else "ptx")
            offset = file_offset + entry.offset
            code_object = _code_object(
                entry.target, "nvptx64-nvidia-cuda", "nv-fatbin", offset, entry.size, entry.compressed, image_format
            )
            self.jobs.append(Job("fatbin", offset, entry.size, code_object, dataclasses.replace(entry, offset=offset)))


def _device_entries(bundle: bytes | memoryview) -> list[offload_bundle.Entry]:
    """The entries of the bundle at the start of `bundle` that hold device
    code, checked not to overlap."""
    entries = [entry for entry in offload_bundle.read_entries(bundle) if entry.size]
    check_disjoint([(entry.offset, entry.size, f"bundle entry {entry.id}") for entry in entries])
    return [entry for entry in entries if offload_bundle.split_id(entry.id)[0] != "host"]


def in_elf(elf: ElfFile) -> list[Job]:
    """The jobs reading the code objects held by the sections of a host ELF file."""
    planner = _Planner()
    for section in elf.disjoint([section for section in elf.sections if _holds_code_objects(section)]):
        data = elf.contents(section)
        if section.name == ".hip_fatbin":
            planner.bundles(data, section.offset)
        elif section.name.startswith(_BUNDLER_SECTION) and section.size:
            kind, triple, target = offload_bundle.split_id(section.name[len(_BUNDLER_SECTION) :])
            if kind != "host":
                image_format = _bundled_format(data[:4])
                planner.image(target, triple, "offload-bundle", section.offset, section.size, image_format)
        elif section.name == ".llvm.offloading":
            planner.offload_binaries(data, section.offset)
        elif section.name == ".nv_fatbin":
            planner.nv_fatbins(data, section.offset)
    return planner.jobs


def read(data: memoryview, job: Job) -> list[Read]:
    """The code objects of `job`, read from `data` (the whole file).  Raises
    FormatError for a compressed bundle that cannot be inflated or read:
    the file itself is corrupt; a code object that cannot be read is a
    Read with its error."""
    if job.kind == "compressed-bundle":
        return [_summarized(code_object, image) for code_object, image in _bundle_images(data, job)]
    code_object = job.code_object
    if code_object.format == "unknown":
        return [Read(code_object, None, None)]
    if job.kind == "image":
        return [_summarized(code_object, data[job.offset : job.offset + job.size])]
    limit = min(MAX_DECOMPRESSED, MAX_RATIO * max(job.size, 1))
    try:
        image = nv_fatbin.payload(data, job.entry, max_output=limit)
    except FormatError as error:
        return [Read(code_object, None, str(error))]
    return [Read(code_object, None, None) if image is None else _summarized(code_object, image)]


def _bundle_images(data: memoryview, job: Job) -> list[tuple[CodeObject, memoryview]]:
    """The code objects of a ``compressed-bundle`` job, with their bytes."""
    limit = min(MAX_DECOMPRESSED, MAX_RATIO * job.size)
    bundle = memoryview(compressed_bundle.decompress(data[job.offset : job.offset + job.size], max_output=limit))
    images = []
    for entry in _device_entries(bundle):
        _, triple, target = offload_bundle.split_id(entry.id)
        image = bundle[entry.offset : entry.offset + entry.size]
        code_object = _code_object(
            target, triple, "compressed-offload-bundle", job.offset, entry.size, True, _bundled_format(image)
        )
        images.append((code_object, image))
    return images


def simulated_device_images(data: memoryview, jobs: list[Job]) -> Iterator[memoryview]:
    """The bytes of the simulated device's code objects (x86-64 ELF) among
    those of `jobs`, read from `data` (the whole file).  Raises FormatError
    for a compressed bundle that cannot be inflated or read."""
    for job in jobs:
        if job.kind == "compressed-bundle":
            images = _bundle_images(data, job)
        elif job.kind == "image":
            images = [(job.code_object, data[job.offset : job.offset + job.size])]
        else:
            continue
        yield from (image for code_object, image in images if code_object.triple.startswith("x86_64"))


def _summarized(code_object: CodeObject, image: bytes | memoryview) -> Read:
    try:
        return Read(code_object, device_code.read(image, code_object.format), None)
    except FormatError as error:
        return Read(code_object, None, str(error))


def _holds_code_objects(section: Section) -> bool:
    """Whether `in_elf` reads `section` (only those: the others' contents may
    lie anywhere, even outside the file, without harm).  A NOBITS section
    holds nothing, whatever size it records."""
    name = section.name
    return section.type != SHT_NOBITS and (
        name in (".hip_fatbin", ".llvm.offloading", ".nv_fatbin")
        or (name.startswith(_BUNDLER_SECTION) and section.size > 0)
    )


def in_container_file(data: memoryview) -> list[Job] | None:
    """The jobs reading the code objects of a file that is itself a
    container or a code object; None when it is neither (a host ELF, or not
    a known format)."""
    head = bytes(data[:MAGIC_SIZE])
    planner = _Planner()
    if head.startswith((offload_bundle.MAGIC, compressed_bundle.MAGIC)):
        planner.bundles(data, 0)
    elif head.startswith(_FATBIN_MAGIC):
        planner.nv_fatbins(data, 0)
    elif head.startswith(offload_binary.MAGIC):
        planner.offload_binaries(data, 0)
    elif spirv.has_magic(head):
        # The module is the whole file: one that cannot be read is the file's error.
        triple = spirv.read(data).triple
        planner.image(triple, triple, "file", 0, len(data), "spirv")
    elif head.startswith(ELF_MAGIC):
        elf = ElfFile(data)
        if elf.machine == EM_AMDGPU:
            planner.image(_amdgpu_target(elf), "amdgcn-amd-amdhsa", "file", 0, len(data), "elf")
        elif elf.machine == EM_CUDA:
            planner.image(_cubin_target(elf), "nvptx64-nvidia-cuda", "file", 0, len(data), "elf")
        elif elf.machine == EM_X86_64 and any(s.name == SIM_KERNEL_TABLE and s.defined for s in elf.dynsym):
            # A simulated-device code object, standing alone: its kernel table says so.
            _, triple, target = offload_bundle.split_id(offload_bundle.SIM_ID)
            planner.image(target, triple, "file", 0, len(data), "elf")
        else:
            return None
    else:
        raise FormatError("neither an ELF file nor a known GPU container")
    return planner.jobs


def _amdgpu_target(elf: ElfFile) -> str:
    """The processor named by the code object's metadata (``amdhsa.target``)."""
    metadata = next(amdgpu_metadata.notes(elf), None)
    return "" if metadata is None else amdgpu_metadata.target(metadata)


def _cubin_target(elf: ElfFile) -> str:
    """The SM architecture a cubin is for, as ptxas was told it (``-arch
    sm_90a`` in its tkinfo note), else from e_flags: their low byte up to
    ELF ABI version 7, the byte above it from version 8 (CUDA 13)."""
    for _, note_type, desc in elf.all_notes():
        if note_type == _NT_CUDA_TKINFO and (match := _TKINFO_ARCH.search(desc)):
            return match.group(1).decode()
    return f"sm_{(elf.flags >> 8 if elf.abi_version >= 8 else elf.flags) & 0xFF}"
