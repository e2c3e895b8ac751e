"""The container parsers on hostile input: random bytes, every truncation of
valid containers and valid containers with fields set to extreme values
give a result or a FormatError, never another exception, and decompression
never exceeds its limit.  Valid containers come from the writers beside
each reader, which follow the documented layouts (crafted holds a
small one of each)."""

from __future__ import annotations

import msgpack
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from crafted import BUNDLE, COMPRESSED, FATBIN, METADATA, METADATA_BYTES, OFFLOAD_BINARY
from symbols import amdgpu_metadata, compressed_bundle, nv_fatbin, offload_binary, offload_bundle
from symbols.errors import FormatError

pytestmark = []  # no toolchain, no gdb: seconds (make check)

PROPERTIES = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
LIMIT = 1 << 16


def outcome(call):
    """What `call` returns, or None when it raises FormatError."""
    try:
        return call()
    except FormatError:
        return None


# Where the fields of crafted's small valid containers are: (offset, width).
BUNDLE_FIELDS = [(24, 8), (32, 8), (40, 8), (48, 8), (83, 8), (91, 8), (99, 8)]
COMPRESSED_FIELDS = {
    1: [(4, 2), (6, 2), (8, 4), (12, 8)],
    2: [(4, 2), (6, 2), (8, 4), (12, 4), (16, 8)],
    3: [(4, 2), (6, 2), (8, 8), (16, 8), (24, 8)],
}
OFFLOAD_BINARY_FIELDS = [(4, 4), (8, 8), (16, 8), (32, 2), (34, 2), (40, 8), (48, 8), (56, 8), (64, 8), (72, 8)]
FATBIN_FIELDS = [(4, 2), (6, 2), (8, 8), (16, 2), (20, 4), (24, 8), (32, 4), (44, 4), (56, 8), (72, 8)]


def parse_compressed(data: bytes) -> None:
    """Every compressed-bundle entry point on `data`, bounds checked."""
    outcome(lambda: compressed_bundle.parse_header(data))
    result = outcome(lambda: compressed_bundle.decompress(data, max_output=LIMIT))
    assert result is None or len(result) <= LIMIT
    for piece in outcome(lambda: compressed_bundle.split(data)) or []:
        assert 0 < len(piece) <= len(data)


def parse_fatbin(data: bytes) -> None:
    outcome(lambda: nv_fatbin.read_wrappers(data))
    for entry in outcome(lambda: nv_fatbin.read_entries(data)) or []:
        result = outcome(lambda: nv_fatbin.payload(data, entry, max_output=LIMIT))
        assert result is None or len(result) <= LIMIT


def parse_offload_binary(data: bytes) -> None:
    for image in outcome(lambda: offload_binary.read_images(data)) or []:
        assert 0 <= image.offset and image.offset + image.size <= len(data)


def parse_metadata(data: bytes) -> None:
    outcome(lambda: amdgpu_metadata.kernels(data))
    outcome(lambda: amdgpu_metadata.target(data))


PARSERS = [parse_compressed, parse_fatbin, parse_offload_binary, parse_metadata]
MAGICS = [b"CCOB", offload_bundle.MAGIC, b"\x50\xed\x55\xba", b"\x10\xff\x10\xad", b"\x81\xa0"]


@PROPERTIES
@given(st.binary(max_size=512), st.sampled_from([b""] + MAGICS))
def test_random_bytes(data, prefix):
    for parse in PARSERS:
        parse(prefix + data)


@PROPERTIES
@given(st.binary(max_size=400), st.sampled_from([4, 8, 3]), st.booleans())
def test_random_offloading_entry_tables(table, pointer_size, little_endian):
    entries = outcome(lambda: offload_binary.read_offloading_entries(table, pointer_size, little_endian, hex))
    assert entries is None or len(entries) <= len(table) // 20


VALID = [
    (BUNDLE, parse_compressed),
    (FATBIN, parse_fatbin),
    (OFFLOAD_BINARY, parse_offload_binary),
    (METADATA_BYTES, parse_metadata),
] + [(data, parse_compressed) for data in COMPRESSED.values()]


