"""gpusym's hipSPARSE (device/libraries/hipsparse): SpMV and SpMM of the
generic API over CSR, CSC and COO matrices, the conversions between sparse
and dense, and the classic csrmv, csrmm, nnz, dense2csr and csr2dense, each
checked against dense products the program computes
(tests/programs/libraries/hipsparse_checks.hip); every function of ROCm 6.2's
API declared and linked, the ones gpusym does not implement answering
HIPSPARSE_STATUS_NOT_SUPPORTED."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import describe, run, run_gpusym

pytestmark = [pytest.mark.toolchain]

IDENTIFIERS = Path(__file__).resolve().parent / "library_api" / "hipsparse_identifiers.txt"


@pytest.fixture(scope="module")
def checks(build_program):
    return build_program("libraries/hipsparse_checks.hip", flags=("-g", "-lhipsparse"))


def test_every_case_matches_its_reference(checks):
    result = run([checks])
    cases = dict(re.findall(r"^hipsparse: (.+): (\d+) wrong$", result.stdout, re.M))
    failing = {case: count for case, count in cases.items() if count != "0"}
    assert result.returncode == 0 and not failing, (failing, describe(result))
    assert f"hipsparse: {len(cases)} cases" in result.stdout and len(cases) >= 17, describe(result)


def test_a_function_not_implemented_says_so_once(checks):
    result = run([checks])
    lines = [line for line in result.stderr.splitlines() if "hipsparseCreateCsrsv2Info" in line]
    expected = "gpusym hipSPARSE: hipsparseCreateCsrsv2Info is not supported (HIPSPARSE_STATUS_NOT_SUPPORTED)"
    assert lines == [expected], describe(result)


def coverage_program(identifiers: Path, header: str, not_supported: str) -> str:
    """One source (the same in test_hipblas.py and test_hipsparse.py) that
    compiles only if every identifier of the list is declared (enumerators
    with their value), takes every function's address
    (so that linking needs them all), and prints the status of the call
    `not_supported`, a function gpusym does not implement."""
    lines = [f"#include <{header}>", "#include <cstdio>", "void *functions[] = {"]
    checks = []
    for line in identifiers.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        kind, name, *value = line.split()
        if kind == "function":
            lines.append(f"  (void *)&{name},")
        elif kind == "type":
            checks.append(f"static_assert(sizeof({name} *) > 0);")
        elif kind == "enumerator":
            checks.append(f"static_assert({name} == {value[0]}, {name!r});".replace("'", '"'))
        else:
            checks.append(f"#ifndef {name}\n#error {name}\n#endif")
    lines += ["};", *checks, f'int main() {{ printf("%d\\n", (int){not_supported}); return 0; }}']
    return "\n".join(lines) + "\n"


def test_every_function_of_the_api_is_declared_and_links(tmp_path):
    source = tmp_path / "coverage.hip"
    call = "hipsparseCreateHybMat(nullptr)"
    source.write_text(coverage_program(IDENTIFIERS, "hipsparse/hipsparse.h", call))
    built = run_gpusym("build", source, "-lhipsparse", "-o", tmp_path / "coverage")
    assert built.returncode == 0, describe(built)
    result = run([tmp_path / "coverage"])
    assert result.returncode == 0 and result.stdout.strip() == "10", describe(result)
    assert "hipsparseCreateHybMat is not supported" in result.stderr, describe(result)
