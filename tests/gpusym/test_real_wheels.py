"""``gpusym query`` on real libraries from PyPI: CuPy's ROCm wheel (HIP
offload bundles in ``.hip_fatbin``) and its CUDA 12 and CUDA 13 wheels (nvcc
fatbins in ``.nv_fatbin``), checked against outside opinions: LLVM 19's
objcopy, offload bundler and nm, binutils' nm, objdump and c++filt,
pyelftools, and a fatbin header reader written here.

Each wheel is downloaded once (pinned versions, see real_binaries/wheels.py) into
``$GPUSYM_CACHE_DIR/wheels`` (default ``~/.cache/gpusym/wheels``) and reused;
without network the tests skip, saying why.  The libraries read:
cupy/random/_generator_api and cupy/cuda/cub of the ROCm wheel (11 and
153 MB, 9 gfx targets, 48 and 1,388 kernels), and those and cupy/cuda/thrust
of the CUDA 12 wheel (13, 48 and 79 MB, 12 cubins and a PTX each, all LZ4-
compressed) and of the CUDA 13 wheel (9, 15 and 21 MB, 7 cubins and a PTX
each); and JAX's ROCm plugin, xla_rocm_plugin.so (438 MiB: 45 zstd-
compressed bundles of 27 targets, 1,215 code objects), whose bundles are
inflated here by real_binaries/wheels.py's own reader; about 90 s once downloaded.
For the demangled names, also the largest GPU libraries of
transformer-engine-cu13 (libtransformer_engine.so, 15,044 kernels for 11
targets) and jax-rocm7-pjrt (xla_rocm_plugin.so again, 27,611 kernels for
27 targets): about 2 minutes and 8 GB more.

Deselect them with ``-k 'not real_wheels'``, or skip them with
``GPUSYM_REAL_WHEELS=0``.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import struct
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import elf_oracles
import pytest
from conftest import describe, run, run_gpusym

from real_binaries import wheels

pytestmark = [pytest.mark.toolchain, pytest.mark.slow]

OBJCOPY, BUNDLER, LLVM_NM, NM, CXXFILT = "llvm-objcopy-19", "clang-offload-bundler-19", "llvm-nm-19", "nm", "c++filt"
LLVM_CXXFILT = elf_oracles.LLVM_CXXFILT
#: The libraries read: every one with GPU code in the pinned wheels, except
#: ROCm's thrust (80 MB, built the same way as cub).
ROCM_LIBRARIES = ["cupy/random/_generator_api", "cupy/cuda/cub"]
CUDA_LIBRARIES = [
    (wheel, library)
    for wheel in (wheels.CUPY_CUDA, wheels.CUPY_CUDA13)
    for library in ("cupy/random/_generator_api", "cupy/cuda/cub", "cupy/cuda/thrust")
]
SUFFIX = ".cpython-311-x86_64-linux-gnu.so"
SHOWN = 10  # items of a difference printed

if os.environ.get("GPUSYM_REAL_WHEELS", "1") == "0":
    pytest.skip("GPUSYM_REAL_WHEELS=0: the real-wheel tests are turned off", allow_module_level=True)


# ---- helpers ----


def assert_same(reported: set, expected: set, what: str) -> None:
    """Exact set equality, failing with the first SHOWN items of each side of the difference."""
    if reported == expected:
        return
    missing, extra = sorted(expected - reported), sorted(reported - expected)
    lines = [f"{what}: gpusym reports {len(reported)}, the oracle {len(expected)}"]
    for items, where in ((missing, "missing from gpusym's report"), (extra, "reported by gpusym only")):
        if items:
            lines += [f"  {len(items)} {where} (first {SHOWN}):"] + [f"    {item}" for item in items[:SHOWN]]
    pytest.fail("\n".join(lines), pytrace=False)


def tool_output(command: list[str | Path], *, stdin: str | None = None) -> str:
    result = subprocess.run([str(c) for c in command], input=stdin, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, describe(result)
    return result.stdout


@dataclass(frozen=True)
class NmSymbol:
    name: str
    value: int
    size: int
    type: str  # FUNC, OBJECT, NOTYPE...


def nm_symbols(nm: str, path: Path) -> dict[str, NmSymbol]:
    """Defined symbols by name from ``nm -f sysv`` (binutils' or LLVM's)."""
    symbols = {}
    for line in tool_output([nm, "-f", "sysv", path]).splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 7 and parts[1] and parts[2] not in ("U", "w", "v"):
            symbols.setdefault(parts[0], NmSymbol(parts[0], int(parts[1], 16), int(parts[4] or "0", 16), parts[3]))
    return symbols


def demangle_all(names: list[str]) -> dict[str, str]:
    """c++filt's reading of each name, one process for all."""
    output = tool_output([CXXFILT], stdin="".join(f"{n}\n" for n in names)).splitlines()
    assert len(output) == len(names), "c++filt answered a different number of lines"
    return dict(zip(names, output))


