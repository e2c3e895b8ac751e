#!/usr/bin/env python3
"""Lists the public API of one of ROCm's host libraries (hipBLAS, hipSPARSE,
hipFFT, hipRAND, rocRAND) from its public header, for gpusym's own
implementation.

Usage: list_library_api.py NAME HEADER [-o OUT] [--origin TEXT] [-I DIR]...
                           [-D MACRO]... [--include H]... [--exclude NAME]...
                           [--table TABLE] [--v2-names FILE]

NAME is the library (``hipblas``), HEADER its public header taken from a
ROCm release, with the release's include directory (``-I``) where the header
includes other headers of its library::

    git --git-dir=ROCm/rocRAND.git archive rocm-6.2.0 library/include | tar -x
    list_library_api.py rocrand library/include/rocrand/rocrand.h \
        -I library/include --origin "ROCm/rocRAND rocm-6.2.0" --exclude ROCRAND_H_

The header is read by clang, for the AMD platform in C++17, over gpusym's
HIP headers, the directories of ``-I`` first (``--include`` adds a header
ahead of it, for a type ROCm's HIP headers bring in indirectly); its
generated ``NAME-export.h`` and ``NAME-version.h`` are given empty here.
Only what HEADER itself declares is listed, less the names of ``--exclude``
(ones gpusym knowingly lacks).  Writes:

- OUT, by default tests/device/library_api/NAME_identifiers.txt: a first
  line naming HEADER's file and ``--origin`` (the repository and tag it was
  taken from), then one ``KIND NAME`` a line (``function``, ``type``,
  ``macro``, and ``enumerator NAME VALUE``), sorted by name, for the
  coverage tests (tests/library_api.py);
- with ``--table``, the functions declared (not defined) by the header as
  X-macro entries, ``GPUSYM_API_FUNCTION(result, name, (parameter types))``,
  from which gpusym's header declares them and its library defines those it
  does not implement;
- with ``--v2-names``, ``#define NAME NAME_v2`` for each function ``NAME_v2``
  (or ``NAME_v2_64``) with a ``NAME`` beside it: hipBLAS's names under
  ``HIPBLAS_V2``.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUT_DIR = REPO / "tests/device/library_api"
INCLUDE_DIR = REPO / "device/include"
CLANG = "clang++-19"


def _clang(header: Path, stubs: Path, args: argparse.Namespace, *extra: str) -> str:
    command = [CLANG, "-x", "c++", "-std=c++17", "-D__HIP_PLATFORM_AMD__=1", f"-I{stubs}"]
    command += [f"-I{directory.resolve()}" for directory in args.directories] + [f"-I{INCLUDE_DIR}"]
    command += [f"-D{define}" for define in args.defines] + [f"-include{name}" for name in args.includes]
    result = subprocess.run([*command, *extra, str(header)], capture_output=True, text=True)
    if result.returncode:
        raise SystemExit(f"{CLANG} failed over {header}:\n{result.stderr}")
    return result.stdout


def _stubs(name: str, directory: Path) -> None:
    """The generated headers a library's header includes, empty but for its
    export and deprecation macros."""
    upper = name.upper()
    export = "".join(
        f"#define {upper}_{macro}\n" for macro in ("EXPORT", "NO_EXPORT", "DEPRECATED", "DEPRECATED_EXPORT")
    )
    (directory / f"{name}-export.h").write_text(export)
    (directory / f"{name}-version.h").write_text("")
    (directory / name).mkdir()
    (directory / name / f"{name}-export.h").write_text(export)
    (directory / name / f"{name}-version.h").write_text("")


class _Walker:
    """Walks clang's JSON AST in dump order, where a location names its file
    only when it differs from the one printed before it."""

    def __init__(self, header: Path):
        self.header = str(header)
        self.file = ""
        self.functions: dict[str, str] = {}
        self.defined: set[str] = set()
        self.types: set[str] = set()
        self.enumerators: dict[str, int] = {}

    def _locations(self, location) -> None:
        if isinstance(location, dict):
            for key, value in location.items():
                if key == "file":
                    self.file = value
                elif key != "includedFrom":
                    self._locations(value)

    def walk(self, node: dict) -> None:
        self._locations(node.get("loc"))
        ours = self.file == self.header
        self._locations(node.get("range"))
        kind, name = node.get("kind"), node.get("name")
        if ours and name and not node.get("isImplicit"):
            if kind == "FunctionDecl":
                self.functions.setdefault(name, node["type"]["qualType"])
                if any(child.get("kind") == "CompoundStmt" for child in node.get("inner", [])):
                    self.defined.add(name)
            elif kind in ("TypedefDecl", "CXXRecordDecl", "RecordDecl", "EnumDecl"):
                self.types.add(name)
        if kind == "EnumDecl":
            self._enum(node, ours)
            return
        if kind in ("TranslationUnitDecl", "LinkageSpecDecl"):
            for child in node.get("inner", []):
                self.walk(child)
        else:
            for child in node.get("inner", []):
                self._skip(child)

    def _skip(self, node) -> None:
        """Follows the locations of a subtree without collecting from it."""
        if isinstance(node, dict):
            self._locations(node.get("loc"))
            self._locations(node.get("range"))
            for child in node.get("inner", []):
                self._skip(child)

    def _enum(self, node: dict, ours: bool) -> None:
        value = -1
        for child in node.get("inner", []):
            self._locations(child.get("loc"))
            self._locations(child.get("range"))
            explicit = [int(v) for v in re.findall(r'"value": "(-?\d+)"', json.dumps(child.get("inner", [])))]
            self._skip({"inner": child.get("inner", [])})
            if child.get("kind") == "EnumConstantDecl":
                value = explicit[0] if explicit else value + 1
                if ours:
                    self.enumerators[child["name"]] = value


def _macros(text: str, header: Path) -> set[str]:
    """Macros #defined in `header`, from ``clang -E -dD`` output."""
    names, current = set(), ""
    for line in text.splitlines():
        marker = re.match(r'# \d+ "(.*)"', line)
        if marker:
            current = marker.group(1)
        elif current == str(header):
            define = re.match(r"#define (\w+)", line)
            if define and not define.group(1).startswith("_"):
                names.add(define.group(1))
    return names


