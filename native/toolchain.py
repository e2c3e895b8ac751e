"""The LLVM 19 tools gpusym builds with, found on PATH or in Debian's
/usr/lib/llvm-19/bin, and one way to run them."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from functools import cache
from pathlib import Path

LLVM_BIN = Path("/usr/lib/llvm-19/bin")
INSTALL_HINT = "install Debian's clang-19, lld-19 and llvm-19 (make demo does it)"


class ToolMissing(Exception):
    """A tool of the toolchain is not installed."""


@cache
def tool(name: str) -> str:
    """Path of `name` (``clang++``, ``clang-offload-bundler``, ...) from LLVM 19."""
    for candidate in (shutil.which(f"{name}-19"), LLVM_BIN / name):
        if candidate and Path(candidate).exists():
            return str(candidate)
    raise ToolMissing(f"{name}-19 not found: {INSTALL_HINT}")


def run(
    command: list[str], *, verbose: bool = False, capture: bool = False, environment: dict[str, str] | None = None
) -> subprocess.CompletedProcess:
    """Runs `command`, with `environment` added to ours; its stderr goes to
    ours unless `capture` is set."""
    if verbose:
        print(shlex.join(command), file=sys.stderr)
    return subprocess.run(
        command,
        stdout=subprocess.PIPE if capture else None,
        stderr=subprocess.PIPE if capture else None,
        text=True,
        env={**os.environ, **environment} if environment else None,
    )
