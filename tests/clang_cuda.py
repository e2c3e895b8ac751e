"""clang-19's CUDA compile on a machine without CUDA's headers (nvcc's
ptxas and fatbinary still make the device code): the flags test modules
share."""

from __future__ import annotations

from conftest import TEST_PROGRAMS

#: A CUDA compile for sm_90 that looks for no CUDA installation.
CLANG_CUDA = [
    "clang++-19",
    "-x",
    "cuda",
    "-nocudainc",
    "-nocudalib",
    "--cuda-gpu-arch=sm_90",
    "-Wno-unknown-cuda-version",
]
#: What the missing headers would give kernels: a shim of their declarations
#: and clang's own threadIdx and friends.
HEADERLESS = [
    "-include",
    str(TEST_PROGRAMS / "mangling" / "cuda_shim.h"),
    "-include",
    "__clang_cuda_builtin_vars.h",
]
