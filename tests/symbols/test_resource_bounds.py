"""No input makes reading a file cost more than a fixed multiple of a normal
parse of a file of its size, in time and in memory.

Each hostile input below is shaped to make one reading step cost the square
of its size (or worse): names, sections, bundle entries or notes that
overlap so that the same bytes would be read once per header naming them;
containers nested or packed back to back; PTX and names that make a
regular expression or the demangler rescan the text; a report that would
list every kernel against every target, names that demangle to gigabytes.
Before the fixes they took from half a minute to hours, or gigabytes; each
is read here in a process of its own (``analyze`` and the report's JSON, as
``gpusym query`` does), and must end in a report or a FormatError within
the bounds.  (Names that would demangle to more than 64 times their length
are left mangled, their printed length bounded before printing, see
symbols/demangling/gnu.py.)

The normal parse: a program written by crafted/ with 5,000 kernels
(host stubs and handles, an AMDGPU code object with its metadata, a
simulated one), the densest kind of input.  The bounds are generous, so
that a loaded machine does not fail them: 50 times its time per byte, and
never less than 10 s; 50 times its memory growth per byte, plus 100 MB.
"""

from __future__ import annotations

import json
import random
import struct
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

import crafted
from crafted import SHT_NOTE, Section, Sym
from symbols import compressed_bundle, nv_fatbin, offload_bundle
from symbols.elf import ElfFile

pytestmark = []  # no toolchain, no gdb: seconds (make check)

TIME_FACTOR, MIN_SECONDS = 50, 10.0
MEMORY_FACTOR, MEMORY_SLACK_KB = 50, 100 << 10
#: A hostile input still running after this has failed its bound anyway.
PROCESS_TIMEOUT = 300

# The peak is VmHWM, the process's own high-water mark: getrusage's
# ru_maxrss is carried over from the parent through fork and exec.
MEASURE = r"""
import json, re, sys, time
from symbols.analysis import analyze
from symbols.errors import FormatError
def peak_kb():
    with open("/proc/self/status") as status:
        return int(re.search(r"^VmHWM:\s*(\d+)", status.read(), re.M).group(1))
before = peak_kb()
start = time.perf_counter()
try:
    outcome = "report of %d bytes" % len(json.dumps(analyze(sys.argv[1]).report.to_json()))
except FormatError as error:
    outcome = "FormatError: %s" % error
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "grown_kb": peak_kb() - before, "outcome": outcome}))
"""


# Reads another tree's symbols/ instead of this one's (see __main__ below).
ANOTHER_TREE = """import sys
sys.meta_path[:] = [finder for finder in sys.meta_path if "editable" not in repr(finder)]
sys.path.insert(0, {!r})
"""


def measure(path: Path, timeout: float = PROCESS_TIMEOUT, symbols_from: str | None = None) -> dict:
    """Time and peak memory growth of reading `path` in a fresh process."""
    code = (ANOTHER_TREE.format(symbols_from) if symbols_from else "") + MEASURE
    try:
        result = subprocess.run(
            [sys.executable, "-c", code, str(path)], capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"reading {path.name} ({path.stat().st_size} bytes) took over {timeout} s")
    assert result.returncode == 0 and "Traceback" not in result.stderr, result.stderr
    return json.loads(result.stdout)


@cache
def normal(directory: Path) -> tuple[float, float]:
    """Seconds and kilobytes of memory growth per byte of a normal parse."""
    path = directory / "normal"
    path.write_bytes(crafted.hip_program([f"_Z6kernel{i}Pfi" for i in range(5000)]))
    measured = measure(path)
    assert measured["outcome"].startswith("report"), measured
    size = path.stat().st_size
    return measured["seconds"] / size, max(measured["grown_kb"], 1) / size


@pytest.fixture(scope="module")
def rates(tmp_path_factory) -> tuple[float, float]:
    return normal(tmp_path_factory.mktemp("normal"))


# ---- the hostile inputs ----

KERNEL = "_Z6kernelPf"


def overlapping_symbol_names() -> bytes:
    """20,000 symbols named by offsets 0, 1, 2... of one 400 KB string."""
    strtab = b"\0" + b"a" * 400_000 + b"\0"
    symbols = bytearray(24)
    for index in range(20_000):
        symbols += struct.pack("<IBBHQQ", 1 + index, 0x12, 0, 1, 0x1000 + index, 1)
    return crafted.write_elf(
        [
            Section(".text", data=bytes(16), flags=6, addr=0x1000),
            Section(".symtab", 2, bytes(symbols), link=3, info=1, entsize=24),
            Section(".strtab", 3, strtab, align=1),
        ],
        type=2,
    )


