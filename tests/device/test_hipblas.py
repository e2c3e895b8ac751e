"""gpusym's hipBLAS (device/libraries/hipblas, over OpenBLAS): levels 1 to 3,
the batched gemms, GemmEx, pointer modes and stream order, each checked
against a reference the program computes (tests/programs/libraries/
hipblas_checks.hip); the LAPACK-style solvers (getrf, getrs, getri, geqrf,
gels) checked against what their results satisfy (hipblas_solvers.hip);
every function of ROCm 6.2's API declared and linked, the ones gpusym does
not implement answering HIPBLAS_STATUS_NOT_SUPPORTED; and a CMake project
finding the library through the ROCm prefix."""

from __future__ import annotations

import pytest
from cmake_projects import cmake_build, rocm_prefix
from conftest import TEST_PROGRAMS, describe, run
from library_api import build_coverage, identifiers, passed_cases, statuses

pytestmark = [pytest.mark.toolchain]


@pytest.fixture(scope="module")
def checks(build_program):
    return build_program("libraries/hipblas_checks.hip", flags=("-g", "-lhipblas"))


def test_every_case_matches_its_reference(checks):
    result = run([checks])
    cases = passed_cases(result, "hipblas")
    assert f"hipblas: {len(cases)} cases" in result.stdout and len(cases) >= 30, describe(result)


def test_a_function_not_implemented_says_so_once(checks):
    result = run([checks])
    lines = [line for line in result.stderr.splitlines() if "hipblasStpsv" in line]
    assert lines == ["gpusym: hipblasStpsv is not supported by gpusym's hipBLAS (HIPBLAS_STATUS_NOT_SUPPORTED)"], (
        describe(result)
    )


def test_the_solvers_results_satisfy_their_equations(build_program):
    result = run([build_program("libraries/hipblas_solvers.hip", flags=("-g", "-lhipblas"))])
    cases = passed_cases(result, "hipblas")
    assert "hipblas: 50 cases" in result.stdout and len(cases) == 50, describe(result)
    for case in ("DgetrfStridedBatched without pivoting", "ZgetriBatched without pivoting", "Cgels, transposed"):
        assert case in cases, describe(result)
    assert "not supported" not in result.stderr, describe(result)


def test_every_function_of_the_api_is_declared_and_links(tmp_path):
    listed, headers = identifiers("hipblas"), ["hipblas/hipblas.h"]
    built, coverage = build_coverage(
        tmp_path, "hipblas", listed, headers, suffix=".hip", not_supported=["hipblasSgbmv"]
    )
    assert built.returncode == 0, describe(built)
    result = run([coverage])
    assert statuses(result) == {"hipblasSgbmv": 7}, describe(result)
    assert "hipblasSgbmv is not supported" in result.stderr, describe(result)


def test_cmake_project_finds_hipblas_in_the_prefix(tmp_path):
    prefix = rocm_prefix(tmp_path / "rocm")
    assert (prefix / "lib" / "libhipblas.so").exists()
    cmake_build(TEST_PROGRAMS / "libraries" / "hipblas_cmake", tmp_path / "build", prefix)
    result = run([tmp_path / "build" / "v2_gemm"])
    assert result.returncode == 0 and result.stdout.split() == ["cgemm", "3", "1", "gemmex", "6", "status", "0", "0"], (
        describe(result)
    )
