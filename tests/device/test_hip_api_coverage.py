"""HIP API coverage: every public identifier of ROCm's HIP headers
(tests/device/hip_api/rocm_identifiers.txt, from scripts/list_hip_api.py) is
declared by gpusym's headers, every runtime function links, and those
docs/hip_api.md says answer hipErrorNotSupported do.  The table of that page
lists the exemptions, and must be exact: what it says is not provided is not."""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from conftest import REPO, describe, run, run_gpusym

pytestmark = [pytest.mark.toolchain]

IDENTIFIERS = Path(__file__).resolve().parent / "hip_api" / "rocm_identifiers.txt"
DOC = REPO / "docs" / "hip_api.md"
NOT_SUPPORTED = "returns hipErrorNotSupported"
HEADERS = [
    "hip/hip_runtime.h",
    "hip/hip_ext.h",
    "hip/hip_fp16.h",
    "hip/hip_bf16.h",
    "hip/hip_complex.h",
    "hip/hip_cooperative_groups.h",
    "hip/hip_math_constants.h",
    "hip/channel_descriptor.h",
    "hip/hip_texture_types.h",
    "hip/library_types.h",
]
#: Headers a C program can include (the link check is C: no overloads).
C_HEADERS = ["hip/hip_runtime_api.h", "hip/hip_ext.h"]


@dataclass(frozen=True)
class Identifier:
    kind: str
    name: str
    value: int | None


def identifiers() -> list[Identifier]:
    """The list's entries."""
    entries = []
    for line in IDENTIFIERS.read_text().splitlines():
        if line and not line.startswith("#"):
            kind, name, *value = line.split()
            entries.append(Identifier(kind, name, int(value[0]) if value else None))
    return entries


def exemptions() -> dict[str, str]:
    """Glob pattern -> status, from the table of docs/hip_api.md."""
    table = {}
    for row in re.findall(r"^\|(.+)\|(.+)\|.+\|\s*$", DOC.read_text(), re.MULTILINE):
        status = row[1].strip()
        for pattern in re.findall(r"`([^`]+)`", row[0]):
            table[pattern] = status
    return table


def status_of(name: str, table: dict[str, str]) -> str | None:
    """The table's status for `name`: an exact entry first, then a pattern."""
    if name in table:
        return table[name]
    return next((status for pattern, status in table.items() if fnmatch.fnmatchcase(name, pattern)), None)


def checked(status: str | None) -> bool:
    return status is None or status == NOT_SUPPORTED


def declaration_check(entry: Identifier) -> list[str]:
    """Lines that compile only if `entry` is declared (and has its value)."""
    name = entry.name
    if entry.kind == "macro":
        return [f"#ifndef {name}", f"#error {name} is not defined", "#endif"]
    if entry.kind == "enumerator" and entry.value is not None:
        return [f'static_assert(static_cast<long long>(::{name}) == {entry.value}LL, "{name} != {entry.value}");']
    if entry.kind == "enumerator":
        return [f'static_assert(sizeof(::{name}) > 0, "{name}");']
    if entry.kind == "type":
        return [f"namespace check_declared {{ using ::{name}; }}"]
    return [f"#ifndef {name}", f"namespace check_declared {{ using ::{name}; }}", "#endif"]  # a function or its macro


@dataclass
class Build:
    result: object
    lines: dict[int, str]  # line of the generated source -> identifier checked there


@pytest.fixture(scope="module")
def listed() -> list[Identifier]:
    return identifiers()


@pytest.fixture(scope="module")
def table() -> dict[str, str]:
    return exemptions()


@pytest.fixture(scope="module")
def declarations(tmp_path_factory, listed, table) -> Build:
    """The translation unit that uses every listed identifier, compiled once
    (those the table says are not provided too: they must fail)."""
    directory = tmp_path_factory.mktemp("hip_api")
    lines = [f"#include <{header}>" for header in HEADERS]
    owners = {}
    for entry in listed:
        for line in declaration_check(entry):
            lines.append(line)
            owners[len(lines)] = entry.name
    source = directory / "declarations.hip"
    source.write_text("\n".join(lines) + "\n")
    result = run_gpusym("build", "-c", "-ferror-limit=0", "--cuda-host-only", source, "-o", directory / "d.o")
    return Build(result, owners)


