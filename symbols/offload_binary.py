"""LLVM's OffloadBinary (the ``.llvm.offloading`` sections the new offload
driver, ``--offload-new-driver``, puts in objects) and the offloading-entry
tables of the linked host program (``hip_offloading_entries``,
``cuda_offloading_entries``, ``omp_offloading_entries``; LLVM 21 merges them
into ``llvm_offload_entries``).

OffloadBinary version 1, the one LLVM 19 writes (llvm/Object/OffloadBinary.h),
little-endian, offsets relative to the binary's start:

* header (32 bytes): magic ``10 FF 10 AD``, u32 version, u64 size of the
  binary (a multiple of 8), u64 entry offset, u64 entry size;
* entry (40 bytes): u16 image kind, u16 offload kind, u32 flags, u64 string
  map offset, u64 string count, u64 image offset, u64 image size;
* string map: per string u64 key offset, u64 value offset, both pointing at
  NUL-terminated strings (keys ``triple``, ``arch``, ...).

A section holds binaries back to back, each starting at a multiple of 8.
The later versions 2 and 3 (several entries per binary, sized strings,
compression) are refused with a FormatError.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from symbols.binary_layout import Layout, align_up, fits, padding, skip_zero_padding
from symbols.errors import FormatError

MAGIC = b"\x10\xff\x10\xad"
ALIGNMENT = 8
HEADER = Layout(
    "OffloadBinaryHeader",
    [
        ("magic", "4s"),
        ("version", "I"),
        ("size", "Q"),
        ("entry_offset", "Q"),
        ("entry_size", "Q"),
    ],
)
ENTRY = Layout(
    "OffloadBinaryEntry",
    [
        ("image_kind", "H"),
        ("offload_kind", "H"),
        ("flags", "I"),
        ("string_offset", "Q"),
        ("string_count", "Q"),
        ("image_offset", "Q"),
        ("image_size", "Q"),
    ],
)
STRING = Layout("OffloadBinaryString", [("key_offset", "Q"), ("value_offset", "Q")])
#: ImageKind of llvm/Object/OffloadBinary.h, by the enumerators' names.
IMAGE_KINDS = {0: "none", 1: "object", 2: "bitcode", 3: "cubin", 4: "fatbinary", 5: "ptx", 6: "spirv"}
#: OffloadKind: 1 to 3 in LLVM up to 20; bit flags (HIP 4, SYCL 8) since 21.
OFFLOAD_KINDS = {0: "none", 1: "openmp", 2: "cuda", 3: "hip", 4: "hip", 8: "sycl"}


@dataclass(frozen=True)
class OffloadImage:
    image_kind: str  # a value of IMAGE_KINDS, or "unknown-N"
    offload_kind: str  # a value of OFFLOAD_KINDS, or "unknown-N"
    triple: str  # "" when the binary names none
    arch: str
    strings: dict[str, str]
    offset: int  # of the image, from the start of the data read
    size: int


def read_images(data: bytes | memoryview) -> list[OffloadImage]:
    """The images of the OffloadBinaries in `data` (a ``.llvm.offloading``
    section): back to back, each at a multiple of 8; zero padding after the
    last one is allowed."""
    view = memoryview(data)
    images = []
    cursor = 0
    while skip_zero_padding(view, cursor) is not None:
        image, size = _read_binary(view[cursor:])
        images.append(dataclasses.replace(image, offset=cursor + image.offset))
        cursor += align_up(size, ALIGNMENT)
    return images


def _read_binary(view: memoryview) -> tuple[OffloadImage, int]:
    """The image of the binary at the start of `view` (its offset relative to
    the binary), and the binary's size."""
    size, entry_offset = _header(view)
    binary = bytes(view[:size])
    entry = ENTRY.unpack_from(binary, entry_offset)
    string_offset, count = entry.string_offset, entry.string_count
    if not fits(string_offset, count * STRING.size, size):
        raise FormatError(f"OffloadBinary string map ({count} strings at {string_offset}) lies outside the binary")
    if not fits(entry.image_offset, entry.image_size, size):
        raise FormatError(
            f"OffloadBinary image ({entry.image_size} bytes at {entry.image_offset}) lies outside the binary"
        )
    strings = _string_map(binary, string_offset, count)
    image = OffloadImage(
        image_kind=_name(IMAGE_KINDS, entry.image_kind),
        offload_kind=_name(OFFLOAD_KINDS, entry.offload_kind),
        triple=strings.get("triple", ""),
        arch=strings.get("arch", ""),
        strings=strings,
        offset=entry.image_offset,
        size=entry.image_size,
    )
    return image, size


def _header(view: memoryview) -> tuple[int, int]:
    """The size of the binary at the start of `view` and its entry's offset."""
    if len(view) < HEADER.size:
        raise FormatError("truncated OffloadBinary header")
    header = HEADER.unpack_from(view)
    if header.magic != MAGIC:
        raise FormatError("not an OffloadBinary (bad magic)")
    if header.version != 1:
        raise FormatError(f"unsupported OffloadBinary version {header.version}")
    if not HEADER.size <= header.size <= len(view):
        raise FormatError(f"OffloadBinary size {header.size} does not fit in {len(view)} bytes")
    if not fits(header.entry_offset, ENTRY.size, header.size):
        raise FormatError(f"OffloadBinary entry at {header.entry_offset} lies outside the binary")
    return header.size, header.entry_offset


