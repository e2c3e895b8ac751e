"""gpusym's hipBLAS (device/libraries/hipblas, over OpenBLAS): levels 1 to 3,
the batched gemms, GemmEx, pointer modes and stream order, each checked
against a reference the program computes (tests/programs/libraries/
hipblas_checks.hip); every function of ROCm 6.2's API declared and linked,
the ones gpusym does not implement answering HIPBLAS_STATUS_NOT_SUPPORTED;
and a CMake project finding the library through the ROCm prefix."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import TEST_PROGRAMS, describe, run, run_gpusym

pytestmark = [pytest.mark.toolchain]

IDENTIFIERS = Path(__file__).resolve().parent / "library_api" / "hipblas_identifiers.txt"


@pytest.fixture(scope="module")
def checks(build_program):
    return build_program("libraries/hipblas_checks.hip", flags=("-g", "-lhipblas"))


def test_every_case_matches_its_reference(checks):
    result = run([checks])
    cases = dict(re.findall(r"^hipblas: (.+): (\d+) wrong$", result.stdout, re.M))
    failing = {case: count for case, count in cases.items() if count != "0"}
    assert result.returncode == 0 and not failing, (failing, describe(result))
    assert f"hipblas: {len(cases)} cases" in result.stdout and len(cases) >= 28, describe(result)


def test_a_function_not_implemented_says_so_once(checks):
    result = run([checks])
    lines = [line for line in result.stderr.splitlines() if "hipblasStpsv" in line]
    assert lines == ["gpusym hipBLAS: hipblasStpsv is not supported (HIPBLAS_STATUS_NOT_SUPPORTED)"], describe(result)


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
    call = "hipblasSgbmv(nullptr, HIPBLAS_OP_N, 0, 0, 0, 0, nullptr, nullptr, 0, nullptr, 0, nullptr, nullptr, 0)"
    source.write_text(coverage_program(IDENTIFIERS, "hipblas/hipblas.h", call))
    built = run_gpusym("build", source, "-lhipblas", "-o", tmp_path / "coverage")
    assert built.returncode == 0, describe(built)
    result = run([tmp_path / "coverage"])
    assert result.returncode == 0 and result.stdout.strip() == "7", describe(result)
    assert "hipblasSgbmv is not supported" in result.stderr, describe(result)


def test_cmake_project_finds_hipblas_in_the_prefix(tmp_path):
    prefix = tmp_path / "rocm"
    written = run_gpusym("rocm-prefix", prefix)
    assert written.returncode == 0, describe(written)
    assert (prefix / "lib" / "libhipblas.so").exists()
    build = tmp_path / "build"
    toolchain = f"-DCMAKE_TOOLCHAIN_FILE={prefix / 'gpusym-toolchain.cmake'}"
    configured = run(
        ["cmake", "-S", TEST_PROGRAMS / "libraries" / "hipblas_cmake", "-B", build, toolchain], timeout=300
    )
    assert configured.returncode == 0, describe(configured)
    built = run(["cmake", "--build", build], timeout=600)
    assert built.returncode == 0, describe(built)
    result = run([build / "v2_gemm"])
    assert result.returncode == 0 and result.stdout.split() == ["cgemm", "3", "1", "gemmex", "6", "status", "0", "0"], (
        describe(result)
    )
