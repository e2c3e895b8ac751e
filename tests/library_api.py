"""What the tests of gpusym's host libraries (hipBLAS, hipSPARSE, hipFFT,
hipRAND, rocRAND) share: the identifier lists of ROCm's headers, a program
that compiles only if every listed identifier is declared and links only if
every listed function is defined, and the programs' ``LIBRARY: CASE:
OUTCOME`` lines.

Each list, tests/device/library_api/LIST_identifiers.txt, is
scripts/list_library_api.py's over one header of a ROCm release, named on
its first line; besides the header (``-I`` the release's library/include
where it includes others of its library):

- hipblas: ``--table`` and ``--v2-names``, device/include/hipblas/'s
  gpusym_functions.h and gpusym_v2_names.h;
- hipsparse: ``--include hip/library_types.h``, ``--table``
  device/include/hipsparse/gpusym_functions.h;
- hipfft_libxt: ``--include cstddef``;
- hiprand, rocrand: ``--exclude HIPRAND_H_``, ``--exclude ROCRAND_H_``
  (ROCm's include guards; gpusym's headers have guards of their own).
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

from conftest import BUILD_TIMEOUT, describe, run_gpusym

LISTS = Path(__file__).resolve().parent / "device" / "library_api"


class Identifier(NamedTuple):
    kind: str  # function, type, enumerator or macro
    name: str
    value: int | None  # an enumerator's


def identifiers(*lists: str) -> list[Identifier]:
    """The identifiers of each LIST_identifiers.txt of `lists`."""
    found = []
    for name in lists:
        for line in (LISTS / f"{name}_identifiers.txt").read_text().splitlines():
            if line and not line.startswith("#"):
                kind, identifier, *value = line.split()
                found.append(Identifier(kind, identifier, int(value[0]) if value else None))
    return found


def functions(listed: Iterable[Identifier]) -> list[str]:
    return [entry.name for entry in listed if entry.kind == "function"]


def _address_table(listed: list[Identifier], table: str) -> str:
    """Every function's address in `table`, an array of external linkage
    (one that is const in C++ would be dropped unused): the link needs them
    all."""
    addresses = "".join(f"  (void *)&{name},\n" for name in functions(listed))
    return f"void *{table}[] = {{\n{addresses}}};\n" if addresses else ""


def _declared(entry: Identifier) -> str:
    """Lines that compile only if `entry` is declared (with its value)."""
    if entry.kind == "function":
        return ""  # the address table's
    if entry.kind == "type":
        return f'static_assert(sizeof({entry.name} *) > 0, "{entry.name}");\n'
    if entry.kind == "enumerator":
        return f'static_assert(static_cast<long long>({entry.name}) == {entry.value}LL, "{entry.name}");\n'
    return f"#ifndef {entry.name}\n#error {entry.name} is not defined\n#endif\n"


def coverage_source(listed: list[Identifier], headers: Iterable[str], not_supported: Iterable[str] = ()) -> str:
    """A C++ (or HIP) source over `headers` that compiles only if each of
    `listed` is declared, links only if each function is defined, and prints
    ``NAME STATUS`` for each function of `not_supported` called with
    zero-valued arguments."""
    includes = "".join(f"#include <{header}>\n" for header in headers)
    calls = "".join(f'  std::printf("{name} %d\\n", int(call_with_zeros(&{name})));\n' for name in not_supported)
    return (
        f"{includes}#include <cstdio>\n{_address_table(listed, 'gpusym_functions')}"
        + "".join(_declared(entry) for entry in listed)
        + "template <class R, class... A> R call_with_zeros(R (*function)(A...)) { return function(A{}...); }\n"
        + f"int main() {{\n{calls}  return 0;\n}}\n"
    )


def build_coverage(
    directory: Path,
    library: str,
    listed: list[Identifier],
    headers: Iterable[str],
    *,
    suffix: str = ".cpp",
    not_supported: Iterable[str] = (),
    c_headers: Iterable[str] = (),
) -> tuple[subprocess.CompletedProcess, Path]:
    """Builds `coverage_source` (a file of `suffix`) with ``-lLIBRARY``, and
    with `c_headers` a C file too, including them and taking every
    function's address; returns the build and the program."""
    source = directory / f"{library}_coverage{suffix}"
    source.write_text(coverage_source(listed, headers, not_supported))
    sources = [source]
    if c_headers:
        sources.append(directory / f"{library}_addresses.c")
        sources[-1].write_text(
            "".join(f"#include <{header}>\n" for header in c_headers) + _address_table(listed, "gpusym_functions_in_c")
        )
    target = directory / f"{library}_coverage"
    built = run_gpusym("build", "-ferror-limit=0", *sources, f"-l{library}", "-o", target, timeout=BUILD_TIMEOUT)
    return built, target


def statuses(result: subprocess.CompletedProcess) -> dict[str, int]:
    """What a coverage program printed: each function called, its status."""
    assert result.returncode == 0, describe(result)
    return {name: int(status) for name, status in (line.split() for line in result.stdout.splitlines())}


def passed_cases(result: subprocess.CompletedProcess, library: str) -> dict[str, str]:
    """A checking program's ``LIBRARY: CASE: OUTCOME`` lines (OUTCOME ``ok``,
    ``FAILED ...`` or ``N wrong``), of a run that succeeded with none failed:
    every case's outcome."""
    cases = dict(re.findall(rf"^{library}: (.+?): (ok|FAILED.*|\d+ wrong)$", result.stdout, re.M))
    failing = {case: outcome for case, outcome in cases.items() if outcome not in ("ok", "0 wrong")}
    assert result.returncode == 0 and not failing, (failing, describe(result))
    return cases
