"""Roles of host symbols that are not tied to one kernel: the registration
machinery compilers emit and the runtime APIs a program imports."""

from __future__ import annotations

import re

from symbols.elf import Symbol
from symbols.model import Role

# Registration machinery of clang (HIP, CUDA, the new offload driver) and
# nvcc: module constructors, fat binary wrappers and handles, register
# callbacks, offloading-entry tables.  nvcc's are often local (_ZL...).
# Each alternative holds "__" or "offloading" (general_role relies on it).
_REGISTRATION = re.compile(
    r"__(hip|cuda)_module_(c|d)tor|__(hip|cuda)_register_globals|__(hip|cuda)_fatbin"
    r"|__(hip|cuda)_gpubin_handle|__(hip|cuda)_cuid_|__cudaFatCubinHandle|__nv_cudaEntityRegisterCallback"
    r"|__sti____cudaRegisterAll|__cudaUnregisterBinaryUtil|__fatbinwrap|__nv_module_id|__nv_fatbinhandle"
    r"|__nv_save_fatCubinHandle|__nv_init_managed_rt|__cudaRegisterLinkedBinary|_offloading_entries"
    r"|__(hip|cuda)_offloading|\.omp_offloading\."
)
# Entry points of the HIP, CUDA runtime and driver, HSA and comgr APIs.
_RUNTIME_API = re.compile(r"^(__)?(hip|cuda|cu[A-Z]|hsa_|amd_comgr_|__hipRegister|__cudaRegister|__cudaPush|__cudaPop)")


def general_role(symbol: Symbol) -> Role | None:
    """The role of a host symbol from its name and kind alone, or None when
    only its relation to the device code can tell (stubs, handles, shadows)."""
    if not symbol.defined:
        return Role.RUNTIME_API if _RUNTIME_API.match(symbol.name) else None
    name = symbol.name
    # Every name _REGISTRATION matches has "__" or "offloading": looked for
    # first, as a substring, it spares most symbols the regular expression.
    if ("__" in name or "offloading" in name) and _REGISTRATION.search(name):
        return Role.REGISTRATION
    return None


def plain_role(symbol: Symbol) -> Role:
    """The role of a defined host symbol with no GPU meaning."""
    return Role.HOST_CODE if symbol.type in ("FUNC", "GNU_IFUNC") else Role.HOST_DATA
