"""``kbreak``: breakpoints on kernels by the names people use.

Names match as gdb's ``break`` matches functions (symbols/lookup.py): wild
by default, the whole name with ``-qualified``.  Each matching kernel gets
a breakpoint, set on its device name (the mangled name of the device
function), which gdb resolves in every loaded code object of the simulated
device and again in each one loaded later; the host's handle of the same
name is data, never a location, and the stub has another name.  A CUDA
kernel runs on an NVIDIA GPU: only cuda-gdb stops there (gdbext/
cuda_gdb.py), and kbreak says so in plain gdb.  ``-launch`` stops at the
host launch instead: at the kernel's stub, and at the runtime's launch
entries when they are called with the kernel's handle
(``hipLaunchKernel((const void*)foo, ...)`` from plain C++;
``cudaLaunchKernel`` and ``cudaLaunchKernelExC`` for CUDA kernels).

``-pending`` with a name no loaded file defines sets a numbered placeholder
breakpoint that gdb never resolves (``'kbreak NAME'``); when a library
defining the name is loaded, the kernel's breakpoints replace it.  Deleting
it forgets the kbreak.
"""

from __future__ import annotations

import gdb

from gdbext.commands import cuda_gdb
from gdbext.commands.kbreak_arguments import OPTIONS, Request, parse, words
from gdbext.errors import one_line_errors
from gdbext.frames import launch_arguments, pushed_configuration
from gdbext.lane_coordinates import lane_text
from gdbext.lanes import lane_watch
from gdbext.runtime_view import program_analyses
from symbols.lookup import find_kernels, names_to_type, near_names
from symbols.model import Kernel


class KbreakError(gdb.GdbError):
    """A one-line error of kbreak."""


#: -pending kbreaks waiting for a library that defines their kernel, with their placeholder breakpoints.
_waiting: list[tuple[Request, gdb.Breakpoint]] = []


def _resolve(request: Request) -> list[Kernel]:
    analyses = program_analyses.analyses()
    if not analyses:
        if not gdb.current_progspace().filename:
            raise KbreakError("kbreak: no program (load one with 'file PROGRAM')")
        raise KbreakError(
            "kbreak: no GPU code in the program; for a kernel loaded later (a library, hiprtc or NVRTC): "
            f"kbreak -pending {request.name}"
        )
    kernels = {k.name: k for a in analyses for k in find_kernels(a.report, request.name, request.qualified)}
    if not kernels:
        near = sorted({n for a in analyses for n in near_names(a.report, request.name)})
        hint = f"; did you mean {', '.join(near)}?" if near else ""
        raise KbreakError(f"kbreak: no kernel named '{request.name}'{hint}")
    return list(kernels.values())


def break_at(spec: str, condition: str | None) -> gdb.Breakpoint:
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


def _and(call: str | None, condition: str | None) -> str | None:
    """gpusym's `call` (a convenience function's) and the user's `condition`."""
    present = [call] if call else []
    return " && ".join(present + ([f"({condition})"] if condition else [])) or None


def _lane_condition(request: Request) -> str | None:
    """``$_gpusym_lane_is("block (3,4,0)")``: reads in ``info breakpoints``
    as what it selects."""
    if not request.block and not request.thread:
        return None
    return f'$_gpusym_lane_is("{lane_text(request.block, request.thread)}")'


def _device_code(kernel: Kernel) -> str:
    targets = ", ".join(sorted({d.target for d in kernel.device}))
    return f"device code ({targets})" if targets else "no device code in the binary"


def _numbers(breakpoints: list[gdb.Breakpoint]) -> str:
    numbers = [b.number for b in breakpoints]
    return f"Breakpoint {numbers[0]}" if len(numbers) == 1 else f"Breakpoints {', '.join(map(str, numbers))}"


def kbreak(argument: str) -> None:
    request = parse(argument)
    try:
        _set(request)
    except KbreakError:
        if not request.pending:
            raise
        placeholder = break_at(f"'kbreak {request.name}'", None)
        _waiting.append((request, placeholder))
        print(
            f"Breakpoint {placeholder.number}: no kernel named '{request.name}' in the files loaded so far: "
            "pending until a library that defines it is loaded"
        )


def resolve_deferred(event) -> None:
    """On each object file gdb loads, the -pending kbreaks it can now resolve."""
    if not _waiting or not program_analyses.may_hold_kernels(event.new_objfile.filename or ""):
        return
    for entry in list(_waiting):
        request, placeholder = entry
        if not placeholder.is_valid():  # deleted: forgotten
            _waiting.remove(entry)
            continue
        try:
            created = _set(request, f" (was pending Breakpoint {placeholder.number})")
        except KbreakError:
            continue  # not in this file
        except Exception as error:  # noqa: BLE001 - an event handler: one line, never a traceback
            print(f"kbreak: {request.name}: {error}")
            created = []
        for breakpoint in created:
            breakpoint.enabled = placeholder.enabled
        _waiting.remove(entry)
        placeholder.delete()