@pytest.fixture(scope="module")
def program(tmp_path_factory, listed, table) -> tuple[object, Path]:
    """A C file taking the address of every runtime function and a C++ one
    calling those the table says are not supported, linked into one program."""
    directory = tmp_path_factory.mktemp("hip_api_link")
    functions = [e.name for e in listed if e.kind == "function" and checked(status_of(e.name, table))]
    addresses = directory / "addresses.c"
    addresses.write_text(
        "".join(f"#include <{header}>\n" for header in C_HEADERS)
        + "void *const gpusym_addresses[] = {\n"
        + "".join(f"  (void *)&{name},\n" for name in functions)
        + "};\n"
    )
    unsupported = [e.name for e in listed if e.kind == "function" and status_of(e.name, table) == NOT_SUPPORTED]
    calls = directory / "calls.cpp"
    calls.write_text(
        "#include <hip/hip_runtime_api.h>\n#include <hip/hip_ext.h>\n#include <cstdio>\n"
        "template <class... A> hipError_t call_with_zeros(hipError_t (*function)(A...)) { return function(A{}...); }\n"
        "int main() {\n"
        + "".join(
            f'  std::printf("{name} %s\\n", hipGetErrorName(call_with_zeros(&{name})));\n' for name in unsupported
        )
        + "  return 0;\n}\n"
    )
    target = directory / "coverage"
    return run_gpusym("build", addresses, calls, "-o", target), target


def failing_lines(build: Build) -> dict[str, str]:
    """identifier -> first diagnostic the compiler gave on its line."""
    failures: dict[str, str] = {}
    for line, message in re.findall(r"declarations\.hip:(\d+):\d+: error: (.*)", build.result.stderr):
        name = build.lines.get(int(line))
        if name:
            failures.setdefault(name, message)
    return failures


def test_the_list_and_the_table_agree(listed, table):
    names = {entry.name for entry in listed}
    unused = [pattern for pattern in table if not any(fnmatch.fnmatchcase(name, pattern) for name in names)]
    assert len(listed) > 1000, "the identifier list is truncated"
    assert not unused, f"docs/hip_api.md names patterns that match no listed identifier: {unused}"


def test_every_listed_identifier_is_declared(declarations, table):
    failures = {
        name: message for name, message in failing_lines(declarations).items() if checked(status_of(name, table))
    }
    report = "\n".join(f"  {name}: {message}" for name, message in sorted(failures.items()))
    assert not failures, f"{len(failures)} HIP identifiers are missing or wrong in gpusym's headers:\n{report}"
    unexplained = [
        line
        for line in declarations.result.stderr.splitlines()
        if " error: " in line and not re.search(r"declarations\.hip:\d+:", line)
    ]
    assert not unexplained, describe(declarations.result)


def test_identifiers_said_not_provided_are_not(declarations, listed, table):
    failing = failing_lines(declarations)
    provided = [
        entry.name for entry in listed if not checked(status_of(entry.name, table)) and entry.name not in failing
    ]
    assert not provided, f"docs/hip_api.md says these are not provided, but gpusym declares them: {provided}"


def test_every_runtime_function_links(program):
    result, _ = program
    missing = sorted(set(re.findall(r"undefined reference to `(\w+)'", result.stderr)))
    assert not missing, f"{len(missing)} runtime functions do not link: {missing}"
    assert result.returncode == 0, describe(result)


def test_unsupported_functions_say_so(program, listed, table):
    build, target = program
    assert build.returncode == 0, describe(build)
    result = run([target])
    assert result.returncode == 0, describe(result)
    answers = dict(line.split() for line in result.stdout.splitlines())
    wrong = {name: answer for name, answer in answers.items() if answer != "hipErrorNotSupported"}
    assert not wrong, f"functions docs/hip_api.md calls not supported answer otherwise: {wrong}"
    expected = sum(e.kind == "function" and status_of(e.name, table) == NOT_SUPPORTED for e in listed)
    assert len(answers) == expected, describe(result)
