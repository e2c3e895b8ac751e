#!/usr/bin/env python3
"""Lists the host-API identifiers of hipRAND's and rocRAND's headers, for
the coverage test in tests/device/test_hiprand.py.

Usage: list_rand_api.py HEADER... -o OUT

Each HEADER (hiprand.h, rocrand.h of a ROCm or Debian installation) is read
as text; OUT gets one identifier a line, ``function NAME``, ``type NAME`` or
``enumerator NAME VALUE``, sorted by name.  Names that begin with ``_`` and
the test generator HIPRAND_RNG_TEST are left out.
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path


def identifiers(text: str) -> set[str]:
    """The header's entries, as lines."""
    text = re.sub(r"/\*.*?\*/|//[^\n]*", "", text, flags=re.S)
    found = set()
    for name in re.findall(r"^\s*(?:hiprandStatus_t|rocrand_status)\s+(?:\w+API\s+)?(\w+)\s*\(", text, re.M):
        found.add(f"function {name}")
    for body, name in re.findall(r"typedef\s+enum\s+\w*\s*\{(.*?)\}\s*(\w+)\s*;", text, re.S):
        found.add(f"type {name}")
        for enumerator, value in re.findall(r"(\w+)\s*=\s*(\d+)", body):
            found.add(f"enumerator {enumerator} {value}")
    for name in re.findall(r"typedef\s+[^;{}]*?\b(\w+)\s*;", text):
        found.add(f"type {name}")
    return {line for line in found if not line.split()[1].startswith("_") and "HIPRAND_RNG_TEST" not in line}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("headers", nargs="+", type=Path)
    parser.add_argument("-o", "--out", type=Path, required=True)
    args = parser.parse_args()
    lines = set().union(*(identifiers(header.read_text()) for header in args.headers))
    args.out.write_text("".join(f"{line}\n" for line in sorted(lines, key=lambda line: line.split()[1])))


if __name__ == "__main__":
    main()
