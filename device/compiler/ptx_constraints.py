"""Inline PTX's operand constraints, made acceptable to the simulated
device's and AMDGPU's compiles.

PTX asm statements name their operands' register classes with letters of
their own (``h`` 16-bit, ``r`` 32-bit, ``l`` 64-bit, ``f`` float, ``d``
double).  clang checks constraints against the compile's target before any
code exists: x86-64 rejects ``h`` and ``=f``, AMDGPU ``l``, ``d`` and ``f``.
The PTX itself is translated into IR by the ``inline_ptx`` pass, which takes
each operand's width from its type, so the letter carries nothing the pass
needs: a source whose compile fails on such a constraint is preprocessed and
compiled again with every PTX register letter turned into ``r``, which both
targets accept.  Asm statements whose text is not PTX are left alone."""

from __future__ import annotations

import re

#: clang's errors for a constraint its target has not, and for a special
#: register written with one % (nvcc takes %globaltimer as %%globaltimer).
_CONSTRAINT_ERROR = re.compile(
    r"error: (?:invalid (?:input|output) constraint '[^']*' in asm|invalid % escape in inline assembly string)"
)
#: A special register's lone %, in a template with operands.
_LONE_PERCENT = re.compile(r"(?<!%)%(?=[a-z_])")
_ASM_START = re.compile(r"\b(?:asm|__asm__|__asm)\b\s*(?:(?:volatile|__volatile__|inline|goto)\s*)*\(")
#: A PTX instruction: a mnemonic with a type or modifier suffix (mov.u32,
#: shfl.sync.idx.b32), or a special register (%laneid).
_PTX_TEXT = re.compile(r"\b[a-z][a-z0-9]*(?:\.[a-z][a-z0-9]*)+\s|%%?(?:laneid|lanemask_|clock|globaltimer|warpid|smid)")
#: PTX's register classes, with their modifiers (=, +, &).
_PTX_REGISTER = re.compile(r'"([=+&]*)[hrlfd]"')


def failed_on_constraints(stderr: str) -> bool:
    """Whether a compile failed because of an asm constraint of another
    target (or a special register's lone %)."""
    return bool(_CONSTRAINT_ERROR.search(stderr))


def portable(source: str) -> str:
    """`source` (preprocessed) with the operand constraints of its PTX asm
    statements turned into ``r``, and their special registers' lone %
    doubled."""
    pieces, position = [], 0
    for start in _ASM_START.finditer(source):
        if start.start() < position:
            continue  # inside a statement already rewritten
        end = _statement_end(source, start.end())
        if end is None:
            break
        statement = source[start.end() : end]
        colon = _first_colon(statement)
        if colon is not None and _PTX_TEXT.search(_strings(statement[:colon])):
            template = _LONE_PERCENT.sub("%%", statement[:colon])
            operands = _PTX_REGISTER.sub(r'"\1r"', statement[colon:])
            pieces += [source[position : start.end()], template, operands]
            position = end
    pieces.append(source[position:])
    return "".join(pieces)


def _statement_end(source: str, position: int) -> int | None:
    """Where the parenthesis opened just before `position` closes, string
    and character literals skipped; None if it never does."""
    depth = 1
    while position < len(source):
        char = source[position]
        if char in "\"'":
            position = _literal_end(source, position)
            continue
        if char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return position
        position += 1
    return None


def _first_colon(statement: str) -> int | None:
    """The index of the colon that ends an asm statement's template."""
    position = 0
    while position < len(statement):
        if statement[position] in "\"'":
            position = _literal_end(statement, position)
        elif statement[position] == ":":
            return position
        else:
            position += 1
    return None


def _literal_end(source: str, position: int) -> int:
    """The index just past the string or character literal at `position`."""
    quote, position = source[position], position + 1
    while position < len(source) and source[position] not in (quote, "\n"):
        position += 2 if source[position] == "\\" else 1
    return position + 1


def _strings(template: str) -> str:
    """The text of the string literals in `template`, joined."""
    return "".join(re.findall(r'"((?:[^"\\\n]|\\.)*)"', template))
