"""The kernel metadata of an AMDGPU code object: the msgpack map in its
``NT_AMDGPU_METADATA`` note (owner ``AMDGPU``, type 32), laid out in LLVM's
AMDGPUUsage ("Code Object V3 and Above Metadata").

Fields AMDGPUUsage marks required must be present with the right type;
optional ones (``.args``, an argument's ``.name``, ``.type_name`` and
``.address_space``) may be missing.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

from symbols.elf import ElfFile
from symbols.errors import FormatError

NOTE_OWNER = "AMDGPU"
NT_AMDGPU_METADATA = 32
_TRIPLE_PREFIX = "amdgcn-amd-amdhsa--"


def notes(elf: ElfFile) -> Iterator[bytes]:
    """The descriptors of the code object's NT_AMDGPU_METADATA notes, in order."""
    for owner, note_type, desc in elf.all_notes():
        if owner == NOTE_OWNER and note_type == NT_AMDGPU_METADATA:
            yield bytes(desc)


class KernelArg(NamedTuple):
    name: str | None
    type_name: str | None
    size: int
    offset: int
    value_kind: str  # by_value, global_buffer, hidden_block_count_x, ...
    address_space: str | None  # global, constant, ...; None for by_value


class AmdgpuKernel(NamedTuple):
    name: str
    symbol: str  # the kernel descriptor: name + ".kd"
    args: list[KernelArg]
    kernarg_segment_size: int
    group_segment_fixed_size: int
    private_segment_fixed_size: int
    max_flat_workgroup_size: int
    wavefront_size: int
    sgpr_count: int
    vgpr_count: int


def kernels(desc: bytes | memoryview) -> list[AmdgpuKernel]:
    """The kernels of the ``amdhsa.kernels`` list of a metadata note's desc."""
    listed = _root(desc).get("amdhsa.kernels")
    if not isinstance(listed, list):
        raise FormatError("AMDGPU metadata has no amdhsa.kernels list")
    return [_kernel(_map(entry, "kernel metadata")) for entry in listed]


def target(desc: bytes | memoryview) -> str:
    """The processor and features of ``amdhsa.target`` (``gfx90a``,
    ``gfx90a:sramecc+:xnack-``), or ``""`` when the metadata names none."""
    value = _root(desc).get("amdhsa.target", "")
    if not isinstance(value, str):
        raise FormatError("AMDGPU metadata amdhsa.target is not a string")
    return value.removeprefix(_TRIPLE_PREFIX)


def _root(desc: bytes | memoryview) -> dict:
    import msgpack  # imported here: only kernels' arguments and targets need it

    try:
        root = msgpack.unpackb(desc, raw=False)
    except (ValueError, TypeError, msgpack.UnpackException) as error:
        raise FormatError(f"AMDGPU metadata is not valid msgpack: {str(error) or type(error).__name__}") from None
    return _map(root, "AMDGPU metadata")


def _map(value: object, what: str) -> dict:
    if not isinstance(value, dict):
        raise FormatError(f"{what} is not a map")
    return value


def _kernel(entry: dict) -> AmdgpuKernel:
    args = entry.get(".args", [])
    if not isinstance(args, list):
        raise FormatError("kernel .args is not a list")
    return AmdgpuKernel(
        name=_string(entry, ".name"),
        symbol=_string(entry, ".symbol"),
        args=[_arg(_map(arg, "kernel argument metadata")) for arg in args],
        kernarg_segment_size=_count(entry, ".kernarg_segment_size"),
        group_segment_fixed_size=_count(entry, ".group_segment_fixed_size"),
        private_segment_fixed_size=_count(entry, ".private_segment_fixed_size"),
        max_flat_workgroup_size=_count(entry, ".max_flat_workgroup_size"),
        wavefront_size=_count(entry, ".wavefront_size"),
        sgpr_count=_count(entry, ".sgpr_count"),
        vgpr_count=_count(entry, ".vgpr_count"),
    )


def _arg(entry: dict) -> KernelArg:
    get = entry.get
    arg = (get(".name"), get(".type_name"), get(".size"), get(".offset"), get(".value_kind"), get(".address_space"))
    name, type_name, size, offset, value_kind, address_space = arg
    if (
        type(size) is int
        and type(offset) is int
        and size >= 0
        and offset >= 0
        and type(value_kind) is str
        and (name is None or type(name) is str)
        and (type_name is None or type(type_name) is str)
        and (address_space is None or type(address_space) is str)
    ):
        return _new(KernelArg, arg)  # the usual case, checked at once: a library has tens of thousands
    return KernelArg(
        name=_optional_string(entry, ".name"),
        type_name=_optional_string(entry, ".type_name"),
        size=_count(entry, ".size"),
        offset=_count(entry, ".offset"),
        value_kind=_string(entry, ".value_kind"),
        address_space=_optional_string(entry, ".address_space"),
    )


_new = tuple.__new__


def _string(entry: dict, key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str):
        raise FormatError(f"metadata field {key} is {'missing' if value is None else 'not a string'}")
    return value


def _optional_string(entry: dict, key: str) -> str | None:
    return None if entry.get(key) is None else _string(entry, key)


def _count(entry: dict, key: str) -> int:
    value = entry.get(key)
    if type(value) is not int or value < 0:
        raise FormatError(f"metadata field {key} is {'missing' if value is None else 'not a count'}")
    return value
