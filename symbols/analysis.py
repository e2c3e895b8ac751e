"""One binary, whole: its code objects, their symbols, the host symbols, and
each kernel's stub, handle and device instances correlated into one record.

Conventions read (see docs/query.md): clang HIP (stub ``__device_stub__`` +
handle variable named like the kernel), clang CUDA (the stub is the handle),
nvcc (stub ``__device_stub__<mangled>`` + a host function named like the
kernel, which is the handle), the new offload driver (offloading entries).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, NamedTuple

from symbols import containers, device_code, registration, roles
from symbols.device_code import DeviceContents
from symbols.elf import ET_DYN, ET_EXEC, ET_REL, ElfFile, Symbol
from symbols.errors import FormatError
from symbols.mangling import STUB_PREFIX, is_gpusym_own, parameter_types, parse_stub, undecorated_kernel
from symbols.model import (
    NOT_GPU_ROLES,
    BinaryReport,
    CodeObject,
    DeviceEntity,
    DeviceSymbol,
    HostRef,
    HostSymbol,
    Kernel,
    KernelArg,
    Role,
)
from symbols.workers import Workers, demangled, map_file, release

#: Beyond this many targets (real binaries have a few dozen at most), each
#: kernel's missing_targets would make the report grow as the number of
#: kernels times the number of targets: they are not listed.
MAX_TARGETS_LISTED = 64

_ELF_FORMATS = {ET_EXEC: "elf-executable", ET_DYN: "elf-shared-object", ET_REL: "elf-relocatable"}
_HOST_TYPES = ("FUNC", "OBJECT", "GNU_IFUNC", "TLS", "COMMON")


#: A demangler: the demangled form of a name, or None.  One with a ``many``
#: attribute (`symbols.demangling.cxxfilt.demangle`) reads all names at once.
Demangler = Callable[[str], "str | None"]


def pretty(name: str, demangle: Demangler | None = None) -> str:
    """`name` demangled by `demangle` (default: as gdb prints it), else as it is."""
    if demangle is None:
        from symbols.demangling.gnu import demangle  # imported here: a query demangles with llvm-cxxfilt
    return demangle(name) or name


class _Range(NamedTuple):
    start: int
    end: int
    name: str
    role: Role
    kernel: str | None


class AddressIndex:
    """Which symbol contains an address, in the host (space None) or in one
    code object (space: its index).  Made on the first lookup, by `fill`
    (most reports are never asked about an address), then sorted."""

    def __init__(self, fill: Callable[[AddressIndex], None] | None = None) -> None:
        self._ranges: dict[int | None, list[_Range]] = {}
        self._starts: dict[int | None, list[int]] = {}
        self._fill = fill

    def add(self, space: int | None, start: int, size: int, name: str, role: Role, kernel: str | None) -> None:
        self._ranges.setdefault(space, []).append(_Range(start, start + max(size, 1), name, role, kernel))
        self._starts.pop(space, None)

    def lookup(self, address: int, space: int | None = None) -> _Range | None:
        """The symbol containing `address`; among overlapping ones (aliases,
        a function inside a bigger one), the one starting last."""
        self._filled()
        ranges = self._ranges.get(space, [])
        if space not in self._starts:
            ranges.sort()
            self._starts[space] = [r.start for r in ranges]
        position = bisect.bisect_right(self._starts[space], address)
        for candidate in reversed(ranges[max(0, position - 64) : position]):
            if address < candidate.end:
                return candidate
        return None

    def _filled(self) -> None:
        if self._fill is not None:
            fill, self._fill = self._fill, None
            fill(self)

    def __getstate__(self) -> dict:
        self._filled()  # sent to another process, without the file it is made from
        return {"_ranges": self._ranges, "_starts": {}, "_fill": None}


@dataclass
class Analysis:
    report: BinaryReport
    addresses: AddressIndex


def _host_notes(elf: ElfFile) -> list[str]:
    """What a host file's symbol tables cannot tell."""
    if not elf.sections:
        return ["no section headers: no symbols and no device code can be found"]
    if not elf.symtab_section or next(elf.iter_symbols(elf.symtab_section), None) is None:
        return [
            "no .symtab (stripped): only dynamic symbols are known; local stubs, handles and"
            " registration functions are invisible"
        ]
    return []


def _host_symbols(elf: ElfFile, keep: Callable[[Symbol], bool] | None = None) -> list[Symbol]:
    """.symtab and .dynsym merged (a stripped file has only the latter);
    with `keep`, only the symbols it keeps, the others never held at once."""
    sections = [elf.symtab_section, elf.dynsym_section]
    static, dynamic = (
        [s for s in elf.iter_symbols(section) if keep is None or keep(s)] if section else [] for section in sections
    )
    seen = {(s.name, s.value) for s in static}
    return static + [s for s in dynamic if (s.name, s.value) not in seen]


