"""clang's compressed offload bundle (magic ``CCOB``), as written by
``clang --offload-compress`` and ``clang-offload-bundler -compress``.

Layout (little-endian, packed; from clang's OffloadBundler.cpp): magic
``CCOB``, u16 version, u16 method (0 zlib, 1 zstd), then

* version 1: u32 uncompressed size, u64 hash;
* version 2: u32 total size (header included), u32 uncompressed size, u64 hash;
* version 3: u64 total size, u64 uncompressed size, u64 hash;

then the compressed stream (a zlib stream or one zstd frame), which inflates
to an uncompressed ``__CLANG_OFFLOAD_BUNDLE__`` bundle.  The hash is the low
half of the MD5 digest of the uncompressed bundle: its first 8 bytes read as
a little-endian u64.  clang 19 writes version 2 with zstd; clang-offload-
bundler-19 reads versions 1 and 2 but not 3, which later LLVMs added.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass

from symbols import offload_bundle
from symbols.binary_layout import Layout, skip_zero_padding
from symbols.errors import FormatError

MAGIC = b"CCOB"
METHODS = {0: "zlib", 1: "zstd"}
COMMON = Layout("CompressedBundleStart", [("magic", "4s"), ("version", "H"), ("method", "H")])
#: Version -> the rest of its header, after COMMON.
SIZES = {
    1: Layout("CompressedBundleSizes1", [("uncompressed_size", "I"), ("hash", "Q")]),
    2: Layout("CompressedBundleSizes2", [("total_size", "I"), ("uncompressed_size", "I"), ("hash", "Q")]),
    3: Layout("CompressedBundleSizes3", [("total_size", "Q"), ("uncompressed_size", "Q"), ("hash", "Q")]),
}
_NEXT_MAGIC = re.compile(re.escape(MAGIC))
#: zstd frames may not ask for a window (decoder memory) above this, or
#: above their output size when that is larger.
_MIN_WINDOW_LIMIT = 1 << 20


@dataclass(frozen=True)
class CompressedHeader:
    version: int
    method: int  # 0 zlib, 1 zstd (see METHODS)
    total_size: int | None  # header included; None in version 1
    uncompressed_size: int
    hash: int
    header_size: int


def is_compressed(data: bytes | memoryview) -> bool:
    """Whether `data` starts with a compressed bundle's magic."""
    return bytes(data[: len(MAGIC)]) == MAGIC


def parse_header(data: bytes | memoryview) -> CompressedHeader:
    """The header of the compressed bundle at the start of `data`."""
    view = memoryview(data)
    if not is_compressed(view):
        raise FormatError("not a compressed offload bundle (bad magic)")
    if len(view) < COMMON.size:
        raise FormatError("truncated compressed bundle header")
    _, version, method = COMMON.unpack_from(view)
    if version not in SIZES:
        raise FormatError(f"unknown compressed bundle version {version}")
    if method not in METHODS:
        raise FormatError(f"unknown compression method {method}")
    header_size = COMMON.size + SIZES[version].size
    if len(view) < header_size:
        raise FormatError(f"truncated version {version} compressed bundle header")
    sizes = SIZES[version].unpack_from(view, COMMON.size)
    total_size = getattr(sizes, "total_size", None)
    if total_size is not None and not header_size <= total_size <= len(view):
        raise FormatError(f"compressed bundle size {total_size} does not fit in {len(view)} bytes")
    return CompressedHeader(version, method, total_size, sizes.uncompressed_size, sizes.hash, header_size)


def decompress(data: bytes | memoryview, *, max_output: int) -> bytes:
    """The uncompressed bundle held by the compressed bundle at the start of
    `data`, checked against the header's size.

    Refuses, before inflating anything, a bundle whose uncompressed size
    exceeds `max_output`.  The stream of a version 1 bundle runs to the end of
    `data`; anything after the end of the compressed stream is ignored."""
    header = parse_header(data)
    if header.uncompressed_size > max_output:
        raise FormatError(f"uncompressed size {header.uncompressed_size} exceeds the limit of {max_output}")
    end = header.total_size if header.total_size is not None else len(data)
    stream = memoryview(data)[header.header_size : end]
    return inflate(stream, METHODS[header.method], header.uncompressed_size)


