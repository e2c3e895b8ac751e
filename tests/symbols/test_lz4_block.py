"""LZ4 blocks inflated with the system's liblz4 against the lz4 package: the
same bytes, or the same error, on nvcc's own blocks and on a thousand
damaged ones (the fuzzer's fatbin target compares them too)."""

from __future__ import annotations

import random

import pytest
from container_builds import builds, cuda, section  # noqa: F401 (fixtures)

from fuzz.targets import lz4_both_ways
from symbols import lz4_block, nv_fatbin
from symbols.errors import FormatError

pytestmark = [pytest.mark.toolchain]

MUTANTS = 1000


def test_liblz4_is_found():
    assert lz4_block._decompress_safe() is not None, f"{lz4_block.LIBRARY} did not load: fatbins inflate slower"


@pytest.fixture(scope="module")
def blocks(cuda) -> list[tuple[bytes, int]]:  # noqa: F811
    """(block, size) of each entry of an nvcc object compressed with ``-compress-mode=speed``."""
    path = cuda.nvcc("lz4.o", "-c", "-Xfatbin", "-compress-all", "-Xfatbin", "-compress-mode=speed")
    data = section(path, ".nv_fatbin")
    entries = nv_fatbin.read_entries(data)
    assert {entry.compression for entry in entries} == {"lz4"}
    return [(data[e.offset : e.offset + e.size], e.uncompressed_size) for e in entries]


def test_nvccs_blocks_inflate_alike(blocks):
    for block, size in blocks:
        with_library, with_package = lz4_both_ways(block, size)
        assert not isinstance(with_library, str) and len(with_library) == size
        assert with_library == with_package


@pytest.mark.parametrize("change", [-1, 1])
def test_a_wrong_recorded_size_is_the_same_error(blocks, change):
    block, size = blocks[0]
    with_library, with_package = lz4_both_ways(block, size + change)
    assert with_library == with_package
    assert with_library.startswith("FormatError:") and str(size + change) in with_library


def test_damaged_blocks_inflate_alike(blocks):
    rng = random.Random(1)
    for _ in range(MUTANTS):
        block, size = blocks[rng.randrange(len(blocks))]
        mutant = bytearray(block)
        if rng.random() < 0.3:
            del mutant[rng.randrange(len(mutant)) :]
        for _ in range(rng.randint(1, 4)):
            if mutant:
                mutant[rng.randrange(len(mutant))] = rng.randrange(256)
        with_library, with_package = lz4_both_ways(bytes(mutant), size)
        assert with_library == with_package, f"mutant of a {len(block)}-byte block"


def test_sizes_past_lz4s_limit_are_refused():
    with pytest.raises(FormatError, match="larger than LZ4 allows"):
        lz4_block.inflate(b"\x00", 1 << 31)


def test_an_output_still_viewed_is_never_written_over(blocks):
    """Each thread inflates into the mapping it used last only once nothing
    holds a view of that: a cubin still read keeps its bytes."""
    (first, first_size), (second, second_size) = blocks[0], blocks[1]
    kept = lz4_block.inflate(first, first_size)
    copy = bytes(kept)
    part = kept[100:200]
    del kept
    other = lz4_block.inflate(second, second_size)  # the first mapping is still viewed by `part`
    assert bytes(part) == copy[100:200]
    del part, other
    again = lz4_block.inflate(first, first_size)
    assert again == copy
