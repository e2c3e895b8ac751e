"""Finding kernels and symbols by the names people type, as gdb's linespecs
match function names.

A query matches an entity by its mangled name or its whole demangled
signature, or as ``[SCOPE::]...NAME[<ARGS>][(PARAMETERS)]``:

- wild matching (the default): the query's scopes are the last scopes of the
  entity's qualified name, so ``fill`` and ``inner::fill`` match
  ``zoo::inner::fill<int, 200>``, and ``hidden_scale`` matches
  ``(anonymous namespace)::hidden_scale``; with ``qualified``, they must be
  all of them (gdb's ``break -qualified``);
- a name without template arguments matches every instance of the template
  (``ns::fill``), one with them only that instance (``ns::fill<float>``);
- without parameters every overload matches (``twice``), with them only the
  one taking them (``twice(int*)``).

Spaces count only between words: ``fill<int,200>`` is ``fill<int, 200>``."""

from __future__ import annotations

import difflib
import re
import weakref
from dataclasses import dataclass

from symbols.model import BinaryReport, DeviceEntity, Kernel

_OPEN, _CLOSE = "<({[", ">)}]"
_SPACES = re.compile(r"\s+")
_PUNCTUATION_SPACE = re.compile(r" ?([^\w\s]) ?")


@dataclass(frozen=True)
class Pattern:
    """A query as matched: its scopes (``("inner", "fill<int,200>")``) and
    its parameters (``"int*"``), None when it names none; both normalized."""

    scopes: tuple[str, ...]
    params: str | None


def normalize(text: str) -> str:
    """`text` with spaces only between words: ``fill<int, 200>`` -> ``fill<int,200>``."""
    return _PUNCTUATION_SPACE.sub(r"\1", _SPACES.sub(" ", text.strip()))


def _params_start(text: str) -> int:
    """Where the top-level parameter list of a signature starts, or -1."""
    depth, index = 0, 0
    while index < len(text):
        char = text[index]
        if char == "(" and depth == 0 and index:
            if text.endswith("operator", 0, index) and text.startswith("()", index):
                index += 2  # operator() is a name
                continue
            if text[index - 1].isalnum() or text[index - 1] in "_>]" or text.endswith("operator()", 0, index):
                return index
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        index += 1
    return -1


def _split_signature(demangled: str) -> tuple[str, str | None]:
    """``void ns::fill<float>(float*, float, int)`` -> (``ns::fill<float>``,
    ``float*, float, int``)."""
    start = _params_start(demangled)
    name, params = (demangled, None) if start < 0 else (demangled[:start], demangled[start + 1 : demangled.rfind(")")])
    # A return type (templates have one) is separated by a space at depth 0.
    depth, cut = 0, 0
    for index, char in enumerate(name):
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        elif char == " " and depth == 0:
            cut = index + 1
    return name[cut:], params


def qualified_name(demangled: str) -> str:
    """``void ns::fill<float>(float*, float, int)`` -> ``ns::fill<float>``."""
    return _split_signature(demangled)[0]


def _scopes(name: str) -> tuple[str, ...]:
    """``zoo::inner::fill<int, 200>`` -> (``zoo``, ``inner``, ``fill<int, 200>``),
    split at the top level only."""
    parts, depth, start = [], 0, 0
    index = 0
    while index < len(name):
        char = name[index]
        if char in _OPEN:
            depth += 1
        elif char in _CLOSE:
            depth -= 1
        elif depth == 0 and name.startswith("::", index):
            parts.append(name[start:index])
            start = index + 2
            index += 1
        index += 1
    return (*parts, name[start:])


def _without_arguments(scope: str) -> str:
    """``fill<int,200>`` -> ``fill``."""
    return scope[: scope.index("<")] if scope.endswith(">") and "<" in scope else scope


def _params(params: str) -> str:
    params = normalize(params)
    return "" if params == "void" else params


def pattern(query: str) -> Pattern:
    """The `Pattern` of a query as typed."""
    name, params = _split_signature(normalize(query))
    return Pattern(_scopes(name), None if params is None else _params(params))


@dataclass(frozen=True)
class _Entry:
    entity: Kernel | DeviceEntity
    scopes: tuple[str, ...]  # normalized
    params: str | None


def _entry(entity: Kernel | DeviceEntity) -> _Entry:
    name, params = _split_signature(entity.demangled)
    return _Entry(entity, _scopes(normalize(name)), None if params is None else _params(params))


