"""gpusym's hipSPARSE (device/libraries/hipsparse): SpMV and SpMM of the
generic API over CSR, CSC and COO matrices, the conversions between sparse
and dense, SpGEMM, SDDMM in strided batches, the triangular solves SpSV and
SpSM (lower and upper, unit and non-unit, transposed), Axpby, Gather,
Scatter, Rot and SpVV of a sparse and a dense vector, and the classic
csrmv, csrmm, nnz, dense2csr, csr2dense, csrilu02 (with its zero pivots),
csr2cscEx2, csrsort and gthr, each checked against dense results the
program computes (tests/programs/libraries/hipsparse_checks.hip); every
function of ROCm 6.2's API declared and linked, the ones gpusym does not
implement answering HIPSPARSE_STATUS_NOT_SUPPORTED."""

from __future__ import annotations

import pytest
from conftest import describe, run
from library_api import build_coverage, identifiers, passed_cases, statuses

pytestmark = [pytest.mark.toolchain]


@pytest.fixture(scope="module")
def checks(build_program):
    return build_program("libraries/hipsparse_checks.hip", flags=("-g", "-lhipsparse"))


def test_every_case_matches_its_reference(checks):
    result = run([checks])
    cases = passed_cases(result, "hipsparse")
    assert f"hipsparse: {len(cases)} cases" in result.stdout and len(cases) >= 65, describe(result)
    assert "Axpby as spaxpby: 64-bit indices, base 0, float, repeated" in cases, describe(result)
    assert "Axpby with indices outside y: those skipped" in cases, describe(result)
    for case in (
        "SpGEMM double, base 1, alpha and beta, N N and T N",
        "SDDMM double, column order, T N, 3 strided batches",
        "SpSV double, upper, non-unit and unit, N, base 1",
        "SpSM double, upper unit and lower non-unit, T T and T N, row order",
        "csrilu02 zero pivots: structural, numerical, base 0 and 1",
        "Xcsrsort, CreateIdentityPermutation, Dgthr, base 0 and 1",
    ):
        assert case in cases, describe(result)


def test_indices_outside_the_dense_vector_are_skipped_and_said_once(checks):
    result = run([checks])
    lines = [line for line in result.stderr.splitlines() if "outside its dense vector" in line]
    expected = (
        "gpusym: hipSPARSE: index 9 of a sparse vector (base 0) is outside its dense vector of 8 elements: "
        "that entry is skipped"
    )
    assert lines == [expected], describe(result)


def test_a_function_not_implemented_says_so_once(checks):
    result = run([checks])
    lines = [line for line in result.stderr.splitlines() if "hipsparseCreateCsrsv2Info" in line]
    expected = (
        "gpusym: hipsparseCreateCsrsv2Info is not supported by gpusym's hipSPARSE (HIPSPARSE_STATUS_NOT_SUPPORTED)"
    )
    assert lines == [expected], describe(result)


def test_every_function_of_the_api_is_declared_and_links(tmp_path):
    listed, headers = identifiers("hipsparse"), ["hipsparse/hipsparse.h"]
    built, coverage = build_coverage(
        tmp_path, "hipsparse", listed, headers, suffix=".hip", not_supported=["hipsparseCreateHybMat"]
    )
    assert built.returncode == 0, describe(built)
    result = run([coverage])
    assert statuses(result) == {"hipsparseCreateHybMat": 10}, describe(result)
    assert "hipsparseCreateHybMat is not supported" in result.stderr, describe(result)