def _set(request: Request, note: str = "") -> list[gdb.Breakpoint]:
    kernels = _resolve(request)
    if request.launch:
        return _set_at_launches(request, kernels, note)
    cuda = [kernel for kernel in kernels if launch_arguments.is_cuda(kernel)]
    if cuda and not cuda_gdb.running():  # not a KbreakError: -pending has found the kernel
        raise gdb.GdbError(
            f"kbreak: {cuda[0].demangled} runs on an NVIDIA GPU, where plain gdb cannot stop (cuda-gdb "
            f"can); 'kbreak -launch {request.name}' stops at its launches on the host"
        )
    if cuda_gdb.running():
        condition = _and(cuda_gdb.lane_condition(request.block, request.thread), request.condition)
        # Forced: a host location of the same name may not read threadIdx, and is disabled anyway.
        forced = " -force-condition" if condition else ""
        created = [break_at(kernel.name + forced, condition) for kernel in kernels]
        for breakpoint in created:
            cuda_gdb.keep_off_host(breakpoint, {analysis.report.path for analysis in program_analyses.analyses()})
    else:
        created = [break_at(kernel.name, _and(_lane_condition(request), request.condition)) for kernel in kernels]
        if request.block or request.thread:
            for breakpoint in created:
                lane_watch.gate(breakpoint, request.block, request.thread)
    for breakpoint, kernel in zip(created, kernels):
        located = any(location.enabled for location in breakpoint.locations)  # cuda-gdb: host ones are disabled
        state = "set" if located else "pending until its code object is loaded"
        print(f"{_numbers([breakpoint])}: kernel {kernel.demangled} — {_device_code(kernel)}, {state}{note}")
    if len(created) > 1:
        print(f"{len(created)} kernels match '{request.name}'.")
    return created


def _set_at_launches(request: Request, kernels: list[Kernel], note: str) -> list[gdb.Breakpoint]:
    """kbreak -launch: at each kernel's stub, and at its runtime's launch
    entries when their handle argument is the kernel's."""
    created, entries = [], {}
    for kernel in kernels:
        if kernel.stub:
            created.append(break_at(kernel.stub.symbol, request.condition))
        if kernel.handle:
            quoted = kernel.demangled.replace("\\", "\\\\").replace('"', '\\"')
            launching = f'$_gpusym_launching("{quoted}")'
            for entry in launch_arguments.entries(kernel):
                entries[entry] = None
                # After its prologue: arguments valid.
                created.append(break_at(entry, _and(launching, request.condition)))
        if kernel.stub and launch_arguments.is_cuda(kernel):
            pushed_configuration.record()
    if not created:
        raise KbreakError(f"kbreak: {request.name}: no stub and no handle to catch its launch at")
    described = ", ".join(k.demangled for k in kernels)
    print(
        f"{_numbers(created)}: launch of kernel {described} (at its stub, and at {' and '.join(entries)} on its "
        f"handle){note}"
    )
    return created


def complete(text: str, word: str) -> list[str]:
    """Options, or kernel names as users type them that start with the
    name being typed; each returned as the completion of `word`, the part
    of it after gdb's last word-break character (``:``, ``<``, ``(``, ...)."""
    typed = words(text) if text.strip() else []
    current = typed[-1] if typed and not text[-1:].isspace() else ""
    start = len(current) - len(word)
    if start < 0 or not current.endswith(word):
        return []
    if current.startswith("-"):
        candidates = set(OPTIONS)
    else:
        qualified = "-qualified" in (typed[:-1] if current else typed)
        candidates = set().union(*(names_to_type(a.report, qualified) for a in program_analyses.analyses()))
    return sorted(name[start:] for name in candidates if name.startswith(current))


class KbreakCommand(gdb.Command):
    """Break on a GPU kernel (gpusym): kbreak [OPTIONS] KERNEL [if CONDITION]

    KERNEL is a kernel's name, matched as gdb's break matches functions: a name
    or its last scopes (fill, inner::fill and zoo::inner::fill all name
    zoo::inner::fill<int, 200>; hidden_scale names
    (anonymous namespace)::hidden_scale), with template arguments to pick one
    instance (ns::fill<float>), with parameters to pick one overload
    (twice(int*), quoted or not), a whole demangled signature, or a mangled
    name.  A name that several kernels match sets a breakpoint on each.  The
    breakpoint is on the kernel in device code (the simulated device's code
    objects, pending until they are loaded; a CUDA kernel's only in cuda-gdb),
    never on the host handle or stub of the same name.  Names complete with TAB.
    Options, before or after KERNEL:
      -qualified       KERNEL is the whole qualified name, as for break -qualified
      -launch          stop at the launch on the host instead: at the kernel's stub
                       (<<<>>>), and at hipLaunchKernel (HIP) or cudaLaunchKernel
                       and cudaLaunchKernelExC (CUDA) when given the kernel's handle
      -pending         if no loaded file has the kernel, set a placeholder
                       breakpoint that the kernel's breakpoints replace when a
                       library that defines it is loaded (delete it to give up)
      -block X,Y,Z     stop only in this block (missing coordinates are 0)
      -thread X,Y,Z    stop only in this thread of a block
    CONDITION is evaluated in the kernel's frame, like break's."""

    def __init__(self) -> None:
        super().__init__("kbreak", gdb.COMMAND_BREAKPOINTS)

    def invoke(self, argument: str, from_tty: bool) -> None:
        with one_line_errors("kbreak"):
            kbreak(argument)

    def complete(self, text: str, word: str):
        try:
            return complete(text, word or "")
        except Exception:  # noqa: BLE001 - TAB shows nothing rather than a traceback
            return []
