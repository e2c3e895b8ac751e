"""The fuzz targets: one per parser of ``symbols/``, and one for the whole
path ``gpusym query`` takes through a file.  The ELF target also reads
each input through the C loops of ELF reading and through their Python
twin, and the fatbin target inflates LZ4 entries with the system's liblz4
and with the lz4 package: any difference is a finding.

Each target takes any bytes and returns normally when the parser gave a
result or raised FormatError, the one error the library raises for bad
input.  Any other exception, or a broken invariant (an AssertionError: more
output than the limits allow, an offset outside the input), is a finding.
Time and memory are bounded by the fuzzing engine (fuzz/run.py:
``-timeout``, ``-rss_limit_mb``) and measured against a normal parse by
tests/symbols/test_resource_bounds.py.

Importing this module imports ``symbols``: the worker imports it under
atheris' instrumentation, so that coverage guides the fuzzing.
"""

from __future__ import annotations

import json
import struct
from typing import Callable

from symbols import (
    amdgpu_metadata,
    compressed_bundle,
    device_code,
    elf_scan,
    lz4_block,
    nv_fatbin,
    offload_binary,
    offload_bundle,
    spirv,
)
from symbols.analysis import analyze_data
from symbols.containers import MAX_RATIO
from symbols.demangling import llvm_demangle
from symbols.demangling.gnu import demangle
from symbols.elf import SHT_DYNSYM, SHT_NOTE, SHT_STRTAB, SHT_SYMTAB, ElfFile
from symbols.errors import FormatError
from symbols.mangling import CLANG, NVCC, parse_stub, stub_symbol, undecorated_kernel

#: Decompression limit of the container targets (the analyze target uses
#: the library's own, MAX_RATIO times the compressed size).
LIMIT = 1 << 20


#: What cubins are read by (symbols/device_code.py): a prefix and types.
NAMED = (".nv.info.", (SHT_SYMTAB, SHT_STRTAB))


def elf_tables(data: bytes) -> object:
    """What ElfFile reads of `data`'s sections and symbol tables (kept
    symbols and every entry), then of the sections `NAMED` and the symbol
    table among them, read first in a file of its own; or the
    FormatError's message."""
    try:
        elf = ElfFile(data)
        tables = [
            list(elf.symbol_rows(section, every))
            for section in elf.sections
            if section.type in (SHT_SYMTAB, SHT_DYNSYM)
            for every in (False, True)
        ]
        alone = ElfFile(data)
        named = alone.sections_named(*NAMED)
        symtab = next((section for section in named if section.type == SHT_SYMTAB), None)
        return elf.sections, tables, named, list(alone.symbol_rows(symtab)) if symtab else []
    except FormatError as error:
        return f"FormatError: {error}"


def elf_tables_both_ways(data: bytes) -> tuple[object, object]:
    """`elf_tables` through the C loops (symbols/elf_scan.c), and in Python."""
    with_c = elf_tables(data)
    scanner = elf_scan.scanner
    elf_scan.scanner = lambda: None
    try:
        return with_c, elf_tables(data)
    finally:
        elf_scan.scanner = scanner


def _elf(data: bytes) -> None:
    with_c, in_python = elf_tables_both_ways(data)
    assert with_c == in_python, "the C loops of ELF reading and their Python twin disagree"
    if not isinstance(with_c, str):
        sections, _, named, _ = with_c
        prefix, types = NAMED
        assert named == [s for s in sections if s.name.startswith(prefix) or s.type in types], "sections_named"
    elf = ElfFile(data)
    sections = elf.sections
    symbols = elf.symtab + elf.dynsym
    assert len(symbols) <= len(data) // 8, "more symbols than the file has room for (16 bytes each, two tables)"
    for section in sections:
        if section.type == SHT_NOTE:
            for owner, _, desc in elf.notes(section):
                assert len(desc) <= len(data) and isinstance(owner, str)
    for symbol in symbols[:8]:
        try:
            elf.cstring_at(symbol.value, 64)
        except FormatError:
            pass


def _offload_bundle(data: bytes) -> None:
    entries = offload_bundle.read_entries(data)
    length = offload_bundle.length(data)
    assert length <= len(data)
    for entry in entries:
        assert entry.offset + entry.size <= length
        offload_bundle.split_id(entry.id)


def _compressed_bundle(data: bytes) -> None:
    try:
        compressed_bundle.parse_header(data)
        result = compressed_bundle.decompress(data, max_output=LIMIT)
        assert len(result) <= LIMIT
    except FormatError:
        pass
    for piece in compressed_bundle.split(data):
        assert 0 < len(piece) <= len(data)


