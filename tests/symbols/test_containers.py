"""The container parsers on what the real toolchains write: clang 19's HIP
offload bundles (plain and ``--offload-compress``ed, and compressed bundles
of every version built here from a real one), the new offload driver's
OffloadBinaries and offloading-entry tables, and nvcc's fatbins (plain,
``-Xfatbin -compress-all``ed, debug).  Sources: tests/programs/containers.

Oracles: clang-offload-bundler-19, llvm-objdump-19 ``--offloading``,
llvm-readelf-19, nvcc's own intermediate files (``--keep``); cuobjdump is not
part of the CUDA installation these tests were written against.
"""

from __future__ import annotations

import hashlib
import re
import struct
from pathlib import Path

import elf_oracles as elf
import msgpack
import pytest
from conftest import describe, run
from container_builds import (
    ARCHS,
    KERNELS,
    NEW_DRIVER,
    OTHER_KERNELS,
    Builds,
    builds,  # noqa: F401 (fixture)
    cuda,  # noqa: F401 (fixture)
    new_driver_object,
    new_driver_program,
    section,
)
from elftools.elf.elffile import ELFFile

from symbols import amdgpu_metadata, compressed_bundle, nv_fatbin, offload_binary, offload_bundle
from symbols.errors import FormatError

pytestmark = [pytest.mark.toolchain]

HIP_IDS = sorted([offload_bundle.HOST_ID] + [offload_bundle.amdgpu_id(arch) for arch in ARCHS])
EM_AMDGPU, EM_CUDA = 224, 190
LIMIT = 1 << 26


def section_address(path: Path, name: str) -> int:
    with path.open("rb") as file:
        return ELFFile(file).get_section_by_name(name)["sh_addr"]


def written(path: Path, data: bytes | memoryview) -> Path:
    path.write_bytes(bytes(data))
    return path


def machine(image: bytes) -> int:
    assert image[:4] == b"\x7fELF", "not an ELF file"
    return struct.unpack_from("<H", image, 18)[0]


def metadata_desc(code_object: Path) -> bytes:
    with code_object.open("rb") as file:
        for elf_section in ELFFile(file).iter_sections():
            if elf_section["sh_type"] == "SHT_NOTE":
                for note in elf_section.iter_notes():
                    owner, note_type = note["n_name"], note["n_type"]
                    if (owner, note_type) == (amdgpu_metadata.NOTE_OWNER, amdgpu_metadata.NT_AMDGPU_METADATA):
                        return note["n_desc"]
    raise AssertionError(f"{code_object} has no AMDGPU metadata note")


def check_code_object(image: bytes, arch: str, path: Path, kernels: list[str]) -> list[amdgpu_metadata.AmdgpuKernel]:
    """`image` is an AMDGPU code object for `arch` whose metadata lists
    `kernels`, each with the kernel descriptor llvm-readelf sees."""
    assert machine(image) == EM_AMDGPU
    written(path, image)
    desc = metadata_desc(path)
    assert amdgpu_metadata.target(desc) == arch
    found = amdgpu_metadata.kernels(desc)
    assert sorted(kernel.name for kernel in found) == sorted(kernels)
    symbols = elf.symbols(path)
    descriptors = sorted(name for name, symbol in symbols.items() if name.endswith(".kd") and symbol.type == "OBJECT")
    assert sorted(kernel.symbol for kernel in found) == descriptors == sorted(name + ".kd" for name in kernels)
    return found


def bundle_entry(bundle: bytes | memoryview, arch: str, kind: str = "hipv4") -> bytes:
    """The code object for `arch` (clang -c bundles ``hipv4``, the new
    driver's linker wrapper ``hip`` entries)."""
    (entry,) = [e for e in offload_bundle.read_entries(bundle) if e.id == f"{kind}-amdgcn-amd-amdhsa--{arch}"]
    return bytes(bundle[entry.offset : entry.offset + entry.size])


def uncompressed(bundle: bytes | memoryview) -> bytes | memoryview:
    return compressed_bundle.decompress(bundle, max_output=LIMIT) if compressed_bundle.is_compressed(bundle) else bundle


def hip_fatbin(builds: Builds, compressed: bool) -> bytes:
    flags = ("--offload-compress",) if compressed else ()
    return section(builds.hip(f"kernels{'-compressed' * compressed}.o", "kernels.hip", *flags), ".hip_fatbin")


