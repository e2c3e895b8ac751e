"""gpusym's hipFFT (device/libraries/hipfft, over FFTW): every transform type
in one, two and three dimensions, batched, in place, in advanced layouts and
in a stream, checked against a naive DFT (tests/programs/libraries/hipfft.hip);
every public identifier of ROCm 6.2's hipFFT headers declared and linked,
the functions it does not provide answering HIPFFT_NOT_SUPPORTED; and a
CMake project's find_package(hipfft) through the prefix.  The identifiers
(tests/device/library_api/hipfft*_identifiers.txt) are
scripts/list_library_api.py's over hipfft.h, hipfftXt.h and hiplibxt.h of
ROCm/hipFFT at rocm-6.2.1 (hipFFT 1.0.15)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import TEST_PROGRAMS, describe, run, run_gpusym

pytestmark = [pytest.mark.toolchain]

LISTS = sorted((Path(__file__).resolve().parent / "library_api").glob("hipfft*_identifiers.txt"))
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
    cases = dict(re.findall(r"^hipfft: (.+?): (ok|FAILED.*)$", result.stdout, re.M))
    failing = {case: outcome for case, outcome in cases.items() if outcome != "ok"}
    assert len(cases) == CASES and not failing, (failing, describe(result))
    assert "hipfft: version 10015 (1.0.15)" in result.stdout, describe(result)
    assert "initcheck" not in result.stderr and "memcheck" not in result.stderr, describe(result)
    assert result.returncode == 0, describe(result)


def test_a_function_not_supported_says_so_once(program):
    result = run([program])
    assert result.stderr.splitlines() == [
        "gpusym: hipfftXtSetGPUs is not supported by gpusym's hipFFT",
        "gpusym: hipfftXtSetCallback is not supported by gpusym's hipFFT",
    ], describe(result)


def identifiers() -> list[tuple[str, str, int | None]]:
    """(kind, name, enumerator value) of each listed identifier."""
    entries = []
    for path in LISTS:
        for line in path.read_text().splitlines():
            if line and not line.startswith("#"):
                kind, name, *value = line.split()
                entries.append((kind, name, int(value[0]) if value else None))
    return entries


def declaration_check(kind: str, name: str, value: int | None) -> str:
    """Lines that compile only if `name` is declared (with its value)."""
    if kind == "macro":
        return f"#ifndef {name}\n#error {name} is not defined\n#endif"
    if kind == "enumerator":
        return f'static_assert(static_cast<long long>({name}) == {value}LL, "{name}");'
    return f"namespace check_declared {{ using ::{name}; }}"


@pytest.fixture(scope="module")
def coverage(tmp_path_factory):
    """One build: a C++ file using every identifier and calling each function
    not supported, a C file taking every function's address."""
    directory = tmp_path_factory.mktemp("hipfft_api")
    listed = identifiers()
    functions = [name for kind, name, _ in listed if kind == "function"]
    unsupported = [name for name in functions if NOT_SUPPORTED.fullmatch(name)]
    source = directory / "declared.cpp"
    source.write_text(
        "#include <hipfft.h>\n#include <hipfftXt.h>\n#include <hipfft/hipfftXt.h>\n#include <cstdio>\n"
        + "\n".join(declaration_check(*entry) for entry in listed)
        + "\ntemplate <class... A> hipfftResult call_with_zeros(hipfftResult (*function)(A...)) {"
        " return function(A{}...); }\nint main() {\n"
        + "".join(f'  std::printf("{name} %d\\n", int(call_with_zeros(&{name})));\n' for name in unsupported)
        + "  return 0;\n}\n"
    )
    addresses = directory / "addresses.c"
    addresses.write_text(
        "#include <hipfft/hipfftXt.h>\nvoid *const gpusym_addresses[] = {\n"
        + "".join(f"  (void *)&{name},\n" for name in functions)
        + "};\n"
    )
    target = directory / "coverage"
    built = run_gpusym("build", "-ferror-limit=0", source, addresses, "-lhipfft", "-o", target)
    return built, target, unsupported


def test_the_lists_are_rocms_whole_api():
    names = {name for _, name, _ in identifiers()}
    assert len(LISTS) == 3 and {"hipfftPlanMany", "hipfftXtExec", "hipLibXtDesc", "HIPFFT_Z2D"} <= names


def test_every_identifier_is_declared_and_every_function_links(coverage):
    built, _, _ = coverage
    errors = re.findall(r"(?:error|undefined reference).*", built.stderr)
    assert built.returncode == 0 and not errors, describe(built)


def test_each_function_not_supported_answers_so(coverage):
    built, target, unsupported = coverage
    assert built.returncode == 0, describe(built)
    result = run([target])
    assert result.returncode == 0, describe(result)
    answers = dict(line.split() for line in result.stdout.splitlines())
    assert len(unsupported) == 14 and answers == {name: "16" for name in unsupported}, describe(result)
    said = [f"gpusym: {name} is not supported by gpusym's hipFFT" for name in unsupported]
    assert result.stderr.splitlines() == said, describe(result)


def test_cmake_project_finds_hipfft_in_the_prefix(tmp_path):
    prefix = tmp_path / "rocm"
    written = run_gpusym("rocm-prefix", prefix)
    assert written.returncode == 0, describe(written)
    build = tmp_path / "build"
    toolchain = f"-DCMAKE_TOOLCHAIN_FILE={prefix / 'gpusym-toolchain.cmake'}"
    configured = run(["cmake", "-S", TEST_PROGRAMS / "libraries" / "hipfft_cmake", "-B", build, toolchain], timeout=300)
    assert configured.returncode == 0, describe(configured)
    built = run(["cmake", "--build", build], timeout=300)
    assert built.returncode == 0, describe(built)
    result = run([build / "fft_delta"])
    assert result.returncode == 0 and result.stdout.strip() == "spectrum ok version 10015", describe(result)