class _Device(NamedTuple):
    """The code objects read, in order, with their summaries (None where
    unreadable), and each kernel's arguments as the first code object
    describing it gives them."""

    code_objects: list[CodeObject]
    summaries: list[DeviceContents | None]
    args: dict[str, list[KernelArg]]


def _read_device(reads: Iterable[list[containers.Read]], report: BinaryReport, with_args: bool) -> _Device:
    """Code objects as they are read (one inflated image at a time is ever
    alive), their notes, and arguments from as few code objects as describe
    every kernel: those that have kernels no earlier one described."""
    device = _Device([], [], {})
    names: dict[str, str] = {}  # one string per name, however many code objects have it
    for read in (read for job in reads for read in job):
        code_object, summary = read.code_object, read.summary
        code_object.index = len(device.code_objects)
        device.code_objects.append(code_object)
        if summary is None:
            report.notes.append(
                f"code object {code_object.index} ({code_object.target}): {read.error}"
                if read.error
                else f"code object {code_object.index} ({code_object.target}) is compressed in a"
                " format gpusym cannot read: its symbols are unknown"
            )
            device.summaries.append(None)
            continue
        source = summary.args_source
        summary = DeviceContents(*([(names.setdefault(n, n), v, s) for n, v, s in places] for places in summary[:4]))
        device.summaries.append(summary)
        if with_args and source is not None and any(n not in device.args for n, _, _ in summary.kernels):
            for name, args in device_code.read_args(source).items():
                device.args.setdefault(name, args)
    return device


#: Why a PTX code object's symbols are unknown when `analyze` skips PTX.
PTX_NOT_READ = "PTX, not read (gpusym query --ptx reads it)"


def analyze(
    path: str | Path,
    host_roles: set[Role] | None = None,
    with_args: bool = True,
    jobs: int = 1,
    demangle: Demangler | None = None,
    with_ptx: bool = True,
) -> Analysis:
    """Reads `path` (a host binary, a container or a code object).

    `host_roles`: which host symbols the report lists (default: every role
    with a GPU meaning).  `with_args`: read kernel arguments (most of the
    time on large binaries; a debugger resolving names does without).
    `jobs`: how many threads may read the file's code objects.
    `demangle`: how names are demangled (default: as gdb prints them).
    `with_ptx`: read PTX code objects (the largest and slowest to read; a
    cubin beside one names the same kernels), else list them with a note.
    Raises FormatError or OSError for unreadable input."""
    return _analyze(map_file(path), str(path), host_roles, with_args, Workers(jobs), demangle, with_ptx)


def analyze_data(
    data: bytes | memoryview,
    path: str,
    host_roles: set[Role] | None = None,
    with_args: bool = True,
    demangle: Demangler | None = None,
) -> Analysis:
    """`analyze` of a file's bytes, already read (`path` names it in the
    report).  Raises FormatError for bad input."""
    return _analyze(memoryview(data), path, host_roles, with_args, Workers(), demangle, True)


def _reads(
    data: memoryview, jobs: list[containers.Job], workers: Workers, with_ptx: bool
) -> Iterator[list[containers.Read]]:
    """The code objects of `jobs`, in order; without `with_ptx`, PTX unread."""
    skipped = [not with_ptx and job.code_object is not None and job.code_object.format == "ptx" for job in jobs]
    reads = workers.read(data, [job for job, skip in zip(jobs, skipped) if not skip])
    for job, skip in zip(jobs, skipped):
        yield [containers.Read(job.code_object, None, PTX_NOT_READ)] if job.code_object and skip else next(reads)


def _analyze(
    data: memoryview,
    path: str,
    host_roles: set[Role] | None,
    with_args: bool,
    workers: Workers,
    demangle: Demangler | None,
    with_ptx: bool,
) -> Analysis:
    jobs = containers.in_container_file(data)
    elf: ElfFile | None = None
    if jobs is None:
        elf = ElfFile(data)
        is_pie = elf.type == ET_DYN and elf.section(".interp") is not None
        report = BinaryReport(path, "elf-executable" if is_pie else _ELF_FORMATS.get(elf.type, f"elf-type-{elf.type}"))
        report.notes += _host_notes(elf)
        jobs = containers.in_elf(elf)
    else:
        report = BinaryReport(path, "container")
    device = _read_device(_reads(data, jobs, workers, with_ptx), report, with_args)
    report.code_objects = device.code_objects
    addresses = _correlate(report, elf, device, host_roles, demangle)
    return Analysis(report, addresses)