# clang 19's HIP offload bundles.


def test_clang_19_compresses_with_version_2_and_zstd(builds):
    data = hip_fatbin(builds, compressed=True)
    assert compressed_bundle.is_compressed(data)
    header = compressed_bundle.parse_header(data)
    assert (header.version, compressed_bundle.METHODS[header.method]) == (2, "zstd")
    assert (header.total_size, header.header_size) == (len(data), 24)
    bundle = compressed_bundle.decompress(data, max_output=LIMIT)
    assert header.uncompressed_size == len(bundle)
    assert header.hash == int.from_bytes(hashlib.md5(bundle).digest()[:8], "little")


def test_decompressed_bundle_is_what_the_bundler_unbundles(builds):
    path = written(builds.root / "compressed.bundle", hip_fatbin(builds, compressed=True))
    bundle = compressed_bundle.decompress(path.read_bytes(), max_output=LIMIT)
    assert sorted(entry.id for entry in offload_bundle.read_entries(bundle)) == sorted(elf.bundle_ids(path)) == HIP_IDS
    for arch in ARCHS:
        out = builds.root / f"unbundled-{arch}.co"
        result = elf.unbundle(path, offload_bundle.amdgpu_id(arch), out)
        assert result.returncode == 0, result.stderr
        assert bundle_entry(bundle, arch) == out.read_bytes()


@pytest.mark.parametrize("compressed", [False, True], ids=["plain", "compressed"])
@pytest.mark.parametrize("arch", ARCHS)
def test_code_objects_carry_their_kernels(builds, arch, compressed):
    bundle = uncompressed(hip_fatbin(builds, compressed))
    found = check_code_object(bundle_entry(bundle, arch), arch, builds.root / f"{arch}-{compressed}.co", KERNELS)
    assert {kernel.wavefront_size for kernel in found} == {64}


def test_kernel_metadata(builds):
    """Arguments and segment sizes of each kernel, from the source."""
    path = builds.hip("kernels-arg-names.o", "kernels.hip", "-fhip-kernel-arg-name")
    image = bundle_entry(section(path, ".hip_fatbin"), "gfx90a")
    by_name = {kernel.name: kernel for kernel in check_code_object(image, "gfx90a", builds.root / "names.co", KERNELS)}
    explicit = {
        name: [
            (arg.name, arg.type_name, arg.size, arg.offset, arg.value_kind, arg.address_space)
            for arg in kernel.args
            if not arg.value_kind.startswith("hidden_")
        ]
        for name, kernel in by_name.items()
    }
    assert explicit == {
        "_Z4axpyfPKfPfi": [
            ("a", None, 4, 0, "by_value", None),
            ("x", None, 8, 8, "global_buffer", "global"),
            ("y", None, 8, 16, "global_buffer", "global"),
            ("n", None, 4, 24, "by_value", None),
        ],
        "_Z5apply6ParamsPf": [("p", None, 16, 0, "by_value", None), ("out", None, 8, 16, "global_buffer", "global")],
        "_Z4fillIiEvPT_S0_j": [
            ("out", None, 8, 0, "global_buffer", "global"),
            ("value", None, 4, 8, "by_value", None),
            ("count", None, 4, 12, "by_value", None),
        ],
        "_Z4fillIdEvPT_S0_j": [
            ("out", None, 8, 0, "global_buffer", "global"),
            ("value", None, 8, 8, "by_value", None),
            ("count", None, 4, 16, "by_value", None),
        ],
    }
    assert {name: kernel.group_segment_fixed_size for name, kernel in by_name.items()} == {
        name: 256 if name == "_Z5apply6ParamsPf" else 0
        for name in KERNELS  # apply's tile: 64 floats
    }
    for kernel in by_name.values():
        last = max(arg.offset + arg.size for arg in kernel.args)
        assert kernel.kernarg_segment_size >= last
        assert kernel.max_flat_workgroup_size == 1024
        assert kernel.sgpr_count > 0 and kernel.vgpr_count > 0


