"""NVIDIA's fatbin: the ``.nv_fatbin`` section of CUDA objects and programs.

NVIDIA documents only the wrapper in ``.nvFatBinSegment`` (CUDA's
fatbinary_section.h: {int magic 0x466243B1; int version; pointer to the
fatbin; pointer to an offline file name (version 1) or to the prelinked
fatbins (version 2)}).  The rest, as other public readers of the format and
the fatbins of CUDA 13's nvcc agree (little-endian):

* fatbin header (16 bytes): u32 magic 0xBA55ED50, u16 version 1, u16 header
  size, u64 size of the entries that follow the header;
* entry header (64 bytes or more, ``-G`` and PTX entries are longer): u16
  kind (1 PTX, 2 cubin), u16 version, u32 header size, u64 payload size
  (padded to 8), u32 compressed size, u32, u16 minor, u16 major, u32 SM
  architecture, u32 name offset, u32 name size, u64 flags (0x1 64-bit, 0x2
  debug, 0x10 Linux, 0x2000 LZ4-compressed, 0x8000 zstd-compressed,
  0x100000 arch-specific ``sm_90a``, 0x200000 family-specific ``sm_100f``),
  u64, u64 uncompressed size; the payload follows the entry header.

Several fatbins follow each other in a linked program's section.  nvcc 13
compresses PTX with zstd by default, everything with ``-Xfatbin
-compress-all`` (zstd, or with ``-compress-mode=speed`` LZ4 blocks).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from symbols.binary_layout import Layout, fits, padding, skip_zero_padding
from symbols.compressed_bundle import inflate
from symbols.errors import FormatError

MAGIC = 0xBA55ED50
WRAPPER_MAGIC = 0x466243B1
HEADER = Layout("FatbinHeader", [("magic", "I"), ("version", "H"), ("header_size", "H"), ("size", "Q")])
ENTRY = Layout(
    "FatbinEntryHeader",
    [
        ("kind", "H"),
        ("version", "H"),
        ("header_size", "I"),
        ("padded_size", "Q"),
        ("compressed_size", "I"),
        ("unknown_1", "I"),
        ("minor", "H"),
        ("major", "H"),
        ("sm", "I"),
        ("name_offset", "I"),
        ("name_size", "I"),
        ("flags", "Q"),
        ("unknown_2", "Q"),
        ("uncompressed_size", "Q"),
    ],
)
WRAPPER = Layout("FatbinWrapper", [("magic", "I"), ("version", "I"), ("fatbin", "Q"), ("filename_or_fatbins", "Q")])
KINDS: dict[int, Literal["cubin", "ptx"]] = {1: "ptx", 2: "cubin"}
#: Compression flag -> format; None: compressed in a format nobody
#: documents (0x1000, which third-party readers report in older fatbins).
COMPRESSIONS = {0x8000: "zstd", 0x2000: "lz4", 0x1000: None}
INFLATABLE = {"zstd", "lz4"}
#: Flag -> the suffix nvcc gives the target (``-gencode ...,code=sm_90a``,
#: ``code=sm_100f``); the cubin's own e_flags do not tell these apart.
VARIANTS = {0x100000: "a", 0x200000: "f"}


@dataclass(frozen=True)
class FatbinEntry:
    kind: Literal["cubin", "ptx"]
    sm: int  # 90 for sm_90 and compute_90
    flags: int
    offset: int  # of the payload, from the start of the data read
    size: int  # of the payload as stored (compressed, or padded to 8)
    compressed: bool
    compression: str | None  # "zstd", "lz4"; None if not compressed or unknown
    uncompressed_size: int | None  # None if not compressed

    @property
    def target(self) -> str:
        """The target as nvcc names it: ``sm_90a``, ``sm_100f`` or ``sm_80``
        for a cubin, ``compute_90`` for PTX."""
        suffix = "".join(letter for flag, letter in VARIANTS.items() if self.flags & flag)
        return f"{'compute' if self.kind == 'ptx' else 'sm'}_{self.sm}{suffix}"


@dataclass(frozen=True)
class FatbinWrapper:
    version: int
    fatbin_address: int
    filename_or_fatbins: int


def read_wrappers(data: bytes | memoryview) -> list[FatbinWrapper]:
    """The wrappers in a ``.nvFatBinSegment`` section (one per object linked
    in; 64-bit little-endian hosts), as stored: 0 in a relocatable object."""
    view = memoryview(data)
    if len(view) % WRAPPER.size:
        raise FormatError(f"fatbin segment of {len(view)} bytes is not a whole number of wrappers")
    wrappers = []
    for wrapper in WRAPPER.iter_unpack(view):
        if wrapper.magic != WRAPPER_MAGIC:
            raise FormatError(f"bad fatbin wrapper magic {wrapper.magic:#x}")
        wrappers.append(FatbinWrapper(wrapper.version, wrapper.fatbin, wrapper.filename_or_fatbins))
    return wrappers


def read_entries(data: bytes | memoryview) -> list[FatbinEntry]:
    """The cubin and PTX entries of the fatbins in `data` (a ``.nv_fatbin``
    section), in order.  Zero bytes between or after fatbins are padding;
    entries of other kinds are skipped."""
    view = memoryview(data)
    entries: list[FatbinEntry] = []
    cursor = 0
    while (start := skip_zero_padding(view, cursor)) is not None:
        found, cursor = _read_fatbin(view, start)
        entries += found
    return entries


def _read_fatbin(view: memoryview, start: int) -> tuple[list[FatbinEntry], int]:
    """The entries of the fatbin at `start`, and its end."""
    if not fits(start, HEADER.size, len(view)):
        raise FormatError(f"truncated fatbin header at offset {start}")
    header = HEADER.unpack_from(view, start)
    if header.magic != MAGIC:
        raise FormatError(f"bad fatbin magic {header.magic:#x} at offset {start}")
    if header.header_size < HEADER.size or not fits(start + header.header_size, header.size, len(view)):
        raise FormatError(f"fatbin at offset {start} ({header.header_size} + {header.size} bytes) runs past the end")
    entries = []
    cursor = start + header.header_size
    end = cursor + header.size
    while cursor < end:
        entry, cursor = _read_entry(view, cursor, end)
        if entry is not None:
            entries.append(entry)
    return entries, end


def _read_entry(view: memoryview, start: int, end: int) -> tuple[FatbinEntry | None, int]:
    """The entry at `start` (None unless a cubin or PTX), and its end."""
    if not fits(start, ENTRY.size, end):
        raise FormatError(f"truncated fatbin entry header at offset {start}")
    header = ENTRY.unpack_from(view, start)
    payload, padded_size = start + header.header_size, header.padded_size
    if header.header_size < ENTRY.size or not fits(payload, padded_size, end):
        raise FormatError(
            f"fatbin entry at offset {start} ({header.header_size} + {padded_size} bytes) runs past its fatbin"
        )
    compressions = [flag for flag in COMPRESSIONS if header.flags & flag]
    if compressions and header.compressed_size > padded_size:
        raise FormatError(f"compressed fatbin entry at offset {start} is larger than its payload")
    if header.kind not in KINDS:
        return None, payload + padded_size
    entry = FatbinEntry(
        kind=KINDS[header.kind],
        sm=header.sm,
        flags=header.flags,
        offset=payload,
        size=header.compressed_size if compressions else padded_size,
        compressed=bool(compressions),
        compression=COMPRESSIONS[compressions[0]] if len(compressions) == 1 else None,
        uncompressed_size=header.uncompressed_size if compressions else None,
    )
    return entry, payload + padded_size


def payload(data: bytes | memoryview, entry: FatbinEntry, *, max_output: int) -> bytes | memoryview | None:
    """The cubin or PTX of `entry` (read from the same `data`), inflated; None
    when it is compressed in a format this module cannot inflate.  An
    uncompressed payload keeps its padding; PTX ends with NUL bytes."""
    if not fits(entry.offset, entry.size, len(data)):
        raise FormatError(f"fatbin payload ({entry.size} bytes at {entry.offset}) lies outside the data")
    stored = memoryview(data)[entry.offset : entry.offset + entry.size]
    if not entry.compressed:
        _check_limit(entry.size, max_output)
        return bytes(stored)
    if entry.compression not in INFLATABLE or entry.uncompressed_size is None:
        return None
    _check_limit(entry.uncompressed_size, max_output)
    return inflate(stored, entry.compression, entry.uncompressed_size)


def _check_limit(size: int, max_output: int) -> None:
    if size > max_output:
        raise FormatError(f"fatbin payload of {size} bytes exceeds the limit of {max_output}")


def write(entries: list[tuple[int, int, bytes, bool]]) -> bytes:
    """A fatbin of (kind, sm, payload, zstd-compressed?) entries, laid out as
    nvcc 13 lays them out."""
    import zstandard  # imported here: readers never compress

    body = b""
    for kind, sm, payload, compress in entries:
        stored = zstandard.ZstdCompressor().compress(payload) if compress else payload
        padded = stored + padding(len(stored), 8)
        compressed_size, uncompressed_size = (len(stored), len(payload)) if compress else (0, 0)
        body += ENTRY.pack(
            kind=kind,
            version=0x101,
            header_size=ENTRY.size,
            padded_size=len(padded),
            compressed_size=compressed_size,
            minor=8,
            major=1,
            sm=sm,
            flags=0x11 | (0x8000 if compress else 0),
            uncompressed_size=uncompressed_size,
        )
        body += padded
    return HEADER.pack(magic=MAGIC, version=1, header_size=HEADER.size, size=len(body)) + body
