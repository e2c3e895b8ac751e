"""gdb in batch mode with the extension loaded, and the breakpoint stops in
its output."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import REPO, run

EXTENSION = REPO / "gdbext" / "gpusym_gdb.py"


def gdb(program: Path | None, *commands: str, before: tuple[str, ...] = (), timeout: float = 120) -> str:
    """Output of a batch gdb session: `before` runs ahead of loading the
    extension, then `commands`; the inferior is killed at the end."""
    argv = ["gdb", "-nx", "-batch"]
    for command in (*before, f"source {EXTENSION}", *commands, "kill"):
        argv += ["-ex", command]
    if program is not None:
        argv.append(str(program))
    result = run(argv, timeout=timeout)
    output = result.stdout + result.stderr
    assert "Traceback" not in output and "Python Exception" not in output, output
    return output


def stops(output: str) -> list[str]:
    return re.findall(r"hit Breakpoint \d+, (.*)", output)