def overlapping_section_names() -> bytes:
    """20,000 sections named by offsets into a 400 KB name table with no NUL."""
    names = b"\0" + b"s" * 400_000
    sections = [Section(".names", 3, names, align=1)]
    sections += [Section("x", size=0) for _ in range(20_000)]
    data = bytearray(crafted.write_elf(sections))
    shoff, shnum = struct.unpack_from("<Q", data, 40)[0], struct.unpack_from("<H", data, 60)[0]
    for index in range(2, shnum - 1):  # point every "x" at a different offset of .names
        struct.pack_into("<I", data, shoff + 64 * index, 1 + index)
    struct.pack_into("<H", data, 62, 1)  # .names is the section name table
    return bytes(data)


def overlapping_fatbin_sections() -> bytes:
    """5,000 ``.hip_fatbin`` section headers on one bundle of 3,000 kernels."""
    program = crafted.hip_program([f"k{i}" for i in range(3000)])
    fatbin = ElfFile(program).section(".hip_fatbin")
    sections = [Section(".program", data=program, align=4096)]
    sections += [Section(".hip_fatbin", flags=2, offset=4096 + fatbin.offset, size=fatbin.size) for _ in range(5000)]
    return crafted.write_elf(sections)


def overlapping_bundle_entries() -> bytes:
    """20,000 bundle entries, each the same code object of 2,000 kernels."""
    image = crafted.amdgpu_code_object([f"k{i}" for i in range(2000)], metadata=False)
    entry_id = offload_bundle.amdgpu_id("gfx90a").encode()
    count = 20_000
    start = -(-(len(offload_bundle.MAGIC) + 8 + count * (24 + len(entry_id))) // 4096) * 4096
    table = b"".join(struct.pack("<QQQ", start, len(image), len(entry_id)) + entry_id for _ in range(count))
    head = offload_bundle.MAGIC + struct.pack("<Q", count) + table
    return head + bytes(start - len(head)) + image


def overlapping_note_sections() -> bytes:
    """4,000 NOTE section headers on one metadata note of 2,000 kernels."""
    image = crafted.amdgpu_code_object([f"k{i}" for i in range(2000)])
    note = next(s for s in ElfFile(image).sections if s.type == SHT_NOTE)
    sections = [Section(".image", data=image, align=4096)]
    sections += [Section(".note", SHT_NOTE, offset=4096 + note.offset, size=note.size) for _ in range(4000)]
    symbols = [Sym(name, 0x1000 + i, section=".image") for i in range(2000) for name in (f"k{i}", f"k{i}.kd")]
    return crafted.write_elf(sections, symbols, machine=crafted.EM_AMDGPU)


def compressed_bundles_back_to_back() -> bytes:
    """40,000 small compressed bundles, one after the other."""
    empty = offload_bundle.write([(offload_bundle.HOST_ID, b"")])
    return compressed_bundle.write(empty, 2, "zlib") * 40_000


def bundles_nested_in_entry_ids() -> bytes:
    """30,000 bundles, each the id of the one entry of the one before."""
    return crafted.nested_bundles(30_000)


def ptx_of_blank_lines() -> bytes:
    """PTX: a million blank lines, then a kernel."""
    return nv_fatbin.write([(1, 80, b"\n" * 1_000_000 + b".visible .entry kernel()\n", False)])


def ptx_of_unclosed_parameter_lists() -> bytes:
    """PTX: 250,000 lines opening a function's return parameter list."""
    return nv_fatbin.write([(1, 80, b".func (\n" * 250_000, False)])


def kernel_named_by_dots() -> bytes:
    """A kernel named ``_Z`` and a million dots: every cut of it tried."""
    name = "_Z" + "." * 1_000_000
    return crafted.bundle({offload_bundle.amdgpu_id("gfx90a"): crafted.amdgpu_code_object([name], metadata=False)})


def kernels_named_pairs_of_pairs() -> bytes:
    """2,000 kernels named by nested std::pair substitutions, 24 to 30
    levels: each of about 300 characters demangles to 0.5 to 35 GB."""
    names = [crafted.pairs_name(24 + index % 7) + "i" * (index // 7) for index in range(2000)]
    return crafted.bundle({offload_bundle.amdgpu_id("gfx90a"): crafted.amdgpu_code_object(names, metadata=False)})


def kernels_times_targets() -> bytes:
    """20,000 kernels in one code object, 3,000 other targets without them."""
    tiny = crafted.write_elf([], machine=crafted.EM_AMDGPU)
    code_objects = {
        offload_bundle.amdgpu_id("gfx90a"): crafted.amdgpu_code_object([f"k{i}" for i in range(20_000)], metadata=False)
    }
    code_objects |= {offload_bundle.amdgpu_id(f"gfx{i}"): tiny for i in range(3000)}
    return crafted.bundle(code_objects)


def decompression_bomb() -> bytes:
    """A compressed bundle inflating to about 240 times its size (the limit
    is 256): 40 KB of noise, then 10 MB of zeros."""
    image = random.Random(0).randbytes(40_000) + bytes(10_000_000)
    bundle = offload_bundle.write([(offload_bundle.HOST_ID, b""), (offload_bundle.amdgpu_id("gfx90a"), image)])
    return compressed_bundle.write(bundle, 2, "zstd")


def declared_decompression_bomb() -> bytes:
    """A compressed bundle declaring 4 GB of output for a few bytes."""
    data = bytearray(compressed_bundle.write(offload_bundle.write([(offload_bundle.HOST_ID, b"")]), 3, "zstd"))
    struct.pack_into("<Q", data, 16, 4 << 30)
    return bytes(data)


HOSTILE = [
    overlapping_symbol_names,
    overlapping_section_names,
    overlapping_fatbin_sections,
    overlapping_bundle_entries,
    overlapping_note_sections,
    compressed_bundles_back_to_back,
    bundles_nested_in_entry_ids,
    ptx_of_blank_lines,
    ptx_of_unclosed_parameter_lists,
    kernel_named_by_dots,
    kernels_named_pairs_of_pairs,
    kernels_times_targets,
    decompression_bomb,
    declared_decompression_bomb,
]


@pytest.mark.parametrize("make", HOSTILE, ids=[make.__name__ for make in HOSTILE])
def test_hostile_input_costs_a_bounded_multiple_of_a_normal_parse(make, rates, tmp_path):
    seconds_per_byte, kb_per_byte = rates
    path = tmp_path / make.__name__
    path.write_bytes(make())
    size = path.stat().st_size
    measured = measure(path)
    what = f"{make.__name__} ({size:,} bytes): {measured}"
    assert measured["outcome"].startswith(("report", "FormatError")), what
    assert measured["seconds"] <= max(MIN_SECONDS, TIME_FACTOR * seconds_per_byte * size), what
    assert measured["grown_kb"] <= MEMORY_FACTOR * kb_per_byte * size + MEMORY_SLACK_KB, what


def test_the_normal_parse_is_what_the_bounds_are_made_of(rates):
    """A sanity check on the reference: 5,000 kernels read at a sensible
    speed (under 20 µs a byte) and memory (under 1 KB a byte)."""
    seconds_per_byte, kb_per_byte = rates
    assert 0 < seconds_per_byte < 20e-6 and 0 < kb_per_byte < 1


if __name__ == "__main__":
    # The figures of docs/robustness.md, "Time and memory": each input's size, time,
    # memory growth and outcome.  --symbols DIR reads with the symbols/ package
    # in DIR instead (an older tree: git archive COMMIT symbols | tar -x -C DIR),
    # each input for at most --timeout seconds (default 120); --skip NAME...
    import argparse
    import tempfile

    parser = argparse.ArgumentParser(description="time and memory of reading each hostile input")
    parser.add_argument("--symbols", metavar="DIR")
    parser.add_argument("--timeout", type=float, default=120)
    parser.add_argument("--skip", nargs="*", default=[], metavar="NAME")
    args = parser.parse_args()
    directory = Path(tempfile.mkdtemp(prefix="gpusym-bounds-"))
    cases = [("normal", lambda: crafted.hip_program([f"_Z6kernel{i}Pfi" for i in range(5000)]))]
    cases += [(make.__name__, make) for make in HOSTILE if make.__name__ not in args.skip]
    print(f"{'input':36} {'bytes':>12} {'seconds':>8} {'memory MB':>10}  outcome")
    for name, make in cases:
        path = directory / name
        path.write_bytes(make())
        size = path.stat().st_size
        try:
            measured = measure(path, args.timeout, args.symbols)
        except BaseException as error:  # pytest.fail on a timeout
            print(f"{name:36} {size:>12,} {'>' + format(args.timeout, 'g'):>8} {'':>10}  {str(error).splitlines()[0]}")
            continue
        outcome = measured["outcome"][:70]
        print(
            f"{name:36} {size:>12,} {measured['seconds']:8.2f} {measured['grown_kb'] / 1024:10.1f}  {outcome}",
            flush=True,
        )
