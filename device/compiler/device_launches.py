"""Kernel launches in device code (CUDA's dynamic parallelism), which
clang-19 refuses ("reference to __global__ function 'k' in __global__
function").

A compile that fails so is preprocessed and compiled again (hip_source.py,
as for PTX's constraint letters) with each ``k<<<grid, block, shared,
stream>>>(args)`` inside a ``__global__`` or ``__device__`` function
spelled ``__gpusym_cdp::configure<&k>(grid, block, shared,
stream)(args)``, which cuda_device_runtime_api.h defines: a variable
template's initializer may name a kernel where device code may not.
Launches in host code keep their ``<<<>>>``, and with it the kernel's stub
in host backtraces.  The lines stay as they were, so that diagnostics and
debug information name the source's."""

from __future__ import annotations

import re

_ERROR = re.compile(
    r"(?:reference to __global__ function '[^']*' in|call to __global__ function from) "
    r"__(?:global|device|host__ __device)__ function"
)
#: What the scan stops at in preprocessed text: line markers, literals
#: (whose braces and brackets are not code), braces, statement ends and
#: launches' opening brackets.
_TOKENS = re.compile(
    r"""(?P<marker>^\#[^\n]*)
    | (?P<literal>(?:u8|[uUL])?R"(?P<delimiter>[^(\s]*)\(.*?\)(?P=delimiter)"
        | (?:u8|[uUL])?"(?:[^"\\\n]|\\.)*"
        | (?<![\w'])'(?:[^'\\\n]|\\.)+')
    | (?P<open>\{) | (?P<close>\}) | (?P<end>;) | (?P<launch><<<)""",
    re.MULTILINE | re.DOTALL | re.VERBOSE,
)
_DEVICE = re.compile(r"__attribute__\s*\(\(\s*(?:__)?(?:device|global)(?:__)?\s*\)\)")


def failed_on_device_launch(stderr: str) -> bool:
    """Whether a compile failed on a kernel launch in device code."""
    return bool(_ERROR.search(stderr))


def explained(stderr: str) -> str:
    """`stderr` of the compile again, with a line on what it says of a
    launch made a call (an overloaded kernel, which ``&k`` cannot name)."""
    if "__gpusym_cdp::configure" not in stderr:
        return stderr
    return (
        f"{stderr.rstrip()}\ngpusym: note: a launch in device code is compiled as "
        "__gpusym_cdp::configure<&kernel>(configuration)(arguments), which cannot name an overloaded kernel\n"
    )


def _device_launches(text: str) -> list[int]:
    """Where each ``<<<`` inside a __global__ or __device__ function starts."""
    device = [False]  # for each open brace: whether its code is device code
    head = 0  # where the declaration or statement the next brace opens starts
    found = []
    for token in _TOKENS.finditer(text):
        kind = token.lastgroup
        if kind == "open":
            device.append(device[-1] or bool(_DEVICE.search(text, head, token.start())))
        elif kind == "close" and len(device) > 1:
            device.pop()
        elif kind == "launch" and device[-1]:
            found.append(token.start())
        if kind in ("open", "close", "end"):
            head = token.end()
    return found


def _callee_start(text: str, end: int) -> int | None:
    """Where the kernel named just before `end` starts: a qualified name,
    with its template arguments; None when it is not one."""
    position = end
    while position > 0 and text[position - 1].isspace():
        position -= 1
    if position and text[position - 1] == ">":  # template arguments: back to their "<"
        depth = 0
        while position > 0:
            position -= 1
            depth += {">": 1, "<": -1}.get(text[position], 0)
            if depth == 0:
                break
        else:
            return None
        while position > 0 and text[position - 1].isspace():
            position -= 1
    start = position
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_:"):
        start -= 1
    return start if start < position else None


def portable(text: str) -> str:
    """`text` (preprocessed) with its launches in device code spelled as
    calls of __gpusym_cdp::configure."""
    pieces, done = [], 0
    for opening in _device_launches(text):
        closing = text.find(">>>", opening + 3)
        start = _callee_start(text, opening)
        if closing < 0 or start is None or start < done or ";" in text[opening:closing]:
            continue
        callee = text[start:opening].rstrip()
        gap = text[start + len(callee) : opening]  # kept: the lines stay
        configuration = text[opening + 3 : closing]
        pieces += [text[done:start], f"__gpusym_cdp::configure<&{callee}>{gap}({configuration})"]
        done = closing + 3
    return "".join(pieces) + text[done:]
