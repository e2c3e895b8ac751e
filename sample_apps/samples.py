"""The sample programs: what each is made of, and how to build one."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from sample_apps.driver.driver import build

PROGRAMS_DIR = Path(__file__).resolve().parent / "programs"


@dataclass(frozen=True)
class Sample:
    name: str
    sources: tuple[str, ...]  # relative to PROGRAMS_DIR/name
    summary: str

    def source_paths(self) -> list[Path]:
        return [PROGRAMS_DIR / self.name / source for source in self.sources]


SAMPLES = (
    Sample("vector_add", ("vector_add.hip",), "pointer and scalar parameters, <<<>>>"),
    Sample("templates", ("templates.hip",), "template kernels, overloads, a struct by value, 2D/3D grids"),
    Sample("reduction", ("reduction.hip",), "__shared__, __syncthreads, atomics, device and constant variables"),
    Sample("interop", ("kernels.hip", "main.cpp"), "hipLaunchKernel on a handle from plain C++, hipLaunchKernelGGL"),
    Sample("multi_device", ("multi_device.hip",), "two host threads on two devices, streams ordered by events, hipMemcpyPeer"),
)


class BuildFailed(Exception):
    """`gpusym build` failed for a sample; its diagnostics went to stderr."""


def build_sample(sample: Sample, out_dir: Path, flags: tuple[str, ...] = ("-g",)) -> Path:
    """Builds `sample` into `out_dir` with `gpusym build` and returns the program."""
    out_dir.mkdir(parents=True, exist_ok=True)
    program = out_dir / sample.name
    status = build([*flags, *map(str, sample.source_paths()), "-o", str(program)])
    if status != 0:
        raise BuildFailed(f"building {sample.name} failed with exit status {status}")
    return program