def test_optional_metadata_fields():
    desc = msgpack.packb(
        {
            "amdhsa.target": "amdgcn-amd-amdhsa--gfx942:sramecc+:xnack-",
            "amdhsa.kernels": [
                {
                    ".name": "k",
                    ".symbol": "k.kd",
                    ".kernarg_segment_size": 8,
                    ".group_segment_fixed_size": 0,
                    ".private_segment_fixed_size": 16,
                    ".max_flat_workgroup_size": 256,
                    ".wavefront_size": 64,
                    ".sgpr_count": 8,
                    ".vgpr_count": 2,
                    ".args": [{".size": 4, ".offset": 0, ".value_kind": "by_value", ".type_name": "int", ".name": "n"}],
                }
            ],
        }
    )
    (kernel,) = amdgpu_metadata.kernels(desc)
    assert kernel.args == [amdgpu_metadata.KernelArg("n", "int", 4, 0, "by_value", None)]
    assert (kernel.private_segment_fixed_size, kernel.max_flat_workgroup_size) == (16, 256)
    assert amdgpu_metadata.target(desc) == "gfx942:sramecc+:xnack-"
    with pytest.raises(FormatError, match="vgpr_count"):
        amdgpu_metadata.kernels(desc.replace(b"vgpr_count", b"vgpr_other"))


@pytest.mark.parametrize("version", [1, 2, 3])
@pytest.mark.parametrize("method", ["zlib", "zstd"])
def test_compressed_bundles_of_every_version(builds, version, method):
    """Bundles compressed here from clang's plain bundle, laid out as
    OffloadBundler.cpp documents; clang-offload-bundler-19 reads versions 1
    and 2 (version 3 came with a later LLVM)."""
    plain = hip_fatbin(builds, compressed=False)
    data = compressed_bundle.write(plain, version, method)
    header = compressed_bundle.parse_header(data)
    assert (header.version, compressed_bundle.METHODS[header.method]) == (version, method)
    assert header.total_size == (None if version == 1 else len(data))
    assert header.header_size == {1: 20, 2: 24, 3: 32}[version]
    assert compressed_bundle.decompress(data, max_output=LIMIT) == plain
    assert [bytes(piece) for piece in compressed_bundle.split(data)] == [data]
    path = written(builds.root / f"v{version}-{method}.bundle", data)
    if version < 3:
        assert sorted(elf.bundle_ids(path)) == HIP_IDS
    else:
        listed = run([elf.BUNDLER, "--list", "--type=o", f"--input={path}"])
        assert listed.returncode != 0, describe(listed)


@pytest.mark.parametrize(
    "first, second",
    [(True, False), (False, True), (True, True), (False, False)],
    ids=["compressed+plain", "plain+compressed", "compressed+compressed", "plain+plain"],
)
def test_split_a_linked_section(builds, first, second):
    """ld.lld concatenates the objects' .hip_fatbin sections, each aligned to
    4096; split finds both bundles, each one the bundler lists."""
    objects = [
        builds.hip(f"kernels{'-compressed' * first}.o", "kernels.hip", *["--offload-compress"] * first),
        builds.hip(f"other{'-compressed' * second}.o", "other.hip", *["--offload-compress"] * second),
    ]
    data = section(builds.relocatable(f"linked-{first}-{second}.o", *objects), ".hip_fatbin")
    pieces = compressed_bundle.split(data)
    assert [compressed_bundle.is_compressed(piece) for piece in pieces] == [first, second]
    offsets = [data.find(bytes(piece)) for piece in pieces]
    assert offsets[0] == 0 and offsets[1] % 4096 == 0
    for index, (piece, kernels) in enumerate(zip(pieces, [KERNELS, OTHER_KERNELS])):
        path = written(builds.root / f"piece-{first}-{second}-{index}.bundle", piece)
        assert sorted(elf.bundle_ids(path)) == HIP_IDS
        bundle = uncompressed(piece)
        check_code_object(bundle_entry(bundle, "gfx942"), "gfx942", builds.root / f"piece-{index}.co", kernels)


def test_split_version_1_keeps_its_padding(builds):
    plain = hip_fatbin(builds, compressed=False)
    first = compressed_bundle.write(plain, 1, "zstd")
    second = compressed_bundle.write(plain, 2, "zlib")
    pieces = compressed_bundle.split(first + bytes(100) + second + bytes(50))
    assert [bytes(piece) for piece in pieces] == [first + bytes(100), second]
    assert [compressed_bundle.decompress(piece, max_output=LIMIT) for piece in pieces] == [plain, plain]