def _matches(wanted: Pattern, entry: _Entry, qualified: bool) -> bool:
    count = len(wanted.scopes)
    if count > len(entry.scopes) or (qualified and count != len(entry.scopes)):
        return False
    for query, scope in zip(wanted.scopes, entry.scopes[-count:]):
        if query != (scope if "<" in query else _without_arguments(scope)):
            return False
    return wanted.params is None or wanted.params == entry.params


class _Index:
    """Entities read for matching once, keyed so that a query looks at the
    entities with its name only, not at all of them."""

    def __init__(self, entities: list[Kernel] | list[DeviceEntity]) -> None:
        self.entries = [_entry(entity) for entity in entities]
        self._position = {id(entry): index for index, entry in enumerate(self.entries)}
        self.exact: dict[str, list[_Entry]] = {}
        self.by_name: dict[str, list[_Entry]] = {}  # by last name, template arguments dropped
        self.by_scope: dict[str, list[_Entry]] = {}  # by last name, template arguments kept
        for entry in self.entries:
            for key in {entry.entity.name, normalize(entry.entity.demangled)}:
                self.exact.setdefault(key, []).append(entry)
            self.by_name.setdefault(_without_arguments(entry.scopes[-1]), []).append(entry)
            self.by_scope.setdefault(entry.scopes[-1], []).append(entry)
        self._qualified_names: list[str] | None = None
        self._names_to_type: dict[bool, set[str]] = {}

    def find(self, query: str, qualified: bool) -> list:
        query = query.strip()
        exact = self.exact.get(query, []) + self.exact.get(normalize(query), [])
        if exact:
            return self._in_order(exact)
        wanted = pattern(query)
        last = wanted.scopes[-1]
        candidates = self.by_scope.get(last, []) if "<" in last else self.by_name.get(last, [])
        return self._in_order([e for e in candidates if _matches(wanted, e, qualified)])

    def _in_order(self, entries: list[_Entry]) -> list:
        if len(entries) > 1:
            entries = sorted({id(e): e for e in entries}.values(), key=lambda e: self._position[id(e)])
        return [e.entity for e in entries]

    def names_to_type(self, qualified: bool) -> set[str]:
        """See the module's `names_to_type`."""
        if qualified not in self._names_to_type:
            names = set()
            for entry in self.entries:
                name, params = _split_signature(entry.entity.demangled)
                scopes = _scopes(name)
                for start in range(1 if qualified else len(scopes)):
                    typed = "::".join(scopes[start:])
                    names |= {typed, "::".join((*scopes[start:-1], _without_arguments(scopes[-1])))}
                    if params is not None:
                        names.add(f"{typed}({params})")
            self._names_to_type[qualified] = names
        return self._names_to_type[qualified]

    def qualified_names(self) -> list[str]:
        """Each entity's qualified name, once each, in order."""
        if self._qualified_names is None:
            names = {qualified_name(e.entity.demangled): None for e in self.entries}
            self._qualified_names = list(names)
        return self._qualified_names


#: Per report, its kernels' index (built on the first query).
_indexes: dict[int, tuple[weakref.ref, _Index]] = {}


def _kernel_index(report: BinaryReport) -> _Index:
    cached = _indexes.get(id(report))
    if cached is not None and cached[0]() is report:
        return cached[1]
    index = _Index(report.kernels)
    _indexes[id(report)] = (weakref.ref(report, lambda _, key=id(report): _indexes.pop(key, None)), index)
    return index


def find_kernels(report: BinaryReport, query: str, qualified: bool = False) -> list[Kernel]:
    """The kernels answering to `query`, in the report's order."""
    return _kernel_index(report).find(query, qualified)


def find_entities(entities: list[DeviceEntity], query: str, qualified: bool = False) -> list[DeviceEntity]:
    return _Index(entities).find(query, qualified)


def names_to_type(report: BinaryReport, qualified: bool = False) -> set[str]:
    """Every name a kernel answers to as users type them, for completion:
    its qualified name and (unless `qualified`) each shorter one, each
    with its template arguments and parameters, with its template
    arguments, and with neither."""
    return _kernel_index(report).names_to_type(qualified)


def near_names(report: BinaryReport, query: str, limit: int = 5) -> list[str]:
    """Kernel names close to `query`, for "did you mean" messages."""
    return difflib.get_close_matches(query, _kernel_index(report).qualified_names(), n=limit, cutoff=0.5)
