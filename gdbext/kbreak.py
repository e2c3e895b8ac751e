"""``kbreak``: breakpoints on kernels by the names people use.

A kernel's breakpoint is set on its device name (the mangled name of the
device function), which gdb resolves in every loaded code object of the
simulated device and again in each one loaded later; the host's handle of
the same name is data, never a location, and the stub has another name.
``-launch`` stops at the host launch instead: at the kernel's stub, and at
the runtime's launch entry when it is called with the kernel's handle
(``hipLaunchKernel((const void*)foo, ...)`` from plain C++).
"""

from __future__ import annotations

import re

import gdb

from gdbext import program
from gdbext.errors import one_line_errors
from gdbext.functions import coordinates
from symbols.lookup import find_kernels, names_of, near_names
from symbols.model import Kernel

LAUNCH_ENTRY = "hipLaunchKernel"
USAGE = "usage: kbreak KERNEL [-launch] [-pending] [-block X,Y,Z] [-thread X,Y,Z] [if CONDITION]"

#: kbreak arguments waiting for a library that defines their kernel.
_deferred: list[str] = []


class KbreakError(gdb.GdbError):
    """A one-line error of kbreak."""


def _parse(argument: str) -> tuple[str, bool, bool, tuple | None, tuple | None, str | None]:
    condition = None
    match = re.search(r"(?:^|\s)if(?:\s|$)", argument)
    if match:
        argument, condition = argument[: match.start()], argument[match.end() :].strip() or None
    words = gdb.string_to_argv(argument)
    name, launch, pending, block, thread = None, False, False, None, None
    iterator = iter(words)
    for word in iterator:
        if word == "-launch":
            launch = True
        elif word == "-pending":
            pending = True
        elif word in ("-block", "-thread"):
            value = next(iterator, None)
            if value is None:
                raise KbreakError(f"kbreak: {word} needs X,Y,Z")
            if word == "-block":
                block = coordinates(value, f"kbreak: {word}")
            else:
                thread = coordinates(value, f"kbreak: {word}")
        elif word.startswith("-"):
            raise KbreakError(f"kbreak: unknown option {word}; {USAGE}")
        elif name is None:
            name = word
        else:
            raise KbreakError(f"kbreak: one kernel name at a time ('{name}', then '{word}'); {USAGE}")
    if name is None:
        raise KbreakError(USAGE)
    if launch and (block or thread):
        raise KbreakError("kbreak: -block and -thread select simulated threads of a kernel, not of its launch")
    return name, launch, pending, block, thread, condition


def _resolve(name: str) -> list[Kernel]:
    analyses = program.analyses()
    if not analyses:
        raise KbreakError("kbreak: no GPU code in the program (load one with 'file PROGRAM')")
    kernels = {k.name: k for a in analyses for k in find_kernels(a.report, name)}
    if not kernels:
        near = sorted({n for a in analyses for n in near_names(a.report, name)})
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise KbreakError(f"kbreak: no kernel named '{name}'{hint}")
    return list(kernels.values())


def _break(spec: str, condition: str | None) -> gdb.Breakpoint:
    """A breakpoint on `spec`, pending without asking if nothing matches yet."""
    before = {b.number for b in gdb.breakpoints()}
    pending = gdb.parameter("breakpoint pending")
    gdb.execute("set breakpoint pending on", to_string=True)
    # The condition goes with the command: set later on a pending breakpoint,
    # gdb 13 disables the breakpoint at its next re-set.
    command = f"break {spec}" + (f" if {condition}" if condition else "")
    try:
        gdb.execute(command, to_string=True)
    finally:
        setting = {True: "on", False: "off", None: "auto"}[pending]
        gdb.execute(f"set breakpoint pending {setting}", to_string=True)
    return next(b for b in gdb.breakpoints() if b.number not in before)


def _and(*conditions: str | None) -> str | None:
    present = [f"({c})" for c in conditions if c]
    return " && ".join(present) or None


def _lane_condition(block: tuple | None, thread: tuple | None) -> str | None:
    if not block and not thread:
        return None
    block, thread = block or (-1, -1, -1), thread or (-1, -1, -1)
    return f"$_gpusym_lane_is({', '.join(map(str, block + thread))})"


