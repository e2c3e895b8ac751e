"""The clang offload bundle: the container in a HIP program's `.hip_fatbin`.

Layout (all integers little-endian u64, offsets relative to the bundle):
magic ``__CLANG_OFFLOAD_BUNDLE__``, entry count, then per entry its offset,
size, id length and id (``hipv4-amdgcn-amd-amdhsa--gfx90a``), then the
entries' bytes.
"""

from __future__ import annotations

from dataclasses import dataclass

from symbols.binary_layout import Layout, align_up, fits
from symbols.errors import FormatError

MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
HEADER = Layout("BundleHeader", [("magic", f"{len(MAGIC)}s"), ("count", "Q")])
#: Each entry's header; its id follows.
ENTRY = Layout("BundleEntry", [("offset", "Q"), ("size", "Q"), ("id_size", "Q")])
#: Entry id of the host, present (and empty) in every bundle clang writes.
HOST_ID = "host-x86_64-unknown-linux--"
#: Entry id of this project's simulated device: an x86-64 ELF shared object
#: built from the program's device code (see the runtime's debug_interface.h).
#: Stored as clang-offload-bundler-19 stores target
#: ``hipv4-x86_64-unknown-linux-gnu-gpusym`` (with a trailing dash), so that
#: ``--unbundle --targets=hipv4-x86_64-unknown-linux-gnu-gpusym`` extracts it.
SIM_ID = "hipv4-x86_64-unknown-linux-gnu-gpusym-"
#: In an object compiled with -fgpu-rdc, clang keeps each target's device
#: code in a section named this prefix and the entry id; this project adds
#: the simulated device's relocatable object as entry SIM_RDC_ID.
SECTION_PREFIX = MAGIC.decode()
SIM_RDC_ID = "hip-x86_64-unknown-linux-gnu-gpusym"
AMDGPU_RDC_PREFIX = "hip-amdgcn-amd-amdhsa--"
#: Entries start at multiples of this, as clang aligns them.
ENTRY_ALIGNMENT = 4096


def split_id(bundle_id: str) -> tuple[str, str, str]:
    """(kind, triple, target) of an entry id: ``hipv4-amdgcn-amd-amdhsa--gfx90a``
    is (``hipv4``, ``amdgcn-amd-amdhsa``, ``gfx90a``)."""
    kind, _, rest = bundle_id.partition("-")
    parts = rest.split("-", 4)
    triple = "-".join(parts[:4]).rstrip("-")
    target = parts[4].rstrip("-") if len(parts) == 5 else ""
    return kind, triple, target


@dataclass(frozen=True)
class Entry:
    id: str
    offset: int
    size: int

    @property
    def target(self) -> str:
        """The processor the entry is for (``gfx90a``), or ``""`` for none."""
        return split_id(self.id)[2]


def amdgpu_id(arch: str) -> str:
    return f"hipv4-amdgcn-amd-amdhsa--{arch}"


def write(entries: list[tuple[str, bytes]]) -> bytes:
    """A bundle holding `entries` (id, bytes) in order, each aligned."""
    header_size = HEADER.size + sum(ENTRY.size + len(id.encode()) for id, _ in entries)
    offsets, cursor = [], header_size
    for _, data in entries:
        cursor = align_up(cursor, ENTRY_ALIGNMENT) if data else cursor
        offsets.append(cursor)
        cursor += len(data)
    out = bytearray(HEADER.pack(magic=MAGIC, count=len(entries)))
    for (id, data), offset in zip(entries, offsets):
        encoded = id.encode()
        out += ENTRY.pack(offset=offset, size=len(data), id_size=len(encoded)) + encoded
    for (_, data), offset in zip(entries, offsets):
        out += bytes(offset - len(out)) + data
    return bytes(out)


def read_entries(data: bytes | memoryview) -> list[Entry]:
    """The entries of the bundle at the start of `data`, bounds-checked."""
    return _read(memoryview(data))[0]


def length(data: bytes | memoryview) -> int:
    """The length of the bundle at the start of `data`: to the end of its
    entry table or of its last entry, whichever is further (a bundle's
    entries, empty ones included, may all lie inside its table)."""
    entries, table_end = _read(memoryview(data))
    return max([entry.offset + entry.size for entry in entries] + [table_end])


def _read(view: memoryview) -> tuple[list[Entry], int]:
    """The entries of the bundle at the start of `view` and the end of its
    entry table."""
    if bytes(view[: len(MAGIC)]) != MAGIC:
        raise FormatError("not a clang offload bundle (bad magic)")
    if len(view) < HEADER.size:
        raise FormatError("truncated bundle header")
    count = HEADER.unpack_from(view).count
    cursor = HEADER.size
    if count > (len(view) - cursor) // ENTRY.size:
        raise FormatError(f"entry count {count} does not fit in {len(view)} bytes")
    entries = []
    for _ in range(count):
        if not fits(cursor, ENTRY.size, len(view)):
            raise FormatError("truncated entry table")
        offset, size, id_size = ENTRY.unpack_from(view, cursor)
        cursor += ENTRY.size
        if not fits(cursor, id_size, len(view)):
            raise FormatError(f"entry id of {id_size} bytes runs past the end")
        id = bytes(view[cursor : cursor + id_size]).decode("ascii", "replace")
        cursor += id_size
        if not fits(offset, size, len(view)):
            raise FormatError(f"entry {id} ({size} bytes at {offset}) lies outside the bundle")
        entries.append(Entry(id, offset, size))
    return entries, cursor
