"""``__shared__ alignas(N) T x;``, which nvcc takes and clang-19 does not.

``__shared__`` is ``__attribute__((shared))``, in the simulated device's
compile followed by ``thread_local`` (a block's memory is its worker's
thread-local storage).  clang-19 takes no alignment-specifier after a GNU
attribute in a function's body, nor after ``thread_local`` anywhere
("an attribute list cannot appear here"; newer clang takes the first).  A
compile that fails so is preprocessed and compiled again (hip_source.py,
as for PTX's constraint letters) with each such ``alignas`` moved to the
start of its declaration, before ``static``, ``extern`` and the like, where
it means the same."""

from __future__ import annotations

import re

_ERROR = re.compile(r"error: an attribute list cannot appear here")
#: __shared__ as a compile expands it, then alignas.
_MISPLACED = re.compile(r"__attribute__\(\(shared\)\)\s+(?:thread_local\s+)?(?=alignas\s*\()")
_ALIGNAS = re.compile(r"alignas\s*\(")
#: What may come before __shared__ in a declaration.
_SPECIFIERS = re.compile(r"(?:\b(?:static|extern|volatile|const|constexpr|inline)\s+)+$")


def failed_on_shared_alignment(stderr: str) -> bool:
    """Whether a compile failed on an attribute out of place (possibly an
    alignas after __shared__)."""
    return bool(_ERROR.search(stderr))


def portable(source: str) -> str:
    """`source` (preprocessed) with the alignas after each expanded
    ``__shared__`` moved to the start of its declaration."""
    pieces, position = [], 0
    for found in _MISPLACED.finditer(source):
        if found.start() < position:
            continue
        specifiers, end = [], found.end()
        while alignas := _ALIGNAS.match(source, end):
            close = _closing(source, alignas.end())
            if close is None:
                break
            specifiers.append(source[end : close + 1])
            end = close + 1
            while end < len(source) and source[end].isspace():
                end += 1
        if not specifiers:
            continue
        before = source[position : found.start()]
        start = _SPECIFIERS.search(before)
        cut = start.start() if start else len(before)
        pieces += [before[:cut], " ".join(specifiers), " ", before[cut:], source[found.start() : found.end()]]
        position = end
    pieces.append(source[position:])
    return "".join(pieces)


def _closing(source: str, position: int) -> int | None:
    """Where the parenthesis opened just before `position` closes."""
    depth = 1
    for index in range(position, len(source)):
        if source[index] == "(":
            depth += 1
        elif source[index] == ")":
            depth -= 1
            if depth == 0:
                return index
    return None