def fetch(wheel, section: str, member: str) -> Path:
    try:
        return wheels.library(wheel, section, member + SUFFIX)[1]
    except wheels.Unavailable as error:
        pytest.skip(f"cannot download {wheel.package}: {error}")


_reports: dict[Path, dict] = {}


def gpusym_report(library: Path) -> dict:
    """``gpusym query --json --ptx LIB``'s one binary (every code object
    read), read once per library."""
    if library not in _reports:
        result = run_gpusym("query", "--json", "--ptx", library)
        assert result.returncode == 0, describe(result)
        report = json.loads(result.stdout)
        assert report["errors"] == [], report["errors"]
        (_reports[library],) = report["binaries"]
    return _reports[library]


def require_tools(*tools: str) -> None:
    missing = [t for t in tools if shutil.which(t) is None]
    if missing:
        pytest.skip(f"not installed: {', '.join(missing)} (make setup installs LLVM 19)")


# ---- ROCm: the offload bundler and llvm-nm ----


@dataclass
class RocmOracle:
    targets: list[str]  # of the bundle's device entries, in the bundler's order
    kernels: dict[str, dict[str, NmSymbol]]  # target -> kernel name -> its symbol
    not_unbundled: list[str] = field(default_factory=list)  # targets clang-offload-bundler-19 refuses


_rocm: dict[Path, RocmOracle] = {}


def rocm_oracle(library: Path, workdir: Path) -> RocmOracle:
    """Kernels per target as LLVM 19 sees them: FUNC symbols with a ``.kd``
    descriptor in each code object the bundler unbundles; the entries it
    refuses (processors it does not know) are sliced from the bundle by
    real_binaries/wheels.py's reader and read with llvm-nm all the same."""
    if library in _rocm:
        return _rocm[library]
    workdir.mkdir(parents=True, exist_ok=True)
    bundle = workdir / "hip_fatbin"
    tool_output([OBJCOPY, f"--dump-section=.hip_fatbin={bundle}", library, os.devnull])
    listed = tool_output([BUNDLER, "--list", "--type=o", f"--input={bundle}"]).split()
    ids = [i for i in listed if not i.startswith("host-")]
    oracle = RocmOracle([i.split("-", 5)[5] for i in ids], {})
    sliced = None
    for bundle_id, target in zip(ids, oracle.targets):
        code_object = workdir / f"{target.replace(':', '_')}.co"
        unbundled = run(
            [
                BUNDLER,
                "--unbundle",
                "--type=o",
                f"--input={bundle}",
                f"--targets={bundle_id}",
                f"--output={code_object}",
            ]
        )
        if unbundled.returncode != 0:
            oracle.not_unbundled.append(target)
            sliced = sliced or {e.id: e.data for e in wheels.bundle_entries(bundle.read_bytes())}
            code_object.write_bytes(sliced[bundle_id])
        symbols = nm_symbols(LLVM_NM, code_object)
        oracle.kernels[target] = {n: s for n, s in symbols.items() if s.type == "FUNC" and f"{n}.kd" in symbols}
        code_object.unlink()
    bundle.unlink()
    _rocm[library] = oracle
    return oracle


@pytest.fixture(params=ROCM_LIBRARIES, scope="module")
def rocm_library(request) -> Path:
    require_tools(OBJCOPY, BUNDLER, LLVM_NM, NM, CXXFILT)
    return fetch(wheels.CUPY_ROCM, ".hip_fatbin", request.param)


