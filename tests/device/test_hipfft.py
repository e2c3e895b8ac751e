"""gpusym's hipFFT (device/libraries/hipfft, over FFTW): every transform type
in one, two and three dimensions, batched, in place, in advanced layouts and
in a stream, checked against a naive DFT (tests/programs/libraries/hipfft.hip);
every public identifier of ROCm 6.2's hipFFT headers declared and linked,
the functions it does not provide answering HIPFFT_NOT_SUPPORTED; and a
CMake project's find_package(hipfft) through the prefix.  The identifiers
(tests/device/library_api/hipfft*_identifiers.txt) are those of hipfft.h,
hipfftXt.h and hiplibxt.h of ROCm/hipFFT at rocm-6.2.1 (hipFFT 1.0.15), from
scripts/list_library_api.py (tests/library_api.py)."""

from __future__ import annotations

import re

import pytest
from cmake_projects import cmake_build, rocm_prefix
from conftest import TEST_PROGRAMS, describe, run
from library_api import LISTS, build_coverage, functions, identifiers, passed_cases, statuses

pytestmark = [pytest.mark.toolchain]

HIPFFT_LISTS = ("hipfft", "hipfft_libxt", "hipfft_xt")
#: The functions gpusym's hipFFT declares but does not provide.
NOT_SUPPORTED = re.compile(
    r"hipfftXt(SetCallback|ClearCallback|SetCallbackSharedSize|SetGPUs|Malloc|Memcpy|Free|ExecDescriptor\w*)"
)
CASES = 40


@pytest.fixture(scope="module")
def program(build_program):
    return build_program("libraries/hipfft.hip", flags=("-g", "-lhipfft"))


@pytest.mark.parametrize(
    "environment",
    [{}, {"GPUSYM_LAUNCH_BLOCKING": "1"}, {"GPUSYM_WORKERS": "1", "GPUSYM_CHECK": "memcheck,initcheck"}],
    ids=["default", "blocking", "checked"],
)
def test_every_transform_matches_the_naive_dft(program, environment):
    result = run([program], env=environment)
    assert len(passed_cases(result, "hipfft")) == CASES, describe(result)
    assert "hipfft: version 10015 (1.0.15)" in result.stdout, describe(result)
    assert "initcheck" not in result.stderr and "memcheck" not in result.stderr, describe(result)
    assert result.returncode == 0, describe(result)


def test_a_function_not_supported_says_so_once(program):
    result = run([program])
    assert result.stderr.splitlines() == [
        "gpusym: hipfftXtSetGPUs is not supported by gpusym's hipFFT (HIPFFT_NOT_SUPPORTED)",
        "gpusym: hipfftXtSetCallback is not supported by gpusym's hipFFT (HIPFFT_NOT_SUPPORTED)",
    ], describe(result)


@pytest.fixture(scope="module")
def coverage(tmp_path_factory):
    """One build: a C++ file using every identifier and calling each function
    not supported, a C file taking every function's address."""
    listed = identifiers(*HIPFFT_LISTS)
    unsupported = [name for name in functions(listed) if NOT_SUPPORTED.fullmatch(name)]
    built, target = build_coverage(
        tmp_path_factory.mktemp("hipfft_api"),
        "hipfft",
        listed,
        ["hipfft.h", "hipfftXt.h", "hipfft/hipfftXt.h"],
        not_supported=unsupported,
        c_headers=["hipfft/hipfftXt.h"],
    )
    return built, target, unsupported


def test_the_lists_are_rocms_whole_api():
    names = {name for _, name, _ in identifiers(*HIPFFT_LISTS)}
    assert sorted(LISTS.glob("hipfft*_identifiers.txt")) == [LISTS / f"{name}_identifiers.txt" for name in HIPFFT_LISTS]
    assert {"hipfftPlanMany", "hipfftXtExec", "hipLibXtDesc", "HIPFFT_Z2D"} <= names


def test_every_identifier_is_declared_and_every_function_links(coverage):
    built, _, _ = coverage
    errors = re.findall(r"(?:error|undefined reference).*", built.stderr)
    assert built.returncode == 0 and not errors, describe(built)


def test_each_function_not_supported_answers_so(coverage):
    built, target, unsupported = coverage
    assert built.returncode == 0, describe(built)
    result = run([target])
    assert len(unsupported) == 14 and statuses(result) == {name: 16 for name in unsupported}, describe(result)
    said = [f"gpusym: {name} is not supported by gpusym's hipFFT (HIPFFT_NOT_SUPPORTED)" for name in unsupported]
    assert result.stderr.splitlines() == said, describe(result)


def test_cmake_project_finds_hipfft_in_the_prefix(tmp_path):
    prefix = rocm_prefix(tmp_path / "rocm")
    cmake_build(TEST_PROGRAMS / "libraries" / "hipfft_cmake", tmp_path / "build", prefix)
    result = run([tmp_path / "build" / "fft_delta"])
    assert result.returncode == 0 and result.stdout.strip() == "spectrum ok version 10015", describe(result)
