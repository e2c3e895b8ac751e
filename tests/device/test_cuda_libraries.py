"""CUDA's math libraries for CUDA programs: cuBLAS, cuFFT, cuSPARSE and
cuRAND's host API, gpusym's layers over its hipBLAS, hipFFT, hipSPARSE and
rocRAND (device/libraries/cu*).  Each program of
tests/programs/cuda/cuda_libraries checks its results against references it
computes (cuRAND's against the device API's sequences) and prints a line a
case; and a CMake project links ``CUDA::cublas`` and ``CUDA::cufft`` from
the prefix's CUDA toolkit."""

from __future__ import annotations

import re

import pytest
from cmake_projects import cmake_build, rocm_prefix
from conftest import TEST_PROGRAMS, describe, run

pytestmark = [pytest.mark.toolchain]

#: program -> its library (None: header-only, the toolkit's Thrust and CUB),
#: the cases it must report ok.
PROGRAMS = {
    "cublas_checks": (
        "cublas",
        [
            "sgemm TN",
            "cgemm CN",
            "zgemm NC",
            "sgemmStridedBatched",
            "GemmEx half to float",
            "DotEx half",
            "device pointer mode",
        ],
    ),
    "cublas_solvers": (
        "cublas",
        ["DgetrfBatched, DgetrsBatched", "DgetriBatched", "DmatinvBatched", "CgeqrfBatched", "ZgelsBatched"],
    ),
    "cublaslt_checks": (
        "cublasLt",
        [
            "float",
            "double",
            "transposes",
            "row order",
            "half in, float out",
            "bf16",
            "int8 to int32",
            "FP8 E4M3 with scales",
            "FP8 E4M3 output",
            "batched strided",
            "RELU epilogue",
            "BIAS epilogue",
            "heuristic query",
        ],
    ),
    "cufft_checks": (
        "cufft",
        ["C2C forward, batched", "C2C inverse (unnormalised)", "R2C 2D", "C2R 2D", "Xt C2C by data types"],
    ),
    "cusparse_checks": (
        "cusparse",
        [
            "SpMV CSR",
            "SpMV COO",
            "SpMM CSR",
            "SparseToDense",
            "DenseToSparse",
            "SpVec Axpby",
            "SpVec SpVV, Gather, Rot, Scatter",
            "SpGEMM",
            "Csr2cscEx2",
            "Snnz by row and by column",
            "Xcsrsort, CreateIdentityPermutation, Sgthr",
            "Dcsrilu02, Xcsrilu02_zeroPivot",
            "SpSV lower unit, upper non-unit",
            "SpSM upper non-unit, transposed",
            "SDDMM, 2 strided batches",
        ],
    ),
    "curand_host_checks": (
        "curand",
        ["XORWOW bits", "XORWOW normals", "Philox bits", "MRG32k3a uniforms", "normal mean and deviation"],
    ),
    "thrust_cub_checks": (
        None,
        [
            "cub BlockReduce Sum",
            "cub BlockScan InclusiveSum",
            "cub WarpReduce Sum and Max",
            "cub DeviceReduce Sum",
            "cub DeviceScan ExclusiveSum",
            "cub DeviceRadixSort SortPairs",
            "thrust reduce",
            "thrust transform, inclusive_scan",
            "thrust sort greater",
            "thrust copy_if",
            "thrust min_element, max_element, minmax_element",
            "thrust reduce of (value, index) pairs",
        ],
    ),
}


@pytest.mark.parametrize("program", PROGRAMS)
def test_every_case_matches_its_reference(build_program, program):
    library, required = PROGRAMS[program]
    built = build_program(f"cuda/cuda_libraries/{program}.cu", flags=("-g", *([f"-l{library}"] if library else [])))
    result = run([built])
    cases = dict(re.findall(r"^(.+): (ok|FAILED.*)$", result.stdout, re.M))
    failing = {case: outcome for case, outcome in cases.items() if outcome != "ok"}
    assert result.returncode == 0 and not failing, (failing, describe(result))
    assert all(cases.get(case) == "ok" for case in required), describe(result)
    assert f"{library or 'thrust and cub'}: 0 failed" in result.stdout, describe(result)


def test_a_cmake_project_links_the_toolkits_library_targets(tmp_path):
    prefix = rocm_prefix(tmp_path / "rocm")
    for name in ("libcublas.so", "libcublas.so.12", "libcufft.so.11", "libcusparse.so", "libcurand.so.10"):
        assert (prefix / "cuda" / "lib64" / name).resolve().is_file(), name
    assert not (prefix / "lib" / "cmake" / "cublas").exists()  # CUDA's libraries are the toolkit's only
    build = tmp_path / "build"
    cmake_build(TEST_PROGRAMS / "cuda" / "cuda_libraries" / "cmake", build, prefix)
    cache = (build / "CMakeCache.txt").read_text()
    assert f"CUDA_cublas_LIBRARY:FILEPATH={prefix / 'cuda' / 'lib64' / 'libcublas.so'}" in cache
    result = run([build / "libraries_main"])
    assert result.returncode == 0, describe(result)
    assert result.stdout.strip() == "sgemm 19 22 43 50 fft 10 -2", describe(result)