def inflate(stream: bytes | memoryview, method: str, size: int) -> bytes | memoryview:
    """The `size` bytes a zlib stream, zstd frame or LZ4 block inflates to
    (an LZ4 block's in a mapping of lz4_block's); anything after a zlib or
    zstd stream's end is ignored.  Never inflates more than `size` + 1 bytes."""
    if method == "lz4":
        from symbols import lz4_block  # imported here, as zstandard is: most binaries need neither

        return lz4_block.inflate(stream, size)
    result = _inflate_zlib(stream, size) if method == "zlib" else _inflate_zstd(stream, size)
    if len(result) != size:
        raise FormatError(f"{method} stream does not inflate to the recorded {size} bytes")
    return result


def _inflate_zlib(stream: bytes | memoryview, size: int) -> bytes:
    inflater = zlib.decompressobj()
    try:
        result = inflater.decompress(stream, size + 1)
    except zlib.error as error:
        raise FormatError(f"corrupt zlib stream: {error}") from None
    if not inflater.eof and len(result) <= size:
        raise FormatError("truncated zlib stream")
    return result


def _inflate_zstd(stream: bytes | memoryview, size: int) -> bytes:
    import zstandard

    window_limit = max(_MIN_WINDOW_LIMIT, 1 << max(size - 1, 1).bit_length())
    decompressor = zstandard.ZstdDecompressor(max_window_size=window_limit)
    try:
        if zstandard.frame_content_size(stream) == size:
            # Inflated straight into its result: a stream reader would hold a
            # window as large as the result beside it (clang's frames are one
            # segment), twice the memory.
            return decompressor.decompress(stream)
        with decompressor.stream_reader(stream, read_across_frames=False) as reader:
            return reader.read(size + 1)
    except zstandard.ZstdError as error:
        raise FormatError(f"corrupt zstd stream: {error}") from None


def _truncated_md5(data: bytes) -> int:
    import hashlib

    return int.from_bytes(hashlib.md5(data).digest()[:8], "little")


def split(data: bytes | memoryview) -> list[memoryview]:
    """The bundles, compressed or not, in a ``.hip_fatbin`` section holding
    several (the linker concatenates one per object, padding each to the
    section's alignment with zeros).

    Rule: zero bytes before a bundle are padding; a bundle ends at its total
    size (compressed, versions 2 and 3), after its last entry (uncompressed),
    or, for version 1, which records no size, where the next ``CCOB`` magic
    starts (as newer clang-offload-bundlers split) or at the end of `data`, padding
    included (an uncompressed bundle after a version 1 one stays inside it:
    compressed streams hold uncompressed bundle magics as literals, so only
    ``CCOB`` marks the next bundle).  Anything else is an error.

    clang-offload-bundler-19 ``--list`` reads only the first bundle of its
    input, and rejects bytes after a compressed one; it lists every piece
    this returns except version 3 ones and version 1 ones with padding."""
    view = memoryview(data)
    pieces: list[memoryview] = []
    cursor = 0
    while (begin := skip_zero_padding(view, cursor)) is not None:
        end = begin + bundle_length(view[begin:])
        pieces.append(view[begin:end])
        cursor = end
    return pieces


def bundle_length(data: bytes | memoryview) -> int:
    """The length of the bundle, compressed or not, at the start of `data`
    (see `split`)."""
    view = memoryview(data)
    if is_compressed(view):
        header = parse_header(view)
        if header.total_size is not None:
            return header.total_size
        following = _NEXT_MAGIC.search(view, header.header_size)
        return following.start() if following else len(view)
    if bytes(view[: len(offload_bundle.MAGIC)]) == offload_bundle.MAGIC:
        return offload_bundle.length(view)
    raise FormatError("bytes that are neither padding nor an offload bundle")


def write(bundle: bytes, version: int, method: str) -> bytes:
    """`bundle` compressed (`method` "zlib" or "zstd") as clang's
    OffloadBundler.cpp lays out `version` 1, 2 or 3."""
    import zstandard  # imported here, as the inflaters are: readers never need it

    stream = zlib.compress(bundle) if method == "zlib" else zstandard.ZstdCompressor().compress(bundle)
    layout = SIZES[version]
    sizes = {"uncompressed_size": len(bundle), "hash": _truncated_md5(bundle)}
    if "total_size" in layout.names:
        sizes["total_size"] = COMMON.size + layout.size + len(stream)
    method_number = {name: number for number, name in METHODS.items()}[method]
    return COMMON.pack(magic=MAGIC, version=version, method=method_number) + layout.pack(**sizes) + stream