@pytest.mark.parametrize("sample, parse", VALID)
def test_every_truncation(sample, parse):
    for length in range(len(sample)):
        parse(sample[:length])


def corrupted(sample: bytes, offset: int, width: int, value: int) -> bytes:
    return sample[:offset] + (value % (1 << 8 * width)).to_bytes(width, "little") + sample[offset + width :]


EXTREMES = st.one_of(
    st.sampled_from([0, 1, 7, 8, 0x7F, 0xFF, 0x7FFFFFFF, 0xFFFFFFFF, 1 << 63, (1 << 64) - 1]),
    st.integers(0, (1 << 64) - 1),
)
FIELDS = (
    [(COMPRESSED[v, m], field, parse_compressed) for (v, m) in COMPRESSED for field in COMPRESSED_FIELDS[v]]
    + [(BUNDLE, field, parse_compressed) for field in BUNDLE_FIELDS]
    + [(OFFLOAD_BINARY, field, parse_offload_binary) for field in OFFLOAD_BINARY_FIELDS]
    + [(FATBIN, field, parse_fatbin) for field in FATBIN_FIELDS]
)


@PROPERTIES
@given(st.sampled_from(FIELDS), EXTREMES)
def test_field_corruptions(field, value):
    data, (offset, width), parse = field
    parse(corrupted(data, offset, width, value))


@PROPERTIES
@given(st.sampled_from(VALID), st.data())
def test_byte_corruptions(sample, draw):
    data, parse = sample
    position = draw.draw(st.integers(0, len(data) - 1))
    parse(corrupted(data, position, 1, draw.draw(st.integers(0, 255))))


def paths(tree, prefix=()):
    """Every path (of keys and indexes) to a value inside `tree`."""
    yield prefix
    items = tree.items() if isinstance(tree, dict) else enumerate(tree) if isinstance(tree, list) else ()
    for key, value in items:
        yield from paths(value, prefix + (key,))


def replaced(tree, path, value):
    if not path:
        return value
    copy = dict(tree) if isinstance(tree, dict) else list(tree)
    copy[path[0]] = replaced(tree[path[0]], path[1:], value)
    return copy


MSGPACK_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-(1 << 63), (1 << 64) - 1) | st.text(max_size=8) | st.binary(max_size=8),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=8,
)


@PROPERTIES
@given(st.sampled_from(list(paths(METADATA))), MSGPACK_VALUES)
def test_metadata_shape_corruptions(path, value):
    parse_metadata(msgpack.packb(replaced(METADATA, path, value)))


def test_metadata_round_trip():
    (kernel,) = amdgpu_metadata.kernels(METADATA_BYTES)
    assert kernel.args == [
        amdgpu_metadata.KernelArg("p", None, 8, 0, "global_buffer", "global"),
        amdgpu_metadata.KernelArg(None, "int", 4, 8, "by_value", None),
    ]
    assert (kernel.name, kernel.symbol, kernel.kernarg_segment_size, kernel.vgpr_count) == ("k", "k.kd", 16, 4)
    assert amdgpu_metadata.target(METADATA_BYTES) == "gfx90a"


BUNDLE_ENTRIES = st.lists(
    st.tuples(st.text("abcdefgh-_", min_size=1, max_size=40), st.binary(max_size=300)), max_size=4
)


@PROPERTIES
@given(BUNDLE_ENTRIES, st.sampled_from([1, 2, 3]), st.sampled_from(["zlib", "zstd"]))
def test_compressed_bundle_round_trip(entries, version, method):
    bundle = offload_bundle.write(entries)
    packed = compressed_bundle.write(bundle, version, method)
    header = compressed_bundle.parse_header(packed)
    assert (header.version, compressed_bundle.METHODS[header.method]) == (version, method)
    assert header.uncompressed_size == len(bundle)
    assert compressed_bundle.decompress(packed, max_output=len(bundle)) == bundle
    with pytest.raises(FormatError):
        compressed_bundle.decompress(packed, max_output=len(bundle) - 1)