def _registered(
    report: BinaryReport, elf: ElfFile | None, host: list[Symbol], kernels: dict[str, None]
) -> dict[str, Symbol]:
    """Each kernel's handle as CUDA's registration code gives it; none (and
    a note saying why) when that code cannot be read."""
    try:
        return registration.registered_handles(elf, host, kernels) if elf is not None else {}
    except FormatError as error:
        report.notes.append(f"registration code unreadable ({error}): handles are found by name")
        return {}


class _HostScan:
    """The host symbols a report needs, read from `elf`: every one when it
    lists roles without GPU meaning; else those a GPU role may fall to
    (stubs, registration, runtime API, the names of `names`: handles and
    shadows), and every function of a CUDA program (its registration code
    names handles by address).  A large library has hundreds of thousands of
    symbols and a few thousand of these."""

    def __init__(self, elf: ElfFile, every: bool, names: set[str], functions: bool):
        self.elf, self.every, self.names, self.functions = elf, every, names, functions
        self.symbols = self._read()

    def _read(self) -> list[Symbol]:
        symbols = _host_symbols(self.elf, None if self.every else self._keeps)
        for section in (self.elf.symtab_section, self.elf.dynsym_section):
            for table in (section, self.elf.sections[section.link]) if section else ():
                release(self.elf.data, table.offset, table.size)
        return symbols

    def _keeps(self, symbol: Symbol) -> bool:
        return (
            symbol.name in self.names
            or STUB_PREFIX in symbol.name
            or (self.functions and symbol.type == "FUNC")
            or roles.general_role(symbol) is not None
        )

    def widen(self, names: set[str], functions: bool) -> None:
        """Reads again if `names` or `functions` ask for symbols not kept."""
        if not self.every and (not names <= self.names or functions > self.functions):
            self.names, self.functions = self.names | names, self.functions or functions
            self.symbols = self._read()


class _Host(NamedTuple):
    """The host symbols a report needs, and what they say about kernels."""

    scan: _HostScan | None  # None: no host file (a container or code object alone)
    symbols: list[Symbol]
    stubs: dict[str, Symbol]  # kernel -> its stub
    stub_of: dict[str, str]  # stub name -> its kernel
    by_name: dict[str, Symbol]  # defined functions and data, the first of each name
    is_cuda: bool


class _Entities(NamedTuple):
    kernels: dict[str, Kernel]
    functions: dict[str, DeviceEntity]
    variables: dict[str, DeviceEntity]
    #: gpusym's own device functions and variables: in the address index, not in the report.
    own: dict[str, DeviceEntity]


def _correlate(
    report: BinaryReport,
    elf: ElfFile | None,
    device: _Device,
    host_roles: set[Role] | None,
    demangle: Demangler | None,
) -> AddressIndex:
    """Fills `report` from the device code read and the host's symbols;
    the summaries of `device` are taken apart (and freed) on the way."""
    wanted = host_roles if host_roles is not None else set(Role) - NOT_GPU_ROLES
    device_kernels = {name: None for summary in device.summaries if summary for name, _, _ in summary.kernels}
    host = _read_host(elf, device, device_kernels, wanted)
    # Kernel names: what the device code says, then what the stubs say (the
    # simulated device's exported functions need them to be sorted).
    kernel_names = device_kernels | {name: None for name in host.stubs}
    registered = _registered(report, elf, host.symbols, kernel_names) if host.is_cuda else {}
    kernel_targets = _kernel_targets(device, kernel_names)
    entities = _take_apart(device, kernel_names, any(c.triple.startswith("x86_64") for c in device.code_objects))
    report.notes += _link_kernels(entities, host, registered, kernel_targets, device.args)
    handles = {k.handle.symbol: k.name for k in entities.kernels.values() if k.handle and k.handle.kind != "stub"}
    listed = [
        (symbol, role, kernel)
        for symbol in host.symbols
        for role, kernel in [_host_role(symbol, host.stub_of, handles, entities.variables)]
        if role in wanted
    ]
    report.kernels = sorted(entities.kernels.values(), key=lambda k: k.name)
    report.device_functions = sorted(entities.functions.values(), key=lambda f: f.name)
    report.device_variables = sorted(entities.variables.values(), key=lambda v: v.name)
    named = [*report.kernels, *report.device_functions, *report.device_variables]
    names = demangled([*(e.name for e in named), *(symbol.name for symbol, _, _ in listed)], demangle)
    for entity in named:
        entity.demangled = names[entity.name] or entity.name
    for kernel in report.kernels:
        kernel.args = _typed(kernel.args, kernel.demangled)
    if not report.code_objects and elf is not None:
        report.notes += _no_device_code(host.symbols)
    named += entities.own.values()
    report.host_symbols = [
        HostSymbol(symbol.name, names[symbol.name] or symbol.name, symbol.value, symbol.size, role, kernel)
        for symbol, role, kernel in listed
    ]

    def fill(index: AddressIndex) -> None:
        for entity in named:
            for place in entity.device:
                kernel = place.symbol if place.role is Role.DEVICE_KERNEL else None
                index.add(place.code_object, place.address, place.size, place.symbol, place.role, kernel)
        scan = host.scan
        for symbol in host.symbols if scan is None or scan.every else _host_symbols(scan.elf):
            role, kernel = _host_role(symbol, host.stub_of, handles, entities.variables)
            if role is not None and symbol.defined:
                index.add(None, symbol.value, symbol.size, symbol.name, role, kernel)

    return AddressIndex(fill)