@pytest.fixture
def rocm(rocm_library, tmp_path_factory) -> tuple[dict, RocmOracle]:
    return gpusym_report(rocm_library), rocm_oracle(rocm_library, tmp_path_factory.mktemp("rocm"))


def test_rocm_code_objects_are_the_bundle_entries(rocm):
    report, oracle = rocm
    reported = [c["target"] for c in report["code_objects"]]
    assert sorted(reported) == sorted(oracle.targets)  # the bundler lists them in an order of its own
    assert {(c["triple"], c["format"]) for c in report["code_objects"]} == {("amdgcn-amd-amdhsa", "elf")}
    assert report["notes"] == []


def test_rocm_every_kernel_instance_llvm_sees_is_reported(rocm):
    report, oracle = rocm
    expected = {(t, k) for t, kernels in oracle.kernels.items() for k in kernels}
    assert expected, "the oracle found no kernel at all"
    instances = [(d, k["name"]) for k in report["kernels"] for d in k["device"]]
    assert all(d["symbol"] == name for d, name in instances), "a device instance named unlike its kernel"
    assert_same({(d["target"], d["symbol"]) for d, _ in instances}, expected, "(target, kernel) pairs")
    expected_places = {(t, k, s.value, s.size) for t, kernels in oracle.kernels.items() for k, s in kernels.items()}
    reported_places = {(d["target"], d["symbol"], d["address"], d["size"]) for d, _ in instances}
    assert_same(reported_places, expected_places, "(target, kernel, address, size) of the instances")


def test_rocm_targets_the_bundler_cannot_unbundle_are_listed_with_their_kernels(rocm):
    report, oracle = rocm
    if not oracle.not_unbundled:
        pytest.skip(f"{BUNDLER} unbundles every target of this library")
    listed = {c["target"] for c in report["code_objects"]}
    assert set(oracle.not_unbundled) <= listed
    for target in oracle.not_unbundled:
        reported = {d["symbol"] for k in report["kernels"] for d in k["device"] if d["target"] == target}
        assert_same(reported, set(oracle.kernels[target]), f"kernels of {target} (not unbundled by {BUNDLER})")
        assert reported, f"no kernel in {target}"


def test_rocm_stubs_are_the_device_stub_functions_nm_lists(rocm_library, rocm):
    report, _ = rocm
    host = nm_symbols(NM, rocm_library)
    stubs = {n: s for n, s in host.items() if s.type == "FUNC" and "__device_stub__" in n}
    assert stubs, "nm lists no __device_stub__ function"
    reported = {k["stub"]["symbol"]: k for k in report["kernels"] if k["stub"]}
    assert_same(set(reported), set(stubs), "kernel stubs")
    assert_same(
        {(n, k["stub"]["address"]) for n, k in reported.items()},
        {(n, s.value) for n, s in stubs.items()},
        "(stub, address)",
    )
    # clang's stub is the kernel's name with __device_stub__ before its identifier.
    names = demangle_all(sorted(set(reported) | {k["name"] for k in reported.values()}))
    unstubbed = {(names[n].replace("__device_stub__", "", 1), names[k["name"]]) for n, k in reported.items()}
    expected = {(names[k["name"]],) * 2 for k in reported.values()}
    assert_same(unstubbed, expected, "(demangled stub without __device_stub__, demangled kernel)")


def test_rocm_handles_are_the_variables_named_like_kernels(rocm_library, rocm):
    report, oracle = rocm
    host = nm_symbols(NM, rocm_library)
    kernel_names = {k for kernels in oracle.kernels.values() for k in kernels}
    handles = {k["handle"]["symbol"]: k for k in report["kernels"] if k["handle"]}
    assert_same(
        {(n, k["handle"]["kind"], k["handle"]["address"]) for n, k in handles.items()},
        {(n, "variable", host[n].value) for n in handles if n in host and host[n].type == "OBJECT"},
        "handles that are OBJECT symbols of that name and address",
    )
    assert_same(
        set(handles),
        {n for n, s in host.items() if s.type == "OBJECT" and n in kernel_names},
        "host variables named like a kernel",
    )
    assert all(k["handle"]["symbol"] == k["name"] for k in handles.values())


