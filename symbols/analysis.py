"""One binary, whole: its code objects, their symbols, the host symbols, and
each kernel's stub, handle and device instances correlated into one record.

Conventions read (see the README): clang HIP (stub ``__device_stub__`` +
handle variable named like the kernel), clang CUDA (the stub is the handle),
nvcc (stub ``__device_stub__<mangled>`` + a host function named like the
kernel, which is the handle), the new offload driver (offloading entries).
"""

from __future__ import annotations

import bisect
import errno
import mmap
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple
from pathlib import Path

from symbols import containers, demangle as demangling, device_code, registration, roles
from symbols.device_code import DeviceContents
from symbols.elf import ET_DYN, ET_EXEC, ET_REL, ElfFile, Symbol
from symbols.errors import FormatError
from symbols.mangling import parse_stub, undecorated_kernel
from symbols.model import (
    NOT_GPU_ROLES,
    BinaryReport,
    CodeObject,
    DeviceEntity,
    DeviceSymbol,
    HostRef,
    HostSymbol,
    Kernel,
    Role,
)

#: Beyond this many targets (real binaries have a few dozen at most), each
#: kernel's missing_targets would make the report grow as the number of
#: kernels times the number of targets: they are not listed.
MAX_TARGETS_LISTED = 64

_ELF_FORMATS = {ET_EXEC: "elf-executable", ET_DYN: "elf-shared-object", ET_REL: "elf-relocatable"}


#: A demangler: the demangled form of a name, or None.
Demangler = Callable[[str], "str | None"]


def pretty(name: str, demangle: Demangler = demangling.demangle) -> str:
    return demangle(name) or name


class _Range(NamedTuple):
    start: int
    end: int
    name: str
    role: Role
    kernel: str | None


class AddressIndex:
    """Which symbol contains an address, in the host (space None) or in one
    code object (space: its index).  Sorted on the first lookup."""

    def __init__(self) -> None:
        self._ranges: dict[int | None, list[_Range]] = {}
        self._starts: dict[int | None, list[int]] = {}

    def add(self, space: int | None, symbol: Symbol, role: Role, kernel: str | None) -> None:
        self._ranges.setdefault(space, []).append(
            _Range(symbol.value, symbol.value + max(symbol.size, 1), symbol.name, role, kernel)
        )
        self._starts.pop(space, None)

    def lookup(self, address: int, space: int | None = None) -> _Range | None:
        """The symbol containing `address`; among overlapping ones (aliases,
        a function inside a bigger one), the one starting last."""
        ranges = self._ranges.get(space, [])
        if space not in self._starts:
            ranges.sort()
            self._starts[space] = [r.start for r in ranges]
        position = bisect.bisect_right(self._starts[space], address)
        for candidate in reversed(ranges[max(0, position - 64) : position]):
            if address < candidate.end:
                return candidate
        return None


@dataclass
class Analysis:
    report: BinaryReport
    addresses: AddressIndex


