"""The sample programs: what each is made of, and how to build one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from device.compiler.driver import build

PROGRAMS_DIR = Path(__file__).resolve().parent / "programs"


@dataclass(frozen=True)
class Part:
    """A file a sample's program loads at run time, built beside it first."""

    output: str  # the program finds it by this name next to itself
    sources: tuple[str, ...]
    flags: tuple[str, ...]  # what makes it a part: -shared, --genco


@dataclass(frozen=True)
class Sample:
    name: str
    sources: tuple[str, ...]  # relative to PROGRAMS_DIR/name
    summary: str
    parts: tuple[Part, ...] = ()
    faults: bool = False  # ends, on purpose, with the runtime's report of a kernel fault

    def source_paths(self, sources: tuple[str, ...] | None = None) -> list[Path]:
        return [PROGRAMS_DIR / self.name / source for source in (self.sources if sources is None else sources)]


SAMPLES = (
    Sample("vector_add", ("vector_add.hip",), "pointer and scalar parameters, <<<>>>"),
    Sample("templates", ("templates.hip",), "template kernels, overloads, a struct by value, 2D/3D grids"),
    Sample("matmul", ("matmul.hip",), "a tiled matrix multiply: template kernel, __shared__ tiles, 2D blocks"),
    Sample("reduction", ("reduction.hip",), "__shared__, __syncthreads, atomics, device and constant variables"),
    Sample("interop", ("kernels.hip", "main.cpp"), "hipLaunchKernel on a handle from plain C++, hipLaunchKernelGGL"),
    Sample(
        "multi_device",
        ("multi_device.hip",),
        "two host threads on two devices, streams ordered by events, hipMemcpyPeer",
    ),
    Sample(
        "plugin",
        ("main.c",),
        "a C program dlopens a kernel library, unloads it, loads it again",
        parts=(Part("libplugin_kernels.so", ("kernels.hip",), ("-shared", "-fPIC")),),
    ),
    Sample(
        "module_load",
        ("main.cpp",),
        "hipModuleLoad/LoadData of a --genco code object, hipModuleLaunchKernel",
        parts=(Part("module_load_kernels.co", ("kernels.hip",), ("--genco",)),),
    ),
    Sample("api_errors", ("api_errors.hip",), "calls HIP refuses: wrong device, bad configuration, unknown function"),
    Sample("fault", ("fault.hip",), "a kernel reads past its buffer: reported, not silent", faults=True),
)


class BuildFailed(Exception):
    """`gpusym build` failed for a sample; its diagnostics went to stderr."""


def build_sample(sample: Sample, out_dir: Path, flags: tuple[str, ...] = ("-g",)) -> Path:
    """Builds `sample` (its parts, then its program) into `out_dir` with
    `gpusym build` and returns the program."""
    out_dir.mkdir(parents=True, exist_ok=True)
    steps = [(part.flags, part.sources, part.output) for part in sample.parts]
    steps.append(((), sample.sources, sample.name))
    for extra_flags, sources, output in steps:
        status = build([*flags, *extra_flags, *map(str, sample.source_paths(sources)), "-o", str(out_dir / output)])
        if status != 0:
            raise BuildFailed(f"building {sample.name} ({output}) failed with exit status {status}")
    return out_dir / sample.name