def test_rocm_demangled_names_are_llvm_cxxfilts(rocm):
    report, _ = rocm
    names = elf_oracles.demangle([k["name"] for k in report["kernels"]], LLVM_CXXFILT)
    assert_same({(k["name"], k["demangled"]) for k in report["kernels"]}, set(names.items()), "(kernel, demangled)")


# ---- names as llvm-cxxfilt prints them, from the largest GPU libraries ----


@pytest.fixture(
    params=[(wheels.TRANSFORMER_ENGINE_CU13, ".nv_fatbin"), (wheels.JAX_ROCM7_PJRT, ".hip_fatbin")],
    ids=lambda param: param[0].package,
    scope="module",
)
def named_library(request) -> Path:
    require_tools(LLVM_CXXFILT)
    wheel, section = request.param
    try:
        return wheels.library(wheel, section, "largest")[1]
    except wheels.Unavailable as error:
        pytest.skip(f"cannot download {wheel.package}: {error}")


def test_every_name_is_demangled_as_llvm_cxxfilt_demangles_it(named_library):
    """Every kernel, device function, device variable and GPU-related host
    symbol of transformer-engine-cu13's library (cute and cutlass templates
    built by nvcc 13) and of jax-rocm7-pjrt's (XLA built by hipcc, _Float16
    kernels among them): gpusym query's demangled name is llvm-cxxfilt-19's,
    to the character, and so is the mangled name where that gives up."""
    report = gpusym_report(named_library)
    entities = [*report["kernels"], *report["device_functions"], *report["device_variables"]]
    names = {e["name"]: e["demangled"] for e in entities} | {
        s["symbol"]: s["demangled"] for s in report["host_symbols"]
    }
    names = {name: text for name, text in names.items() if name.startswith("_Z")}
    assert len(names) > 40_000
    expected = elf_oracles.demangle(sorted(names), LLVM_CXXFILT)
    assert_same(set(names.items()), set(expected.items()), "(name, demangled)")


# ---- CUDA: a fatbin reader of our own, pyelftools for the cubins ----

_FATBIN = struct.Struct("<IHHQ")  # magic, version, header size, size of the entries
#: kind (1 PTX, 2 cubin), _, header size, payload size, compressed size, _, _, _, sm, _, _, flags, _, uncompressed size
_ENTRY = struct.Struct("<HHIQIIHHIIIQQQ")
_FLAGS_AT = 40  # offset of the flags in an entry header
_COMPRESSION = {0x2000: "lz4", 0x8000: "zstd", 0x1000: "unknown"}
_VARIANT = {0x100000: "a", 0x200000: "f"}  # sm_90a, sm_100f


@dataclass(frozen=True)
class FatbinEntry:
    kind: str  # cubin, ptx
    sm: int
    flags: int
    header: int  # file offset of the entry header
    offset: int  # file offset of the payload
    stored: int  # payload bytes as stored: the compressed size, or the padded size
    compression: str | None
    uncompressed: int

    @property
    def target(self) -> str:
        """As nvcc's -gencode names it: sm_90a, sm_100f, compute_120."""
        suffix = "".join(letter for bit, letter in _VARIANT.items() if self.flags & bit)
        return f"{'compute' if self.kind == 'ptx' else 'sm'}_{self.sm}{suffix}"


def fatbin_entries(library: Path) -> list[FatbinEntry]:
    """The cubin and PTX entries of the fatbins in the ``.nv_fatbin`` section."""
    start, size = wheels.describe_elf_sections(library)[".nv_fatbin"]
    with open(library, "rb") as stream:
        stream.seek(start)
        data = stream.read(size)
    entries, position = [], 0
    while (found := re.compile(rb"[^\0]").search(data, position)) is not None:
        magic, _, header_size, length = _FATBIN.unpack_from(data, found.start())
        assert magic == 0xBA55ED50, f"no fatbin at {start + found.start():#x}"
        cursor, position = found.start() + header_size, found.start() + header_size + length
        while cursor < position:
            fields = _ENTRY.unpack_from(data, cursor)
            kind, entry_size, padded, compressed, sm, flags, uncompressed = (fields[i] for i in (0, 2, 3, 4, 8, 11, 13))
            method = next((name for bit, name in _COMPRESSION.items() if flags & bit), None)
            if kind in (1, 2):
                header = start + cursor
                stored = compressed if method else padded
                kind_name = "ptx" if kind == 1 else "cubin"
                entries.append(
                    FatbinEntry(kind_name, sm, flags, header, header + entry_size, stored, method, uncompressed)
                )
            cursor += entry_size + padded
    return entries