def _name(names: dict[int, str], value: int) -> str:
    return names.get(value, f"unknown-{value}")


def _string_map(binary: bytes, offset: int, count: int) -> dict[str, str]:
    pairs = list(STRING.iter_unpack(binary[offset : offset + count * STRING.size]))
    texts = _strings(binary, {position for pair in pairs for position in pair})
    return {texts[key]: texts[value] for key, value in pairs}


def _strings(binary: bytes, offsets: set[int]) -> dict[int, str]:
    """The NUL-terminated strings at `offsets`: each byte is scanned once, and
    all of them together may not be longer than the binary."""
    texts: dict[int, str] = {}
    end = -1
    budget = len(binary)
    for offset in sorted(offsets):
        if end < offset:
            end = binary.find(b"\x00", offset)
            if end < 0:
                raise FormatError(f"OffloadBinary string at {offset} is not NUL-terminated inside the binary")
        budget -= end - offset
        if budget < 0:
            raise FormatError("OffloadBinary strings are longer than the binary")
        texts[offset] = binary[offset:end].decode("utf-8", "replace")
    return texts


@dataclass(frozen=True)
class OffloadingEntry:
    address: int
    name: str
    size: int  # 0 for kernels; the size of a variable
    flags: int


#: ``__tgt_offload_entry`` of LLVM up to 19, by pointer size.
_LEGACY = {
    pointer_size: [("address", word), ("name", word), ("size", word), ("flags", "I"), ("data", "i")]
    for pointer_size, word in ((8, "Q"), (4, "I"))
}
#: ``llvm::offloading::EntryTy`` of LLVM 20 and later (reserved 0, version
#: 1), 64-bit hosts only.
_VERSIONED = [
    ("reserved", "Q"),
    ("version", "H"),
    ("kind", "H"),
    ("flags", "I"),
    ("address", "Q"),
    ("name", "Q"),
    ("size", "Q"),
    ("data", "Q"),
    ("aux", "Q"),
]


@cache
def _entry_layout(versioned: bool, pointer_size: int, order: str) -> Layout:
    return Layout("OffloadingEntry", _VERSIONED if versioned else _LEGACY[pointer_size], order)


def read_offloading_entries(
    table: bytes | memoryview, pointer_size: int, little_endian: bool, read_string: Callable[[int], str]
) -> list[OffloadingEntry]:
    """The entries of an offloading-entry table (the whole section).

    Supports clang 19's layout (32 bytes per entry on 64-bit hosts, 20 on
    32-bit ones) and, on 64-bit hosts, LLVM 20's versioned one (56 bytes),
    recognised by its first entry's zero first word and version 1.  Entries
    are read as stored: in a relocatable object, whose pointers are still 0
    and filled in by relocations, addresses and names are those of address 0.
    `read_string` turns a name pointer into the name (the caller reads it
    from the ELF file); its errors propagate."""
    if pointer_size not in _LEGACY:
        raise FormatError(f"unsupported pointer size {pointer_size}")
    view = memoryview(table)
    order = "<" if little_endian else ">"
    versioned = pointer_size == 8 and _is_versioned(view, order)
    layout = _entry_layout(versioned, pointer_size, order)
    if len(view) % layout.size:
        raise FormatError(f"offloading entry table of {len(view)} bytes is not made of {layout.size}-byte entries")
    return [
        OffloadingEntry(address, read_string(name), size, flags)
        for address, name, size, flags in layout.iter_fields(view, "address", "name", "size", "flags")
    ]


def _is_versioned(view: memoryview, order: str) -> bool:
    layout = _entry_layout(True, 8, order)
    if len(view) < layout.size:
        return False
    first = layout.unpack_from(view)
    return first.reserved == 0 and first.version == 1


def write(image: bytes, image_kind: int, offload_kind: int, strings: dict[str, str]) -> bytes:
    """A version 1 OffloadBinary as LLVM 19's OffloadBinary::write lays it out."""
    string_offset = HEADER.size + ENTRY.size
    table_start = string_offset + STRING.size * len(strings)
    positions, table = {}, b""
    for text in sorted({*strings, *strings.values()}):
        positions[text] = table_start + len(table)
        table += text.encode() + b"\0"
    image_offset = align_up(table_start + len(table), ALIGNMENT)
    size = align_up(image_offset + len(image), ALIGNMENT)
    header = HEADER.pack(magic=MAGIC, version=1, size=size, entry_offset=HEADER.size, entry_size=ENTRY.size)
    entry = ENTRY.pack(
        image_kind=image_kind,
        offload_kind=offload_kind,
        string_offset=string_offset,
        string_count=len(strings),
        image_offset=image_offset,
        image_size=len(image),
    )
    string_map = b"".join(
        STRING.pack(key_offset=positions[key], value_offset=positions[value]) for key, value in strings.items()
    )
    body = header + entry + string_map + table
    return body + bytes(image_offset - len(body)) + image + padding(len(image), ALIGNMENT)
