"""gpusym's own ROCm libraries with a host API (hipBLAS, hipFFT, hipRAND and
rocRAND, hipSPARSE): CPU implementations behind the libraries' API, each
built on first use into the cache as the runtime is (content-addressed, its
soname its full path: see native_build).  CUDA's (cuBLAS, cuFFT, cuSPARSE,
cuRAND's host API) are layers over them, with CUDA's names and values.

Each library is a folder of ``device/libraries``: its C++ sources, and a
``link_flags.txt`` naming the CPU libraries it is built over (OpenBLAS,
FFTW) or another of these libraries (hipRAND's ``-lrocrand``), one flag a
line.  Its headers are with the runtime's, in
``device/include``.  A program gets one through ``-lNAME`` (gpusym build
links the built library in its place), through the prefix's ``lib``
(``-L$ROCM_PATH/lib -lNAME``) or through its CMake package
(``find_package(NAME)``, see rocm_prefix.py).  Device memory is ordinary
memory of the process, so a library reads and writes it directly; a call
runs in its stream's order (``hipLaunchHostFunc``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from device import runtime_library
from native import native_build

LIBRARIES_DIR = Path(__file__).resolve().parent / "libraries"


@dataclass(frozen=True)
class HostLibrary:
    """One library: its name (``hipblas``), the version and CMake target of
    ROCm 6.2's (``roc::hipblas``), and the Debian packages its CPU backend
    comes from (named in the error when one is missing).  A CUDA library
    (``cuda``: cuBLAS, ...) is built with the CUDA headers and lives in the
    prefix's CUDA toolkit (CMake's ``CUDA::cublas``), not in ROCm's ``lib``."""

    name: str
    version: str
    cmake_target: str
    debian_packages: tuple[str, ...] = ()
    cuda: bool = False

    @property
    def folder(self) -> Path:
        return LIBRARIES_DIR / self.name

    def is_provided(self) -> bool:
        """Whether gpusym has this library (its folder holds sources)."""
        return any(self.folder.glob("*.cpp"))


#: The libraries gpusym provides, with ROCm's CMake target names (CUDA's
#: for CUDA's libraries, layers over the ROCm ones: cuBLAS over hipBLAS, ...).
LIBRARIES = {
    library.name: library
    for library in (
        HostLibrary("hipblas", "2.2.0", "roc::hipblas", ("libopenblas-dev",)),
        HostLibrary("hipfft", "1.0.15", "hip::hipfft", ("libfftw3-dev",)),
        HostLibrary("rocrand", "3.1.0", "roc::rocrand"),
        HostLibrary("hiprand", "2.11.0", "hip::hiprand"),
        HostLibrary("hipsparse", "3.1.1", "roc::hipsparse"),
        HostLibrary("cublas", "12.4.5", "CUDA::cublas", cuda=True),
        HostLibrary("cublasLt", "12.4.5", "CUDA::cublasLt", ("libopenblas-dev",), cuda=True),
        HostLibrary("cufft", "11.2.1", "CUDA::cufft", cuda=True),
        HostLibrary("cusparse", "12.3.1", "CUDA::cusparse", cuda=True),
        HostLibrary("curand", "10.3.5", "CUDA::curand", cuda=True),
    )
}


class LibraryBuildError(Exception):
    """A library did not build; the message names it and says why."""


def provided(cuda: bool = False) -> list[HostLibrary]:
    """The ROCm libraries gpusym provides (CUDA's with `cuda`), by name."""
    return [library for library in LIBRARIES.values() if library.is_provided() and library.cuda == cuda]


def library_path(library: HostLibrary, verbose: bool = False) -> Path:
    """Path of ``lib<name>.so``, built if it is not there yet, over the
    simulated runtime.  Raises LibraryBuildError."""
    link_flags = library.folder / "link_flags.txt"
    libs = resolve_link_flags(link_flags.read_text().split(), verbose) if link_flags.exists() else []
    try:
        runtime = runtime_library.runtime_path(verbose)
        return native_build.shared_library(
            library.name,
            sorted(library.folder.glob("*.cpp")),
            flags=["-std=c++20", "-O2", "-g", "-Wall", "-D__HIP_PLATFORM_AMD__=1"],
            libs=[*libs, str(runtime)],
            include_dirs=[
                *([runtime_library.CUDA_INCLUDE_DIR] if library.cuda else []),
                runtime_library.INCLUDE_DIR,
                library.folder,
                LIBRARIES_DIR,  # what every library shares (stream_work.h)
            ],
            verbose=verbose,
        )
    except native_build.BuildError as error:
        hint = f" (is {', '.join(library.debian_packages)} installed?)" if library.debian_packages else ""
        raise LibraryBuildError(f"gpusym's lib{library.name} did not build{hint}:\n{error}") from error


def resolve_link_flags(flags: list[str], verbose: bool = False) -> list[str]:
    """`flags` with each ``-lNAME`` of a provided library replaced by the
    built library's path.  Raises LibraryBuildError."""
    resolved = []
    for flag in flags:
        library = LIBRARIES.get(flag[2:]) if flag.startswith("-l") else None
        resolved.append(str(library_path(library, verbose)) if library and library.is_provided() else flag)
    return resolved
