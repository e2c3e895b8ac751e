"""Headers of another HIP installation reached by a compile: a HIP header
that gpusym's headers lack is found further down the search path (Debian's
libamdhip64-dev puts ROCm's in /usr/include/hip), where its definitions
clash with gpusym's."""

from __future__ import annotations

import re
from pathlib import Path

from device import runtime_library

_HIP_HEADER = re.compile(r"(/[^\s:'\"]*/include/hip/[^\s:'\"]+\.h)")


def explain(diagnostics: str) -> str | None:
    """One line naming the first header of another HIP installation that
    `diagnostics` mention, or None if they mention none."""
    for header in _HIP_HEADER.findall(diagnostics):
        if not Path(header).resolve().is_relative_to(runtime_library.INCLUDE_DIR.resolve()):
            return (
                f"{header} is another HIP installation's header, reached because gpusym's HIP headers "
                f"({runtime_library.INCLUDE_DIR / 'hip'}) have none of that name; it cannot be mixed with them"
            )
    return None