def test_split_rejects_other_bytes(builds):
    plain = hip_fatbin(builds, compressed=False)
    assert [bytes(piece) for piece in compressed_bundle.split(bytes(64) + plain + bytes(64))] == [plain]
    with pytest.raises(FormatError):
        compressed_bundle.split(plain + b"\x7fELF")


# The new offload driver.


def objdump_offloading(path: Path) -> list[dict[str, str]]:
    """The images llvm-objdump-19 --offloading lists, as field -> value."""
    images: list[dict[str, str]] = []
    for line in elf.check_output(["llvm-objdump-19", "--offloading", path]).splitlines():
        if line.startswith("OFFLOADING IMAGE"):
            images.append({})
        elif images and (match := re.match(r"(\w+)\s+(.*)$", line)):
            images[-1][match.group(1)] = match.group(2)
    return images


OBJDUMP_KINDS = {"elf": "object", "llvm ir": "bitcode", "cubin": "cubin", "fatbinary": "fatbinary", "ptx": "ptx"}


def check_images(path: Path, data: bytes) -> list[offload_binary.OffloadImage]:
    """The images of `data` (`path`'s .llvm.offloading) are those
    llvm-objdump lists for `path`."""
    images = offload_binary.read_images(data)
    assert [(OBJDUMP_KINDS[i["kind"]], i["producer"], i["triple"], i["arch"]) for i in objdump_offloading(path)] == [
        (image.image_kind, image.offload_kind, image.triple, image.arch) for image in images
    ]
    return images


def test_offload_binaries_of_the_new_driver(builds):
    path = new_driver_object(builds)
    images = check_images(path, section(path, ".llvm.offloading"))
    assert [image.arch for image in images] == list(ARCHS)
    data = section(path, ".llvm.offloading")
    for image in images:
        assert image.strings == {"triple": "amdgcn-amd-amdhsa", "arch": image.arch}
        assert data[image.offset : image.offset + 4] == b"BC\xc0\xde"  # LLVM bitcode, linked at link time


def test_concatenated_offload_binaries(builds):
    objects = [new_driver_object(builds), builds.hip("new-driver-other.o", "other.hip", *NEW_DRIVER)]
    path = builds.relocatable("new-driver-linked.o", *objects)
    images = check_images(path, section(path, ".llvm.offloading"))
    assert [image.arch for image in images] == [*ARCHS, *ARCHS]


def test_packaged_images_round_trip(builds):
    """clang-offload-packager-19 stores the files it is given unchanged."""
    code_object = written(builds.root / "packaged.o", bundle_entry(hip_fatbin(builds, compressed=False), "gfx90a"))
    bitcode = written(builds.root / "packaged.bc", b"BC\xc0\xde" + bytes(13))
    images_spec = [
        f"--image=file={code_object},triple=amdgcn-amd-amdhsa,arch=gfx90a,kind=hip",
        f"--image=file={bitcode},triple=amdgcn-amd-amdhsa,arch=gfx942,kind=openmp,feature=+xnack",
    ]
    path = builds("packaged.bin", ["clang-offload-packager-19", *images_spec])
    data = path.read_bytes()
    images = check_images(path, data)
    assert [data[i.offset : i.offset + i.size] for i in images] == [code_object.read_bytes(), bitcode.read_bytes()]
    assert images[1].strings["feature"] == "+xnack"
    packaged = data[images[0].offset : images[0].offset + images[0].size]
    check_code_object(packaged, "gfx90a", builds.root / "packaged.co", KERNELS)


def string_reader(path: Path):
    """read_string for `path`: the NUL-terminated string at a virtual address."""
    with path.open("rb") as file:
        loaded = [s for s in ELFFile(file).iter_sections() if s["sh_addr"] and s["sh_type"] != "SHT_NOBITS"]
        sections = [(s["sh_addr"], s.data()) for s in loaded]

    def read_string(address: int) -> str:
        for start, data in sections:
            if start <= address < start + len(data):
                return data[address - start : data.index(b"\0", address - start)].decode()
        raise FormatError(f"no string at {address:#x}")

    return read_string


def symbol_addresses(path: Path) -> dict[str, int]:
    """Name -> value of every defined symbol, from llvm-nm-19."""
    lines = elf.check_output(["llvm-nm-19", "--defined-only", path]).splitlines()
    return {fields[2]: int(fields[0], 16) for fields in map(str.split, lines) if len(fields) == 3}


