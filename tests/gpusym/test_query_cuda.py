"""``gpusym query`` on nvcc's output, built at test time from
tests/programs/cuda_query: target names with their ``a``/``f`` suffixes,
handles as the registration code proves them, ptxas's subroutines,
kernel arguments, and missing targets over several containers.

Two builds of handles.cu: CUDA 13's way (arch-specific and family-specific
cubins and a PTX) and CUDA 12's (one plain target, template host functions
not made static).  Oracles: pyelftools on the cubins, the host's symbol
table, and binutils' objdump on the registration code.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import struct
from pathlib import Path

import elf_oracles as elf
import pytest
from conftest import TEST_PROGRAMS, describe, run, run_gpusym
from elftools.elf.elffile import ELFFile

from symbols.mangling import parameter_types

pytestmark = [pytest.mark.toolchain]

SOURCES = TEST_PROGRAMS / "cuda_query"
CUDA13 = [
    "-gencode",
    "arch=compute_90a,code=sm_90a",
    "-gencode",
    "arch=compute_100f,code=sm_100f",
    "-gencode",
    "arch=compute_90,code=compute_90",
]
CUDA13_TARGETS = ["sm_90a", "sm_100f", "compute_90"]
CUDA12 = ["-arch=sm_80", "-static-global-template-stub=false"]
CUDA12_TARGETS = ["sm_80", "compute_80"]
SUBROUTINES = ["-gencode", "arch=compute_75,code=sm_75", "-gencode", "arch=compute_90,code=sm_90"]
BUILDS = {"cuda13": (CUDA13, CUDA13_TARGETS), "cuda12": (CUDA12, CUDA12_TARGETS)}
#: Kernel -> (stub, handle) as nvcc names them; CUDA 13 gives template
#: instances a host function with internal linkage, as static kernels get.
STUBS = {
    "_Z1gPfi": "_Z21__device_stub__Z1gPfiPfi",
    "_Z1sPi": "_ZL20__device_stub__Z1sPiPi",
    "_ZN1a1tIiEEvPT_S1_": "_ZL32__device_stub__ZN1a1tIiEEvPT_S1_Pii",
}
HANDLES = {
    "cuda13": {"_Z1gPfi": "_Z1gPfi", "_Z1sPi": "_ZL1sPi", "_ZN1a1tIiEEvPT_S1_": "_ZN1aL1tIiEEvPT_S1_"},
    "cuda12": {"_Z1gPfi": "_Z1gPfi", "_Z1sPi": "_ZL1sPi", "_ZN1a1tIiEEvPT_S1_": "_ZN1a1tIiEEvPT_S1_"},
}
_LAUNCH_SITE = re.compile(r"\s(?:call|lea)\s.*?([0-9a-f]+) <")


class Builds:
    """nvcc's outputs in a temporary directory, each built once."""

    def __init__(self, root: Path):
        self.root = root

    def __call__(self, output: str, *arguments: str | Path) -> Path:
        target = self.root / output
        if not target.exists():
            result = run(["nvcc", *arguments, "-o", target], cwd=self.root)
            assert result.returncode == 0, describe(result)
        return target


@pytest.fixture(scope="module")
def nvcc(tmp_path_factory) -> Builds:
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc is not installed")
    return Builds(tmp_path_factory.mktemp("cuda_query"))


def query(path: Path) -> dict:
    result = run_gpusym("query", "--json", "--ptx", path)  # every code object read
    assert result.returncode == 0, describe(result)
    document = json.loads(result.stdout)
    assert document["errors"] == []
    return document["binaries"][0]