def decoded(library: Path, entry: FatbinEntry) -> bytes | None:
    """The entry's payload, inflated; None when this test cannot inflate it."""
    with open(library, "rb") as stream:
        stream.seek(entry.offset)
        stored = stream.read(entry.stored)
    if entry.compression is None:
        return stored
    if entry.compression == "zstd":
        import zstandard

        return zstandard.ZstdDecompressor().decompress(stored, max_output_size=entry.uncompressed)
    if entry.compression == "lz4":
        try:
            import lz4.block
        except ImportError:
            return None
        return lz4.block.decompress(stored, uncompressed_size=entry.uncompressed)
    return None


def entry_kernels(payload: bytes, kind: str) -> set[str]:
    """Kernels of a cubin (defined FUNC symbols with the CUDA entry flag
    0x10 in st_other) or of PTX (``.entry``)."""
    if kind == "ptx":
        text = payload.decode(errors="replace")
        return set(re.findall(r"^\s*(?:\.(?:visible|weak|extern)\s+)*\.entry\s+([\w$]+)", text, re.M))
    from elftools.elf.elffile import ELFFile

    elf = ELFFile(io.BytesIO(payload))
    symtab = elf.get_section_by_name(".symtab")
    raw = symtab.data()
    kernels = set()
    for index, symbol in enumerate(symtab.iter_symbols()):
        other = raw[index * symtab["sh_entsize"] + 5]
        if symbol["st_info"]["type"] == "STT_FUNC" and symbol["st_shndx"] != "SHN_UNDEF" and symbol.name:
            if other & 0x10:
                kernels.add(symbol.name)
    return kernels


@pytest.fixture(
    params=CUDA_LIBRARIES, ids=[f"{w.package}-{name.rsplit('/', 1)[1]}" for w, name in CUDA_LIBRARIES], scope="module"
)
def cuda_library(request) -> Path:
    require_tools(NM, CXXFILT)
    return fetch(*request.param[:1], ".nv_fatbin", request.param[1])


_cuda: dict[Path, tuple[list[FatbinEntry], dict[int, set[str]]]] = {}


@pytest.fixture
def cuda(cuda_library) -> tuple[dict, list[FatbinEntry], dict[int, set[str]]]:
    """gpusym's report, the fatbin entries, and the kernels of each entry this test can inflate, by index."""
    if cuda_library not in _cuda:
        entries = fatbin_entries(cuda_library)
        kernels = {}
        for index, entry in enumerate(entries):
            payload = decoded(cuda_library, entry)
            if payload is not None:
                kernels[index] = entry_kernels(payload, entry.kind)
        _cuda[cuda_library] = entries, kernels
    return gpusym_report(cuda_library), *_cuda[cuda_library]


_ROW = re.compile(r"^  (?:yes|none) +\S+ +.*  \[(.*)\]$")
_COUNTED = re.compile(r"(all )?(\d+) targets")


def check_table_rows(library: Path, report: dict) -> None:
    """``--table``'s row of each kernel, in the report's order, names the
    targets the kernel has code for and, as missing, its missing_targets,
    never one of the former."""
    result = run_gpusym("query", "--table", "--ptx", library)
    assert result.returncode == 0, describe(result)
    rows = [match[1] for line in result.stdout.splitlines() if (match := _ROW.match(line))]
    assert len(rows) == len(report["kernels"])
    everywhere = {d["target"] for k in report["kernels"] for d in k["device"]}
    for kernel, device in zip(report["kernels"], rows):
        shown, _, missing = device.partition(" (missing: ")
        present = {d["target"] for d in kernel["device"]}
        assert (missing.removesuffix(")").split(", ") if missing else []) == kernel["missing_targets"], device
        assert not present & set(kernel["missing_targets"]), kernel["name"]
        if counted := _COUNTED.fullmatch(shown):
            assert int(counted[2]) == len(present) and (not counted[1] or present == everywhere), device
        elif present:
            assert shown.split(", ") == list(dict.fromkeys(d["target"] for d in kernel["device"])), device