def _table_entry(name: str, qual_type: str) -> str:
    result, parameters = re.fullmatch(r"(.+?) ?(\(.*\))", qual_type).groups()
    return f"GPUSYM_API_FUNCTION({result}, {name}, {parameters})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("name")
    parser.add_argument("header", type=Path)
    parser.add_argument("-o", "--out", type=Path)
    parser.add_argument("--origin", help="where HEADER comes from, for OUT's first line: a repository and tag")
    parser.add_argument("-I", dest="directories", type=Path, action="append", default=[])
    parser.add_argument("-D", dest="defines", action="append", default=[])
    parser.add_argument("--include", dest="includes", action="append", default=[])
    parser.add_argument("--exclude", action="append", default=[])
    parser.add_argument("--table", type=Path)
    parser.add_argument("--v2-names", type=Path)
    args = parser.parse_args()
    header = args.header.resolve()
    with tempfile.TemporaryDirectory() as directory:
        stubs = Path(directory)
        _stubs(args.name, stubs)
        ast = json.loads(_clang(header, stubs, args, "-fsyntax-only", "-Xclang", "-ast-dump=json"))
        macros = _macros(_clang(header, stubs, args, "-E", "-dD"), header)
    walker = _Walker(header)
    walker.walk(ast)
    lines = [f"function {name}" for name in walker.functions]
    lines += [f"type {name}" for name in walker.types]
    lines += [f"enumerator {name} {value}" for name, value in walker.enumerators.items()]
    lines += [f"macro {name}" for name in macros - set(walker.enumerators)]
    lines = [line for line in lines if line.split()[1] not in args.exclude]
    out = args.out or OUT_DIR / f"{args.name}_identifiers.txt"
    out.parent.mkdir(parents=True, exist_ok=True)
    origin = f" of {args.origin}" if args.origin else ""
    source = f"# The public identifiers of {header.name}{origin}, from scripts/list_library_api.py.\n"
    out.write_text(source + "\n".join(sorted(lines, key=lambda line: (line.split()[1], line))) + "\n")
    if args.table:
        entries = [_table_entry(n, t) for n, t in sorted(walker.functions.items()) if n not in walker.defined]
        banner = f"// {args.name}'s functions, one X-macro entry each (scripts/list_library_api.py).\n"
        args.table.write_text(banner + "\n".join(entries) + "\n")
    if args.v2_names:
        renames = sorted(
            (name.replace("_v2", ""), name)
            for name in walker.functions
            if re.search(r"_v2(_64)?$", name) and name.replace("_v2", "") in walker.functions
        )
        banner = f"// {args.name}'s second names (scripts/list_library_api.py).\n"
        args.v2_names.write_text(banner + "".join(f"#define {old} {new}\n" for old, new in renames))
    print(f"{out}: {len(lines)} identifiers, {len(walker.functions)} functions")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
