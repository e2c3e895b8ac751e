"""``gpusym query`` on hostile and odd binaries: it answers or errs per file,
in one line naming the file, never hangs and never loses the rest of the
batch.

The inputs are made here from a real program (vector_add, built by the
session's ``gpusym build``) by the LLVM tools and by editing its headers:
stripped, without section headers, converted to 32-bit and big-endian ELF,
with its section header table, fat binary section or symbol table pointing
outside the file, with sections overlapping, with a string table cut short;
and written by crafted/: programs of every ELF class and byte order,
100,000 kernels, names thousands of characters long.  Plus what a file
system can hold: a FIFO, a directory, symbolic links that loop.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import struct
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import GPUSYM, describe, run, run_gpusym
from elftools.elf.elffile import ELFFile

import crafted
from symbols import offload_bundle

pytestmark = [pytest.mark.toolchain, pytest.mark.slow]

#: Generous: the whole batch (100,000 kernels twice over included) takes
#: seconds; a hang fails the test instead of stalling the suite.
BATCH_TIMEOUT = 600
HUNDRED_THOUSAND = 100_000
LONG = 5000  # characters of the long kernel names


@dataclass
class Case:
    path: Path
    error: str | None  # a piece of the one-line error, or None: a report is expected
    kernels: int | None = None  # kernels the report lists, when checked


def header_offsets(data: bytes) -> dict[str, int]:
    """Section name -> file offset of its section header, as pyelftools
    reads the file."""
    elf = ELFFile(io.BytesIO(data))
    shoff, entry = elf.header["e_shoff"], elf.header["e_shentsize"]
    return {section.name: shoff + index * entry for index, section in enumerate(elf.iter_sections())}


#: Fields of an ELF64 section header: name -> (offset in the header, format).
FIELDS = {"name": (0, "<I"), "offset": (24, "<Q"), "size": (32, "<Q"), "link": (40, "<I")}


def edited(data: bytes, section: str, **fields: int) -> bytes:
    out = bytearray(data)
    where = header_offsets(data)[section]
    for name, value in fields.items():
        offset, fmt = FIELDS[name]
        struct.pack_into(fmt, out, where + offset, value)
    return bytes(out)


def field(data: bytes, section: str, name: str) -> int:
    offset, fmt = FIELDS[name]
    return struct.unpack_from(fmt, data, header_offsets(data)[section] + offset)[0]


def with_header(data: bytes, offset: int, fmt: str, value: int) -> bytes:
    out = bytearray(data)
    struct.pack_into(fmt, out, offset, value)
    return bytes(out)


@pytest.fixture(scope="module")
def long_names_program(tmp_path_factory) -> Path:
    """A real program whose kernels have names of LONG characters: a plain
    identifier, and a template instance whose mangled name is long."""
    source = tmp_path_factory.mktemp("long") / "long_names.hip"
    name = "k" + "x" * (LONG - 1)
    source.write_text(f"""#include <hip/hip_runtime.h>
