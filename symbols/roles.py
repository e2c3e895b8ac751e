"""Roles of host symbols that are not tied to one kernel: the registration
machinery compilers emit and the runtime APIs a program imports."""

from __future__ import annotations

import re

from symbols.elf import Symbol
from symbols.model import Role

# Registration machinery of clang (HIP, CUDA, the new offload driver) and
# nvcc: module constructors, fat binary wrappers and handles, register
# callbacks, offloading-entry tables.  nvcc's are often local (_ZL...).
# Every name but the offloading-entry tables' starts with "__": as a
# literal prefix, it lets the search skip to each "__" of a name (a CUB
# kernel's mangled name has hundreds of characters and many of them).
_REGISTRATION = re.compile(
    r"__(?:(?:hip|cuda)_(?:module_[cd]tor|register_globals|fatbin|gpubin_handle|cuid_|offloading)"
    r"|cudaFatCubinHandle|nv_(?:cudaEntityRegisterCallback|module_id|fatbinhandle|save_fatCubinHandle"
    r"|init_managed_rt)|sti____cudaRegisterAll|cudaUnregisterBinaryUtil|fatbinwrap|cudaRegisterLinkedBinary)"
)
_OFFLOADING_ENTRIES = re.compile(r"_offloading_entries|\.omp_offloading\.")
# Entry points of the HIP, CUDA runtime and driver, HSA and comgr APIs.
_RUNTIME_API = re.compile(r"^(__)?(hip|cuda|cu[A-Z]|hsa_|amd_comgr_|__hipRegister|__cudaRegister|__cudaPush|__cudaPop)")


def general_role(symbol: Symbol) -> Role | None:
    """The role of a host symbol from its name and kind alone, or None when
    only its relation to the device code can tell (stubs, handles, shadows)."""
    if not symbol.defined:
        return Role.RUNTIME_API if _RUNTIME_API.match(symbol.name) else None
    name = symbol.name
    if _REGISTRATION.search(name) or ("offloading" in name and _OFFLOADING_ENTRIES.search(name)):
        return Role.REGISTRATION
    return None


def plain_role(symbol: Symbol) -> Role:
    """The role of a defined host symbol with no GPU meaning."""
    return Role.HOST_CODE if symbol.type in ("FUNC", "GNU_IFUNC") else Role.HOST_DATA