def test_rocm_table_rows_agree_with_the_report(rocm_library, rocm):
    check_table_rows(rocm_library, rocm[0])


def test_cuda_table_rows_agree_with_the_report(cuda_library, cuda):
    check_table_rows(cuda_library, cuda[0])


def test_cuda_code_objects_are_the_fatbin_entries(cuda):
    report, entries, _ = cuda
    assert entries, "no cubin or PTX entry in .nv_fatbin"
    reported = [(c["target"], c["container"], c["offset"], c["size"], c["compressed"]) for c in report["code_objects"]]
    expected = [(e.target, "nv-fatbin", e.offset, e.stored, e.compression is not None) for e in entries]
    assert reported == expected
    formats = {"cubin": "elf", "ptx": "ptx"}
    for code_object, entry in zip(report["code_objects"], entries):
        assert code_object["format"] in (formats[entry.kind], "unknown"), (code_object, entry)


def test_cuda_kernels_of_each_readable_entry(cuda):
    report, entries, kernels = cuda
    readable = {c["index"] for c in report["code_objects"] if c["format"] != "unknown"}
    checked = sorted(readable & set(kernels))
    if not checked:
        pytest.skip("no entry both gpusym and this test can read")
    instances = [d for k in report["kernels"] for d in k["device"]]
    reported = {(d["code_object"], d["symbol"]) for d in instances if d["code_object"] in checked}
    expected = {(index, name) for index in checked for name in kernels[index]}
    assert_same(reported, expected, "(code object, kernel) pairs")
    for index in checked:
        assert kernels[index], f"entry {index} ({entries[index].target} {entries[index].kind}) has no kernel"


def test_cuda_entries_gpusym_cannot_read_are_compressed_and_without_symbols(cuda):
    report, entries, _ = cuda
    for code_object in report["code_objects"]:
        if code_object["format"] == "unknown":
            assert code_object["compressed"] and entries[code_object["index"]].compression is not None, code_object
            assert any(f"code object {code_object['index']} " in note for note in report["notes"]), report["notes"]
    unreadable = {c["index"] for c in report["code_objects"] if c["format"] == "unknown"}
    for group in ("kernels", "device_functions", "device_variables"):
        assert not [d for e in report[group] for d in e["device"] if d["code_object"] in unreadable]


def test_cuda_entry_compressed_in_an_unknown_format_is_listed_not_an_error(cuda_library, tmp_path):
    """The first cubin's compression flag changed to 0x1000 (a format nobody
    documents): that code object is listed, compressed, with no symbols; the
    others are read as before."""
    entries = fatbin_entries(cuda_library)
    index, entry = next((i, e) for i, e in enumerate(entries) if e.kind == "cubin" and e.compression)
    patched = tmp_path / cuda_library.name
    data = bytearray(cuda_library.read_bytes())
    (flags,) = struct.unpack_from("<Q", data, entry.header + _FLAGS_AT)
    struct.pack_into("<Q", data, entry.header + _FLAGS_AT, (flags & ~0xA000) | 0x1000)
    patched.write_bytes(data)
    result = run_gpusym("query", "--json", "--ptx", patched)
    assert result.returncode == 0, describe(result)
    report = json.loads(result.stdout)
    assert report["errors"] == []
    (binary,) = report["binaries"]
    code_object = binary["code_objects"][index]
    assert (code_object["format"], code_object["compressed"], code_object["target"]) == ("unknown", True, entry.target)
    assert not [d for k in binary["kernels"] for d in k["device"] if d["code_object"] == index]
    assert any(f"code object {index} " in note for note in binary["notes"]), binary["notes"]
    original = gpusym_report(cuda_library)

    def others(binary: dict) -> set[tuple[int, str]]:
        instances = [d for k in binary["kernels"] for d in k["device"]]
        return {(d["code_object"], d["symbol"]) for d in instances if d["code_object"] != index}

    assert_same(others(binary), others(original), "instances in the other code objects")