@PROPERTIES
@given(st.lists(st.sampled_from(sorted(COMPRESSED)), min_size=1, max_size=3), st.lists(st.integers(0, 64), min_size=4))
def test_split_round_trip(kinds, paddings):
    """An uncompressed bundle then compressed ones of every kind, each followed
    by padding, split back into themselves (a version 1 bundle keeps its
    padding, recorded nowhere)."""
    pieces = [BUNDLE] + [COMPRESSED[kind] for kind in kinds]
    section = b"".join(piece + bytes(padding) for piece, padding in zip(pieces, paddings))
    found = compressed_bundle.split(section)
    assert len(found) == len(pieces)
    assert bytes(found[0]) == BUNDLE
    for kind, padding, got in zip(kinds, paddings[1:], found[1:]):
        assert bytes(got) == COMPRESSED[kind] + (bytes(padding) if kind[0] == 1 else b"")
        assert compressed_bundle.decompress(got, max_output=len(BUNDLE)) == BUNDLE


STRING_MAPS = st.dictionaries(
    st.text("abz", min_size=1, max_size=5),
    st.text(st.characters(blacklist_categories=["Cs"], blacklist_characters="\0"), max_size=12),
    max_size=3,
)


OFFLOAD_BINARIES = st.lists(
    st.tuples(st.binary(min_size=1, max_size=100), st.sampled_from([1, 2, 3, 5]), STRING_MAPS), min_size=1, max_size=4
)


@PROPERTIES
@given(OFFLOAD_BINARIES)
def test_offload_binary_round_trip(binaries):
    section = b"".join(offload_binary.write(image, kind, 3, strings) for image, kind, strings in binaries)
    images = offload_binary.read_images(section + bytes(16))
    assert [section[i.offset : i.offset + i.size] for i in images] == [image for image, _, _ in binaries]
    assert [i.strings for i in images] == [strings for _, _, strings in binaries]
    assert [i.image_kind for i in images] == [offload_binary.IMAGE_KINDS[kind] for _, kind, _ in binaries]
    assert {i.offload_kind for i in images} == {"hip"}


FATBIN_ENTRIES = st.lists(
    st.tuples(st.sampled_from([1, 2]), st.integers(30, 120), st.binary(max_size=300), st.booleans()), max_size=4
)


@PROPERTIES
@given(FATBIN_ENTRIES)
def test_fatbin_round_trip(entries):
    """Two fatbins, padding between them: payloads come back (uncompressed
    ones with their padding)."""
    data = nv_fatbin.write(entries) + bytes(8) + nv_fatbin.write(entries[:1])
    found = nv_fatbin.read_entries(data)
    expected = entries + entries[:1]
    assert [(e.kind, e.sm, e.compressed) for e in found] == [(nv_fatbin.KINDS[k], sm, c) for k, sm, _, c in expected]
    for entry, (_, _, payload, _) in zip(found, expected):
        inflated = nv_fatbin.payload(data, entry, max_output=LIMIT)
        assert inflated == (payload if entry.compressed else payload.ljust(entry.size, b"\0"))


@pytest.mark.parametrize("flags", [0x1011, 0xA011])
def test_fatbin_compression_without_inflater(flags):
    """Entries compressed in formats this module cannot inflate are listed
    with no payload."""
    data = corrupted(FATBIN, 56, 8, flags)
    cubin, _ = nv_fatbin.read_entries(data)
    assert (cubin.compressed, cubin.compression) == (True, None)
    assert nv_fatbin.payload(data, cubin, max_output=LIMIT) is None


def test_fatbin_entry_mislabelled_as_lz4_is_a_format_error():
    data = corrupted(FATBIN, 56, 8, 0x2011)
    cubin, _ = nv_fatbin.read_entries(data)
    assert (cubin.compressed, cubin.compression) == (True, "lz4")
    with pytest.raises(FormatError, match="corrupt lz4"):
        nv_fatbin.payload(data, cubin, max_output=LIMIT)