def test_ptx_is_listed_but_read_only_when_asked(nvcc):
    program = handles_program(nvcc, "cuda13")
    result = run_gpusym("query", "--json", program)
    assert result.returncode == 0, describe(result)
    plain, asked = json.loads(result.stdout)["binaries"][0], query(program)
    assert plain["code_objects"] == asked["code_objects"]
    ptx = [c for c in plain["code_objects"] if c["format"] == "ptx"]
    assert [c["target"] for c in ptx] == ["compute_90"]
    assert f"code object {ptx[0]['index']} (compute_90): PTX, not read (gpusym query --ptx reads it)" in plain["notes"]
    for kernel, everything in zip(plain["kernels"], asked["kernels"], strict=True):
        assert kernel["device"] == [d for d in everything["device"] if d["target"] != "compute_90"]
        assert kernel["missing_targets"] == everything["missing_targets"] == []


def ptxas_arch(cubin: bytes) -> str:
    """The ``-arch`` ptxas was given, from the cubin's ``.note.nv.tkinfo``."""
    note = ELFFile(io.BytesIO(cubin)).get_section_by_name(".note.nv.tkinfo")
    assert note is not None, "cubin without .note.nv.tkinfo"
    return re.search(rb"-arch (\S+)", note.data()).group(1).decode()


def handles_program(nvcc: Builds, style: str) -> Path:
    return nvcc(f"handles-{style}", *BUILDS[style][0], SOURCES / "handles.cu")


@pytest.mark.parametrize("style", BUILDS)
def test_targets_are_named_as_nvcc_was_asked(nvcc, style):
    targets = BUILDS[style][1]
    program = handles_program(nvcc, style)
    report = query(program)
    data = program.read_bytes()
    assert sorted({d["target"] for k in report["kernels"] for d in k["device"]}) == sorted(targets)
    for code_object in report["code_objects"]:
        assert code_object["target"] in targets
        if code_object["format"] == "elf" and not code_object["compressed"]:
            start = code_object["offset"]
            assert ptxas_arch(data[start : start + code_object["size"]]) == code_object["target"]
        else:
            assert code_object["format"] == "ptx" and code_object["target"].startswith("compute_")


def test_a_cubin_file_is_named_by_its_ptxas_arch_or_else_its_elf_flags(nvcc):
    """CUDA 13's cubins (ELF ABI version 8) keep the SM number in the second
    byte of e_flags; the suffix is only in the tkinfo note."""
    nvcc("handles-keep.o", "-c", *CUDA13, "--keep", "--keep-dir", nvcc.root, SOURCES / "handles.cu")
    for kept, target in (("compute_90a", "sm_90a"), ("compute_100f", "sm_100f")):
        cubin = nvcc.root / f"handles.{kept}.cubin"
        assert ptxas_arch(cubin.read_bytes()) == target
        assert [c["target"] for c in query(cubin)["code_objects"]] == [target]
        data = bytearray(cubin.read_bytes())
        note = ELFFile(io.BytesIO(bytes(data))).get_section_by_name(".note.nv.tkinfo")
        struct.pack_into("<I", data, note["sh_offset"] + 8, 0)  # the note's type: tkinfo no more
        unnamed = nvcc.root / f"{kept}-without-tkinfo.cubin"
        unnamed.write_bytes(data)
        assert [c["target"] for c in query(unnamed)["code_objects"]] == [target.rstrip("af")]