def test_cuda_stubs_map_to_kernels_found_in_the_cubins(cuda_library, cuda):
    report, entries, kernels = cuda
    host = nm_symbols(NM, cuda_library)
    # GCC's pieces of a stub (``.cold.72``) are not stubs of their own.
    stubs = {n for n, s in host.items() if s.type == "FUNC" and "__device_stub__" in n and "." not in n}
    reported = {k["stub"]["symbol"]: k for k in report["kernels"] if k["stub"]}
    assert_same(set(reported), stubs, "kernel stubs")
    assert_same(
        {(n, k["stub"]["address"]) for n, k in reported.items()}, {(n, host[n].value) for n in stubs}, "(stub, address)"
    )
    # nvcc's stub: _Z[L]<length>__device_stub__<the kernel's name without its leading _><parameters>.
    pattern = re.compile(r"_ZL?(\d+)__device_stub__")
    named = set()
    for name, kernel in reported.items():
        match = pattern.match(name)
        assert match, f"not an nvcc stub name: {name}"
        identifier = name[match.end() : match.end() + int(match.group(1)) - len("__device_stub__")]
        named.add((name, kernel["name"] if ("_" + identifier).startswith(kernel["name"]) else f"not {kernel['name']}"))
    assert_same(named, {(n, k["name"]) for n, k in reported.items()}, "(stub, kernel its name starts with)")
    cubin_kernels = {name for index, names in kernels.items() if entries[index].kind == "cubin" for name in names}
    if not cubin_kernels:
        pytest.skip("this test can inflate no cubin of this library")
    assert_same(
        {k["name"] for k in reported.values()} & cubin_kernels,
        {k["name"] for k in reported.values()},
        "kernels of stubs found in the cubins",
    )


def functions_by_address(library: Path) -> dict[int, set[str]]:
    """Address -> names of the defined functions ``nm -f sysv`` lists (local
    ones of one name may be many)."""
    found: dict[int, set[str]] = {}
    for line in tool_output([NM, "-f", "sysv", library]).splitlines():
        parts = [p.strip() for p in line.split("|")]
        if len(parts) == 7 and parts[1] and parts[3] == "FUNC" and parts[2] not in ("U", "w", "v"):
            found.setdefault(int(parts[1], 16), set()).add(parts[0])
    return found


def test_cuda_handles_are_the_functions_the_registration_code_registers(cuda_library, cuda):
    """objdump's reading of each call to __cudaRegisterFunction (in
    tests/elf_oracles.py) names the same address for every kernel; a
    function nm lists there has the handle's name; and a host function named
    like a kernel is that kernel's handle (static kernels' and, from CUDA 13,
    template instances' have other names: ``_ZL...``, ``_ZN3cub...L...``)."""
    require_tools(elf_oracles.OBJDUMP)
    report, _, kernels = cuda
    handles = {k["name"]: k["handle"] for k in report["kernels"] if k["handle"]}
    registered = elf_oracles.registered_functions(cuda_library)
    assert registered, "objdump finds no call to __cudaRegisterFunction"
    assert_same({(n, h["address"]) for n, h in handles.items()}, set(registered.items()), "(kernel, handle address)")
    functions = functions_by_address(cuda_library)
    assert_same(
        {(n, h["symbol"], h["kind"]) for n, h in handles.items()},
        {(n, h["symbol"], "function") for n, h in handles.items() if h["symbol"] in functions.get(h["address"], ())},
        "(kernel, handle, kind) with a function of that name at that address",
    )
    kernel_names = {name for names in kernels.values() for name in names}
    if len(kernels) == len(report["code_objects"]):  # this test read every entry: every kernel is known
        named = {(n, n) for names in functions.values() for n in names if n in kernel_names}
        assert_same(
            {(n, h["symbol"]) for n, h in handles.items() if (h["symbol"], h["symbol"]) in named},
            named,
            "host functions named like a kernel, and the kernel whose handle they are",
        )


