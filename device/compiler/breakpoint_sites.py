"""A `nop` where each kernel's body starts, in the simulated device's assembly.

gdb stops a breakpoint on a function (``break square``, what ``kbreak``
sets) at the address its line table marks ``prologue_end``.  In simulated
kernels that first instruction nearly always addresses memory relative to
%rip: the load of the current lane's address (``threadIdx``) or of a global.
To step a thread over a breakpoint there while the others run, gdb 13 copies
the instruction elsewhere, rewritten to address through a scratch register
it saves and restores, and does not restore it when another thread's stop
interrupts the step: the scratch register (often a callee-saved one) keeps
gdb's value, and the lane, or the runtime under it, goes wrong.  A lane
condition (``kbreak -block``) makes every other lane step over the
breakpoint, so such a stop comes soon.  A `nop` at ``prologue_end`` is where
gdb then stops, on the same line, and stepping over it needs no register;
each lane pays one `nop`.
"""

from __future__ import annotations

import re

_LABEL = re.compile(r"^([^\s:#]+):")
_FUNCTION_TYPE = re.compile(r"^\s*\.type\s+([^\s,]+),\s*@function")
_PROLOGUE_END = re.compile(r"^\s*\.loc\s.*\bprologue_end\b")
_FUNCTION_END = re.compile(r"^\.Lfunc_end\d+:")


def mark(assembly: str, kernels: set[str] | None) -> str:
    """`assembly` with a `nop` after the ``prologue_end`` ``.loc`` of each
    function named in `kernels` (mangled names), or of every function when
    `kernels` is None (relocatable device code, whose kernels are known only
    when it is linked)."""
    lines = assembly.splitlines(keepends=True)
    if kernels is None:
        kernels = {match.group(1) for match in map(_FUNCTION_TYPE.match, lines) if match}
    out: list[str] = []
    in_kernel = False
    for line in lines:
        out.append(line)
        label = _LABEL.match(line)
        if label and label.group(1) in kernels:
            in_kernel = True
        elif in_kernel and _FUNCTION_END.match(line):
            in_kernel = False
        elif in_kernel and _PROLOGUE_END.match(line):
            out.append("\tnop\n")
            in_kernel = False
    return "".join(out)
