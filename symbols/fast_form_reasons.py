"""Why a kernel has no fast form, as the fast-form pass recorded it in the
simulated device's code object (device/passes/fast_form.cpp): the section
gpusym_fast_form_reasons, a kernel's mangled name then its reason ("" when
it has a fast form), each NUL-terminated."""

from __future__ import annotations

import os

from symbols.elf import ElfFile
from symbols.errors import FormatError
from symbols.model import CodeObject

SECTION = "gpusym_fast_form_reasons"
#: The simulated device's code objects' target in an analysis.
SIMULATED_TARGET = "gpusym"

_cache: dict[tuple[str, int, int], dict[str, str]] = {}


def reasons(path: str, code_objects: list[CodeObject]) -> dict[str, str]:
    """Each kernel of the simulated device's code objects of the file at
    `path`, by mangled name: why it has no fast form, "" when it has one.
    Kernels built without the pass are missing.  Only that section of each
    code object is read, once per file version."""
    try:
        stat = os.stat(path)
    except OSError:
        return {}
    key = (path, stat.st_mtime_ns, stat.st_size)
    if key not in _cache:
        _cache[key] = _read(path, [c for c in code_objects if c.target == SIMULATED_TARGET and not c.compressed])
    return _cache[key]


def _read(path: str, code_objects: list[CodeObject]) -> dict[str, str]:
    found: dict[str, str] = {}
    try:
        with open(path, "rb") as file:
            for code_object in code_objects:
                file.seek(code_object.offset)
                elf = ElfFile(file.read(code_object.size))
                section = elf.section(SECTION)
                if section is None:
                    continue
                strings = bytes(elf.contents(section)).split(b"\0")
                for name, why in zip(strings[0::2], strings[1::2]):
                    found.setdefault(name.decode(), why.decode())
    except (FormatError, OSError):
        pass  # unreadable: the reasons stay unknown
    return found
