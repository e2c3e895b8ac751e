"""What the library reports: code objects, device symbols, kernel records,
classified host symbols.  ``to_json`` gives the stable JSON form documented in
docs/query.md (schema version ``SCHEMA_VERSION``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

SCHEMA_VERSION = 1


class Role(str, Enum):
    """What a symbol is for, as far as GPU code is concerned."""

    KERNEL_STUB = "kernel-stub"
    KERNEL_HANDLE = "kernel-handle"
    DEVICE_KERNEL = "device-kernel"
    DEVICE_FUNCTION = "device-function"
    DEVICE_VARIABLE = "device-variable"
    HOST_SHADOW = "host-shadow"
    REGISTRATION = "registration"
    RUNTIME_API = "runtime-api"
    HOST_CODE = "host-code"
    HOST_DATA = "host-data"


#: Roles of host symbols that have nothing to do with GPU code.
NOT_GPU_ROLES = {Role.HOST_CODE, Role.HOST_DATA}


@dataclass
class CodeObject:
    """One device code object found in a binary."""

    index: int
    target: str  # processor: gfx90a, sm_90, gpusym; spirv64 for generic SPIR-V; "" when unknown
    triple: str  # amdgcn-amd-amdhsa, nvptx64-nvidia-cuda, x86_64-unknown-linux-gnu, spirv64
    container: str  # offload-bundle, compressed-offload-bundle, offload-binary, nv-fatbin, file
    offset: int  # in the host file: of the entry, or of its compressed container
    size: int
    compressed: bool
    format: str = "elf"  # elf, ptx, spirv, or unknown (a compressed payload nobody can read)

    def to_json(self) -> dict:
        return {
            "index": self.index,
            "target": self.target,
            "triple": self.triple,
            "container": self.container,
            "offset": self.offset,
            "size": self.size,
            "compressed": self.compressed,
            "format": self.format,
        }


@dataclass(slots=True)
class DeviceSymbol:
    code_object: int
    target: str
    symbol: str
    address: int
    size: int
    role: Role

    def to_json(self) -> dict:
        return {
            "code_object": self.code_object,
            "target": self.target,
            "symbol": self.symbol,
            "address": self.address,
            "size": self.size,
        }


@dataclass(slots=True)
class HostRef:
    symbol: str
    address: int
    kind: str = ""  # for handles: variable, function, or stub (clang CUDA)

    def to_json(self, with_kind: bool = False) -> dict:
        out = {"symbol": self.symbol, "address": self.address}
        if with_kind:
            out["kind"] = self.kind
        return out


@dataclass(slots=True)
class KernelArg:
    name: str | None
    type_name: str | None
    size: int
    offset: int
    value_kind: str

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "type": self.type_name,
            "size": self.size,
            "offset": self.offset,
            "value_kind": self.value_kind,
        }


@dataclass(slots=True)
class Kernel:
    """One kernel: its host stub and handle and its instances on the devices."""

    name: str  # device mangled name
    demangled: str
    stub: HostRef | None = None
    handle: HostRef | None = None
    device: list[DeviceSymbol] = field(default_factory=list)
    args: list[KernelArg] = field(default_factory=list)
    missing_targets: list[str] = field(default_factory=list)  # targets the binary has kernels for, but not this one

    def to_json(self) -> dict:
        return {
            "name": self.name,
            "demangled": self.demangled,
            "stub": self.stub.to_json() if self.stub else None,
            "handle": self.handle.to_json(with_kind=True) if self.handle else None,
            "device": [d.to_json() for d in self.device],
            "args": [a.to_json() for a in self.args],
            "missing_targets": self.missing_targets,
        }


@dataclass(slots=True)
class DeviceEntity:
    """A device function or device variable, with its instances."""

    name: str
    demangled: str
    device: list[DeviceSymbol] = field(default_factory=list)
    shadow: HostRef | None = None  # variables: the host's shadow

    def to_json(self, with_shadow: bool) -> dict:
        out = {"name": self.name, "demangled": self.demangled, "device": [d.to_json() for d in self.device]}
        if with_shadow:
            out["shadow"] = self.shadow.to_json() if self.shadow else None
        return out


@dataclass(slots=True)
class HostSymbol:
    symbol: str
    demangled: str
    address: int
    size: int
    role: Role
    kernel: str | None = None  # the kernel a stub or handle belongs to

    def to_json(self) -> dict:
        return {
            "symbol": self.symbol,
            "demangled": self.demangled,
            "address": self.address,
            "size": self.size,
            "role": self.role.value,
            "kernel": self.kernel,
        }


@dataclass
class BinaryReport:
    path: str
    format: str  # elf-executable, elf-shared-object, elf-relocatable, code-object, bundle
    code_objects: list[CodeObject] = field(default_factory=list)
    kernels: list[Kernel] = field(default_factory=list)
    device_functions: list[DeviceEntity] = field(default_factory=list)
    device_variables: list[DeviceEntity] = field(default_factory=list)
    host_symbols: list[HostSymbol] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # what could not be known, and why

    def to_json(self) -> dict:
        return {
            "path": self.path,
            "format": self.format,
            "code_objects": [c.to_json() for c in self.code_objects],
            "kernels": [k.to_json() for k in self.kernels],
            "device_functions": [f.to_json(with_shadow=False) for f in self.device_functions],
            "device_variables": [v.to_json(with_shadow=True) for v in self.device_variables],
            "host_symbols": [s.to_json() for s in self.host_symbols],
            "notes": self.notes,
        }
