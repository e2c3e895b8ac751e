"""The CUDA side of gpusym's installation prefix (``PREFIX/cuda``): a CUDA
toolkit's layout whose every entry leads to gpusym, for Makefiles
(``make CUDA_PATH=PREFIX/cuda``) and CMake (``enable_language(CUDA)``,
``find_package(CUDAToolkit)``, through the prefix's toolchain file).

- ``bin/nvcc`` is ``gpusym-nvcc``, told where its toolkit is (its ``-v``
  then describes the toolkit as nvcc's does, which CMake reads);
- ``include`` holds gpusym's CUDA headers with the HIP ones they build on,
  and ``include/cccl`` the libcu++ ones (``cuda``, ``nv``) where CUDA 13
  keeps CCCL's, which projects copy from there;
- ``lib64/libcudart.so``, ``libcuda.so`` and ``libnvrtc.so`` are the
  simulated runtime (CMake's ``CUDA::cudart``, ``CUDA::cuda_driver``,
  ``CUDA::nvrtc``);
  ``libcudart_static.a`` is a linker script naming it (CMake links the static
  runtime by default) and ``libcudadevrt.a`` an empty archive;
- ``lib64/libcublas.so`` and the other CUDA libraries of host_libraries.py
  (with their sonames' major versions) are gpusym's (``-lcublas``,
  ``CUDA::cublas``);
- ``nvvm/libdevice`` is empty: CMake requires a toolkit to have it.
"""

from __future__ import annotations

import shlex
from pathlib import Path

from device import host_libraries, runtime_library
from device.prefix_files import replace_with_link, write_script

#: The environment variable ``bin/nvcc`` sets: the toolkit gpusym-nvcc is.
TOOLKIT_VARIABLE = "GPUSYM_CUDA_TOOLKIT"
_EMPTY_ARCHIVE = b"!<arch>\n"


def write(root: Path, nvcc: Path, runtime: Path) -> None:
    """Writes the toolkit at `root` (``PREFIX/cuda``), its nvcc running
    `nvcc` (gpusym-nvcc) and its libraries leading to `runtime` and to
    gpusym's CUDA libraries (built if they are not yet).  Raises
    host_libraries.LibraryBuildError."""
    write_script(
        root / "bin" / "nvcc", f'{TOOLKIT_VARIABLE}={shlex.quote(str(root))} exec {shlex.quote(str(nvcc))} "$@"\n'
    )
    include = root / "include"
    for header in runtime_library.CUDA_INCLUDE_DIR.iterdir():
        replace_with_link(include / header.name, header)
    for family in ("hip", "gpusym"):
        replace_with_link(include / family, runtime_library.INCLUDE_DIR / family)
    for family in ("cuda", "nv"):
        replace_with_link(include / "cccl" / family, runtime_library.CUDA_INCLUDE_DIR / family)
    lib = root / "lib64"
    for name in ("libcudart.so", "libcudart.so.12", "libcuda.so", "libcuda.so.1", "libnvrtc.so", "libnvrtc.so.12"):
        replace_with_link(lib / name, runtime)
    (lib / "libcudart_static.a").write_text(f"/* The simulated runtime (gpusym). */\nINPUT({runtime})\n")
    (lib / "libcudadevrt.a").write_bytes(_EMPTY_ARCHIVE)
    for library in host_libraries.provided(cuda=True):
        built = host_libraries.library_path(library)
        major = library.version.split(".")[0]
        for name in (f"lib{library.name}.so", f"lib{library.name}.so.{major}"):
            replace_with_link(lib / name, built)
    # Where a toolkit keeps its device library (CMake requires the folder).
    (root / "nvvm" / "libdevice").mkdir(parents=True, exist_ok=True)


def verbose_preamble(root: Path, arch: int) -> list[str]:
    """What nvcc -v prints first: the toolkit's variables, which CMake reads
    (TOP, INCLUDES, LIBRARIES) to find the toolkit and the host link line,
    and the architecture device code is compiled for (``-arch compute_XX``,
    which CMake takes for the default of CMAKE_CUDA_ARCHITECTURES)."""
    return [
        "#$ _NVVM_BRANCH_=nvvm",
        f"#$ TOP={root}",
        f"#$ PATH={root / 'bin'}",
        f'#$ INCLUDES="-I{root / "include"}"',
        f'#$ LIBRARIES=  "-L{root / "lib64"}"',
        f"#$ device code for the gpusym simulated device: -arch compute_{arch}",
    ]


def verbose_link_line(root: Path, link_command: list[str]) -> str:
    """The host link nvcc -v shows: `link_command` with the toolkit's library
    directory (quoted as in LIBRARIES) and the static runtime, as nvcc links."""
    return f'#$ {shlex.join(link_command)} "-L{root / "lib64"}" -lcudadevrt -lcudart_static'
