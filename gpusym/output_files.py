"""The files a command writes besides its output (``--sarif``, ``--trace``),
opened before the program runs, so that a path that cannot be written is
one line and ``EXIT_CANNOT_WRITE`` before anything runs."""

from __future__ import annotations

import sys
from typing import IO

from capture.sarif import EXIT_CANNOT_WRITE

__all__ = ["EXIT_CANNOT_WRITE", "open_output"]


def open_output(path: str | None, command: str, what: str) -> IO[str] | None | int:
    """The file at `path` opened for writing, None without a path, or
    ``EXIT_CANNOT_WRITE`` once `command` has said in one line why it cannot
    write `what` there."""
    if not path:
        return None
    try:
        return open(path, "w", encoding="utf-8")
    except OSError as error:
        print(f"{command}: {path}: cannot write {what}: {error.strerror}", file=sys.stderr)
        return EXIT_CANNOT_WRITE