def _read_host(elf: ElfFile | None, device: _Device, device_kernels: dict[str, None], wanted: set[Role]) -> _Host:
    """The host symbols of `elf` that the report needs, with its stubs."""
    by_undecorated = {undecorated_kernel(name): name for name in device_kernels}
    cuda_code = any(c.triple.startswith("nvptx") for c in device.code_objects)
    if elf is None:
        return _Host(None, [], {}, {}, {}, cuda_code)
    variable_names = {name for summary in device.summaries if summary for name, _, _ in summary.variables}
    names = set(device_kernels) | set(by_undecorated) | variable_names
    scan = _HostScan(elf, not wanted.isdisjoint(NOT_GPU_ROLES), names, cuda_code)
    stubs, stub_of = _stubs(scan.symbols, device_kernels, by_undecorated)
    is_cuda = cuda_code or any(s.name.startswith("__cudaRegister") for s in scan.symbols if not s.defined)
    scan.widen({n for name in stubs for n in (name, undecorated_kernel(name))}, is_cuda)
    by_name: dict[str, Symbol] = {}
    for symbol in scan.symbols:
        if symbol.defined and symbol.type in _HOST_TYPES:
            by_name.setdefault(symbol.name, symbol)
    return _Host(scan, scan.symbols, stubs, stub_of, by_name, is_cuda)


def _kernel_targets(device: _Device, kernel_names: dict[str, None]) -> list[str]:
    """The targets that have kernels, over every container of the binary (a
    program links one per translation unit, and nvcc adds a device link's
    code objects without kernels)."""
    return list(
        dict.fromkeys(
            code_object.target
            for code_object, summary in zip(device.code_objects, device.summaries)
            if summary and (summary.kernels or any(place[0] in kernel_names for place in summary.exported_functions))
        )
    )


def _take_apart(device: _Device, kernel_names: dict[str, None], simulated: bool) -> _Entities:
    """Kernels, device functions and variables with their places in each
    code object; each summary is dropped from `device` once taken apart (a
    large library's would otherwise all be held at once).  A simulated
    device's exported functions are kernels when `kernel_names` has them.
    In a binary with `simulated` device code, the functions and variables
    its headers put into every code object (``gpusym_wave_combine``, in the
    AMDGPU code objects compiled with them too) are gpusym's own, apart."""
    entities = _Entities({name: Kernel(name, "") for name in kernel_names}, {}, {}, {})
    for position, code_object in enumerate(device.code_objects):
        summary, device.summaries[position] = device.summaries[position], None
        if summary is None:
            continue
        index, target = code_object.index, code_object.target
        kernels = [*summary.kernels, *(p for p in summary.exported_functions if p[0] in kernel_names)]
        functions = [*summary.functions, *(p for p in summary.exported_functions if p[0] not in kernel_names)]
        for name, value, size in kernels:
            entities.kernels[name].device.append(DeviceSymbol(index, target, name, value, size, Role.DEVICE_KERNEL))
        for places, table, role in (
            (functions, entities.functions, Role.DEVICE_FUNCTION),
            (summary.variables, entities.variables, Role.DEVICE_VARIABLE),
        ):
            for name, value, size in places:
                into = entities.own if simulated and is_gpusym_own(name) else table
                entity = into.get(name) or into.setdefault(name, DeviceEntity(name, name))
                entity.device.append(DeviceSymbol(index, target, name, value, size, role))
    return entities