def test_ptxas_subroutines_are_device_functions_not_kernels(nvcc):
    """In relocatable device code ptxas's subroutines are functions of their own,
    with a ``.nv.info.<name>`` section as kernels have, but no entry flag."""
    library = nvcc(
        "subroutines.so", "-rdc=true", "-shared", "-Xcompiler", "-fPIC", *SUBROUTINES, SOURCES / "subroutines.cu"
    )
    report = query(library)
    assert [c["target"] for c in report["code_objects"] if c["format"] == "elf"] == ["sm_75", "sm_90"]
    assert [k["demangled"] for k in report["kernels"]] == [
        "divide(unsigned long long*, unsigned long long)",
        "shuffle(float*, unsigned int, int)",
    ]
    for kernel in report["kernels"]:
        assert sorted(d["target"] for d in kernel["device"]) == ["sm_75", "sm_90"]
    functions = {f["name"]: sorted(d["target"] for d in f["device"]) for f in report["device_functions"]}
    subroutines = {name for name in functions if name.startswith("__cuda_sm")}
    assert {"__cuda_sm20_div_u64", "__cuda_sm70_shflsync_down_p", "__cuda_sm70_shflsync_idx_p"} <= subroutines
    data = library.read_bytes()
    for code_object in report["code_objects"]:
        cubin = ELFFile(io.BytesIO(data[code_object["offset"] : code_object["offset"] + code_object["size"]]))
        infos = {s.name.removeprefix(".nv.info.") for s in cubin.iter_sections() if s.name.startswith(".nv.info.")}
        present = {name for name, targets in functions.items() if code_object["target"] in targets}
        assert subroutines & present <= infos  # each has the section that once made it a kernel


def test_missing_targets_are_counted_over_every_fatbin_of_a_program(nvcc):
    """Two objects compiled for different targets, each with a fatbin of its
    own, and nvcc's device link adding one whose cubins hold no kernel."""
    second_targets = ["sm_75", "sm_90"]
    first = nvcc("handles-cuda13.o", "-c", *CUDA13, SOURCES / "handles.cu")
    second = nvcc("subroutines.o", "-c", *SUBROUTINES, SOURCES / "subroutines.cu")
    report = query(nvcc("two-fatbins", first, second))
    kernels = {k["demangled"].split("(")[0].removeprefix("void "): k for k in report["kernels"]}
    assert set(kernels) == {"a::t<int>", "s", "g", "divide", "shuffle"}
    for name, kernel in kernels.items():
        in_second = name in ("divide", "shuffle")
        targets, elsewhere = (second_targets, CUDA13_TARGETS) if in_second else (CUDA13_TARGETS, second_targets)
        assert sorted(d["target"] for d in kernel["device"]) == sorted(targets), name
        assert sorted(kernel["missing_targets"]) == sorted(elsewhere), name


_PTX_ENTRY = re.compile(r"\.entry\s+([\w$]+)\s*\(([^)]*)\)")
_PTX_PARAM = re.compile(r"\.param\s+(?:\.align\s+(\d+)\s+)?\.[a-z]+(\d+)\s+[\w$]+(?:\[(\d+)\])?")


