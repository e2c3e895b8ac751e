"""Seed inputs for the fuzz targets, made at run time: nothing large is
committed.

Real compiler output first: a sample built by ``gpusym build`` (the host
program, its ``.hip_fatbin`` bundle, the AMDGPU and simulated-device code
objects in it, the AMDGPU metadata note, symbol names), a ``--genco``
bundle, clang 19's compressed bundle (``--offload-compress``) and
OffloadBinary (``--offload-new-driver``), PTX from clang's NVPTX back end,
and nvcc's fatbins and cubins when a CUDA toolkit is installed.  Then the
writers beside the readers and crafted/, which follow the
documented layouts: compressed bundles of every version and method,
fatbins, OffloadBinaries, code objects and programs with 32-bit and
big-endian ELF, SPIR-V modules in either byte order.  A toolchain that is missing or fails
leaves its seeds out, with a line saying so.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import crafted
import crafted.spirv
from symbols import nv_fatbin, offload_binary, offload_bundle
from symbols.elf import SHT_NOTE, ElfFile

REPO = Path(__file__).resolve().parent.parent

GPUSYM = Path(sys.executable).parent / "gpusym"
SAMPLE = REPO / "sample_apps/programs/templates/templates.hip"
CONTAINERS = REPO / "tests/programs/containers"
HIP = [
    "clang++-19",
    "-x",
    "hip",
    "-nogpuinc",
    "-nogpulib",
    f"-I{REPO / 'device/include'}",
    "--offload-arch=gfx90a",
    "-O1",
]
# A CUDA source that needs no CUDA headers, for clang's PTX.
PTX_SOURCE = """
#define __global__ __attribute__((global))
#define __device__ __attribute__((device))
__device__ float scale;
__device__ __attribute__((noinline)) float twice(float x) { return 2 * x * scale; }
__global__ void kernel(float *out, int n) { if (n > 0) out[0] = twice(out[1]); }
template <typename T> __global__ void fill(T *out, T value) { *out = value; }
template __global__ void fill<int>(int *, int);
"""


class Seeds:
    """Seed files under `root`, one directory per target."""

    def __init__(self, root: Path):
        self.root = root
        self.count = 0

    def add(self, targets: str, name: str, data: bytes | memoryview) -> None:
        for target in targets.split():
            directory = self.root / target
            directory.mkdir(parents=True, exist_ok=True)
            (directory / name).write_bytes(bytes(data))
            self.count += 1


def _run(command: list[str | Path], cwd: Path) -> bool:
    try:
        result = subprocess.run([str(c) for c in command], cwd=cwd, capture_output=True, text=True, timeout=300)
    except (OSError, subprocess.TimeoutExpired) as error:
        print(f"seeds: {command[0]}: {error}; its seeds are left out", file=sys.stderr)
        return False
    if result.returncode != 0:
        print(
            f"seeds: {' '.join(map(str, command))} failed; its seeds are left out\n{result.stderr[-2000:]}",
            file=sys.stderr,
        )
        return False
    return True


def _section(elf: ElfFile, name: str) -> memoryview | None:
    section = elf.section(name)
    return elf.contents(section) if section is not None and section.size else None


def _code_object(seeds: Seeds, name: str, image: bytes | memoryview) -> None:
    seeds.add("elf device_code analyze", name, image)
    elf = ElfFile(image)
    for section in elf.sections:
        if section.type == SHT_NOTE:
            for owner, note_type, desc in elf.notes(section):
                if (owner, note_type) == ("AMDGPU", 32):
                    seeds.add("amdgpu_metadata", f"{name}.metadata", desc)
    symbols = sorted({s.name for s in elf.symtab + elf.dynsym if s.name}, key=len)
    for index, symbol in enumerate(symbols[-6:]):
        seeds.add("names", f"{name}.name{index}", symbol.encode())


def _hip_program(seeds: Seeds, program: Path) -> None:
    data = program.read_bytes()
    seeds.add("elf analyze", program.name, data)
    elf = ElfFile(data)
    for index, symbol in enumerate(s for s in elf.symtab if "__device_stub__" in s.name):
        if index < 4:
            seeds.add("names", f"{program.name}.stub{index}", symbol.name.encode())
    fatbin = _section(elf, ".hip_fatbin")
    if fatbin is None:
        return
    seeds.add("offload_bundle compressed_bundle", f"{program.name}.hip_fatbin", fatbin)
    for entry in offload_bundle.read_entries(fatbin):
        if entry.size:
            image = fatbin[entry.offset : entry.offset + entry.size]
            _code_object(seeds, f"{program.name}.{entry.target or 'entry'}", image)


def real(seeds: Seeds, work: Path, *, nvcc: bool) -> None:
    """Seeds from the toolchains, built in `work`."""
    if _run([GPUSYM, "build", "-O1", SAMPLE, "-o", work / "templates"], work):
        _hip_program(seeds, work / "templates")
    if _run([GPUSYM, "build", "--genco", SAMPLE, "-o", work / "templates.co"], work):
        seeds.add("offload_bundle compressed_bundle analyze", "templates.co", (work / "templates.co").read_bytes())
    compressed = work / "compressed.o"
    if _run([*HIP, "--offload-compress", "-c", CONTAINERS / "kernels.hip", "-o", compressed], work):
        data = compressed.read_bytes()
        seeds.add("analyze", "compressed.o", data)
        fatbin = _section(ElfFile(data), ".hip_fatbin")
        if fatbin is not None:
            seeds.add("compressed_bundle analyze", "compressed.hip_fatbin", fatbin)
    new_driver = work / "new-driver.o"
    if _run([*HIP, "--offload-new-driver", "-fgpu-rdc", "-c", CONTAINERS / "kernels.hip", "-o", new_driver], work):
        data = new_driver.read_bytes()
        seeds.add("analyze elf", "new-driver.o", data)
        offloading = _section(ElfFile(data), ".llvm.offloading")
        if offloading is not None:
            seeds.add("offload_binary analyze", "new-driver.llvm.offloading", offloading)
    (work / "ptx.cu").write_text(PTX_SOURCE)
    ptx = work / "clang.ptx"
    if _run(
        [
            "clang++-19",
            "-x",
            "cuda",
            "--cuda-gpu-arch=sm_80",
            "--cuda-device-only",
            "-S",
            "-nocudainc",
            "-nocudalib",
            "-O1",
            work / "ptx.cu",
            "-o",
            ptx,
        ],
        work,
    ):
        text = ptx.read_bytes()
        seeds.add("device_code", "clang.ptx", text)
        fatbin = nv_fatbin.write([(1, 80, text, False), (1, 80, text, True)])
        seeds.add("nv_fatbin analyze", "clang-ptx.fatbin", fatbin)
    if nvcc and shutil.which("nvcc"):
        gencode = ["-gencode", "arch=compute_80,code=[sm_80,compute_80]"]
        speed = ["-Xfatbin", "-compress-all", "-Xfatbin", "-compress-mode=speed"]  # LZ4 blocks
        for name, flags in (("nvcc", []), ("nvcc-compressed", ["-Xfatbin", "-compress-all"]), ("nvcc-lz4", speed)):
            out = work / f"{name}.o"
            if _run(["nvcc", *gencode, *flags, "-c", CONTAINERS / "kernels.cu", "-o", out], work):
                data = out.read_bytes()
                seeds.add("analyze", f"{name}.o", data)
                fatbin = _section(ElfFile(data), ".nv_fatbin")
                if fatbin is not None:
                    seeds.add("nv_fatbin analyze", f"{name}.nv_fatbin", fatbin)
                    for index, entry in enumerate(nv_fatbin.read_entries(fatbin)):
                        if entry.kind == "cubin" and not entry.compressed:  # .nv.info: kernels' parameters
                            _code_object(
                                seeds, f"{name}.cubin{index}", fatbin[entry.offset : entry.offset + entry.size]
                            )


def written(seeds: Seeds) -> None:
    """Seeds from the writers of the documented layouts (crafted/)."""
    for (version, method), data in crafted.COMPRESSED.items():
        seeds.add("compressed_bundle analyze", f"ccob-v{version}-{method}", data)
    seeds.add("offload_bundle compressed_bundle analyze", "bundle", crafted.BUNDLE)
    seeds.add("offload_binary analyze", "offload-binary", crafted.OFFLOAD_BINARY)
    seeds.add("nv_fatbin analyze", "fatbin", crafted.FATBIN)
    seeds.add("amdgpu_metadata", "metadata", crafted.METADATA_BYTES)
    kernels = ["axpy", "_Z4fillIiEvPT_S0_j", "_ZN2ns3barIfEEvPT_i"]
    classes = {"64le": {}, "32le": {"is64": False}, "64be": {"little": False}, "32be": {"is64": False, "little": False}}
    for label, elf in classes.items():
        seeds.add("elf analyze", f"program-{label}", crafted.hip_program(["axpy", "scale"], **elf))
        seeds.add("elf device_code analyze", f"amdgpu-{label}", crafted.amdgpu_code_object(kernels, **elf))
        seeds.add("elf device_code analyze", f"sim-{label}", crafted.sim_code_object(kernels, **elf))
    for little in (True, False):
        for wrapper in (False, True):
            module = crafted.spirv.two_kernels(little=little, wrapper=wrapper)
            label = f"spirv-{'le' if little else 'be'}{'-wrapper' if wrapper else ''}"
            seeds.add("spirv device_code analyze", label, module)
    module = crafted.spirv.two_kernels()
    seeds.add("offload_bundle analyze", "spirv-bundle", crafted.bundle({"hip-spirv64----generic": module}))
    spirv_binary = offload_binary.write(module, 6, 4, {"triple": "spirv64-unknown-unknown", "arch": "generic"})
    seeds.add("offload_binary analyze", "spirv-offload-binary", spirv_binary)
    for index, name in enumerate(
        [
            "_Z3foov.cold.1",
            "_ZL4sfooPi.intern.faf0d31dde65e436",
            "_Z3fooPi.kd",
            "_Z22__device_stub__Z3fooPiPi",
            "__nv_static_21__4dd20304_4_a_cu__Z3fooPi",
        ]
    ):
        seeds.add("names", f"written-name{index}", name.encode())


def write(root: Path, *, nvcc: bool = True) -> int:
    """Writes every seed under `root`/TARGET/; returns how many."""
    seeds = Seeds(root)
    written(seeds)
    with tempfile.TemporaryDirectory(prefix="gpusym-fuzz-seeds-") as work:
        real(seeds, Path(work), nvcc=nvcc)
    return seeds.count


if __name__ == "__main__":
    print(write(Path(sys.argv[1]), nvcc="--no-nvcc" not in sys.argv), "seeds")