def _link_kernels(
    entities: _Entities,
    host: _Host,
    registered: dict[str, Symbol],
    kernel_targets: list[str],
    args: dict[str, list[KernelArg]],
) -> list[str]:
    """Gives each kernel its stub, handle, arguments and missing targets, and
    each device variable its host shadow; the notes this leaves."""
    notes = []
    list_missing = len(kernel_targets) <= MAX_TARGETS_LISTED
    if not list_missing:
        notes.append(
            f"code objects for {len(kernel_targets)} different targets: more than"
            f" {MAX_TARGETS_LISTED}, so no kernel's missing_targets are listed"
        )
    for name, kernel in entities.kernels.items():
        if kernel.device and name in args:
            kernel.args = args[name]
        stub = host.stubs.get(name)
        if stub:
            kernel.stub = HostRef(stub.name, stub.value)
        handle = registered.get(name)
        if handle is None:  # no registration code read: the symbol named like the kernel, or clang CUDA's stub
            handle = host.by_name.get(name) or host.by_name.get(undecorated_kernel(name))
            if handle is None or handle.name in host.stub_of:
                handle = stub if host.is_cuda else None
        if handle is not None:
            kind = "stub" if handle.name in host.stub_of else "variable" if handle.type == "OBJECT" else "function"
            kernel.handle = HostRef(handle.name, handle.value, kind)
        if list_missing:
            present = {d.target for d in kernel.device}
            kernel.missing_targets = [target for target in kernel_targets if target not in present]
    for name, variable in entities.variables.items():
        shadow = host.by_name.get(name)
        if shadow is not None and shadow.type in ("OBJECT", "TLS", "COMMON") and name not in entities.kernels:
            variable.shadow = HostRef(shadow.name, shadow.value)
    return notes


def _typed(args: list[KernelArg], demangled_name: str) -> list[KernelArg]:
    """`args` with the types the code object does not say taken from the
    kernel's demangled name: its parameter types in order, when it has as
    many as the kernel has arguments."""
    if not args or all(arg.type_name is not None for arg in args):
        return args
    types = parameter_types(demangled_name)
    if types is None or len(types) != len(args):
        return args
    return [arg if arg.type_name is not None else replace(arg, type_name=text) for arg, text in zip(args, types)]


#: Host functions that compile or load device code at run time.
_RUN_TIME_CODE = re.compile(r"^(hiprtc|nvrtc|hipModuleLoad|cuModuleLoad|cuLibraryLoad|hipLibraryLoad)")


def _no_device_code(host: list[Symbol]) -> list[str]:
    """The note of a host file without code objects that compiles or loads
    its kernels at run time: they are not in the file."""
    calls = sorted({s.name for s in host if not s.defined and _RUN_TIME_CODE.match(s.name)})
    if not calls:
        return []
    return [
        f"no GPU code objects in the file: its kernels are compiled or loaded at run time ({', '.join(calls[:3])}"
        + (", ..." if len(calls) > 3 else "")
        + "), and are not in it"
    ]


def _stubs(
    host: list[Symbol], device_kernels: dict[str, None], by_undecorated: dict[str, str]
) -> tuple[dict[str, Symbol], dict[str, str]]:
    """(kernel -> its stub, stub name -> its kernel) of the host's stub functions."""
    stubs: dict[str, Symbol] = {}
    stub_of: dict[str, str] = {}
    for symbol in host:
        if symbol.defined and symbol.type == "FUNC" and (stub := parse_stub(symbol.name)):
            kernel = next((n for n in stub.device_names if n in device_kernels), None) or next(
                (by_undecorated[n] for n in stub.device_names if n in by_undecorated), stub.kernel
            )
            stubs.setdefault(kernel, symbol)
            stub_of[symbol.name] = kernel
    return stubs, stub_of


def _host_role(
    symbol: Symbol, stub_of: dict[str, str], handles: dict[str, str], variables: dict[str, DeviceEntity]
) -> tuple[Role | None, str | None]:
    if symbol.name in stub_of:
        return Role.KERNEL_STUB, stub_of[symbol.name]
    if symbol.defined and symbol.name in handles:
        return Role.KERNEL_HANDLE, handles[symbol.name]
    if symbol.defined and symbol.name in variables and symbol.type in ("OBJECT", "TLS", "COMMON"):
        return Role.HOST_SHADOW, None
    role = roles.general_role(symbol)
    if role is not None or not symbol.defined or symbol.type not in ("FUNC", "OBJECT", "GNU_IFUNC", "TLS"):
        return role, None
    return roles.plain_role(symbol), None
