"""ELF reading's loops in C (symbols/elf_scan.c) against their Python twins
in symbols/elf.py: the same sections and symbols, or the same error, on
real libraries, on files of every class and byte order, and on thousands
of damaged ones (the fuzzer's elf target compares them too)."""

from __future__ import annotations

import ctypes.util
import random
import sys
from pathlib import Path

import pytest
from conftest import REPO, describe, run
from container_builds import builds, cuda  # noqa: F401 (fixtures)

import crafted
from fuzz.targets import NAMED, elf_tables_both_ways
from native import toolchain
from symbols import device_code, elf_scan
from symbols.elf import SHT_STRTAB, SHT_SYMTAB, ElfFile

pytestmark = [pytest.mark.toolchain]

MUTANTS = 1500


def test_the_c_loops_build_where_the_toolchain_is():
    assert elf_scan.scanner() is not None, "symbols/elf_scan.c did not build: queries fall back to Python"


def _library(name: str) -> Path:
    found = ctypes.util.find_library(name)
    path = next((Path(d) / found for d in ("/lib/x86_64-linux-gnu", "/usr/lib/x86_64-linux-gnu") if found), None)
    if path is None or not path.exists():
        pytest.skip(f"no lib{name} here")
    return path


@pytest.mark.parametrize("path", ["python", "c", "stdc++"])
def test_real_files_read_alike(path):
    binary = Path(sys.executable).resolve() if path == "python" else _library(path)
    with_c, in_python = elf_tables_both_ways(binary.read_bytes())
    assert not isinstance(with_c, str), with_c
    sections, tables, named, _ = with_c
    assert len(sections) > 10 and sum(map(len, tables)) > 100
    assert {s.type for s in named} >= {SHT_STRTAB}
    assert with_c == in_python


def _every_kind_of_symbol(is64: bool, little: bool) -> bytes:
    """Functions, objects, local labels, section and file symbols, an
    undefined one, a nameless one and one named past its table's end."""
    symbols = [
        crafted.Sym("kernel", 0x10, 8),
        crafted.Sym("variable", 0x20, 4, type=crafted.STT_OBJECT),
        crafted.Sym(".Llabel", 0x14, 0, type=0, bind=crafted.STB_LOCAL),
        crafted.Sym("section", 0, 0, type=3, bind=crafted.STB_LOCAL),
        crafted.Sym("file.c", 0, 0, type=4, bind=crafted.STB_LOCAL, section=None),
        crafted.Sym("printf", 0, 0, section=None),
        crafted.Sym("", 0x30, 0, type=crafted.STT_OBJECT),
        crafted.Sym("wéird", 0x40, 2, other=0x10),
    ]
    sections = [crafted.Section(".text", data=bytes(64), flags=6, addr=0x1000)]
    return crafted.write_elf(sections, symbols, is64=is64, little=little)


@pytest.mark.parametrize("is64", [True, False], ids=["64-bit", "32-bit"])
@pytest.mark.parametrize("little", [True, False], ids=["little-endian", "big-endian"])
def test_every_class_and_byte_order_reads_alike(is64, little):
    with_c, in_python = elf_tables_both_ways(_every_kind_of_symbol(is64, little))
    assert not isinstance(with_c, str), with_c
    names = [row[0] for row in with_c[1][0]]
    assert names == ["kernel", "variable", "printf", "", "wéird"]  # labels, sections and files left out
    assert len(with_c[1][1]) == 8  # every entry
    assert with_c == in_python


@pytest.mark.parametrize("is64", [True, False], ids=["64-bit", "32-bit"])
def test_damaged_files_read_alike(is64):
    """Random bytes of a small file overwritten: the C loops never crash,
    never accept what Python refuses, and never read other names."""
    original = _every_kind_of_symbol(is64, True)
    rng = random.Random(2026)
    refused = 0
    for _ in range(MUTANTS):
        data = bytearray(original)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.choice([0, 0xFF, 0x7F, rng.randrange(256)])
        with_c, in_python = elf_tables_both_ways(bytes(data))
        assert with_c == in_python, bytes(data).hex()
        refused += isinstance(with_c, str)
    assert 0 < refused < MUTANTS  # both kinds of outcome were tried


#: Seconds the sanitized C loops are fuzzed for by the suite (longer by hand:
#: build as below, then ``./elf_scan_fuzzer -max_total_time=N``).
SANITIZED_SECONDS = 10


def test_the_c_loops_under_sanitizers_never_read_outside_their_tables(tmp_path):
    """symbols/elf_scan.c fuzzed (fuzz/elf_scan_fuzzer.c) with
    AddressSanitizer and UndefinedBehaviorSanitizer: no report."""
    fuzzer = tmp_path / "elf_scan_fuzzer"
    sanitizers = ["-fsanitize=fuzzer,address,undefined", "-fno-sanitize-recover=undefined"]
    sources = [REPO / "fuzz" / "elf_scan_fuzzer.c", elf_scan.SOURCE]
    built = run([toolchain.tool("clang"), "-g", "-O1", *sanitizers, *sources, "-o", fuzzer])
    assert built.returncode == 0, describe(built)
    # libFuzzer reads its RSS as the kernel's peak for the process, which a
    # child of the test runner inherits from it through fork and exec (1.8 GB
    # late in the suite); started by a shell that forks it, the fuzzer's
    # peak is its own and -rss_limit_mb means what it says.
    fuzzed = run(
        [
            *("sh", "-c", '"$@"; exit $?', "sh"),
            *(fuzzer, f"-max_total_time={SANITIZED_SECONDS}", "-rss_limit_mb=1024", f"-artifact_prefix={tmp_path}/"),
        ],
        timeout=SANITIZED_SECONDS + 120,
    )
    assert fuzzed.returncode == 0 and "Done" in fuzzed.stderr, describe(fuzzed)


def test_a_cubins_kernel_sections_read_alike(cuda):
    """A cubin is read from its symbol table and ``.nv.info.<kernel>``
    sections alone (sections_named): the same sections as the whole list
    has, both ways, and the same summary as with the whole list made first."""
    path = cuda.nvcc("plain.o", "-c")
    cubin = (path.with_name(path.name + ".keep") / "kernels.compute_90.cubin").read_bytes()
    with_c, in_python = elf_tables_both_ways(cubin)
    assert not isinstance(with_c, str), with_c
    sections, _, named, rows = with_c
    prefix, types = NAMED
    assert named == [s for s in sections if s.name.startswith(prefix) or s.type in types]
    assert sum(s.name.startswith(prefix) for s in named) >= 4 and SHT_SYMTAB in {s.type for s in named}
    assert len(named) < len(sections) and rows
    assert with_c == in_python
    whole = ElfFile(cubin)
    whole.sections  # made first: sections_named filters it
    assert device_code.read(cubin, "elf") == device_code._cubin(whole)
