"""The programs and objects of tests/programs/containers, built with clang 19
(and nvcc when it is installed) into a temporary directory, each once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from conftest import REPO, TEST_PROGRAMS, describe, run
from elftools.elf.elffile import ELFFile

SOURCES = TEST_PROGRAMS / "containers"
ARCHS = ("gfx90a", "gfx942")
HIP = ["clang++-19", "-x", "hip", "-nogpuinc", "-nogpulib", f"-I{REPO / 'device/include'}"]
HIP += [f"--offload-arch={arch}" for arch in ARCHS]
NEW_DRIVER = ["--offload-new-driver", "-fgpu-rdc"]
# axpy(float, float const*, float*, int), apply(Params, float*), fill<int>, fill<double>
KERNELS = ["_Z4axpyfPKfPfi", "_Z5apply6ParamsPf", "_Z4fillIiEvPT_S0_j", "_Z4fillIdEvPT_S0_j"]
OTHER_KERNELS = ["_Z5otherPi"]
GENCODE = ["-gencode", "arch=compute_90,code=sm_90", "-gencode", "arch=compute_80,code=[sm_80,compute_80]"]


class Builds:
    """Compiles and links in a temporary directory, each output once."""

    def __init__(self, root: Path):
        self.root = root

    def __call__(self, output: str, command: list[str | Path]) -> Path:
        target = self.root / output
        if not target.exists():
            result = run([*command, "-o", target], cwd=self.root)
            assert result.returncode == 0, describe(result)
        return target

    def hip(self, output: str, source: str, *flags: str) -> Path:
        return self(output, [*HIP, *flags, "-c", SOURCES / source])

    def nvcc(self, output: str, *flags: str) -> Path:
        """kernels.cu built by nvcc, its intermediate files kept (kept_files)."""
        keep = self.root / f"cuda-{output}.keep"
        keep.mkdir(exist_ok=True)
        return self(f"cuda-{output}", ["nvcc", *GENCODE, *flags, "--keep", "--keep-dir", keep, SOURCES / "kernels.cu"])

    def relocatable(self, output: str, *objects: Path) -> Path:
        return self(output, ["ld.lld-19", "-r", *objects])


@pytest.fixture(scope="session")
def builds(tmp_path_factory) -> Builds:
    return Builds(tmp_path_factory.mktemp("containers"))


@pytest.fixture(scope="session")
def cuda(builds) -> Builds:
    """`builds`, where nvcc is installed."""
    if shutil.which("nvcc") is None:
        pytest.skip("nvcc is not installed")
    return builds


def section(path: Path, name: str) -> bytes:
    """The contents of section `name` of the ELF file at `path`."""
    with path.open("rb") as file:
        found = ELFFile(file).get_section_by_name(name)
        assert found is not None, f"{path} has no {name} section"
        return found.data()


def new_driver_object(builds: Builds) -> Path:
    return builds.hip("new-driver.o", "kernels.hip", *NEW_DRIVER)


def new_driver_program(builds: Builds) -> Path:
    objects = [new_driver_object(builds), builds("stubs.o", ["clang-19", "-c", SOURCES / "hip_stubs.c"])]
    link = ["clang++-19", *NEW_DRIVER, "--hip-link", "-no-hip-rt", *[f"--offload-arch={a}" for a in ARCHS], *objects]
    return builds("new-driver-program", link)