def _targets(kernel: Kernel) -> str:
    return ", ".join(sorted({d.target for d in kernel.device})) or "no device code"


def _numbers(breakpoints: list[gdb.Breakpoint]) -> str:
    numbers = [b.number for b in breakpoints]
    return f"Breakpoint {numbers[0]}" if len(numbers) == 1 else f"Breakpoints {', '.join(map(str, numbers))}"


def kbreak(argument: str) -> None:
    name, _, pending, *_ = _parse(argument)
    try:
        _set(argument)
    except KbreakError:
        if not pending:
            raise
        _deferred.append(argument)
        print(f"kbreak: no kernel named '{name}' in the files loaded so far: pending until a library"
              " that defines it is loaded")


def resolve_deferred(event) -> None:
    """On each object file gdb loads, the deferred kbreaks it can now resolve."""
    if not _deferred or not program.may_hold_kernels(event.new_objfile.filename or ""):
        return
    for argument in list(_deferred):
        try:
            _set(argument)
        except KbreakError:
            continue  # not in this file
        except Exception as error:  # noqa: BLE001 - an event handler: one line, never a traceback
            print(f"kbreak: {argument}: {error}")
        _deferred.remove(argument)


def _set(argument: str) -> None:
    name, launch, _, block, thread, condition = _parse(argument)
    kernels = _resolve(name)
    if launch:
        created = []
        for kernel in kernels:
            if kernel.stub:
                created.append(_break(kernel.stub.symbol, condition))
            if kernel.handle and kernel.handle.kind != "stub":
                quoted = kernel.demangled.replace("\\", "\\\\").replace('"', '\\"')
                launching = f'$_gpusym_launching("{quoted}")'
                created.append(_break(LAUNCH_ENTRY, _and(launching, condition)))  # after its prologue: arguments valid
        if not created:
            raise KbreakError(f"kbreak: {name}: no stub and no handle to catch its launch at")
        described = ", ".join(k.demangled for k in kernels)
        print(f"{_numbers(created)}: launch of kernel {described} (at its stub, and at {LAUNCH_ENTRY} on its handle)")
        return
    lanes = _lane_condition(block, thread)
    created = [_break(kernel.name, _and(lanes, condition)) for kernel in kernels]
    pending = all(b.pending for b in created)
    for breakpoint, kernel in zip(created, kernels):
        state = "pending until its code object is loaded" if breakpoint.pending else "set"
        print(f"{_numbers([breakpoint])}: kernel {kernel.demangled} — device code ({_targets(kernel)}), {state}")
    if pending and len(created) > 1:
        print(f"{len(created)} kernels match '{name}'.")


def complete(text: str, word: str) -> list[str]:
    """Kernel names (as users type them) that start with `word`."""
    if text.lstrip().startswith("-") and " " not in text.strip():
        return [o for o in ("-launch", "-pending", "-block", "-thread") if o.startswith(word)]
    names = set()
    for analysis in program.analyses():
        for kernel in analysis.report.kernels:
            names.update(n for n in names_of(kernel)[2:])
    return sorted(n for n in names if n.startswith(word))


class KbreakCommand(gdb.Command):
    """Break on a GPU kernel: kbreak KERNEL [-launch] [-block X,Y,Z] [-thread X,Y,Z] [if COND]

KERNEL is a kernel's name as written in the source (vector_add, ns::fill<float>),
a name shared by template instances or overloads (ns::fill, twice: every one),
or a mangled name.  The breakpoint is on the kernel in device code (the
simulated device's code objects, pending until they are loaded), never on the
host handle or stub of the same name.
  -launch          stop at the launch on the host instead: at the kernel's stub
                   (<<<>>>), and at hipLaunchKernel when given the kernel's handle
  -pending         if no loaded file has the kernel, wait for a library that does
  -block X,Y,Z     stop only in this block (missing coordinates are 0)
  -thread X,Y,Z    stop only in this thread of a block"""

    def __init__(self) -> None:
        super().__init__("kbreak", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("kbreak"):
            kbreak(argument)

    def complete(self, text: str, word: str):
        return complete(text, word or "")