def test_offloading_entries_of_a_linked_program(builds):
    """clang 19's 32-byte entries: each names a kernel (size 0) or variable
    and points at its host-side handle."""
    program = new_driver_program(builds)
    table = section(program, "hip_offloading_entries")
    entries = offload_binary.read_offloading_entries(table, 8, True, string_reader(program))
    assert len(table) == 32 * len(entries)
    symbols = symbol_addresses(program)
    assert [entry.name for entry in entries] == [*KERNELS, "device_counter"]
    for entry in entries:
        assert entry.address == symbols[entry.name]
        assert ".offloading.entry." + entry.name in symbols
        assert (entry.size, entry.flags) == ((4, 0) if entry.name == "device_counter" else (0, 0))


def test_offloading_entries_of_an_object_are_unrelocated(builds):
    table = section(new_driver_object(builds), "hip_offloading_entries")
    entries = offload_binary.read_offloading_entries(table, 8, True, lambda address: f"@{address}")
    assert [(entry.address, entry.name) for entry in entries] == [(0, "@0")] * 5


def test_versioned_offloading_entries():
    """LLVM 20's layout, built from llvm/Frontend/Offloading/Utility.h."""
    names = {0x2000: "kernel", 0x2010: "variable"}
    table = struct.pack("<QHHIQQQQQ", 0, 1, 4, 0, 0x5000, 0x2000, 0, 0, 0)
    table += struct.pack("<QHHIQQQQQ", 0, 1, 4, 0x10, 0x5008, 0x2010, 8, 0, 0)
    entries = offload_binary.read_offloading_entries(table, 8, True, names.__getitem__)
    assert entries == [
        offload_binary.OffloadingEntry(0x5000, "kernel", 0, 0),
        offload_binary.OffloadingEntry(0x5008, "variable", 8, 0x10),
    ]
    legacy_big_endian = struct.pack(">QQQIi", 0x5000, 0x2000, 0, 3, 0)
    entries = offload_binary.read_offloading_entries(legacy_big_endian, 8, False, names.__getitem__)
    assert entries == [offload_binary.OffloadingEntry(0x5000, "kernel", 0, 3)]
    legacy_32_bit = struct.pack("<IIIIi", 0x5000, 0x2010, 4, 0, 0)
    entries = offload_binary.read_offloading_entries(legacy_32_bit, 4, True, names.__getitem__)
    assert entries == [offload_binary.OffloadingEntry(0x5000, "variable", 4, 0)]


def test_new_driver_program_bundle(builds):
    """The linker wrapper bundles the linked device code into .hip_fatbin."""
    program = new_driver_program(builds)
    data = section(program, ".hip_fatbin")
    (bundle,) = compressed_bundle.split(data)
    path = written(builds.root / "new-driver-program.bundle", bundle)
    ids = sorted(entry.id for entry in offload_bundle.read_entries(bundle))
    assert ids == sorted(elf.bundle_ids(path))
    assert ids == sorted([offload_bundle.HOST_ID] + [f"hip-amdgcn-amd-amdhsa--{arch}" for arch in ARCHS])
    for arch in ARCHS:
        check_code_object(bundle_entry(bundle, arch, "hip"), arch, builds.root / f"nd-{arch}.co", KERNELS)


# nvcc's fatbins.

PTX_ENTRY = re.compile(r"^\.(?:visible\s+)?\.entry\s+(\w+)", re.MULTILINE)


def kept_files(program: Path) -> Path:
    return program.with_name(program.name + ".keep")


def check_fatbin(data: bytes, keep: Path) -> list[nv_fatbin.FatbinEntry]:
    """`data` holds sm_90 and sm_80 cubins and compute_80 PTX, each what nvcc
    made of kernels.cu (its intermediate files in `keep`)."""
    entries = nv_fatbin.read_entries(data)
    assert [(entry.kind, entry.sm) for entry in entries] == [("cubin", 90), ("cubin", 80), ("ptx", 80)]
    cubins = [keep / "kernels.compute_90.cubin", keep / "kernels.compute_80.sm_80.cubin"]
    for entry, cubin in zip(entries, cubins):
        image = nv_fatbin.payload(data, entry, max_output=LIMIT)
        assert image == cubin.read_bytes()
        assert machine(image) == EM_CUDA
    ptx = nv_fatbin.payload(data, entries[2], max_output=LIMIT).rstrip(b"\0").decode()
    assert ".target sm_80" in ptx
    expected = (keep / "kernels.compute_80.ptx").read_text()
    assert sorted(PTX_ENTRY.findall(ptx)) == sorted(PTX_ENTRY.findall(expected)) == sorted(KERNELS)
    return entries