# ---- JAX's ROCm plugin: compressed bundles, inflated without gpusym ----


@pytest.fixture(scope="module")
def jax_library() -> Path:
    try:
        return wheels.library(wheels.JAX_ROCM7_PJRT, ".hip_fatbin", "largest")[1]
    except wheels.Unavailable as error:
        pytest.skip(f"cannot download {wheels.JAX_ROCM7_PJRT.package}: {error}")


def compressed_bundles(library: Path):
    """(file offset, bytes) of each compressed bundle in ``.hip_fatbin``
    (versions 2 and 3 record their size), one at a time."""
    start, size = wheels.describe_elf_sections(library)[".hip_fatbin"]
    with open(library, "rb") as stream:
        stream.seek(start)
        data = stream.read(size)
    position = 0
    while (found := re.compile(rb"CCOB").search(data, position)) is not None:
        version = struct.unpack_from("<H", data, found.start() + 4)[0]
        assert version in (2, 3), f"compressed bundle version {version} at {start + found.start():#x}"
        total = struct.unpack_from("<Q" if version == 3 else "<I", data, found.start() + 8)[0]
        yield start + found.start(), data[found.start() : found.start() + total]
        position = found.start() + total


def amdgpu_kernels(image: bytes) -> set[tuple[str, int, int]]:
    """(name, address, size) of the FUNC symbols with a ``.kd`` descriptor, by pyelftools."""
    from elftools.elf.elffile import ELFFile

    symbols = list(ELFFile(io.BytesIO(image)).get_section_by_name(".symtab").iter_symbols())
    descriptors = {s.name for s in symbols}
    return {
        (s.name, s["st_value"], s["st_size"])
        for s in symbols
        if s["st_info"]["type"] == "STT_FUNC" and s["st_shndx"] != "SHN_UNDEF" and f"{s.name}.kd" in descriptors
    }


def test_jax_code_objects_and_one_targets_kernels_are_the_inflated_bundles(jax_library):
    """Every entry of every compressed bundle is a code object, in order, at
    its bundle's offset; the kernels gpusym reports for one target are, in
    each of its 45 code objects, those pyelftools finds there."""
    result = run_gpusym("query", "--json", "--role", "device-kernel", "--kernel", "^$", jax_library)
    assert result.returncode == 0, describe(result)
    (binary,) = json.loads(result.stdout)["binaries"]
    code_objects = binary["code_objects"]
    target = min(c["target"] for c in code_objects)
    expected, kernels = [], {}
    for offset, bundle in compressed_bundles(jax_library):
        for entry in wheels.bundle_entries(bundle):
            if entry.target:
                if entry.target == target:
                    kernels[len(expected)] = amdgpu_kernels(bytes(entry.data))
                expected.append((offset, entry.target, len(entry.data), "compressed-offload-bundle", True))
    reported = [(c["offset"], c["target"], c["size"], c["container"], c["compressed"]) for c in code_objects]
    assert reported == expected
    assert binary["notes"] == []
    result = run_gpusym("query", "--jsonl", "--role", "device-kernel", "--target", target, jax_library)
    assert result.returncode == 0, describe(result)
    instances = [d for line in result.stdout.splitlines() for d in json.loads(line)["device"]]
    assert_same(
        {(d["code_object"], d["symbol"], d["address"], d["size"]) for d in instances},
        {(index, *kernel) for index, found in kernels.items() for kernel in found},
        f"(code object, kernel, address, size) of {target}",
    )


def test_download_failure_is_a_reason_not_a_crash(tmp_path, monkeypatch):
    """No index to be reached (a closed local port, so nothing is asked of
    PyPI): Unavailable with pip's last words, and nothing left in the cache."""
    monkeypatch.setenv(wheels.CACHE_ENV, str(tmp_path))
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # no configured mirrors either
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")
    for variable in ("PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX"):
        monkeypatch.delenv(variable, raising=False)
    with pytest.raises(wheels.Unavailable, match=r"^pip download cupy-rocm-7-0==14\.2\.0 failed: \S"):
        wheels.download(wheels.CUPY_ROCM)
    assert list((tmp_path / "wheels").iterdir()) == []
