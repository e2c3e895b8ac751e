"""Finding kernels and symbols by the names people type.

A query matches a kernel by its mangled name, its full demangled signature,
its qualified name without parameters (``ns::fill<float>``), or its
qualified name without template arguments (``ns::fill``: every instance;
``twice``: every overload)."""

from __future__ import annotations

import difflib

from symbols.model import BinaryReport, DeviceEntity, Kernel


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


def find_kernels(report: BinaryReport, query: str) -> list[Kernel]:
    query = query.strip()
    return [kernel for kernel in report.kernels if query in names_of(kernel)]


def find_entities(entities: list[DeviceEntity], query: str) -> list[DeviceEntity]:
    query = query.strip()
    return [entity for entity in entities if query in names_of(entity)]


def near_names(report: BinaryReport, query: str, limit: int = 5) -> list[str]:
    """Kernel names close to `query`, for "did you mean" messages."""
    candidates = {names_of(kernel)[2]: None for kernel in report.kernels}
    return difflib.get_close_matches(query, list(candidates), n=limit, cutoff=0.5)