def _map(path: Path) -> memoryview:
    # Opened without blocking: opening a FIFO to read waits for a writer.
    descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        status = os.fstat(descriptor)
        if stat.S_ISDIR(status.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat.S_ISREG(status.st_mode):
            raise FormatError("not a regular file (a FIFO, socket or device)")
        if status.st_size == 0:
            raise FormatError("empty file")
        return memoryview(mmap.mmap(descriptor, 0, access=mmap.ACCESS_READ))
    finally:
        os.close(descriptor)


def _host_symbols(elf: ElfFile, report: BinaryReport) -> list[Symbol]:
    """.symtab and .dynsym merged (a stripped file has only the latter)."""
    if not elf.sections:
        report.notes.append("no section headers: no symbols and no device code can be found")
        return []
    if not elf.symtab:
        report.notes.append(
            "no .symtab (stripped): only dynamic symbols are known; local stubs, handles and"
            " registration functions are invisible"
        )
    seen = {(s.name, s.value) for s in elf.symtab}
    return elf.symtab + [s for s in elf.dynsym if (s.name, s.value) not in seen]


def _read_device(found: list[containers.Found], report: BinaryReport) -> list[DeviceContents | None]:
    contents: list[DeviceContents | None] = []
    for item in found:
        code_object = item.code_object
        try:
            image = item.load()
        except FormatError as error:
            report.notes.append(f"code object {code_object.index} ({code_object.target}): {error}")
            contents.append(None)
            continue
        if image is None:
            report.notes.append(
                f"code object {code_object.index} ({code_object.target}) is compressed in a format"
                " gpusym cannot read: its symbols are unknown"
            )
            contents.append(None)
            continue
        try:
            contents.append(device_code.read(image, code_object.format))
        except FormatError as error:
            report.notes.append(f"code object {code_object.index} ({code_object.target}): {error}")
            contents.append(None)
    return contents


def analyze(path: str | Path, host_roles: set[Role] | None = None, with_args: bool = True,
            demangle: Demangler = demangling.demangle) -> Analysis:  # fmt: skip
    """Reads `path` (a host binary, a container or a code object).

    `host_roles`: which host symbols the report lists (default: every role
    with a GPU meaning).  `with_args`: read kernel arguments (most of the
    time on large binaries; a debugger resolving names does without).
    `demangle`: how names are demangled (default: as gdb prints them).
    Raises FormatError or OSError for unreadable input."""
    path = Path(path)
    return analyze_data(_map(path), str(path), host_roles, with_args, demangle)


def analyze_data(data: bytes | memoryview, path: str, host_roles: set[Role] | None = None,
                 with_args: bool = True, demangle: Demangler = demangling.demangle) -> Analysis:  # fmt: skip
    """`analyze` of a file's bytes, already read (`path` names it in the
    report).  Raises FormatError for bad input."""
    data = memoryview(data)
    found = containers.in_container_file(data)
    elf: ElfFile | None = None
    if found is None:
        elf = ElfFile(data)
        is_pie = elf.type == ET_DYN and elf.section(".interp") is not None
        report = BinaryReport(path, "elf-executable" if is_pie else _ELF_FORMATS.get(elf.type, f"elf-type-{elf.type}"))
        host = _host_symbols(elf, report)
        found = containers.in_elf(elf)
    else:
        report = BinaryReport(path, "container")
        host = []
    report.code_objects = [f.code_object for f in found]
    contents = _read_device(found, report)
    addresses = AddressIndex()
    _correlate(report, elf, host, report.code_objects, contents, addresses, host_roles, with_args, demangle)
    return Analysis(report, addresses)


def _registered(report: BinaryReport, elf: ElfFile | None, host: list[Symbol], kernels: dict[str, None]
                ) -> dict[str, Symbol]:  # fmt: skip
    """Each kernel's handle as CUDA's registration code gives it; none (and
    a note saying why) when that code cannot be read."""
    try:
        return registration.registered_handles(elf, host, kernels) if elf is not None else {}
    except FormatError as error:
        report.notes.append(f"registration code unreadable ({error}): handles are found by name")
        return {}


def _correlate(report: BinaryReport, elf: ElfFile | None, host: list[Symbol], code_objects: list[CodeObject],
               contents: list[DeviceContents | None], addresses: AddressIndex,
               host_roles: set[Role] | None, with_args: bool, demangle: Demangler) -> None:  # fmt: skip
    defined = [s for s in host if s.defined and s.type in ("FUNC", "OBJECT", "GNU_IFUNC", "TLS", "COMMON")]
    device_kernels = {s.name: None for device in contents if device for s in device.kernels}
    by_undecorated = {undecorated_kernel(name): name for name in device_kernels}
    stubs: dict[str, Symbol] = {}
    stub_of: dict[str, str] = {}
    for symbol in defined:
        if symbol.type == "FUNC" and (stub := parse_stub(symbol.name)):
            kernel = next((n for n in stub.device_names if n in device_kernels), None) or next(
                (by_undecorated[n] for n in stub.device_names if n in by_undecorated), stub.kernel
            )
            stubs.setdefault(kernel, symbol)
            stub_of[symbol.name] = kernel
    host_by_name: dict[str, Symbol] = {}
    for symbol in defined:
        host_by_name.setdefault(symbol.name, symbol)

    # Kernel names: what the device code says, then what the stubs and
    # handles say (the simulated device's functions need them to be sorted).
    kernel_names: dict[str, None] = {}
    for device in contents:
        for symbol in device.kernels if device else ():
            kernel_names.setdefault(symbol.name)
    for name in stubs:
        kernel_names.setdefault(name)
    for device in contents:
        if device and device.exported_functions:
            for symbol in device.exported_functions:
                (device.kernels if symbol.name in kernel_names else device.functions).append(symbol)
            device.exported_functions = []

    is_cuda = any(c.triple.startswith("nvptx") for c in code_objects) or any(
        s.name.startswith("__cudaRegister") for s in host if not s.defined
    )
    registered = _registered(report, elf, host, kernel_names) if is_cuda else {}
    kernels = {name: Kernel(name, pretty(name, demangle)) for name in kernel_names}
    functions: dict[str, DeviceEntity] = {}
    variables: dict[str, DeviceEntity] = {}
    for code_object, device in zip(code_objects, contents):
        if device is None:
            continue
        for role, symbols in (
            (Role.DEVICE_KERNEL, device.kernels),
            (Role.DEVICE_FUNCTION, device.functions),
            (Role.DEVICE_VARIABLE, device.variables),
        ):
            for symbol in symbols:
                instance = DeviceSymbol(code_object.index, code_object.target, symbol.name, symbol.value,
                                        symbol.size, role)  # fmt: skip
                if role is Role.DEVICE_KERNEL:
                    kernels[symbol.name].device.append(instance)
                else:
                    table = functions if role is Role.DEVICE_FUNCTION else variables
                    entity = table.get(symbol.name)
                    if entity is None:
                        entity = table[symbol.name] = DeviceEntity(symbol.name, pretty(symbol.name, demangle))
                    entity.device.append(instance)
                addresses.add(code_object.index, symbol, role, symbol.name if role is Role.DEVICE_KERNEL else None)

    if with_args:
        _attach_args(kernels, contents)
    # The targets that have kernels, over every container of the binary (a
    # program links one per translation unit, and nvcc adds a device link's
    # code objects without kernels).
    kernel_targets = list(dict.fromkeys(code_object.target for code_object, device in zip(code_objects, contents)
                                        if device and device.kernels))  # fmt: skip
    list_missing = len(kernel_targets) <= MAX_TARGETS_LISTED
    if not list_missing:
        report.notes.append(f"code objects for {len(kernel_targets)} different targets: more than"
                            f" {MAX_TARGETS_LISTED}, so no kernel's missing_targets are listed")  # fmt: skip
    for name, kernel in kernels.items():
        if stub := stubs.get(name):
            kernel.stub = HostRef(stub.name, stub.value)
        handle = registered.get(name)
        if handle is None:  # no registration code read: the symbol named like the kernel, or clang CUDA's stub
            handle = host_by_name.get(name) or host_by_name.get(undecorated_kernel(name))
            if handle is None or handle.name in stub_of:
                handle = stub if is_cuda else None
        if handle is not None:
            kind = "stub" if handle.name in stub_of else "variable" if handle.type == "OBJECT" else "function"
            kernel.handle = HostRef(handle.name, handle.value, kind)
        if list_missing:
            present = {d.target for d in kernel.device}
            kernel.missing_targets = [target for target in kernel_targets if target not in present]
    for name, variable in variables.items():
        shadow = host_by_name.get(name)
        if shadow is not None and shadow.type in ("OBJECT", "TLS", "COMMON") and name not in kernels:
            variable.shadow = HostRef(shadow.name, shadow.value)

    wanted = host_roles if host_roles is not None else set(Role) - NOT_GPU_ROLES
    handles = {k.handle.symbol: k.name for k in kernels.values() if k.handle and k.handle.kind != "stub"}
    listed: list[tuple[Symbol, Role, str | None]] = []
    for symbol in host:
        role, kernel = _host_role(symbol, stub_of, handles, variables)
        if role is None:
            continue
        if symbol.defined:
            addresses.add(None, symbol, role, kernel)
        if role in wanted:
            listed.append((symbol, role, kernel))
    report.host_symbols = [HostSymbol(symbol.name, pretty(symbol.name, demangle), symbol.value, symbol.size, role, kernel)
                           for symbol, role, kernel in listed]  # fmt: skip
    report.kernels = sorted(kernels.values(), key=lambda k: k.name)
    report.device_functions = sorted(functions.values(), key=lambda f: f.name)
    report.device_variables = sorted(variables.values(), key=lambda v: v.name)


def _attach_args(kernels: dict[str, Kernel], contents: list[DeviceContents | None]) -> None:
    """Arguments from the first code object that describes each kernel,
    reading as few code objects' metadata as that takes."""
    lacking = {name for name, kernel in kernels.items() if kernel.device}
    for device in contents:
        if not lacking:
            return
        if device is None or device.read_args is None or not lacking & {s.name for s in device.kernels}:
            continue
        described = device.kernel_args()
        for name in lacking & described.keys():
            kernels[name].args = described[name]
        lacking -= described.keys()


def _host_role(symbol: Symbol, stub_of: dict[str, str], handles: dict[str, str],
               variables: dict[str, DeviceEntity]) -> tuple[Role | None, str | None]:  # fmt: skip
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