def test_fatbin_of_an_object(cuda):
    path = cuda.nvcc("kernels.o", "-c")
    entries = check_fatbin(section(path, ".nv_fatbin"), kept_files(path))
    assert [entry.compressed for entry in entries[:2]] == [False, False]
    assert [entry.uncompressed_size for entry in entries[:2]] == [None, None]


def test_fatbin_compressed_with_zstd(cuda):
    path = cuda.nvcc("compressed.o", "-c", "-Xfatbin", "-compress-all")
    data = section(path, ".nv_fatbin")
    entries = check_fatbin(data, kept_files(path))
    assert [(entry.compressed, entry.compression) for entry in entries] == [(True, "zstd")] * 3
    for entry in entries:
        assert len(nv_fatbin.payload(data, entry, max_output=LIMIT)) == entry.uncompressed_size
        with pytest.raises(FormatError):
            nv_fatbin.payload(data, entry, max_output=entry.uncompressed_size - 1)


def test_fatbin_compressed_with_lz4_inflates_to_nvccs_own_cubins(cuda):
    """``-compress-mode=speed`` compresses with LZ4 blocks."""
    path = cuda.nvcc("lz4.o", "-c", "-Xfatbin", "-compress-all", "-Xfatbin", "-compress-mode=speed")
    data = section(path, ".nv_fatbin")
    entries = nv_fatbin.read_entries(data)
    assert [(e.kind, e.sm, e.compressed, e.compression) for e in entries] == [
        ("cubin", 90, True, "lz4"),
        ("cubin", 80, True, "lz4"),
        ("ptx", 80, True, "lz4"),
    ]
    keep = kept_files(path)
    cubins = [keep / "kernels.compute_90.cubin", keep / "kernels.compute_80.sm_80.cubin"]
    for entry, cubin in zip(entries, cubins):
        assert nv_fatbin.payload(data, entry, max_output=LIMIT) == cubin.read_bytes()


def test_fatbin_of_a_debug_build(cuda):
    """``-G`` entries have longer headers than 64 bytes (112 or 120, by nvcc
    release and compression); the payload still starts where the header says."""
    data = section(cuda.nvcc("debug.o", "-c", "-G"), ".nv_fatbin")
    entries = nv_fatbin.read_entries(data)
    assert [(entry.kind, entry.sm) for entry in entries] == [("cubin", 90), ("cubin", 80), ("ptx", 80)]
    assert entries[0].offset > 16 + 64
    for entry in entries[:2]:
        image = nv_fatbin.payload(data, entry, max_output=LIMIT)
        assert machine(image) == EM_CUDA
        assert len(image) == (entry.uncompressed_size or entry.size)


def test_fatbins_of_a_program(cuda):
    """A program's .nv_fatbin holds one fatbin per object linked in, each
    pointed at by a wrapper in .nvFatBinSegment."""
    program = cuda.nvcc("program")
    data = section(program, ".nv_fatbin")
    wrappers = nv_fatbin.read_wrappers(section(program, ".nvFatBinSegment"))
    base = section_address(program, ".nv_fatbin")
    starts = sorted(wrapper.fatbin_address - base for wrapper in wrappers)
    assert len(wrappers) == 2 and starts[0] == 0
    fatbins = {start: data[start:end] for start, end in zip(starts, starts[1:] + [len(data)])}
    assert sum(len(nv_fatbin.read_entries(fatbin)) for fatbin in fatbins.values()) == len(nv_fatbin.read_entries(data))
    # One fatbin is kernels.cu's (version 1 wrapper), the other the device
    # link's (version 2: a link-time fatbin, cubins only).
    versions = {wrapper.fatbin_address - base: wrapper.version for wrapper in wrappers}
    (ours,) = [start for start, fatbin in fatbins.items() if "ptx" in {e.kind for e in nv_fatbin.read_entries(fatbin)}]
    check_fatbin(fatbins[ours], kept_files(program))
    assert sorted(versions.values()) == [1, 2] and versions[ours] == 1