def _offload_binary(data: bytes) -> None:
    try:
        for image in offload_binary.read_images(data):
            assert 0 <= image.offset and image.offset + image.size <= len(data)
    except FormatError:
        pass
    pointer_size, little = (8, True) if not data or data[0] & 1 else (4, bool(data[0] & 2))
    entries = offload_binary.read_offloading_entries(data[1:], pointer_size, little, hex)
    assert len(entries) <= len(data) // 20


def lz4_both_ways(block: bytes | memoryview, size: int) -> tuple[object, object]:
    """What `lz4_block.inflate` gives (the bytes, or its error) with the
    system's liblz4, and with the lz4 package."""

    def inflated() -> object:
        try:
            return lz4_block.inflate(block, size)
        except FormatError as error:
            return f"FormatError: {error}"

    with_library = inflated()
    decompress_safe = lz4_block._decompress_safe
    lz4_block._decompress_safe = lambda: None
    try:
        return with_library, inflated()
    finally:
        lz4_block._decompress_safe = decompress_safe


def _nv_fatbin(data: bytes) -> None:
    try:
        nv_fatbin.read_wrappers(data)
    except FormatError:
        pass
    for entry in nv_fatbin.read_entries(data):
        if entry.compression == "lz4" and (entry.uncompressed_size or 0) <= LIMIT:
            stored = data[entry.offset : entry.offset + entry.size]
            with_library, with_package = lz4_both_ways(stored, entry.uncompressed_size)
            assert with_library == with_package, "liblz4 and the lz4 package inflate an LZ4 block differently"
        try:
            payload = nv_fatbin.payload(data, entry, max_output=LIMIT)
        except FormatError:
            continue
        assert payload is None or len(payload) <= LIMIT


def _amdgpu_metadata(data: bytes) -> None:
    try:
        amdgpu_metadata.target(data)
    except FormatError:
        pass
    for kernel in amdgpu_metadata.kernels(data):
        assert isinstance(kernel.name, str) and all(arg.size >= 0 for arg in kernel.args)


def _device_code(data: bytes) -> None:
    image_format = "elf" if data.startswith(b"\x7fELF") else "spirv" if spirv.has_magic(data) else "ptx"
    contents = device_code.read(data, image_format)
    named = len(contents.kernels) + len(contents.functions) + len(contents.variables)
    assert named + len(contents.exported_functions) <= len(data)
    if contents.args_source is not None:
        device_code.read_args(contents.args_source)


def _spirv(data: bytes) -> None:
    module = spirv.read(data)
    assert len(module.kernels) <= len(data) // 16, "more kernels than entry points fit (4 words each)"
    for kernel in module.kernels:
        assert len(kernel.params) <= len(data) // 12, "more parameters than OpFunctionParameters fit"
        for param in kernel.params:
            assert param.size >= 0 and param.offset >= 0 and isinstance(param.type_name, str)
    contents = device_code.read(data, "spirv")
    assert [name for name, _, _ in contents.kernels] == [kernel.name for kernel in module.kernels]
    assert set(device_code.read_args(contents.args_source)) == {kernel.name for kernel in module.kernels}


def _names(data: bytes) -> None:
    name = data.decode("utf-8", "surrogateescape")
    for demangler in (demangle, llvm_demangle.demangle):
        demangled = demangler(name)
        assert demangled is None or isinstance(demangled, str)
    stub = parse_stub(name)
    if stub is not None:
        stub.device_names
    undecorated_kernel(name)
    for convention in (CLANG, NVCC):
        try:
            stub_symbol(name, convention)
        except FormatError:
            pass


def _analyze(data: bytes) -> None:
    analysis = analyze_data(data, "fuzzed")
    report = analysis.report
    assert len(report.kernels) <= len(data), "more kernels than bytes"
    assert sum(code_object.size for code_object in report.code_objects) <= MAX_RATIO * len(data) * 2
    json.dumps(report.to_json())
    for address in (0, 0x1000, *(struct.unpack_from("<Q", data, 64)[:1] if len(data) >= 72 else ())):
        analysis.addresses.lookup(address)
        for code_object in report.code_objects[:4]:
            analysis.addresses.lookup(address, code_object.index)


#: name -> parser; each raises FormatError at most.
PARSERS: dict[str, Callable[[bytes], None]] = {
    "elf": _elf,
    "offload_bundle": _offload_bundle,
    "compressed_bundle": _compressed_bundle,
    "offload_binary": _offload_binary,
    "nv_fatbin": _nv_fatbin,
    "amdgpu_metadata": _amdgpu_metadata,
    "device_code": _device_code,
    "spirv": _spirv,
    "names": _names,
    "analyze": _analyze,
}


def run(target: str, data: bytes) -> None:
    """`data` through `target`: returns after a result or a FormatError;
    anything else propagates."""
    try:
        PARSERS[target](data)
    except FormatError:
        pass