template <int N> struct {"T" * 1000} {{}};
__global__ void {name}(int *out) {{ out[0] = 1; }}
template <typename A> __global__ void tmpl(int *out) {{ out[0] = sizeof(A); }}
template __global__ void tmpl<{"T" * 1000}<1>>(int *);
int main() {{ return 0; }}
""")
    out = source.with_suffix("")
    result = run_gpusym("build", source, "-o", out)
    assert result.returncode == 0, describe(result)
    return out


def cases(program: Path, long_names: Path, root: Path) -> list[Case]:
    """Every hostile input, written under `root`, with what to expect."""
    real = program.read_bytes()
    made: list[Case] = []

    def add(name: str, data: bytes, error: str | None, kernels: int | None = None) -> None:
        path = root / name
        path.write_bytes(data)
        made.append(Case(path, error, kernels))

    def tool(name: str, *command: str, error: str | None = None, kernels: int | None = 1) -> None:
        path = root / name
        shutil.copy(program, path)
        subprocess.run([*command, str(path)], check=True, capture_output=True, timeout=120)
        made.append(Case(path, error, kernels))

    # LLVM's tools on the real program.
    tool("stripped", "llvm-strip-19", "--strip-all")
    tool("no-section-headers", "llvm-objcopy-19", "--strip-sections", kernels=0)
    for target in ("elf32-i386", "elf32-x86-64", "elf32-powerpc", "elf64-powerpc"):  # the last two big-endian
        tool(target, "llvm-objcopy-19", "-O", target)
    # Its headers edited.
    add("section-table-outside", with_header(real, 40, "<Q", len(real) + 4096), "outside the file")
    add("section-count-outside", with_header(real, 60, "<H", 0xFFFF), "outside the file")
    add("section-names-index-bad", with_header(real, 62, "<H", 0xFF00), "section name table index")
    add("fatbin-outside", edited(real, ".hip_fatbin", offset=1 << 40), "outside the file")
    add("comment-outside", edited(real, ".comment", offset=1 << 40, size=1 << 40), None, 1)  # never read
    fatbin_offset = field(real, ".hip_fatbin", "offset")
    add(
        "sections-overlap",
        edited(real, ".hipFatBinSegment", name=field(real, ".hip_fatbin", "name"), offset=fatbin_offset + 16, size=64),
        "overlap",
    )
    add("symtab-outside", edited(real, ".symtab", size=24 << 40), "outside the file")
    add("symtab-strings-bad", edited(real, ".symtab", link=9999), "string table index")
    add("strtab-unterminated", edited(real, ".strtab", size=field(real, ".strtab", "size") - 1), None, 1)
    add("truncated", real[: len(real) // 2], "outside the file")
    add("zeros", bytes(8 << 20), "neither an ELF file nor a known GPU container")  # 8 MB: see the parallel test
    # Written from scratch.
    classes = {"32le": {"is64": False}, "64be": {"little": False}, "32be": {"is64": False, "little": False}}
    for label, elf in classes.items():
        add(f"crafted-{label}", crafted.hip_program(["axpy", "scale"], **elf), None, 2)
    names = [f"k{index}_" + "n" * 20_000 for index in range(3)]
    add("names-of-20000-characters", crafted.hip_program(names), None, 3)
    add(
        "hundred-thousand-kernels",
        crafted.hip_program([f"kernel_{i}" for i in range(HUNDRED_THOUSAND)]),
        None,
        HUNDRED_THOUSAND,
    )
    bundle = bytearray(offload_bundle.write([(offload_bundle.HOST_ID, b""), ("evil\n\x1b[2J", b"x" * 64)]))
    entry = len(offload_bundle.MAGIC) + 8 + 24 + len(offload_bundle.HOST_ID)
    bundle[entry : entry + 8] = (1 << 40).to_bytes(8, "little")
    add("control-characters", bytes(bundle), "entry evil\\n\\x1b[2J (64 bytes at 1099511627776) lies outside")
    # And what a file system holds.
    made.append(Case(long_names, None, 2))
    fifo = root / "fifo"
    os.mkfifo(fifo)
    made.append(Case(fifo, "not a regular file"))
    os.symlink("loop", root / "loop")
    made.append(Case(root / "loop", "Too many levels of symbolic links"))
    made.append(Case(root, "is a directory"))
    return made


@pytest.fixture(scope="module")
def hostile(vector_add, long_names_program, tmp_path_factory) -> list[Case]:
    return cases(vector_add, long_names_program, tmp_path_factory.mktemp("hostile"))


def query(*args) -> subprocess.CompletedProcess:
    return run([GPUSYM, "query", "--json", *args], timeout=BATCH_TIMEOUT)


def check_batch(result: subprocess.CompletedProcess, inputs: list[Case], good: Path) -> dict:
    """One stderr line per failed input, naming it; a report for the others."""
    assert result.returncode == 1, describe(result)
    assert "Traceback" not in result.stderr, describe(result)
    failed = [case for case in inputs if case.error]
    lines = result.stderr.splitlines()
    assert len(lines) == len(failed), describe(result)
    for case, line in zip(failed, lines):
        assert line.startswith(f"gpusym query: {case.path}: ") and case.error in line, (case.path.name, line)
    document = json.loads(result.stdout)
    assert [e["path"] for e in document["errors"]] == [str(case.path) for case in failed]
    reports = {Path(b["path"]): b for b in document["binaries"]}
    assert list(reports) == [case.path for case in inputs if not case.error] + [good]
    for case in inputs:
        if case.kernels is not None and not case.error:
            assert len(reports[case.path]["kernels"]) == case.kernels, case.path.name
    return reports


@pytest.fixture(scope="module")
def serial(hostile, vector_add) -> subprocess.CompletedProcess:
    """The whole batch read in one process."""
    return query("-j", "1", *(case.path for case in hostile), vector_add)


def test_each_hostile_input_gets_a_report_or_one_line_and_the_batch_goes_on(serial, hostile, vector_add):
    reports = check_batch(serial, hostile, vector_add)
    by_name = {path.name: report for path, report in reports.items()}
    good = by_name["vector_add"]["kernels"]
    for name in ("stripped", "elf32-i386", "elf32-x86-64", "elf32-powerpc", "elf64-powerpc", "comment-outside"):
        kernels = by_name[name]["kernels"]
        assert [k["name"] for k in kernels] == [k["name"] for k in good], name
        assert {d["target"] for d in kernels[0]["device"]} == {"gfx90a", "gpusym"}, name
        assert (kernels[0]["stub"] is None) == (name == "stripped"), name
    assert any("no section headers" in note for note in by_name["no-section-headers"]["notes"])
    for label in ("32le", "64be", "32be"):
        for kernel in by_name[f"crafted-{label}"]["kernels"]:
            assert kernel["stub"]["symbol"] == f"__device_stub__{kernel['name']}"
            assert kernel["handle"]["kind"] == "variable"
            assert [d["target"] for d in kernel["device"]] == ["gfx90a", "gpusym"]
    long_names = by_name["names-of-20000-characters"]["kernels"]
    assert sorted(len(k["name"]) for k in long_names) == [20_003] * 3
    assert all(k["stub"] and len(k["device"]) == 2 and k["args"] for k in long_names)
    many = by_name["hundred-thousand-kernels"]["kernels"]
    assert all(k["stub"] and k["handle"] and len(k["device"]) == 2 for k in many)
    assert {k["name"] for k in many} == {f"kernel_{i}" for i in range(HUNDRED_THOUSAND)}


def test_long_names_of_a_real_program_are_read_whole(long_names_program):
    report = json.loads(query(long_names_program).stdout)["binaries"][0]
    names = sorted((k["name"] for k in report["kernels"]), key=len)
    assert len(names[0]) > 1000 and len(names[1]) > LONG  # "tmpl<T...T<1>>", then "k" + "x" * (LONG - 1)
    assert names[1].endswith("k" + "x" * (LONG - 1) + "Pi")
    kernels = {k["name"]: k for k in report["kernels"]}
    for kernel in kernels.values():
        assert {d["target"] for d in kernel["device"]} == {"gfx90a", "gpusym"}
        assert kernel["stub"] is not None and kernel["handle"] is not None
        assert "T" * 1000 in kernel["demangled"] or "x" * (LONG - 1) in kernel["demangled"]


def test_the_same_batch_read_in_parallel_gives_the_same_answers(serial, hostile, vector_add):
    """With over 64 MB of input (the 100,000-kernel program and 8 MB of
    zeros) the files are read in worker processes: a bad file still costs
    only its own line."""
    parallel = query("-j", "2", *(case.path for case in hostile), vector_add)
    check_batch(parallel, hostile, vector_add)
    assert json.loads(parallel.stdout) == json.loads(serial.stdout)
    assert parallel.stderr == serial.stderr


def test_recursive_reading_survives_symbolic_link_loops(vector_add, tmp_path):
    tree = tmp_path / "tree"
    (tree / "sub").mkdir(parents=True)
    shutil.copy(vector_add, tree / "sub" / "program")
    os.symlink("a", tree / "b")
    os.symlink("b", tree / "a")
    os.symlink("self", tree / "self")
    os.symlink("..", tree / "sub" / "up")  # a directory loop
    os.symlink(tree, tree / "sub" / "root")
    os.symlink("program", tree / "sub" / "alias")  # a link to a binary: read once, as its file
    result = query("-r", tree)
    assert result.returncode == 0, describe(result)
    document = json.loads(result.stdout)
    assert [b["path"] for b in document["binaries"]] == [str(tree / "sub" / "program")]
    assert document["errors"] == []
    looped = query("-r", tree / "a", tree / "sub" / "up", tree / "sub" / "program")
    assert looped.returncode == 1, describe(looped)
    assert looped.stderr.splitlines() == [f"gpusym query: {tree / 'a'}: Too many levels of symbolic links"]
    document = json.loads(looped.stdout)
    # sub/up is tree itself, read recursively: links inside it are not followed.
    assert [b["path"] for b in document["binaries"]] == [
        str(tree / "sub" / "up" / "sub" / "program"),
        str(tree / "sub" / "program"),
    ]