def ptx_params(ptx: str) -> dict[str, list[tuple[int, int]]]:
    """(size, offset) of each entry's parameters, as the PTX declares them:
    each at the next multiple of its alignment."""
    entries = {}
    for name, declarations in _PTX_ENTRY.findall(ptx):
        params, end = [], 0
        for align, bits, count in _PTX_PARAM.findall(declarations):
            size = int(count) if count else int(bits) // 8
            offset = -(-end // int(align or size)) * int(align or size)
            params.append((size, offset))
            end = offset + size
        entries[name] = params
    return entries


@pytest.mark.parametrize("source", ["cuda_query/handles.cu", "containers/kernels.cu"])
def test_kernel_arguments_are_the_parameters_the_ptx_declares(nvcc, source):
    stem = Path(source).stem
    program = nvcc(f"{stem}-args.o", "-c", *CUDA13, "--keep", "--keep-dir", nvcc.root, TEST_PROGRAMS / source)
    report = query(program)
    expected = ptx_params((nvcc.root / f"{stem}.compute_90.ptx").read_text())
    assert expected and set(expected) == {k["name"] for k in report["kernels"]}
    for kernel in report["kernels"]:
        assert [(a["size"], a["offset"]) for a in kernel["args"]] == expected[kernel["name"]], kernel["name"]
        assert {(a["name"], a["value_kind"]) for a in kernel["args"]} <= {(None, "by_value")}
        # The cubin says no types: they are the demangled name's parameters (none for a C name).
        signature = parameter_types(kernel["demangled"])
        assert [a["type"] for a in kernel["args"]] == (signature or [None] * len(kernel["args"])), kernel["name"]


def test_arguments_of_g_float_pointer_and_int(nvcc):
    report = query(handles_program(nvcc, "cuda12"))
    (g,) = [k for k in report["kernels"] if k["demangled"] == "g(float*, int)"]
    assert [(a["size"], a["offset"]) for a in g["args"]] == [(8, 0), (4, 8)]


def host_functions(path: Path) -> dict[int, set[str]]:
    """Address -> names of the FUNC symbols of a host file (pyelftools)."""
    with path.open("rb") as stream:
        table = ELFFile(stream).get_section_by_name(".symtab")
        found: dict[int, set[str]] = {}
        for symbol in table.iter_symbols():
            if symbol["st_info"]["type"] == "STT_FUNC" and symbol["st_shndx"] != "SHN_UNDEF":
                found.setdefault(symbol["st_value"], set()).add(symbol.name)
    return found


@pytest.mark.parametrize("style", BUILDS)
def test_handles_are_what_the_registration_code_registers(nvcc, style):
    program = handles_program(nvcc, style)
    report = query(program)
    kernels = {k["name"]: k for k in report["kernels"]}
    assert set(kernels) == set(STUBS)
    registered = elf.registered_functions(program)  # objdump's reading of each __cudaRegisterFunction call
    assert registered.keys() == kernels.keys()
    functions = host_functions(program)
    main = elf.check_output([elf.OBJDUMP, "-d", "--no-show-raw-insn", "-w", "--disassemble=main", program])
    launched = {int(address, 16) for address in _LAUNCH_SITE.findall(main)}
    for name, kernel in kernels.items():
        handle, stub = kernel["handle"], kernel["stub"]
        assert (handle["symbol"], handle["kind"]) == (HANDLES[style][name], "function"), name
        assert handle["address"] == registered[name] and handle["symbol"] in functions[handle["address"]]
        assert handle["address"] in launched, f"main neither calls {handle['symbol']} nor takes its address"
        assert stub["symbol"] == STUBS[name] and stub["symbol"] in functions[stub["address"]]
    roles = {s["symbol"]: (s["role"], s["kernel"]) for s in report["host_symbols"]}
    for name, kernel in kernels.items():
        assert roles[kernel["handle"]["symbol"]] == ("kernel-handle", name)
        assert roles[kernel["stub"]["symbol"]] == ("kernel-stub", name)


def test_handles_in_an_object_are_those_of_the_program(nvcc):
    """In a relocatable object the registration code's relocations name the
    handles and the name strings."""
    report = query(nvcc("handles-cuda13.o", "-c", *CUDA13, SOURCES / "handles.cu"))
    assert {k["name"]: (k["handle"]["symbol"], k["handle"]["kind"]) for k in report["kernels"]} == {
        name: (handle, "function") for name, handle in HANDLES["cuda13"].items()
    }


@pytest.mark.parametrize(
    "flags",
    [
        ["-Xcompiler", "-O2"],
        ["-Xcompiler", "-fno-pie", "-Xlinker", "-no-pie"],
        ["-shared", "-Xcompiler", "-fPIC,-fno-plt", "-cudart", "shared"],
    ],
    ids=["optimised", "not-pie", "library-through-got"],
)
def test_handles_whatever_code_loads_and_calls_them(nvcc, flags):
    """Loads from the GOT or of an immediate, calls through the PLT or the GOT."""
    program = nvcc(f"handles-{'-'.join(flags).replace(',', '')}", "-arch=sm_90", *flags, SOURCES / "handles.cu")
    report = query(program)
    registered = elf.registered_functions(program)
    assert {k["name"]: k["handle"]["address"] for k in report["kernels"]} == registered
    assert {k["name"]: k["handle"]["symbol"] for k in report["kernels"]} == HANDLES["cuda13"]
