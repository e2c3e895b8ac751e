"""What a failed compile for the simulated device means when the source
holds code only an AMDGPU can run.  clang's own diagnostics
(``invalid instruction mnemonic 'v_mov_b32_e32'``, ``use of undeclared
identifier '__builtin_amdgcn_s_sendmsg'``) name the line but not the reason:
this module gives the reason, in one line printed after them.
"""

from __future__ import annotations

import re

_UNKNOWN_BUILTIN = re.compile(r"undeclared identifier '(__builtin_amdgcn_\w+)'")
_INLINE_ASSEMBLY = re.compile(
    r"^<inline asm>:\d+:\d+: note: instantiated into assembly here\n\s*\d+\s*\|\s*(\S+)", re.M
)


def explain(diagnostics: str) -> str | None:
    """One line saying which AMDGPU-only construct made the simulated
    device's compile fail, or None if none did."""
    if mnemonics := sorted(set(_INLINE_ASSEMBLY.findall(diagnostics))):
        return (
            f"inline assembly in device code ({', '.join(mnemonics)}) is AMDGPU machine code: "
            "the simulated device (x86-64) cannot run it"
        )
    if builtins := sorted(set(_UNKNOWN_BUILTIN.findall(diagnostics))):
        return (
            f"{', '.join(builtins)}: AMDGPU {'builtins' if len(builtins) > 1 else 'builtin'} with no meaning "
            "on the simulated device (x86-64)"
        )
    return None
