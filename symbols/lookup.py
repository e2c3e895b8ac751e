"""Finding kernels and symbols by the names people type.

A query matches a kernel by its mangled name, its full demangled signature,
its qualified name without parameters (``ns::fill<float>``), or its
qualified name without template arguments (``ns::fill``: every instance;
``twice``: every overload)."""

from __future__ import annotations

import difflib
import weakref

from symbols.model import BinaryReport, DeviceEntity, Kernel

#: Per report, each name a kernel answers to -> those kernels (built on the first query).
_indexes: dict[int, tuple[weakref.ref, dict[str, list[Kernel]]]] = {}


def qualified_name(demangled: str) -> str:
    """``void ns::fill<float>(float*, float, int)`` -> ``ns::fill<float>``."""
    depth = 0
    for index, char in enumerate(demangled):
        if char in "<({":  # {lambda(int)#1} is one name
            if char == "(" and depth == 0:
                demangled = demangled[:index]
                break
            depth += 1
        elif char in ">)}":
            depth -= 1
    # A return type (templates have one) is separated by a space at depth 0.
    depth, cut = 0, 0
    for index, char in enumerate(demangled):
        if char in "<{":
            depth += 1
        elif char in ">}":
            depth -= 1
        elif char == " " and depth == 0:
            cut = index + 1
    return demangled[cut:]


def _strip_templates(name: str) -> str:
    """``ns::fill<float>`` -> ``ns::fill``."""
    out, depth = [], 0
    for char in name:
        if char == "<":
            depth += 1
        elif char == ">":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


def names_of(entity: Kernel | DeviceEntity) -> tuple[str, ...]:
    """Every name `entity` answers to, most specific first."""
    qualified = qualified_name(entity.demangled)
    return tuple(dict.fromkeys((entity.name, entity.demangled, qualified, _strip_templates(qualified))))


def _index(report: BinaryReport) -> dict[str, list[Kernel]]:
    cached = _indexes.get(id(report))
    if cached is not None and cached[0]() is report:
        return cached[1]
    index: dict[str, list[Kernel]] = {}
    for kernel in report.kernels:
        for name in names_of(kernel):
            index.setdefault(name, []).append(kernel)
    _indexes[id(report)] = (weakref.ref(report, lambda _, key=id(report): _indexes.pop(key, None)), index)
    return index


def find_kernels(report: BinaryReport, query: str) -> list[Kernel]:
    """The kernels answering to `query`, in the report's order."""
    return list(_index(report).get(query.strip(), ()))


def find_entities(entities: list[DeviceEntity], query: str) -> list[DeviceEntity]:
    query = query.strip()
    return [entity for entity in entities if query in names_of(entity)]


def near_names(report: BinaryReport, query: str, limit: int = 5) -> list[str]:
    """Kernel names close to `query`, for "did you mean" messages."""
    candidates = {qualified_name(kernel.demangled): None for kernel in report.kernels}
    return difflib.get_close_matches(query, list(candidates), n=limit, cutoff=0.5)
